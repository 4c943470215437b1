"""Turn notifications away from the page: a webhook and/or an e-mail per seat.

A seat's player chooses them (``PUT /api/games/{id}/notify``); the settings live in the
``notify`` table. When an entry of a game's log makes a seat the one to move (or ends the
game), the same transaction puts a row in ``outbox`` for each channel that seat set
(:mod:`endeavor.web.store`), so a crash loses none; the :class:`Notifier` of each server
process sends them in the background, after the commit, with retries: a slow or dead
receiver never delays or loses a move.

(Sending is being built: this module holds the settings and the checks of what a player
may set.)
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from .store import BadRequest

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

    @classmethod
    def from_env(cls) -> NotifySettings:
        return cls(os.environ.get(SMTP_VAR) or None, os.environ.get(MAIL_FROM_VAR) or None,
                   os.environ.get(PRIVATE_VAR, "") not in ("", "0"))


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


class Notifier:
    """Sends ``store``'s waiting notifications (see the module's doc)."""

    def __init__(self, store: Store, links: Links, settings: NotifySettings) -> None:
        self.store = store
        self.links = links
        self.settings = settings

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
                infos = socket.getaddrinfo(parts.hostname, parts.port or 443,
                                           type=socket.SOCK_STREAM)
            except (socket.gaierror, UnicodeError):
                raise BadRequest(f"the webhook's host {parts.hostname!r} cannot be "
                                 "found") from None
            if any(_private(str(info[4][0])) for info in infos):
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

    def wake(self, game_id: str, seq: int) -> None:
        """A commit happened in this process: look at the outbox soon."""

    def start(self) -> None:
        """Start sending in the background."""

    def stop(self) -> None:
        """Stop sending (what is waiting stays in the outbox for the next start)."""
