"""The load test's HTTP/1.1 client (``tools.loadtest.minihttp``) against real local servers.

A scripted asyncio server on loopback plays each case the client must get right: keep-
alive reuse (one connection for many requests), a chunked answer arriving in pieces, an
answer delimited by the close, a kept connection closed by the server between requests
(noticed before the request, or only when no answer comes: sent once more on a new
connection), an answer broken mid-body (a GET sent again, a POST not), an error status,
a timeout, a refused connection, TLS with the server's own CA. Then a real ``endeavor
serve`` (its idle timeout shortened), whose keep-alive close the client rides over, and
whose views ``loadtest.read_view`` reads as ``json.loads`` does."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import ssl
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import deploydoc
import pytest
from tools.loadtest import VIEW_KEYS, ServerProcess, free_port, read_view
from tools.loadtest.minihttp import (
    Answer,
    ConnectError,
    Connection,
    ReadTimeout,
    RemoteProtocolError,
)

Reader = asyncio.StreamReader
Writer = asyncio.StreamWriter


class Seen:
    """What the scripted server saw: each connection's requests, in order."""

    def __init__(self) -> None:
        self.connections: list[list[tuple[bytes, bytes]]] = []

    @property
    def requests(self) -> list[tuple[bytes, bytes]]:
        return [r for c in self.connections for r in c]


async def read_request(reader: Reader) -> tuple[bytes, bytes] | None:
    """One request (its head and body), or None when the client closed."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return head, await reader.readexactly(length) if length else b""


def run_apart(coroutine: Any) -> None:
    """Run ``coroutine`` in a thread of its own: a browser test earlier in the session
    (Playwright's sync API) may leave an event loop running in this one, where
    ``asyncio.run`` refuses to start."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


def answer(status: int, body: bytes, *extra: bytes) -> bytes:
    return b"".join([b"HTTP/1.1 %d X\r\nContent-Length: %d\r\n" % (status, len(body)),
                     *(h + b"\r\n" for h in extra), b"\r\n", body])


#: a connection's script: (the connection's index from 0, reader, writer, seen) -> None
Script = Callable[[int, Reader, Writer, list[tuple[bytes, bytes]]], Awaitable[None]]


def run(script: Script, client: Callable[[str, Seen], Awaitable[None]], *,
        tls: ssl.SSLContext | None = None) -> Seen:
    """Serve ``script`` on a loopback port while ``client(url, seen)`` runs."""
    seen = Seen()

    async def main() -> None:
        async def handle(reader: Reader, writer: Writer) -> None:
            index = len(seen.connections)
            mine: list[tuple[bytes, bytes]] = []
            seen.connections.append(mine)
            try:
                await script(index, reader, writer, mine)
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=tls)
        port = server.sockets[0].getsockname()[1]
        scheme = "https" if tls is not None else "http"
        async with server:
            await asyncio.wait_for(client(f"{scheme}://127.0.0.1:{port}", seen), 30)

    run_apart(main())
    return seen


async def serve_each(reader: Reader, writer: Writer, mine: list[tuple[bytes, bytes]],
                     reply: Callable[[bytes, bytes], bytes]) -> None:
    """Answer every request of the connection with ``reply(head, body)``."""
    while (req := await read_request(reader)) is not None:
        mine.append(req)
        writer.write(reply(*req))
        await writer.drain()


def echo(head: bytes, body: bytes) -> bytes:
    """200 with the request line as JSON."""
    return answer(200, json.dumps({"line": head.split(b"\r\n")[0].decode(),
                                   "body": body.decode()}).encode())


def header(head: bytes, name: bytes) -> bytes | None:
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name:
            return value.strip()
    return None


