"""The performance gate's judgement (tools/perf_gate.py) on given figures, its driver
(tools/perf_loop.py) on the build under test, and the checked-in baseline. The real
callgrind run is `make perf-gate` (a step of `make test`), not a unit test: these stay
fast."""
from __future__ import annotations

import copy
import importlib.util
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import endeavor

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


gate = _load("perf_gate")
BASELINE: dict[str, Any] = json.loads((TOOLS / "perf_baseline.json").read_text())


def _measured(baseline: dict[str, Any], factor: float = 1.0,
              only: tuple[str, str] | None = None) -> dict[str, Any]:
    """The baseline's own figures as a measurement, ``factor`` times as many
    instructions (for every figure, or only for ``only`` = (build, figure))."""
    m: dict[str, Any] = copy.deepcopy(baseline["builds"])
    for build, entry in m.items():
        for name in entry["figures"]:
            if only is None or only == (build, name):
                entry["figures"][name] = round(entry["figures"][name] * factor)
    return m


def test_the_baseline_has_every_figure_of_both_builds_and_its_versions() -> None:
    assert set(BASELINE["builds"]) == set(gate.BUILDS)
    for entry in BASELINE["builds"].values():
        assert set(entry["figures"]) == set(gate.FIGURES)
        assert all(isinstance(v, int) and v > 0 for v in entry["figures"].values())
        assert entry["python"].count(".") == 2 and entry["valgrind"].startswith("valgrind")
    # the compiled build runs fewer instructions per decision than pure Python
    for name in gate.FIGURES:
        assert BASELINE["builds"]["mypyc"]["figures"][name] < \
            BASELINE["builds"]["pure"]["figures"][name]
    assert BASELINE["games"] > 0 and BASELINE["warm_games"] >= 0


def test_the_baseline_passes_against_itself_with_every_ratio_printed() -> None:
    r = gate.compare(BASELINE, _measured(BASELINE))
    assert (r.status, r.exit_code, r.failures, r.warnings) == ("ok", 0, [], [])
    rows = [line for line in r.lines if line.endswith("  ok")]
    assert len(rows) == len(gate.BUILDS) * len(gate.FIGURES)
    assert all(" 1.0000 " in line for line in rows)


@pytest.mark.parametrize("build", gate.BUILDS)
@pytest.mark.parametrize("name", gate.FIGURES)
def test_a_planted_25_percent_slowdown_of_any_one_figure_fails(build: str, name: str) -> None:
    r = gate.compare(BASELINE, _measured(BASELINE, 1.25, only=(build, name)))
    assert (r.status, r.exit_code) == ("fail", 1)
    assert len(r.failures) == 1 and r.failures[0].startswith(f"{build} {name}: 1.2500")
    assert any(line.startswith(f"{build:6} {name:14}") and "1.2500  SLOWER" in line
               for line in r.lines)


def test_the_thresholds_warn_above_2_percent_and_fail_above_5() -> None:
    assert (gate.WARN_PERCENT, gate.FAIL_PERCENT) == (2.0, 5.0)
    cases = {1.01: "ok", 1.03: "warn", 1.049: "warn", 1.06: "fail", 0.90: "ok"}
    for factor, status in cases.items():
        r = gate.compare(BASELINE, _measured(BASELINE, factor))
        assert r.status == status, (factor, r.lines)
    faster = gate.compare(BASELINE, _measured(BASELINE, 0.90))
    assert any("--update" in n for n in faster.notes)  # a gain is worth locking in


def test_another_python_version_is_said_loudly_and_judges_nothing() -> None:
    m = _measured(BASELINE, 1.25)
    m["pure"]["python"] = "3.99.0"
    r = gate.compare(BASELINE, {"pure": m["pure"]})
    assert (r.status, r.exit_code) == ("not comparable", 0)
    assert any("NOT comparable" in n and "3.99.0" in n for n in r.notes)
    assert any("1.2500" in line for line in r.lines)  # the ratios are still printed


def test_a_figure_or_build_without_baseline_fails() -> None:
    base = copy.deepcopy(BASELINE)
    del base["builds"]["pure"]["figures"]["codes/random"]
    r = gate.compare(base, _measured(BASELINE))
    assert r.status == "fail" and "--update" in r.failures[0]
    assert gate.compare({}, _measured(BASELINE)).status == "fail"


def _drive(env: dict[str, str]) -> dict[str, Any]:
    out = subprocess.run([sys.executable, str(TOOLS / "perf_loop.py"), "0", "1"],
                         capture_output=True, text=True, check=True, timeout=120,
                         env={**os.environ, **env})
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_the_driver_plays_every_loop_on_this_build_and_plants_only_when_asked() -> None:
    plain = _drive({"ENDEAVOR_PERF_PLANT": ""})
    assert plain["build"] == ("mypyc" if endeavor.COMPILED else "pure")
    assert plain["python"] == platform.python_version()
    assert list(plain["decisions"]) == list(gate.FIGURES)
    assert all(n > 100 for n in plain["decisions"].values())
    assert plain["planted"] is False
    planted = _drive({"ENDEAVOR_PERF_PLANT": "50"})
    assert planted["planted"] is True
    assert planted["decisions"] == plain["decisions"]  # the same games, more work


def test_the_engine_never_reads_the_planted_slowdown() -> None:
    for path in (ROOT / "src").rglob("*.py"):
        assert "ENDEAVOR_PERF_PLANT" not in path.read_text(), path
