"""Build script: the engine compiled with mypyc where possible, pure Python otherwise.

All metadata lives in ``pyproject.toml``; this file only decides whether the wheel
carries C extensions built by mypyc from the same typed source (``src/endeavor``).

Which build (:func:`choose`):

* ``ENDEAVOR_PURE=1``: pure Python, always (also every editable install: a compiled
  ``.so`` beside the sources would shadow edits of the ``.py`` files);
* ``ENDEAVOR_MYPYC=1``: compiled, and the build fails if it cannot be;
* ``ENDEAVOR_MYPYC_OPT``: the C optimisation level (default ``3``; ``0`` compiles
  fastest, for trying things out);
* otherwise (auto): compiled on CPython when a C compiler can build against
  ``Python.h`` and mypyc can compile the source, pure Python if not (with a warning).

What is compiled (:func:`compiled_modules`): every module under ``src/endeavor`` (new
modules are picked up automatically) except the Rich adapters (any module that imports
``rich``: the terminal screen and its renderer), :data:`INTERPRETED` and the packages of
:data:`INTERPRETED_DIRS` (the command line, the web app, the RL adapters but for the
observation encoder's core, :data:`COMPILED_IN_INTERPRETED`). The installed
package says which build runs: ``endeavor.COMPILED``, ``endeavor --version``.
"""

from __future__ import annotations

import os
import platform
import re
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "endeavor"

#: modules (paths relative to ``src/endeavor``) always left interpreted, besides the
#: Rich adapters: ``config.py`` (``GameConfig`` validates whatever it is given with
#: its own errors; compiled, its dataclass ``__init__`` would raise ``TypeError`` on a
#: wrong type first; it is read once per game), ``testing.py`` (test support),
#: ``train.py`` (``endeavor train``: it orchestrates worker processes, Ray tasks and a
#: numpy learner, nothing worth compiling, and Ray's ``remote`` needs its functions to
#: be Python; the expert bot it trains and plays is compiled with the bots),
#: ``review.py`` (``endeavor review``, the same kind of orchestration: it checks what
#: it is given with its own errors, and the bots whose searches it runs are compiled),
#: ``parallel.py`` (the process pools and Ray tasks of tournaments, reviews and
#: training: it hands functions to spawned processes and to Ray's ``remote``, which
#: takes only Python functions, and waits on them: nothing worth compiling) and
#: ``rl/openspiel.py`` (OpenSpiel's Python game: its classes subclass pyspiel's, whose
#: C++ side clones and serializes a state through its ``__dict__``; mypyc's native
#: classes can do neither, and pyspiel is an optional extra)
INTERPRETED = frozenset({"config.py", "testing.py", "analysis/train.py",
                         "analysis/review.py", "analysis/parallel.py", "rl/openspiel.py"})
#: the old import paths of moved modules (each replaces itself by the module it names
#: in ``sys.modules``), kept for one release
MOVED = frozenset({"screen.py", "render.py", "review.py", "tournament.py", "train.py",
                   "parallel.py", "rl/actions.py", "rl/observation.py", "rl/features.py"})
#: packages left interpreted: the command line (``cli/``: the argparse and Rich adapter,
#: one module per command; left out by its path, not only because its modules import
#: ``rich``, and its tests patch module globals such as
#: ``endeavor.cli.play.DEFAULT_OPPONENT``), the web app
#: (``web/``: FastAPI, SQLAlchemy and pydantic adapters, I/O-bound, that use only the
#: engine's public API) and the research environments (``rl/``: numpy, Gymnasium,
#: PettingZoo and OpenSpiel adapters, which the compiled wheel's build does not install;
#: ``encoding/``: the action index and the observation, numpy arrays)
INTERPRETED_DIRS = ("cli/", "web/", "rl/", "encoding/")
#: modules compiled although their package is in :data:`INTERPRETED_DIRS`: the
#: observation encoder's core (``encoding/features.py``: stdlib only, run at every step of an
#: RL loop)
COMPILED_IN_INTERPRETED = frozenset({"encoding/features.py"})

