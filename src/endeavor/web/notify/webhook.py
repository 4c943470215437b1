"""The webhook channel: a webhook's URL checked when a player sets it (its host looked
up, no private address unless allowed), and a message POSTed to it on a kept-alive
connection pinned to the address that was checked, all within the send's deadline."""

from __future__ import annotations

import http.client
import io
import json
import socket
import ssl
import time
from typing import Any
from urllib.parse import urlsplit

from endeavor import __version__
from endeavor.messages import Count, msg

from ..store import BadRequest
from ..view import checkwords as words
from .addresses import Addresses, Lookup, LookupTimeout, private_address
from .base import NotifierBase, SendError
from .message import Message
from .settings import CONNECT_SECONDS, MAX_URL


class _ConnectTimeout(Exception):
    """No connection to the webhook within the connect timeout."""


class _Overtime(TimeoutError):
    """A send's whole deadline passed (the answer came too slowly, or not at all)."""


class _PrivateAddress(Exception):
    """The webhook's host is on a loopback or private network address now."""


class _Deadline:
    """A connected socket (TLS or not) whose every send and receive gets only the time
    left before ``until`` (``time.monotonic()``): an answer trickled in one byte at a
    time is cut off there like a silent one. What ``http.client`` asks of a socket."""

    def __init__(self, sock: socket.socket, until: float) -> None:
        self.raw = sock
        self.until = until

    def _left(self) -> None:
        left = self.until - time.monotonic()
        if left <= 0:
            raise _Overtime()
        self.raw.settimeout(left)

    def sendall(self, data: bytes) -> None:
        self._left()
        self.raw.sendall(data)  # a send's timeout bounds the whole sendall

    def recv_into(self, buffer: Any, nbytes: int = 0) -> int:
        self._left()
        if nbytes:
            return self.raw.recv_into(buffer, nbytes)
        return self.raw.recv_into(buffer)

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self))

    def close(self) -> None:
        self.raw.close()


class _DeadlineReader(io.RawIOBase):
    """The reading side of a :class:`_Deadline` socket, as a file."""

    def __init__(self, sock: _Deadline) -> None:
        self.sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self.sock.recv_into(buffer)


class _Pinned(http.client.HTTPConnection):
    """An HTTP connection on a socket made beforehand (to the address that was checked),
    never connecting by itself again."""

    auto_open = 0

    def __init__(self, host: str, port: int, sock: _Deadline) -> None:
        super().__init__(host, port)
        self.sock = sock


def io_error(e: BaseException, timeout: float) -> SendError:
    """A network error as a failed send, in words (the system's own words, in English,
    for an error of the system not named here)."""
    if isinstance(e, _ConnectTimeout):
        return SendError.said(words.IO_CONNECT, seconds=f"{min(CONNECT_SECONDS, timeout):g}")
    if isinstance(e, LookupTimeout):
        return SendError.said(words.IO_LOOKUP, seconds=f"{e.seconds:g}")
    if isinstance(e, (TimeoutError, socket.timeout)):
        return SendError.said(words.IO_TIMEOUT, seconds=f"{timeout:g}")
    if isinstance(e, ConnectionRefusedError):
        return SendError.said(words.IO_REFUSED)
    if isinstance(e, (http.client.RemoteDisconnected, http.client.IncompleteRead,
                      http.client.BadStatusLine, ConnectionResetError)):
        return SendError.said(words.IO_CLOSED)
    if isinstance(e, ssl.SSLError):
        return SendError.said(words.IO_TLS, reason=e.reason or type(e).__name__)
    if isinstance(e, socket.gaierror):
        return SendError.said(words.IO_NOT_FOUND)
    if isinstance(e, OSError) and e.strerror:
        return SendError(e.strerror.lower())
    return SendError(type(e).__name__)


