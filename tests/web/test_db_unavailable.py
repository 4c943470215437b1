"""An unusable database, against a real ``endeavor serve`` process: at start it exits with
status 2 and one line saying why (a read-only SQLite file, a full disk, a read-only
PostgreSQL database); while running, a write is 503 with the reason in words, reads go
on being served, and once the database is back the server goes on without a restart,
having lost nothing it acknowledged.

A full disk is a small tmpfs (mounting needs root: skipped, with the reason, when not
permitted, also under CI). A read-only file needs a process that file permissions bind:
as root, the server runs without the capabilities that override them (``setpriv``). The
PostgreSQL test locks its own database (``ALTER DATABASE ... ALLOW_CONNECTIONS``,
``default_transaction_read_only``) and terminates the server's connections."""

from __future__ import annotations

import contextlib
import errno
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pg import (
    _libpq,
    auth,
    fresh_database,
    new_game,
    pg_url,
    record_actions,
    tokens,
    view_to_move,
)
from tools.loadtest import ServerProcess, free_port

from endeavor.web import db

LAUNCH = "import sys; from endeavor.cli import main; sys.exit(main(sys.argv[1:]))"
TIMEOUT = httpx.Timeout(20.0)
#: run as root without the capabilities that let root write a read-only file
UNPRIVILEGED = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


# --------------------------------------------------------------------------- helpers
@contextlib.contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (skips the test when mounting is not
    permitted here, also under CI: it needs root)."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs",
                           str(where)], capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs to fill a disk (needs root): "
                    f"{done.stderr.strip() or done.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def fill(directory: Path) -> Path:
    """A file taking all the room left on ``directory``'s disk."""
    path = directory / "filler"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        block = b"\0" * 65536
        while True:
            try:
                os.write(fd, block)
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
                if len(block) == 1:
                    break
                block = block[:len(block) // 2]
    finally:
        os.close(fd)
    return path


def serve_once(url: str, prefix: list[str] | None = None) -> tuple[int, str, str]:
    """``endeavor serve --db url`` expected to fail at start: its status, stdout, stderr."""
    cmd = [*(prefix or []), sys.executable, "-c", LAUNCH, "serve", "--host", "127.0.0.1",
           "--port", str(free_port()), "--db", url]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=90,
                          stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr


def assert_one_line_exit_2(result: tuple[int, str, str], *words: str) -> None:
    status, out, err = result
    lines = err.strip().splitlines()
    assert status == 2, (status, out, err)
    assert len(lines) == 1 and lines[0].startswith("endeavor: error: "), err
    assert "Traceback" not in out + err
    for word in words:
        assert word in lines[0], lines[0]


def migrate(url: str) -> None:
    engine = db.make_engine(url)
    try:
        db.upgrade(engine)
    finally:
        engine.dispose()


def play(client: httpx.Client, gid: str, toks: dict[int, str], rng: random.Random, moves: int,
         acked: list[tuple[int, int, str]]) -> None:
    """``moves`` random moves, each 200 appended to ``acked`` as (seq, seat, action)."""
    for _ in range(moves):
        view = view_to_move(client, gid, toks)
        action = rng.choice(sorted(view["legal_actions"]))
        seat = view["current_player"]
        r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[seat]),
                        json={"action": action, "seq": view["seq"]})
        assert r.status_code == 200, r.text
        acked.append((view["seq"] + 1, seat, action))


def attempt_move(client: httpx.Client, gid: str, toks: dict[int, str]) -> httpx.Response:
    view = view_to_move(client, gid, toks)
    return client.post(f"/api/games/{gid}/actions", headers=auth(toks[view["current_player"]]),
                       json={"action": sorted(view["legal_actions"])[0], "seq": view["seq"]})


def detail(r: httpx.Response) -> str:
    text: str = r.json()["detail"]
    assert isinstance(text, str)
    return text


