"""A game's chat through the HTTP API (docs/web.md, "Chat"), on SQLite and PostgreSQL:
writing, reading and deleting, who may do which, the limits on a message and on how
fast a seat writes, HTML kept as text, the record with and without the chat, the
WebSocket's chat frames (from this process and, by its poll, from another), and chat
messages folded into a seat's next notification instead of being sent on their own."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import fresh_database, pg_url
from sqlalchemy import create_engine, select
from webapi import auth, eventually

from endeavor.web import chat as chat_module
from endeavor.web import db
from endeavor.web.app import create_app
from endeavor.web.notify import NotifySettings


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test on a fresh SQLite file and on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.db"
    else:
        with fresh_database(pg_url()) as url:
            yield url


def _app(db_url: str, **kw: Any) -> FastAPI:
    kw.setdefault("poll_seconds", 0.05)
    return create_app(db_url, **kw)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(_app(db_url)) as c:
        yield c


def _game(client: TestClient, seats: list[str]) -> tuple[str, dict[int, str], str]:
    r = client.post("/api/games", json={"config": {"players": len(seats), "seed": 1},
                                        "seats": seats})
    assert r.status_code == 201, r.text
    game = r.json()
    toks = {s["seat"]: s["token"] for s in game["seats"] if s["token"]}
    return game["id"], toks, game["host_token"]


def _post(client: TestClient, gid: str, token: str | None, body: Any,
          **extra: Any) -> Any:
    return client.post(f"/api/games/{gid}/chat", headers=auth(token),
                       json={"body": body, **extra})


def _detail(r: Any) -> str:
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail, detail
    return detail


def test_post_list_and_who_may_write(client: TestClient) -> None:
    gid, toks, host = _game(client, ["human", "human", "bot:random"])
    r = _post(client, gid, toks[0], "  Hello <b>all</b> & <script>x()</script>\r\nP1?  ")
    assert r.status_code == 201, r.text
    first = r.json()
    # stored and served as the text it is: no markup interpreted or stripped
    assert first["body"] == "Hello <b>all</b> & <script>x()</script>\nP1?"
    assert (first["seat"], first["name"], first["deleted"]) == (0, "P0", False)
    r = _post(client, gid, toks[1], "hi")
    assert r.status_code == 201 and r.json()["id"] > first["id"]
    # everyone reads, spectators too (no token); oldest first
    listed = client.get(f"/api/games/{gid}/chat").json()
    assert [m["body"] for m in listed["messages"]] == [first["body"], "hi"]
    assert listed["last"] == r.json()["id"] and listed["deleted"] == 0
    assert listed["seen"] is None and listed["more"] is False
    after = client.get(f"/api/games/{gid}/chat", params={"after": first["id"]}).json()
    assert [m["body"] for m in after["messages"]] == ["hi"]
    # a seat's token gives the last message that seat has seen: its own post counts
    assert client.get(f"/api/games/{gid}/chat", headers=auth(toks[1])).json()["seen"] == \
        listed["last"]
    assert client.get(f"/api/games/{gid}/chat", headers=auth(toks[0])).json()["seen"] == \
        first["id"]
    # refused, each with its reason, and nothing written
    r = _post(client, gid, None, "spectator")
    assert r.status_code == 401 and "token is needed" in _detail(r)
    r = _post(client, gid, "not-a-token", "stranger")
    assert r.status_code == 403
    r = _post(client, gid, host, "host")
    assert r.status_code == 403 and "host's link cannot write" in _detail(r)
    r = _post(client, gid, toks[0], "as P1", seat=1)
    assert r.status_code == 403 and "not P1's" in _detail(r)
    r = client.get(f"/api/games/{gid}/chat", headers=auth("not-a-token"))
    assert r.status_code == 403
    r = _post(client, "nosuchgame", toks[0], "hi")
    assert r.status_code == 404
    assert len(client.get(f"/api/games/{gid}/chat").json()["messages"]) == 2


def test_limits_of_a_message(client: TestClient) -> None:
    gid, toks, _ = _game(client, ["human", "human"])
    too_long = "x" * (chat_module.MAX_CHARS + 1)
    cases = [("   \n ", 400, "empty"), (too_long, 400, "too long"),
             ("bell\x07", 400, "control character (U+0007)"),
             ("nul\x00", 400, "control character (U+0000)"),
             ("a\tb", 400, "control character (U+0009)"),
             ("\n".join("l" * 20), 400, "lines")]
    for body, status, words in cases:
        r = _post(client, gid, toks[0], body)
        assert r.status_code == status and words in _detail(r), (body, r.text)
    for bad in ({"body": 5}, {"body": None}, {"body": "x", "seat": True},
                {"body": "x", "extra": 1}):
        r = client.post(f"/api/games/{gid}/chat", headers=auth(toks[0]), json=bad)
        assert r.status_code == 422, (bad, r.text)
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []
    # the longest message, emoji and new lines are fine
    for body in ("y" * chat_module.MAX_CHARS, "👍🏽 ok", "two\nlines"):
        assert _post(client, gid, toks[0], body).status_code == 201, body


def test_rate_limit_per_seat(client: TestClient) -> None:
    gid, toks, _ = _game(client, ["human", "human"])
    for i in range(chat_module.RATE_COUNT):
        assert _post(client, gid, toks[0], f"m{i}").status_code == 201
    r = _post(client, gid, toks[0], "one too many")
    assert r.status_code == 429
    assert _detail(r).startswith(f"too many messages: at most {chat_module.RATE_COUNT} in")
    # another seat is not held back by it
    assert _post(client, gid, toks[1], "my turn to talk").status_code == 201
    bodies = [m["body"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert "one too many" not in bodies and len(bodies) == chat_module.RATE_COUNT + 1


def test_hot_seat_says_which_seat(client: TestClient) -> None:
    gid, toks, _ = _game(client, ["hotseat", "hotseat"])
    r = _post(client, gid, toks[0], "who am I")
    assert r.status_code == 400 and "say which (seat)" in _detail(r)
    r = _post(client, gid, toks[0], "P1 here", seat=1)
    assert r.status_code == 201 and r.json()["seat"] == 1


def test_host_deletes_and_the_body_is_gone(client: TestClient) -> None:
    gid, toks, host = _game(client, ["human", "human"])
    keep = _post(client, gid, toks[0], "keep me").json()
    rude = _post(client, gid, toks[1], "something rude").json()
    for token, status in ((None, 401), (toks[0], 403), (toks[1], 403)):
        r = client.delete(f"/api/games/{gid}/chat/{rude['id']}", headers=auth(token))
        assert r.status_code == status, r.text
        _detail(r)
    r = client.delete(f"/api/games/{gid}/chat/{rude['id'] + 100}", headers=auth(host))
    assert r.status_code == 404 and "no chat message" in _detail(r)
    r = client.delete(f"/api/games/{gid}/chat/{rude['id']}", headers=auth(host))
    assert r.status_code == 200 and r.json()["deleted"] is True and r.json()["body"] is None
    again = client.delete(f"/api/games/{gid}/chat/{rude['id']}", headers=auth(host))
    assert again.status_code == 200
    listed = client.get(f"/api/games/{gid}/chat").json()
    assert [(m["id"], m["body"], m["deleted"]) for m in listed["messages"]] == [
        (keep["id"], "keep me", False), (rude["id"], None, True)]
    assert listed["deleted"] == 1
    assert "something rude" not in json.dumps(listed)
    # a message of another game cannot be deleted through this one
    other, otoks, _ = _game(client, ["human", "human"])
    theirs = _post(client, other, otoks[0], "theirs").json()
    r = client.delete(f"/api/games/{gid}/chat/{theirs['id']}", headers=auth(host))
    assert r.status_code == 404
    assert client.get(f"/api/games/{other}/chat").json()["messages"][0]["body"] == "theirs"


def test_record_with_and_without_chat(client: TestClient) -> None:
    gid, toks, host = _game(client, ["human", "human"])
    _post(client, gid, toks[0], "gg <3")
    gone = _post(client, gid, toks[1], "deleted later").json()
    client.delete(f"/api/games/{gid}/chat/{gone['id']}", headers=auth(host))
    plain = client.get(f"/api/games/{gid}/record")
    assert plain.status_code == 200 and "chat" not in plain.json()
    with_chat = client.get(f"/api/games/{gid}/record", params={"chat": "1"}).json()
    assert [(m["seat"], m["name"], m["body"]) for m in with_chat["chat"]] == [
        (0, "P0", "gg <3")]
    # a record with its chat imports like any other (the chat is not carried over)
    r = client.post("/api/games/import", json={"record": with_chat,
                                               "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    assert client.get(f"/api/games/{r.json()['id']}/chat").json()["messages"] == []


def test_seen_moves_forward_only(client: TestClient) -> None:
    gid, toks, _ = _game(client, ["human", "human"])
    ids = [_post(client, gid, toks[0], f"m{i}").json()["id"] for i in range(3)]

    def seen(upto: int) -> Any:
        return client.post(f"/api/games/{gid}/chat/seen", headers=auth(toks[1]),
                           json={"upto": upto})

    assert seen(ids[1]).json() == {"seen": ids[1]}
    assert seen(ids[0]).json() == {"seen": ids[1]}  # never back
    assert seen(ids[2] + 1000).json() == {"seen": ids[2]}  # never past the last
    r = client.post(f"/api/games/{gid}/chat/seen", json={"upto": 1})
    assert r.status_code == 401
    r = client.post(f"/api/games/{gid}/chat/seen", headers=auth(toks[1]),
                    json={"upto": "3"})
    assert r.status_code == 422


def test_websocket_announces_posts_and_deletions(client: TestClient) -> None:
    gid, toks, host = _game(client, ["human", "human"])
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json() == {"seq": 0}  # no chat yet: no chat frame
        m = _post(client, gid, toks[0], "live").json()
        assert ws.receive_json() == {"chat": m["id"], "deleted": 0}
        client.delete(f"/api/games/{gid}/chat/{m['id']}", headers=auth(host))
        assert ws.receive_json() == {"chat": m["id"], "deleted": 1}
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        # a new socket hears the chat's version at once, beside the seq
        frames = [ws.receive_json(), ws.receive_json()]
        assert {"chat": m["id"], "deleted": 1} in frames and {"seq": 0} in frames


def test_another_worker_hears_the_chat(db_url: str) -> None:
    """Two apps on one database (two server processes): a message posted through one
    reaches the WebSocket of the other by its poll of the database."""
    with TestClient(_app(db_url)) as a, TestClient(_app(db_url)) as b:
        gid, toks, _ = _game(a, ["human", "human"])
        with b.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json() == {"seq": 0}
            m = _post(a, gid, toks[1], "from the other worker").json()
            assert ws.receive_json() == {"chat": m["id"], "deleted": 0}


def test_racing_posts_of_two_workers_keep_the_rate(db_url: str) -> None:
    """Ten posts of one seat at once through two apps on one database (two server
    processes): exactly the allowed number is written, the others get 429, none a 500."""
    with TestClient(_app(db_url)) as a, TestClient(_app(db_url)) as b:
        gid, toks, _ = _game(a, ["human", "human"])
        statuses: list[int] = []
        lock = threading.Lock()

        def post(client: TestClient, i: int) -> None:
            r = _post(client, gid, toks[0], f"race {i}")
            with lock:
                statuses.append(r.status_code)

        threads = [threading.Thread(target=post, args=((a, b)[i % 2], i)) for i in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(statuses) == [201] * chat_module.RATE_COUNT + [429] * (
            10 - chat_module.RATE_COUNT), statuses
        assert len(a.get(f"/api/games/{gid}/chat").json()["messages"]) == \
            chat_module.RATE_COUNT


# --------------------------------------------------------------------------- notifications
class _Receiver:
    """A webhook receiver on 127.0.0.1: every JSON body posted to it, in order."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", "0"))
                outer.bodies.append(json.loads(self.rfile.read(length)))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _outbox(url: str, gid: str) -> list[Any]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(db.outbox).where(db.outbox.c.game_id == gid)))
    finally:
        engine.dispose()


