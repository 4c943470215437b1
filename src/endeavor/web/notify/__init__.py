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

import asyncio
import contextlib
import http.client
import io
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
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import quote, urlsplit

from sqlalchemy import Connection, and_, bindparam, delete, or_, select, update

from endeavor import __version__, final_scores

from .. import chat, db, seating
from ..names import result_line, seat_words
from ..store import BadRequest, Snapshot, StoreError, hash_token, utc, utcnow
from ..view import plain_words
from ..when import until_words

if TYPE_CHECKING:
    from ..links import Links
    from ..store import Store

log = logging.getLogger("endeavor.web")

MAX_URL: Final = 512
MAX_EMAIL: Final = 254
#: the environment through which ``endeavor serve`` hands its settings to the workers
SMTP_VAR: Final = "ENDEAVOR_SMTP"
MAIL_FROM_VAR: Final = "ENDEAVOR_MAIL_FROM"
#: the SMTP password, for ``endeavor serve`` (rather than in the ``--smtp`` URL, which
#: anyone on the machine can read in ``ps``)
SMTP_PASSWORD_VAR: Final = "ENDEAVOR_SMTP_PASSWORD"
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
#: how long a claimed row is this worker's before another may take it (seconds), at
#: least: a row may wait in the queue behind others before its send starts, so the lease
#: is longer when sends may take longer (:meth:`Notifier.lease_seconds`: every send the
#: queue may hold, one after the other, each to its whole deadline, and a margin)
LEASE_SECONDS: Final = 120.0
#: the longest wait for a connection to a webhook or the mail server (seconds)
CONNECT_SECONDS: Final = 5.0
#: the longest a whole send may take (seconds): the webhook's name looked up, the
#: connection, TLS, the request and the whole answer, however slowly it trickles in (an
#: e-mail: the whole SMTP conversation); past it the send is cut off and counts as a
#: failed attempt
READ_SECONDS: Final = 10.0
#: the longest wait for the look-up of a webhook's host name when a player sets it
#: (``PUT /notify``; seconds): it runs on a thread of its own, never on a request's
LOOKUP_SECONDS: Final = 5.0
#: the most look-ups of host names under way at once in a process (a resolver that
#: hangs holds one each until it answers); past it a look-up fails at once
LOOKUPS: Final = 16
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
#: a row claimed until ``b_lease``, if it is still due, free and at ``b_seq``: each
#: claim counts as an attempt (a send cut off by a crash or a lease run out included)
_CLAIM: Final = (update(_O).where(and_(_ROW, _O.c.seq == bindparam("b_seq"),
                                       _O.c.due <= bindparam("b_now"), _FREE))
                 .values(lease_until=bindparam("b_lease"), attempts=_O.c.attempts + 1))
_MINE = and_(_ROW, _O.c.lease_until == bindparam("b_lease"))
_DELETE_SENT: Final = delete(_O).where(and_(_MINE, _O.c.seq == bindparam("b_seq")))
_AGAIN: Final = update(_O).where(_MINE).values(lease_until=None, due=bindparam("b_now"),
                                               attempts=0, last_error=None)
#: a claimed row handed back unsent: not an attempt
_RELEASE: Final = update(_O).where(_MINE).values(lease_until=None,
                                                 attempts=_O.c.attempts - 1)
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
    #: each send's whole deadline (see :data:`READ_SECONDS`; its connection gets at most
    #: :data:`CONNECT_SECONDS` of it)
    timeout: float = READ_SECONDS
    #: see :data:`LOOKUP_SECONDS`
    lookup_seconds: float = LOOKUP_SECONDS
    #: how often the outbox is looked at unwoken (see :data:`POLL_SECONDS`)
    poll_seconds: float = POLL_SECONDS
    #: see :data:`SENDERS`
    senders: int = SENDERS
    #: see :data:`QUEUE`
    queue: int = QUEUE
    #: see :data:`PRESENT_SECONDS`
    present_seconds: float = PRESENT_SECONDS
    #: a digest's period: at most one message an address in that time (seconds; see
    #: :mod:`endeavor.web.seating`)
    digest_seconds: float = seating.DIGEST_HOURS * 3600.0

    @classmethod
    def from_env(cls) -> NotifySettings:
        """The settings ``endeavor serve`` handed to this worker (plus the tuning of
        :data:`BACKOFF_VAR` and :data:`TIMEOUT_VAR`, for tests)."""
        extra: dict[str, Any] = {}
        backoff = os.environ.get(BACKOFF_VAR, "").strip()
        if backoff:
            with contextlib.suppress(ValueError):
                extra["backoff"] = tuple(max(0.0, float(x)) for x in backoff.split(","))
        digest = os.environ.get(seating.DIGEST_VAR, "").strip()
        if digest:
            with contextlib.suppress(ValueError):
                extra["digest_seconds"] = max(0.0, float(digest)) * 3600.0
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


