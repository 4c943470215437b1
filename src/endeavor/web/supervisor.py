"""``endeavor serve``'s supervisor: the app runs in worker processes (one by default) that
a parent process starts again when one dies, with one line saying how it died.

Why even one worker is supervised: SQLite in WAL mode maps the database's ``-shm`` file
into memory, and a process whose mapped page can no longer be backed by the file is
killed by SIGBUS, with no exception to catch: the ``-shm`` truncated by another process
(a copy or a restore over it, a second SQLite user on a filesystem whose locks do not
work), or a full disk on a filesystem that can need new blocks when a mapped page is
written (copy-on-write ones: btrfs, ZFS). SQLite itself writes each new page of the
``-shm`` before mapping it, so a full disk is otherwise an error (503), not a crash
(tested on a full tmpfs). A rollback journal has no shared memory and cannot crash this
way, but costs every commit two or three ``fsync`` calls and makes readers and the writer
wait for each other: measured with ``python -m tools.loadtest --games 200`` it multiplied the p99
of a move by 1.6 to 22 (see docs/web.md). So the server keeps WAL, and a worker killed by
SIGBUS (or any signal) is reported and replaced: what it acknowledged is in the WAL, which
the next connection reads back (SQLite rebuilds the ``-shm`` from it); the requests it was
serving get a closed connection.

This is Uvicorn's own supervisor (``uvicorn.supervisors.Multiprocess``, which
``--workers N`` used already), used for one worker too, with the line about the death.
Beside the workers it keeps one background process alive: the notifications' sender
(:mod:`endeavor.web.jobs`).
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable
from typing import Any, Final

log = logging.getLogger("endeavor.web")

#: what a worker killed by a signal most likely met, by signal
_CAUSES: Final[dict[int, str]] = {
    signal.SIGBUS.value: ("a memory-mapped file failed it: the SQLite database's -shm file "
                          "was truncated, or its disk is full"),
    signal.SIGSEGV.value: "a crash in native code",
    signal.SIGKILL.value: "out of memory, or it stopped answering the supervisor",
}


#: seconds a worker may leave the supervisor's ping unanswered before it is taken for hung
#: and replaced (Uvicorn's default is 5; a compiled engine's long bot search holds the
#: GIL, which the worker's answering thread needs, for seconds)
HEALTHCHECK_SECONDS: Final = 30


def death(exitcode: int) -> str:
    """How a worker that ended with ``exitcode`` (negative: killed by that signal) died,
    in words."""
    if exitcode >= 0:
        return f"exited with status {exitcode}"
    try:
        name = signal.Signals(-exitcode).name
    except ValueError:
        name = f"signal {-exitcode}"
    cause = _CAUSES.get(-exitcode)
    return f"was killed by {name}" + (f" ({cause})" if cause else "")


class Background:
    """A process running ``target`` beside the web workers (``endeavor serve``'s
    background jobs: :func:`endeavor.web.jobs.main`), started again when it dies."""

    def __init__(self, target: Callable[[], None]) -> None:
        import multiprocessing

        self.target = target
        self._ctx = multiprocessing.get_context("spawn")
        self.process: Any = None

    def start(self) -> None:
        self.process = self._ctx.Process(target=self.target, name="endeavor-jobs",
                                         daemon=True)
        self.process.start()

    def keep_alive(self) -> None:
        """Start it again if it died (with one line saying how)."""
        if self.process is not None and not self.process.is_alive():
            log.warning("the background process %s %s; a new one was started",
                        self.process.pid, death(self.process.exitcode or 0))
            self.start()

    def stop(self, timeout: float = 15.0) -> None:
        if self.process is None:
            return
        self.process.terminate()  # SIGTERM: it stops its senders and exits
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.process = None


def run(factory: str, *, workers: int = 1, background: Callable[[], None] | None = None,
        **options: Any) -> bool:
    """Serve the app of ``factory`` (an import string of a factory) with Uvicorn in
    ``workers`` processes under a supervisor until it is told to stop (SIGINT, SIGTERM),
    with ``background`` (a picklable function) running in a process of its own beside
    them; ``options`` are :class:`uvicorn.Config`'s. Returns False when a worker could
    not start (Uvicorn logged why), True otherwise."""
    from uvicorn import Config
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    jobs = Background(background) if background is not None else None

    class Supervisor(Multiprocess):
        failed = False

        def keep_subprocess_alive(self) -> None:
            before = list(self.processes)
            super().keep_subprocess_alive()  # replaces a worker that died or hung
            for old, new in zip(before, self.processes, strict=False):
                if new is not old and old.exitcode is not None:
                    log.warning("the server process %s %s; a new one was started",
                                old.pid, death(old.exitcode))
            if any(p.exitcode == STARTUP_FAILURE for p in self.processes):
                self.failed = True
            if jobs is not None and not self.should_exit.is_set():
                jobs.keep_alive()

    options.setdefault("timeout_worker_healthcheck", HEALTHCHECK_SECONDS)
    config = Config(factory, factory=True, workers=workers, **options)
    sock = config.bind_socket()
    supervisor = Supervisor(config, sockets=[sock])
    try:
        if jobs is not None:
            jobs.start()
        supervisor.run()
    finally:
        sock.close()
        if jobs is not None:
            jobs.stop()
    return not supervisor.failed
