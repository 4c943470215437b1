"""The notification sender nothing can stall: a webhook that trickles its answer one byte
at a time is cut off at the send's whole deadline and the row's attempts are counted
(also when a lease ran out while a send hung); a name server that hangs holds no request
thread (``PUT /notify`` answers within its time limit while moves and views are served);
a name that answers a public address and then 127.0.0.1 cannot redirect a send to
loopback (the connection goes to the address that was checked); IPv6 spellings of
private addresses, unreadable URLs and bad ports are refused in words; e-mail addresses
are checked by ``email-validator`` and mailed to exactly as stored; the SMTP password
from a file or the environment, and the operator's warnings; a deadline claimed by a
worker that died is acted on within seconds; strict request models.

Every wait is bounded; the stubs (a trickling receiver, a hanging or rebinding resolver)
live in the test process."""

from __future__ import annotations

import argparse
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import auth, fresh_database, pg_url, tokens
from sqlalchemy import select
from test_notify import Mailbox, Receiver
from tools.loadtest import ServerProcess, free_port

from endeavor.errors import UsageError
from endeavor.web import db
from endeavor.web.notify import (
    BACKOFF_VAR,
    SMTP_PASSWORD_VAR,
    TIMEOUT_VAR,
    Message,
    Notifier,
    NotifySettings,
    SendError,
    parse_smtp,
    private_address,
)
from endeavor.web.server import smtp_password, smtp_warnings
from endeavor.web.store import utcnow

SENDER = "endeavor@example.org"


def _message(link: str = "https://e.org/play/g1#secret-token") -> Message:
    return Message("turn", "g1", "A game", "https://e.org/game/g1", 1, 2, 7, link)


def _game(client: TestClient | httpx.Client, seats: list[str], **extra: Any,
          ) -> dict[str, Any]:
    r = client.post("/api/games", json={"config": {"players": len(seats), "seed": 1},
                                        "seats": seats, **extra})
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def _outbox(db_url: str, gid: str) -> list[Any]:
    engine = db.make_engine(db_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(select(db.outbox).where(db.outbox.c.game_id == gid)))
    finally:
        engine.dispose()


@pytest.fixture
def make_notifying(make_app: Callable[..., FastAPI]) -> Callable[..., FastAPI]:
    def make(**settings: Any) -> FastAPI:
        settings.setdefault("poll_seconds", 0.1)
        threads = settings.pop("threads", 4)
        return make_app(notify=NotifySettings(**settings), threads=threads)
    return make


# --------------------------------------------------------------------------- stubs
class Trickler:
    """A webhook receiver that reads the request, then answers one byte every
    ``gap`` seconds (a status line, then headers without end), for at most ``for_s``
    seconds: a send without a whole deadline would wait that long."""

    def __init__(self, gap: float = 0.05, for_s: float = 30.0,
                 answer: bytes = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: a\r\n" * 100000,
                 speaks_first: bool = False, tls: ssl.SSLContext | None = None) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.gap, self.for_s = gap, for_s
        self.answer, self.speaks_first, self.tls = answer, speaks_first, tls
        self.requests = 0
        self.stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            try:
                if self.tls is not None:
                    conn = self.tls.wrap_socket(conn, server_side=True)
                if not self.speaks_first:
                    conn.recv(65536)
                self.requests += 1
                ends = time.monotonic() + self.for_s
                for byte in self.answer:
                    if self.stop.is_set() or time.monotonic() > ends:
                        return
                    conn.sendall(bytes([byte]))
                    time.sleep(self.gap)
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.sock.close()


@pytest.fixture
def trickler() -> Iterator[Trickler]:
    t = Trickler()
    yield t
    t.close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