# --------------------------------------------------------------------------- SQLite
def test_sqlite_full_disk_while_running(tmp_path: Path) -> None:
    """Writes are 503 "the disk is full ... not recorded", reads and pages are served;
    with room again the same server records moves, and the database holds exactly the
    acknowledged ones."""
    with tmpfs(tmp_path / "disk", "8m") as disk:
        srv = ServerProcess(f"sqlite:///{disk / 'games.db'}", log=tmp_path / "server.log")
        srv.start()
        try:
            rng = random.Random(11)
            acked: list[tuple[int, int, str]] = []
            with httpx.Client(base_url=srv.url, timeout=TIMEOUT, trust_env=False) as client:
                game = new_game(client, seed=11)
                gid, toks = game["id"], tokens(game)
                play(client, gid, toks, rng, 4, acked)
                record = client.get(f"/api/games/{gid}/record").json()
                filler = fill(disk)

                r = attempt_move(client, gid, toks)
                assert r.status_code == 503, r.text
                assert detail(r) == ("the database cannot be written right now (the disk is "
                                     "full); your move was not recorded — try again later")
                last_seat = acked[-1][1]
                r = client.post(f"/api/games/{gid}/undo", headers=auth(toks[last_seat]),
                                json={"seq": len(acked)})
                assert r.status_code == 503 and "your undo was not recorded" in detail(r)
                r = client.post("/api/games", json={"config": {"players": 2},
                                                    "seats": ["human", "human"]})
                assert r.status_code == 503 and "the game was not created" in detail(r)
                r = client.post("/api/games/import", json={"record": record,
                                                           "seats": ["human", "human"]})
                assert r.status_code == 503 and "the disk is full" in detail(r)
                # reads and pages go on
                for path in (f"/api/games/{gid}", "/api/games", "/api/meta", "/",
                             f"/play/{gid}", "/static/app.js", f"/api/games/{gid}/replay/2"):
                    assert client.get(path).status_code == 200, path
                assert record_actions(client, gid) == [a for _, _, a in acked]

                filler.unlink()
                play(client, gid, toks, rng, 2, acked)  # the same server, no restart
            assert srv.running()
            # what was acknowledged is in the database itself, not only in the server
            with contextlib.closing(sqlite3.connect(disk / "games.db")) as conn:
                stored = conn.execute("SELECT seq, seat, action FROM moves WHERE game_id = ? "
                                      "ORDER BY seq", (gid,)).fetchall()
            assert stored == acked
        finally:
            srv.close()
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert "the disk is full" in log


def test_sqlite_shm_truncated_under_the_server_is_survived(tmp_path: Path) -> None:
    """WAL maps the -shm file: truncated under the server (a copy or restore over it),
    the worker's next use of it is a SIGBUS. The supervisor says so in one line and
    starts a new worker, which finds every acknowledged move."""
    srv = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}", log=tmp_path / "server.log")
    srv.start()
    try:
        rng = random.Random(8)
        acked: list[tuple[int, int, str]] = []
        with httpx.Client(base_url=srv.url, timeout=TIMEOUT, trust_env=False) as client:
            game = new_game(client, seed=8)
            gid, toks = game["id"], tokens(game)
            play(client, gid, toks, rng, 3, acked)
            os.truncate(tmp_path / "games.db-shm", 0)
            with contextlib.suppress(httpx.TransportError):  # the worker dies under it
                client.post("/api/games", json={"config": {"players": 2},
                                                "seats": ["human", "human"]})
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if client.get("/api/meta").status_code == 200:
                        break
                assert time.monotonic() < deadline, srv.log_tail()
                time.sleep(0.1)
            assert [a for a in record_actions(client, gid)[:3]] == [a for _, _, a in acked]
            acked[:] = [(i + 1, -1, a) for i, a in enumerate(record_actions(client, gid))]
            play(client, gid, toks, rng, 1, acked)  # the game goes on
            assert record_actions(client, gid) == [a for _, _, a in acked]
        assert srv.running()
    finally:
        srv.close()
    lines = (tmp_path / "server.log").read_text().splitlines()
    deaths = [line for line in lines if "was killed by SIGBUS" in line]
    # the web worker, and the background process if it touched the file meanwhile:
    # each said once, each replaced
    workers = [line for line in deaths if line.startswith("the server process")]
    assert len(workers) == 1 and "-shm file was truncated" in workers[0], deaths
    assert all(line.startswith(("the server process", "the background process"))
               and line.endswith("a new one was started") for line in deaths), deaths