# --------------------------------------------------------------------------- scripted
def test_keepalive_reuse_and_what_is_sent() -> None:
    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        await serve_each(r, w, mine, echo)

    answers: list[Answer] = []

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url + "/pre/")
        answers.append(await conn.request("GET", "/api/x?since=3", token="tok"))
        answers.append(await conn.request("POST", "/api/y", body=b'{"a":1}'))
        answers.append(await conn.request("PUT", "/api/z", body=b"{}", token="t2"))
        assert conn.opened == 1 and conn.is_open
        await conn.close()
        assert not conn.is_open

    seen = run(script, client)
    assert len(seen.connections) == 1 and len(seen.requests) == 3
    assert [a.status for a in answers] == [200, 200, 200]
    assert answers[0].json()["line"] == "GET /pre/api/x?since=3 HTTP/1.1"
    assert answers[1].json() == {"line": "POST /pre/api/y HTTP/1.1", "body": '{"a":1}'}
    (get, _), (post, body), (put, _) = seen.requests
    host = header(get, b"host")
    assert host is not None and host.startswith(b"127.0.0.1:") and host[10:].isdigit()
    assert header(get, b"authorization") == b"Bearer tok"
    assert header(get, b"content-length") is None
    assert header(post, b"authorization") is None
    assert header(post, b"content-type") == b"application/json"
    assert header(post, b"content-length") == b"7" and body == b'{"a":1}'
    assert header(put, b"authorization") == b"Bearer t2"


def test_chunked_answer_in_pieces() -> None:
    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        req = await read_request(r)
        assert req is not None
        mine.append(req)
        pieces = [b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n",
                  b"Content-Type: application/json\r\n\r\n5\r\n{\"a\":",
                  b"\r\n", b"3;ext=1\r\n[1,\r\n", b"2\r\n2]\r\n", b"1\r\n}\r\n",
                  b"0\r\nX-Trailer: yes\r\n\r\n"]
        for piece in pieces:
            w.write(piece)
            await w.drain()
            await asyncio.sleep(0.01)
        await serve_each(r, w, mine, echo)  # the connection goes on

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url)
        a = await conn.request("GET", "/chunked")
        assert a.status == 200 and a.body == b'{"a":[1,2]}' and a.json() == {"a": [1, 2]}
        b = await conn.request("GET", "/next")
        assert b.json()["line"] == "GET /next HTTP/1.1"
        assert conn.opened == 1
        await conn.close()

    seen = run(script, client)
    assert len(seen.connections) == 1


def test_answer_up_to_the_close_and_connection_close() -> None:
    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        req = await read_request(r)
        assert req is not None
        mine.append(req)
        if i == 0:  # no length: the body ends with the connection
            w.write(b"HTTP/1.1 200 OK\r\n\r\n" + b"x" * 100_000)
        else:  # a length, but Connection: close
            w.write(answer(201, b"{}", b"Connection: close"))
        await w.drain()

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url)
        a = await conn.request("GET", "/a")
        assert a.status == 200 and a.body == b"x" * 100_000
        b = await conn.request("GET", "/b")
        assert b.status == 201 and b.body == b"{}"
        assert not conn.is_open and conn.opened == 2

    seen = run(script, client)
    assert len(seen.connections) == 2


def test_kept_connection_closed_by_the_server_between_requests() -> None:
    """The server closes a kept connection after its answer (its keep-alive timeout):
    the next request, a GET or a POST, is answered on a new connection, whether the
    client saw the close before sending or only when no answer came."""
    async def closes_after_one(i: int, r: Reader, w: Writer,
                               mine: list[tuple[bytes, bytes]]) -> None:
        req = await read_request(r)
        if req is not None:
            mine.append(req)
            w.write(echo(*req))
            await w.drain()

    async def noticed(url: str, seen: Seen) -> None:
        conn = Connection(url)
        for method in ("GET", "POST", "GET"):
            await asyncio.sleep(0.05)  # the close arrives before the next request
            a = await conn.request(method, "/p", body=b"{}" if method == "POST" else None)
            assert a.status == 200 and a.json()["line"] == f"{method} /p HTTP/1.1"
        assert conn.opened == 3

    seen = run(closes_after_one, noticed)
    assert [len(c) for c in seen.connections] == [1, 1, 1]

    async def answers_one_then_drops(i: int, r: Reader, w: Writer,
                                     mine: list[tuple[bytes, bytes]]) -> None:
        """The race: the second request arrives as the server closes, unanswered."""
        req = await read_request(r)
        if req is not None:
            mine.append(req)
            w.write(echo(*req))
            await w.drain()
        again = await read_request(r)
        if again is not None:
            mine.append(again)  # read, never answered: the close

    async def raced(url: str, seen: Seen) -> None:
        conn = Connection(url)
        assert (await conn.request("GET", "/1")).status == 200
        a = await conn.request("POST", "/2", body=b'{"seq":1}')  # dropped, sent again
        assert a.status == 200 and a.json() == {"line": "POST /2 HTTP/1.1",
                                                "body": '{"seq":1}'}
        assert conn.opened == 2

    seen = run(answers_one_then_drops, raced)
    assert [[h.split(b"\r\n")[0] for h, _ in c] for c in seen.connections] == [
        [b"GET /1 HTTP/1.1", b"POST /2 HTTP/1.1"], [b"POST /2 HTTP/1.1"]]


