"""The hot path's fast routes (``endeavor.web.fastroute``) answer exactly as the FastAPI
routes behind them: the same status, headers and body for plain requests and for every
odd one (which they hand on), and they do serve the plain ones themselves."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from endeavor.web.fastroute import FastRoute


@contextlib.contextmanager
def without_fast_routes(client: TestClient) -> Iterator[None]:
    """The app as FastAPI alone would serve it."""
    routes = client.app.router.routes  # type: ignore[attr-defined]
    fast = [r for r in routes if isinstance(r, FastRoute)]
    assert len(fast) == 2
    routes[:] = [r for r in routes if not isinstance(r, FastRoute)]
    try:
        yield
    finally:
        routes[:0] = fast


@contextlib.contextmanager
def fallbacks_counted(client: TestClient) -> Iterator[list[str]]:
    """The requests the fast routes hand to their FastAPI routes, by method."""
    seen: list[str] = []
    fast = [r for r in client.app.router.routes  # type: ignore[attr-defined]
            if isinstance(r, FastRoute)]
    originals = {id(r): r.fallback.handle for r in fast}

    def counting(route: FastRoute) -> Any:
        original = originals[id(route)]

        async def handle(scope: Any, receive: Any, send: Any) -> None:
            seen.append(scope["method"])
            await original(scope, receive, send)
        return handle

    for r in fast:
        r.fallback.handle = counting(r)  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        for r in fast:
            r.fallback.handle = originals[id(r)]  # type: ignore[method-assign]


def _answer(r: Any, game_ids: tuple[str, ...] = ()) -> tuple[int, list[tuple[str, str]], str]:
    headers = [(k.lower(), v) for k, v in r.headers.multi_items() if k.lower() != "date"]
    text = r.text
    for i, gid in enumerate(game_ids):
        text = text.replace(gid, f"<game {i}>")
        headers = [(k, v if k != "content-length" else "-") for k, v in headers]
    return r.status_code, headers, text


def _send(client: TestClient, method: str, path: str, headers: dict[str, str] | None = None,
          content: bytes | None = None, raw_headers: list[tuple[str, str]] | None = None,
          ) -> Any:
    all_headers: Any = [(k, v.encode("latin-1")) for k, v in
                        [*(headers or {}).items(), *(raw_headers or [])]]
    return client.request(method, path, headers=all_headers, content=content)


def _both(client: TestClient, method: str, path: str, **kw: Any) -> None:
    """The request answered the same with and without the fast routes (it must change
    nothing: an error, or a GET)."""
    fast = _answer(_send(client, method, path, **kw))
    with without_fast_routes(client):
        slow = _answer(_send(client, method, path, **kw))
    assert fast == slow, (method, path, kw)


def _game(client: TestClient, title: str = "t") -> tuple[str, dict[int, str]]:
    r = client.post("/api/games", json={"config": {"players": 2, "seed": 7},
                                        "seats": ["human", "human"], "title": title})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {s["seat"]: s["token"] for s in data["seats"]}


JSON_TYPE = {"Content-Type": "application/json"}


def test_plain_requests_are_served_fast_and_answer_the_same(client: TestClient) -> None:
    """Two identical games played move for move, one through the fast routes and one
    through FastAPI's: the same answers at every step (the game's id aside)."""
    a, tokens_a = _game(client)
    b, tokens_b = _game(client)
    for step in range(12):
        with fallbacks_counted(client) as fell_back:
            va = client.get(f"/api/games/{a}", params={"since": 0} if step % 2 else None,
                            headers={"Authorization": f"Bearer {tokens_a[0]}"})
        assert fell_back == []
        with without_fast_routes(client):
            vb = client.get(f"/api/games/{b}", params={"since": 0} if step % 2 else None,
                            headers={"Authorization": f"Bearer {tokens_b[0]}"})
        assert _answer(va, (a,)) == _answer(vb, (b,))
        view = va.json()
        seat = view["current_player"]
        # the seat to move's own view, with its options
        with fallbacks_counted(client) as fell_back:
            va = client.get(f"/api/games/{a}", params={"since": view["seq"]},
                            headers={"Authorization": f"Bearer {tokens_a[seat]}"})
        assert fell_back == []
        with without_fast_routes(client):
            vb = client.get(f"/api/games/{b}", params={"since": view["seq"]},
                            headers={"Authorization": f"Bearer {tokens_b[seat]}"})
        assert _answer(va, (a,)) == _answer(vb, (b,))
        action = sorted(va.json()["legal_actions"])[step % len(va.json()["legal_actions"])]
        body = {"action": action, "seq": view["seq"]}
        params = {"since": view["seq"]} if step % 3 else None
        with fallbacks_counted(client) as fell_back:
            ra = client.post(f"/api/games/{a}/actions", json=body, params=params,
                             headers={"Authorization": f"Bearer {tokens_a[seat]}"})
        assert fell_back == []
        with without_fast_routes(client):
            rb = client.post(f"/api/games/{b}/actions", json=body, params=params,
                             headers={"Authorization": f"Bearer {tokens_b[seat]}"})
        assert ra.status_code == 200, ra.text
        assert _answer(ra, (a,)) == _answer(rb, (b,))
    # a spectator's view, and a game that does not exist
    _both(client, "GET", f"/api/games/{a}")
    _both(client, "GET", "/api/games/nosuchgame")


@pytest.mark.parametrize("auth", [
    None, "Bearer", "Bearer ", "bearer {t}", "BEARER {t}", "Basic {t}", "Bearer  {t}",
    "Bearer {t} ", "Bearer {t} x", "Token {t}", "Bearer not-a-token", "Bearer {t}\u00e9"])
def test_tokens_read_as_fastapi_reads_them(client: TestClient, auth: str | None) -> None:
    gid, tokens = _game(client)
    seat = client.get(f"/api/games/{gid}").json()["current_player"]
    headers = {"Authorization": auth.format(t=tokens[seat])} if auth is not None else {}
    _both(client, "GET", f"/api/games/{gid}", headers=headers)
    # a move that is refused whatever the token (a stale seq): nothing changes
    body = json.dumps({"action": "pass", "seq": 99}).encode()
    _both(client, "POST", f"/api/games/{gid}/actions", headers={**headers, **JSON_TYPE},
          content=body)


def test_two_authorization_headers(client: TestClient) -> None:
    gid, tokens = _game(client)
    _both(client, "GET", f"/api/games/{gid}", raw_headers=[
        ("Authorization", f"Bearer {tokens[0]}"), ("Authorization", f"Bearer {tokens[1]}")])


@pytest.mark.parametrize("query", [
    "since=0", "since=3", "since=-1", "since=", "since=01", "since=+2", "since=1.0",
    "since=x", "since=2&since=3", "since=2&other=1", "other=1", "since=99999999999999999999",
    "since=%32", "since=2&"])
def test_queries_read_as_fastapi_reads_them(client: TestClient, query: str) -> None:
    gid, tokens = _game(client)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    _both(client, "GET", f"/api/games/{gid}?{query}", headers=headers)
    body = json.dumps({"action": "pass", "seq": 99}).encode()
    _both(client, "POST", f"/api/games/{gid}/actions?{query}",
          headers={**headers, **JSON_TYPE}, content=body)


@pytest.mark.parametrize(("content_type", "body"), [
    ("application/json", b'{"action": "pass", "seq": 99}'),
    ("application/json", b'{"action": "pass"}'),
    ("application/json", b'{"action": "pass", "seq": 99, "more": 1}'),
    ("application/json", b'{"action": 3, "seq": 0}'),
    ("application/json", b'{"action": "pass", "seq": "0"}'),
    ("application/json", b'{"action": "pass", "seq": -1}'),
    ("application/json", b'{"action": "pass", "seq": true}'),
    ("application/json", b'{"action": "pass", "seq": 0.5}'),
    ("application/json", b'{"action": "' + b"x" * 65 + b'", "seq": 0}'),
    ("application/json", b'["pass", 0]'),
    ("application/json", b'"pass"'),
    ("application/json", b"null"),
    ("application/json", b"{"),
    ("application/json", b""),
    ("application/json", b'{"action": "nonsense here", "seq": 0}'),
    ("application/json", b'{"action": "pass", "seq": 0}'),
    ("application/json; charset=utf-8", b'{"action": "pass", "seq": 99}'),
    ("Application/JSON", b'{"action": "pass", "seq": 99}'),
    ("application/vnd.x+json", b'{"action": "pass", "seq": 99}'),
    ("text/plain", b'{"action": "pass", "seq": 99}'),
    (None, b'{"action": "pass", "seq": 99}'),
    ("application/json", b'\xef\xbb\xbf{"action": "pass", "seq": 99}'),
    ("application/json", b'{"action": "pass", "seq": 99, "action": "x"}'),
])
def test_bodies_read_as_fastapi_reads_them(client: TestClient, content_type: str | None,
                                           body: bytes) -> None:
    """Refused bodies (and a move by the seat not to move) answer the same; none of
    these is played (the seat not to move sends them)."""
    gid, tokens = _game(client)
    seat = client.get(f"/api/games/{gid}").json()["current_player"]
    other = tokens[1 - seat]
    headers = {"Authorization": f"Bearer {other}"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    _both(client, "POST", f"/api/games/{gid}/actions", headers=headers, content=body)


def test_paths_and_methods_as_before(client: TestClient) -> None:
    gid, tokens = _game(client)
    headers = {"Authorization": f"Bearer {tokens[0]}"}
    long_id = "x" * 33
    _both(client, "GET", f"/api/games/{long_id}", headers=headers)
    _both(client, "POST", f"/api/games/{long_id}/actions", headers={**headers, **JSON_TYPE},
          content=b'{"action": "pass", "seq": 0}')
    for method in ("HEAD", "PUT", "DELETE", "PATCH"):
        _both(client, method, f"/api/games/{gid}", headers=headers)
        _both(client, method, f"/api/games/{gid}/actions", headers=headers)
    _both(client, "GET", f"/api/games/{gid}/actions", headers=headers)
    _both(client, "GET", "/api/games/mine")
    _both(client, "GET", f"/api/games/{gid}/")
    _both(client, "GET", "/api/games/a%2Fb")