# --------------------------------------------------------------------------- deadlines
def test_a_trickled_answer_is_cut_off_at_the_whole_deadline(
        make_notifying: Callable[..., FastAPI], trickler: Trickler, db_url: str) -> None:
    """The receiver sends a byte every 50 ms for 30 s (each read gets an answer well
    within any read timeout): the send ends at its 1 s deadline, a failed attempt in
    words, counted in the outbox."""
    app = make_notifying(allow_private=True, timeout=1.0, backoff=(0.0, 0.0))
    notifier: Notifier = app.state.notifier
    started = time.monotonic()
    with pytest.raises(SendError, match="no complete answer within 1 s"):
        notifier.send_webhook(f"{trickler.url}/hook", _message())
    assert time.monotonic() - started < 10.0  # not the trickle's 30 s
    assert trickler.requests == 1
    # through the outbox: the attempt is counted, the reason kept
    client = TestClient(app)
    game = _game(client, ["human", "human"])
    gid, toks = game["id"], tokens(game)
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                   json={"webhook": f"{trickler.url}/row"})
    assert r.status_code == 200, r.text
    view = client.get(f"/api/games/{gid}", headers=auth(toks[0])).json()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[0]),
                    json={"action": view["legal_actions"][0], "seq": 0})
    assert r.status_code == 200, r.text
    [job] = notifier.claim(10)
    assert notifier.handle(job) == "failed: no complete answer within 1 s"
    [row] = _outbox(db_url, gid)
    assert row.attempts == 1 and row.last_error == "no complete answer within 1 s"
    notifier.stop()


@pytest.fixture
def certificate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ssl.SSLContext:
    """A self-signed certificate for ``localhost``, trusted by the sender's TLS (the
    system's certificates plus this one); the server side's context."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True, timeout=60)
    default = ssl.create_default_context

    def trusting(*args: Any, **kw: Any) -> ssl.SSLContext:
        context = default(*args, **kw)
        context.load_verify_locations(str(cert))
        return context

    monkeypatch.setattr(ssl, "create_default_context", trusting)
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(str(cert), str(key))
    return server


def test_https_checks_the_name_and_is_cut_off_too(make_notifying: Callable[..., FastAPI],
                                                 certificate: ssl.SSLContext) -> None:
    """Over TLS: the certificate is checked against the URL's name (not the address
    connected to), and an answer trickled through TLS ends at the deadline too."""
    slow = Trickler(tls=certificate)
    app = make_notifying(allow_private=True, timeout=1.0)
    notifier: Notifier = app.state.notifier
    try:
        with pytest.raises(SendError, match="CERTIFICATE_VERIFY_FAILED"):
            notifier.send_webhook(f"https://127.0.0.1:{slow.port}/hook", _message())
        started = time.monotonic()
        with pytest.raises(SendError, match="no complete answer within 1 s"):
            notifier.send_webhook(f"https://localhost:{slow.port}/hook", _message())
        assert time.monotonic() - started < 10.0  # not the trickle's 30 s
        assert slow.requests == 1  # the handshake with the name went through
    finally:
        notifier.stop()
        slow.close()


def test_a_trickling_mail_server_is_cut_off_too(make_notifying: Callable[..., FastAPI],
                                               ) -> None:
    """A mail server whose greeting comes one byte every 50 ms, never ending its line:
    the e-mail's whole conversation ends at the 1 s deadline."""
    slow = Trickler(answer=b"220-" + b"x" * 100000, speaks_first=True)
    try:
        app = make_notifying(smtp=f"smtp://127.0.0.1:{slow.port}", mail_from=SENDER,
                             timeout=1.0)
        notifier: Notifier = app.state.notifier
        started = time.monotonic()
        with pytest.raises(SendError, match="the mail server did not finish within 1 s"):
            notifier.send_email("someone@example.org", _message())
        assert time.monotonic() - started < 10.0  # not the trickle's 30 s
        assert slow.requests == 1
    finally:
        slow.close()