def with_password(url: str, password: str) -> str:
    """The ``--smtp`` URL ``url`` (which has a user and no password) with ``password``
    written in."""
    parts = urlsplit(url)
    user, _, host = parts.netloc.rpartition("@")
    netloc = f"{user}:{quote(password, safe='')}@{host}"
    return parts._replace(netloc=netloc).geturl()


def valid_email(address: str) -> str:
    """``address`` as it is stored and mailed to (its domain in lower case), or
    :class:`BadRequest` in words: checked by ``email-validator`` (no look-up of the
    domain), ASCII only, without encoded words (``=?...?=``, which a mail header would
    decode into another address), quotes or control characters (NUL...)."""
    from email_validator import EmailNotValidError, validate_email

    if len(address) > MAX_EMAIL:
        raise BadRequest(f"an e-mail address has at most {MAX_EMAIL} characters")
    if any(c < " " or c == "\x7f" for c in address):
        raise BadRequest("an e-mail address has no control characters")
    if "=?" in address:
        raise BadRequest(f"{address!r} is not an e-mail address: encoded words (=?...?=) "
                         "are not taken")
    try:
        checked = validate_email(address, check_deliverability=False, allow_smtputf8=False,
                                 allow_quoted_local=False, allow_domain_literal=False)
    except EmailNotValidError as e:
        raise BadRequest(f"{address!r} is not an e-mail address: {e}") from None
    return str(checked.ascii_email or checked.normalized)


def redact_url(url: str) -> str:
    """A URL for a log line: its scheme and host only (a webhook's path is its secret)."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    return f"{parts.scheme}://{host}/…"


def redact_email(address: str) -> str:
    """An address for a log line: ``m…@example.org``."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}…@{domain}"


#: IPv6 addresses that carry an IPv4 address in their last 32 bits: IPv4-translated
#: (``::ffff:0:a.b.c.d``) and NAT64 (``64:ff9b::a.b.c.d``, ``64:ff9b:1::/48``)
_EMBEDDING: Final = (ipaddress.IPv6Network("::ffff:0:0:0/96"),
                     ipaddress.IPv6Network("64:ff9b::/96"),
                     ipaddress.IPv6Network("64:ff9b:1::/48"))
#: IPv4-compatible addresses (``::a.b.c.d``, deprecated: never a webhook's)
_COMPATIBLE: Final = ipaddress.IPv6Network("::/96")


def private_address(address: str) -> bool:
    """Whether the IP address ``address`` is one a webhook may not be on: loopback,
    private, link-local, site-local (``fec0::/10``), multicast or otherwise not global.
    An IPv6 address that carries an IPv4 one is judged by that too: IPv4-mapped
    (``::ffff:127.0.0.1``), IPv4-translated (``::ffff:0:127.0.0.1``), NAT64
    (``64:ff9b::127.0.0.1``), 6to4 (``2002:7f00:1::``) and Teredo; an IPv4-compatible
    one (``::127.0.0.1``) always is."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _COMPATIBLE or ip.is_site_local:
            return True
        carried: list[ipaddress.IPv4Address] = []
        if ip.ipv4_mapped is not None:
            carried.append(ip.ipv4_mapped)
        if any(ip in net for net in _EMBEDDING):
            carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if ip.sixtofour is not None:
            carried.append(ip.sixtofour)
        if ip.teredo is not None:
            carried.extend(ip.teredo)
        if any(not v4.is_global or v4.is_multicast for v4 in carried):
            return True
        if ip.ipv4_mapped is not None:  # a plain IPv4 address, as some systems give it
            return False
    return not ip.is_global or ip.is_multicast


class LookupTimeout(Exception):
    """A host name's look-up did not answer within ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no answer to the look-up within {seconds:g} s")
        self.seconds = seconds


#: a host's addresses as a look-up gives them: (family, socket address)
Addresses = list[tuple[int, Any]]


