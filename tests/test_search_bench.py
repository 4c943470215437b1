"""tools/search_bench.py: its Endeavor worker measures ``hard``'s search on the build
that runs it (here: the suite's), and its command line answers --help and refuses a
missing compiled build with a message, not a traceback."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import endeavor

TOOL = Path(__file__).resolve().parent.parent / "tools" / "search_bench.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_bench", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["search_bench"] = module
    spec.loader.exec_module(module)
    return module


def test_theendeavor_worker_measures_this_build() -> None:
    got = _bench().endeavor_worker(3)
    assert got["iterations"] >= 3 * 3  # 3 a position with a choice (4 of the 7)
    assert got["per_second"] > 0 and got["cpu"] > 0
    assert got["build"] == ("pure" if endeavor.__file__.endswith(".py") else "compiled")
    assert 2 < got["branching"] < 20


def test_help_and_a_missing_compiled_build(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    with pytest.raises(SystemExit) as done:
        bench.main(["--help"])
    assert done.value.code == 0
    assert "--before" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no compiled build"):
        bench.main(["--compiled", "/nonexistent/python", "--no-openspiel"])