def test_every_claim_is_an_attempt_and_leases_outlast_sends(
        make_notifying: Callable[..., FastAPI], db_url: str) -> None:
    """A row whose lease ran out while its send hung (or whose worker died) is claimed
    again with its attempts counted, and given up after the documented retries rather
    than sent forever with attempts at 0; a lease outlasts any send the queue holds."""
    app = make_notifying(allow_private=True, timeout=2.0, backoff=(0.0, 0.0))
    notifier: Notifier = app.state.notifier
    settings = notifier.settings
    assert notifier.lease_seconds >= settings.timeout * (settings.queue / settings.senders + 1)
    client = TestClient(app)
    game = _game(client, ["human", "human"])
    gid, toks = game["id"], tokens(game)
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                   json={"webhook": f"http://127.0.0.1:{free_port()}/x"})
    assert r.status_code == 200, r.text
    view = client.get(f"/api/games/{gid}", headers=auth(toks[0])).json()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[0]),
                    json={"action": view["legal_actions"][0], "seq": 0})
    assert r.status_code == 200, r.text
    now = utcnow()
    lease = timedelta(seconds=notifier.lease_seconds + 1)
    for attempt in (1, 2, 3):  # each claimed, and the send never came back
        [job] = notifier.claim(10, now)
        assert job.attempts == attempt
        [row] = _outbox(db_url, gid)
        assert row.attempts == attempt
        assert notifier.claim(10, now) == []  # held until the lease runs out
        now += lease
    [job] = notifier.claim(10, now)  # a fourth claim of three attempts: given up unsent
    assert notifier.handle(job) == "failed: no attempt of 3 ended"
    assert _outbox(db_url, gid) == []
    notifier.stop()


