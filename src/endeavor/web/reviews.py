"""Post-game reviews in the web app: every finished game's decisions judged
by :func:`endeavor.analysis.review.review`, in the background, the result kept in the database.

**Queued.** The log entry that ends a game (the last action, or the host's end) writes a
row in ``reviews`` in its own transaction (:meth:`endeavor.web.store.Store._commit`):
one more ``INSERT`` beside the move, so a crash cannot lose the job and the move is
acknowledged as soon as it is committed; the review runs later, elsewhere. So does the
import of a finished record. A finished game without a row (one that ended before this
existed, or while reviews were off) gets one on request (``POST
/api/games/{id}/review``), and so does a failed review. A game that ends again after an
undo has its row reset.

**Run.** A :class:`Reviewer` (``endeavor serve``'s background process,
:mod:`endeavor.web.jobs`, or a thread of an app made in-process) looks at the table
every :data:`POLL_SECONDS`, claims the oldest waiting row with an ``UPDATE`` that exactly
one worker wins (``worker``, a random name of this run, and ``lease_until``, renewed
every third of :data:`LEASE_SECONDS` while it runs), and reviews the game's record with
the row's budget, every seat, in this one process (``workers=1``: one core, in a thread
given a lower priority, :data:`NICE`). While it runs it writes, at most every
:data:`FLUSH_SECONDS`, the decisions done and the total and the decisions reviewed so
far (``partial``); a worker that finds the lease of a ``running`` row expired (its
reviewer died, or its server was restarted) takes it over and resumes from ``partial``
(:func:`endeavor.analysis.review.review`'s ``known``): the result is the same. Every write of a
run names its ``worker``, so a run whose row was taken over or reset stops at its next
write. Done: ``result`` (the review's JSON, exactly
:meth:`endeavor.analysis.review.Review.to_json`) and ``moves`` (each decision's move played and
best move in words, with the board elements they are clicked on, for the replay
viewer). An exception is ``failed`` with its reason in words (and logged); a row claimed
:data:`MAX_ATTEMPTS` times in a row without progress (its reviewer killed each time) is
given up as failed. A row whose game is no longer over (its end undone) is deleted.

**Read.** :func:`status_json` is ``GET /api/games/{id}/review``'s answer (docs/web.md).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import and_, bindparam, delete, func, or_, select, update
from sqlalchemy.exc import DBAPIError

from endeavor import actions as A
from endeavor.analysis.review import MAX_ITERATIONS, ReviewedDecision, record_digest, review
from endeavor.errors import EndeavorError
from endeavor.records import RECORD_FORMAT, replay

from . import db
from .store import Conflict, NotFound, Store, utc, utcnow
from .view import plain_words, targets_of

log = logging.getLogger("endeavor.web")

#: the statuses of a game's review (``none``: no row)
STATUSES: Final = ("none", "queued", "running", "done", "failed")
#: ``endeavor serve --review-iterations``'s default: iterations of the hard bot's search
#: per decision (the command line's ``endeavor review`` uses 1000). A 2-player game of
#: ~100 decisions takes ~5 s of one core, a 4-player game of ~250 about 15-20 s
DEFAULT_ITERATIONS: Final = 200
#: the environment through which ``endeavor serve`` hands its settings to the workers
#: and the background process
ITERATIONS_VAR: Final = "ENDEAVOR_REVIEW_ITERATIONS"
#: set to ``background`` by ``endeavor serve``: its web workers queue reviews and leave
#: running them to the background process
RUNNER_VAR: Final = "ENDEAVOR_REVIEWER"
#: tuning for tests: a pause after each decision (seconds) and the lease (seconds)
DELAY_VAR: Final = "ENDEAVOR_REVIEW_DELAY"
LEASE_VAR: Final = "ENDEAVOR_REVIEW_LEASE"
#: how often the table is looked at for a review to run (seconds)
POLL_SECONDS: Final = 1.0
#: how long a claimed review is its worker's before another may take it over (seconds);
#: renewed every third of it while the review runs
LEASE_SECONDS: Final = 60.0
#: the shortest time between two writes of a running review's progress (seconds)
FLUSH_SECONDS: Final = 1.0
#: how many claims in a row that made no progress before a review is given up
MAX_ATTEMPTS: Final = 3
#: the niceness added to the thread that reviews (Linux: per thread; elsewhere ignored)
NICE: Final = 10
#: the longest ``reviews.error`` kept
MAX_ERROR: Final = 200

_R = db.reviews
_FREE = or_(_R.c.lease_until.is_(None), _R.c.lease_until < bindparam("b_now"))
_WAITING = and_(_R.c.status.in_(("queued", "running")), _FREE)
#: the waiting rows nobody holds (a ``running`` one: its worker's lease ran out), oldest
#: first
_DUE: Final = (select(_R.c.game_id, _R.c.attempts).where(_WAITING)
               .order_by(_R.c.queued).limit(bindparam("b_limit")))
_CLAIM: Final = (
    update(_R).where(and_(_R.c.game_id == bindparam("b_game"),
                          _R.c.attempts == bindparam("b_attempts"), _WAITING))
    .values(status="running", worker=bindparam("b_worker"),
            lease_until=bindparam("b_lease"), attempts=_R.c.attempts + 1,
            started=func.coalesce(_R.c.started, bindparam("b_started"))))
_GIVE_UP: Final = (
    update(_R).where(and_(_R.c.game_id == bindparam("b_game"),
                          _R.c.attempts == bindparam("b_attempts"), _WAITING))
    .values(status="failed", worker=None, lease_until=None, error=bindparam("b_error"),
            partial=None, finished=bindparam("b_now")))
_MINE = and_(_R.c.game_id == bindparam("b_game"), _R.c.worker == bindparam("b_worker"),
             _R.c.status == "running")
_RENEW: Final = update(_R).where(_MINE).values(lease_until=bindparam("b_lease"))
_PROGRESS: Final = update(_R).where(_MINE).values(
    done=bindparam("b_done"), total=bindparam("b_total"), partial=bindparam("b_partial"),
    attempts=0, lease_until=bindparam("b_lease"))
_RELEASE: Final = update(_R).where(_MINE).values(
    done=bindparam("b_done"), total=bindparam("b_total"), partial=bindparam("b_partial"),
    worker=None, lease_until=None)
_DONE: Final = update(_R).where(_MINE).values(
    status="done", done=bindparam("b_total"), total=bindparam("b_total"),
    result=bindparam("b_result"), moves=bindparam("b_moves"), partial=None, worker=None,
    lease_until=None, error=None, attempts=0, finished=bindparam("b_now"))
_FAILED: Final = update(_R).where(_MINE).values(
    status="failed", worker=None, lease_until=None, error=bindparam("b_error"),
    partial=None, finished=bindparam("b_now"))
_DROP: Final = delete(_R).where(_MINE)
_ROW: Final = select(_R.c.status, _R.c.iterations, _R.c.done, _R.c.total, _R.c.error,
                     _R.c.queued, _R.c.started, _R.c.finished, _R.c.result,
                     _R.c.moves).where(_R.c.game_id == bindparam("b_game"))


# --------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class ReviewSettings:
    """How a server reviews: ``iterations`` of the hard bot per decision (0: no reviews
    are queued; the ones queued before still run with their own budget), and the
    tuning of :class:`Reviewer` (see the module's constants; ``delay``: a pause after
    each decision, for tests)."""

    iterations: int = DEFAULT_ITERATIONS
    poll_seconds: float = POLL_SECONDS
    lease_seconds: float = LEASE_SECONDS
    flush_seconds: float = FLUSH_SECONDS
    delay: float = 0.0
    nice: int = NICE

    @property
    def enabled(self) -> bool:
        return self.iterations > 0

    @classmethod
    def from_env(cls) -> ReviewSettings:
        """The settings ``endeavor serve`` handed over (:data:`ITERATIONS_VAR`, default
        :data:`DEFAULT_ITERATIONS`; :data:`DELAY_VAR` and :data:`LEASE_VAR` for tests)."""
        extra: dict[str, Any] = {}
        raw = os.environ.get(ITERATIONS_VAR, "").strip()
        if raw:
            try:
                extra["iterations"] = check_iterations(int(raw))
            except ValueError:
                log.warning("ignoring %s=%r: not 0 to %d", ITERATIONS_VAR, raw,
                            MAX_ITERATIONS)
        for var, key, low in ((DELAY_VAR, "delay", 0.0), (LEASE_VAR, "lease_seconds", 0.3)):
            value = os.environ.get(var, "").strip()
            if value:
                with contextlib.suppress(ValueError):
                    extra[key] = max(low, float(value))
        return cls(**extra)


def check_iterations(value: int) -> int:
    """``value`` as a review budget: 0 (no reviews) to ``MAX_ITERATIONS``; else
    :class:`ValueError`."""
    if not 0 <= value <= MAX_ITERATIONS:
        raise ValueError(f"must be 0 (no reviews) to {MAX_ITERATIONS:,} iterations, "
                         f"not {value}")
    return value


# --------------------------------------------------------------------------- reading
def _iso(dt: datetime | None) -> str | None:
    return utc(dt).isoformat() if dt is not None else None


def status_json(store: Store, game_id: str, enabled: bool) -> bytes:
    """``GET /api/games/{id}/review`` (docs/web.md): the finished game's review, its
    status, progress and, once done, the review's JSON and the moves in words, as JSON
    bytes (the stored review is sent as it is, not parsed). :class:`NotFound` for an
    unknown game, :class:`Conflict` for one not over."""
    over, actions = store.peek(game_id, lambda snap: (snap.over, len(snap.effective)))
    if not over:
        raise Conflict("the game is not over: its review is made once it has ended")
    row = store._read(lambda conn: conn.execute(_ROW, {"b_game": game_id}).first())
    head: dict[str, Any] = {"id": game_id, "enabled": enabled, "actions": actions,
                            "status": "none", "iterations": None, "done": 0, "total": None,
                            "error": None, "queued": None, "started": None,
                            "finished": None, "eta_seconds": None}
    result: str | None = None
    moves: str | None = None
    if row is not None:
        head.update(status=row.status, iterations=int(row.iterations), done=int(row.done),
                    total=None if row.total is None else int(row.total), error=row.error,
                    queued=_iso(row.queued), started=_iso(row.started),
                    finished=_iso(row.finished))
        if row.status == "done":
            result, moves = row.result, row.moves
        head["eta_seconds"] = eta_seconds(row.status, head["done"], head["total"],
                                          row.started, utcnow())
    text = json.dumps(head)
    return (text[:-1] + ', "review": ' + (result or "null") + ', "moves": '
            + (moves or "null") + "}").encode()


def eta_seconds(status: str, done: int, total: int | None, started: datetime | None,
                now: datetime) -> float | None:
    """A running review's estimated time left (seconds): the decisions still to review
    at the pace of those reviewed since it started. None until one is done (no pace
    yet), or when it is not running."""
    if status != "running" or not total or done <= 0 or started is None:
        return None
    elapsed = max(0.0, (now - utc(started)).total_seconds())
    return round(elapsed / done * max(0, total - done), 1)


def request(store: Store, game_id: str, iterations: int) -> bool:
    """Queue the review of the finished game ``game_id`` unless it has one (queued,
    running or done; a failed one is queued again): True if one was queued.
    :class:`NotFound` for an unknown game; :class:`Conflict` for one not over, or when
    this server's reviews are off (``iterations`` 0)."""
    over, seq = store.peek(game_id, lambda snap: (snap.over, snap.seq))
    if not over:
        raise Conflict("the game is not over: its review is made once it has ended")
    if iterations <= 0:
        raise Conflict("this server does not review games (endeavor serve "
                       "--review-iterations 0)")
    statement, params = store.review_statement(game_id, seq, iterations, only="failed")
    with store._write_lock, store.engine.begin() as conn:
        return bool(conn.execute(statement, params).rowcount)


