"""The browser tests' server stops with the test process, even when that process is
killed outright (a timeout's SIGKILL), so that no server is left behind holding a port
and a database for the next run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

#: a test process in miniature: starts a server, says its pid, and is killed
KILLED_RUN = """
import os, signal, sys, tempfile
from pathlib import Path
sys.path.insert(0, {here!r})
from conftest import Server
server = Server(Path(tempfile.mkdtemp()))
print(server.proc.pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (dead, not yet reaped by init) counts as gone
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[-1].startswith("Z"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's parent-death "
                    "signal")
def test_the_server_stops_when_its_test_process_is_killed() -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    run = subprocess.run([sys.executable, "-c", KILLED_RUN.format(here=str(HERE))],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == -signal.SIGKILL, run.stderr[-2000:]
    pid = int(run.stdout.split()[0])
    deadline = time.monotonic() + 15
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(pid)
    if alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, f"the server {pid} outlived its killed test process"
