"""Uvicorn's HTTP protocol (httptools) with bounds on what one client can hold.

Uvicorn closes a keep-alive connection idle between requests (``timeout_keep_alive``),
but waits forever for a request's head that arrives slowly or not at all (a slowloris
client holds a connection, and a few thousand of them hold the server), and bounds
neither the head's size (httptools buffers any header) nor how long a body may take.
:class:`GuardedHttpToolsProtocol`, which ``endeavor serve`` passes to Uvicorn as its
``http`` protocol, adds:

- :data:`HEAD_TIMEOUT`: a request's head (request line and headers) must have arrived
  within this many seconds of its first byte, or of the connection's opening for its
  first request. Otherwise the connection is closed, after a 408 when part of a request
  had come.
- :data:`BODY_TIMEOUT`: the whole body within this many seconds of the head, or a 408
  (when no response has started) and the connection is closed.
- :data:`IDLE_TIMEOUT`: a keep-alive connection idle this long between requests is
  closed (Uvicorn's own keep-alive timer, given this value).
- :data:`MAX_HEAD`: a head over this many bytes is answered 431 and the connection
  closed (the body has its own limit: ``endeavor.web.app.BodyLimit``).

Every answer made here is JSON ``{"detail": "..."}`` with the app's security headers
(:data:`endeavor.web.hardening.SECURITY_HEADERS`), and ``Connection: close``. The
timeouts can be changed through the environment (tests shorten them):
``$ENDEAVOR_HEAD_TIMEOUT``, ``$ENDEAVOR_BODY_TIMEOUT``, ``$ENDEAVOR_IDLE_TIMEOUT``
(seconds, > 0), read once per server process.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
from dataclasses import dataclass
from typing import Any, Final

import httptools
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from .hardening import SECURITY_HEADERS

log = logging.getLogger("endeavor.web")

#: seconds for a request's head to arrive, from its first byte (or from the connection's
#: opening, for the first request of a connection)
HEAD_TIMEOUT: Final = 10.0
#: seconds for a request's whole body to arrive once its head has (the largest accepted
#: body, 1 MiB, takes well under a second on any link a player would use)
BODY_TIMEOUT: Final = 30.0
#: seconds a keep-alive connection may stay idle between requests (Uvicorn's default)
IDLE_TIMEOUT: Final = 5.0
#: the largest request head (request line and headers) in bytes; browsers send a few
#: hundred, but cookies of other apps on the same host name are sent along
MAX_HEAD: Final = 32 * 1024
#: the largest WebSocket message accepted from a client, in bytes (the app ignores what
#: clients send on its sockets; Uvicorn's default is 16 MiB): a larger one closes the
#: socket with code 1009. ``endeavor serve`` passes it as Uvicorn's ``ws_max_size``
WS_MAX_SIZE: Final = 64 * 1024
#: seconds a refused connection is still read (and what comes discarded) after its answer
#: was sent and its sending side shut, before it is closed: closing a socket with unread
#: input makes the kernel reset the connection, which can destroy the answer before the
#: client reads it (a "lingering close")
LINGER: Final = 1.0
#: the environment variables overriding the timeouts (seconds)
HEAD_TIMEOUT_VAR: Final = "ENDEAVOR_HEAD_TIMEOUT"
BODY_TIMEOUT_VAR: Final = "ENDEAVOR_BODY_TIMEOUT"
IDLE_TIMEOUT_VAR: Final = "ENDEAVOR_IDLE_TIMEOUT"
#: what ``endeavor serve`` passes as Uvicorn's ``http`` (an import string: the worker
#: processes of ``--workers N`` import it)
PROTOCOL: Final = "endeavor.web.protocol:GuardedHttpToolsProtocol"


@dataclass(frozen=True)
class Limits:
    """The bounds a connection is held to (seconds and bytes)."""

    head_timeout: float = HEAD_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    idle_timeout: float = IDLE_TIMEOUT
    max_head: int = MAX_HEAD


def _seconds(var: str, default: float) -> float:
    raw = os.environ.get(var, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value < 86_400:
        log.warning("ignoring %s=%r: not a number of seconds > 0", var, raw)
        return default
    return value


@functools.cache
def limits_from_env() -> Limits:
    """The :class:`Limits` of this process: the defaults, unless the environment
    variables above override the timeouts."""
    return Limits(head_timeout=_seconds(HEAD_TIMEOUT_VAR, HEAD_TIMEOUT),
                  body_timeout=_seconds(BODY_TIMEOUT_VAR, BODY_TIMEOUT),
                  idle_timeout=_seconds(IDLE_TIMEOUT_VAR, IDLE_TIMEOUT))


def problem(status: int, detail: str) -> bytes:
    """A whole HTTP/1.1 response: ``status``, ``{"detail": detail}``, the security
    headers, ``Connection: close``."""
    body = json.dumps({"detail": detail}).encode()
    head = [STATUS_LINE[status], b"content-type: application/json\r\n",
            b"content-length: " + str(len(body)).encode() + b"\r\n",
            b"connection: close\r\n"]
    head.extend(name + b": " + value + b"\r\n" for name, value in SECURITY_HEADERS)
    return b"".join(head) + b"\r\n" + body


class _HeadTooLarge(Exception):
    """Raised in a parser callback: the request's head is over the limit."""


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """Uvicorn's httptools protocol with the head and body timeouts, the idle timeout and
    the head size limit of this module (see its docstring)."""

    def __init__(self, config: Config, server_state: ServerState,
                 app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = limits_from_env()
        self.timeout_keep_alive = self.limits.idle_timeout  # type: ignore[assignment]
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        #: whether the next bytes belong to a request's head (or start one)
        self._in_head = True
        #: whether some of the current request's head has come
        self._head_begun = False
        #: the bytes of the current head received so far (a lower bound, see
        #: data_received), and how many heads were complete so far
        self._head_bytes = 0
        self._heads = 0
        #: the size of the current head's request target and headers parsed so far
        self._head_parsed = 0
        #: the connection was refused: what comes is discarded until it is closed
        self._draining = False

    # ------------------------------------------------------------------ connection
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # Uvicorn's, plus the head's size: a head over the limit raises _HeadTooLarge in a
        # parser callback, which httptools hands back as the context of its error
        if self._draining:
            return
        self._unset_keepalive_if_required()
        in_head, heads = self._in_head, self._heads
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError as e:
            if isinstance(e.__context__, _HeadTooLarge):
                self._head_too_large()
            else:
                self.logger.warning("Invalid HTTP request received.")
                self.send_400_response("Invalid HTTP request received.")
            return
        # a head still incomplete is buffered by httptools without a callback: when all of
        # ``data`` belongs to one head (it started in a head and completed none), count it
        if in_head and self._in_head and heads == self._heads:
            self._head_bytes += len(data)
            if self._head_bytes > self.limits.max_head:
                self._head_too_large()

    def handle_websocket_upgrade(self) -> None:
        self._cancel_timers()  # the connection is the WebSocket protocol's from now on
        super().handle_websocket_upgrade()

    def send_400_response(self, msg: str) -> None:
        self._cancel_timers()
        self.transport.write(problem(400, f"invalid HTTP request: {msg.rstrip('.')}"))
        self._close_after_answer()

    # ------------------------------------------------------------------ parser callbacks
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_begun = True
        self._head_parsed = 0
        self._arm_head()

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def _count_head(self, size: int) -> None:
        self._head_parsed += size
        if self._head_parsed > self.limits.max_head:
            raise _HeadTooLarge

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_begun = False
        self._head_bytes = 0
        self._heads += 1
        self._cancel(self._head_timer)
        self._head_timer = None
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._body_timer = self.loop.call_later(self.limits.body_timeout,
                                                    self._body_timed_out)

    def on_message_complete(self) -> None:
        self._cancel(self._body_timer)
        self._body_timer = None
        self._in_head = True
        super().on_message_complete()

    # ------------------------------------------------------------------ timers
    def _arm_head(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.limits.head_timeout,
                                                    self._head_timed_out)

    @staticmethod
    def _cancel(timer: asyncio.TimerHandle | None) -> None:
        if timer is not None:
            timer.cancel()

    def _cancel_timers(self) -> None:
        self._cancel(self._head_timer)
        self._cancel(self._body_timer)
        self._head_timer = self._body_timer = None

    def _head_too_large(self) -> None:
        self._refuse(431, f"the request's head (request line and headers) is too large: "
                          f"at most {self.limits.max_head:,} bytes", head=True)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if not self._head_begun:  # nothing of a request came: an idle connection
            self._cancel_timers()
            self.transport.close()
            return
        self._refuse(408, f"the request's head did not arrive within "
                          f"{self.limits.head_timeout:g} s", head=True)

    def _body_timed_out(self) -> None:
        self._body_timer = None
        if self.transport.is_closing():
            return
        self._refuse(408, f"the request's body did not arrive within "
                          f"{self.limits.body_timeout:g} s", head=False)

    def _refuse(self, status: int, detail: str, head: bool) -> None:
        """Close the connection, first answering ``status`` with ``detail`` when that
        answer cannot mix with another: for a request's ``head``, when no earlier
        response of this connection is under way (a pipelined request: only close);
        for a body, when the app has not started its response. The request the app is
        serving, if any, then sees a disconnected client: its answer goes nowhere."""
        self._cancel_timers()
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        log.info("closing the connection of %s: %s", client, detail)
        cycle = self.cycle
        busy = cycle is not None and not cycle.response_complete
        answer = not busy if head else busy and not cycle.response_started
        if cycle is not None and busy:
            cycle.disconnected = True
            cycle.message_event.set()
        if answer:
            self.transport.write(problem(status, detail))
            self._close_after_answer()
        else:
            self.transport.close()

    def _close_after_answer(self) -> None:
        """Shut the sending side (the answer goes out, then the end of the stream), read
        and discard what the client still sends for :data:`LINGER` seconds, close."""
        self._draining = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.flow.resume_reading()
            self.loop.call_later(LINGER, self.transport.close)
        else:
            self.transport.close()
