"""Turn notifications (away from the page): a webhook and an e-mail delivered
after a move by a real ``endeavor serve`` process to a local HTTP receiver and a local
SMTP server (aiosmtpd), dead receivers that do not slow moves down, retries, the
private-address rule, the settings' life, logs without secrets, and a notification left
in the outbox while no server ran, sent after the restart. Plus in-process tests of what
a message says and when none is sent (the player is at the page, hot-seat).

The servers run with shortened retry waits and send timeouts
(``ENDEAVOR_NOTIFY_BACKOFF``, ``ENDEAVOR_NOTIFY_TIMEOUT``); every wait is bounded."""

from __future__ import annotations

import json
import os
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import auth, fresh_database, pg_url, tokens
from sqlalchemy import Engine, insert, select
from tools.loadtest import ServerProcess, free_port
from webapi import eventually

from endeavor.web import db
from endeavor.web.notify import (
    BACKOFF_VAR,
    TIMEOUT_VAR,
    Message,
    Notifier,
    NotifySettings,
    redact_email,
    redact_url,
)
from endeavor.web.store import utcnow
from endeavor.web.view import plain_words

try:
    from aiosmtpd.controller import Controller
except ImportError:  # pragma: no cover - the webtest extra has it
    Controller = None

TIMEOUT = httpx.Timeout(20.0)
#: the send timeout and retry waits of the servers under test (seconds)
SEND_TIMEOUT = 0.5
BACKOFF = "0.3,0.3,0.3,0.3,0.3"
SENDER = "endeavor@example.org"