def _move(client: TestClient, gid: str, token: str) -> None:
    view = client.get(f"/api/games/{gid}", headers=auth(token)).json()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                    json={"action": view["legal_actions"][0], "seq": view["seq"]})
    assert r.status_code == 200, r.text


def test_chat_goes_into_the_next_turn_message(db_url: str) -> None:
    receiver = _Receiver()
    app = _app(db_url, notify=NotifySettings(allow_private=True, backoff=(0.1,)))
    try:
        with TestClient(app) as client:
            gid, toks, host = _game(client, ["human", "human"])
            r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                           json={"webhook": receiver.url})
            assert r.status_code == 200, r.text
            app.state.chat.rate_count = 10
            assert _post(client, gid, toks[1], "P1's own words").status_code == 201
            bodies = ["Hello @P1, ready?", "first aside", "second aside", "third aside",
                      "the last one"]
            ids = [_post(client, gid, toks[0], body).json()["id"] for body in bodies]
            rude = _post(client, gid, toks[0], "something rude").json()
            client.delete(f"/api/games/{gid}/chat/{rude['id']}", headers=auth(host))
            # a chat message is no message of its own: nothing queued, nothing sent
            assert _outbox(db_url, gid) == [] and receiver.bodies == []
            _move(client, gid, toks[0])  # P1 to move: one message, with the chat
            [sent] = eventually(lambda: list(receiver.bodies), what="P1's turn message")
            text = sent["message"]
            assert "P1, it is your move" in text
            # the message naming P1 first, then the latest; in the order written
            assert "P0 wrote: Hello @P1, ready?\nP0 wrote: third aside\n" \
                   "P0 wrote: the last one\n… and 2 more messages in the chat" in text
            assert "P1's own words" not in text and "rude" not in text
            assert sent["chat"][0] == "P0 wrote: Hello @P1, ready?" and sent["chat_more"] == 2
            assert "P0 wrote: Hello @P1, ready?" in sent["content"]
            # told: P1 has now seen the chat up to the last message it carried
            eventually(lambda: client.get(f"/api/games/{gid}/chat", headers=auth(toks[1]))
                       .json()["seen"] == ids[-1], what="chat_seen advanced")
            _move(client, gid, toks[1])
            _move(client, gid, toks[0])  # P1's turn again: no chat lines this time
            eventually(lambda: len(receiver.bodies) == 2, what="P1's second message")
            assert receiver.bodies[1]["chat"] == [] and "wrote:" not in \
                receiver.bodies[1]["message"]
    finally:
        receiver.close()


def test_mentions() -> None:
    assert chat_module.mentions("hi @ann!", "Ann")
    assert chat_module.mentions("Ann, your move", "Ann")
    assert not chat_module.mentions("Annabel moved", "Ann")
    assert not chat_module.mentions("mail@ann.org", "Ann")
    assert chat_module.mentions("go P1", "P1") and not chat_module.mentions("P10", "P1")
