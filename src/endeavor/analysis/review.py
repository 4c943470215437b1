"""Post-game review: every decision of a game record judged against the
strongest bot, labelled, and summed up per player.

An adapter beside the bots (like :mod:`endeavor.analysis.tournament`): it replays the record
through the public API, asks :func:`endeavor.bots.make` ``("hard", ...)`` for the best
action and rates positions with the bots' evaluation (:mod:`endeavor.bots.evaluate`).

**What is reviewed.** Each decision of the reviewed seats: the position before the
record's action number ``step`` (1-based, as ``endeavor replay --step`` numbers them:
the position after ``step - 1`` actions) whose player to move is a reviewed seat
(``current_player``, so a discard or a reaction out of turn counts for whoever makes
it). Forced decisions (one legal action) are skipped.

**The best action** is the choice of the ``hard`` bot (max-n Monte Carlo tree search)
with an iteration budget, seeded from the record and the step (:func:`decision_seed`),
so a decision's search depends on nothing else: not on the worker, the backend, the
order, or the other decisions.

**Expected final glory** (:func:`expected_glory`) of the position an action leads to:
from there the game is continued by the ``medium`` bot (:class:`~endeavor.bots.GreedyBot`,
deterministic) for every seat to the end of the decision's round (the end of the game in
the last round; nothing more if the action ended the round), and the position reached
is scored with
:func:`~endeavor.bots.evaluate.evaluate`: each seat's glory now plus what its position
is expected to be worth by the end (exactly the final scores once the game is over).
Continuing to the round's end resolves the rest of a turn (``act docks`` is worth the
``ship`` and ``occupy`` that follow) and the other players' answers in the round, and
compares every action of a decision at the same point of the game. The **win chance**
of a seat is a softmax of those estimates, ``exp(e_p / T) / sum_q exp(e_q / T)``, with
the bots' temperature for the position reached (``T = T_END + T_SPAN * left ** 2`` glory,
:func:`~endeavor.bots.evaluate.time_left`: 16 at the start, 4 at the end; fitted to who
won self-play games); on a finished game it is the result (1 for the sole winner, a
shared first place split).

For each decision: ``before`` is the evaluation with the best action, ``after`` the
one with the action played; the **glory loss** is ``max(0, before - after)`` for the
mover's expected final glory, the **win-chance loss** the same for its win chance.

**Labels** (:data:`THRESHOLDS`): ``best`` when the action played is the bot's, or is
rated at least as well (no loss on either scale); otherwise the first of ``good``,
``inaccuracy``, ``mistake`` whose two limits the losses both stay under, else
``blunder``:

=============  ===========  ===================
label          glory lost   win chance lost
=============  ===========  ===================
good           < 1          < 3 points
inaccuracy     < 2.5        < 7 points
mistake        < 5          < 15 points
blunder        otherwise
=============  ===========  ===================

**Summary** per reviewed player: *accuracy*, the share of its decisions labelled best
or good (in %); the count of each label; the glory and win chance lost in all; its
biggest mistakes (the :data:`WORST` largest glory losses labelled inaccuracy or worse);
the glory lost by phase of the round and by round.

**Curve**: every seat's expected final glory after each reviewed decision (and, for
the first, before it), then the final scores of a finished game: what ``--plot`` draws.

**Determinism.** For a given record, seats and iteration budget the review is the
same (:meth:`Review.to_json` byte for byte) whatever the number of workers, the backend
(local processes or Ray) and the build (pure Python or compiled): each decision is
computed from the record alone, the values are rounded to 4 decimals before the
labels are given, and the results are ordered by step.

Backends: ``workers=1`` computes in this process; more use a pool of spawned processes
(a script that calls :func:`review` with ``workers > 1`` needs the usual ``if __name__
== "__main__":`` guard); ``backend="ray"`` runs the decisions as Ray tasks on a local
Ray instance (``num_cpus=workers``) or the cluster at ``address`` (``pip install
'endeavor[ray]'``). :func:`plot` needs matplotlib (``pip install 'endeavor[plot]'``).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import actions as A
from ..bots import GreedyBot, Rated, make, strongest
from ..bots import evaluate as E
from ..bots.evaluate import evaluate
from ..errors import EndeavorError
from ..frames import PHASE_NAMES
from ..records import RECORD_FORMAT, replay
from ..scoring import final_scores
from ..state import State
from . import parallel
from .parallel import default_workers

FORMAT = "endeavor-review"
VERSION = 1
BACKENDS = parallel.BACKENDS
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
#: (label, glory loss below, win-chance loss below): the first row both losses stay
#: under gives the label (after ``best``, which is no loss at all); past the last row,
#: ``blunder``
THRESHOLDS: tuple[tuple[str, float, float], ...] = (
    ("good", 1.0, 0.03),
    ("inaccuracy", 2.5, 0.07),
    ("mistake", 5.0, 0.15),
)
#: labels that count toward accuracy
ACCURATE = ("best", "good")
#: how many of the biggest mistakes a summary names
WORST = 3
#: the default search budget, of ``endeavor review`` and of the server's reviews
#: (``endeavor serve --review-iterations``): iterations of the bot per decision (with
#: the ``contested`` policy, the most a decision gets before a mistake is confirmed). 300:
#: the least whose labels agree with a deep review's on 90 % of the decisions of games of
#: every player count (docs/performance.md, "Labels stay right")
DEFAULT_ITERATIONS = 300
MAX_ITERATIONS = 1_000_000_000
#: decimals the values are rounded to (before the labels are given)
DECIMALS = 4
#: the bots that may give the best action (those of them in ``endeavor.bots.NAMES``)
REVIEW_BOTS = ("hard", "expert")
#: the bot a review uses unless told otherwise: the strongest that can play here
#: (:func:`endeavor.bots.strongest`; ``hard`` until ``expert`` is measured stronger)
REVIEW_BOT = strongest()
#: how a decision's iterations are spent (:func:`review`'s ``policy``): ``fixed``, the
#: whole budget on every decision; ``contested``, a first search of :data:`FIRST` of the
#: budget, carried on to the whole budget only where the choice is contested (the first
#: search's most visited action is not the one played, or has less than :data:`CLEAR` of
#: the visits), and to :data:`CONFIRM` times the budget before a mistake or a blunder is
#: called
POLICIES = ("fixed", "contested")
DEFAULT_POLICY = "contested"
#: the share of the budget of a ``contested`` decision's first search
FIRST = 0.125
#: the share of the first search's visits the action played must have, as its most
#: visited, for the decision to be settled there
CLEAR = 0.5
#: a ``contested`` decision that would be called a mistake or a blunder is searched on to
#: this many times the budget before it is
CONFIRM = 4
METHOD = ("best action: the hard bot (mcts) with the iteration budget, seeded from the "
          "record and the step; expected final glory: the medium bot continues every seat "
          "to the end of the round, then endeavor.bots.evaluate.evaluate; win chance: a "
          "softmax of those estimates at the bots' temperature for that point of the game")

#: ``progress(done, total)``: called once before the first decision is computed
#: (``done``: the decisions known already, 0 unless resuming) and after each one
Progress = Callable[[int, int], None]


class ReviewError(EndeavorError, ValueError):
    """Impossible review settings (a seat the game does not have, a bad budget, an
    unknown backend), a missing optional extra, or a failed decision."""


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class ReviewedDecision:
    """One decision: ``step`` the record's action number (1-based; the position before
    it follows ``step - 1`` actions), the ``round`` and ``phase`` there, the ``seat``
    that decided, the ``legal`` actions it had, the action ``played`` and the ``best``
    (the hard bot's), each seat's expected final glory with the best action
    (``glory_before``) and with the one played (``glory_after``), the mover's win
    chance with each, the losses (the mover's, never below 0) and the ``label``.
    ``search_value`` and ``search_visits``: what the bot's ``analyse()`` said of its
    action (its own rating, for information: the review's numbers do not use it)."""

    step: int
    round: int
    phase: str
    seat: int
    legal: int
    played: str
    best: str
    glory_before: tuple[float, ...]
    glory_after: tuple[float, ...]
    win_before: float
    win_after: float
    glory_loss: float
    win_loss: float
    label: str
    search_value: float
    search_visits: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"step": self.step, "round": self.round, "phase": self.phase,
                "seat": self.seat, "legal": self.legal, "played": self.played,
                "best": self.best, "glory_before": list(self.glory_before),
                "glory_after": list(self.glory_after), "win_before": self.win_before,
                "win_after": self.win_after, "glory_loss": self.glory_loss,
                "win_loss": self.win_loss, "label": self.label,
                "search_value": self.search_value, "search_visits": self.search_visits}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ReviewedDecision:
        """The inverse of :meth:`to_dict`."""
        return cls(step=int(d["step"]), round=int(d["round"]), phase=str(d["phase"]),
                   seat=int(d["seat"]), legal=int(d["legal"]), played=str(d["played"]),
                   best=str(d["best"]),
                   glory_before=tuple(float(x) for x in d["glory_before"]),
                   glory_after=tuple(float(x) for x in d["glory_after"]),
                   win_before=float(d["win_before"]), win_after=float(d["win_after"]),
                   glory_loss=float(d["glory_loss"]), win_loss=float(d["win_loss"]),
                   label=str(d["label"]), search_value=float(d["search_value"]),
                   search_visits=int(d["search_visits"]))


@dataclass(frozen=True)
class PlayerSummary:
    """One reviewed seat: its ``decisions`` reviewed, ``accuracy`` (% labelled best or
    good), the count of each label (``labels``, every label present), the glory and
    win chance lost in all, the steps of its biggest mistakes (``worst``, the largest
    glory loss first), and the glory lost per phase name and per round (``"1"``...,
    text keys as in JSON). ``final`` is its final score if the game is over."""

    seat: int
    decisions: int
    accuracy: float
    labels: dict[str, int]
    glory_lost: float
    win_lost: float
    worst: tuple[int, ...]
    by_phase: dict[str, float]
    by_round: dict[str, float]
    final: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"seat": self.seat, "decisions": self.decisions, "accuracy": self.accuracy,
                "labels": dict(self.labels), "glory_lost": self.glory_lost,
                "win_lost": self.win_lost, "worst": list(self.worst),
                "by_phase": dict(self.by_phase), "by_round": dict(self.by_round),
                "final": self.final}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PlayerSummary:
        """The inverse of :meth:`to_dict`."""
        final = d.get("final")
        return cls(seat=int(d["seat"]), decisions=int(d["decisions"]),
                   accuracy=float(d["accuracy"]),
                   labels={str(k): int(v) for k, v in d["labels"].items()},
                   glory_lost=float(d["glory_lost"]), win_lost=float(d["win_lost"]),
                   worst=tuple(int(x) for x in d["worst"]),
                   by_phase={str(k): float(v) for k, v in d["by_phase"].items()},
                   by_round={str(k): float(v) for k, v in d["by_round"].items()},
                   final=None if final is None else int(final))


@dataclass(frozen=True)
class CurvePoint:
    """Every seat's expected final glory after ``step`` actions (in ``round``)."""

    step: int
    round: int
    glory: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"step": self.step, "round": self.round, "glory": list(self.glory)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CurvePoint:
        """The inverse of :meth:`to_dict`."""
        return cls(int(d["step"]), int(d["round"]), tuple(float(x) for x in d["glory"]))


@dataclass(frozen=True)
class Review:
    """A game's review: the record's ``config`` (``GameConfig.to_dict``), its number
    of ``actions`` and ``digest`` (sha256 of the record's config and actions), whether
    it is ``finished`` and its final scores then, the reviewed ``seats``, the search
    budget (``iterations``), the reviewed ``decisions`` by step, a summary per seat
    (``players``), the ``curve``, the ``bot`` that gave the best actions and the budget's
    ``policy`` (:data:`POLICIES`); its JSON adds the method in words (naming the bot) and
    the labels' thresholds (:func:`thresholds_dict`)."""

    config: dict[str, Any]
    actions: int
    digest: str
    finished: bool
    final_scores: tuple[int, ...]
    seats: tuple[int, ...]
    iterations: int
    decisions: tuple[ReviewedDecision, ...]
    players: tuple[PlayerSummary, ...]
    curve: tuple[CurvePoint, ...]
    bot: str = "hard"
    policy: str = "fixed"

    def player(self, seat: int) -> PlayerSummary:
        """The summary of ``seat`` (a reviewed seat)."""
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (:meth:`from_dict` reads it back)."""
        out = {
            "format": FORMAT, "version": VERSION, "config": self.config,
            "actions": self.actions, "digest": self.digest, "finished": self.finished,
            "final_scores": list(self.final_scores), "seats": list(self.seats),
            "iterations": self.iterations, "policy": self.policy, "bot": self.bot,
            "method": method(self.bot, self.policy),
            "thresholds": thresholds_dict(),
            "decisions": [d.to_dict() for d in self.decisions],
            "players": [p.to_dict() for p in self.players],
            "curve": [c.to_dict() for c in self.curve]}
        return out

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text (the same text for the same review)."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Review:
        """The inverse of :meth:`to_dict`; raises :class:`ReviewError` if ``d`` is not a
        review."""
        if not isinstance(d, Mapping) or d.get("format") != FORMAT:
            raise ReviewError("not an endeavor review")
        if d.get("version") != VERSION:
            raise ReviewError(f"unsupported review version {d.get('version')!r}")
        try:
            return cls(config=dict(d["config"]), actions=int(d["actions"]),
                       digest=str(d["digest"]), finished=bool(d["finished"]),
                       final_scores=tuple(int(x) for x in d["final_scores"]),
                       seats=tuple(int(x) for x in d["seats"]),
                       iterations=int(d["iterations"]),
                       decisions=tuple(ReviewedDecision.from_dict(x)
                                       for x in d["decisions"]),
                       players=tuple(PlayerSummary.from_dict(x) for x in d["players"]),
                       curve=tuple(CurvePoint.from_dict(x) for x in d["curve"]),
                       bot=str(d.get("bot", "hard")),
                       policy=str(d.get("policy", "fixed")))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ReviewError(f"bad review: {type(e).__name__}: {e}") from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Review:
        """The inverse of :meth:`to_json`."""
        try:
            d = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise ReviewError(f"review is not valid JSON: {e}") from None
        return cls.from_dict(d)


def method(bot: str = "hard", policy: str = "fixed") -> str:
    """:data:`METHOD`, for the bot that gives the best actions and the budget's policy."""
    text = METHOD if bot == "hard" else METHOD.replace("the hard bot (mcts)", f"the {bot} bot")
    if policy == "contested":
        text = text.replace("with the iteration budget", f"with the iteration budget "
                            f"where the choice is contested ({FIRST:g} of it where the "
                            f"action played is clearly the bot's)")
    return text


def thresholds_dict() -> dict[str, Any]:
    """The labels' limits as data: per label, the glory loss and the win-chance loss
    (a share, 0.03 = 3 points) it stays under."""
    return {"best": "the bot's action, or no loss on either scale",
            **{label: {"glory_loss_below": g, "win_loss_below": w}
               for label, g, w in THRESHOLDS},
            "blunder": "any larger loss"}


def label_for(glory_loss: float, win_loss: float, same: bool) -> str:
    """The label of a decision whose action lost ``glory_loss`` glory and ``win_loss``
    win chance (a share) against the best one; ``same``: it is the bot's action."""
    if same or (glory_loss <= 0.0 and win_loss <= 0.0):
        return "best"
    for label, g, w in THRESHOLDS:
        if glory_loss < g and win_loss < w:
            return label
    return "blunder"


# --------------------------------------------------------------------------- one decision
def record_digest(config: Mapping[str, Any], actions: Sequence[str]) -> str:
    """sha256 (hex) of a record's config and action notations."""
    text = json.dumps({"config": config, "actions": list(actions)}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def decision_seed(config: Mapping[str, Any], actions: Sequence[str], step: int) -> int:
    """The search seed of the decision at ``step``: from the record's config, the
    actions before it and the step (63 bits, the same in every process)."""
    digest = record_digest(config, actions[:step - 1])
    return random.Random(f"endeavor-review/{digest}/{step}").getrandbits(63)


def win_chances(glory: Sequence[float], state: State) -> list[float]:
    """Each seat's chance of winning from the estimates ``glory`` at ``state`` (see the
    module docstring; :func:`endeavor.bots.evaluate.win_chances`); on a finished game the
    result."""
    return E.win_chances(state, list(glory))


def expected_glory(state: State, until: int | None = None,
                   judge: GreedyBot | None = None) -> tuple[list[float], State]:
    """Every seat's expected final glory at ``state`` (see the module docstring): the
    game continued by ``judge`` (default: the medium bot) for every seat to the end of
    round ``until`` (default: ``state``'s round; nothing is played once a later round
    has begun), then evaluated; also the position reached. ``state`` is not modified."""
    bot = judge if judge is not None else GreedyBot()
    last = state.round if until is None else until
    s = state.copy()
    while not s.is_over and s.round <= last:
        s.apply_code(bot.choose_code(s))
    return evaluate(s), s


#: the continuations already played by the judge in this process: (the record's
#: config as JSON, the last round played, the position's history) -> every seat's
#: expected final glory at the end and its win chances there. A continuation passes
#: through the positions of later decisions (a move played as the judge would play it,
#: a forced move), whose own continuation is then the rest of it: the same result,
#: computed once. Cleared when it holds :data:`CONTINUATIONS` positions.
_continued: dict[tuple[str, int, Any], tuple[list[float], list[float]]] = {}
#: the most positions :data:`_continued` keeps
CONTINUATIONS = 200_000


def _judged(state: State, until: int, judge: GreedyBot, game: str,
            ) -> tuple[list[float], list[float]]:
    """:func:`expected_glory` at ``state`` and the win chances of the position reached,
    remembered for every position the continuation passes through (the same values
    whether they are computed or remembered: the judge is deterministic)."""
    key = (game, until, state.hist)
    found = _continued.get(key)
    if found is not None:
        return found
    s = state.copy()
    passed = [key]
    while not s.is_over and s.round <= until:
        s.apply_code(judge.choose_code(s))
        passed.append((game, until, s.hist))
    glory = evaluate(s)
    out = (glory, win_chances(glory, s))
    if len(_continued) + len(passed) > CONTINUATIONS:
        _continued.clear()
    for k in passed:
        _continued[k] = out
    return out


def _rounded(xs: Iterable[float]) -> tuple[float, ...]:
    return tuple(round(x, DECIMALS) for x in xs)


def _search(bot: Any, state: State, iterations: int, top: int) -> list[Rated]:
    """``bot``'s ranking at ``state`` after ``iterations`` more iterations of its search
    (it keeps its tree between searches of the same position: the second search carries
    on from the first)."""
    bot.iterations = iterations
    rated: list[Rated] = bot.analyse(state, top=top)
    return rated


def review_decision(task: Mapping[str, Any]) -> dict[str, Any]:
    """Review one decision, on plain data (what the workers run): ``task`` has the
    record's ``config`` and its ``actions`` up to and including the one reviewed, and
    the ``iterations`` (and the ``bot``, default ``hard``, and the budget's ``policy``,
    default ``fixed``); the result is :meth:`ReviewedDecision.to_dict`.

    ``fixed``: a search of ``iterations``. ``contested``: a first search of :data:`FIRST`
    of them (at least one); when its most visited action is the one played with at
    least :data:`CLEAR` of the visits, or the answer is exact, that is the best action;
    otherwise the same tree is searched on to the whole budget, and on to
    :data:`CONFIRM` times the budget when the action played would be called a mistake
    or a blunder (the labels that must be sure)."""
    actions: list[str] = list(task["actions"])
    config: dict[str, Any] = task["config"]
    iterations = int(task["iterations"])
    contested = task.get("policy", "fixed") == "contested"
    step = len(actions)
    state = replay({"format": RECORD_FORMAT, "version": 2, "config": config,
                    "actions": actions[:-1]})
    seat = state.current_player
    assert seat is not None
    codes = state.legal_codes()
    played = A.parse(actions[-1]).code
    bot = make(str(task.get("bot", "hard")), seed=decision_seed(config, actions, step),
               iterations=1)
    spent = max(1, int(iterations * FIRST)) if contested else iterations
    top = _search(bot, state, spent, len(codes))
    if spent < iterations and top[0].visits and not (
            top[0].action.code == played
            and top[0].visits >= CLEAR * sum(r.visits for r in top)):
        top = _search(bot, state, iterations - spent, 1)
        spent = iterations
    judge = GreedyBot()
    game = json.dumps(config, sort_keys=True)
    after_state = state.copy()
    after_state.apply_code(played)
    glory_after, wins = _judged(after_state, state.round, judge, game)
    win_after = wins[seat]
    after = _rounded(glory_after)
    wa = round(win_after, DECIMALS)
    while True:
        chosen = top[0]
        best = chosen.action.code
        if best == played:
            glory_before, win_before = glory_after, win_after
        else:
            best_state = state.copy()
            best_state.apply_code(best)
            glory_before, wins = _judged(best_state, state.round, judge, game)
            win_before = wins[seat]
        before = _rounded(glory_before)
        wb = round(win_before, DECIMALS)
        glory_loss = max(0.0, round(before[seat] - after[seat], DECIMALS))
        win_loss = max(0.0, round(wb - wa, DECIMALS))
        label = label_for(glory_loss, win_loss, best == played)
        if not contested or spent >= CONFIRM * iterations or chosen.visits == 0 \
                or label not in ("mistake", "blunder"):
            break
        top = _search(bot, state, CONFIRM * iterations - spent, 1)
        spent = CONFIRM * iterations
    return ReviewedDecision(
        step=step, round=state.round, phase=PHASE_NAMES[state.phase], seat=seat,
        legal=len(codes), played=A.BY_CODE[played].text, best=A.BY_CODE[best].text,
        glory_before=before, glory_after=after, win_before=wb, win_after=wa,
        glory_loss=glory_loss, win_loss=win_loss, label=label,
        search_value=round(chosen.value, DECIMALS), search_visits=chosen.visits).to_dict()


# --------------------------------------------------------------------------- summary
def summarize(decisions: Sequence[ReviewedDecision], seat: int,
              final: int | None = None) -> PlayerSummary:
    """The summary of ``seat`` over its ``decisions`` (see the module docstring)."""
    mine = [d for d in decisions if d.seat == seat]
    labels = {label: 0 for label in LABELS}
    by_phase: dict[str, float] = {}
    by_round: dict[str, float] = {}
    for d in mine:
        labels[d.label] += 1
        by_phase[d.phase] = by_phase.get(d.phase, 0.0) + d.glory_loss
        key = str(d.round)
        by_round[key] = by_round.get(key, 0.0) + d.glory_loss
    good = sum(labels[x] for x in ACCURATE)
    bad = [d for d in mine if d.label not in ACCURATE]
    bad.sort(key=lambda d: (-d.glory_loss, -d.win_loss, d.step))
    return PlayerSummary(
        seat=seat, decisions=len(mine),
        accuracy=round(100.0 * good / len(mine), 1) if mine else 100.0,
        labels=labels, glory_lost=round(sum(d.glory_loss for d in mine), DECIMALS),
        win_lost=round(sum(d.win_loss for d in mine), DECIMALS),
        worst=tuple(d.step for d in bad[:WORST]),
        by_phase={k: round(v, DECIMALS) for k, v in by_phase.items()},
        by_round={k: round(v, DECIMALS) for k, v in by_round.items()}, final=final)


def _curve(decisions: Sequence[ReviewedDecision], rounds: Sequence[int],
           final: State) -> list[CurvePoint]:
    """Every seat's expected final glory after each reviewed decision (before the
    first one too), then the final scores of a finished game; ``rounds[k]``: the round
    after ``k`` actions."""
    points: list[CurvePoint] = []
    if decisions:
        first = decisions[0]
        points.append(CurvePoint(first.step - 1, first.round, first.glory_before))
    for d in decisions:
        points.append(CurvePoint(d.step, rounds[d.step], d.glory_after))
    if final.is_over:
        n = final.num_actions
        scores = tuple(float(s.total) for s in final_scores(final))
        if points and points[-1].step == n:
            points[-1] = CurvePoint(n, rounds[n], scores)
        else:
            points.append(CurvePoint(n, rounds[n], scores))
    return points


# --------------------------------------------------------------------------- running
def _record_parts(record: object) -> tuple[State, dict[str, Any], list[str]]:
    """The final state, config and action notations of ``record`` (a record dict, its
    JSON text or bytes, or a :class:`State`); raises ``RecordError`` if it is corrupt."""
    if isinstance(record, State):
        record = record.record()
    final = replay(record)  # RecordError when corrupt
    data = final.record()
    return final, data["config"], list(data["actions"])


def review(record: object, seats: Iterable[int] | None = None,
           iterations: int = DEFAULT_ITERATIONS, *, workers: int | None = 1,
           backend: str = "local", address: str | None = None,
           steps: Iterable[int] | None = None,
           progress: Progress | None = None,
           known: Iterable[ReviewedDecision] = (),
           on_decision: Callable[[ReviewedDecision], None] | None = None,
           bot: str = REVIEW_BOT, policy: str = DEFAULT_POLICY) -> Review:
    """Review the decisions of ``seats`` (default: every seat) in ``record`` (a record
    dict, its JSON text or bytes, or a :class:`State`, whose history is reviewed).

    ``iterations``: the search budget per decision of ``bot``, the bot that gives the
    best actions (one of :data:`REVIEW_BOTS`; default :data:`REVIEW_BOT`, the strongest
    that can play here), spent as ``policy`` says (:data:`POLICIES`: ``fixed``, every
    decision the whole budget; ``contested``, the whole budget only where the choice is
    contested). ``workers``: processes
    (None: every core; 1: this process) or, with ``backend="ray"``, the CPUs of the local
    Ray instance (ignored with ``address``). ``steps``: only the decisions at these
    action numbers (1-based; the summaries then cover only those). ``progress(done,
    total)`` is called before the first decision is computed (``done``: how many of the
    ``total`` were ``known``) and after each. ``known``: decisions already reviewed for
    this record, budget and policy (those an interrupted run handed to ``on_decision``): the ones
    at steps to review are taken as they are instead of being computed again, which
    gives the same review, each decision depending only on the record, its step and the
    budget (a decision at a step not reviewed, or by another seat, is ignored).
    ``on_decision(d)`` is called with each decision computed here (not the known ones),
    in the order they finish. The result is the same for the same record, seats, steps,
    iterations and policy, whatever the workers, the backend and the decisions known.
    Raises ``RecordError`` for a corrupt record and :class:`ReviewError` for bad
    settings, before any decision is reviewed.
    """
    parallel.check_backend(backend, address, ReviewError)
    if isinstance(iterations, bool) or not isinstance(iterations, int) \
            or not 1 <= iterations <= MAX_ITERATIONS:
        raise ReviewError(f"the budget must be 1 to {MAX_ITERATIONS:,} iterations, "
                          f"not {iterations!r}")
    workers = parallel.check_workers(default_workers() if workers is None else workers,
                                     ReviewError)
    if policy not in POLICIES:
        raise ReviewError(f"the budget's policy must be one of {', '.join(POLICIES)}, "
                          f"not {policy!r}")
    if bot not in REVIEW_BOTS:
        raise ReviewError(f"the review's bot must be one of {', '.join(REVIEW_BOTS)}, "
                          f"not {bot!r}")
    try:
        make(bot, seed=0, iterations=1)
    except ValueError as e:  # expert without numpy or weights
        raise ReviewError(str(e)) from None
    final, config, actions = _record_parts(record)
    n = final.n
    if seats is None:
        chosen = tuple(range(n))
    else:
        wanted = list(seats)
        for s in wanted:
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
                raise ReviewError(f"seat {s!r}: the game has {n} players (seats 0 to "
                                  f"{n - 1})")
        chosen = tuple(sorted(set(wanted)))
        if not chosen:
            raise ReviewError("no seat to review")
    only: set[int] | None = None
    if steps is not None:
        only = set()
        for k in steps:
            if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= len(actions):
                raise ReviewError(f"step {k!r}: the record has {len(actions)} actions "
                                  f"(steps 1 to {len(actions)})")
            only.add(k)
    if backend == "ray":
        parallel.require_ray(ReviewError)
    # the decisions to review, and the round after each number of actions
    have = {d.step: d for d in known}
    tasks: list[dict[str, Any]] = []
    results: list[ReviewedDecision] = []
    state = replay({"format": RECORD_FORMAT, "version": 2, "config": config, "actions": []})
    rounds = [state.round]
    for k, text in enumerate(actions, 1):
        code = A.parse(text).code
        if (state.current_player in chosen and len(state.legal_codes()) > 1
                and (only is None or k in only)):
            found = have.get(k)
            if found is not None and found.seat == state.current_player:
                results.append(found)
            else:
                task: dict[str, Any] = {"config": config, "actions": actions[:k],
                                        "iterations": iterations}
                if bot != "hard":
                    task["bot"] = bot
                if policy != "fixed":
                    task["policy"] = policy
                tasks.append(task)
        state.apply_code(code)
        rounds.append(state.round)
    total = len(tasks) + len(results)

    def handle(outcome: dict[str, Any]) -> None:
        decision = ReviewedDecision.from_dict(outcome)
        results.append(decision)
        if on_decision is not None:
            on_decision(decision)
        if progress is not None:
            progress(len(results), total)

    if progress is not None:
        progress(len(results), total)
    if tasks:
        parallel.run(review_decision, tasks, handle, backend=backend, workers=workers,
                     address=address, error=ReviewError)
    results.sort(key=lambda d: d.step)
    scores = tuple(s.total for s in final_scores(final)) if final.is_over else ()
    players = tuple(summarize(results, s, scores[s] if scores else None) for s in chosen)
    return Review(config=dict(config), actions=len(actions),
                  digest=record_digest(config, actions), finished=final.is_over,
                  final_scores=scores, seats=chosen, iterations=iterations,
                  decisions=tuple(results), players=players,
                  curve=tuple(_curve(results, rounds, final)), bot=bot, policy=policy)


# --------------------------------------------------------------------------- plot
def plot_formats() -> dict[str, str]:
    """The file types :func:`plot` can write (suffix -> description); raises
    :class:`ReviewError` if matplotlib is missing."""
    return parallel.plot_formats(ReviewError)


def plot(result: Review, path: str | os.PathLike[str]) -> None:
    """Draw every seat's expected final glory over the game (the :attr:`Review.curve`),
    with the reviewed seats' mistakes and blunders marked and the rounds shaded, and
    save it to ``path`` (its suffix picks the format)."""
    parallel.import_optional("matplotlib", "plot", "--plot", ReviewError)
    figure_module = importlib.import_module("matplotlib.figure")
    backend_agg = importlib.import_module("matplotlib.backends.backend_agg")
    fig = figure_module.Figure(figsize=(10.0, 5.0), layout="constrained")
    backend_agg.FigureCanvasAgg(fig)
    ax = fig.subplots()
    n = int(result.config.get("players", len(result.final_scores) or 1))
    colours = ("#4c78a8", "#e45756", "#54a24b", "#f58518", "#b279a2")
    xs = [c.step for c in result.curve]
    for seat in range(n):
        ys = [c.glory[seat] for c in result.curve]
        ax.plot(xs, ys, color=colours[seat % len(colours)], linewidth=1.6,
                label=f"P{seat}" + (" (reviewed)" if seat in result.seats else ""))
    for label, marker, size in (("mistake", "o", 30), ("blunder", "X", 60)):
        marks = [d for d in result.decisions if d.label == label]
        if marks:
            ax.scatter([d.step for d in marks], [d.glory_after[d.seat] for d in marks],
                       marker=marker, s=size, zorder=3, facecolors="none" if marker == "o"
                       else "black", edgecolors="black", label=label)
    spans: list[list[int]] = []  # [round, first step, last step] of each round drawn
    for c in result.curve:
        if spans and spans[-1][0] == c.round:
            spans[-1][2] = c.step
        else:
            if spans:
                spans[-1][2] = c.step
            spans.append([c.round, c.step, c.step])
    for rnd, lo, hi in spans:
        if rnd % 2 and hi > lo:
            ax.axvspan(lo, hi, color="#000000", alpha=0.05, linewidth=0)
    ax.set_xlabel("step (actions played; rounds shaded alternately)")
    ax.set_ylabel("expected final glory")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best")
    seats = ", ".join(f"P{s}" for s in result.seats)
    fig.suptitle(f"endeavor review: {result.config.get('players')} players, "
                 f"{result.actions} actions, reviewed {seats}, "
                 f"{result.iterations} iterations a decision")
    fig.savefig(os.fspath(path), dpi=100)


__all__ = [
    "ACCURATE", "BACKENDS", "CLEAR", "CONFIRM", "DEFAULT_ITERATIONS", "DEFAULT_POLICY", "FIRST",
    "LABELS", "MAX_ITERATIONS", "POLICIES", "REVIEW_BOT", "REVIEW_BOTS", "THRESHOLDS",
    "WORST", "CurvePoint", "PlayerSummary", "Review", "ReviewError", "ReviewedDecision",
    "decision_seed", "default_workers", "expected_glory", "label_for", "plot",
    "plot_formats", "record_digest", "review", "review_decision", "summarize",
    "thresholds_dict", "win_chances",
]
