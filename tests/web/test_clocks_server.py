"""Clocks enforced by real server processes: a deadline that passes while the server is
down is acted on after the restart, and ``endeavor serve --workers 2`` on PostgreSQL
plays each expired decision exactly once (the claim and the log's ``(game, seq)`` key),
whichever worker finds it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg import fresh_database, pg_url
from tools.loadtest import ServerProcess


def _create(client: httpx.Client, seats: list[str], seed: int, **clock: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"config": {"players": len(seats), "seed": seed},
                                        "seats": seats, "clock": clock})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _timeouts(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in view["events"] if e["kind"] == "timeout"]


def _check_log(view: dict[str, Any]) -> None:
    """Each timeout line comes with exactly one move, of the seat whose time ran out,
    at the same entry of the log."""
    actions = {e["seq"]: e for e in view["events"] if e["kind"] == "action"}
    seen = set()
    for line in _timeouts(view):
        assert line["seq"] not in seen
        seen.add(line["seq"])
        assert actions[line["seq"]]["player"] == line["player"], view["events"]


def _server_log_clean(server: ServerProcess) -> None:
    text = server.log.read_text(errors="replace")
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


def test_a_deadline_passed_while_the_server_was_down_is_acted_on_after_restart(
        tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'clock.db'}"
    server = ServerProcess(db, log=tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            g = _create(client, ["human", "human"], 3, per_decision=2)
            before = client.get(f"/api/games/{g['id']}").json()
    finally:
        server.stop()
    assert before["seq"] == 0 and before["clock"]["deadline"]
    time.sleep(2.5)  # the deadline passes while nobody serves the game
    server = ServerProcess(db, log=tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            end = time.monotonic() + 15
            while True:
                v = client.get(f"/api/games/{g['id']}").json()
                if _timeouts(v) or time.monotonic() > end:
                    break
                time.sleep(0.1)
        p = before["current_player"]
        assert [t["text"] for t in _timeouts(v)][:1] == [
            f"P{p}'s time ran out: the medium bot played for them"]
        assert v["seq"] >= 1 and v["current_player"] != p
        _check_log(v)
    finally:
        server.stop()
    _server_log_clean(server)


@pytest.fixture
def pg_db() -> Iterator[str]:
    with fresh_database(pg_url()) as url:
        yield url


def test_two_workers_on_postgres_play_each_expired_decision_once(pg_db: str,
                                                                  tmp_path: Path) -> None:
    server = ServerProcess(pg_db, workers=2, log=tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            games = [_create(client, ["human", "human", "human"], seed, per_decision=1)
                     for seed in range(4)]
            # nobody plays: each second a clock runs out in each game
            end = time.monotonic() + 20
            views: list[dict[str, Any]] = []
            while time.monotonic() < end:
                views = [client.get(f"/api/games/{g['id']}").json() for g in games]
                if all(len(_timeouts(v)) >= 3 for v in views):
                    break
                time.sleep(0.2)
            for v in views:
                assert len(_timeouts(v)) >= 3, v["events"]
                _check_log(v)
                # every entry of the log is a move (no failed or doubled write left a gap)
                assert v["actions"] == v["seq"]
            # a player who comes back plays on, with the clock still running
            g = games[0]
            v = client.get(f"/api/games/{g['id']}").json()
            token = g["seats"][v["current_player"]]["token"]
            mine = client.get(f"/api/games/{g['id']}",
                              headers={"Authorization": f"Bearer {token}"}).json()
            r = client.post(f"/api/games/{g['id']}/actions",
                            headers={"Authorization": f"Bearer {token}"},
                            json={"action": mine["legal_actions"][0], "seq": mine["seq"]})
            assert r.status_code in (200, 409), r.text  # 409: the clock was quicker
    finally:
        server.stop()
    _server_log_clean(server)
