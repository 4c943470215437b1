"""The load test (``python -m tools.loadtest``, a tool of the checkout) end to end: it
starts a real server, plays 5 games x 5 moves through the HTTP API with a WebSocket each,
stops the server, and reports (``--json``) round trips, throughput, errors and no lost
move. Bad input: one line, exit 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import deploydoc
import pytest
from pg import fresh_database, pg_url
from tools.loadtest import (
    VIEW_KEYS,
    free_port,
    hide_password,
    is_loopback,
    percentile,
    read_view,
)

#: the checkout's root: ``python -m tools.loadtest`` runs from there
ROOT = Path(__file__).resolve().parents[2]
LAUNCH = "import sys; from tools.loadtest import main; sys.exit(main(sys.argv[1:]))"


def _loadtest(*argv: str, timeout: float = 240.0,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tools.loadtest", *argv],
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env, cwd=ROOT)


def test_small_run_reports_and_loses_nothing() -> None:
    p = _loadtest("--games", "5", "--moves", "5", "--seed", "3", "--json")
    assert p.returncode == 0, p.stderr + p.stdout
    assert "Traceback" not in p.stderr
    rep = json.loads(p.stdout)
    assert rep["ok"] is True
    assert rep["games"] == 5 and rep["moves_per_game"] == 5
    assert rep["server"] == "started" and rep["workers"] == 1
    assert rep["url"].startswith("http://127.0.0.1:")
    assert rep["moves"] == 25
    assert rep["errors"] == {} and rep["error_count"] == 0
    assert rep["lost"] == 0 and rep["unexpected"] == 0
    lat = rep["latency_ms"]
    assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
    assert rep["moves_per_s"] > 0 and rep["seconds"] > 0
    # one message on connect, then one per new seq (announcements may be coalesced)
    assert 5 <= rep["ws_messages"] <= 5 + 25 and rep["ws_behind"] == 0


def test_chat_and_notifications_under_load() -> None:
    """``--chat 1 --notify``: every move is preceded by a chat message of the seat to
    move, every seat has a webhook; the chat's round trips are reported apart, the
    WebSockets carry the chat frames too, and nothing is lost."""
    p = _loadtest("--games", "4", "--moves", "4", "--seed", "5", "--json",
                  "--think", "0.3", "--chat", "1", "--notify")
    assert p.returncode == 0, p.stderr + p.stdout
    rep = json.loads(p.stdout)
    assert rep["ok"] is True and rep["errors"] == {}
    assert rep["chat_rate"] == 1.0 and rep["chat_messages"] == 16
    chat = rep["chat_latency_ms"]
    assert 0 < chat["p50"] <= chat["p99"] <= chat["max"]
    assert rep["notifications"] > 0
    # every move's seq and every chat message may each be announced (or coalesced)
    assert rep["ws_messages"] > 4 and rep["lost"] == 0


def test_two_workers_on_postgresql() -> None:
    """The same through ``endeavor serve --workers 2`` on a PostgreSQL database: the
    moves of one game land on both workers, and every one is kept."""
    with fresh_database(pg_url()) as db:
        p = _loadtest("--games", "6", "--moves", "6", "--seed", "4", "--json",
                      "--workers", "2", "--db", db, "--think", "0")
    assert p.returncode == 0, p.stderr + p.stdout
    rep = json.loads(p.stdout)
    assert rep["ok"] is True and rep["workers"] == 2 and rep["moves"] == 36
    assert rep["lost"] == 0 and rep["errors"] == {} and rep["ws_behind"] == 0
    assert rep["db"] == hide_password(db)  # no password in the report


def test_https_server_behind_the_docs_proxy(tmp_path: Path) -> None:
    """``--url https://...`` with a path prefix: the doc's nginx (TLS, /endeavor) in front
    of ``endeavor serve``; the server's certificate trusted through ``SSL_CERT_FILE``, as
    the system's CAs are (HTTP and WebSockets alike)."""
    with deploydoc.proxied(tmp_path, f"sqlite:///{tmp_path / 'games.db'}") as proxy:
        env = dict(os.environ, SSL_CERT_FILE=str(proxy.cert))
        p = _loadtest("--url", proxy.public_url, "--games", "3", "--moves", "4",
                      "--think", "0", "--json", "--quiet", env=env)
    assert p.returncode == 0, p.stderr + p.stdout
    rep = json.loads(p.stdout)
    assert rep["ok"] is True and rep["server"] == "given" and rep["url"] == proxy.public_url
    assert rep["moves"] == 12 and rep["errors"] == {} and rep["lost"] == 0
    assert rep["ws_behind"] == 0 and rep["ws_messages"] >= 3


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_run_stops_its_server(sig: int) -> None:
    """Ctrl-C (SIGINT) or SIGTERM mid-run: one line, exit 130, and the server it started
    is stopped too."""
    launch = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
              + LAUNCH)
    p = subprocess.Popen([sys.executable, "-c", launch, "--games", "20",
                          "--moves", "500", "--quiet"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                         cwd=ROOT)
    try:
        deadline = time.monotonic() + 90.0
        servers: list[int] = []
        while not servers and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.2)
            servers = _children(p.pid)
        assert servers, "no server started"
        time.sleep(3.0)  # the server answers and the games are under way
        assert p.poll() is None
        p.send_signal(sig)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 130, err
    assert err.strip().splitlines()[-1] == "loadtest: interrupted", err
    assert "Traceback" not in err
    assert not [pid for pid in servers if _alive(pid)]


