"""Which build of the engine runs: the mypyc-compiled one or pure Python.

``make test`` runs this suite twice, on the pure-Python editable install and on the
compiled wheel, with ``ENDEAVOR_EXPECT_BUILD`` set to ``pure`` or ``mypyc`` so that a
run can never silently test the other build. ``endeavor.COMPILED``, ``endeavor
--version`` and ``endeavor bench`` say which build runs; both builds run the engine
without ``mypy_extensions`` (the pure engine is stdlib-only)."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from importlib import machinery

import pytest

import endeavor
import endeavor.cli
from endeavor.cli import main

EXTENSION = tuple(machinery.EXTENSION_SUFFIXES)
#: a sample of engine modules from every package: all compiled, or none
ENGINE = ("state", "actions", "data", "records", "rules.base", "rules.age_of_sail",
          "rules.classic", "exploits.spice_trade", "variants.silent_fleet", "api",
          "bots.random_bot")


def _compiled(name: str) -> bool:
    module = importlib.import_module(name)
    return str(module.__file__).endswith(EXTENSION)


def test_compiled_says_which_build_the_engine_modules_are() -> None:
    assert isinstance(endeavor.COMPILED, bool)
    assert [_compiled(f"endeavor.{m}") for m in ENGINE] == [endeavor.COMPILED] * len(ENGINE)
    assert endeavor.BUILD == ("compiled with mypyc" if endeavor.COMPILED else "pure Python")
    # the Rich adapters (the command line: every module of it) and the dataclass that
    # checks any input are always interpreted
    cli = [f"cli.{m.name}" for m in pkgutil.iter_modules(endeavor.cli.__path__)]
    assert "cli.play" in cli and "cli.common" in cli, cli
    for name in ("cli", *cli, "terminal.screen", "terminal.render", "config", "testing"):
        assert not _compiled(f"endeavor.{name}"), name


def test_the_build_under_test_is_the_one_make_asked_for() -> None:
    want = os.environ.get("ENDEAVOR_EXPECT_BUILD", "")
    if not want:
        pytest.skip("ENDEAVOR_EXPECT_BUILD is not set (make test sets it)")
    assert want in ("pure", "mypyc"), want
    assert endeavor.COMPILED == (want == "mypyc"), endeavor.__file__


def test_version_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"endeavor {endeavor.__version__} ({endeavor.BUILD})\n"


def test_bench_names_the_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "1", "--seconds", "0.05", "--players", "2",
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["build"] == endeavor.BUILD
    assert summary["steps_per_s"]["median"] > 0
    assert main(["bench", "--runs", "1", "--seconds", "0.05", "--players", "2"]) == 0
    assert f"engine {endeavor.BUILD}" in capsys.readouterr().out


def test_the_engine_needs_no_mypy_extensions() -> None:
    """With ``mypy_extensions`` unimportable, the engine imports, plays a seeded game and
    accepts a rule module subclassed at run time (its ``mypyc_attr`` is a guarded
    import); the result is the same game as here."""
    code = (
        "import sys\n"
        "sys.modules['mypy_extensions'] = None  # import fails\n"
        "from endeavor import GameConfig, new_game, final_scores, api\n"
        "class Quiet(api.RuleModule):\n"
        "    id = 'quiet'\n"
        "    number = 19\n"
        "api.register(Quiet())\n"
        "s = new_game(GameConfig(players=3, seed=5))\n"
        "while not s.is_over:\n"
        "    s.apply_code(s.legal_codes()[len(s.legal_codes()) // 2])\n"
        "print([x.total for x in final_scores(s)])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=os.path.dirname(__file__)).stdout
    here = endeavor.new_game(endeavor.GameConfig(players=3, seed=5))
    while not here.is_over:
        here.apply_code(here.legal_codes()[len(here.legal_codes()) // 2])
    assert out.strip() == str([x.total for x in endeavor.final_scores(here)])
