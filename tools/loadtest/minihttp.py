"""The load test's HTTP/1.1 client: one keep-alive connection, one request at a time.

The load test (:mod:`tools.loadtest`) measures the server's round trip under hundreds of
concurrent games on the machine that runs the server; a general client (httpx: URL objects, header
models, the pool, anyio) cost it as much CPU per move as the server's own work, so the
measured latency was mostly the client's queueing. :class:`Connection` does only what
the load test needs: a request line and a few headers written as bytes, the answer's
status and body read with an asyncio stream (``Content-Length``, chunked, or up to the
close), TLS for ``https``, one deadline for the whole request, and a new connection when
the kept one has been idle too long or was closed by the server.

Failures raise a subclass of :class:`HttpError` named as httpx names the same failure
(``ConnectError``, ``ConnectTimeout``, ``ReadError``, ``ReadTimeout``,
``RemoteProtocolError``), so the load test's error counts read as before. A request on a
kept connection that the server closed before any byte of its answer (its keep-alive
timeout racing with the reuse) is sent once more on a new connection; a safe request (a
GET) also after a connection that broke mid-answer.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import time
from typing import Any, Final
from urllib.parse import urlsplit

#: the stream's buffer limit, so the longest head (status line and headers) read
STREAM_LIMIT: Final = 256 * 1024


class HttpError(Exception):
    """A request that got no complete answer."""


class ConnectError(HttpError):
    """The connection could not be opened."""


class ConnectTimeout(HttpError):
    """The connection was not opened within the request's time."""


class ReadTimeout(HttpError):
    """The answer did not come (in full) within the request's time."""


class ReadError(HttpError):
    """The connection failed under the request (a request's bytes are only handed to the
    system when written: a failure to send them shows while the answer is awaited)."""


class RemoteProtocolError(HttpError):
    """The server closed the connection before a complete answer, or sent something
    that is not HTTP/1.1."""


class Answer:
    """A response: its status and body."""

    __slots__ = ("status", "body")

    def __init__(self, status: int, body: bytes) -> None:
        self.status = status
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


class _NoAnswer(Exception):
    """The connection ended before the first byte of an answer (internal)."""