# --------------------------------------------------------------------------- receivers
class Receiver:
    """A local webhook receiver: an HTTP server in a thread keeping every POST (path,
    headers, JSON body)."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with outer.cond:
                    outer.posts.append({"path": self.path, "headers": dict(self.headers),
                                        "body": json.loads(raw)})
                    outer.cond.notify_all()
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait(self, path: str, n: int = 1, timeout: float = 15.0) -> list[dict[str, Any]]:
        """The POSTs to ``path`` once there are ``n`` of them (fails after ``timeout``)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                got = [p for p in self.posts if p["path"] == path]
                if len(got) >= n:
                    return got
                left = deadline - time.monotonic()
                assert left > 0, f"{len(got)} POSTs to {path} after {timeout} s, not {n}"
                self.cond.wait(left)

    def to(self, path: str) -> list[dict[str, Any]]:
        with self.cond:
            return [p for p in self.posts if p["path"] == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Hanging:
    """A receiver that accepts connections and never answers."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for c in self.held:
            c.close()


class Mailbox:
    """A local SMTP server (aiosmtpd) keeping every message; recipients with
    ``reject`` in them are refused (550)."""

    def __init__(self) -> None:
        if Controller is None:
            if os.environ.get("CI"):
                pytest.fail("aiosmtpd is not installed (the webtest extra)")
            pytest.skip("aiosmtpd is not installed (pip install -e '.[webtest]')")
        self.mails: list[dict[str, Any]] = []
        self.cond = threading.Condition()
        outer = self

        class Handler:
            async def handle_RCPT(self, server: Any, session: Any, envelope: Any,  # noqa: N802
                                  address: str, rcpt_options: Any) -> str:
                if "reject" in address:
                    return "550 no such mailbox"
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server: Any, session: Any,  # noqa: N802
                                  envelope: Any) -> str:
                import email
                from email import policy

                msg = email.message_from_bytes(envelope.content, policy=policy.default)
                with outer.cond:
                    outer.mails.append({"from": envelope.mail_from, "to": envelope.rcpt_tos,
                                        "msg": msg})
                    outer.cond.notify_all()
                return "250 Message accepted"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def wait(self, to: str, n: int = 1, timeout: float = 15.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                got = [m for m in self.mails if to in m["to"]]
                if len(got) >= n:
                    return got
                left = deadline - time.monotonic()
                assert left > 0, f"{len(got)} e-mails to {to} after {timeout} s, not {n}"
                self.cond.wait(left)

    def close(self) -> None:
        self.controller.stop()


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    m = Mailbox()
    yield m
    m.close()


def _server(db_url: str, log: Path, mailbox: Mailbox, *, private: bool) -> ServerProcess:
    extra = ["--smtp", f"smtp://127.0.0.1:{mailbox.port}", "--mail-from", SENDER]
    if private:
        extra.append("--allow-private-webhooks")
    with pytest.MonkeyPatch.context() as mp:  # the server process inherits them
        mp.setenv(BACKOFF_VAR, BACKOFF)
        mp.setenv(TIMEOUT_VAR, str(SEND_TIMEOUT))
        srv = ServerProcess(db_url, log=log, extra=tuple(extra))
        srv.start()
    return srv


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory,
           mailbox: Mailbox) -> Iterator[ServerProcess]:
    """A server that allows private webhooks (the local receivers) and sends e-mail to
    the local mailbox."""
    tmp = tmp_path_factory.mktemp("notify")
    srv = _server(f"sqlite:///{tmp / 'n.db'}", tmp / "server.log", mailbox, private=True)
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture
def client(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=TIMEOUT, trust_env=False) as c:
        yield c


# --------------------------------------------------------------------------- helpers
def _game(client: httpx.Client, seats: list[str], seed: int = 3,
          title: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"config": {"players": len(seats), "seed": seed}, "seats": seats}
    if title:
        body["title"] = title
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def _view(client: httpx.Client, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def _move(client: httpx.Client, gid: str, toks: dict[int, str]) -> tuple[float, dict[str, Any]]:
    """The seat to move plays its first legal action: the time the POST took and the
    answer (checked: 200, the next seq)."""
    seat = _view(client, gid, toks[0])["current_player"]
    view = _view(client, gid, toks[seat])
    action = sorted(view["legal_actions"])[0]
    started = time.perf_counter()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[seat]),
                    json={"action": action, "seq": view["seq"]})
    took = time.perf_counter() - started
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    assert answer["seq"] == view["seq"] + 1
    return took, answer


def _act(client: httpx.Client, gid: str, token: str, action: str, seq: int,
         ) -> httpx.Response:
    return client.post(f"/api/games/{gid}/actions", headers=auth(token),
                       json={"action": action, "seq": seq})


def _play_until(client: httpx.Client, gid: str, toks: dict[int, str], seat: int) -> None:
    """Move until ``seat`` is to move (at least one move)."""
    for _ in range(30):
        _, answer = _move(client, gid, toks)
        if answer["current_player"] == seat:
            return
    raise AssertionError(f"P{seat} never came to move")


def _put(client: httpx.Client, gid: str, token: str, **body: Any) -> httpx.Response:
    return client.put(f"/api/games/{gid}/notify", headers=auth(token), json=body)


def _outbox(url: str, gid: str) -> list[Any]:
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(db.outbox).where(db.outbox.c.game_id == gid)))
    finally:
        engine.dispose()


def _token_of(link: str) -> str:
    return urlsplit(link).fragment


def _check_log_clean(log: Path, *secrets: str) -> str:
    text = log.read_text(errors="replace")
    for secret in secrets:
        assert secret not in text, f"the server's log holds {secret!r}"
    return text


# --------------------------------------------------------------------------- real server
def test_webhook_and_email_delivered_after_a_move(server: ServerProcess, client: httpx.Client,
                                                  receiver: Receiver,
                                                  mailbox: Mailbox) -> None:
    game = _game(client, ["human", "human"], title="Friday <night> & *sail*")
    gid, toks = game["id"], tokens(game)
    path, address = "/hook/p1-secret-path", "p1.player@example.org"
    r = _put(client, gid, toks[1], webhook=receiver.url + path, email=address)
    assert r.status_code == 200, r.text
    assert r.json()["seats"] == [{"seat": 1, "webhook": receiver.url + path,
                                  "email": address, "webhook_mode": "turn",
                                  "email_mode": "turn", "from_account": False}]
    assert r.json()["email_available"] is True

    _play_until(client, gid, toks, 1)  # P0 moves: P1 is to move
    view = _view(client, gid, toks[1])
    [post] = receiver.wait(path)
    body, headers = post["body"], {k.lower(): v for k, v in post["headers"].items()}
    assert body["event"] == "turn"
    assert body["game"]["id"] == gid and body["game"]["title"] == "Friday <night> & *sail*"
    assert body["game"]["url"] == f"{server.url}/game/{gid}"
    assert body["seat"] == 1
    assert body["round"] == view["state"]["round"]
    assert body["asked"] == plain_words(view["decision"]["prompt"])[0]
    assert body["asked"] and body["asked"] in body["content"]
    assert body["deadline"] is None and body["scores"] is None
    # the one body for the three kinds of receiver
    assert len(body["content"]) <= 2000 and "P1" in body["content"]
    assert body["allowed_mentions"] == {"parse": []}
    assert "&lt;night&gt; &amp;" in body["text"]  # Slack's escaping
    assert body["title"] == "Endeavor: your move in Friday <night> & *sail*"
    assert body["asked"] in body["message"] and body["link"] in body["message"]
    assert headers["content-type"] == "application/json"
    assert headers["x-template"] == "yes"
    assert headers["x-title"] == "{{.title}}" and headers["x-message"] == "{{.message}}"
    assert headers["x-click"] == body["link"]
    # the link opens P1's seat
    assert body["link"].startswith(f"{server.url}/play/{gid}#")
    assert _view(client, gid, _token_of(body["link"]))["you"] == [1]

    [mail] = mailbox.wait(address)
    msg = mail["msg"]
    assert mail["from"] == SENDER and msg["From"] == SENDER and msg["To"] == address
    assert msg["Subject"] == "Endeavor: your move in Friday <night> & *sail*"
    text = msg.get_content()
    assert body["link"] in text and body["asked"] in text and "P1" in text
    # sent once, and the outbox is empty again
    eventually(lambda: not _outbox(server.db, gid), what="the outbox emptied")
    assert len(receiver.to(path)) == 1
    _check_log_clean(server.log, toks[1], path, address)


def test_dead_receivers_do_not_slow_moves(server: ServerProcess, client: httpx.Client) -> None:
    """One receiver accepts and never answers, another refuses connections: moves in
    their games take no longer than in the same game without notifications; every move
    is acknowledged and recorded; the sends are retried (attempts, an error in words)
    and given up in the end, in the log."""
    hanging = Hanging()
    refused = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    try:
        games = {name: _game(client, ["human", "human"], seed=11)
                 for name in ("base", "hang", "refuse")}
        toks = {name: tokens(g) for name, g in games.items()}
        for name, url in (("hang", hanging.url), ("refuse", refused)):
            for seat in (0, 1):
                r = _put(client, games[name]["id"], toks[name][seat],
                         webhook=f"{url}/{name}/secret-{seat}")
                assert r.status_code == 200, r.text
        times: dict[str, list[float]] = {name: [] for name in games}
        for _ in range(16):  # the same moves in the three games, interleaved
            for name, g in games.items():
                took, _ = _move(client, g["id"], toks[name])
                times[name].append(took)
        fast = statistics.median(times["base"])
        for name in ("hang", "refuse"):
            slow = statistics.median(times[name])
            # a move that waited for the hanging receiver would take SEND_TIMEOUT
            assert slow < 4 * fast, f"moves of {name}: {slow:.3f} s vs {fast:.3f} s"
        actions = [client.get(f"/api/games/{g['id']}/record").json()["actions"]
                   for g in games.values()]
        assert len(actions[0]) == 16 and actions[1] == actions[0] and actions[2] == actions[0]

        # retried (the seat to move's row): attempts grow, the reason kept in words
        def retried(name: str) -> str | None:
            for row in _outbox(server.db, games[name]["id"]):
                if row.attempts >= 2 and row.last_error:
                    return str(row.last_error)
            return None

        assert eventually(lambda: retried("hang"), 20.0) == "no complete answer within 0.5 s"
        assert eventually(lambda: retried("refuse"), 20.0) == "the connection was refused"
        # given up after the last attempt (6 in all), and said so in the log
        for gid in (games["hang"]["id"], games["refuse"]["id"]):
            eventually(lambda gid=gid: not _outbox(server.db, gid), 30.0, f"{gid} given up")
        log = _check_log_clean(server.log, "secret-0", "secret-1",
                               *toks["hang"].values(), *toks["refuse"].values())
        assert "webhook to http://127.0.0.1/… for P" in log
        for name in ("hang", "refuse"):
            assert any(f"of game {games[name]['id']} after 6 attempts" in line
                       and "gave up" in line for line in log.splitlines()), name
    finally:
        hanging.close()


def test_settings_get_delete_and_reissue(server: ServerProcess, client: httpx.Client,
                                         receiver: Receiver) -> None:
    game = _game(client, ["human", "human", "human"])
    gid, toks = game["id"], tokens(game)
    url = f"/api/games/{gid}/notify"
    r = client.get(url, headers=auth(toks[2]))
    assert r.status_code == 200
    assert r.json()["seats"] == [{"seat": 2, "webhook": None, "email": None,
                                  "webhook_mode": "turn", "email_mode": "turn",
                                  "from_account": False}]
    assert client.get(url).status_code == 401
    assert _put(client, gid, toks[2], webhook=receiver.url + "/s2",
                email="two@example.org").status_code == 200
    assert _put(client, gid, toks[2], webhook=None).json()["seats"] == [
        {"seat": 2, "webhook": None, "email": "two@example.org",
         "webhook_mode": "turn", "email_mode": "turn", "from_account": False}]  # one field changed
    bad = _put(client, gid, toks[2], email="not an address")
    assert bad.status_code == 400 and "e-mail address" in bad.json()["detail"]
    bad = _put(client, gid, toks[2], webhook="ftp://example.org/x")
    assert bad.status_code == 400 and "http" in bad.json()["detail"]
    r = client.delete(url, headers=auth(toks[2]))
    assert r.json()["seats"] == [{"seat": 2, "webhook": None, "email": None,
                                  "webhook_mode": "turn", "email_mode": "turn",
                                  "from_account": False}]
    # another seat's settings are its own
    assert _put(client, gid, toks[1], webhook=receiver.url + "/s1").status_code == 200
    assert client.get(url, headers=auth(toks[2])).json()["seats"][0]["webhook"] is None
    # the host re-issues P1's link: the settings stay the seat's, with the new link
    r = client.post(f"/api/games/{gid}/host/seats/1/reissue",
                    headers=auth(game["host_token"]))
    assert r.status_code == 200, r.text
    new = _token_of(next(s["url"] for s in r.json()["seats"] if s["seat"] == 1))
    assert client.get(url, headers=auth(toks[1])).status_code == 403
    assert client.get(url, headers=auth(new)).json()["seats"] == [
        {"seat": 1, "webhook": receiver.url + "/s1", "email": None,
         "webhook_mode": "turn", "email_mode": "turn", "from_account": False}]
    _play_until(client, gid, {0: toks[0], 1: new, 2: toks[2]}, 1)
    [post] = receiver.wait("/s1")
    assert post["body"]["link"].endswith("#" + new)


def test_log_holds_no_token_or_address(server: ServerProcess, client: httpx.Client,
                                       mailbox: Mailbox) -> None:
    """A refused e-mail and a refused webhook are logged with their target redacted:
    no token, no webhook path, no full address in the server's output."""
    game = _game(client, ["human", "human"])
    gid, toks = game["id"], tokens(game)
    address = "reject.me.please@example.org"
    hook = f"http://127.0.0.1:{free_port()}/secret-hook-path-xyz"
    assert _put(client, gid, toks[1], email=address, webhook=hook).status_code == 200
    _play_until(client, gid, toks, 1)
    eventually(lambda: redact_email(address) in server.log.read_text(errors="replace"),
                what="the refused e-mail logged")
    eventually(lambda: redact_url(hook) in server.log.read_text(errors="replace"),
                what="the refused webhook logged")
    log = _check_log_clean(server.log, address, "secret-hook-path-xyz", toks[0], toks[1],
                           game["host_token"])
    assert f"gave up on the email to {redact_email(address)} for P1 of game {gid}" in log


@pytest.fixture
def private_server(tmp_path: Path, mailbox: Mailbox) -> Iterator[ServerProcess]:
    """A server without --allow-private-webhooks (e-mail to the local mailbox)."""
    srv = _server(f"sqlite:///{tmp_path / 'p.db'}", tmp_path / "server.log", mailbox,
                  private=False)
    try:
        yield srv
    finally:
        srv.close()


def test_private_webhooks_refused_and_a_row_left_while_down_is_sent(
        private_server: ServerProcess, receiver: Receiver, mailbox: Mailbox) -> None:
    srv = private_server
    with httpx.Client(base_url=srv.url, timeout=TIMEOUT, trust_env=False) as client:
        game = _game(client, ["human", "human"])
        gid, toks = game["id"], tokens(game)
        for url in (receiver.url + "/private", "http://localhost:9/x", "http://10.1.2.3/x",
                    "http://[::1]:8080/x", "http://169.254.169.254/latest"):
            r = _put(client, gid, toks[1], webhook=url)
            assert r.status_code == 400, url
            assert r.json()["detail"] == ("this server does not send to webhooks on "
                                          "loopback or private network addresses")
        address = "after.restart@example.org"
        assert _put(client, gid, toks[1], email=address).status_code == 200
        _play_until(client, gid, toks, 1)
        mailbox.wait(address, 1)
        eventually(lambda: not _outbox(srv.db, gid), what="the outbox emptied")
    # the server dies; a notification is left in the outbox, claimed by the dead worker
    srv.kill()
    engine: Engine = db.make_engine(srv.db)
    try:
        with engine.begin() as conn:
            seq = conn.execute(select(db.games.c.seq).where(db.games.c.id == gid)).scalar()
            conn.execute(insert(db.outbox).values(
                game_id=gid, seat=1, channel="email", event="turn", seq=seq,
                due=utcnow() - timedelta(seconds=5), attempts=1,
                lease_until=utcnow() - timedelta(seconds=1)))
    finally:
        engine.dispose()
    srv.start()
    [_, mail] = mailbox.wait(address, 2)
    assert mail["msg"]["Subject"].startswith("Endeavor: your move in")
    eventually(lambda: not _outbox(srv.db, gid), what="the outbox emptied")


def test_delivered_on_postgres(tmp_path: Path, receiver: Receiver, mailbox: Mailbox) -> None:
    with fresh_database(pg_url()) as url:
        srv = _server(url, tmp_path / "server.log", mailbox, private=True)
        try:
            with httpx.Client(base_url=srv.url, timeout=TIMEOUT, trust_env=False) as client:
                game = _game(client, ["human", "human"])
                gid, toks = game["id"], tokens(game)
                assert _put(client, gid, toks[1], webhook=receiver.url + "/pg",
                            email="pg@example.org").status_code == 200
                _play_until(client, gid, toks, 1)
                [post] = receiver.wait("/pg")
                assert post["body"]["game"]["id"] == gid and post["body"]["seat"] == 1
                mailbox.wait("pg@example.org")
                eventually(lambda: not _outbox(url, gid), what="the outbox emptied")
        finally:
            srv.close()


# --------------------------------------------------------------------------- in process
@pytest.fixture
def make_notifying(make_app: Callable[..., FastAPI]) -> Callable[..., FastAPI]:
    def make(**settings: Any) -> FastAPI:
        settings.setdefault("allow_private", True)
        settings.setdefault("poll_seconds", 0.1)
        return make_app(notify=NotifySettings(**settings))
    return make


@pytest.mark.parametrize("present_seconds, sent", [(60.0, False), (0.0, True)])
def test_hot_seat_and_quick_bots(make_notifying: Callable[..., FastAPI], receiver: Receiver,
                                 db_url: str, present_seconds: float, sent: bool) -> None:
    """The seats of a hot-seat screen passing the turn round are at that screen: no
    message (unless they moved long ago). A player whose quick bot answered at once is
    told (they asked to be, and may have left the page)."""
    with TestClient(make_notifying(present_seconds=present_seconds)) as client:
        hot = _game(client, ["hotseat", "hotseat"], seed=1)
        htok = tokens(hot)[0]
        r = client.put(f"/api/games/{hot['id']}/notify", headers=auth(htok),
                       json={"seat": 1, "webhook": f"{receiver.url}/hot/{present_seconds}"})
        assert r.status_code == 200, r.text
        bot = _game(client, ["human", "bot:random"], seed=1)
        btok = tokens(bot)[0]
        r = client.put(f"/api/games/{bot['id']}/notify", headers=auth(btok),
                       json={"webhook": f"{receiver.url}/bot/{present_seconds}"})
        assert r.status_code == 200, r.text
        view = _view(client, hot["id"], htok)
        assert _act(client, hot["id"], htok, view["legal_actions"][0], 0).json()[
            "current_player"] == 1
        view = _view(client, bot["id"], btok)
        after = _act(client, bot["id"], btok, view["legal_actions"][0], 0).json()
        assert after["current_player"] == 0 and after["seq"] == 2  # the bot answered
        assert receiver.wait(f"/bot/{present_seconds}")[0]["body"]["seat"] == 0
        if sent:
            assert receiver.wait(f"/hot/{present_seconds}")[0]["body"]["seat"] == 1
        else:
            eventually(lambda: not _outbox(db_url, hot["id"]), what="rows dropped")
            assert receiver.to(f"/hot/{present_seconds}") == []


def test_a_turn_already_played_is_not_sent_and_the_end_is(
        make_notifying: Callable[..., FastAPI], db_url: str) -> None:
    """Read when sent: a ``turn`` row whose seat has moved since is dropped; once the
    host ends the game, every seat that asked gets the final scores."""
    app = make_notifying()  # not started: the test drives the notifier by hand
    notifier: Notifier = app.state.notifier
    client = TestClient(app)  # no lifespan: no background sending
    r = client.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                        "seats": ["human", "human"],
                                        "clock": {"per_decision": 3600}})
    assert r.status_code == 201, r.text
    game = r.json()
    gid, toks = game["id"], tokens(game)
    for seat in (0, 1):
        r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[seat]),
                       json={"webhook": f"http://127.0.0.1:9/{seat}"})
        assert r.status_code == 200, r.text
    view = _view(client, gid, toks[0])
    assert _act(client, gid, toks[0], view["legal_actions"][0], 0).status_code == 200
    view = _view(client, gid, toks[1])
    assert _act(client, gid, toks[1], view["legal_actions"][0], 1).status_code == 200
    # P1's turn came and went: its row is dropped unsent; P0's is to send now
    jobs = {job.seat: job for job in notifier.claim(10)}
    assert set(jobs) == {0, 1}
    assert notifier.claim(10) == []  # claimed: nobody else gets them
    assert notifier.handle(jobs[1]) == "the seat is not to move any more"
    snap = app.state.store.snapshot(gid)
    message = notifier.compose(snap, 0, toks[0])
    assert isinstance(message, Message) and message.event == "turn"
    assert snap.clock is not None and message.deadline == snap.clock.deadline
    assert message.deadline is not None and "You have until" in message.text()
    assert message.webhook_body()["deadline"] == message.deadline.isoformat()
    notifier.settings = NotifySettings(allow_private=True, present_seconds=60.0)
    assert notifier.compose(snap, 1, toks[1]) == "the seat is not to move any more"
    assert notifier.compose(snap, 0, toks[1]) == "the seat's link has changed"
    r = client.post(f"/api/games/{gid}/host/end", headers=auth(game["host_token"]))
    assert r.status_code == 200, r.text
    snap = app.state.store.snapshot(gid)
    for seat in (0, 1):
        over = notifier.compose(snap, seat, toks[seat])
        assert isinstance(over, Message) and over.event == "over" and over.ended_by_host
        body = over.webhook_body()
        assert body["event"] == "over" and len(body["scores"]) == 2
        assert ("wins with" in body["message"] or "share the win" in body["message"])
        assert "ended by the host" in body["message"] and body["result"] in body["message"]
    notifier.stop()


