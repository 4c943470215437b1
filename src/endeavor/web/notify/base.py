"""What every part of the :class:`~endeavor.web.notify.Notifier` holds (its store,
links, settings, threads and connections: :class:`NotifierBase`), and a failed send
(:class:`SendError`)."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from endeavor.messages import Message, msg

from .addresses import Lookup
from .settings import LEASE_SECONDS, NotifySettings, parse_smtp

if TYPE_CHECKING:
    from ..links import Links
    from ..store import Store
    from .outbox import Job, Outcome


class SendError(Exception):
    """A send that failed, in words (never the target or the link); ``permanent``: no
    use trying again (the receiver said so). ``words``: the same as a message
    (:mod:`endeavor.web.view.checkwords`), to say it in another language; None when the
    words are another's (the system's name of a network error)."""

    def __init__(self, text: str, permanent: bool = False,
                 words: Message | None = None) -> None:
        super().__init__(text)
        self.permanent = permanent
        self.words = words

    @classmethod
    def said(cls, id: str, permanent: bool = False, **args: Any) -> SendError:
        """This error with the words of the declared message ``id`` (English as its
        text)."""
        words = msg(id, **args)
        return cls(words.render("en"), permanent, words)

    def reason(self, locale: str) -> str:
        """Why the send failed, in ``locale`` (English when no message says it)."""
        return str(self) if self.words is None else self.words.render(locale)


class NotifierBase:
    """The notifier's state, shared by the parts it is made of (see
    :mod:`endeavor.web.notify`)."""

    def __init__(self, store: Store, links: Links, settings: NotifySettings) -> None:
        self.store = store
        self.links = links
        self.settings = settings
        self._smtp = parse_smtp(settings.smtp) if settings.smtp else None
        self._wakeup = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._in_flight = 0  # rows claimed and not yet finished
        self._jobs: dict[Future[None], Job] = {}
        self._finished: list[Outcome] = []  # to be written back by the dispatcher
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

    def claim_rows(self, due: Any, claim: Any, limit: int, now: datetime,
                   key: Callable[[Any], dict[str, Any]]) -> tuple[list[Any], datetime]:
        """The rows of the query ``due`` (up to ``limit`` due at ``now``) this worker won,
        each with its own ``UPDATE`` ``claim`` (bound to ``key(row)``, ``b_now`` and
        ``b_lease``) that only one worker can win, in one transaction; and the end of
        their lease (:attr:`lease_seconds` from now)."""
        rows = self.store.read(lambda conn: list(conn.execute(
            due, {"b_now": now, "b_limit": limit})))
        lease = now + timedelta(seconds=self.lease_seconds)
        if not rows:
            return [], lease
        won = []
        with self.store.transaction() as conn:
            for r in rows:
                if conn.execute(claim, {**key(r), "b_now": now, "b_lease": lease}
                                ).rowcount == 1:
                    won.append(r)
        return won, lease

    @property
    def email_available(self) -> bool:
        """Whether this server can send e-mail (``--smtp`` was given)."""
        return bool(self.settings.smtp and self.settings.mail_from)
