"""The web app on PostgreSQL (``ENDEAVOR_TEST_PG``; skipped without it, except under CI):
create, move, stale ``seq``, two app instances racing for the same ``seq``, persistence
across app instances, and ``endeavor serve --workers 2`` hammered from several client
threads racing on one game: no acknowledged move lost, duplicated or reordered.

Each test gets a database of its own on the test server, dropped afterwards."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pg import auth, fresh_database, new_game, pg_url, record_actions, tokens, view_to_move
from tools.loadtest import ServerProcess

from endeavor.web.app import create_app


@pytest.fixture
def db() -> Iterator[str]:
    with fresh_database(pg_url()) as url:
        yield url


def _move(client: httpx.Client, gid: str, toks: dict[int, str], view: dict[str, Any],
          action: str, seq: int | None = None) -> httpx.Response:
    return client.post(f"/api/games/{gid}/actions", headers=auth(toks[view["current_player"]]),
                       json={"action": action, "seq": view["seq"] if seq is None else seq})


def test_create_move_stale_seq_and_persistence(db: str) -> None:
    rng = random.Random(3)
    played: list[str] = []
    with TestClient(create_app(db)) as client:
        game = new_game(client, seed=3)
        gid, toks = game["id"], tokens(game)
        for _ in range(8):
            view = view_to_move(client, gid, toks)
            action = rng.choice(sorted(view["legal_actions"]))
            r = _move(client, gid, toks, view, action)
            assert r.status_code == 200, r.text
            assert r.json()["seq"] == view["seq"] + 1
            played.append(action)
        view = view_to_move(client, gid, toks)
        assert view["seq"] == 8
        stale = _move(client, gid, toks, view, view["legal_actions"][0], seq=7)
        assert stale.status_code == 409, stale.text
        ahead = _move(client, gid, toks, view, view["legal_actions"][0], seq=9)
        assert ahead.status_code == 409, ahead.text
        assert record_actions(client, gid) == played
        listed = client.get("/api/games").json()["games"]
        assert [g["seq"] for g in listed if g["id"] == gid] == [8]
    # a new app instance (a restarted server) reads the same game from the database
    with TestClient(create_app(db)) as client:
        assert record_actions(client, gid) == played
        view = view_to_move(client, gid, toks)
        assert view["seq"] == 8
        r = _move(client, gid, toks, view, rng.choice(sorted(view["legal_actions"])))
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == 9


def test_two_app_instances_race_for_the_same_seq(db: str) -> None:
    """Two app instances (two server processes, each with its own cache) receive a move
    for the same seq at the same moment: exactly one is acknowledged, the other gets 409,
    and the record holds the winner's move."""
    rng = random.Random(5)
    with TestClient(create_app(db)) as a, TestClient(create_app(db)) as b:
        game = new_game(a, seed=5)
        gid, toks = game["id"], tokens(game)
        played: list[str] = []
        for _ in range(10):
            view = view_to_move(a, gid, toks)
            view_b = view_to_move(b, gid, toks)
            assert view_b["seq"] == view["seq"]  # b sees a's moves (no stale cache)
            legal = sorted(view["legal_actions"])
            choices = [rng.choice(legal), rng.choice(legal)]
            barrier = threading.Barrier(2)
            answers: list[tuple[int, str, int]] = []

            def send(i: int, client: TestClient, barrier: threading.Barrier,
                     view: dict[str, Any], choices: list[str],
                     answers: list[tuple[int, str, int]]) -> None:
                barrier.wait(10.0)
                r = _move(client, gid, toks, view, choices[i])
                answers.append((r.status_code, choices[i], i))

            threads = [threading.Thread(target=send,
                                        args=(i, c, barrier, view, choices, answers))
                       for i, c in enumerate((a, b))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30.0)
            statuses = sorted(s for s, _, _ in answers)
            assert statuses == [200, 409], answers
            played.append(next(action for s, action, _ in answers if s == 200))
            assert record_actions(a, gid) == played
            assert record_actions(b, gid) == played


def test_two_workers_one_database_many_racing_clients(db: str, tmp_path: Path) -> None:
    """``endeavor serve --workers 2`` on one PostgreSQL database; six client threads
    (new connection per request, so both workers serve) race on one game's moves:
    every 200 is the record's move at its seq, no seq acknowledged twice, nothing in the
    record that was not acknowledged."""
    target, nthreads = 40, 6
    server = ServerProcess(db, workers=2, log=tmp_path / "server.log")
    server.start()
    try:
        no_keepalive = httpx.Limits(max_keepalive_connections=0)
        with httpx.Client(base_url=server.url, timeout=20.0, trust_env=False) as c:
            game = new_game(c, seed=11)
        gid, toks = game["id"], tokens(game)
        acked: list[tuple[int, str]] = []
        statuses: list[int] = []
        lock = threading.Lock()
        deadline = time.monotonic() + 90.0

        problems: list[str] = []

        def hammer(i: int) -> None:
            rng = random.Random(1000 + i)
            with httpx.Client(base_url=server.url, timeout=20.0, trust_env=False,
                              limits=no_keepalive) as c:
                while time.monotonic() < deadline:
                    with lock:
                        if len(acked) >= target:
                            return
                    try:
                        view = view_to_move(c, gid, toks)
                    except (AssertionError, httpx.HTTPError) as e:
                        problems.append(f"view: {e}")
                        return
                    if view["decision"] is None:
                        return
                    action = rng.choice(sorted(view["legal_actions"]))
                    r = _move(c, gid, toks, view, action)
                    with lock:
                        statuses.append(r.status_code)
                        if r.status_code == 200:
                            # the move is entry seq + 1; the answer is the view after it,
                            # which may already show later moves from other clients
                            if r.json()["seq"] < view["seq"] + 1:
                                problems.append(f"sent seq {view['seq']}, got {r.json()['seq']}")
                            acked.append((view["seq"] + 1, action))

        threads = [threading.Thread(target=hammer, args=(i,), daemon=True)
                   for i in range(nthreads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120.0)
        assert not any(t.is_alive() for t in threads)
        assert not problems, problems
        assert len(acked) >= target, (len(acked), sorted(set(statuses)))
        assert set(statuses) <= {200, 409}, sorted(set(statuses))
        seqs = [s for s, _ in acked]
        assert len(seqs) == len(set(seqs)), "a seq acknowledged twice"
        with httpx.Client(base_url=server.url, timeout=20.0, trust_env=False) as c:
            actions = record_actions(c, gid)
            assert sorted(seqs) == list(range(1, len(actions) + 1)), "lost or extra moves"
            for seq, action in acked:
                assert actions[seq - 1] == action, f"seq {seq}: {actions[seq - 1]} != {action}"
            view = c.get(f"/api/games/{gid}").json()
            assert view["seq"] == len(actions)
        assert server.running(), server.log_tail()
    finally:
        server.close()