def test_no_answer_at_all_is_an_error_not_a_loop() -> None:
    async def never(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        req = await read_request(r)
        if req is not None:
            mine.append(req)  # and close without a word

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url)
        with pytest.raises(RemoteProtocolError):  # a fresh connection: not sent again
            await conn.request("POST", "/m", body=b"{}")
        assert len(seen.requests) == 1
        with pytest.raises(RemoteProtocolError):  # a GET: once more, then the error
            await conn.request("GET", "/v", safe=True)
        assert len(seen.requests) == 3

    run(never, client)


def test_answer_broken_mid_body() -> None:
    """A GET whose answer broke off is sent once more; a POST's break is the caller's."""
    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        req = await read_request(r)
        if req is None:
            return
        mine.append(req)
        if i % 2 == 0:
            w.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + b"y" * 10)
            await w.drain()
            return  # closed 90 bytes short
        w.write(answer(200, b"y" * 100))
        await w.drain()

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url)
        a = await conn.request("GET", "/v", safe=True)
        assert a.status == 200 and a.body == b"y" * 100 and conn.opened == 2
        post = Connection(url)
        with pytest.raises(RemoteProtocolError):
            await post.request("POST", "/m", body=b"{}")
        assert post.opened == 1

    seen = run(script, client)
    assert len(seen.connections) == 3


def test_error_status_keeps_the_connection() -> None:
    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        statuses = iter([404, 409, 500, 204, 200])

        def reply(head: bytes, body: bytes) -> bytes:
            status = next(statuses)
            if status == 204:
                return b"HTTP/1.1 204 No Content\r\n\r\n"
            return answer(status, json.dumps({"detail": f"status {status}"}).encode())

        await serve_each(r, w, mine, reply)

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url)
        got = [await conn.request("GET", f"/{n}") for n in range(5)]
        assert [a.status for a in got] == [404, 409, 500, 204, 200]
        assert got[0].json() == {"detail": "status 404"} and got[3].body == b""
        assert conn.opened == 1

    run(script, client)


def test_timeout() -> None:
    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        if i == 0:
            req = await read_request(r)
            assert req is not None
            mine.append(req)
            await r.read()  # no answer, until the client closes
        else:
            await serve_each(r, w, mine, echo)

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url, timeout=0.3)
        t0 = time.monotonic()
        with pytest.raises(ReadTimeout):
            await conn.request("GET", "/slow", safe=True)
        assert 0.25 < time.monotonic() - t0 < 5.0
        assert len(seen.requests) == 1  # a timeout is not tried again
        a = await conn.request("GET", "/fast")  # on a new connection
        assert a.status == 200 and conn.opened == 2

    run(script, client)