def test_bad_input_is_one_line() -> None:
    for argv, words in (
        (("--url", "http://10.1.2.3:8000"), "loopback"),
        (("--url", "ftp://127.0.0.1/"), "--url"),
        (("--url", "http://127.0.0.1:8000", "--db", "sqlite:///x.db"), "--db"),
        (("--url", f"http://127.0.0.1:{free_port()}"), "no server answering"),
        (("--db", "nosuchdb://x"), "endeavor: error:"),
        (("--chat", "1.5"), "--chat"),
    ):
        p = _loadtest("--games", "1", "--moves", "1", "--quiet", *argv,
                      timeout=120.0)
        assert p.returncode == 2, (argv, p.stdout, p.stderr)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("loadtest: error: "), p.stderr
        assert words in lines[0], (argv, lines[0])


def test_helpers() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert is_loopback("[::1]") and is_loopback("127.3.4.5")
    assert not is_loopback("10.0.0.1") and not is_loopback("example.org")
    assert hide_password("postgresql+psycopg://u:secret@h:5432/db") == \
        "postgresql+psycopg://u:***@h:5432/db"
    assert hide_password("sqlite:///a.db") == "sqlite:///a.db"
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50 and percentile(values, 99) == 99
    assert percentile(values, 100) == 100 and percentile([], 50) == 0
    assert percentile([5.0], 99) == 5.0


def test_read_view() -> None:
    """The members the players read, as ``json.loads`` reads them, whatever the spacing
    and order; the rest is skipped; what is not a JSON object is an error."""
    view = {"id": "g", "seq": 7, "over": False, "current_player": 1, "you": [1],
            "seats": [{"name": "a \" }"}], "legal_actions": ["pay x", "pass"],
            "decision": {"kind": "k", "options": [{"a": [1, {"b": None}]}]},
            "state": {"seq": 99, "decision": None, "deep": [[[]]]}, "events": []}
    want = {k: v for k, v in view.items() if k in VIEW_KEYS}
    assert set(want) == VIEW_KEYS
    for text in (json.dumps(view), json.dumps(view, separators=(",", ":")),
                 json.dumps(view, indent=3), json.dumps(dict(reversed(view.items()))),
                 " \n" + json.dumps(view, ensure_ascii=False) + "\n"):
        assert read_view(text.encode()) == want, text
    assert read_view(b"{}") == {} and read_view(b' { "seq" : 1 } ') == {"seq": 1}
    assert read_view(json.dumps({"seq": 2, "over": True}).encode()) == {"seq": 2,
                                                                        "over": True}
    assert read_view(json.dumps({"decision": None, "x": {"é": "ü"}}).encode()) == {
        "decision": None}
    for bad in (b"", b"[1, 2]", b'{"seq": 1,', b"{'seq': 1}", b"nonsense", b'{"seq" 1}'):
        with pytest.raises(ValueError):
            read_view(bad)


def test_ctrl_c_while_sockets_open_leaves_no_unread_exception() -> None:
    """Ctrl-C cancels every task at once; when the tasks a ``wait_for(gather(...))``
    waits on are cancelled first, the gather holds a CancelledError nobody awaits, and
    asyncio printed "exception was never retrieved" after "loadtest: interrupted" (as
    test_interrupted_run_stops_its_server saw when the signal came while the load test's
    WebSockets were opening). The load test reads it (``loadtest.retrieve_exception``)."""
    code = """
import asyncio, sys
from tools.loadtest import retrieve_exception

async def opening(events):
    waiter = asyncio.gather(*(e.wait() for e in events))
    if sys.argv[1] == "fix":
        waiter.add_done_callback(retrieve_exception)
    await asyncio.wait_for(waiter, 30)

loop = asyncio.new_event_loop()
main = loop.create_task(opening([asyncio.Event() for _ in range(3)]))
loop.run_until_complete(asyncio.sleep(0.01))
tasks = [t for t in asyncio.all_tasks(loop) if t is not main] + [main]
for t in tasks:  # the children first, as can happen with asyncio.run on Ctrl-C
    t.cancel()
loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
loop.close()
"""
    outputs = {}
    for variant in ("as before", "fix"):
        p = subprocess.run([sys.executable, "-c", code, variant], capture_output=True,
                           text=True, timeout=60, cwd=ROOT)
        assert p.returncode == 0, p.stderr
        outputs[variant] = p.stdout + p.stderr
    assert "never retrieved" in outputs["as before"]  # the failure this reproduces...
    assert "never retrieved" not in outputs["fix"], outputs["fix"]  # ...is gone
