"""Turn notifications away from the page: a webhook and/or an e-mail per seat.

A seat's player chooses them (``PUT /api/games/{id}/notify``); the settings live in the
``notify`` table. When an entry of a game's log makes a seat the one to move (or ends the
game), the same transaction puts a row in ``outbox`` for each channel that seat set
(:mod:`endeavor.web.store`), so a crash loses none; the :class:`Notifier` of each server
process sends them in the background, after the commit, with retries: a slow or dead
receiver never delays or loses a move.

How a row travels: the notifier's dispatcher thread looks at the outbox when this
process commits (:meth:`Notifier.wake`, at most every :data:`MIN_GAP_SECONDS`) and every
:data:`POLL_SECONDS` (rows written by another worker, left by a crash, or coming due for
a retry); it claims due rows in one transaction, each with an ``UPDATE`` of
``lease_until`` that exactly one worker wins (at most :data:`QUEUE` rows held at once:
the queue is bounded), and hands them to a fixed pool of :data:`SENDERS` threads, which
read the game as it then stands and send. What became of each row is written back by
the dispatcher, for all the rows finished since its last look in one transaction (so the
notifier takes the database's write lock a few times a second, whatever the number of
messages, and moves never queue behind it): a row sent (or not to be sent) is deleted;
a failure counts an attempt, keeps a short reason in ``last_error`` and sets ``due`` by
:data:`BACKOFF_SECONDS`; after the last the notification is given up (and logged).

What a message says is read when it is sent (see :meth:`Notifier.compose`): the seat's
move (round, what is asked, the clock's deadline, the seat's link), or the final scores.
A ``turn`` row whose seat is no longer to move is dropped unsent, and so is one of a
hot-seat screen passing the turn round: when the last move made by a person was made
less than :data:`PRESENT_SECONDS` ago by another seat of the same hot-seat link (the
people at that screen know it is their turn).

Logs never hold a token, a webhook's path or a full e-mail address
(:func:`redact_url`, :func:`redact_email`), nor a message's text or link.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import json
import logging
import os
import re
import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import quote, urlsplit

from sqlalchemy import Connection, and_, bindparam, delete, or_, select, update

from endeavor import __version__, final_scores

from . import db
from .store import BadRequest, Snapshot, StoreError, hash_token, utc, utcnow
from .view import plain_words
from .when import until_words

if TYPE_CHECKING:
    from .links import Links
    from .store import Store

log = logging.getLogger("endeavor.web")

MAX_URL: Final = 512
MAX_EMAIL: Final = 254
#: the environment through which ``endeavor serve`` hands its settings to the workers
SMTP_VAR: Final = "ENDEAVOR_SMTP"
MAIL_FROM_VAR: Final = "ENDEAVOR_MAIL_FROM"
PRIVATE_VAR: Final = "ENDEAVOR_ALLOW_PRIVATE_WEBHOOKS"
#: tuning for tests: the waits between attempts (``"0.3,0.3"``: seconds, comma-separated)
#: and the timeout of each send (seconds)
BACKOFF_VAR: Final = "ENDEAVOR_NOTIFY_BACKOFF"
TIMEOUT_VAR: Final = "ENDEAVOR_NOTIFY_TIMEOUT"

#: how often the outbox is looked at when nothing woke the notifier (seconds): rows
#: written by another worker process, left by a crash or a restart, or due for a retry
POLL_SECONDS: Final = 1.0
#: the shortest time between two looks at the outbox (a burst of commits wakes it once)
MIN_GAP_SECONDS: Final = 0.2
#: the waits before each retry of a failed send (seconds): 10 s, 1 min, 5 min, 30 min,
#: 2 h. When the last retry fails too the notification is given up (and logged):
#: ``1 + len(BACKOFF_SECONDS)`` attempts in all
BACKOFF_SECONDS: Final = (10.0, 60.0, 300.0, 1800.0, 7200.0)
#: threads sending at once in a server process
SENDERS: Final = 4
#: the most outbox rows a server process holds claimed at once, sending or waiting for a
#: sender (the queue is bounded; the rest wait in the outbox)
QUEUE: Final = 32
#: how long a claimed row is this worker's before another may take it (seconds); a send
#: is bounded well below that by the timeouts
LEASE_SECONDS: Final = 120.0
#: the longest wait for a connection to a webhook or the mail server (seconds)
CONNECT_SECONDS: Final = 5.0
#: the longest wait for each answer of a webhook or the mail server (seconds)
READ_SECONDS: Final = 10.0
#: a hot-seat seat whose sibling (a seat of the same link) made the last move by a
#: person this recently (seconds) is taken to be at the screen: no ``turn`` message
PRESENT_SECONDS: Final = 60.0
#: the longest ``outbox.last_error`` kept
MAX_ERROR: Final = 200
#: Discord's limit on a message's ``content`` (characters)
DISCORD_MAX: Final = 2000
#: the characters a URL keeps as they are in a header (the rest percent-encoded)
_URL_SAFE: Final = ":/?#[]@!$&'()*+,;=%-._~"
EMAIL: Final = re.compile(r"^[^@\s<>()\[\],;:\"\\]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?"
                           r"\.[A-Za-z]{2,}$")


# the outbox's statements, built once (building one costs more than running it)
_O, _N = db.outbox, db.notify
_FREE = or_(_O.c.lease_until.is_(None), _O.c.lease_until < bindparam("b_now"))
#: the due rows nobody holds, oldest first, with their seat's setting (if still set)
_DUE: Final = (
    select(_O.c.game_id, _O.c.seat, _O.c.channel, _O.c.seq, _O.c.attempts, _N.c.target,
           _N.c.link_token)
    .select_from(_O.outerjoin(_N, and_(_N.c.game_id == _O.c.game_id,
                                       _N.c.seat == _O.c.seat,
                                       _N.c.channel == _O.c.channel)))
    .where(and_(_O.c.due <= bindparam("b_now"), _FREE))
    .order_by(_O.c.due).limit(bindparam("b_limit")))
_ROW = and_(_O.c.game_id == bindparam("b_game"), _O.c.seat == bindparam("b_seat"),
            _O.c.channel == bindparam("b_channel"))
#: a row claimed until ``b_lease``, if it is still due, free and at ``b_seq``
_CLAIM: Final = (update(_O).where(and_(_ROW, _O.c.seq == bindparam("b_seq"),
                                       _O.c.due <= bindparam("b_now"), _FREE))
                 .values(lease_until=bindparam("b_lease")))
_MINE = and_(_ROW, _O.c.lease_until == bindparam("b_lease"))
_DELETE_SENT: Final = delete(_O).where(and_(_MINE, _O.c.seq == bindparam("b_seq")))
_AGAIN: Final = update(_O).where(_MINE).values(lease_until=None, due=bindparam("b_now"),
                                               attempts=0, last_error=None)
_RELEASE: Final = update(_O).where(_MINE).values(lease_until=None)
_GIVE_UP: Final = delete(_O).where(_MINE)
_RETRY: Final = update(_O).where(_MINE).values(
    attempts=bindparam("b_attempts"), lease_until=None, last_error=bindparam("b_error"),
    due=bindparam("b_due"))


@dataclass(frozen=True)
class NotifySettings:
    """How a server sends: ``smtp`` (``smtp://user:pass@host:587``, ``smtps://...``; None:
    no e-mail), ``mail_from`` (the sender's address), ``allow_private`` (webhooks on
    loopback or private addresses are allowed: tests, a LAN)."""

    smtp: str | None = None
    mail_from: str | None = None
    allow_private: bool = False
    #: the waits between attempts (see :data:`BACKOFF_SECONDS`)
    backoff: tuple[float, ...] = BACKOFF_SECONDS
    #: each send's read timeout (its connect timeout is at most :data:`CONNECT_SECONDS`)
    timeout: float = READ_SECONDS
    #: how often the outbox is looked at unwoken (see :data:`POLL_SECONDS`)
    poll_seconds: float = POLL_SECONDS
    #: see :data:`SENDERS`
    senders: int = SENDERS
    #: see :data:`QUEUE`
    queue: int = QUEUE
    #: see :data:`PRESENT_SECONDS`
    present_seconds: float = PRESENT_SECONDS

    @classmethod
    def from_env(cls) -> NotifySettings:
        """The settings ``endeavor serve`` handed to this worker (plus the tuning of
        :data:`BACKOFF_VAR` and :data:`TIMEOUT_VAR`, for tests)."""
        extra: dict[str, Any] = {}
        backoff = os.environ.get(BACKOFF_VAR, "").strip()
        if backoff:
            with contextlib.suppress(ValueError):
                extra["backoff"] = tuple(max(0.0, float(x)) for x in backoff.split(","))
        timeout = os.environ.get(TIMEOUT_VAR, "").strip()
        if timeout:
            with contextlib.suppress(ValueError):
                extra["timeout"] = max(0.1, float(timeout))
        return cls(os.environ.get(SMTP_VAR) or None, os.environ.get(MAIL_FROM_VAR) or None,
                   os.environ.get(PRIVATE_VAR, "") not in ("", "0"), **extra)


@dataclass(frozen=True)
class SmtpServer:
    """A parsed ``--smtp`` URL: where, how (``starttls``, ``tls``: TLS from the start,
    or neither) and who."""

    host: str
    port: int
    security: str
    user: str | None
    password: str | None


def parse_smtp(url: str) -> SmtpServer:
    """``smtp://user:pass@host:587`` (STARTTLS on port 587, plain elsewhere unless
    ``?starttls=1``), ``smtps://user:pass@host:465`` (TLS); ValueError says what is
    wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("an smtp://USER:PASS@HOST:PORT or smtps://... URL")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("the port is not a number from 1 to 65535") from None
    if parts.scheme == "smtps":
        security, port = "tls", port or 465
    else:
        port = port or 25
        starttls = port == 587 or "starttls=1" in parts.query
        security = "starttls" if starttls else "none"
    from urllib.parse import unquote
    return SmtpServer(parts.hostname, port, security,
                      unquote(parts.username) if parts.username else None,
                      unquote(parts.password) if parts.password else None)