# --------------------------------------------------------------------------- name servers
def test_a_hanging_name_server_stalls_no_move(make_notifying: Callable[..., FastAPI],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Four PUT /notify whose webhook host's name server never answers, on a server with
    two request threads: views and moves are served while they wait, and each PUT
    answers a 400 in words after its 3 s look-up limit."""
    release = threading.Event()
    real = socket.getaddrinfo

    def resolver(host: Any, *args: Any, **kw: Any) -> Any:
        if isinstance(host, str) and host.endswith(".hang.test"):
            release.wait(60)
            raise socket.gaierror(socket.EAI_AGAIN, "released")
        return real(host, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    app = make_notifying(lookup_seconds=3.0, threads=2)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "server not up"
            time.sleep(0.05)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30,
                          trust_env=False) as client:
            game = _game(client, ["human", "human"])
            gid, toks = game["id"], tokens(game)
            answers: list[httpx.Response] = []

            def put(i: int) -> None:
                answers.append(client.put(
                    f"/api/games/{gid}/notify", headers=auth(toks[i % 2]),
                    json={"webhook": f"https://n{i}.hang.test/hook"}))

            putters = [threading.Thread(target=put, args=(i,)) for i in range(4)]
            for t in putters:
                t.start()
            # the four PUTs wait on their look-ups: moves and views go on meanwhile
            seq = 0
            for _ in range(3):
                view = client.get(f"/api/games/{gid}", headers=auth(toks[0])).json()
                mover = view["current_player"]
                view = client.get(f"/api/games/{gid}", headers=auth(toks[mover])).json()
                r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[mover]),
                                json={"action": view["legal_actions"][0], "seq": seq})
                assert r.status_code == 200, r.text
                seq = r.json()["seq"]
            assert answers == [], "a move waited for the look-ups"
            for t in putters:
                t.join(30)
            assert len(answers) == 4
            for r in answers:
                assert r.status_code == 400, r.text
                assert "was not found within 3 s" in r.json()["detail"]
            r = client.get(f"/api/games/{gid}/notify", headers=auth(toks[0]))
            assert r.json()["seats"][0]["webhook"] is None  # nothing changed
    finally:
        release.set()
        server.should_exit = True
        thread.join(20)


def test_a_rebinding_name_cannot_redirect_a_send_to_loopback(
        make_notifying: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch,
        receiver: Receiver) -> None:
    """``rebind.test`` answers a public address, then 127.0.0.1, then the public one...
    (a DNS rebinding attack on the loopback receiver, the one its URL's port names). The
    check and the connection use one look-up: the send that looked up 127.0.0.1 is
    refused, the one that looked up the public address connects to it (here a stand-in
    receiver), and loopback never gets a POST."""
    inner = Receiver()  # the loopback service the attacker aims at
    public = "93.184.215.14"
    answers: list[str] = []
    real = socket.getaddrinfo

    def resolver(host: Any, port: Any, *args: Any, **kw: Any) -> Any:
        if host == "rebind.test":
            address = public if len(answers) % 2 == 0 else "127.0.0.1"
            answers.append(address)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(port)))]
        return real(host, port, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    app = make_notifying(timeout=5.0)
    notifier: Notifier = app.state.notifier
    real_connect = notifier.connect_to
    connected: list[Any] = []
    stand_in = int(receiver.url.rsplit(":", 1)[1])

    def connect_to(family: int, address: Any, timeout: float) -> socket.socket:
        connected.append(address)
        if address[0] == public:  # the public host, played by the stand-in receiver
            return real_connect(socket.AF_INET, ("127.0.0.1", stand_in), timeout)
        return real_connect(family, address, timeout)

    monkeypatch.setattr(notifier, "connect_to", connect_to)
    inner_port = int(inner.url.rsplit(":", 1)[1])
    url = f"http://rebind.test:{inner_port}/secret"
    try:
        assert notifier.check_webhook(url) == url  # looked up: the public address
        with pytest.raises(SendError, match="private network address"):
            notifier.send_webhook(url, _message())  # looked up: 127.0.0.1, refused
        assert connected == []
        notifier.send_webhook(url, _message())  # looked up: public, connected to it
        [post] = receiver.wait("/secret")
        assert post["headers"]["Host"] == f"rebind.test:{inner_port}"
        assert answers == [public, "127.0.0.1", public]  # one look-up a send
        assert connected == [(public, inner_port)]
        assert inner.to("/secret") == []
    finally:
        notifier.stop()
        inner.close()


# --------------------------------------------------------------------------- addresses
@pytest.mark.parametrize("address", [
    "::127.0.0.1", "::ffff:0:127.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::10.0.0.1",
    "2002:7f00:1::", "2002:c0a8:101::1", "fec0::1", "::ffff:127.0.0.1", "::1",
    "fe80::1", "fd00::1", "127.0.0.1", "10.1.2.3", "169.254.169.254", "0.0.0.0"])
def test_private_spellings_are_private(address: str) -> None:
    assert private_address(address)


@pytest.mark.parametrize("address", [
    "8.8.8.8", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1",
    "2606:4700:4700::1111"])
def test_public_addresses_are_not(address: str) -> None:
    assert not private_address(address)


@pytest.mark.parametrize("url, words", [
    ("http://[::1", "cannot be read"),
    ("http://[::127.0.0.1]/x", "private network"),
    ("https://[::ffff:0:127.0.0.1]/x", "private network"),
    ("http://[64:ff9b::127.0.0.1]:8080/x", "private network"),
    ("http://[2002:7f00:1::]/x", "private network"),
    ("http://[fec0::1]/x", "private network"),
    ("https://example.org:99999/x", "port is not a number from 1 to 65535"),
    ("https://example.org:http/x", "port is not a number from 1 to 65535"),
    ("https://example.org:0/x", "port is not a number from 1 to 65535"),
    ("https://exa mple.org/x", "no spaces or control characters"),
    ("ftp://example.org/x", "http:// or https://"),
])
def test_bad_webhooks_are_refused_in_words(make_notifying: Callable[..., FastAPI],
                                           url: str, words: str) -> None:
    with TestClient(make_notifying()) as client:
        game = _game(client, ["human", "human"])
        gid, tok = game["id"], tokens(game)[0]
        r = client.put(f"/api/games/{gid}/notify", headers=auth(tok), json={"webhook": url})
        assert r.status_code == 400, r.text
        assert words in r.json()["detail"]
        r = client.get(f"/api/games/{gid}/notify", headers=auth(tok))
        assert r.json()["seats"][0]["webhook"] is None


# --------------------------------------------------------------------------- e-mail
@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    m = Mailbox()
    yield m
    m.close()


@pytest.mark.parametrize("address, words", [
    ("=?utf-8?q?victim?=@example.org", "encoded words"),
    ("me=?utf-8?b?QGV2aWwub3Jn?=@example.org", "encoded words"),
    ("me\x00@example.org", "no control characters"),
    ("me\r\nBcc: x@evil.org@example.org", "no control characters"),
    ('"me here"@example.org', "not an e-mail address"),
    ("me@[127.0.0.1]", "not an e-mail address"),
    ("me@localhost", "not an e-mail address"),
    ("me@@example.org", "not an e-mail address"),
])
def test_bad_email_addresses_are_refused(make_notifying: Callable[..., FastAPI],
                                         address: str, words: str) -> None:
    with TestClient(make_notifying(smtp="smtp://127.0.0.1:25", mail_from=SENDER)) as client:
        game = _game(client, ["human", "human"])
        gid, tok = game["id"], tokens(game)[0]
        r = client.put(f"/api/games/{gid}/notify", headers=auth(tok), json={"email": address})
        assert r.status_code == 400, r.text
        assert words in r.json()["detail"]


def test_the_address_mailed_is_the_one_stored(make_notifying: Callable[..., FastAPI],
                                              mailbox: Mailbox) -> None:
    app = make_notifying(smtp=f"smtp://127.0.0.1:{mailbox.port}", mail_from=SENDER)
    with TestClient(app) as client:
        game = _game(client, ["human", "human"])
        gid, tok = game["id"], tokens(game)[0]
        r = client.put(f"/api/games/{gid}/notify", headers=auth(tok),
                       json={"email": " Someone.Else@Example.ORG "})
        assert r.status_code == 200, r.text
        stored = r.json()["seats"][0]["email"]
        assert stored == "Someone.Else@example.org"
        notifier: Notifier = app.state.notifier
        notifier.send_email(stored, _message())
        [mail] = mailbox.wait(stored)
        assert mail["to"] == [stored] and mail["msg"]["To"] == stored


# --------------------------------------------------------------------------- SMTP login
def test_smtp_password_from_a_file_or_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SMTP_PASSWORD_VAR, raising=False)
    assert smtp_password(argparse.Namespace()) == (None, "")
    monkeypatch.setenv(SMTP_PASSWORD_VAR, "from env")
    assert smtp_password(argparse.Namespace()) == ("from env", "environment")
    secret = tmp_path / "smtp-password"
    secret.write_text("p@ss word:/\nignored\n")
    args = argparse.Namespace(smtp_password_file=str(secret))
    assert smtp_password(args) == ("p@ss word:/", "file")  # the file before the env
    with pytest.raises(UsageError, match="cannot be read"):
        smtp_password(argparse.Namespace(smtp_password_file=str(tmp_path / "none")))
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(UsageError, match="first line is empty"):
        smtp_password(argparse.Namespace(smtp_password_file=str(tmp_path / "empty")))


def test_smtp_warnings() -> None:
    plain = smtp_warnings(parse_smtp("smtp://me@mail.example.org:25"), False)
    assert len(plain) == 1 and "unencrypted" in plain[0]
    assert smtp_warnings(parse_smtp("smtp://me@mail.example.org:587"), False) == []
    assert smtp_warnings(parse_smtp("smtps://me@mail.example.org"), False) == []
    assert smtp_warnings(parse_smtp("smtp://mail.example.org:25"), False) == []  # no login
    assert smtp_warnings(parse_smtp("smtp://me@127.0.0.1:25"), False) == []  # this machine
    [ps] = smtp_warnings(parse_smtp("smtp://me:pw@mail.example.org:587"), True)
    assert "ps" in ps and SMTP_PASSWORD_VAR in ps


def test_serve_logs_in_with_the_password_file(tmp_path: Path) -> None:
    """``endeavor serve --smtp smtp://player@HOST:PORT --smtp-password-file F``: the
    mail server gets the login with the file's password (it refuses any other), and
    a password written in the URL on the command line gets a warning."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    logins: list[tuple[bytes, bytes]] = []
    got: list[list[str]] = []
    done = threading.Event()

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str,
                      data: Any) -> AuthResult:
        if isinstance(data, LoginPassword):
            logins.append((data.login, data.password))
            return AuthResult(success=data.password == b"s3cret pw")
        return AuthResult(success=False)

    class Handler:
        async def handle_DATA(self, server: Any, session: Any,  # noqa: N802
                              envelope: Any) -> str:
            got.append(list(envelope.rcpt_tos))
            done.set()
            return "250 OK"

    port = free_port()
    mail = Controller(Handler(), hostname="127.0.0.1", port=port,
                      authenticator=authenticator, auth_required=True,
                      auth_require_tls=False)
    mail.start()
    secret = tmp_path / "pw"
    secret.write_text("s3cret pw\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(BACKOFF_VAR, "0.3,0.3")
        mp.setenv(TIMEOUT_VAR, "5")
        mp.delenv(SMTP_PASSWORD_VAR, raising=False)
        srv = ServerProcess(f"sqlite:///{tmp_path / 'm.db'}", log=tmp_path / "server.log",
                            extra=("--smtp", f"smtp://player@127.0.0.1:{port}",
                                   "--smtp-password-file", str(secret),
                                   "--mail-from", SENDER))
        srv.start()
    try:
        with httpx.Client(base_url=srv.url, timeout=20, trust_env=False) as client:
            game = _game(client, ["human", "human"])
            gid, toks = game["id"], tokens(game)
            r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                           json={"email": "p1@example.org"})
            assert r.status_code == 200, r.text
            view = client.get(f"/api/games/{gid}", headers=auth(toks[0])).json()
            r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[0]),
                            json={"action": view["legal_actions"][0], "seq": 0})
            assert r.status_code == 200, r.text
            assert done.wait(20), "no e-mail"
        assert got == [["p1@example.org"]] and logins[-1] == (b"player", b"s3cret pw")
        assert "warning" not in srv.log_tail(50).lower()
    finally:
        srv.close()
        mail.stop()


