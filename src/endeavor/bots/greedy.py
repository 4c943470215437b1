"""The greedy bot: a one-ply search on the Endeavor evaluation (:mod:`.evaluate`).

For each legal action the bot copies the state, applies the action and rates the result
for itself: its estimated final glory minus its strongest rival's (:func:`evaluate`).
A turn is often two or three decisions by the same player (``act docks``, then ``ship
FE``, then ``occupy FE2``; a Salary or Discard phase of several choices); while the
same player must decide again straight away, and it is not a new turn of the Action
phase, the bot looks through that follow-up and takes its best continuation (to a
bounded depth, keeping the most promising few at each level), so that choosing a
building is valued by its best target.

In the last round, once every other player has passed, and in the last Discard phase,
the bot plays exactly instead (:mod:`.endgame`): every line of its remaining decisions
is played to the end and rated by the final scores, within ``exact`` positions.

``noise`` > 0 makes a weaker, less predictable player (the ``easy`` level): it picks an
action at random with probability ``exp(score / noise)`` (a softmax over the ratings,
``noise`` in glory), from its own ``random.Random(seed)``. With ``noise`` 0 the bot is
deterministic: the best rating wins, ties to the lowest action code.
"""

from __future__ import annotations

import math
import random

from .. import actions as A
from ..actions import Action
from ..state import State
from .base import Rated, outlook_words
from .endgame import BUDGET, exact_options
from .evaluate import Weights, evaluate, margins

_PASS = A.PASS.code


