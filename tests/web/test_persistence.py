"""The database is the source of truth: a restarted server (a new app on the same SQLite
file) serves every game exactly as before and resumes the bots it left waiting; the
schema comes from the Alembic migrations only, and concurrent starts migrate once."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text

from endeavor import GameConfig, new_game
from endeavor.web import db
from endeavor.web.store import Store


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _play(client: TestClient, gid: str, toks: dict[int, str], rng: random.Random,
          moves: int) -> None:
    for _ in range(moves):
        v = client.get(f"/api/games/{gid}").json()
        if v["over"]:
            return
        token = toks[v["current_player"]]
        mine = client.get(f"/api/games/{gid}", headers=_auth(token)).json()
        r = client.post(f"/api/games/{gid}/actions", headers=_auth(token),
                        json={"action": rng.choice(mine["legal_actions"]), "seq": mine["seq"]})
        assert r.status_code == 200, r.text


def _everything(client: TestClient, gid: str, toks: dict[int, str]) -> dict[str, Any]:
    """All a client can see of a game: every seat's view, the spectator's, the record,
    a replay position."""
    out: dict[str, Any] = {"spectator": client.get(f"/api/games/{gid}").json(),
                           "record": client.get(f"/api/games/{gid}/record").json(),
                           "replay": client.get(f"/api/games/{gid}/replay/3").json()}
    for seat, token in toks.items():
        out[seat] = client.get(f"/api/games/{gid}", headers=_auth(token)).json()
    return out


def test_restart_serves_games_identically(make_app: Callable[..., FastAPI]) -> None:
    rng = random.Random(1)
    games: list[tuple[str, dict[int, str]]] = []
    with TestClient(make_app()) as a:
        for seats, seed in ((["human", "human"], 1), (["human", "bot:greedy", "hotseat"], 2),
                            (["hotseat", "hotseat"], 3)):
            r = a.post("/api/games", json={"config": {"players": len(seats), "seed": seed},
                                           "seats": seats})
            body = r.json()
            toks = {s["seat"]: s["token"] for s in body["seats"] if s["token"]}
            _play(a, body["id"], toks, rng, 25)
            games.append((body["id"], toks))
        gid, toks = games[0]
        t = toks[a.get(f"/api/games/{gid}").json()["current_player"]]
        seq = a.get(f"/api/games/{gid}").json()["seq"]
        assert a.post(f"/api/games/{gid}/undo", headers=_auth(t), json={"seq": seq}
                      ).status_code in (200, 409)
        before = {g: _everything(a, g, tk) for g, tk in games}
        lobby = a.get("/api/games").json()
    with TestClient(make_app()) as b:  # the restarted server: a new process's memory
        for g, tk in games:
            assert _everything(b, g, tk) == before[g]
        assert b.get("/api/games").json() == lobby
        gid, toks = games[0]
        _play(b, gid, toks, rng, 5)  # and play goes on
        assert b.get(f"/api/games/{gid}").json()["seq"] == before[gid]["spectator"]["seq"] + 5


def test_restart_resumes_a_game_waiting_for_a_bot(db_url: str,
                                                  make_app: Callable[..., FastAPI]) -> None:
    seed = next(s for s in range(50) if new_game(GameConfig(players=2, seed=s))
                .current_player == 0)
    engine = db.make_engine(db_url)
    db.upgrade(engine)
    # written by a server that stopped before its bot moved
    gid = Store(engine).create({"players": 2, "seed": seed}, ["bot:random", "human"]).id
    engine.dispose()
    app = make_app()
    with TestClient(app) as client:
        assert app.state.runner.idle(30)
        v = client.get(f"/api/games/{gid}").json()
        assert v["seq"] >= 1 and v["current_player"] == 1


def test_a_failing_bot_leaves_the_game_waiting(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(bot_budgets={"random": {"no_such_setting": 1}})  # make() raises
    with TestClient(app) as client:
        seed = next(s for s in range(50) if new_game(GameConfig(players=2, seed=s))
                    .current_player == 0)
        r = client.post("/api/games", json={"config": {"players": 2, "seed": seed},
                                            "seats": ["bot:random", "human"]})
        assert r.status_code == 201
        assert app.state.runner.idle(10)
        v = client.get(f"/api/games/{r.json()['id']}").json()
        assert v["seq"] == 0 and v["current_player"] == 0  # waiting, server fine
        assert client.get("/api/meta").status_code == 200


def test_schema_is_the_migrations(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path}/m.db")
    db.upgrade(engine)
    insp = inspect(engine)
    assert set(insp.get_table_names()) == {"games", "seats", "moves", "notify", "outbox",
                                           "reviews", "chat", "heartbeat",
                                           "accounts", "account_sessions", "seat_claims",
                                           "signin_failures", "password_resets",
                                           "account_settings", "signin_links",
                                           "account_mail",
                                           "game_ratings", "ratings", "rating_history",
                                           "alembic_version"}
    for table in db.metadata.sorted_tables:
        columns = {c["name"]: c for c in insp.get_columns(table.name)}
        assert set(columns) == {c.name for c in table.columns}, table.name
        for c in table.columns:
            assert columns[c.name]["nullable"] == c.nullable, (table.name, c.name)
        pk = insp.get_pk_constraint(table.name)["constrained_columns"]
        assert pk == [c.name for c in table.primary_key.columns], table.name
        indexes = {i["name"] for i in insp.get_indexes(table.name)}
        assert indexes == {i.name for i in table.indexes}, table.name
    assert insp.get_pk_constraint("moves")["constrained_columns"] == ["game_id", "seq"]
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() >= 1000
    engine.dispose()


def test_concurrent_starts_migrate_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/c.db"
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        engine = db.make_engine(url)
        try:
            barrier.wait()
            db.upgrade(engine)
        except BaseException as e:  # collected for the assertion below
            errors.append(e)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    engine = db.make_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [("0008",)]
        assert conn.execute(select(db.games)).all() == []
    engine.dispose()


def test_migrations_found_from_any_directory(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    engine = db.make_engine("sqlite:///relative.db")
    db.upgrade(engine)
    assert (tmp_path / "relative.db").exists()
    assert str(engine.url.database).startswith(str(tmp_path))
    engine.dispose()


def test_serve_refuses_a_bad_database_or_a_busy_port(tmp_path: Path, capsys: Any) -> None:
    """`endeavor serve` checks the database and the port before starting Uvicorn: one
    line and exit status 2, no traceback."""
    import socket

    from endeavor.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        for db_arg, words in (("nosuchdriver://x", "cannot use database"),
                              (f"sqlite:///{tmp_path}/no/such/dir/x.db", "cannot open"),
                              (f"sqlite:///{tmp_path}/ok.db", f"port {port}")):
            assert main(["serve", "--port", port, "--db", db_arg]) == 2
            err = capsys.readouterr().err
            assert err.startswith("endeavor: error: ") and words in err, err
            assert "Traceback" not in err and err.count("\n") == 1


def test_thread_pool_and_postgres_pool_sized_to_the_threads(
        make_app: Callable[..., FastAPI], monkeypatch: Any) -> None:
    """The app's thread limit is applied to its event loop's thread pool, and a
    PostgreSQL engine keeps one connection per thread that may use it at once (no
    overflow churn: each overflow connection is a new login)."""
    from anyio import to_thread

    from endeavor.web import app as web_app

    app = make_app(threads=3, bot_threads=2)
    assert app.state.threads == 3
    with TestClient(app) as client:
        tokens = client.portal.call(
            lambda: to_thread.current_default_thread_limiter().total_tokens)
        assert tokens == 3
        assert client.get("/api/meta").status_code == 200
    engine = db.make_engine("postgresql+psycopg://u:p@127.0.0.1:1/none", pool_size=6)
    try:  # no connection is made until one is used
        assert engine.pool.size() == 6  # type: ignore[attr-defined]
        assert engine.pool._max_overflow == db.POOL_OVERFLOW  # type: ignore[attr-defined]
    finally:
        engine.dispose()
    monkeypatch.setenv(web_app.THREADS_VAR, "7")
    assert web_app.threads_from_env() == 7
    for bad in ("0", "-2", "many", ""):
        monkeypatch.setenv(web_app.THREADS_VAR, bad)
        assert web_app.threads_from_env() == web_app.THREADS


def test_sqlite_writers_of_one_process_take_turns(tmp_path: Path) -> None:
    """Concurrent moves of many games on one SQLite file all commit (the store's own
    write lock queues them; none ends in SQLite's busy timeout)."""
    engine = db.make_engine(f"sqlite:///{tmp_path}/w.db")
    db.upgrade(engine)
    store = Store(engine)
    ids = [store.create({"players": 2, "seed": i}, ["human", "human"]).id for i in range(8)]
    errors: list[BaseException] = []

    def play(game_id: str) -> None:
        rng = random.Random(game_id)
        try:
            for _ in range(15):
                snap = store.snapshot(game_id)
                who = snap.state.current_player
                assert who is not None
                action = rng.choice(sorted(str(a) for a in snap.state.legal_actions()))
                store.append(game_id, {who}, action, snap.seq)
        except BaseException as e:  # noqa: BLE001  (reported below)
            errors.append(e)

    threads = [threading.Thread(target=play, args=(g,)) for g in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(store.seq(g) == 15 for g in ids)
    engine.dispose()


def test_tune_gc_freezes_and_raises_the_thresholds() -> None:
    import gc

    from endeavor.web.app import GC_THRESHOLDS, tune_gc

    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
