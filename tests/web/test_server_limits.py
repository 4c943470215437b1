"""A real ``endeavor serve`` process bounds what one client can hold and answers bad input
in words on a connection that stays usable: slow heads, stalled bodies and idle
connections are closed after the (shortened) timeouts, an oversized head is 431, bodies
with NaN or lone surrogates are 400 on a keep-alive connection that then serves the next
request, a WebSocket is not cut by the HTTP timeouts.

Raw sockets (and ``http.client``, which shows whether its socket was kept) against one
server for the module, started with ``$ENDEAVOR_HEAD_TIMEOUT``, ``$ENDEAVOR_BODY_TIMEOUT``
and ``$ENDEAVOR_IDLE_TIMEOUT`` at :data:`TIMEOUT` seconds."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tools.loadtest import ServerProcess

from endeavor.web.protocol import MAX_HEAD, WS_MAX_SIZE

#: the server's head, body and idle timeouts in these tests (seconds)
TIMEOUT = 1.0
#: how much later than the timeout a close may come on a busy machine
SLACK = 3.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("limits")
    with pytest.MonkeyPatch.context() as mp:
        for var in ("ENDEAVOR_HEAD_TIMEOUT", "ENDEAVOR_BODY_TIMEOUT", "ENDEAVOR_IDLE_TIMEOUT"):
            mp.setenv(var, str(TIMEOUT))
        srv = ServerProcess(f"sqlite:///{tmp / 'limits.db'}", log=tmp / "server.log")
        srv.start()
    try:
        yield srv
    finally:
        srv.close()


def _connect(server: ServerProcess) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return sock


def _until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that
    took; fails if it stays open ``limit`` seconds."""
    start = time.monotonic()
    sock.settimeout(limit)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return data, time.monotonic() - start
            data += chunk
    except TimeoutError:
        raise AssertionError(f"still open after {limit} s; received {data[:200]!r}") from None
    finally:
        sock.close()


def _status_and_detail(response: bytes) -> tuple[int, str, dict[str, str]]:
    head, _, body = response.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), json.loads(body)["detail"], {
        k.lower(): v for k, v in headers.items()}