class WebhookChannel(NotifierBase):
    """Webhooks: checked, connected to, sent to."""

    @staticmethod
    def webhook_parts(url: str) -> tuple[str, str, int]:
        """``url`` (stripped), its host and its port, or :class:`BadRequest` in words:
        an http(s) URL with a host and a port from 1 to 65535, without spaces or
        control characters. Nothing is looked up."""
        url = url.strip()
        if len(url) > MAX_URL:
            raise BadRequest.said(words.WEBHOOK_LONG, most=Count(MAX_URL, words.CHARACTER))
        if any(c <= " " or c == "\x7f" for c in url):
            raise BadRequest.said(words.WEBHOOK_SPACES)
        try:
            parts = urlsplit(url)
            host = parts.hostname
        except ValueError:  # e.g. http://[::1 (an IPv6 address not closed)
            raise BadRequest.said(words.WEBHOOK_UNREADABLE,
                                  usage=msg(words.WEBHOOK_USAGE)) from None
        if parts.scheme not in ("http", "https") or not host:
            raise BadRequest.said(words.WEBHOOK_USAGE)
        try:
            port = parts.port
        except ValueError:
            port = 0
        if port is not None and not 1 <= port <= 65535:
            raise BadRequest.said(words.WEBHOOK_PORT)
        try:
            literal = Lookup.literal(host, 80) is not None
            if not literal:
                host.encode("idna")
        except (OSError, UnicodeError):
            raise BadRequest.said(words.WEBHOOK_NOT_HOST, host=host) from None
        return url, host, port or (443 if parts.scheme == "https" else 80)

    def _judge(self, url: str, host: str, found: Addresses | BaseException) -> str:
        """``url`` once its ``host`` was looked up (``found``: its addresses, or why
        not)."""
        if isinstance(found, LookupTimeout):
            raise BadRequest.said(words.WEBHOOK_LOOKUP_SLOW, host=host,
                                  seconds=f"{found.seconds:g}")
        if isinstance(found, BaseException):
            raise BadRequest.said(words.WEBHOOK_NOT_FOUND, host=host)
        if any(private_address(str(address[0])) for _family, address in found):
            raise BadRequest.said(words.WEBHOOK_PRIVATE)
        return url

    def check_webhook(self, url: str) -> str:
        """``url`` as a webhook target, or :class:`BadRequest` in words: http(s), a host
        that resolves within ``settings.lookup_seconds``, not on loopback or a private
        network unless allowed (:meth:`check_webhook_async` for a request's)."""
        url, host, port = self.webhook_parts(url)
        if self.settings.allow_private:
            return url
        found: Addresses | BaseException
        try:
            found = self.lookup(host, port, self.settings.lookup_seconds)
        except (OSError, LookupTimeout, UnicodeError, ValueError) as e:
            found = e
        return self._judge(url, host, found)

    async def check_webhook_async(self, url: str) -> str:
        """The same, for a request: its host is looked up on a thread of its own and
        awaited, so a name server that hangs holds no request thread, and the answer
        comes within ``settings.lookup_seconds``."""
        url, host, port = self.webhook_parts(url)
        if self.settings.allow_private:
            return url
        found: Addresses | BaseException
        try:
            found = await self.lookup.wait(host, port, self.settings.lookup_seconds)
        except (OSError, LookupTimeout, UnicodeError, ValueError) as e:
            found = e
        return self._judge(url, host, found)

    def connect_to(self, family: int, address: Any, timeout: float) -> socket.socket:
        """A TCP connection to ``address`` (a socket address as a look-up gives it: the
        one that was checked), within ``timeout`` seconds: where every webhook's
        connection is made."""
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(address)
        except BaseException:
            sock.close()
            raise
        return sock

    def _open(self, scheme: str, host: str, port: int, until: float) -> _Deadline:
        """A new connection to ``host`` before the deadline ``until``: its name looked up
        once, its addresses checked (none private unless allowed) and one of those very
        addresses connected to (a name that answers another address the next time cannot
        redirect it), at most :data:`CONNECT_SECONDS` for that; then TLS, checked against
        the name, with the system's certificates. No proxy (the private-address rule is
        about where messages go)."""
        addresses = self.lookup(host, port, until - time.monotonic())
        if not self.settings.allow_private and any(
                private_address(str(address[0])) for _family, address in addresses):
            raise _PrivateAddress()
        sock: socket.socket | None = None
        failure: BaseException = _ConnectTimeout()
        for family, address in addresses:
            left = until - time.monotonic()
            if left <= 0:
                break
            try:
                sock = self.connect_to(family, address, min(CONNECT_SECONDS, left))
                break
            except TimeoutError:
                failure = _ConnectTimeout()
            except OSError as e:
                failure = e
        if sock is None:
            raise failure
        if scheme == "https":
            left = until - time.monotonic()
            if left <= 0:
                sock.close()
                raise _Overtime()
            sock.settimeout(left)  # the handshake's whole time
            try:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
            except BaseException:
                sock.close()
                raise
        return _Deadline(sock, until)

    def _connection(self, scheme: str, host: str, port: int, until: float,
                    fresh: bool = False) -> http.client.HTTPConnection:
        """A kept-alive connection of this sending thread to ``host``, connected (made on
        first use, or ``fresh``: :meth:`_open`), whose sends and receives end by the
        deadline ``until``."""
        cache: dict[tuple[str, str, int], http.client.HTTPConnection] = \
            self._local.__dict__.setdefault("connections", {})
        key = (scheme, host, port)
        conn = cache.get(key)
        if conn is not None and not fresh and isinstance(conn.sock, _Deadline):
            conn.sock.until = until
            return conn
        if conn is not None:
            conn.close()
            del cache[key]
        conn = _Pinned(host, port, self._open(scheme, host, port, until))
        cache[key] = conn
        with self._lock:
            self._connections.append(conn)
        return conn

    def _post(self, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        """POST ``body`` to ``url`` on a kept-alive connection (a new one when the kept
        one turns out closed by the server), all of it within the settings' ``timeout``
        (the look-up, the connection, TLS, the request and the answer): the answer's
        status and reason. Its body is not read beyond 64 KiB (then the connection is
        not kept)."""
        until = time.monotonic() + self.settings.timeout
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("not an http(s) URL")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = parts.hostname
        netloc = parts.netloc.rpartition("@")[2]  # never send credentials as the Host
        headers = {"Host": netloc, "User-Agent": f"endeavor/{__version__}",
                   "Content-Length": str(len(body)), **headers}
        for attempt in (0, 1):
            conn = self._connection(parts.scheme, host, port, until, fresh=attempt > 0)
            try:
                conn.request("POST", target, body=body, headers=headers)
                answer = conn.getresponse()
                status, reason = answer.status, answer.reason
                answer.read(65536)
                if not answer.isclosed():
                    conn.close()  # a long answer: not worth reading to keep the line
                return status, reason
            except (http.client.RemoteDisconnected, BrokenPipeError,
                    ConnectionResetError) as e:
                conn.close()  # a kept-alive line the server had closed: once more, anew
                if attempt:
                    raise e from None
            except BaseException:
                conn.close()
                raise
        raise AssertionError("unreachable")

    def send_webhook(self, url: str, message: Message) -> None:
        """POST ``message`` to ``url`` (:class:`SendError` in words on failure), within
        the settings' ``timeout`` in all. The private-address rule is checked again on
        the addresses the name has now, and the connection goes to one of those checked
        (see :meth:`_open`); redirects are not followed; the answer's body is not
        read."""
        body = json.dumps(message.webhook_body(), ensure_ascii=False).encode("utf-8")
        try:
            status, reason = self._post(url, body, message.webhook_headers())
        except _PrivateAddress:
            raise SendError.said(words.SEND_PRIVATE_NOW) from None
        except (OSError, _ConnectTimeout, LookupTimeout, http.client.HTTPException) as e:
            raise io_error(e, self.settings.timeout) from None
        except (UnicodeError, ValueError):
            raise SendError.said(words.SEND_BAD_URL, permanent=True) from None
        if 200 <= status < 300:
            return
        if 300 <= status < 400:
            raise SendError.said(words.SEND_REDIRECT, permanent=True, status=status)
        permanent = 400 <= status < 500 and status not in (408, 425, 429)
        if reason.strip():
            raise SendError.said(words.SEND_ANSWERED, permanent, status=status,
                                 reason=reason.strip())
        raise SendError.said(words.SEND_ANSWERED_BARE, permanent, status=status)
