"""The server a load test starts: ``endeavor serve`` in a process of its own
(:class:`ServerProcess`, also used by the web app's tests that need a real server), and
the load test's settings."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

import httpx

HOST = "127.0.0.1"
START_TIMEOUT = 90.0  # seconds for a started server to answer (migrations included)
STOP_TIMEOUT = 15.0  # seconds for a server to stop after SIGTERM before SIGKILL
REQUEST_TIMEOUT = 60.0  # seconds for one HTTP request
WS_OPEN_TIMEOUT = 30.0
WS_SETTLE = 5.0  # seconds the WebSockets get at the end to announce the final seq
KEEPALIVE_EXPIRY = 2.0  # seconds a game's connection may stay idle before a new one
MAX_CONSECUTIVE_ERRORS = 5  # a game stops after this many failed requests in a row
PLAYERS = 2
#: mean pause in seconds of a game's player before each move (uniform in [0, 2x mean]),
#: when ``args`` has no ``think`` (the command line's ``--think`` has its own default);
#: 0 plays each game as fast as the server answers (a closed loop: the round trip is then
#: mostly queueing, about G games in flight / throughput, whatever the server's speed)
DEFAULT_THINK = 0.0
#: the Python statement that runs the command line in the server process (the same
#: interpreter as ours, so the same installation of endeavor)
LAUNCH = "import sys; from endeavor.cli import main; sys.exit(main(sys.argv[1:]))"


#: the task running :meth:`Driver.run` (SIGTERM cancels it)
_MAIN_TASKS: set[asyncio.Task[None]] = set()


class LoadTestError(Exception):
    """Bad input or a failed start, said in one line (exit status 2)."""


class ServerError(Exception):
    """The server process did not start, or died."""


# --------------------------------------------------------------------------- the server
def free_port(host: str = HOST) -> int:
    """A TCP port nobody listens on right now at ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine's loopback."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def hide_password(url: str) -> str:
    """``url`` with the password of its user part (if any) replaced by ``***``."""
    return re.sub(r"^([a-zA-Z0-9+.-]+://[^:/@]*):[^@/]*@", r"\1:***@", url)


class ServerProcess:
    """``endeavor serve`` in a process of its own (its own session, so a ``kill`` reaches
    the Uvicorn workers too), listening on ``127.0.0.1:port``, its output in ``log``."""

    def __init__(self, db: str, *, workers: int = 1, port: int | None = None,
                 log: Path | None = None, extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.workers = workers
        self.fixed_port = port
        self.port = port if port is not None else free_port()
        self.extra = extra
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if log is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="endeavor-server-")
            log = Path(self._tmp.name) / "server.log"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def command(self) -> list[str]:
        return [sys.executable, "-c", LAUNCH, "serve", "--host", HOST,
                "--port", str(self.port), "--db", self.db, "--workers", str(self.workers),
                *self.extra]

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the server and wait until ``GET /api/meta`` answers 200; a port taken
        meanwhile by someone else gets a new one (when the port was not given)."""
        for attempt in range(3):
            self._spawn()
            try:
                self._wait_ready(timeout)
                return
            except ServerError:
                in_use = "address already in use" in self.log_tail(20).lower()
                self.kill()
                if not in_use or self.fixed_port is not None or attempt == 2:
                    raise
                self.port = free_port()

    def _spawn(self) -> None:
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        self._log_file = open(self.log, "ab")  # noqa: SIM115  (closed in _reap)
        self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL,
                                     stdout=self._log_file, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True)

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.url, timeout=5.0, trust_env=False) as client:
            while True:
                assert self.proc is not None
                rc = self.proc.poll()
                if rc is not None:
                    raise ServerError(f"the server exited with status {rc} at start: "
                                      f"{self.log_tail(1) or 'no output'}")
                try:
                    if client.get("/api/meta").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise ServerError(f"the server did not answer within {timeout:.0f} s: "
                                      f"{self.log_tail(1) or 'no output'}")
                time.sleep(0.1)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _signal(self, sig: int) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)  # the session: the workers too

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after :data:`STOP_TIMEOUT`)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                pass
        self._signal(signal.SIGKILL)  # anything left in its session
        self._reap()

    def kill(self) -> None:
        """``kill -9`` the server and its workers at once (a crash)."""
        if self.proc is None:
            return
        self._signal(signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(STOP_TIMEOUT)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        self.proc = None

    def log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` non-empty lines the server printed."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join([ln for ln in text.splitlines() if ln.strip()][-lines:])

    def close(self) -> None:
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
