"""Backups as docs/deploy.md takes and restores them, with the doc's own commands (its
marked blocks, filled in with the test's databases and paths): a database holding a few
games (one finished, one with a clock, an undo and a re-issued link, one against a bot
in mid-game, one not started) is backed up while the app runs, restored into a fresh
database, and a new app on it serves the same games: the lobby, "Your games", every
seat's view and the spectator's, the records, the host's panel, replay positions; and
play goes on.

PostgreSQL: the doc's backup script (``pg_dump --format=custom``, old dumps deleted) and
its ``pg_restore`` into a fresh database of the test server (``ENDEAVOR_TEST_PG``;
skipped without it, except under CI). SQLite: the ``sqlite3 .backup`` line and the
line using Python's backup API."""

from __future__ import annotations

import os
import shlex
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from deploydoc import as_test, block, commands, fill, require, run_shell
from pg import _libpq, fresh_database, pg_url

pytest.importorskip("fastapi", reason="the web extra is not installed")

from fastapi.testclient import TestClient  # noqa: E402

from endeavor.web.app import create_app  # noqa: E402

TEST_BUDGETS = {"mcts": {"iterations": 30}, "hard": {"iterations": 30}}


def serving(db_url: str) -> TestClient:
    return TestClient(create_app(db_url, bot_budgets=TEST_BUDGETS, poll_seconds=0.05))


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    return r.json()


def create(c: TestClient, seats: list[str], seed: int, **more: Any) -> dict[str, Any]:
    return ok(c.post("/api/games", json={"config": {"players": len(seats), "seed": seed},
                                          "seats": seats, **more}), 201)


def play(c: TestClient, game: dict[str, Any], moves: int) -> None:
    """``moves`` first legal actions of whichever person is to move (bots answer)."""
    gid = game["id"]
    tokens = {s["seat"]: s["token"] for s in game["seats"] if s["token"]}
    for _ in range(moves):
        seat = ok(c.get(f"/api/games/{gid}"))["current_player"]
        view = ok(c.get(f"/api/games/{gid}", headers=auth(tokens[seat])))
        ok(c.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]),
                  json={"action": view["legal_actions"][0], "seq": view["seq"]}))


def populate(c: TestClient) -> list[dict[str, Any]]:
    """The games of the test, as created (with tokens), the old links kept too."""
    finished = create(c, ["bot:random", "bot:random"], seed=4, title="bots to the end")
    deadline = time.monotonic() + 60
    while not ok(c.get(f"/api/games/{finished['id']}"))["over"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.05)

    clocked = create(c, ["human", "human"], seed=7, title="on the clock",
                     clock={"kind": "turn", "bank": 86_400, "per_decision": 3_600})
    play(c, clocked, 3)
    seat = ok(c.get(f"/api/games/{clocked['id']}"))["current_player"]
    mover = next(s["token"] for s in clocked["seats"] if s["seat"] != seat)
    view = ok(c.get(f"/api/games/{clocked['id']}", headers=auth(mover)))
    if view["can_undo"]:  # the last mover takes it back
        ok(c.post(f"/api/games/{clocked['id']}/undo", headers=auth(mover),
                  json={"seq": view["seq"]}))
    host = auth(clocked["host_token"])
    panel = ok(c.post(f"/api/games/{clocked['id']}/host/seats/1/reissue", headers=host))
    ok(c.post(f"/api/games/{clocked['id']}/host/clock", headers=host,
              json={"extend": 600, "seat": 0}))
    clocked["old_seat_1"] = clocked["seats"][1]["token"]
    clocked["seats"][1]["token"] = panel["seats"][1]["token"]

    against_bot = create(c, ["human", "bot:medium"], seed=11, title="against a bot")
    play(c, against_bot, 4)
    not_started = create(c, ["human", "hotseat", "hotseat"], seed=2)
    return [finished, clocked, against_bot, not_started]


def _steady(value: Any) -> Any:
    """``value`` without what depends on the time of the request: a clock's time left,
    the server's time (its deadlines and banks stay) and when a seat's page last opened
    the game (the requests of the comparison open it again)."""
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in value.items()
                if not (k in ("left", "now") and "deadline" in value)
                and k not in ("now", "last_seen")}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    return value