class GreedyBot:
    """One-ply search on :func:`~endeavor.bots.evaluate.evaluate`, looking through the
    follow-up decisions of the same turn.

    ``noise`` (>= 0, in glory): softmax temperature over the ratings (0: always the
    best). ``depth`` (>= 0): how many follow-up decisions of the same player are looked
    through. ``wide`` (>= 1): how many of the actions of the decision itself are looked
    through (the best by their own estimate: every building of an Action-phase turn,
    not all 79 abilities of a Globalisation Ship). ``beam`` (>= 1): how many of the
    best follow-ups are looked through at each deeper level. ``evaluations`` (>= 1): the
    evaluation budget of one decision, after which nothing more is looked through (a
    bound on the time a move takes; counted, not timed, so the bot stays
    deterministic). ``rivalry`` in [0, 1]: the rival the bot measures itself against is
    ``rivalry`` times the best other seat plus the rest times their mean.
    ``weights``: the evaluation's :class:`~endeavor.bots.evaluate.Weights` (default: the
    ruleset's, :func:`~endeavor.bots.evaluate.weights_for`). ``exact`` (>= 0): the
    positions the exact end-game search may look at (:mod:`.endgame`; 0: never exact).
    """

    name = "greedy"

    def __init__(self, seed: int = 0, noise: object = 0.0, depth: object = 2,
                 beam: object = 3, wide: object = 12, evaluations: object = 1000,
                 rivalry: object = 1.0, weights: Weights | None = None,
                 exact: object = BUDGET) -> None:
        # settings typed object: checked here, so a bad value is a ValueError on the
        # compiled build too (compiled code would raise TypeError on entry)
        if isinstance(noise, bool) or not isinstance(noise, (int, float)) \
                or not math.isfinite(noise) or noise < 0:
            raise ValueError(f"noise must be a finite number >= 0, not {noise!r}")
        if isinstance(rivalry, bool) or not isinstance(rivalry, (int, float)) \
                or not 0.0 <= rivalry <= 1.0:
            raise ValueError(f"rivalry must be between 0 and 1, not {rivalry!r}")
        self.rng = random.Random(seed)
        self.noise = float(noise)
        self.depth = _count("depth", depth, 0)
        self.beam = _count("beam", beam, 1)
        self.wide = _count("wide", wide, 1)
        self.evaluations = _count("evaluations", evaluations, 1)
        self._evals = 0
        self.rivalry = float(rivalry)
        self.weights = weights
        self.exact = _count("exact", exact, 0)
        #: whether the last :meth:`rate` was exact (the end of the game searched)
        self.last_exact = False

    # ------------------------------------------------------------------ rating
    def _score(self, est: list[float], p: int) -> float:
        others = [e for q, e in enumerate(est) if q != p]
        if not others:
            return est[p]
        r = self.rivalry
        rival = max(others) if r == 1.0 else r * max(others) + (1 - r) * sum(others) / len(
            others)
        return est[p] - rival

    def _children(self, state: State, codes: list[int], p: int, depth: int,
                  width: int) -> list[tuple[float, int, list[float]]]:
        """(score, code, estimates) of each of ``codes`` for ``p``. A code after which
        ``p`` decides again in the same turn (a follow-up, not a new Action-phase turn)
        is rated by its best continuation, looking through ``depth`` such levels, for
        the ``width`` best of them by their own estimate (the others keep it) while the
        evaluation budget lasts."""
        w = self.weights
        items: list[tuple[float, int, list[float]]] = []
        follow: list[tuple[float, int, int, State]] = []
        for c in codes:
            child = state.copy()
            child.apply_code(c)
            est = evaluate(child, w)
            score = self._score(est, p)
            if depth and child.current_player == p and _PASS not in child.legal_codes():
                follow.append((score, -c, len(items), child))
            items.append((score, c, est))
        self._evals += len(codes)
        if follow:
            follow.sort(reverse=True)
            for _, _, j, child in follow[:width]:
                if self._evals >= self.evaluations:
                    break
                sub = self._children(child, child.legal_codes(), p, depth - 1, self.beam)
                best = max(sub, key=_key)
                items[j] = (best[0], items[j][1], best[2])
        return items

    def rate(self, state: State) -> list[tuple[float, int, list[float]]]:
        """Every legal action of ``state`` as (score, code, estimates), best first (ties
        to the lowest code): ``score`` is the mover's estimated final glory minus its
        rival's after the action and its best follow-up, ``estimates`` every seat's
        estimated final glory there (their final scores when the rest of the game was
        searched, :attr:`last_exact`). ``state`` is not modified."""
        p = state.current_player
        if p is None:
            raise ValueError("the game is over: there is nothing to choose")
        self.last_exact = False
        codes = state.legal_codes()
        if len(codes) == 1:
            est = evaluate(state, self.weights)
            return [(self._score(est, p), codes[0], est)]
        exact = exact_options(state, self.exact)
        if exact is not None:
            n = state.n
            out = []
            for c, v in exact[0]:
                glory = v[2 * n:]
                out.append((self._score(glory, p), c, glory))
            self.last_exact = True
        else:
            self._evals = 0
            out = self._children(state, codes, p, self.depth, self.wide)
        out.sort(key=_key, reverse=True)
        return out

    # ------------------------------------------------------------------ the interface
    def choose_code(self, state: State) -> int:
        """The code of the chosen action; ``state`` must not be over."""
        codes = state.legal_codes()
        if len(codes) == 1:
            return codes[0]
        rated = self.rate(state)
        if self.noise <= 0:
            return rated[0][1]
        top = rated[0][0]
        weights = [math.exp((x[0] - top) / self.noise) for x in rated]
        return rated[self.rng.choices(range(len(rated)), weights)[0]][1]

    def choose(self, state: State) -> Action:
        """The chosen action; ``state`` must not be over and is not modified."""
        return A.BY_CODE[self.choose_code(state)]

    def analyse(self, state: State, top: int = 3) -> list[Rated]:
        """The ``top`` best actions for the player to move, best first, each with its
        rating (estimated final glory minus the strongest rival's), the estimate in
        words and the expected final glory and margin."""
        p = state.current_player
        if p is None:
            return []
        out = []
        rated = self.rate(state)
        for score, code, est in rated[:max(0, top)]:
            out.append(Rated(A.BY_CODE[code], score, 0,
                             outlook_words(est, p, self.last_exact),
                             est[p], margins(est)[p]))
        return out


def _count(name: str, value: object, least: int) -> int:
    """``value`` as a whole number >= ``least``, or ``ValueError`` naming the setting."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be an int >= {least}, not {value!r}")
    return value


def _key(item: tuple[float, int, list[float]]) -> tuple[float, int]:
    """Sort key: the best score first, ties to the lowest code."""
    return item[0], -item[1]


__all__ = ["GreedyBot"]
