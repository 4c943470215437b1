"""The outbox as the sender sees it: due rows claimed with a lease (one worker wins each),
and what became of them written back (deleted when sent, retried after the backoff,
given up after the last attempt)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import Connection, and_, bindparam, delete, or_, select, update

from .. import chat, db, seating
from ..store import utcnow
from .base import NotifierBase
from .settings import MAX_ERROR

log = logging.getLogger("endeavor.web")

# the outbox's statements, built once (building one costs more than running it)
_O, _N = db.outbox, db.notify
_FREE = or_(_O.c.lease_until.is_(None), _O.c.lease_until < bindparam("b_now"))
#: the due rows nobody holds, oldest first, with their seat's setting (if still set)
_DUE: Final = (
    select(_O.c.game_id, _O.c.seat, _O.c.channel, _O.c.seq, _O.c.attempts, _N.c.target,
           _N.c.link_token, _N.c.lang)
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
class Job:
    """An outbox row this worker claimed until ``lease``, with the seat's setting on its
    channel (None: removed since) and the language of its messages; ``attempts``: which
    attempt this is (1 the first)."""

    game_id: str
    seat: int
    channel: str
    seq: int
    attempts: int
    lease: datetime
    target: str | None = None
    token: str | None = None
    lang: str = "en"


@dataclass(frozen=True)
class Outcome:
    """What became of a claimed row: ``done`` (sent, or not to be sent: deleted unless a
    newer event came for it) or a failure (``words``, ``permanent``; ``shown``: the
    target as a log line may show it)."""

    job: Job
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


class Outbox(NotifierBase):
    """Claims, and the outcomes written back."""

    def flush(self) -> int:
        """Write back what became of the rows finished since the last flush, in one
        transaction; how many."""
        with self._lock:
            finished, self._finished = self._finished, []
        if not finished:
            return 0
        try:
            with self.store.transaction() as conn:
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

    def claim(self, limit: int, now: datetime | None = None) -> list[Job]:
        """Claim up to ``limit`` due rows nobody holds (oldest first) for
        :attr:`lease_seconds`: each with one ``UPDATE`` that only one worker can win (a
        row whose ``seq`` moved meanwhile is left for the next look), and that counts
        the attempt."""
        won, lease = self.claim_rows(_DUE, _CLAIM, limit, now or utcnow(), lambda r: {
            "b_game": r.game_id, "b_seat": r.seat, "b_channel": r.channel, "b_seq": r.seq})
        return [Job(r.game_id, int(r.seat), r.channel, int(r.seq), int(r.attempts) + 1,
                    lease, r.target, r.link_token, r.lang or "en") for r in won]

    @staticmethod
    def _key(job: Job) -> dict[str, Any]:
        """The bound parameters naming ``job``'s row as this worker claimed it."""
        return {"b_game": job.game_id, "b_seat": job.seat, "b_channel": job.channel,
                "b_lease": job.lease}

    def _done(self, conn: Connection, job: Job) -> None:
        """The row was sent or is not to be sent: delete it, unless a new event came
        for it meanwhile (its ``seq`` moved): then it is due again at once."""
        gone = conn.execute(_DELETE_SENT, {**self._key(job), "b_seq": job.seq})
        if gone.rowcount == 0:
            conn.execute(_AGAIN, {**self._key(job), "b_now": utcnow()})

    def _release(self, jobs: Sequence[Job]) -> None:
        """Hand claimed rows back untouched (due at once)."""
        with self.store.transaction() as conn:
            for job in jobs:
                conn.execute(_RELEASE, self._key(job))

    def _failed(self, conn: Connection, outcome: Outcome) -> None:
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

    def _log_failure(self, outcome: Outcome) -> None:
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
