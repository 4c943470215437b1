"""The server's side of :mod:`endeavor.web.compute`: :class:`Engines` (which build does
the engine work, the worker processes kept for it) and :class:`Worker` (one of them)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import endeavor

from .protocol import (
    AUTO,
    BUILD_LOG,
    BUILD_PID,
    CHECK_SECONDS,
    CHECKOUT_VENV,
    ENGINE_PYTHON_VAR,
    PROTOCOL,
    PURE,
    RETRY_SECONDS,
    STAMP,
    checkout_root,
    decode,
    encode,
    own_digest,
    send,
)

log = logging.getLogger("endeavor.web")

class WorkerFailed(Exception):
    """An engine worker died, answered nonsense or raised: the server computes the
    request itself."""


class Worker:
    """One engine worker process of interpreter ``python`` (see the module's doc)."""

    def __init__(self, python: str, nice: int = 0) -> None:
        self.python = python = os.path.abspath(python)
        # another interpreter (another venv: the path itself, not where its symlinks
        # lead) is isolated from this one's PYTHONPATH and directory (it would import
        # these sources instead of its own compiled modules)
        same = os.path.abspath(python) == os.path.abspath(sys.executable)
        command = [python, *(() if same else ("-I",)), "-m", "endeavor.web.compute"]
        if nice > 0:
            command += ["--nice", str(nice)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True,
                                        encoding="utf-8", cwd="/" if not same else None)

    def ask(self, request: Mapping[str, Any],
            on_call: Callable[[str, list[Any]], None] | None = None) -> dict[str, Any]:
        """Send ``request``; its answer. ``on_call(name, args)`` runs each callback the
        worker calls (an exception it raises stops the request, then is raised here)."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            send(stdin, request)
            while True:
                line = stdout.readline()
                if not line:
                    raise WorkerFailed(f"the engine worker {self.process.pid} ended "
                                       f"(status {self.process.poll()})")
                answer = json.loads(line)
                if "call" not in answer:
                    return dict(answer)
                error: BaseException | None = None
                if on_call is not None:
                    try:
                        on_call(str(answer["call"]), list(decode(answer.get("args") or [])))
                    except BaseException as e:
                        error = e
                send(stdin, {"stop": True} if error is not None else {"go": True})
                if error is not None:
                    stopped = json.loads(stdout.readline() or "{}")
                    if not stopped.get("cancelled"):
                        self.close()
                    raise error
        except (OSError, ValueError) as e:
            self.close()
            raise WorkerFailed(f"the engine worker failed: {type(e).__name__}: {e}") from e

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.wait(5)
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.close()


@dataclass(frozen=True)
class EngineStatus:
    """Which build does the engine work now (``GET /api/status``'s ``engine``):
    ``build`` ``compiled`` or ``pure``; ``compiled_build`` one of :data:`BUILD_STATES`;
    ``text`` in words, as the page shows it."""

    build: str
    compiled_build: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"build": self.build, "compiled_build": self.compiled_build,
                "text": self.text}


def local_status(state: str = "off") -> EngineStatus:
    """The status of engine work done in this process, the compiled build being in
    ``state`` (:data:`BUILD_STATES`)."""
    if endeavor.COMPILED:
        return EngineStatus("compiled", "here", "compiled (mypyc)")
    return EngineStatus("pure", state, _WORDS.get(state, _WORDS["missing"]))


_WORDS: Final = {
    "building": "pure Python (compiled build in progress)",
    "failed": "pure Python (the compiled build failed)",
    "stale": "pure Python (the compiled build is of other sources)",
    "missing": "pure Python",
    "off": "pure Python",
}


class Engines:
    """The engine workers of one server process (see the module's doc): ``setting``
    ``auto``, ``pure`` or an interpreter's path (default :data:`ENGINE_PYTHON_VAR`,
    else ``pure``); ``checkout`` where ``auto`` looks for ``.venv-mypyc`` (default this
    package's checkout); ``nice`` the workers' lower priority. :meth:`choose` and
    :meth:`review` return None when the server should compute the request itself."""

    def __init__(self, setting: str | None = None, *, checkout: Path | None = None,
                 nice: int = 0, check_seconds: float = CHECK_SECONDS) -> None:
        raw = setting if setting is not None else os.environ.get(ENGINE_PYTHON_VAR, PURE)
        self.setting = raw.strip() or AUTO
        self.checkout = checkout if checkout is not None else checkout_root()
        self.nice = nice
        self.check_seconds = check_seconds
        self._lock = threading.Lock()
        self._idle: list[Worker] = []
        self._checked = -1e18  # when the build was last looked at (monotonic)
        self._python: str | None = None  # the interpreter in use, once it said hello
        self._signature: object = None  # what the build looked like at its hello
        self._failed_at: dict[object, float] = {}  # hello refused: when, by signature
        self._status = local_status("off" if self.setting == PURE else "missing")
        self._hello: dict[str, Any] = {}
        self._closed = False
        #: requests the engine workers answered (moves, reviews), for tests and tools
        self.served = 0

    @classmethod
    def from_env(cls, nice: int = 0) -> Engines:
        """The setting ``endeavor serve`` handed its processes (default ``auto``)."""
        return cls(os.environ.get(ENGINE_PYTHON_VAR, AUTO), nice=nice)

    # ---------------------------------------------------------------- which build
    def _candidate(self) -> tuple[str | None, object, str]:
        """The interpreter to use now, the build's signature (a new one: a new
        ``hello``) and the compiled build's state when there is none."""
        if self.setting == PURE:
            return None, None, "off"
        if endeavor.COMPILED and self.setting == AUTO:
            return None, None, "here"  # this process is the compiled build
        if self.setting != AUTO:
            path = Path(self.setting)
            try:
                stamp = path.parent.parent / STAMP
                signature: object = (str(path), stamp.stat().st_mtime_ns
                                     if stamp.exists() else 0)
            except OSError:
                signature = (str(path), 0)
            return (str(path) if os.access(path, os.X_OK) else None), signature, "missing"
        if self.checkout is None:
            return None, None, "missing"
        venv = self.checkout / CHECKOUT_VENV
        try:
            signature = (str(venv), (venv / STAMP).stat().st_mtime_ns)
        except OSError:
            return None, None, build_state(self.checkout)
        python = venv / "bin" / "python"
        return (str(python) if os.access(python, os.X_OK) else None), signature, "missing"

    def _refresh(self) -> None:
        """Look at the build again if it is time (under ``_lock``)."""
        now = time.monotonic()
        if now - self._checked < self.check_seconds or self._closed:
            return
        self._checked = now
        python, signature, state = self._candidate()
        if python is None:
            self._use(None, None, {}, state)
            return
        if signature == self._signature and self._python == python:
            return
        failed = self._failed_at.get(signature)
        if failed is not None and now - failed < RETRY_SECONDS:
            return
        try:
            worker = Worker(python, self.nice)
            hello = worker.ask({"op": "hello"})
        except (OSError, WorkerFailed) as e:
            log.warning("the engine at %s cannot be used (%s): the engine work stays "
                        "on this process's build", python, e)
            self._failed_at[signature] = now
            self._use(None, None, {}, "failed")
            return
        problem = ("it speaks another protocol" if hello.get("protocol") != PROTOCOL
                   else "it is a build of other engine sources (rebuild it: make compiled)"
                   if hello.get("digest") != own_digest() else None)
        if problem is not None:
            worker.close()
            log.warning("the engine at %s is not used: %s", python, problem)
            self._failed_at[signature] = now
            self._use(None, None, {}, "stale")
            return
        self._use(python, signature, hello, "ready")
        self._idle.append(worker)
        log.warning("engine work (search bots, reviews) now runs on %s: %s",
                    python, hello.get("build"))

    def _use(self, python: str | None, signature: object, hello: dict[str, Any],
             state: str) -> None:
        if python != self._python or signature != self._signature:
            for worker in self._idle:
                worker.close()
            self._idle.clear()
        self._python, self._signature, self._hello = python, signature, hello
        if python is None:
            self._status = local_status(state)
        elif hello.get("compiled"):
            self._status = EngineStatus("compiled", "ready", "compiled (mypyc)")
        else:
            self._status = EngineStatus("pure", "ready", "pure Python (in worker processes)")

    def status(self) -> EngineStatus:
        """Which build does the engine work now (the build looked at if it is time)."""
        with self._lock:
            self._refresh()
            return self._status

    @property
    def python(self) -> str | None:
        """The interpreter of the engine workers in use (None: this process)."""
        with self._lock:
            return self._python

    @contextlib.contextmanager
    def worker(self) -> Iterator[Worker | None]:
        """An engine worker for one request (None: compute it here); a worker that
        failed is not used again."""
        with self._lock:
            self._refresh()
            python, signature = self._python, self._signature
            worker = self._idle.pop() if self._idle else None
        if python is None:
            yield None
            return
        if worker is None:
            try:
                worker = Worker(python, self.nice)
            except OSError as e:
                log.warning("cannot start an engine worker (%s): computing here", e)
                yield None
                return
        try:
            yield worker
        finally:
            with self._lock:
                keep = (worker.alive and not self._closed and python == self._python
                        and signature == self._signature)
                if keep:
                    self._idle.append(worker)
            if not keep:
                worker.close()

    def choose(self, record: Mapping[str, Any], bot: str, seed: int,
               budget: Mapping[str, Any]) -> str | None:
        """``bot``'s action (its notation) in the game of ``record``, computed by an
        engine worker; None when there is none or it failed (logged)."""
        with self.worker() as worker:
            if worker is None:
                return None
            try:
                answer = worker.ask({"op": "choose", "record": record, "bot": bot,
                                     "seed": seed, "budget": dict(budget)})
            except WorkerFailed as e:
                log.warning("%s; the %s bot's move is computed here", e, bot)
                return None
            if not answer.get("ok"):
                log.warning("the engine worker's %s bot failed (%s); computed here",
                            bot, answer.get("error"))
                return None
            self.served += 1
            return str(answer["action"])

    def review(self, record: Mapping[str, Any], options: Mapping[str, Any],
               known: Sequence[Any] = (),
               callbacks: Mapping[str, Callable[..., None]] | None = None) -> Any:
        """:func:`endeavor.analysis.review.review` of ``record`` with ``options`` (plain
        data) and ``known`` decisions, run by an engine worker, ``callbacks`` (by
        keyword: ``progress``, ``on_decision``) called here; the
        :class:`~endeavor.analysis.review.Review`, or None when there is no worker or it
        failed (logged: the caller reviews here, from the decisions its callbacks
        got). An exception a callback raises stops the review and is raised here."""
        from endeavor.analysis.review import Review

        calls = dict(callbacks or {})
        with self.worker() as worker:
            if worker is None:
                return None
            request = {"op": "review", "record": record, "options": dict(options),
                       "known": encode(list(known)), "callbacks": sorted(calls)}
            try:
                answer = worker.ask(request, lambda name, args: calls[name](*args))
            except WorkerFailed as e:
                log.warning("%s; the review is continued here", e)
                return None
            if not answer.get("ok"):
                log.warning("the engine worker's review failed (%s); reviewed here",
                            answer.get("error"))
                return None
            self.served += 1
            return Review.from_json(str(answer["result"]))

    def close(self) -> None:
        """End the idle workers (and those in use, when their request ends)."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.close()


def build_state(checkout: Path) -> str:
    """The state of ``checkout``'s compiled build when its stamp is missing:
    ``building`` (the background build of ``make serve`` runs), ``failed`` (its log
    ends with a failure) or ``missing``."""
    with contextlib.suppress(OSError, ValueError):
        pid = int((checkout / BUILD_PID).read_text().split()[0])
        os.kill(pid, 0)
        return "building"
    with contextlib.suppress(OSError):
        lines = (checkout / BUILD_LOG).read_text(errors="replace").strip().splitlines()
        if lines and lines[-1].startswith("exit status ") and lines[-1] != "exit status 0":
            return "failed"
    return "missing"