#: the bottom of the import graph: modules that import no other endeavor module but
#: each other. They are compiled as their own group (shared library) so that mypy
#: checks them before the rest; in one group, mypyc would check the whole engine as a
#: single import cycle and could not infer their module-level constants in time for
#: the Exploits' module-level tables ("Cannot determine type").
CORE = ("data.py", "errors.py", "actions.py", "messages.py")

_RICH = re.compile(r"^\s*(?:from|import)\s+rich\b", re.MULTILINE)


def _flag(name: str) -> bool:
    """Whether environment variable ``name`` is set to a true value."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def compiled_modules() -> list[str]:
    """The module files mypyc compiles (``src/endeavor/...``, sorted)."""
    files = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in COMPILED_IN_INTERPRETED:
            files.append(path.relative_to(ROOT).as_posix())
            continue
        if (rel in INTERPRETED or rel in MOVED or rel.startswith(INTERPRETED_DIRS)
                or _RICH.search(path.read_text(encoding="utf-8"))):
            continue
        files.append(path.relative_to(ROOT).as_posix())
    return files


def have_c_compiler() -> bool:
    """Whether the C compiler Python was built with can compile against ``Python.h``."""
    try:
        import setuptools  # noqa: F401  (provides distutils on Python >= 3.12)
        from distutils.ccompiler import new_compiler
        from distutils.sysconfig import customize_compiler
    except ImportError:
        return False
    compiler: Any = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "probe.c"
        source.write_text("#include <Python.h>\nint endeavor_probe(void) { return 0; }\n")
        try:
            compiler.compile([str(source)], output_dir=tmp,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except Exception:  # CompileError, a missing executable, ...
            return False
    return True


def _mypyc_importable() -> bool:
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return False
    return True


def choose(editable: bool = False, mypyc_importable: bool | None = None) -> str:
    """``"mypyc"`` or ``"pure"``: which build to make (see the module docstring).
    Raises ``SystemExit`` when ``ENDEAVOR_MYPYC=1`` asks for what cannot be built."""
    if _flag("ENDEAVOR_PURE") or editable or _flag("ENDEAVOR_EDITABLE"):
        return "pure"
    forced = _flag("ENDEAVOR_MYPYC")
    reason = ""
    if platform.python_implementation() != "CPython":
        reason = f"mypyc needs CPython, not {platform.python_implementation()}"
    elif not have_c_compiler():
        reason = "no working C compiler (or no Python.h)"
    elif not (_mypyc_importable() if mypyc_importable is None else mypyc_importable):
        reason = "mypyc (part of mypy) is not installed"
    if not reason:
        return "mypyc"
    if forced:
        raise SystemExit(f"ENDEAVOR_MYPYC=1 but cannot compile: {reason}")
    print(f"endeavor: building pure Python ({reason})", file=sys.stderr)
    return "pure"


def ext_modules() -> list[Any]:
    """The mypyc extensions, or none for a pure-Python build (auto mode falls back to
    pure Python when mypyc rejects the source; ``ENDEAVOR_MYPYC=1`` fails instead)."""
    if choose() != "mypyc":
        return []
    from mypyc.build import mypycify

    files = compiled_modules()
    core = [f for f in files if f.removeprefix("src/endeavor/") in CORE]
    rest = [f for f in files if f not in core]
    try:
        return list(mypycify(files, opt_level=os.environ.get("ENDEAVOR_MYPYC_OPT", "3"),
                             debug_level="0",
                             separate=[(core, "endeavor_core"), (rest, "endeavor_engine")]))
    except (Exception, SystemExit) as exc:
        if _flag("ENDEAVOR_MYPYC"):
            raise
        print(f"endeavor: mypyc failed ({exc!r}); building pure Python", file=sys.stderr)
        return []


def _building() -> bool:
    """Whether this run builds code (a wheel or extensions), not only metadata."""
    return any(cmd in sys.argv for cmd in ("bdist_wheel", "build", "build_ext", "install"))


if __name__ == "__main__":
    from setuptools import setup

    setup(ext_modules=ext_modules() if _building() else [])
