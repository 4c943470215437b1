"""Post-game reviews in the web app: every finished game's decisions judged by
:func:`endeavor.analysis.review.review`, in the background, the result kept in the
database.

**Queued.** The log entry that ends a game (the last action, or the host's end) writes a
row in ``reviews`` in its own transaction (:meth:`endeavor.web.store.Store._commit`):
one more ``INSERT`` beside the move, so a crash cannot lose the job and the move is
acknowledged as soon as it is committed; the review runs later, elsewhere. So does the
import of a finished record. A finished game without a row (one that ended before this
existed, or while reviews were off) gets one on request (``POST
/api/games/{id}/review``), and so does a failed review. A game that ends again after an
undo has its row reset.

**Run.** A :class:`Reviewer` (``endeavor serve``'s background process,
:mod:`endeavor.web.jobs`, or a thread of an app made in-process) looks at the table every
:data:`POLL_SECONDS`, claims the oldest waiting row with an ``UPDATE`` that exactly one
worker wins (``worker``, a random name of this run, and ``lease_until``, renewed every
third of :data:`LEASE_SECONDS` while it runs), and reviews the game's record with the
row's budget, every seat, with the strongest bot
(:data:`endeavor.analysis.review.REVIEW_BOT`) and the budget spent where the choice is
contested (:data:`endeavor.analysis.review.DEFAULT_POLICY`), in this one process
(``workers=1``: one core, in a thread given a lower priority, :data:`NICE`). While it
runs it writes, at most every :data:`FLUSH_SECONDS`, the decisions done and the total and
the decisions reviewed so far (``partial``); a worker that finds the lease of a
``running`` row expired (its reviewer died, or its server was restarted) takes it over
and resumes from ``partial`` (:func:`endeavor.analysis.review.review`'s ``known``): the
result is the same. Every write of a run names its ``worker``, so a run whose row was
taken over or reset stops at its next write. Done: ``result`` (the review's JSON, exactly
:meth:`endeavor.analysis.review.Review.to_json`) and ``moves`` (each decision's move
played and best move in words, with the board elements they are clicked on, for the
replay viewer). An exception is ``failed`` with its reason in words (and logged); a row
claimed :data:`MAX_ATTEMPTS` times in a row without progress (its reviewer killed each
time) is given up as failed. A row whose game is no longer over (its end undone) is
deleted.

**Read.** :func:`status_json` is ``GET /api/games/{id}/review``'s answer (docs/web.md).
"""

from __future__ import annotations

from .queue import (
    DEFAULT_ITERATIONS,
    DELAY_VAR,
    FLUSH_SECONDS,
    ITERATIONS_VAR,
    LEASE_SECONDS,
    LEASE_VAR,
    MAX_ATTEMPTS,
    MAX_ERROR,
    NICE,
    POLL_SECONDS,
    RUNNER_VAR,
    STATUSES,
    ReviewSettings,
    check_iterations,
    eta_seconds,
    moves_of,
    request,
    status_json,
)
from .runner import Job, Reviewer

__all__ = ["DEFAULT_ITERATIONS", "DELAY_VAR", "FLUSH_SECONDS", "ITERATIONS_VAR",
           "LEASE_SECONDS", "LEASE_VAR", "MAX_ATTEMPTS", "MAX_ERROR", "NICE", "POLL_SECONDS",
           "RUNNER_VAR", "STATUSES", "Job", "ReviewSettings", "Reviewer", "check_iterations",
           "eta_seconds", "moves_of", "request", "status_json"]