class Connection:
    """One HTTP/1.1 keep-alive connection to the server at ``url`` (``http://`` or
    ``https://HOST[:PORT][/PREFIX]``; a request's path goes after the prefix), opened at
    the first request. Requests are sent one at a time: a caller awaits each answer
    before the next request (a game of the load test is one such caller).

    ``timeout``: seconds for a whole request (connecting included); ``keepalive``:
    seconds the connection may stay idle before the next request opens a new one (keep
    it under the server's keep-alive timeout, Uvicorn's 5 s, or the server's close races
    with the reuse); ``ssl_context``: for ``https`` (default: the system's)."""

    def __init__(self, url: str, *, timeout: float = 60.0, keepalive: float = 2.0,
                 ssl_context: ssl.SSLContext | None = None,
                 user_agent: str = "endeavor-loadtest") -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        self.host: str = parts.hostname
        self.port: int = parts.port or (443 if parts.scheme == "https" else 80)
        self.tls: ssl.SSLContext | None = None
        if parts.scheme == "https":
            self.tls = ssl_context if ssl_context is not None else \
                ssl.create_default_context()
        self.prefix = parts.path.rstrip("/")
        netloc = parts.netloc.rpartition("@")[2]  # no user part in the Host header
        self._fixed = (f"Host: {netloc}\r\nUser-Agent: {user_agent}\r\n").encode("latin-1")
        self.timeout = timeout
        self.keepalive = keepalive
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._idle_since = 0.0
        self._deadline = 0.0  # the current request's, on the loop's clock
        self._timed_out = False
        #: connections opened so far (the first one included)
        self.opened = 0

    # ------------------------------------------------------------------ connecting
    @property
    def is_open(self) -> bool:
        """Whether a kept connection is there (it may still have been closed by the
        server meanwhile, which only the next request can tell)."""
        return self._writer is not None and not self._writer.is_closing()

    async def connect(self) -> None:
        """Open the connection now (rather than at the first request)."""
        if not self.is_open:
            await self._open(self.timeout)

    async def _open(self, timeout: float) -> None:
        self._drop()
        try:
            self._reader, self._writer = await asyncio.wait_for(asyncio.open_connection(
                self.host, self.port, ssl=self.tls, limit=STREAM_LIMIT,
                server_hostname=self.host if self.tls is not None else None), timeout)
        except (asyncio.TimeoutError, TimeoutError):
            raise ConnectTimeout(f"no connection to {self.host}:{self.port} within "
                                 f"{timeout:g} s") from None
        except OSError as e:
            raise ConnectError(str(e) or type(e).__name__) from None
        self.opened += 1
        self._idle_since = time.monotonic()

    def _drop(self) -> None:
        if self._writer is not None:
            self._writer.transport.abort()
        self._reader = self._writer = None

    async def close(self) -> None:
        """Close the connection (a later request opens a new one)."""
        writer = self._writer
        self._reader = self._writer = None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                pass

    # ------------------------------------------------------------------ requests
    async def request(self, method: str, path: str, *, body: bytes | None = None,
                      token: str | None = None, safe: bool = False) -> Answer:
        """Send ``method path`` (``path`` with its query string, after the URL's prefix;
        ``body``: JSON; ``token``: ``Authorization: Bearer``) and read the answer, within
        ``timeout`` seconds in all (``method``: not HEAD, whose answer has no body to
        read). A kept connection that ended before any byte of the answer is replaced
        and the request sent once more; a ``safe`` request (a GET, which may be
        repeated) also after a connection that broke under its answer.
        Raises :class:`HttpError`."""
        head = [b"%s %s%s HTTP/1.1\r\n" % (method.encode("ascii"),
                                           self.prefix.encode("ascii"),
                                           path.encode("ascii")), self._fixed]
        if token is not None:
            head.append(b"Authorization: Bearer %s\r\n" % token.encode("ascii"))
        if body is not None:
            head.append(b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                        % len(body))
            head.append(body)
        else:
            head.append(b"\r\n")
        message = b"".join(head)
        loop = asyncio.get_running_loop()
        self._timed_out = False
        self._deadline = loop.time() + self.timeout
        timer = loop.call_at(self._deadline, self._time_out)
        try:
            try:
                return await self._exchange(message, reuse=True)
            except _NoAnswer:
                # the server closed the kept connection (its keep-alive timeout) before
                # it answered, or before it read the request: once more on a new one
                return await self._exchange(message, reuse=False)
            except (ReadError, RemoteProtocolError):
                if not safe:
                    raise
                return await self._exchange(message, reuse=False)
        except _NoAnswer:
            raise RemoteProtocolError("the server closed the connection without "
                                      "answering") from None
        finally:
            timer.cancel()

    def _time_out(self) -> None:
        self._timed_out = True
        if self._writer is not None:
            self._writer.transport.abort()  # the pending read or write ends at once

    async def _exchange(self, message: bytes, *, reuse: bool) -> Answer:
        """Send ``message`` and read its answer (on the kept connection if ``reuse``
        and it may be reused); :class:`_NoAnswer` when a kept connection ended before
        any byte of the answer."""
        reused = (reuse and self._reader is not None and self.is_open
                  and not self._reader.at_eof()
                  and time.monotonic() - self._idle_since <= self.keepalive)
        if not reused:
            left = self._deadline - asyncio.get_running_loop().time()
            await self._open(max(left, 0.0))
        reader, writer = self._reader, self._writer
        assert reader is not None and writer is not None
        try:
            writer.write(message)
            if writer.transport.get_write_buffer_size():
                await writer.drain()
            answer, keep = await self._read_answer(reader)
        except _NoAnswer:
            self._drop()
            if self._timed_out:
                raise ReadTimeout("no answer within the request's time") from None
            if reused:
                raise
            raise RemoteProtocolError("the server closed the connection without "
                                      "answering") from None
        except asyncio.IncompleteReadError:
            self._drop()
            if self._timed_out:
                raise ReadTimeout("no complete answer within the request's time") from None
            raise RemoteProtocolError("the server closed the connection before the "
                                      "end of its answer") from None
        except OSError as e:
            self._drop()
            if self._timed_out:
                raise ReadTimeout("no complete answer within the request's time") from None
            raise ReadError(str(e) or type(e).__name__) from None
        except (ValueError, asyncio.LimitOverrunError) as e:
            self._drop()
            raise RemoteProtocolError(f"not an HTTP/1.1 answer: {e}") from None
        if keep:
            self._idle_since = time.monotonic()
        else:
            self._drop()
        return answer

    async def _read_answer(self, reader: asyncio.StreamReader) -> tuple[Answer, bool]:
        """One answer (informational 1xx ones skipped) and whether the connection may
        be kept; :class:`_NoAnswer` when the connection ends or is reset before its
        first byte."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as e:
            if not e.partial:
                raise _NoAnswer from None
            raise
        except ConnectionError:  # reset or broken before a status: as good as none
            raise _NoAnswer from None
        while True:
            lines = head[:-4].split(b"\r\n")
            version, _, rest = lines[0].partition(b" ")
            if version not in (b"HTTP/1.1", b"HTTP/1.0"):
                raise ValueError(f"status line {lines[0][:40]!r}")
            status = int(rest[:3])
            if not 100 <= status < 200:
                break
            head = await reader.readuntil(b"\r\n\r\n")  # 100 Continue, 103...
        length: int | None = None
        chunked = False
        keep = version == b"HTTP/1.1"
        for line in lines[1:]:
            name, sep, value = line.partition(b":")
            if not sep:
                raise ValueError(f"header line {line[:40]!r}")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
                if length < 0:
                    raise ValueError("a negative Content-Length")
            elif name == b"transfer-encoding":
                chunked = value.strip().lower().endswith(b"chunked")
            elif name == b"connection":
                tokens = {t.strip() for t in value.lower().split(b",")}
                if b"close" in tokens:
                    keep = False
                elif b"keep-alive" in tokens:
                    keep = True
        if status in (204, 304):
            body = b""
        elif chunked:
            body = await self._read_chunked(reader)
        elif length is not None:
            body = await reader.readexactly(length) if length else b""
        else:  # up to the close
            body = await reader.read()
            keep = False
        return Answer(status, body), keep

    @staticmethod
    async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
        parts: list[bytes] = []
        while True:
            line = await reader.readuntil(b"\r\n")
            size = int(line.partition(b";")[0].strip(), 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                    pass
                return b"".join(parts)
            parts.append(await reader.readexactly(size))
            if await reader.readexactly(2) != b"\r\n":
                raise ValueError("a chunk not followed by CRLF")