def _response(sock: socket.socket) -> bytes:
    """One whole response (with a Content-Length) read from ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed mid-response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "closed mid-body"
        body += chunk
    return head + b"\r\n\r\n" + body


def _game(server: ServerProcess) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("POST", "/api/games", json.dumps({
            "config": {"players": 2, "seed": 3}, "seats": ["human", "human"]}),
            {"Content-Type": "application/json"})
        r = conn.getresponse()
        assert r.status == 201
        created: dict[str, Any] = json.loads(r.read())
        return created
    finally:
        conn.close()


# --------------------------------------------------------------------------- timeouts
def test_slow_stalled_and_idle_clients_are_disconnected(server: ServerProcess) -> None:
    """Four clients at once, each closed after about TIMEOUT seconds: one sends half a
    head and waits (408), one connects and sends nothing, one lets its keep-alive
    connection idle after a response, one stalls in its body (408)."""
    half_head = _connect(server)
    half_head.sendall(b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    silent = _connect(server)
    idle = _connect(server)
    idle.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    stalled = _connect(server)
    stalled.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    b"\r\nContent-Length: 100\r\n\r\n{\"config\": ")
    results: dict[str, tuple[bytes, float]] = {}

    def wait(name: str, sock: socket.socket) -> None:
        results[name] = _until_closed(sock, TIMEOUT + SLACK)

    threads = [threading.Thread(target=wait, args=item) for item in (
        ("half_head", half_head), ("silent", silent), ("idle", idle), ("stalled", stalled))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT + SLACK + 5)
    assert set(results) == {"half_head", "silent", "idle", "stalled"}, results
    for name, (_, took) in results.items():
        assert TIMEOUT - 0.3 < took < TIMEOUT + SLACK, (name, took)
    status, detail, headers = _status_and_detail(results["half_head"][0])
    assert status == 408 and "head did not arrive within 1 s" in detail
    assert headers["connection"] == "close" and headers["x-frame-options"] == "DENY"
    assert results["silent"][0] == b""
    assert results["idle"][0].startswith(b"HTTP/1.1 200 ")  # answered, then closed
    status, detail, _ = _status_and_detail(results["stalled"][0])
    assert status == 408 and "body did not arrive" in detail


def test_oversized_head_is_431(server: ServerProcess) -> None:
    big = b"a" * (MAX_HEAD + 1000)
    for parts in ([b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Big: " + big + b"\r\n\r\n"],
                  [b"GET /api/meta HTTP/1.1\r\nHost: x\r\nX-Big: ", big],  # never ends
                  [b"GET /api/meta?" + big + b" HTTP/1.1\r\nHost: x\r\n\r\n"],
                  [b"GET /api/meta HTTP/1.1\r\n"] + [b"X-%d: %s\r\n" % (i, b"b" * 100)
                                                     for i in range(400)]):
        sock = _connect(server)
        for part in parts:
            sock.sendall(part)
        data, took = _until_closed(sock, SLACK)
        status, detail, headers = _status_and_detail(data)
        assert status == 431 and f"{MAX_HEAD:,} bytes" in detail
        assert headers["content-security-policy"]
        assert took < 1.0  # at once, not at a timeout


def test_normal_use_is_unaffected(server: ServerProcess) -> None:
    """A head and a body in pieces, each well within the timeouts, and a keep-alive
    connection reused for several requests: all served."""
    sock = _connect(server)
    try:
        sock.sendall(b"GET /api/games?limit=1 HTTP/1.1\r\nHo")
        time.sleep(TIMEOUT / 3)
        sock.sendall(b"st: x\r\n\r\n")
        assert _response(sock).startswith(b"HTTP/1.1 200 ")
        body = json.dumps({"config": {"players": 2}, "seats": ["human", "human"]}).encode()
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: "
                     b"application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:10])
        time.sleep(TIMEOUT / 3)
        sock.sendall(body[10:])
        assert _response(sock).startswith(b"HTTP/1.1 201 ")
    finally:
        sock.close()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        sock = None
        for _ in range(3):
            conn.request("GET", "/api/meta")
            r = conn.getresponse()
            r.read()
            assert r.status == 200 and r.getheader("connection") != "close"
            assert sock is None or conn.sock is sock  # one connection throughout
            sock = conn.sock
            time.sleep(TIMEOUT / 4)
    finally:
        conn.close()


def test_websocket_outlives_the_http_timeouts(server: ServerProcess) -> None:
    from websockets.sync.client import connect

    game = _game(server)
    gid = game["id"]
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws",
                 open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10)) == {"seq": 0}
        time.sleep(TIMEOUT + 0.5)  # past the head and idle timeouts
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            toks = {s["seat"]: s["token"] for s in game["seats"]}
            conn.request("GET", f"/api/games/{gid}", headers={
                "Authorization": f"Bearer {toks[0]}"})
            view = json.loads(conn.getresponse().read())
            seat = view["current_player"]
            conn.request("GET", f"/api/games/{gid}", headers={
                "Authorization": f"Bearer {toks[seat]}"})
            view = json.loads(conn.getresponse().read())
            conn.request("POST", f"/api/games/{gid}/actions",
                         json.dumps({"action": view["legal_actions"][0], "seq": 0}),
                         {"Authorization": f"Bearer {toks[seat]}",
                          "Content-Type": "application/json"})
            assert conn.getresponse().status == 200
        finally:
            conn.close()
        assert json.loads(ws.recv(timeout=10)) == {"seq": 1}


def test_websocket_messages_are_bounded(server: ServerProcess) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    gid = _game(server)["id"]
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws", open_timeout=10,
                 max_size=None) as ws:
        assert json.loads(ws.recv(timeout=10)) == {"seq": 0}
        ws.send("x" * 1000)  # ignored
        ws.send("x" * (WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


# --------------------------------------------------------------------------- bad input
def test_bad_input_in_words_on_one_keep_alive_connection(server: ServerProcess) -> None:
    """NaN, infinities, lone surrogates (escaped, or as raw bytes), bad UTF-8, deep
    nesting, endless digits, in every request that takes a body, and in a query string
    and a header: each a 4xx with the reason in words, never a 500, and the same
    connection then serves a good request."""
    game = _game(server)
    gid, token = game["id"], game["seats"][0]["token"]
    seats = '["human", "human"]'
    json_type = {"Content-Type": "application/json"}
    auth = {"Authorization": f"Bearer {token}", **json_type}
    bad: list[tuple[str, str, bytes | None, dict[str, Any]]] = [
        ("POST", "/api/games", b'{"config": {"players": 2, "seed": NaN}, "seats": '
         + seats.encode() + b"}", json_type),
        ("POST", "/api/games", b'{"config": {"players": Infinity}, "seats": []}', json_type),
        ("POST", "/api/games", b'{"config": {"players": 2, "seed": -Infinity}, "seats": []}',
         json_type),
        ("POST", "/api/games", b'{"config": {"players": 2, "seed": 1e999}, "seats": []}',
         json_type),
        ("POST", "/api/games", b'{"config": {"players": 2}, "seats": ["human", "\\ud800"]}',
         json_type),
        ("POST", "/api/games", b'{"config": {"players": 2}, "seats": ' + seats.encode()
         + b', "title": "\\udfff"}', json_type),
        ("POST", "/api/games", b'{"config": {"\\ud800": 2}, "seats": []}', json_type),
        ("POST", "/api/games", b'{"config": {}, "seats": [], "title": "\xed\xa0\x80"}',
         json_type),
        ("POST", "/api/games", b'{"title": "\xff"}', json_type),
        ("POST", "/api/games", b'{"title": "\xff"}', {"Content-Type": "text/plain"}),
        ("POST", "/api/games", '{"seats": []}'.encode("utf-16"), json_type),
        ("POST", "/api/games", b"[" * 50_000 + b"]" * 50_000, json_type),
        ("POST", "/api/games", b'{"seats": 1' + b"9" * 5000 + b"}", json_type),
        ("POST", f"/api/games/{gid}/actions", b'{"action": "\\ud800", "seq": 0}', auth),
        ("POST", f"/api/games/{gid}/actions", b'{"action": "pass", "seq": NaN}', auth),
        ("POST", f"/api/games/{gid}/undo", b'{"seq": Infinity}', auth),
        ("POST", "/api/games/import", b'{"record": {"config": {"seed": NaN}}, "seats": []}',
         json_type),
        ("POST", "/api/games/import", b'{"record": {"actions": ["\\udc00"]}, "seats": []}',
         json_type),
        ("GET", f"/api/games/{gid}?since=%ED%A0%80", None, {}),
        ("GET", "/api/games?status=%ED%A0%80", None, {}),
        ("GET", "/api/games/%ED%A0%80", None, {}),
        ("GET", f"/api/games/{gid}", None, {"Authorization": b"Bearer \xed\xa0\x80\xff"}),
    ]
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request("GET", "/api/meta")
        conn.getresponse().read()
        sock = conn.sock
        assert sock is not None
        for method, path, body, headers in bad:
            conn.request(method, path, body, headers)
            r = conn.getresponse()
            text = r.read()
            assert 400 <= r.status < 500, (path, body and body[:80], r.status, text[:300])
            detail = json.loads(text)["detail"]
            assert detail and "Traceback" not in text.decode(), text[:300]
            assert r.getheader("connection") != "close", (path, r.status)
            conn.request("GET", f"/api/games/{gid}")  # the same connection goes on
            good = conn.getresponse()
            assert good.status == 200 and json.loads(good.read())["seq"] == 0
            assert conn.sock is sock, f"the connection was closed after {path} {body!r:.80}"
    finally:
        conn.close()


def test_invalid_http_is_400_in_words(server: ServerProcess) -> None:
    sock = _connect(server)
    sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
    status, detail, headers = _status_and_detail(_until_closed(sock, SLACK)[0])
    assert status == 400 and detail.startswith("invalid HTTP request")
    assert headers["content-type"] == "application/json"


def test_server_log_has_no_traceback(server: ServerProcess) -> None:
    log = Path(server.log).read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
