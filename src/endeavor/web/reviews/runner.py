"""The reviews' runner: a :class:`Reviewer` claims a queued review, runs it with its
progress written back and its lease renewed, and writes its result (see the
package's doc)."""


from __future__ import annotations

import contextlib
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from endeavor.analysis.review import ReviewedDecision, record_digest, review
from endeavor.errors import EndeavorError

from ..compute import Engines
from ..store import NotFound, Store, utcnow
from .queue import (
    _CLAIM,
    _DONE,
    _DROP,
    _DUE,
    _FAILED,
    _GIVE_UP,
    _PROGRESS,
    _R,
    _RELEASE,
    _RENEW,
    MAX_ATTEMPTS,
    MAX_ERROR,
    ReviewSettings,
    log,
    moves_of,
)


class _Lost(Exception):
    """The run's row is no longer this run's (taken over, reset, deleted)."""


class _Stopping(Exception):
    """The reviewer is stopping: the run hands its row back, with its progress."""


@dataclass(frozen=True)
class Job:
    """A review this worker claimed: the game, the budget, this run's ``worker`` name,
    and the decisions an interrupted run had saved (``partial``: its JSON, or None)."""

    game_id: str
    iterations: int
    worker: str
    partial: str | None = None


class Reviewer:
    """Runs the queued reviews of ``store``'s database (see the module's doc), one at a
    time, in a thread of its own: :meth:`start`, :meth:`stop`, :meth:`wake` (a store
    listener: look at the table soon). :meth:`claim` and :meth:`run` do one review by
    hand (tests; ``hook(done, total)`` is called after each decision's progress).
    ``engines``: where the reviews are computed (:mod:`endeavor.web.compute`: an engine
    worker, on the compiled engine when there is one; None: in this process)."""

    def __init__(self, store: Store, settings: ReviewSettings | None = None,
                 hook: Callable[[int, int], None] | None = None,
                 engines: Engines | None = None) -> None:
        self.store = store
        self.engines = engines
        self.settings = settings or ReviewSettings()
        self.hook = hook
        self._wakeup = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        #: how many decisions this reviewer computed (not those resumed), for tests
        self.computed = 0

    def wake(self, game_id: str = "", seq: int = 0) -> None:
        self._wakeup.set()

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._loop, name="endeavor-reviewer",
                                        daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop: a review under way hands its row back with its progress at its next
        decision (another worker, or the next start, resumes it)."""
        self._stopping.set()
        self._wakeup.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _loop(self) -> None:
        self._lower_priority()
        failing = False
        while not self._stopping.is_set():
            try:
                job = self.claim()
                failing = False
            except Exception as e:  # the database is away: said once, tried again
                if not failing:
                    log.warning("reviews: cannot read the queue (%s); trying again",
                                type(e).__name__)
                failing = True
                job = None
            if job is not None:
                self.run(job)
                continue  # the next one at once
            self._wakeup.wait(self.settings.poll_seconds)
            self._wakeup.clear()

    def _lower_priority(self) -> None:
        """This thread's niceness raised by ``settings.nice`` (Linux keeps it per thread:
        the process's other threads keep theirs)."""
        if self.settings.nice <= 0:
            return
        with contextlib.suppress(AttributeError, OSError):
            tid = threading.get_native_id()
            now = os.getpriority(os.PRIO_PROCESS, tid)
            os.setpriority(os.PRIO_PROCESS, tid, min(19, now + self.settings.nice))

    # ------------------------------------------------------------------ the queue
    def claim(self, now: datetime | None = None) -> Job | None:
        """Claim the oldest waiting review nobody holds, for this worker (one
        ``UPDATE`` per row that only one worker can win); None when there is none.
        A row claimed :data:`MAX_ATTEMPTS` times without progress is marked failed."""
        now = now or utcnow()
        rows = self.store.read(lambda conn: list(conn.execute(
            _DUE, {"b_now": now, "b_limit": 8})))
        for r in rows:
            attempts = int(r.attempts)
            key = {"b_game": r.game_id, "b_attempts": attempts, "b_now": now}
            if attempts >= MAX_ATTEMPTS:
                with self.store.transaction() as conn:
                    gave_up = conn.execute(_GIVE_UP, {
                        **key, "b_error": f"the review was interrupted {attempts} times "
                                          "without progress (its worker died each time)"})
                if gave_up.rowcount:
                    log.warning("reviews: game %s given up after %d attempts", r.game_id,
                                attempts)
                continue
            worker = secrets.token_hex(8)
            lease = now + timedelta(seconds=self.settings.lease_seconds)
            with self.store.transaction() as conn:
                won = conn.execute(_CLAIM, {**key, "b_worker": worker, "b_lease": lease,
                                            "b_started": now}).rowcount == 1
                row = conn.execute(select(_R.c.iterations, _R.c.partial)
                                   .where(_R.c.game_id == r.game_id)).first() if won else None
            if row is not None:
                return Job(r.game_id, int(row.iterations), worker, row.partial)
        return None

    def _write(self, statement: Any, job: Job, **values: Any) -> bool:
        """Run ``statement`` on ``job``'s row if it is still this run's."""
        with self.store.transaction() as conn:
            return conn.execute(statement, {"b_game": job.game_id, "b_worker": job.worker,
                                            **values}).rowcount == 1

    def renew(self, job: Job, lease: datetime) -> bool:
        """Extend this run's lease on ``job`` to ``lease``; False when the row is no longer
        this run's (another reviewer took the job over after the lease ran out)."""
        return self._write(_RENEW, job, b_lease=lease)

    @contextlib.contextmanager
    def _heartbeat(self, job: Job, lost: threading.Event) -> Iterator[None]:
        """Renew ``job``'s lease every third of it until the block ends (``lost`` set
        when the row turns out no longer ours)."""
        done = threading.Event()
        period = self.settings.lease_seconds / 3

        def beat() -> None:
            while not done.wait(period):
                try:
                    lease = utcnow() + timedelta(seconds=self.settings.lease_seconds)
                    if not self.renew(job, lease):
                        lost.set()
                        return
                except Exception as e:  # the database is away: the next beat tries again
                    log.warning("reviews: cannot renew the lease of game %s (%s)",
                                job.game_id, type(e).__name__)

        thread = threading.Thread(target=beat, name="endeavor-review-lease", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join(5)

    def run(self, job: Job) -> str:
        """Review ``job``'s game and write back what became of it: ``done``,
        ``failed``, ``dropped`` (the game is no longer over), ``lost`` (the row was
        taken over or reset meanwhile), ``stopped`` (handed back, with its progress) or
        ``interrupted`` (the database failed: left to be resumed when the lease runs
        out)."""
        try:
            snap = self.store.snapshot(job.game_id)
        except NotFound:
            return "dropped"  # the game is gone, and its row with it
        except DBAPIError:
            return "interrupted"  # resumed once the lease runs out
        except Exception as e:
            return self._fail(job, e)
        if not snap.over:
            self._write(_DROP, job)
            return "dropped"
        record = snap.state.record()
        digest = record_digest(record["config"], record["actions"])
        known = _read_partial(job.partial, digest, job.iterations)
        run = _Progress(self, job, digest, known)
        try:
            with self._heartbeat(job, run.lost):
                result = self._review(record, job, run, known)
                moves = moves_of(record, result.decisions)
            total = len(result.decisions)
            if not self._write(_DONE, job, b_total=total, b_result=result.to_json(),
                               b_moves=json.dumps(moves, separators=(",", ":")),
                               b_now=utcnow()):
                raise _Lost()
        except _Lost:
            log.info("reviews: game %s was taken over or reset during its review",
                     job.game_id)
            return "lost"
        except _Stopping:
            with contextlib.suppress(Exception):
                self._write(_RELEASE, job, b_done=run.counts[0], b_total=run.counts[1],
                            b_partial=run.partial_json())
            return "stopped"
        except DBAPIError as e:  # the database is away: taken over (resumed) once the
            # lease runs out, by this worker or another
            log.warning("reviews: the review of game %s was interrupted: the database "
                        "failed (%s); it resumes later", job.game_id, type(e.orig).__name__)
            return "interrupted"
        except Exception as e:
            return self._fail(job, e)
        log.info("reviews: game %s reviewed (%d decisions, %d iterations each)",
                 job.game_id, total, job.iterations)
        return "done"

    def _review(self, record: dict[str, Any], job: Job, run: _Progress,
                known: tuple[ReviewedDecision, ...]) -> Any:
        """Review ``record``: in an engine worker when there is one, else (or when it
        fails: from the decisions it got to) in this thread."""
        options: dict[str, Any] = {"iterations": job.iterations, "workers": 1}
        if self.engines is not None:
            result = self.engines.review(record, options, known, {
                "progress": run.progress, "on_decision": run.on_decision})
            if result is not None:
                return result
            known = tuple(run.saved)
        return review(record, progress=run.progress, known=known,
                      on_decision=run.on_decision, **options)

    def _fail(self, job: Job, e: Exception) -> str:
        words = " ".join(str(e).split()) or type(e).__name__
        if not isinstance(e, EndeavorError):
            words = f"{type(e).__name__}: {words}"
            log.error("reviews: the review of game %s failed", job.game_id, exc_info=e)
        else:
            log.warning("reviews: the review of game %s failed: %s", job.game_id, words)
        with contextlib.suppress(Exception):
            self._write(_FAILED, job, b_error=words[:MAX_ERROR], b_now=utcnow())
        return "failed"

    def run_once(self) -> str | None:
        """Claim one review and run it here (tests): what became of it, or None when
        nothing waits."""
        job = self.claim()
        return None if job is None else self.run(job)


def _read_partial(text: str | None, digest: str, iterations: int,
                  ) -> tuple[ReviewedDecision, ...]:
    """The decisions an interrupted run saved, if they are of this record and budget."""
    if not text:
        return ()
    try:
        data = json.loads(text)
        if data.get("digest") != digest or data.get("iterations") != iterations:
            return ()
        return tuple(ReviewedDecision.from_dict(d) for d in data["decisions"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return ()


class _Progress:
    """A run's progress: the decisions reviewed (those of an interrupted run first),
    written back with the counts at most every ``settings.flush_seconds`` (and at the
    first and the last decision); a lost row or a stopping reviewer ends the run."""

    def __init__(self, reviewer: Reviewer, job: Job, digest: str,
                 known: tuple[ReviewedDecision, ...]) -> None:
        self.reviewer = reviewer
        self.job = job
        self.digest = digest
        self.saved: list[ReviewedDecision] = list(known)
        self.counts = [len(known), 0]  # decisions done, of the total
        self.flushed = 0.0  # when the progress was last written (monotonic clock)
        self.lost = threading.Event()

    def partial_json(self) -> str:
        return json.dumps({"digest": self.digest, "iterations": self.job.iterations,
                           "decisions": [d.to_dict() for d in self.saved]})

    def flush(self) -> None:
        settings = self.reviewer.settings
        lease = utcnow() + timedelta(seconds=settings.lease_seconds)
        if not self.reviewer._write(_PROGRESS, self.job, b_done=self.counts[0],
                                    b_total=self.counts[1], b_partial=self.partial_json(),
                                    b_lease=lease):
            raise _Lost()
        self.flushed = time.monotonic()

    def on_decision(self, d: ReviewedDecision) -> None:
        self.saved.append(d)
        self.reviewer.computed += 1

    def progress(self, done: int, total: int) -> None:
        reviewer = self.reviewer
        self.counts[:] = [done, total]
        if self.lost.is_set():
            raise _Lost()
        if reviewer._stopping.is_set():
            raise _Stopping()
        if not self.flushed or done == total or (
                time.monotonic() - self.flushed >= reviewer.settings.flush_seconds):
            self.flush()
        if reviewer.hook is not None:
            reviewer.hook(done, total)
        if reviewer.settings.delay > 0 and done < total:
            time.sleep(reviewer.settings.delay)
