"""Crash safety: ``endeavor serve`` killed with SIGKILL mid-game (also while a burst of
moves is in flight) and restarted on the same SQLite file keeps every acknowledged (200)
move, in order, and its games go on.

A real server process on a free loopback port; bounded loops, every request with a
timeout; the server is killed or stopped at the end of each test whatever happens."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import httpx
import pytest
from pg import auth, new_game, record_actions, tokens, view_to_move
from tools.loadtest import ServerProcess

TIMEOUT = httpx.Timeout(20.0)


def _client(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=TIMEOUT, trust_env=False)


def _play(client: httpx.Client, game_id: str, toks: dict[int, str], rng: random.Random,
          moves: int, acked: list[tuple[int, str]]) -> None:
    """Play ``moves`` random legal moves one after the other, appending each 200's
    (seq, action) to ``acked``."""
    for _ in range(moves):
        view = view_to_move(client, game_id, toks)
        if view["decision"] is None:
            return
        action = rng.choice(sorted(view["legal_actions"]))
        seat = view["current_player"]
        r = client.post(f"/api/games/{game_id}/actions", headers=auth(toks[seat]),
                        json={"action": action, "seq": view["seq"]})
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == view["seq"] + 1  # no one else plays this game
        acked.append((view["seq"] + 1, action))


def _check_kept(actions: list[str], acked: list[tuple[int, str]], in_flight: int) -> None:
    """Every acknowledged move is in the record at its seq; at most ``in_flight`` moves
    whose answer never came were kept beyond them."""
    for seq, action in acked:
        assert seq <= len(actions), f"acknowledged move {seq} ({action}) lost"
        assert actions[seq - 1] == action, f"move {seq}: {actions[seq - 1]} != {action}"
    assert [s for s, _ in acked] == list(range(1, len(acked) + 1))
    assert len(actions) <= len(acked) + in_flight


@pytest.fixture
def server(tmp_path: Path):  # type: ignore[no-untyped-def]
    srv = ServerProcess(f"sqlite:///{tmp_path / 'c.db'}", log=tmp_path / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.close()


def test_kill_mid_game_keeps_every_acknowledged_move(server: ServerProcess) -> None:
    rng = random.Random(7)
    with _client(server) as client:
        game = new_game(client, seed=7)
        gid, toks = game["id"], tokens(game)
        acked: list[tuple[int, str]] = []
        _play(client, gid, toks, rng, 12, acked)
    assert len(acked) == 12
    for cycle in range(2):
        server.kill()
        assert not server.running()
        server.start()
        with _client(server) as client:
            _check_kept(record_actions(client, gid), acked, in_flight=0)
            before = len(acked)
            _play(client, gid, toks, rng, 5, acked)  # the game goes on
            assert len(acked) == before + 5, f"cycle {cycle}: the game did not go on"
            _check_kept(record_actions(client, gid), acked, in_flight=0)


def test_kill_during_a_burst_of_moves(server: ServerProcess) -> None:
    """Four games played at full speed from four threads; SIGKILL lands while moves are
    in flight. Each game may keep at most one move it never acknowledged."""
    ngames = 4
    with _client(server) as client:
        games = [new_game(client, seed=100 + i) for i in range(ngames)]
    acked: list[list[tuple[int, str]]] = [[] for _ in games]
    rngs = [random.Random(100 + i) for i in range(ngames)]
    for burst in range(2):
        stop = threading.Event()
        failures: list[str] = []

        def player(i: int, stop: threading.Event, failures: list[str]) -> None:
            gid, toks = games[i]["id"], tokens(games[i])
            deadline = time.monotonic() + 30.0
            with _client(server) as c:
                try:
                    while not stop.is_set() and time.monotonic() < deadline:
                        view = view_to_move(c, gid, toks)
                        if view["decision"] is None:
                            return
                        action = rngs[i].choice(sorted(view["legal_actions"]))
                        r = c.post(f"/api/games/{gid}/actions",
                                   headers=auth(toks[view["current_player"]]),
                                   json={"action": action, "seq": view["seq"]})
                        if r.status_code != 200:
                            failures.append(f"game {i}: {r.status_code} {r.text}")
                            return
                        acked[i].append((view["seq"] + 1, action))
                except (httpx.TransportError, AssertionError):
                    return  # the server died under us: expected

        threads = [threading.Thread(target=player, args=(i, stop, failures), daemon=True)
                   for i in range(ngames)]
        for t in threads:
            t.start()
        counts = [len(a) for a in acked]
        deadline = time.monotonic() + 20.0
        while sum(len(a) for a in acked) < sum(counts) + 20 and time.monotonic() < deadline:
            time.sleep(0.02)
        server.kill()  # mid-burst: every thread has a request under way or about to
        stop.set()
        for t in threads:
            t.join(30.0)
        assert not any(t.is_alive() for t in threads)
        assert not failures, failures
        assert sum(len(a) for a in acked) >= sum(counts) + 20, f"burst {burst}: too slow"
        server.start()
        with _client(server) as client:
            for i, game in enumerate(games):
                actions = record_actions(client, game["id"])
                _check_kept(actions, acked[i], in_flight=1)
                if len(actions) > len(acked[i]):  # kept though never acknowledged
                    acked[i].append((len(actions), actions[-1]))
    with _client(server) as client:  # every game goes on after the last restart
        for i, game in enumerate(games):
            before = len(acked[i])
            _play(client, game["id"], tokens(game), rngs[i], 3, acked[i])
            assert len(acked[i]) == before + 3
            _check_kept(record_actions(client, game["id"]), acked[i], in_flight=0)