def test_idle_connection_replaced_and_refused_connection() -> None:
    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        await serve_each(r, w, mine, echo)

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url, keepalive=0.1)
        await conn.connect()
        assert conn.opened == 1
        assert (await conn.request("GET", "/1")).status == 200
        await asyncio.sleep(0.2)  # idle longer than keepalive: not reused
        assert (await conn.request("GET", "/2")).status == 200
        assert conn.opened == 2
        await conn.close()
        with pytest.raises(ConnectError):
            await Connection(f"http://127.0.0.1:{free_port()}").request("GET", "/")

    seen = run(script, client)
    assert [len(c) for c in seen.connections] == [1, 1]


def test_tls_with_the_servers_own_ca(tmp_path: Path) -> None:
    cert, key = deploydoc.self_signed(tmp_path)
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(cert, key)

    async def script(i: int, r: Reader, w: Writer, mine: list[tuple[bytes, bytes]]) -> None:
        await serve_each(r, w, mine, echo)

    async def client(url: str, seen: Seen) -> None:
        conn = Connection(url + "/p", ssl_context=ssl.create_default_context(cafile=cert))
        for n in range(3):
            a = await conn.request("POST", f"/{n}", body=b"{}")
            assert a.json()["line"] == f"POST /p/{n} HTTP/1.1"
        assert conn.opened == 1
        await conn.close()
        with pytest.raises(ConnectError, match="certificate"):  # the system's CAs only
            await Connection(url).request("GET", "/")

    seen = run(script, client, tls=tls)
    assert len(seen.requests) == 3


# --------------------------------------------------------------------------- endeavor serve
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("minihttp")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ENDEAVOR_IDLE_TIMEOUT", "1")  # keep-alive connections closed after 1 s
        srv = ServerProcess(f"sqlite:///{tmp / 'mini.db'}", log=tmp / "server.log")
        srv.start()
    try:
        yield srv
    finally:
        srv.close()


def test_real_server(server: ServerProcess) -> None:
    """Keep-alive with Uvicorn, its idle close ridden over by GETs and POSTs alike, error
    statuses, and ``read_view`` reading real views as ``json.loads`` does."""
    async def main() -> None:
        conn = Connection(server.url, keepalive=30.0)  # longer than the server's 1 s
        assert (await conn.request("GET", "/api/meta")).status == 200
        r = await conn.request("POST", "/api/games", body=json.dumps(
            {"config": {"players": 2, "seed": 1}, "seats": ["human", "human"]}).encode())
        assert r.status == 201 and conn.opened == 1
        game: dict[str, Any] = r.json()
        tokens = {s["seat"]: s["token"] for s in game["seats"]}
        views = 0
        for turn in range(4):
            if turn == 2:
                await asyncio.sleep(1.6)  # the server closes the idle connection
            view_of_0 = await conn.request("GET", f"/api/games/{game['id']}?since=0",
                                           token=tokens[0], safe=True)
            seat = view_of_0.json()["current_player"]
            r = await conn.request("GET", f"/api/games/{game['id']}", token=tokens[seat],
                                   safe=True)
            assert r.status == 200
            whole = json.loads(r.body)
            assert read_view(r.body) == {k: v for k, v in whole.items() if k in VIEW_KEYS}
            assert read_view(json.dumps(whole, indent=2).encode()) == read_view(r.body)
            views += 1
            if turn == 3:
                await asyncio.sleep(1.6)  # and now a POST after the idle close
            move = json.dumps({"action": sorted(whole["legal_actions"])[0],
                               "seq": whole["seq"]}).encode()
            r = await conn.request("POST", f"/api/games/{game['id']}/actions?since="
                                   f"{whole['seq']}", token=tokens[seat], body=move)
            assert r.status == 200, r.body
            assert read_view(r.body)["seq"] == whole["seq"] + 1
            stale = await conn.request("POST", f"/api/games/{game['id']}/actions",
                                       token=tokens[seat], body=move)
            assert stale.status == 409, stale.body  # the same seq again: refused
        assert conn.opened == 3  # the first, and one after each idle close
        missing = await conn.request("GET", "/api/games/nosuchgame", safe=True)
        assert missing.status == 404 and "detail" in missing.json()
        await conn.close()

    run_apart(main())
