"""The engine workers' side of :mod:`endeavor.web.compute`, and what both sides share:
the settings' names, the digest of the engine sources, the request lines (one JSON
object a line) and the worker's loop (``python -m endeavor.web.compute``). Only the
standard library and the engine: a compiled install without the web extra runs it."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Final

import endeavor

#: the version of the request lines: a worker of another version is not used
PROTOCOL: Final = 1
#: ``endeavor serve --engine-python``, handed to its processes: ``auto``, ``pure`` or
#: the path of an interpreter
ENGINE_PYTHON_VAR: Final = "ENDEAVOR_ENGINE_PYTHON"
#: the settings that are not a path
AUTO: Final = "auto"
PURE: Final = "pure"
#: seconds between two looks at the compiled build (its stamp: a ``stat``)
CHECK_SECONDS: Final = 2.0
#: seconds before an interpreter that failed its ``hello`` is tried again
RETRY_SECONDS: Final = 60.0
#: the compiled build of a checkout: its venv, its stamp, and the log and process id of
#: the build ``make serve`` starts in the background (Makefile)
CHECKOUT_VENV: Final = ".venv-mypyc"
STAMP: Final = ".installed-compiled"
BUILD_LOG: Final = ".venv-mypyc.log"
BUILD_PID: Final = ".venv-mypyc.pid"
#: the packages the digest leaves out: adapters an engine worker does not run
_NOT_ENGINE: Final = ("web", "cli", "terminal")
_DIGESTED: Final = (".py", ".npz", ".txt")

#: what :meth:`Engines.status` can say of the compiled build: its workers in use
#: (``ready``), this very process compiled (``here``), being built, its build failed,
#: a build of other sources, none, or not wanted (``--engine-python pure``)
BUILD_STATES: Final = ("ready", "here", "building", "failed", "stale", "missing", "off")


def engine_digest(package: Path | None = None) -> str:
    """A digest of the engine an engine worker runs (``package``: the ``endeavor``
    package's directory, default this one's): its sources, bots' weights and data,
    this package (the workers' own) included, the other adapters (the web app, the command line, the
    terminal) left out. Equal in the editable checkout and in a wheel built from it."""
    root = package or Path(endeavor.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if (path.suffix not in _DIGESTED or "__pycache__" in rel.parts
                or (rel.parts[0] in _NOT_ENGINE and rel.parts[:2] != ("web", "compute"))
                or not path.is_file()):
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


_DIGEST: list[str] = []


def own_digest() -> str:
    """:func:`engine_digest` of this process's package, computed once."""
    if not _DIGEST:
        _DIGEST.append(engine_digest())
    return _DIGEST[0]


def checkout_root() -> Path | None:
    """The checkout this package is the editable install of (the directory holding
    ``src/endeavor``), or None for an installed package."""
    here = Path(endeavor.__file__).resolve().parent
    if here.parent.name == "src" and (here.parent.parent / "pyproject.toml").is_file():
        return here.parent.parent
    return None

class _Cancelled(Exception):
    """The server asked the worker to stop the request under way."""


def encode(value: Any) -> Any:
    """A callback's argument as JSON: a result object as its ``to_dict()``."""
    if hasattr(value, "to_dict"):
        return {"$": type(value).__name__, "fields": value.to_dict()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def decode(value: Any) -> Any:
    if isinstance(value, dict) and "$" in value:
        from endeavor.analysis.review import ReviewedDecision

        kinds: dict[str, Callable[[Any], Any]] = {"ReviewedDecision": ReviewedDecision.from_dict}
        make = kinds.get(str(value["$"]))
        return make(value["fields"]) if make is not None else value["fields"]
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def send(out: IO[str], message: Mapping[str, Any]) -> None:
    out.write(json.dumps(message, separators=(",", ":")) + "\n")
    out.flush()


def _hello() -> dict[str, Any]:
    return {"ok": True, "protocol": PROTOCOL, "compiled": endeavor.COMPILED,
            "build": endeavor.BUILD, "version": endeavor.__version__,
            "digest": own_digest(), "pid": os.getpid()}


def _choose(request: Mapping[str, Any]) -> dict[str, Any]:
    from endeavor.bots import make

    started = time.process_time()
    state = endeavor.replay(request["record"])
    bot = make(str(request["bot"]), seed=int(request["seed"]), **dict(request.get("budget") or {}))
    action = str(bot.choose(state))
    return {"ok": True, "action": action, "cpu": time.process_time() - started}


def _review(request: Mapping[str, Any], inp: IO[str], out: IO[str]) -> dict[str, Any]:
    from endeavor.analysis.review import review

    def callback(name: str) -> Callable[..., None]:
        def call(*args: Any) -> None:
            send(out, {"call": name, "args": encode(list(args))})
            answer = json.loads(inp.readline() or '{"stop": true}')
            if answer.get("stop"):
                raise _Cancelled()
        return call

    started = time.process_time()
    options = dict(request.get("options") or {})
    options["known"] = tuple(decode(request.get("known") or []))
    for name in request.get("callbacks") or ():
        options[str(name)] = callback(str(name))
    try:
        result = review(request["record"], **options)
    except _Cancelled:
        return {"ok": False, "cancelled": True}
    return {"ok": True, "result": result.to_json(), "cpu": time.process_time() - started}


def serve_requests(inp: IO[str], out: IO[str]) -> None:
    """Answer the request lines of ``inp`` on ``out`` until ``inp`` ends."""
    for line in iter(inp.readline, ""):
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "hello":
                answer = _hello()
            elif op == "choose":
                answer = _choose(request)
            elif op == "review":
                answer = _review(request, inp, out)
            else:
                answer = {"ok": False, "error": f"unknown request {op!r}"}
        except Exception as e:  # said to the server, which computes it itself
            answer = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        send(out, answer)


def main(argv: Sequence[str] | None = None) -> int:
    """An engine worker: requests on stdin, answers on stdout (anything else the
    engine prints goes to stderr, the server's log); it ends when its input does.
    ``--nice N`` lowers its priority (the reviews' worker)."""
    args = list(sys.argv[1:] if argv is None else argv)
    # the server decides when a worker ends (it closes the pipe, or kills it): a Ctrl-C
    # meant for the server must not cut a request short
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if len(args) == 2 and args[0] == "--nice":
        with contextlib.suppress(ValueError, OSError, AttributeError):
            os.nice(int(args[1]))
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        serve_requests(sys.stdin, out)
    return 0