def test_failures_back_off_then_give_up(make_notifying: Callable[..., FastAPI],
                                        db_url: str) -> None:
    app = make_notifying(backoff=(0.0, 0.0), timeout=0.5)
    notifier: Notifier = app.state.notifier
    client = TestClient(app)
    game = _game(client, ["human", "human"], seed=1)
    gid, toks = game["id"], tokens(game)
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                   json={"webhook": f"http://127.0.0.1:{free_port()}/x"})
    assert r.status_code == 200
    view = _view(client, gid, toks[0])
    assert _act(client, gid, toks[0], view["legal_actions"][0], 0).status_code == 200
    for attempt in (1, 2):
        [job] = notifier.claim(10)
        assert notifier.handle(job).startswith("failed: the connection was refused")
        [row] = _outbox(db_url, gid)
        assert row.attempts == attempt and row.lease_until is None
        assert row.last_error == "the connection was refused"
    [job] = notifier.claim(10)
    notifier.handle(job)
    assert _outbox(db_url, gid) == []  # 3 attempts with 2 waits: given up
    notifier.stop()


def test_one_body_for_discord_slack_and_ntfy() -> None:
    m = Message("turn", "g1", "@everyone <b>&</b> _x_", "https://e.org/game/g1", 2, 3, 7,
                "https://e.org/play/g1#tok_en-1", asked="Choose " + "x" * 3000,
                deadline=utcnow().replace(year=2031, month=1, day=2, hour=3, minute=4))
    body = m.webhook_body()
    assert len(body["content"]) == 2000 and body["content"].endswith("…")
    assert "\\_x\\_" in body["content"] and body["allowed_mentions"] == {"parse": []}
    assert body["text"].startswith("P2, it is your move in @everyone &lt;b&gt;&amp;&lt;/b&gt;")
    assert "(round 3 of 7)" in body["message"]
    assert "You have until 2031-01-02 03:04 UTC (in " in body["message"]
    assert body["deadline"].startswith("2031-01-02T03:04")
    assert body["title"] == "Endeavor: your move in @everyone <b>&</b> _x_"
    assert "<https://e.org/play/g1#tok_en-1>" in body["text"]
    assert m.webhook_headers()["X-Click"] == "https://e.org/play/g1#tok_en-1"
    mail = m.email(SENDER, "to@example.org")
    assert mail["Subject"] == body["title"] and "Auto-Submitted" in mail
    assert redact_url("https://discord.com/api/webhooks/1/secret") == "https://discord.com/…"
    assert redact_email("someone@example.org") == "s…@example.org"