# --------------------------------------------------------------------------- the moves
def moves_of(record: Mapping[str, Any], decisions: tuple[ReviewedDecision, ...],
             ) -> dict[str, dict[str, Any]]:
    """Each reviewed decision's moves for a person (by step, as text keys): the move
    played and the best move in words (the words of the decision's options) and the
    board elements each is clicked on (:func:`endeavor.web.view.targets_of`)."""
    wanted = {d.step: d for d in decisions}
    out: dict[str, dict[str, Any]] = {}
    state = replay({"format": RECORD_FORMAT, "version": 2, "config": record["config"],
                    "actions": []})
    for k, text in enumerate(record["actions"], 1):
        d = wanted.get(k)
        if d is not None:
            decision = state.decision()
            words = ({o.action: plain_words(o.text)[0] for o in decision.options}
                     if decision is not None else {})
            played, best = A.parse(d.played), A.parse(d.best)
            out[str(k)] = {"played": words.get(played, d.played),
                           "best": words.get(best, d.best),
                           "played_targets": targets_of(state, played, d.seat),
                           "best_targets": targets_of(state, best, d.seat)}
        state.apply(text)
    return out


# --------------------------------------------------------------------------- running
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
    hand (tests; ``hook(done, total)`` is called after each decision's progress)."""

    def __init__(self, store: Store, settings: ReviewSettings | None = None,
                 hook: Callable[[int, int], None] | None = None) -> None:
        self.store = store
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
        rows = self.store._read(lambda conn: list(conn.execute(
            _DUE, {"b_now": now, "b_limit": 8})))
        for r in rows:
            attempts = int(r.attempts)
            key = {"b_game": r.game_id, "b_attempts": attempts, "b_now": now}
            if attempts >= MAX_ATTEMPTS:
                with self.store._write_lock, self.store.engine.begin() as conn:
                    gave_up = conn.execute(_GIVE_UP, {
                        **key, "b_error": f"the review was interrupted {attempts} times "
                                          "without progress (its worker died each time)"})
                if gave_up.rowcount:
                    log.warning("reviews: game %s given up after %d attempts", r.game_id,
                                attempts)
                continue
            worker = secrets.token_hex(8)
            lease = now + timedelta(seconds=self.settings.lease_seconds)
            with self.store._write_lock, self.store.engine.begin() as conn:
                won = conn.execute(_CLAIM, {**key, "b_worker": worker, "b_lease": lease,
                                            "b_started": now}).rowcount == 1
                row = conn.execute(select(_R.c.iterations, _R.c.partial)
                                   .where(_R.c.game_id == r.game_id)).first() if won else None
            if row is not None:
                return Job(r.game_id, int(row.iterations), worker, row.partial)
        return None

    def _write(self, statement: Any, job: Job, **values: Any) -> bool:
        """Run ``statement`` on ``job``'s row if it is still this run's."""
        with self.store._write_lock, self.store.engine.begin() as conn:
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
        saved: list[ReviewedDecision] = list(known)
        counts = [len(known), 0]  # decisions done, of the total
        flushed = 0.0  # when the progress was last written (monotonic clock)
        lost = threading.Event()

        def partial_json() -> str:
            return json.dumps({"digest": digest, "iterations": job.iterations,
                               "decisions": [d.to_dict() for d in saved]})

        def flush() -> None:
            lease = utcnow() + timedelta(seconds=self.settings.lease_seconds)
            if not self._write(_PROGRESS, job, b_done=counts[0], b_total=counts[1],
                               b_partial=partial_json(), b_lease=lease):
                raise _Lost()
            nonlocal flushed
            flushed = time.monotonic()

        def on_decision(d: ReviewedDecision) -> None:
            saved.append(d)
            self.computed += 1

        def progress(done: int, total: int) -> None:
            counts[:] = [done, total]
            if lost.is_set():
                raise _Lost()
            if self._stopping.is_set():
                raise _Stopping()
            if not flushed or done == total or (
                    time.monotonic() - flushed >= self.settings.flush_seconds):
                flush()
            if self.hook is not None:
                self.hook(done, total)
            if self.settings.delay > 0 and done < total:
                time.sleep(self.settings.delay)

        try:
            with self._heartbeat(job, lost):
                result = review(record, iterations=job.iterations, workers=1,
                                progress=progress, known=known, on_decision=on_decision)
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
                self._write(_RELEASE, job, b_done=counts[0], b_total=counts[1],
                            b_partial=partial_json())
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

