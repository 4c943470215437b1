"""How a server sends notifications: its settings (:class:`NotifySettings`, from the
environment ``endeavor serve`` hands its workers), the tuning of the sender, the mail
server (:func:`parse_smtp`), e-mail addresses checked (:func:`valid_email`) and targets
as a log line may show them (:func:`redact_url`, :func:`redact_email`)."""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote, urlsplit

from endeavor.messages import Count

from .. import seating
from ..store import BadRequest
from ..view import checkwords as words

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
EMAIL: Final = re.compile(r"^[^@\s<>()\[\],;:\"\\]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?"
                           r"\.[A-Za-z]{2,}$")


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
        raise BadRequest.said(words.EMAIL_LONG, most=Count(MAX_EMAIL, words.CHARACTER))
    if any(c < " " or c == "\x7f" for c in address):
        raise BadRequest.said(words.EMAIL_CONTROL)
    if "=?" in address:
        raise BadRequest.said(words.EMAIL_ENCODED, address=address)
    try:
        checked = validate_email(address, check_deliverability=False, allow_smtputf8=False,
                                 allow_quoted_local=False, allow_domain_literal=False)
    except EmailNotValidError as e:
        raise BadRequest.said(words.EMAIL_INVALID, address=address, reason=str(e)) from None
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
