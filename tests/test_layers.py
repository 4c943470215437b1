"""The engine in layers (CONTRIBUTING.md, "The engine in layers"): the import-linter contracts of
``pyproject.toml`` hold for the source, and each one catches the import it forbids.

``make lint`` runs ``lint-imports`` too; here the source of this checkout (``src/``) is
checked whichever build is installed, and a copy of it with one forbidden import added
shows that the contract is broken (an import inside a function counts too)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")

ROOT = Path(__file__).resolve().parent.parent
LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(no_cache=True))")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on ``root/src`` with ``root/pyproject.toml``."""
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    return subprocess.run([sys.executable, "-c", LINT], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_source_keeps_every_contract() -> None:
    run = _lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    # the import state had before records handed it the serializer
    ("state.py", "def _record() -> None:\n    from .records import make_record  # noqa\n",
     "The engine in layers, the adapters above it BROKEN"),
    ("rules/board.py", "from .. import bots  # noqa\n",
     "The engine never imports an adapter BROKEN"),
    ("exploits/spice_trade.py", "from ..rules import board as _board  # noqa\n",
     "A rule module imports only endeavor.api BROKEN"),
    # the adapters' layers: bots below rl, rl and analysis independent, web below cli,
    # encoding below the bots
    ("bots/greedy.py", "from .. import rl  # noqa\n",
     "The engine in layers, the adapters above it BROKEN"),
    ("analysis/review.py", "from .. import rl  # noqa\n",
     "The engine in layers, the adapters above it BROKEN"),
    ("web/names.py", "from ..cli import common  # noqa\n",
     "The engine in layers, the adapters above it BROKEN"),
    ("encoding/features.py", "def _bots() -> None:\n    from .. import bots  # noqa\n",
     "The engine in layers, the adapters above it BROKEN"),
], ids=["upward", "adapter", "rule-module", "bots-to-rl", "analysis-to-rl", "web-to-cli",
        "encoding-to-bots"])
def test_a_forbidden_import_breaks_its_contract(tmp_path: Path, module: str, line: str,
                                                contract: str) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copytree(ROOT / "src" / "endeavor", tmp_path / "src" / "endeavor",
                    ignore=shutil.ignore_patterns("__pycache__", "static", "migrations",
                                                  "*.so", "*.pyd"))
    path = tmp_path / "src" / "endeavor" / module
    path.write_text(path.read_text() + line)
    run = _lint(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert contract in run.stdout, run.stdout
