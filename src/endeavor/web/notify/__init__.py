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

How the package is laid out: :class:`Notifier` is one object made of parts over one
base holding its state (:class:`~endeavor.web.notify.base.NotifierBase`), each in a
module of its own: :mod:`.sender` (the dispatcher, the sending threads, one row's way),
:mod:`.outbox` (claims, leases, retries), :mod:`.compose` (what a message says, read
from the game), :mod:`.webhook` (the webhook channel), :mod:`.mail` (the e-mail
channel); :mod:`.message` is a message's words, :mod:`.addresses` the address guard
and the look-ups of host names, :mod:`.settings` the settings and tuning. (Digests and
the shared webhooks are :mod:`endeavor.web.seating`'s.) Everything is imported from
this package (``from endeavor.web.notify import Notifier, Message``).
"""

from __future__ import annotations

from .addresses import Addresses, Lookup, LookupTimeout, private_address
from .base import SendError
from .message import DISCORD_MAX, Message
from .sender import Sender, log
from .settings import (
    BACKOFF_SECONDS,
    BACKOFF_VAR,
    CONNECT_SECONDS,
    EMAIL,
    LEASE_SECONDS,
    LOOKUP_SECONDS,
    LOOKUPS,
    MAIL_FROM_VAR,
    MAX_EMAIL,
    MAX_ERROR,
    MAX_URL,
    MIN_GAP_SECONDS,
    POLL_SECONDS,
    PRESENT_SECONDS,
    PRIVATE_VAR,
    QUEUE,
    READ_SECONDS,
    SENDERS,
    SMTP_PASSWORD_VAR,
    SMTP_VAR,
    TIMEOUT_VAR,
    NotifySettings,
    SmtpServer,
    parse_smtp,
    redact_email,
    redact_url,
    valid_email,
    with_password,
)

__all__ = [
    "BACKOFF_SECONDS", "BACKOFF_VAR", "CONNECT_SECONDS", "DISCORD_MAX", "EMAIL",
    "LEASE_SECONDS", "LOOKUPS", "LOOKUP_SECONDS", "MAIL_FROM_VAR", "MAX_EMAIL", "MAX_ERROR",
    "MAX_URL", "MIN_GAP_SECONDS", "POLL_SECONDS", "PRESENT_SECONDS", "PRIVATE_VAR", "QUEUE",
    "READ_SECONDS", "SENDERS", "SMTP_PASSWORD_VAR", "SMTP_VAR", "TIMEOUT_VAR", "Addresses",
    "Lookup", "LookupTimeout", "Message", "Notifier", "NotifySettings", "SendError",
    "SmtpServer", "log", "parse_smtp", "private_address", "redact_email", "redact_url",
    "valid_email", "with_password"]


class Notifier(Sender):
    """Sends ``store``'s waiting notifications (see the package's doc).

    :meth:`start` starts a dispatcher thread and a pool of ``settings.senders`` sending
    threads, :meth:`wake` (a listener of the store: called after each commit of this
    process) makes it look at the outbox at once, :meth:`stop` ends it (what is not
    sent stays in the outbox for the next start).

    Made of the parts in this package's modules; the constructor is
    ``Notifier(store, links, settings)``."""