def test_sqlite_full_disk_at_start_exits_2_with_one_line(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", "1m") as disk:
        url = f"sqlite:///{disk / 'games.db'}"
        migrate(url)
        fill(disk)
        assert_one_line_exit_2(serve_once(url), "games.db", "full")


def test_sqlite_read_only_at_start_exits_2_with_one_line(tmp_path: Path) -> None:
    """A database this server may read but not write: one line, status 2 (before, it
    started and failed every write)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("as root a read-only file is writable, and setpriv (util-linux), "
                        "which drops that right, is not installed")
        prefix = UNPRIVILEGED
    directory = tmp_path / "ro"
    directory.mkdir()
    url = f"sqlite:///{directory / 'games.db'}"
    migrate(url)
    (directory / "games.db").chmod(0o444)
    assert_one_line_exit_2(serve_once(url, prefix), "cannot write", "games.db",
                           "the database file is read-only")


# --------------------------------------------------------------------------- PostgreSQL
def test_postgresql_lost_or_read_only_then_back_without_restart(tmp_path: Path) -> None:
    """The server's database refuses connections (its connections terminated): writes
    and reads are 503 "cannot be reached", pages are served; allowed again, the same
    server goes on. Made read-only: writes are 503 "read-only", reads are served. Read-only
    at start: status 2 and one line."""
    import psycopg
    from psycopg import sql

    base = pg_url()
    with fresh_database(base) as url:
        if "options=" in url:
            pytest.skip("needs a database of its own (CREATEDB) to lock out")
        name = url.split("?", 1)[0].rsplit("/", 1)[1]
        admin = psycopg.connect(_libpq(base), autocommit=True, connect_timeout=10)

        def alter(setting: str) -> None:
            admin.execute(sql.SQL("ALTER DATABASE {} " + setting).format(
                sql.Identifier(name)))
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s AND usename = current_user "
                          "AND pid <> pg_backend_pid()", (name,))

        srv = ServerProcess(url, log=tmp_path / "server.log")
        srv.start()
        try:
            rng = random.Random(5)
            acked: list[tuple[int, int, str]] = []
            with httpx.Client(base_url=srv.url, timeout=TIMEOUT, trust_env=False) as client:
                game = new_game(client, seed=5)
                gid, toks = game["id"], tokens(game)
                play(client, gid, toks, rng, 3, acked)
                view = view_to_move(client, gid, toks)

                alter("ALLOW_CONNECTIONS false")
                r = client.post(f"/api/games/{gid}/actions",
                                headers=auth(toks[view["current_player"]]),
                                json={"action": view["legal_actions"][0], "seq": view["seq"]})
                assert r.status_code == 503, r.text
                assert detail(r) == ("the database cannot be written right now (the database "
                                     "server cannot be reached); your move was not recorded "
                                     "— try again later")
                r = client.get(f"/api/games/{gid}")
                assert r.status_code == 503 and detail(r).startswith(
                    "the database cannot be read right now")
                assert client.get("/").status_code == 200

                alter("ALLOW_CONNECTIONS true")
                play(client, gid, toks, rng, 2, acked)
                assert record_actions(client, gid) == [a for _, _, a in acked]

                alter("SET default_transaction_read_only = on")
                r = attempt_move(client, gid, toks)
                assert r.status_code == 503 and "(the database is read-only)" in detail(r)
                assert client.get(f"/api/games/{gid}").status_code == 200
                assert record_actions(client, gid) == [a for _, _, a in acked]
                alter("RESET default_transaction_read_only")
                play(client, gid, toks, rng, 1, acked)
                assert record_actions(client, gid) == [a for _, _, a in acked]
            srv.stop()
            alter("SET default_transaction_read_only = on")
            assert_one_line_exit_2(serve_once(url), "read-only")
            alter("RESET default_transaction_read_only")
        finally:
            srv.close()
            admin.close()
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