def _serve(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``endeavor serve ARGS`` that is expected to stop at once (a usage error)."""
    import os
    import sys

    return subprocess.run([sys.executable, "-c", "import sys; from endeavor.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", "serve", "--port",
                           str(free_port()), "--db", "sqlite:///:memory:", *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_serve_refuses_a_password_given_twice_and_a_bad_sender(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("x\n")
    done = _serve("--smtp", "smtp://me:pw@mail.example.org:587", "--mail-from", SENDER,
                  "--smtp-password-file", str(secret))
    assert done.returncode == 2 and "given twice" in done.stdout + done.stderr
    done = _serve("--smtp", "smtp://mail.example.org:587", "--mail-from", SENDER,
                  env={SMTP_PASSWORD_VAR: "pw"})
    assert done.returncode == 2 and "needs a user" in done.stdout + done.stderr
    done = _serve("--smtp", "smtp://me@mail.example.org:587", "--mail-from",
                  "=?utf-8?q?x?=@example.org")
    assert done.returncode == 2 and "--mail-from" in done.stdout + done.stderr


def test_serve_warns_of_a_password_in_ps_and_a_login_in_clear(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(SMTP_PASSWORD_VAR, raising=False)
        srv = ServerProcess(f"sqlite:///{tmp_path / 'w.db'}", log=tmp_path / "server.log",
                            extra=("--smtp", "smtp://me:pw@mail.example.org:25",
                                   "--mail-from", SENDER))
        srv.start()
    try:
        out = srv.log_tail(50)
        assert "warning: --smtp sends the login of 'me' to mail.example.org:25 " \
               "unencrypted" in out
        assert "warning: the password in the --smtp URL can be read by anyone" in out
    finally:
        srv.close()


# --------------------------------------------------------------------------- clocks
def test_a_dead_workers_claim_lapses_within_seconds(
        make_app: Callable[..., FastAPI]) -> None:
    """A worker claimed an expired deadline and died: the claim lapses in
    :data:`CLAIM_SECONDS` (not two minutes), and the clock keeper of the server
    restarted acts on it then."""
    from endeavor.web.clocks import CLAIM_SECONDS

    assert CLAIM_SECONDS <= 15
    app = make_app()
    client = TestClient(app)  # no lifespan: the keeper is driven by hand
    game = _game(client, ["human", "human"], clock={"per_decision": 60})
    gid = game["id"]
    store = app.state.store
    later = utcnow() + timedelta(seconds=61)
    assert store.expired(later) == [(gid, 0)]
    assert store.claim(gid, 0, later)  # the worker that then died
    keeper = app.state.clocks
    assert keeper.tick(later + timedelta(seconds=CLAIM_SECONDS / 2)) == 0  # still held
    assert keeper.tick(later + timedelta(seconds=CLAIM_SECONDS + 1)) == 1
    view = client.get(f"/api/games/{gid}").json()
    assert [e["text"] for e in view["events"] if e["kind"] == "timeout"] == [
        "P0's time ran out: the medium bot played for them"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_claim_is_renewed_only_by_its_holder(backend: str, db_url: str) -> None:
    """``Store.renew_claim`` extends the claim it names (its end as written) and no
    other: once the game moved on, or with another end, nothing is held."""
    from contextlib import nullcontext

    from endeavor.web.store import Store

    where = fresh_database(pg_url()) if backend == "postgresql" else nullcontext(db_url)
    with where as url:
        engine = db.make_engine(url)
        try:
            db.upgrade(engine)
            store = Store(engine)
            gid = store.create({"players": 2, "seed": 1}, ["human", "human"],
                               clock={"per_decision": 60}).id
            at = utcnow() + timedelta(seconds=61)
            assert store.claim(gid, 0, at, 5.0)
            until = at + timedelta(seconds=5)
            assert store.renew_claim(gid, 0, until - timedelta(seconds=1), 5.0) is None
            assert store.renew_claim(gid, 1, until, 5.0) is None  # not at that seq
            renewed = store.renew_claim(gid, 0, until, 120.0)
            assert renewed is not None and renewed > until
            assert store.expired(until + timedelta(seconds=1)) == []  # still held
            assert store.renew_claim(gid, 0, until, 5.0) is None  # the old end is gone
            assert store.renew_claim(gid, 0, renewed, 5.0) is not None
        finally:
            engine.dispose()


def test_a_claim_is_renewed_while_the_bot_thinks(make_app: Callable[..., FastAPI],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """While the keeper's bot thinks longer than a claim lasts, the claim is renewed:
    no other worker sees the deadline as free."""
    from endeavor.web.clocks import ClockKeeper

    app = make_app()
    client = TestClient(app)
    game = _game(client, ["human", "human"], clock={"per_decision": 1})
    gid = game["id"]
    store, runner = app.state.store, app.state.runner
    thinking, go_on = threading.Event(), threading.Event()
    choose = runner.choose

    def slow_choose(*args: Any, **kw: Any) -> Any:
        thinking.set()
        go_on.wait(30)
        return choose(*args, **kw)

    monkeypatch.setattr(runner, "choose", slow_choose)
    keeper = ClockKeeper(store, runner, claim_seconds=1.5)
    deadline = time.monotonic() + 20
    while not store.expired():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    acting = threading.Thread(target=keeper.tick)
    acting.start()
    try:
        assert thinking.wait(20)
        ends = time.monotonic() + 3.5  # well past the 1.5 s claim
        while time.monotonic() < ends:
            assert store.expired() == [], "the claim lapsed while the bot thought"
            time.sleep(0.1)
    finally:
        go_on.set()
        acting.join(30)
    assert client.get(f"/api/games/{gid}").json()["seq"] >= 1


# --------------------------------------------------------------------------- strict models
@pytest.mark.parametrize("path, body", [
    ("/host/clock", {"paused": "yes"}),
    ("/host/clock", {"paused": 1}),
    ("/host/clock", {"extend": "60"}),
    ("/host/clock", {"extend": 60, "seat": True}),
    ("/notify", {"seat": True, "webhook": None}),
    ("/notify", {"seat": "0", "webhook": None}),
    ("/actions", {"action": "pass", "seq": "0"}),
    ("/actions", {"action": "pass", "seq": 0.0}),
    ("/undo", {"seq": False}),
    ("/reclaim", {"seat": True}),
])
def test_request_models_are_strict(client: TestClient, path: str, body: dict[str, Any],
                                   ) -> None:
    game = _game(client, ["human", "human"], clock={"per_decision": 600})
    gid = game["id"]
    token = game["host_token"] if path.startswith("/host") else tokens(game)[0]
    method = "PUT" if path == "/notify" else "POST"
    r = client.request(method, f"/api/games/{gid}{path}", headers=auth(token), json=body)
    assert r.status_code == 422, r.text
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0  # nothing changed


def test_new_game_with_a_lax_clock_is_refused(client: TestClient) -> None:
    for clock in ({"per_decision": "600"}, {"per_decision": 600, "reclaim": "no"}):
        r = client.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                            "seats": ["human", "human"], "clock": clock})
        assert r.status_code == 422, r.text
    r = client.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                        "seats": ["human", "human"],
                                        "clock": {"per_decision": 600, "bank": 0}})
    assert r.status_code == 201, r.text  # whole numbers for seconds are numbers
