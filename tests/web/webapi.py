"""Small helpers for the web tests that drive the HTTP API through a test client: the
Authorization header of a token, :class:`Api` (create a game, views, moves, undo,
random play with the checks every test would repeat), and :func:`eventually` (wait for
what a server does in the background). A module of its own (not
conftest.py), so test files import it by a name no other conftest shadows."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient


def auth(token: str | None) -> dict[str, str]:
    """The Authorization header of a seat's token (none for a spectator)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


def eventually(check: Callable[[], Any], timeout: float = 15.0, what: str = "",
               slack: float = 1.0) -> Any:
    """``check()``'s value once it is true, polled every 50 ms; fails when it is still
    false after ``timeout`` times ``slack`` seconds (a wait, not a measure of speed)."""
    timeout *= slack
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        time.sleep(0.05)


class Api:
    """The HTTP API through a test client, with the checks every test would repeat."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def create(self, seats: list[str], **config: Any) -> dict[str, Any]:
        """Create a game (seed 1 unless given); return the 201 body."""
        config.setdefault("players", len(seats))
        config.setdefault("seed", 1)
        r = self.client.post("/api/games", json={"config": config, "seats": seats})
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
        return body

    @staticmethod
    def tokens(created: dict[str, Any]) -> dict[int, str]:
        """Seat -> token of a created game (bots left out)."""
        return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}

    def view(self, gid: str, token: str | None = None) -> dict[str, Any]:
        r = self.client.get(f"/api/games/{gid}", headers=auth(token))
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    def move(self, gid: str, token: str | None, action: str, seq: int) -> Any:
        return self.client.post(f"/api/games/{gid}/actions", headers=auth(token),
                                json={"action": action, "seq": seq})

    def undo(self, gid: str, token: str | None, seq: int) -> Any:
        return self.client.post(f"/api/games/{gid}/undo", headers=auth(token),
                                json={"seq": seq})

    def play_random(self, gid: str, toks: dict[int, str], rng: random.Random,
                    moves: int | None = None) -> dict[str, Any]:
        """Random legal moves for whichever human seat is to move, ``moves`` of them or
        to the end; the last view."""
        v = self.view(gid)
        done = 0
        while not v["over"] and (moves is None or done < moves):
            token = toks[v["current_player"]]
            mine = self.view(gid, token)
            assert mine["legal_actions"], mine["decision"]
            r = self.move(gid, token, rng.choice(mine["legal_actions"]), mine["seq"])
            assert r.status_code == 200, r.text
            v = r.json()
            done += 1
        return v