def everything(c: TestClient, games: list[dict[str, Any]]) -> dict[str, Any]:
    """All a client can see of the games."""
    out: dict[str, Any] = {
        "lobby": [ok(c.get("/api/games" + q)) for q in ("", "?status=open",
                                                        "?status=running", "?status=over")]}
    pairs = [{"id": g["id"], "token": t} for g in games
             for t in {s["token"] for s in g["seats"] if s["token"]} | (
                 {g["old_seat_1"]} if "old_seat_1" in g else set())]
    out["mine"] = ok(c.post("/api/games/mine", json={"games": pairs}))
    for g in games:
        gid = g["id"]
        views = {"spectator": ok(c.get(f"/api/games/{gid}"))}
        for s in g["seats"]:
            if s["token"]:
                views[f"seat {s['seat']}"] = ok(c.get(f"/api/games/{gid}",
                                                      headers=auth(s["token"])))
        actions = views["spectator"]["actions"]
        out[gid] = {
            "views": views,
            "since": ok(c.get(f"/api/games/{gid}?since=2")),
            "record": ok(c.get(f"/api/games/{gid}/record")),
            "host": ok(c.get(f"/api/games/{gid}/host", headers=auth(g["host_token"]))),
            "replay": [ok(c.get(f"/api/games/{gid}/replay/{n}"))
                       for n in sorted({0, actions // 2, actions})],
        }
    steady: dict[str, Any] = _steady(out)
    return steady


def check_games(seen: dict[str, Any], games: list[dict[str, Any]]) -> None:
    """The games are what the test meant them to be (so comparing them means
    something)."""
    finished, clocked, against_bot, not_started = (seen[g["id"]]["views"] for g in games)
    assert finished["spectator"]["over"] and finished["spectator"]["scores"]
    clock = clocked["spectator"]["clock"]
    assert clock is not None and clock["deadline"] and clock["running"] is not None
    assert [e for e in clocked["spectator"]["events"] if e["kind"] != "action"], \
        "the host's and the undo's lines in the log"
    assert not against_bot["spectator"]["over"] and against_bot["spectator"]["seq"] > 4
    assert not_started["spectator"]["seq"] == 0
    assert sorted(g["valid"] for g in seen["mine"]["games"]) == [False] + [True] * 5


def check_served(db_url: str, games: list[dict[str, Any]], before: dict[str, Any]) -> None:
    """A new app on ``db_url`` serves ``before`` again, and play goes on."""
    with serving(db_url) as c:
        after = everything(c, games)
        assert after.keys() == before.keys()
        for key in before:
            assert after[key] == before[key], key
        assert [g["status"] for g in after["lobby"][0]["games"]] == [
            "open", "running", "running", "over"]
        clocked = games[1]
        seq = ok(c.get(f"/api/games/{clocked['id']}"))["seq"]
        play(c, clocked, 1)
        assert ok(c.get(f"/api/games/{clocked['id']}"))["seq"] == seq + 1


# --------------------------------------------------------------------------- PostgreSQL
@pytest.fixture
def two_databases() -> Iterator[tuple[str, str]]:
    base = pg_url()
    with fresh_database(base) as source, fresh_database(base) as target:
        yield source, target


def test_postgres_backup_restored_into_a_fresh_database(
        two_databases: tuple[str, str], tmp_path: Path) -> None:
    require("pg_dump")
    require("pg_restore")
    source, target = two_databases
    if "options=" in source:
        pytest.skip("the test role may not create databases (a schema each instead)")
    backups = tmp_path / "backups"
    backups.mkdir()
    old = backups / "endeavor-20000101T031500Z.dump"  # a dump the script should delete
    old.write_bytes(b"old")
    os.utime(old, (time.time() - 40 * 86_400,) * 2)
    script = tmp_path / "endeavor-backup"
    script.write_text(block("backup-script"))
    with serving(source) as c:
        games = populate(c)
        before = everything(c, games)
        check_games(before, games)
        # the doc's backup script, while the app runs
        done = run_shell(f"sh {script}", env={"ENDEAVOR_BACKUP_DB": _libpq(source),
                                              "ENDEAVOR_BACKUP_DIR": str(backups)})
    dump = Path(done.stdout.strip().splitlines()[-1])
    assert dump.parent == backups and dump.name.endswith("Z.dump"), dump
    assert sorted(backups.iterdir()) == [dump], "old dumps are deleted, no .part is left"
    assert dump.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    # the doc's restore into the fresh database, and its check
    dbname = f"--dbname={shlex.quote(_libpq(target))}"
    steps = [fill(as_test(cmd), {"--dbname=endeavor_restored": dbname}, "restore")
             for cmd in commands("restore") if "--dbname=endeavor_restored" in cmd]
    assert [s.split()[0] for s in steps] == ["pg_restore", "psql"], steps
    run_shell(steps[0], env={"DUMP": str(dump)})
    counted = run_shell(steps[1])
    assert "4" in counted.stdout.split(), counted.stdout
    check_served(target, games, before)


# --------------------------------------------------------------------------- SQLite
@pytest.mark.parametrize("name", ["sqlite-backup", "sqlite-backup-python"])
def test_sqlite_backup_serves_the_same_games(name: str, tmp_path: Path) -> None:
    if name == "sqlite-backup":
        require("sqlite3")
    (command,) = commands(name)
    database, backups = tmp_path / "endeavor.db", tmp_path / "backups"
    backups.mkdir()
    command = fill(as_test(command), {"/var/lib/endeavor/endeavor.db": str(database),
                                      "/var/backups/endeavor/": f"{backups}/"}, name)
    if name == "sqlite-backup-python":
        command = fill(command, {"/opt/endeavor/venv/bin/python": sys.executable}, name)
    with serving(f"sqlite:///{database}") as c:
        games = populate(c)
        before = everything(c, games)
        check_games(before, games)
        run_shell(command)  # while the app runs (its last moves still in the -wal file)
        assert (tmp_path / "endeavor.db-wal").exists()
    (backup,) = backups.iterdir()
    assert backup.name.startswith("endeavor-") and backup.suffix == ".db", backup
    check_served(f"sqlite:///{backup}", games, before)