class Lookup:
    """Looks host names up (``socket.getaddrinfo``) on threads of their own, with a time
    limit: a resolver that hangs holds one of those threads until it answers (at most
    ``limit`` at once; past that a look-up fails at once), never its caller beyond the
    limit. An IP address needs no look-up and gets none."""

    def __init__(self, limit: int = LOOKUPS) -> None:
        self._slots = threading.BoundedSemaphore(max(1, limit))

    @staticmethod
    def literal(host: str, port: int) -> Addresses | None:
        """``host``'s address when it is an IP address (no look-up), else None."""
        try:
            ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return None
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_NUMERICHOST)
        return [(info[0], info[4]) for info in infos]

    def start(self, host: str, port: int) -> Future[Addresses]:
        """A look-up of ``host`` started on a thread of its own: its future."""
        future: Future[Addresses] = Future()
        if not self._slots.acquire(blocking=False):
            future.set_exception(socket.gaierror(socket.EAI_AGAIN, "too many look-ups "
                                                 "of host names are under way"))
            return future

        def run() -> None:
            try:
                infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
                result: Addresses = [(info[0], info[4]) for info in infos]
                with contextlib.suppress(Exception):  # cancelled: nobody waits
                    future.set_result(result)
            except BaseException as e:
                with contextlib.suppress(Exception):
                    future.set_exception(e)
            finally:
                self._slots.release()

        threading.Thread(target=run, name="endeavor-lookup", daemon=True).start()
        return future

    def __call__(self, host: str, port: int, timeout: float) -> Addresses:
        """``host``'s addresses, within ``timeout`` seconds (:class:`LookupTimeout`;
        ``socket.gaierror`` when it has none)."""
        known = self.literal(host, port)
        if known is not None:
            return known
        future = self.start(host, port)
        try:
            return future.result(max(0.0, timeout))
        except FutureTimeout:
            future.cancel()
            raise LookupTimeout(timeout) from None

    async def wait(self, host: str, port: int, timeout: float) -> Addresses:
        """The same, awaited by the event loop (no thread of the caller's waits)."""
        known = self.literal(host, port)
        if known is not None:
            return known
        try:
            return await asyncio.wait_for(asyncio.wrap_future(self.start(host, port)),
                                          max(0.0, timeout))
        except asyncio.TimeoutError:
            raise LookupTimeout(timeout) from None


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
    ``ended_by_host``), or ``test`` (a test the seat's player asked for). ``link`` is
    the seat's own link (it carries the seat's token), or the spectator link for a
    ``shared`` channel (a webhook several seats use: the seat is named by ``name``);
    ``also``: a digest's lines about the other games waiting (see
    :mod:`endeavor.web.seating`).

    ``chat``: the chat's messages the seat has not seen ("Ann wrote: ..."), ``chat_more``
    how many more there are, ``chat_upto`` the last message they cover (see chat.py)."""

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
    chat: tuple[str, ...] = ()
    chat_more: int = 0
    chat_upto: int = 0
    name: str = ""
    shared: bool = False
    also: tuple[str, ...] = ()
    #: the seats' names, by seat (empty: P0, P1, ...); see :mod:`endeavor.web.names`
    names: tuple[str, ...] = ()

    def who(self, seat: int, escape: Callable[[str], str] = str) -> str:
        """A seat in words: ``Anna (P1)``, or ``P1`` for a seat not named (the name
        through ``escape``: a player chose it)."""
        name = self.names[seat] if 0 <= seat < len(self.names) else f"P{seat}"
        return seat_words(escape(name), seat) if name != f"P{seat}" else name

    def result(self, escape: Callable[[str], str] = str) -> str:
        """Who won: ``Anna wins with 71 — Bea 67, Medium bot 62`` (names through
        ``escape``)."""
        names = tuple(escape(self.names[s]) if 0 <= s < len(self.names) else f"P{s}"
                      for s in range(max((x[0] for x in self.scores), default=-1) + 1))
        return result_line(self.scores, names)

    @property
    def review_url(self) -> str:
        """The finished game's page, opened on its Review."""
        return f"{self.game_url}#review"

    @property
    def subject(self) -> str:
        """The e-mail's subject and the notification's title."""
        if self.event == "test":
            return f"Endeavor: a test from {self.title}"
        if self.event == "over":
            return f"Endeavor: {self.title} is over"
        return f"Endeavor: your move in {self.title}"

    @property
    def round_words(self) -> str:
        return "setup" if self.round <= 0 else f"round {self.round} of {self.rounds}"

    def _lines(self, title: str, link: str,
               escape: Callable[[str], str] = str) -> list[str]:
        who = self.who(self.seat, escape)
        seat_line = (f"Watch the game: {link}" if self.shared else f"Your seat: {link}")
        if self.event == "test":
            return [f"A test message for {who} in {title}: this channel works.", seat_line]
        if self.event == "over":
            how = (" (ended by the host: the scores are counted as they stood)"
                   if self.ended_by_host else "")
            return [f"{title} is over{how}.",
                    f"{self.result(escape)}." if self.scores else "No scores.",
                    f"The review: {self.review_url}",
                    f"Watch the game: {link}" if self.shared
                    else f"Your seat ({who}): {link}"]
        lines = [f"{who}, it is your move in {title} ({self.round_words})."]
        if self.asked:
            lines.append(f"Asked: {self.asked}")
        if self.deadline is not None:
            lines.append(f"You have until {_when(self.deadline)} "
                         f"({until_words(self.deadline, utcnow())}).")
        lines.append(seat_line)
        lines.extend(self.also)
        return lines

    def _with_chat(self, lines: list[str], escape: Any = None) -> list[str]:
        """``lines`` and then the chat's unseen messages (``escape``d for a webhook's
        markup)."""
        if not self.chat:
            return lines
        more = (f"… and {self.chat_more} more message{'s' if self.chat_more != 1 else ''} "
                f"in the chat" if self.chat_more else None)
        said = [escape(line) if escape else line for line in self.chat]
        return [*lines, "", *said, *([more] if more else [])]

    def text(self) -> str:
        """The message in plain text (e-mail, ntfy)."""
        return "\n".join(self._with_chat(self._lines(self.title, self.link)))

    def webhook_body(self) -> dict[str, Any]:
        """The one JSON body every webhook gets (see docs/web.md, "Notifications"):
        ``content`` for Discord, ``text`` for Slack, ``title`` and ``message`` for
        ntfy's templates, and the structured fields."""
        # <link>: a link in both Discord (without a preview) and Slack
        discord = "\n".join(self._with_chat(self._lines(
            f"**{_discord_escape(self.title)}**", f"<{self.link}>", _discord_escape),
            _discord_escape))
        if len(discord) > DISCORD_MAX:
            discord = discord[:DISCORD_MAX - 1] + "…"
        return {
            "content": discord,
            "allowed_mentions": {"parse": []},
            "text": "\n".join(self._with_chat(self._lines(
                _slack_escape(self.title), f"<{self.link}>", _slack_escape), _slack_escape)),
            "title": self.subject,
            "message": self.text(),
            "event": self.event,
            "game": {"id": self.game_id, "title": self.title, "url": self.game_url},
            "seat": self.seat,
            "name": self.names[self.seat] if 0 <= self.seat < len(self.names) else None,
            "round": self.round,
            "rounds": self.rounds,
            "asked": self.asked,
            "deadline": self.deadline.isoformat() if self.deadline is not None else None,
            "link": self.link,
            "scores": ([{"seat": s, "total": total, "rank": rank,
                         "name": self.names[s] if 0 <= s < len(self.names) else None}
                        for s, total, rank in self.scores] if self.event == "over" else None),
            "chat": list(self.chat), "chat_more": self.chat_more,
            "result": self.result() if self.event == "over" else None,
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
    channel (None: removed since); ``attempts``: which attempt this is (1 the first)."""

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
    #: not sent now: due again then (the seat's page is visible, or a digest period runs)
    hold: datetime | None = None
    #: sent with the chat's messages up to this one (the seat's ``chat_seen`` moves there)
    chat_upto: int = 0

    @property
    def what(self) -> str:
        """What happened, in words: ``sent``, why it was not, or ``failed: ...``."""
        return self.said if self.done else f"failed: {self.words}"


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


def _io_words(e: BaseException, timeout: float) -> str:
    """A network error in words."""
    if isinstance(e, _ConnectTimeout):
        return f"could not connect within {min(CONNECT_SECONDS, timeout):g} s"
    if isinstance(e, LookupTimeout):
        return f"the host's name was not found within {e.seconds:g} s"
    if isinstance(e, (TimeoutError, socket.timeout)):
        return f"no complete answer within {timeout:g} s"
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
        #: looks up webhooks' host names, with a time limit (tests may replace it)
        self.lookup = Lookup()
        self._connections: list[http.client.HTTPConnection] = []  # all of them

    @property
    def lease_seconds(self) -> float:
        """How long a claimed row is this worker's (see :data:`LEASE_SECONDS`): longer
        than any row may wait in the queue and then be sent."""
        settings = self.settings
        rounds = -(-max(1, int(settings.queue)) // max(1, int(settings.senders)))
        return max(LEASE_SECONDS, settings.timeout * (rounds + 1) + 30.0)

    @property
    def email_available(self) -> bool:
        """Whether this server can send e-mail (``--smtp`` was given)."""
        return bool(self.settings.smtp and self.settings.mail_from)

    @staticmethod
    def webhook_parts(url: str) -> tuple[str, str, int]:
        """``url`` (stripped), its host and its port, or :class:`BadRequest` in words:
        an http(s) URL with a host and a port from 1 to 65535, without spaces or
        control characters. Nothing is looked up."""
        url = url.strip()
        if len(url) > MAX_URL:
            raise BadRequest(f"a webhook URL has at most {MAX_URL} characters")
        if any(c <= " " or c == "\x7f" for c in url):
            raise BadRequest("a webhook URL has no spaces or control characters")
        usage = ("a webhook is an http:// or https:// URL, e.g. https://ntfy.sh/your-topic "
                 "or a Discord or Slack webhook")
        try:
            parts = urlsplit(url)
            host = parts.hostname
        except ValueError:  # e.g. http://[::1 (an IPv6 address not closed)
            raise BadRequest(f"this webhook URL cannot be read: {usage}") from None
        if parts.scheme not in ("http", "https") or not host:
            raise BadRequest(usage)
        try:
            port = parts.port
        except ValueError:
            port = 0
        if port is not None and not 1 <= port <= 65535:
            raise BadRequest("the webhook's port is not a number from 1 to 65535")
        try:
            literal = Lookup.literal(host, 80) is not None
            if not literal:
                host.encode("idna")
        except (OSError, UnicodeError):
            raise BadRequest(f"the webhook's host {host!r} is not a host name") from None
        return url, host, port or (443 if parts.scheme == "https" else 80)

    def _judge(self, url: str, host: str, found: Addresses | BaseException) -> str:
        """``url`` once its ``host`` was looked up (``found``: its addresses, or why
        not)."""
        if isinstance(found, LookupTimeout):
            raise BadRequest(f"the webhook's host {host!r} was not found within "
                             f"{found.seconds:g} s (its name server does not answer)")
        if isinstance(found, BaseException):
            raise BadRequest(f"the webhook's host {host!r} cannot be found")
        if any(private_address(str(address[0])) for _family, address in found):
            raise BadRequest("this server does not send to webhooks on loopback or "
                             "private network addresses")
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

    def check_email(self, address: str) -> str:
        """``address`` as an e-mail target (as it is stored and mailed to: its domain
        in lower case), or :class:`BadRequest` in words. Checked by ``email-validator``
        (no look-up of the domain); ASCII only, and no encoded words (``=?...?=``,
        which a mail header decodes into another address) nor control characters."""
        address = address.strip()
        if not self.email_available:
            raise BadRequest("this server cannot send e-mail (it was started without "
                             "--smtp and --mail-from)")
        return valid_email(address)

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
                    if outcome.hold is not None:
                        job = outcome.job
                        conn.execute(*seating.hold_statement(
                            job.game_id, job.seat, job.channel, job.lease, outcome.hold))
                    elif outcome.done:
                        self._done(conn, outcome.job)
                        if outcome.said == "sent" and outcome.job.target is not None:
                            conn.execute(*seating.sent_statement(
                                outcome.job.channel, outcome.job.target, utcnow()))
                        if outcome.chat_upto > 0:  # the chat it told of is not told again
                            conn.execute(*chat.told_statement(
                                outcome.job.game_id, outcome.job.seat, outcome.chat_upto))
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
        """Claim up to ``limit`` due rows nobody holds (oldest first) for
        :attr:`lease_seconds`: each with one ``UPDATE`` that only one worker can win (a
        row whose ``seq`` moved meanwhile is left for the next look), and that counts
        the attempt."""
        now = now or utcnow()
        rows = self.store._read(lambda conn: list(conn.execute(
            _DUE, {"b_now": now, "b_limit": limit})))
        if not rows:
            return []
        lease = now + timedelta(seconds=self.lease_seconds)
        jobs = []
        with self.store._write_lock, self.store.engine.begin() as conn:
            for r in rows:
                won = conn.execute(_CLAIM, {"b_game": r.game_id, "b_seat": r.seat,
                                            "b_channel": r.channel, "b_seq": r.seq,
                                            "b_now": now, "b_lease": lease})
                if won.rowcount == 1:
                    jobs.append(_Job(r.game_id, int(r.seat), r.channel, int(r.seq),
                                     int(r.attempts) + 1, lease, r.target,
                                     r.link_token))
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
        attempts = job.attempts
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
        attempts = job.attempts
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
        if job.attempts > len(self.settings.backoff) + 1:  # earlier ones cut off unended
            return _Outcome(job, False, f"no attempt of {job.attempts - 1} ended", True,
                            shown)
        hold, mode, shared = seating.gate(self.store, job.game_id, job.seat, job.channel, target,
                                  self.settings.digest_seconds, utcnow())
        if hold is not None:
            return _Outcome(job, True, said="held back (the page is open, or a digest "
                            "period runs)", hold=hold)
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
        message = seating.for_channel(self, message, job.channel, target, mode, shared)
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
        return _Outcome(job, True, chat_upto=message.chat_upto)

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
            "link": self.links.seat(meta.id, token, absolute=True),
            "names": tuple(x.name for x in meta.seats)}
        common.update(self._chat(snap, seat))
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

    def _chat(self, snap: Snapshot, seat: int) -> dict[str, Any]:
        """The chat's messages ``seat`` has not seen, for its message (see chat.py)."""
        unseen = chat.unseen(self.store, snap, seat)
        return {"chat": unseen.lines, "chat_more": unseen.more, "chat_upto": unseen.upto}

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
        """POST ``message`` to ``url`` (:class:`SendError` in words on failure), within
        the settings' ``timeout`` in all. The private-address rule is checked again on
        the addresses the name has now, and the connection goes to one of those checked
        (see :meth:`_open`); redirects are not followed; the answer's body is not
        read."""
        body = json.dumps(message.webhook_body(), ensure_ascii=False).encode("utf-8")
        try:
            status, reason = self._post(url, body, message.webhook_headers())
        except _PrivateAddress:
            raise SendError("the webhook's host is now on a private network address: "
                            "not sent") from None
        except (OSError, _ConnectTimeout, LookupTimeout, http.client.HTTPException) as e:
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
        context = ssl.create_default_context()
        client: smtplib.SMTP
        if server.security == "tls":  # not connected yet: the watchdog comes first
            client = smtplib.SMTP_SSL(timeout=timeout, context=context)
        else:
            client = smtplib.SMTP(timeout=timeout)
        cut = threading.Event()

        def cut_off() -> None:  # the whole deadline passed: end the conversation
            cut.set()
            sock = client.sock
            if sock is not None:
                with contextlib.suppress(OSError):
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)

        watchdog = threading.Timer(timeout, cut_off)
        watchdog.daemon = True
        watchdog.start()
        try:
            with client:
                client.connect(server.host, server.port)
                if server.security == "starttls":
                    client.starttls(context=context)
                if server.user:
                    client.login(server.user, server.password or "")
                # to exactly the address stored, whatever the To header may be read as
                refused = client.send_message(mail, from_addr=sender, to_addrs=[address])
        except (smtplib.SMTPException, OSError) as e:
            raise self._smtp_error(e, timeout, cut.is_set()) from None
        finally:
            watchdog.cancel()
        if refused:
            raise SendError("the mail server refused the address", permanent=True)

    @staticmethod
    def _smtp_error(e: Exception, timeout: float, cut: bool) -> SendError:
        """What the mail server's error ``e`` means (``cut``: the send's deadline
        passed and the conversation was cut off)."""
        if cut:
            return SendError(f"the mail server did not finish within {timeout:g} s")
        if isinstance(e, smtplib.SMTPRecipientsRefused):
            return SendError("the mail server refused the address", permanent=True)
        if isinstance(e, smtplib.SMTPAuthenticationError):
            return SendError(f"the mail server refused the login ({e.smtp_code})")
        if isinstance(e, smtplib.SMTPResponseException):
            return SendError(f"the mail server answered {e.smtp_code}",
                             permanent=500 <= e.smtp_code < 600)
        if isinstance(e, smtplib.SMTPServerDisconnected):
            return SendError("the mail server closed the connection")
        return SendError(_io_words(e, timeout))
