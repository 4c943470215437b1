"""The sender: a dispatcher thread that looks at the outbox when woken or every poll,
claims due rows as the bounded queue has room, and hands them to a pool of sending
threads; each row is gated (a page open, a digest period), composed and sent on its
channel, and its outcome written back by the dispatcher."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, cast

from .. import seating
from ..store import StoreError, utcnow
from .accountmail import AccountMailer, MailJob
from .base import SendError
from .compose import Composer
from .outbox import Job, Outbox, Outcome
from .settings import MIN_GAP_SECONDS, redact_email, redact_url
from .webhook import WebhookChannel

if TYPE_CHECKING:
    from . import Notifier

log = logging.getLogger("endeavor.web")


class Sender(Outbox, Composer, WebhookChannel, AccountMailer):
    """The dispatcher and the sending threads, and one row's way from the outbox to its
    channel (:meth:`process`)."""

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
        mails = self.claim_mail(free - len(jobs))
        for mail in mails:
            with self._lock:
                self._in_flight += 1
            try:
                pool.submit(self._run_mail, mail)
            except RuntimeError:  # stopping: its lease runs out, another claim sends it
                with self._lock:
                    self._in_flight -= 1
        return len(jobs) + len(mails)

    def _run_mail(self, job: MailJob) -> None:
        try:
            self.send_account_mail(job)
        except Exception as e:  # a bug, or the database away: the lease runs out
            log.error("notifications: an account's %s mail: unexpected %s", job.kind,
                      type(e).__name__)
        with self._lock:
            self._in_flight -= 1
        self._wakeup.set()

    def _forget(self, future: Future[None]) -> None:
        with self._lock:
            self._jobs.pop(future, None)

    def _run(self, job: Job) -> None:
        try:
            outcome = self.process(job)
        except Exception as e:  # a bug: logged without what the message holds
            log.error("notifications: game %s P%d %s: unexpected %s", job.game_id, job.seat,
                      job.channel, type(e).__name__)
            outcome = Outcome(job, False, f"internal error ({type(e).__name__})")
        with self._lock:
            self._finished.append(outcome)
            self._in_flight -= 1
        self._wakeup.set()  # write it back, and there is room in the queue: look again

    def handle(self, job: Job) -> str:
        """Process the claimed row ``job`` here and now and write back what became of
        it (tests, and a tool driving the notifier by hand); what happened, in words."""
        outcome = self.process(job)
        with self._lock:
            self._finished.append(outcome)
        self.flush()
        return outcome.what

    def process(self, job: Job) -> Outcome:
        """Send the claimed row ``job`` (or drop it): what became of it (written back
        by :meth:`flush`)."""
        if job.target is None or job.token is None:
            log.info("notifications: game %s P%d %s not sent: the setting was removed",
                     job.game_id, job.seat, job.channel)
            return Outcome(job, True, said="the setting was removed")
        target, token = job.target, job.token
        shown = redact_email(target) if job.channel == "email" else redact_url(target)
        if job.attempts > len(self.settings.backoff) + 1:  # earlier ones cut off unended
            return Outcome(job, False, f"no attempt of {job.attempts - 1} ended", True,
                           shown)
        hold, mode, shared = seating.gate(self.store, job.game_id, job.seat, job.channel, target,
                                          self.settings.digest_seconds, utcnow())
        if hold is not None:
            return Outcome(job, True, said="held back (the page is open, or a digest "
                           "period runs)", hold=hold)
        try:
            # composed under the game's lock, from its cached position (not copied)
            message = self.store.peek(job.game_id,
                                      lambda snap: self.compose(snap, job.seat, token,
                                                                job.lang))
        except StoreError:
            return Outcome(job, True, said="the game is gone")
        if isinstance(message, str):
            log.info("notifications: game %s P%d %s not sent: %s", job.game_id, job.seat,
                     job.channel, message)
            return Outcome(job, True, said=message)
        message = seating.for_channel(cast("Notifier", self), message, job.channel, target,
                                      mode, shared)
        try:
            if job.channel == "webhook":
                self.send_webhook(target, message)
            elif job.channel == "email":
                self.send_email(target, message)
            else:
                raise SendError(f"unknown channel {job.channel!r}", permanent=True)
        except SendError as e:
            return Outcome(job, False, self._scrub(str(e), target, token), e.permanent,
                           shown)
        log.info("notifications: sent the %s of game %s to P%d by %s to %s", message.event,
                 job.game_id, job.seat, job.channel, shown)
        return Outcome(job, True, chat_upto=message.chat_upto)

    @staticmethod
    def _scrub(words: str, *secrets: str) -> str:
        for secret in secrets:
            if secret:
                words = words.replace(secret, "…")
        return words
