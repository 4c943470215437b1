"""The reviews' queue: its settings, its SQL, the review's status as JSON and a request
for a review (see the package's doc)."""


from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import and_, bindparam, delete, func, or_, select, update

from endeavor import actions as A
from endeavor.analysis import review as R
from endeavor.analysis.review import DEFAULT_POLICY, MAX_ITERATIONS, REVIEW_BOT, ReviewedDecision
from endeavor.records import RECORD_FORMAT, replay

from .. import db
from ..store import Conflict, Store, utc, utcnow
from ..view import plain_words, refusals, targets_of

log = logging.getLogger("endeavor.web")

#: the statuses of a game's review (``none``: no row)
STATUSES: Final = ("none", "queued", "running", "done", "failed")
#: ``endeavor serve --review-iterations``'s default: iterations of the strongest bot's
#: search per decision, spent where the choice is contested (the review's own default,
#: as ``endeavor review``'s). Measured (docs/performance.md, "Post-game reviews"): a
#: 4-player game of ~225 decisions takes ~25 CPU-seconds on the compiled build and ~60
#: on the pure one; a 2-player game of ~115 about a third of that
DEFAULT_ITERATIONS: Final = R.DEFAULT_ITERATIONS
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


def status_json(store: Store, game_id: str, enabled: bool, locale: str = "en") -> bytes:
    """``GET /api/games/{id}/review`` (docs/web.md): the finished game's review, its
    status, progress and, once done, the review's JSON and the moves in words, as JSON
    bytes (the stored review is sent as it is, not parsed). The moves are stored in
    English; in another ``locale`` they are said again from the game's record
    (:func:`moves_in`). :class:`NotFound` for an unknown game, :class:`Conflict` for
    one not over."""
    over, actions = store.peek(game_id, lambda snap: (snap.over, len(snap.effective)))
    if not over:
        raise Conflict.said(refusals.REVIEW_NOT_OVER)
    row = store.read(lambda conn: conn.execute(_ROW, {"b_game": game_id}).first())
    head: dict[str, Any] = {"id": game_id, "enabled": enabled, "actions": actions,
                            "bot": REVIEW_BOT, "policy": DEFAULT_POLICY,
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
            if locale != "en" and result is not None:
                moves = moves_in(store, game_id, result, locale, _iso(row.finished)) or moves
        head["eta_seconds"] = eta_seconds(row.status, head["done"], head["total"],
                                          row.started, utcnow())
    text = json.dumps(head)
    return (text[:-1] + ', "review": ' + (result or "null") + ', "moves": '
            + (moves or "null") + "}").encode()


#: the moves of the reviews said in another language than English, by (game, when the
#: review was finished, locale): the last few asked for (a replay of the game each)
_MOVES_IN: dict[tuple[str, str | None, str], str] = {}
_MOVES_IN_KEPT: Final = 32


def moves_in(store: Store, game_id: str, result: str, locale: str,
             finished: str | None = None) -> str | None:
    """A done review's moves in ``locale`` (the JSON text :func:`moves_of` makes), from
    the game's record and the review's decisions; None if the review cannot be read."""
    key = (game_id, finished, locale)
    if key in _MOVES_IN:
        return _MOVES_IN[key]
    try:
        decisions = R.Review.from_json(result).decisions
    except R.ReviewError:
        return None
    record = store.peek(game_id, lambda snap: snap.state.record())
    text = json.dumps(moves_of(record, decisions, locale), separators=(",", ":"))
    if len(_MOVES_IN) >= _MOVES_IN_KEPT:
        _MOVES_IN.pop(next(iter(_MOVES_IN)))
    _MOVES_IN[key] = text
    return text


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
        raise Conflict.said(refusals.REVIEW_NOT_OVER)
    if iterations <= 0:
        raise Conflict.said(refusals.NO_REVIEWS)
    statement, params = store.review_statement(game_id, seq, iterations, only="failed")
    with store.transaction() as conn:
        return bool(conn.execute(statement, params).rowcount)


# --------------------------------------------------------------------------- the moves
def moves_of(record: Mapping[str, Any], decisions: tuple[ReviewedDecision, ...],
             locale: str = "en") -> dict[str, dict[str, Any]]:
    """Each reviewed decision's moves for a person (by step, as text keys): the move
    played and the best move in words (the words of the decision's options, in
    ``locale``, said to the seat deciding) and the board elements each is clicked on
    (:func:`endeavor.web.view.targets_of`)."""
    wanted = {d.step: d for d in decisions}
    out: dict[str, dict[str, Any]] = {}
    state = replay({"format": RECORD_FORMAT, "version": 2, "config": record["config"],
                    "actions": []})
    for k, text in enumerate(record["actions"], 1):
        d = wanted.get(k)
        if d is not None:
            decision = state.decision()
            words = ({o.action: plain_words(o.render(locale, viewer=o.player))[0]
                      for o in decision.options}
                     if decision is not None else {})
            played, best = A.parse(d.played), A.parse(d.best)
            out[str(k)] = {"played": words.get(played, d.played),
                           "best": words.get(best, d.best),
                           "played_targets": targets_of(state, played, d.seat),
                           "best_targets": targets_of(state, best, d.seat)}
        state.apply(text)
    return out