def redact_url(url: str) -> str:
    """A URL for a log line: its scheme and host only (a webhook's path is its secret)."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    return f"{parts.scheme}://{host}/…"


def redact_email(address: str) -> str:
    """An address for a log line: ``m…@example.org``."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}…@{domain}"


def _private(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def _resolves_private(host: str, port: int) -> bool:
    """Whether ``host`` resolves to a loopback, private, link-local or otherwise
    non-global address (any of its addresses); ``socket.gaierror`` when it does not
    resolve."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return any(_private(str(info[4][0])) for info in infos)


# --------------------------------------------------------------------------- messages
def _discord_escape(text: str) -> str:
    """``text`` shown as is in Discord's markdown."""
    return re.sub(r"([\\*_~`|>#\[\]()-])", r"\\\1", text)


def _slack_escape(text: str) -> str:
    """``text`` shown as is in Slack's mrkdwn (its three control characters)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _when(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class Message:
    """A notification as it is sent, read from the game when it is sent: ``event``
    ``turn`` (``seat`` is to move: ``asked`` is its decision's prompt, ``deadline`` when
    its clock runs out) or ``over`` (``scores``: ``(seat, total, rank)`` best first;
    ``ended_by_host``). ``link`` is the seat's own link (it carries the seat's token)."""

    event: str
    game_id: str
    title: str
    game_url: str
    seat: int
    round: int
    rounds: int
    link: str
    asked: str | None = None
    deadline: datetime | None = None
    scores: tuple[tuple[int, int, int], ...] = ()
    ended_by_host: bool = False

    @property
    def subject(self) -> str:
        """The e-mail's subject and the notification's title."""
        if self.event == "over":
            return f"Endeavor: {self.title} is over"
        return f"Endeavor: your move in {self.title}"

    @property
    def round_words(self) -> str:
        return "setup" if self.round <= 0 else f"round {self.round} of {self.rounds}"

    def _lines(self, title: str, link: str) -> list[str]:
        if self.event == "over":
            how = (" (ended by the host: the scores are counted as they stood)"
                   if self.ended_by_host else "")
            scores = ", ".join(f"P{s} {total}" for s, total, _rank in self.scores)
            return [f"{title} is over{how}.",
                    f"Final scores: {scores}." if scores else "No scores.",
                    f"Your seat (P{self.seat}): {link}"]
        lines = [f"P{self.seat}, it is your move in {title} ({self.round_words})."]
        if self.asked:
            lines.append(f"Asked: {self.asked}")
        if self.deadline is not None:
            lines.append(f"You have until {_when(self.deadline)} "
                         f"({until_words(self.deadline, utcnow())}).")
        lines.append(f"Your seat: {link}")
        return lines

    def text(self) -> str:
        """The message in plain text (e-mail, ntfy)."""
        return "\n".join(self._lines(self.title, self.link))

    def webhook_body(self) -> dict[str, Any]:
        """The one JSON body every webhook gets (see docs/web.md, "Notifications"):
        ``content`` for Discord, ``text`` for Slack, ``title`` and ``message`` for
        ntfy's templates, and the structured fields."""
        # <link>: a link in both Discord (without a preview) and Slack
        discord = "\n".join(self._lines(f"**{_discord_escape(self.title)}**",
                                        f"<{self.link}>"))
        if len(discord) > DISCORD_MAX:
            discord = discord[:DISCORD_MAX - 1] + "…"
        return {
            "content": discord,
            "allowed_mentions": {"parse": []},
            "text": "\n".join(self._lines(_slack_escape(self.title), f"<{self.link}>")),
            "title": self.subject,
            "message": self.text(),
            "event": self.event,
            "game": {"id": self.game_id, "title": self.title, "url": self.game_url},
            "seat": self.seat,
            "round": self.round,
            "rounds": self.rounds,
            "asked": self.asked,
            "deadline": self.deadline.isoformat() if self.deadline is not None else None,
            "link": self.link,
            "scores": ([{"seat": s, "total": total, "rank": rank}
                        for s, total, rank in self.scores] if self.event == "over" else None),
        }

    def webhook_headers(self) -> dict[str, str]:
        """The headers that go with it: ntfy renders the body's ``title`` and
        ``message`` through them (``X-Template``), and opens ``link`` on a click; the
        others ignore them."""
        return {"Content-Type": "application/json", "X-Template": "yes",
                "X-Title": "{{.title}}", "X-Message": "{{.message}}",
                "X-Click": quote(self.link, safe=_URL_SAFE)}  # headers are ASCII

    def email(self, sender: str, to: str) -> EmailMessage:
        """The e-mail: plain text, from ``sender`` (``--mail-from``) to ``to``."""
        m = EmailMessage()
        m["Subject"] = self.subject
        m["From"] = sender
        m["To"] = to
        m["Date"] = format_datetime(utcnow())
        m["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "endeavor.invalid")
        m["Auto-Submitted"] = "auto-generated"
        m.set_content(self.text() + "\n\n-- \nYou get this because this seat asked for it on "
                      "the game's page, where you can change or remove it.\n")
        return m


# --------------------------------------------------------------------------- sending
class SendError(Exception):
    """A send that failed, in words (never the target or the link); ``permanent``: no
    use trying again (the receiver said so)."""

    def __init__(self, words: str, permanent: bool = False) -> None:
        super().__init__(words)
        self.permanent = permanent


@dataclass(frozen=True)
class _Job:
    """An outbox row this worker claimed until ``lease``, with the seat's setting on its
    channel (None: removed since)."""

    game_id: str
    seat: int
    channel: str
    seq: int
    attempts: int
    lease: datetime
    target: str | None = None
    token: str | None = None


@dataclass(frozen=True)
class _Outcome:
    """What became of a claimed row: ``done`` (sent, or not to be sent: deleted unless a
    newer event came for it) or a failure (``words``, ``permanent``; ``shown``: the
    target as a log line may show it)."""

    job: _Job
    done: bool
    words: str = ""
    permanent: bool = False
    shown: str = "?"
    said: str = "sent"

    @property
    def what(self) -> str:
        """What happened, in words: ``sent``, why it was not, or ``failed: ...``."""
        return self.said if self.done else f"failed: {self.words}"


class _ConnectTimeout(Exception):
    """No connection to the webhook within the connect timeout."""


def _io_words(e: BaseException, timeout: float) -> str:
    """A network error in words."""
    if isinstance(e, _ConnectTimeout):
        return f"could not connect within {min(CONNECT_SECONDS, timeout):g} s"
    if isinstance(e, (TimeoutError, socket.timeout)):
        return f"no answer within {timeout:g} s"
    if isinstance(e, ConnectionRefusedError):
        return "the connection was refused"
    if isinstance(e, (http.client.RemoteDisconnected, http.client.IncompleteRead,
                      http.client.BadStatusLine, ConnectionResetError)):
        return "the server closed the connection without an answer"
    if isinstance(e, ssl.SSLError):
        return f"TLS failed ({e.reason or type(e).__name__})"
    if isinstance(e, socket.gaierror):
        return "the host cannot be found"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror.lower()
    return type(e).__name__


class Notifier:
    """Sends ``store``'s waiting notifications (see the module's doc).

    :meth:`start` starts a dispatcher thread and a pool of ``settings.senders`` sending
    threads, :meth:`wake` (a listener of the store: called after each commit of this
    process) makes it look at the outbox at once, :meth:`stop` ends it (what is not
    sent stays in the outbox for the next start)."""

    def __init__(self, store: Store, links: Links, settings: NotifySettings) -> None:
        self.store = store
        self.links = links
        self.settings = settings
        self._smtp = parse_smtp(settings.smtp) if settings.smtp else None
        self._wakeup = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._in_flight = 0  # rows claimed and not yet finished
        self._jobs: dict[Future[None], _Job] = {}
        self._finished: list[_Outcome] = []  # to be written back by the dispatcher
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._local = threading.local()  # each sending thread's kept-alive connections
        self._connections: list[http.client.HTTPConnection] = []  # all of them

    @property
    def email_available(self) -> bool:
        """Whether this server can send e-mail (``--smtp`` was given)."""
        return bool(self.settings.smtp and self.settings.mail_from)

    def check_webhook(self, url: str) -> str:
        """``url`` as a webhook target, or :class:`BadRequest` in words: http(s), a host
        that resolves, not on loopback or a private network unless allowed."""
        url = url.strip()
        if len(url) > MAX_URL:
            raise BadRequest(f"a webhook URL has at most {MAX_URL} characters")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BadRequest("a webhook is an http:// or https:// URL, e.g. "
                             "https://ntfy.sh/your-topic or a Discord or Slack webhook")
        if not self.settings.allow_private:
            try:
                private = _resolves_private(parts.hostname, parts.port or 443)
            except (socket.gaierror, UnicodeError, ValueError):
                raise BadRequest(f"the webhook's host {parts.hostname!r} cannot be "
                                 "found") from None
            if private:
                raise BadRequest("this server does not send to webhooks on loopback or "
                                 "private network addresses")
        return url

    def check_email(self, address: str) -> str:
        """``address`` as an e-mail target, or :class:`BadRequest` in words."""
        address = address.strip()
        if not self.email_available:
            raise BadRequest("this server cannot send e-mail (it was started without "
                             "--smtp and --mail-from)")
        if len(address) > MAX_EMAIL or not EMAIL.match(address):
            raise BadRequest(f"{address!r} is not an e-mail address")
        return address

    # ------------------------------------------------------------------ life
    def wake(self, game_id: str, seq: int) -> None:
        """A commit happened in this process: look at the outbox soon."""
        self._wakeup.set()

    def start(self) -> None:
        """Start sending in the background (once)."""
        if self._thread is not None:
            return
        self._stopping.clear()
        self._pool = ThreadPoolExecutor(max(1, int(self.settings.senders)),
                                        thread_name_prefix="endeavor-notify")
        self._thread = threading.Thread(target=self._loop, name="endeavor-notifier",
                                        daemon=True)
        self._thread.start()
        self._wakeup.set()  # rows left from before the start

    def stop(self, timeout: float = 10.0) -> None:
        """Stop sending: no new row is claimed, the sends under way get ``timeout``
        seconds to end; rows claimed but not started are handed back at once, and what
        is not sent stays in the outbox for the next start (or another worker)."""
        self._stopping.set()
        self._wakeup.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._pool is not None:
            with self._lock:  # before the shutdown, whose cancelling forgets them
                jobs = dict(self._jobs)
            self._pool.shutdown(wait=False, cancel_futures=True)
            waiting = [f for f in jobs if not f.cancelled()]
            deadline = time.monotonic() + timeout
            for f in waiting:
                with contextlib.suppress(Exception):
                    f.result(max(0.0, deadline - time.monotonic()))
            unstarted = [job for f, job in jobs.items() if f.cancelled()]
            if unstarted:
                with contextlib.suppress(Exception):
                    self._release(unstarted)
            self._pool = None
        with contextlib.suppress(Exception):
            self.flush()
        with self._lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            with contextlib.suppress(Exception):
                conn.close()

    def _connection(self, scheme: str, host: str, port: int, fresh: bool = False,
                    ) -> http.client.HTTPConnection:
        """A kept-alive connection of this sending thread to ``host``, connected (made on
        first use, or ``fresh``): the connect timeout, then the read timeout of the
        settings; TLS with the system's certificates; no proxy (the private-address rule
        is about where messages go)."""
        cache: dict[tuple[str, str, int], http.client.HTTPConnection] = \
            self._local.__dict__.setdefault("connections", {})
        key = (scheme, host, port)
        conn = cache.get(key)
        if conn is not None and not fresh and conn.sock is not None:
            return conn
        if conn is not None:
            conn.close()
        connect = min(CONNECT_SECONDS, self.settings.timeout)
        if scheme == "https":
            conn = http.client.HTTPSConnection(host, port, timeout=connect,
                                               context=ssl.create_default_context())
        else:
            conn = http.client.HTTPConnection(host, port, timeout=connect)
        try:
            conn.connect()
        except TimeoutError:
            conn.close()
            raise _ConnectTimeout() from None
        except BaseException:
            conn.close()
            raise
        if conn.sock is not None:
            conn.sock.settimeout(self.settings.timeout)
        cache[key] = conn
        with self._lock:
            self._connections.append(conn)
        return conn

    def _post(self, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
        """POST ``body`` to ``url`` on a kept-alive connection (a new one when the kept
        one turns out closed by the server): the answer's status and reason. Its body
        is not read beyond 64 KiB (then the connection is not kept)."""
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
            conn = self._connection(parts.scheme, host, port, fresh=attempt > 0)
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

    # ------------------------------------------------------------------ dispatcher
    def _loop(self) -> None:
        failing = False
        last = 0.0
        while not self._stopping.is_set():
            self._wakeup.wait(self.settings.poll_seconds)
            self._wakeup.clear()
            if self._stopping.is_set():
                break
            gap = MIN_GAP_SECONDS - (time.monotonic() - last)
            if gap > 0 and self._stopping.wait(gap):
                break
            last = time.monotonic()
            try:
                self.flush()
                self.dispatch()
                failing = False
            except Exception as e:  # the database is away: say so once, keep trying
                if not failing:
                    log.warning("notifications: cannot read the outbox (%s); trying again",
                                type(e).__name__)
                failing = True

    def dispatch(self) -> int:
        """Claim as many due rows as the queue has room for and hand them to the
        senders; how many were claimed."""
        pool = self._pool
        if pool is None:
            return 0
        with self._lock:
            free = max(1, int(self.settings.queue)) - self._in_flight
        if free <= 0:
            return 0
        jobs = self.claim(free)
        for job in jobs:
            with self._lock:
                self._in_flight += 1
            try:
                future = pool.submit(self._run, job)
            except RuntimeError:  # stopping: the pool takes no more
                with self._lock:
                    self._in_flight -= 1
                self._release([job])
                continue
            with self._lock:
                if not future.done():
                    self._jobs[future] = job
            future.add_done_callback(self._forget)
        return len(jobs)

    def _forget(self, future: Future[None]) -> None:
        with self._lock:
            self._jobs.pop(future, None)

    def _run(self, job: _Job) -> None:
        try:
            outcome = self.process(job)
        except Exception as e:  # a bug: logged without what the message holds
            log.error("notifications: game %s P%d %s: unexpected %s", job.game_id, job.seat,
                      job.channel, type(e).__name__)
            outcome = _Outcome(job, False, f"internal error ({type(e).__name__})")
        with self._lock:
            self._finished.append(outcome)
            self._in_flight -= 1
        self._wakeup.set()  # write it back, and there is room in the queue: look again

    def handle(self, job: _Job) -> str:
        """Process the claimed row ``job`` here and now and write back what became of
        it (tests, and a tool driving the notifier by hand); what happened, in words."""
        outcome = self.process(job)
        with self._lock:
            self._finished.append(outcome)
        self.flush()
        return outcome.what

    def flush(self) -> int:
        """Write back what became of the rows finished since the last flush, in one
        transaction; how many."""
        with self._lock:
            finished, self._finished = self._finished, []
        if not finished:
            return 0
        try:
            with self.store._write_lock, self.store.engine.begin() as conn:
                for outcome in finished:
                    if outcome.done:
                        self._done(conn, outcome.job)
                    else:
                        self._failed(conn, outcome)
        except Exception:
            with self._lock:  # the database is away: kept for the next flush
                self._finished[:0] = finished
            raise
        for outcome in finished:
            if not outcome.done:
                self._log_failure(outcome)
        return len(finished)

    # ------------------------------------------------------------------ the outbox
    def claim(self, limit: int, now: datetime | None = None) -> list[_Job]:
        """Claim up to ``limit`` due rows nobody holds (oldest first) until
        ``now + LEASE_SECONDS``: each with one ``UPDATE`` that only one worker can win
        (a row whose ``seq`` moved meanwhile is left for the next look)."""
        now = now or utcnow()
        rows = self.store._read(lambda conn: list(conn.execute(
            _DUE, {"b_now": now, "b_limit": limit})))
        if not rows:
            return []
        lease = now + timedelta(seconds=LEASE_SECONDS)
        jobs = []
        with self.store._write_lock, self.store.engine.begin() as conn:
            for r in rows:
                won = conn.execute(_CLAIM, {"b_game": r.game_id, "b_seat": r.seat,
                                            "b_channel": r.channel, "b_seq": r.seq,
                                            "b_now": now, "b_lease": lease})
                if won.rowcount == 1:
                    jobs.append(_Job(r.game_id, int(r.seat), r.channel, int(r.seq),
                                     int(r.attempts), lease, r.target, r.link_token))
        return jobs

    @staticmethod
    def _key(job: _Job) -> dict[str, Any]:
        """The bound parameters naming ``job``'s row as this worker claimed it."""
        return {"b_game": job.game_id, "b_seat": job.seat, "b_channel": job.channel,
                "b_lease": job.lease}

    def _done(self, conn: Connection, job: _Job) -> None:
        """The row was sent or is not to be sent: delete it, unless a new event came
        for it meanwhile (its ``seq`` moved): then it is due again at once."""
        gone = conn.execute(_DELETE_SENT, {**self._key(job), "b_seq": job.seq})
        if gone.rowcount == 0:
            conn.execute(_AGAIN, {**self._key(job), "b_now": utcnow()})

    def _release(self, jobs: Sequence[_Job]) -> None:
        """Hand claimed rows back untouched (due at once)."""
        with self.store._write_lock, self.store.engine.begin() as conn:
            for job in jobs:
                conn.execute(_RELEASE, self._key(job))

    def _failed(self, conn: Connection, outcome: _Outcome) -> None:
        """A send failed: try again after the backoff, or give up (delete the row)."""
        job = outcome.job
        attempts = job.attempts + 1
        backoff = self.settings.backoff
        if outcome.permanent or attempts > len(backoff):
            conn.execute(_GIVE_UP, self._key(job))
        else:
            wait = backoff[attempts - 1]
            conn.execute(_RETRY, {**self._key(job), "b_attempts": attempts,
                                  "b_error": outcome.words[:MAX_ERROR],
                                  "b_due": utcnow() + timedelta(seconds=wait)})

    def _log_failure(self, outcome: _Outcome) -> None:
        job, words, target = outcome.job, outcome.words, outcome.shown
        attempts = job.attempts + 1
        backoff = self.settings.backoff
        if outcome.permanent or attempts > len(backoff):
            log.warning("notifications: gave up on the %s to %s for P%d of game %s after "
                        "%d attempt%s: %s", job.channel, target, job.seat, job.game_id,
                        attempts, "s" if attempts != 1 else "", words)
        else:
            log.warning("notifications: the %s to %s for P%d of game %s failed (attempt "
                        "%d of %d): %s; trying again in %s s", job.channel, target, job.seat,
                        job.game_id, attempts, len(backoff) + 1, words,
                        f"{backoff[attempts - 1]:g}")

    # ------------------------------------------------------------------ one row
    def process(self, job: _Job) -> _Outcome:
        """Send the claimed row ``job`` (or drop it): what became of it (written back
        by :meth:`flush`)."""
        if job.target is None or job.token is None:
            log.info("notifications: game %s P%d %s not sent: the setting was removed",
                     job.game_id, job.seat, job.channel)
            return _Outcome(job, True, said="the setting was removed")
        target, token = job.target, job.token
        shown = redact_email(target) if job.channel == "email" else redact_url(target)
        try:
            # composed under the game's lock, from its cached position (not copied)
            message = self.store.peek(job.game_id,
                                      lambda snap: self.compose(snap, job.seat, token))
        except StoreError:
            return _Outcome(job, True, said="the game is gone")
        if isinstance(message, str):
            log.info("notifications: game %s P%d %s not sent: %s", job.game_id, job.seat,
                     job.channel, message)
            return _Outcome(job, True, said=message)
        try:
            if job.channel == "webhook":
                self.send_webhook(target, message)
            elif job.channel == "email":
                self.send_email(target, message)
            else:
                raise SendError(f"unknown channel {job.channel!r}", permanent=True)
        except SendError as e:
            return _Outcome(job, False, self._scrub(str(e), target, token), e.permanent,
                            shown)
        log.info("notifications: sent the %s of game %s to P%d by %s to %s", message.event,
                 job.game_id, job.seat, job.channel, shown)
        return _Outcome(job, True)

    @staticmethod
    def _scrub(words: str, *secrets: str) -> str:
        for secret in secrets:
            if secret:
                words = words.replace(secret, "…")
        return words

    def compose(self, snap: Snapshot, seat: int, token: str) -> Message | str:
        """The message for ``seat`` (whose settings hold ``token``) on the game as it
        stands in ``snap``, or why none is sent: the game is over (the final scores, to
        every seat that asked), or the seat is to move and its player is not at the page
        (see the module's doc); a seat no longer to move, now played by a bot, or whose
        link was re-issued gets nothing."""
        meta = snap.meta
        if not 0 <= seat < len(meta.seats):
            return "no such seat"
        s = meta.seats[seat]
        if s.token_hash is None or s.token_hash != hash_token(token):
            return "the seat's link has changed"
        state = snap.state
        common: dict[str, Any] = {
            "game_id": meta.id, "title": meta.title or f"game {meta.id}",
            "game_url": self.links.spectate(meta.id, absolute=True), "seat": seat,
            "round": int(state.round), "rounds": int(state.rules.rounds),
            "link": self.links.seat(meta.id, token, absolute=True)}
        if snap.over:
            scores = sorted(((sc.player, int(sc.total), int(sc.rank))
                             for sc in final_scores(state)), key=lambda x: (x[2], x[0]))
            return Message("over", scores=tuple(scores), ended_by_host=snap.ended == "host",
                           **common)
        if snap.current_player != seat:
            return "the seat is not to move any more"
        if s.played_by is not None:
            return "a bot plays the seat now"
        if self._present(snap, seat):
            return "its players are at the hot-seat screen"
        decision = state.decision()
        asked = plain_words(decision.prompt)[0] if decision is not None else None
        clock = snap.clock
        deadline = (clock.deadline if clock is not None and clock.running == seat
                    else None)
        return Message("turn", asked=asked, deadline=deadline, **common)

    def _present(self, snap: Snapshot, seat: int) -> bool:
        """Whether the last move made by a person (not a bot, not the host) was made
        less than ``present_seconds`` ago by another seat of ``seat``'s hot-seat link
        (the people at that screen know it is their turn)."""
        seats = snap.meta.seats
        if seats[seat].kind != "hotseat":
            return False
        last = None
        for entry in reversed(snap.log):
            if entry.seat < 0 or entry.note is not None:
                continue  # the host, or a bot playing for a player whose time ran out
            if entry.kind == "action" and seats[entry.seat].played_by is not None:
                continue  # a bot's move
            last = entry
            break
        if (last is None or last.seat == seat
                or seats[last.seat].token_hash != seats[seat].token_hash):
            return False
        m = db.moves
        query = select(m.c.created).where(and_(m.c.game_id == snap.meta.id,
                                               m.c.seq == last.seq))
        created = self.store._read(lambda conn: conn.execute(query).scalar())
        if created is None:
            return False
        age = (utcnow() - utc(created)).total_seconds()
        return bool(age < self.settings.present_seconds)

    # ------------------------------------------------------------------ channels
    def send_webhook(self, url: str, message: Message) -> None:
        """POST ``message`` to ``url`` (:class:`SendError` in words on failure). The
        private-address rule is checked again (DNS may have changed); redirects are
        not followed; the answer's body is not read."""
        parts = urlsplit(url)
        if not self.settings.allow_private:
            try:
                private = _resolves_private(parts.hostname or "", parts.port or 443)
            except (OSError, UnicodeError, ValueError) as e:
                raise SendError(_io_words(e, self.settings.timeout)) from None
            if private:
                raise SendError("the webhook's host is now on a private network address: "
                                "not sent")
        body = json.dumps(message.webhook_body(), ensure_ascii=False).encode("utf-8")
        try:
            status, reason = self._post(url, body, message.webhook_headers())
        except (OSError, _ConnectTimeout, http.client.HTTPException) as e:
            raise SendError(_io_words(e, self.settings.timeout)) from None
        except (UnicodeError, ValueError):
            raise SendError("the webhook's URL cannot be used", permanent=True) from None
        if 200 <= status < 300:
            return
        if 300 <= status < 400:
            raise SendError(f"the webhook answered {status} (a redirect: not followed)",
                            permanent=True)
        raise SendError(f"the webhook answered {status} {reason}".strip(),
                        permanent=400 <= status < 500 and status not in (408, 425, 429))

    def send_email(self, address: str, message: Message) -> None:
        """Send ``message`` to ``address`` through the ``--smtp`` server
        (:class:`SendError` in words on failure)."""
        server, sender = self._smtp, self.settings.mail_from
        if server is None or not sender:
            raise SendError("this server has no --smtp and --mail-from any more",
                            permanent=True)
        timeout = self.settings.timeout
        mail = message.email(sender, address)
        try:
            context = ssl.create_default_context()
            client: smtplib.SMTP
            if server.security == "tls":
                client = smtplib.SMTP_SSL(server.host, server.port, timeout=timeout,
                                          context=context)
            else:
                client = smtplib.SMTP(server.host, server.port, timeout=timeout)
            with client:
                if server.security == "starttls":
                    client.starttls(context=context)
                if server.user:
                    client.login(server.user, server.password or "")
                refused = client.send_message(mail)
        except smtplib.SMTPRecipientsRefused:
            raise SendError("the mail server refused the address", permanent=True) from None
        except smtplib.SMTPAuthenticationError as e:
            raise SendError(f"the mail server refused the login ({e.smtp_code})") from None
        except smtplib.SMTPResponseException as e:
            raise SendError(f"the mail server answered {e.smtp_code}",
                            permanent=500 <= e.smtp_code < 600) from None
        except smtplib.SMTPServerDisconnected:
            raise SendError("the mail server closed the connection") from None
        except (smtplib.SMTPException, OSError) as e:
            raise SendError(_io_words(e, timeout)) from None
        if refused:
            raise SendError("the mail server refused the address", permanent=True)
