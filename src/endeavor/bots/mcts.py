"""Multiplayer Monte Carlo tree search (max-n UCT) for every ruleset and option.

Endeavor is fully open and, after setup, deterministic (R2: the decks are stacked from
the state's own seeded generator at setup and ``copy()`` copies everything), so the tree
needs no chance nodes: an edge is an action code and a node is the position it leads
to. Decisions with a single legal action are followed straight through. The tree keeps
one value sum per seat for every edge (max-n): an iteration's result is a vector of
per-seat values in [0, 1], added along its path, and selection at a node maximises the
UCT score of the player who decides there (``state.current_player``, which may be a
player out of turn: discards, reactions, the Silent Fleet's choices made by the acting
player).

The values (:func:`endeavor.bots.evaluate.search_values`) are each seat's win share
plus a term for the glory it gains or loses on its margin over the best other seat
(small while its result is open, nearly all of the value once it is settled), so that
a game whose winner is settled is still played for points; on a finished game they
are exact (the real win shares and final scores), before it estimated from the
evaluation. Beside them each edge adds up the seats' win shares and final glory, which
:meth:`analyse` reports.

One iteration descends from the root by UCT to a node not expanded yet and expands it
whole: every child position is scored and starts with that score as one visit. A child
where the same player decides again within the turn (a building's target, the second
action of a "+" building) is expanded at once too and scored by its best follow-up
(``follow`` levels), so that a building is valued by its best target from its first
visit, not by the position with a disc spent and nothing gained yet. Then, with
``rollout`` > 0, a cut-off rollout of that many random decisions (rarely passing) is
played from the child that is best for the player to move and the position it reaches
is scored; by default (``rollout=0``) that child's own score is backed up, since random
decisions for the mover undervalue every line where the mover has decisions left (a
pass ends them, which made passing look safe). The first scores act as priors, so a
wide node is searched from its most promising children first. Progressive widening is
there too (off by default): the children are kept in the order of their first score
for the player to move, and a node visited ``n`` times considers only the first
``widen * n ** alpha``.

Where the rest of the game is the mover's own (the last round once every other player
has passed, and the last Discard phase), the bot plays it exactly instead
(:mod:`.endgame`). Inside a search every position is scored the same way, by the
evaluation (scoring some leaves exactly and others by estimate would favour the lines
that reach the exact ones sooner).

The budget is ``seconds=`` (default 1 s) or ``iterations=``. With an iteration budget
the search depends only on the position and the bot's own ``random.Random(seed)`` (used
by the rollouts): the same seed, budget and position give the same choice on any
machine.

A bot pickles and deep-copies whole (settings, generator, last :class:`Stats` and the
tree kept for reuse), so that the copy chooses exactly as the original would have.
"""

from __future__ import annotations

import gc
import math
import random
import time
from typing import Any, Final, cast

from .. import actions as A
from ..actions import Action
from ..state import State
from .base import Rated, exact_rated, outlook_words
from .endgame import BUDGET, exact_ranking
from .evaluate import MARGIN_SCALE, margin_weights, margins, search_values

_PASS = A.PASS.code

#: the positions an expansion may score to look through its children's follow-ups (the
#: most promising first): a dozen buildings' targets, not a dozen times an Exploit's 79
#: abilities
FOLLOW_EVALS: Final = 160
#: default search time per decision when no budget is given
DEFAULT_SECONDS = 1.0
#: the keyword options of :class:`MCTSBot`
OPTIONS = ("seconds", "iterations", "c", "widen", "alpha", "rollout", "pass_weight",
           "reuse", "exact", "follow", "clock", "settle")
#: what a budget of ``seconds`` counts: ``wall`` (the default) seconds of the wall clock,
#: ``cpu`` seconds of this process's processor time, which other work on the machine
#: does not eat into (fair matches on a busy machine)
CLOCKS: Final = {"wall": time.perf_counter, "cpu": time.process_time}


def clock_of(clock: object) -> str:
    """``clock`` checked: a key of :data:`CLOCKS` (raises ``ValueError`` otherwise)."""
    if not isinstance(clock, str) or clock not in CLOCKS:
        raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock!r}")
    return clock


def settled_option(settle: object) -> bool:
    """``settle`` checked: True or False (raises ``ValueError`` otherwise)."""
    if not isinstance(settle, bool):
        raise ValueError(f"settle must be True or False, not {settle!r}")
    return settle


def _positive(name: str, value: object, integral: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, not {value!r}")
    if integral and not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, not {value!r}")


def follow_forced(s: State) -> None:
    """Apply the only legal action while there is exactly one."""
    codes = s.legal_codes()
    while len(codes) == 1:
        s.apply_code(codes[0])
        codes = s.legal_codes()


class _Node:
    """A position in the tree, after any forced decisions: who decides there and, once
    expanded, its children (codes in the order of their first score for ``player``),
    per child the visits, the per-seat value sums and the child node (None until
    reached, :data:`_END` for a finished game); ``n`` is the sum of the visits."""

    __slots__ = ("player", "codes", "cn", "cw", "kids", "n")

    def __init__(self, player: int) -> None:
        self.player = player
        self.codes: list[int] | None = None
        self.cn: list[int] = []
        self.cw: list[list[float]] = []
        self.kids: list[_Node | None] = []
        self.n = 0


#: the child marker of a finished game (its values are exact and never change)
_END = _Node(-1)
#: what a pickled tree keeps of each node, besides its children (:func:`pack_tree`)
_NODE_FIELDS: Final = ("player", "codes", "cn", "cw", "n")


class Stats:
    """What the last search did: iterations, wall-clock seconds, the deepest path,
    the nodes expanded, the positions evaluated and the visits of the subtree reused
    from the previous search."""

    __slots__ = ("iterations", "seconds", "depth", "nodes", "evaluations", "reused", "exact")

    def __init__(self, iterations: int = 0, seconds: float = 0.0, depth: int = 0,
                 nodes: int = 0, evaluations: int = 0, reused: int = 0,
                 exact: bool = False) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.nodes = nodes
        self.evaluations = evaluations
        self.reused = reused
        #: whether the choice was exact (:mod:`.endgame`; ``evaluations``: the positions
        #: it looked at)
        self.exact = exact

    def __reduce__(self) -> tuple[Any, tuple[int, float, int, int, int, int, bool]]:
        return (Stats, (self.iterations, self.seconds, self.depth, self.nodes,
                        self.evaluations, self.reused, self.exact))

    @property
    def per_second(self) -> float:
        """Iterations per second of the last search (0 when nothing was searched)."""
        return self.iterations / self.seconds if self.seconds > 0 else 0.0

    def __repr__(self) -> str:
        return (f"Stats(iterations={self.iterations}, seconds={self.seconds:.3f}, "
                f"depth={self.depth}, nodes={self.nodes}, "
                f"evaluations={self.evaluations}, reused={self.reused}, exact={self.exact})")


class MCTSBot:
    """Max-n Monte Carlo tree search on the Endeavor evaluation.

    ``seconds`` or ``iterations`` sets the budget per decision (not both; default
    ``seconds=1.0``); ``clock`` says what the seconds count (:data:`CLOCKS`: ``wall``
    time, the default, or this process's ``cpu`` time); with ``settle`` (the default) a
    search under a time budget stops as soon as its choice can no longer change
    (:func:`settled`). ``c`` is the UCT exploration
    constant (values in [0, 1]: win shares with a glory-margin term); ``widen`` and
    ``alpha`` the progressive widening (a node visited ``n`` times considers its first
    ``max(2, widen * n ** alpha)`` children; ``widen=0`` considers them all);
    ``rollout`` the random decisions played from the best new child before scoring it
    (0, the default: score that child directly), ``pass_weight`` how often those keep
    "pass" among their choices.
    ``reuse`` keeps the tree between decisions: when the next position follows from the
    last one searched (the same game, later), the search starts from the subtree it
    already has there.

    ``follow`` is how many levels of follow-up decisions of the same player (a
    building's target, the second action of a "+" building) an expansion looks through
    to score a child by its best follow-up (0: each child by its own position).
    ``exact`` is the budget, in positions, of the exact end-game search (:mod:`.endgame`):
    in the last round once every other player has passed, and in the last Discard
    phase, the bot plays every line of its remaining decisions to the end and takes the
    best by the final scores, without a tree search, when that takes at most ``exact``
    positions (0: never).

    ``choose`` never modifies the state it is given; ``last`` holds the :class:`Stats`
    of the last search (``last_iterations``, ``last_seconds`` for short).
    """

    name = "mcts"

    # the settings are typed ``object`` and checked below: compiled with mypyc, typed
    # parameters would reject a wrong type with a TypeError before these ValueErrors
    def __init__(self, seed: int = 0, seconds: float | None | object = None,
                 iterations: int | None | object = None, c: float | object = 0.05,
                 widen: float | object = 0.0, alpha: float | object = 0.5,
                 rollout: int | object = 0, pass_weight: float | object = 0.1,
                 reuse: bool | object = True, exact: int | object = BUDGET,
                 follow: int | object = 1, clock: str | object = "wall",
                 settle: bool | object = True) -> None:
        self.clock = clock_of(clock)
        self.settle = settled_option(settle)
        if seconds is not None and iterations is not None:
            raise ValueError("give the mcts budget as seconds= or iterations=, not both")
        if iterations is not None:
            _positive("iterations", iterations, integral=True)
        elif seconds is not None:
            _positive("seconds", seconds, integral=False)
        else:
            seconds = DEFAULT_SECONDS
        for name, value in (("c", c), ("widen", widen), ("alpha", alpha)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, not {value!r}")
        if isinstance(rollout, bool) or not isinstance(rollout, int) or rollout < 0:
            raise ValueError(f"rollout must be a whole number >= 0, not {rollout!r}")
        if isinstance(pass_weight, bool) or not isinstance(pass_weight, (int, float)) \
                or not 0.0 <= pass_weight <= 1.0:
            raise ValueError(f"pass_weight must be between 0 and 1, not {pass_weight!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.seconds = None if seconds is None else float(cast(float, seconds))
        self.iterations = cast("int | None", iterations)
        self.c = float(cast(float, c))
        self.widen = float(cast(float, widen))
        self.alpha = float(cast(float, alpha))
        self.rollout = rollout
        self.pass_weight = float(cast(float, pass_weight))
        if not isinstance(reuse, bool):
            raise ValueError(f"reuse must be True or False, not {reuse!r}")
        self.reuse = reuse
        if isinstance(exact, bool) or not isinstance(exact, int) or exact < 0:
            raise ValueError(f"exact must be a whole number >= 0, not {exact!r}")
        self.exact = exact
        if isinstance(follow, bool) or not isinstance(follow, int) or follow < 0:
            raise ValueError(f"follow must be a whole number >= 0, not {follow!r}")
        self.follow = follow
        self._evals = 0
        self._nodes = 0
        self.last = Stats()
        # the last search's root position (a copy), its history codes and its tree
        self._kept: tuple[State, list[int], _Node, list[float], list[float]] | None = None
        #: the seats' margins the search values are measured from, and their margin
        #: weights (see :func:`~endeavor.bots.evaluate.search_values`): the root's, for
        #: its tree
        self._center: list[float] = []
        self._weight: list[float] = []

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled and deep-copied whole: the settings, the generator's state, the last
        :class:`Stats` and the tree kept for reuse (flat, :func:`pack_tree`), so that the
        copy chooses exactly as the original would have."""
        return (_unpickle, (self.seed, {k: getattr(self, k) for k in OPTIONS},
                            self.rng.getstate(), self.last,
                            pack_kept(self._kept, _END, _NODE_FIELDS)))

    # ------------------------------------------------------------------ public
    @property
    def last_iterations(self) -> int:
        """Iterations of the last search."""
        return self.last.iterations

    @property
    def last_seconds(self) -> float:
        """Wall-clock seconds of the last search."""
        return self.last.seconds

    def choose(self, state: State) -> Action:
        """The most visited action at the root after the search; a forced move (one
        legal action) is returned at once. ``state`` must not be over."""
        return A.BY_CODE[self.choose_code(state)]

    def choose_code(self, state: State) -> int:
        """Like :meth:`choose`, as an action code."""
        codes = state.legal_codes()
        if not codes:
            raise ValueError("the game is over: there is no action to choose")
        if len(codes) == 1:
            self.last = Stats()
            return codes[0]
        exact = self._exact(state)
        if exact is not None:
            return exact[0][0]
        return self._ranked(self._search(state))[0][0]

    def analyse(self, state: State, top: int = 3) -> list[Rated]:
        """The ``top`` most visited actions for the player to move, best first: value is
        that player's mean win share through the action (an estimate), with the visits
        behind it, and the mean final glory the simulations expect for that player
        (``glory``; ``margin``: that glory minus the best other seat's). When the
        choice is exact (:mod:`.endgame`), the actions are the best first by the final
        scores they lead to, with their exact win shares, glory and margins (0
        visits)."""
        codes = state.legal_codes()
        if not codes or top <= 0:
            return []
        if len(codes) == 1:
            self.last = Stats()
            return [Rated(A.BY_CODE[codes[0]], 0.0, 0, "the only legal action")]
        p = state.current_player
        assert p is not None
        n = state.n
        out = []
        exact = self._exact(state)
        if exact is not None:
            return exact_rated(exact, p, n, top)
        for code, _, visits, win, glory in self._ranked(self._search(state))[:top]:
            out.append(Rated(A.BY_CODE[code], win, visits,
                             f"{outlook_words(glory, p)}; wins about {round(100 * win)}% "
                             f"of simulations ({visits} visit{'s' if visits != 1 else ''})",
                             glory[p], margins(glory)[p]))
        return out

    def _exact(self, state: State) -> list[tuple[int, list[float]]] | None:
        return exact_answer(self, state)

    # ------------------------------------------------------------------ search
    @staticmethod
    def _ranked(root: _Node) -> list[tuple[int, float, int, float, list[float]]]:
        """(code, search value for the mover, visits, win share for the mover, every
        seat's final glory) of the root's children, means over their visits, most
        visited first; ties: the higher value, then the first score's order."""
        assert root.codes is not None
        p = root.player
        rows = []
        for i, code in enumerate(root.codes):
            m = root.cn[i]
            w = root.cw[i]
            n = len(w) // 3
            rows.append((code, w[p] / m, m, w[n + p] / m, [x / m for x in w[2 * n:]]))
        order = sorted(range(len(rows)), key=lambda i: (-rows[i][2], -rows[i][1], i))
        return [rows[i] for i in order]

    def _expand(self, node: _Node, s: State, depth: int, wide: int, spare: list[State]
                ) -> tuple[list[float], State | None]:
        """Score every child of ``node`` (at position ``s``), order them best first for
        the player to move, and return the best child's values and (with rollouts, else
        None) position.

        A child where the same player decides again within the turn (a building's
        target, the second action of a "+" building: not a new turn, where passing
        would be offered) is a follow-up: the ``wide`` best of them by their own score
        are expanded at once, ``depth`` levels deep (3 at a time below the first), while
        they have scored fewer than :data:`FOLLOW_EVALS` positions, and scored by their
        best follow-up, so that ``act fortress`` is worth its best
        Occupy from its first visit rather than the position with a disc spent and
        nothing yet gained.

        The children are played out on scratch states from ``spare`` (copied into with
        :meth:`~endeavor.state.State.copy_into`, not allocated for each child), the last
        child on ``s`` itself (which the caller no longer needs as it was); only the
        positions still needed afterwards (the follow-ups, and every child when
        rollouts need the best one) keep a state of their own, which goes back to
        ``spare`` when it is no longer needed (``s`` never does: it is the caller's)."""
        p = node.player
        keep_all = self.rollout > 0
        rows = []
        states: list[State | None] = []
        over: list[bool] = []
        follow: list[int] = []
        i = 0
        codes = s.legal_codes()
        last = len(codes) - 1
        c = spare.pop() if spare else None
        for code in codes:
            if i == last:  # the last child is played out on ``s`` itself, not a copy
                if c is not None:
                    spare.append(c)
                c = s
            elif c is None:
                c = s.copy()
            else:
                s.copy_into(c, True)
            c.apply_code(code)
            follow_forced(c)
            v = search_values(c, None, self._center, self._weight, True)
            rows.append((-v[p], i, code, v))
            done = c.is_over
            over.append(done)
            if depth and not done and c.current_player == p \
                    and c.legal_codes()[-1] != _PASS:
                follow.append(i)
                states.append(c)
                c = None if i == last else spare.pop() if spare else None
            elif keep_all:
                states.append(c)
                c = None if i == last else spare.pop() if spare else None
            else:
                states.append(None)
            i += 1
        if c is not None and c is not s:
            spare.append(c)
        self._evals += i
        self._nodes += 1
        kids: dict[int, _Node] = {}
        bests: dict[int, State | None] = {}
        if follow:
            follow.sort(key=lambda k: (rows[k][0], k))
            spent = self._evals
            for j in range(min(wide, len(follow))):
                if self._evals - spent >= FOLLOW_EVALS:
                    break
                k = follow[j]
                kid = _Node(p)
                v, best = self._expand(kid, cast(State, states[k]), depth - 1, 3, spare)
                kids[k] = kid
                bests[k] = best
                rows[k] = (-v[p], k, rows[k][2], v)
        rows.sort()  # by the score, then the legal order (i is unique: no further)
        node.codes = [r[2] for r in rows]
        # each child's values become its value sums, added to by every later visit;
        # the best child's are also returned to be added along the path: a copy of them
        cw = [r[3] for r in rows]
        cw[0] = cw[0][:]
        node.cw = cw
        node.cn = [1] * i
        node.kids = [kids.get(r[1]) or (_END if over[r[1]] else None) for r in rows]
        node.n = i
        first = rows[0][1]
        best_state = bests[first] if first in bests else states[first]
        if not keep_all:
            for k in follow:
                if states[k] is not s:  # ``s`` is the caller's, not a spare
                    spare.append(cast(State, states[k]))
        return rows[0][3], best_state

    def _rollout(self, s: State) -> list[float]:
        """``rollout`` random decisions (rarely passing) from ``s``, then its values."""
        rng = self.rng
        pass_weight = self.pass_weight
        for _ in range(self.rollout):
            codes = s.legal_codes()
            m = len(codes)
            if m == 0:
                break
            if m > 1 and codes[-1] == _PASS and rng.random() >= pass_weight:
                s.apply_code(codes[rng.randrange(m - 1)])
            else:
                s.apply_code(codes[rng.randrange(m)])
        return search_values(s, None, self._center, self._weight)

    def _search(self, state: State) -> _Node:
        nseats = 3 * state.n  # the values backed up: search values, win shares, glory
        c = self.c
        widen = self.widen
        alpha = self.alpha
        rollout = self.rollout
        log = math.log
        sqrt = math.sqrt
        n = state.n
        center, weight = margin_frame(state)
        root = None
        if self.reuse:
            kept = self._reused(state)
            if kept is not None and frame_holds(center, kept[1]):
                root, center, weight = kept
        self._center = center
        self._weight = weight
        reused = root.n if root is not None else 0
        if root is None:
            mover = state.current_player
            assert mover is not None
            root = _Node(mover)
        budget = self.iterations
        clock = CLOCKS[self.clock]
        wall = time.perf_counter()
        start = clock()
        deadline = start + (self.seconds or 0.0)
        self._nodes = 0
        self._evals = 0
        follow = self.follow
        settle = self.settle
        deepest = 0
        done = 0
        # the position searched from, as the search's own copy (``state`` may have been
        # changed by hand: its mats' numbers are not to be trusted, the copy's are)
        base = state.copy()
        s = state.copy()  # the position of each iteration's path, copied into
        spare: list[State] = []  # scratch positions for the expansions (see _expand)
        # the tree and its scratch positions hold no reference cycles: the collector
        # would only walk them again and again (a tenth of the time), so it rests during
        # the search
        collecting = gc.isenabled()
        gc.disable()
        try:
            while True:
                if budget is not None:
                    if done >= budget:
                        break
                else:
                    now = clock()
                    if done and (now >= deadline or (settle and done & 31 == 0 and settled(
                            root, done / (now - start + 1e-9) * (deadline - now)))):
                        break
                done += 1
                base.copy_into(s, True)
                node = root
                path: list[tuple[_Node, int]] = []
                while True:
                    codes = node.codes
                    if codes is None:
                        v, best = self._expand(node, s, follow, 12, spare)
                        if rollout and best is not None and not best.is_over:
                            v = self._rollout(best)
                            self._evals += 1
                        break
                    # UCT for the player to move, over the first children (widening)
                    k = len(codes)
                    n = node.n
                    if widen:
                        lim = int(widen * n ** alpha)
                        if lim < k:
                            k = lim if lim > 2 else 2
                    p = node.player
                    cn = node.cn
                    cw = node.cw
                    cl = c * sqrt(log(n))
                    best_i = 0
                    best_score = -1.0
                    for i in range(k):
                        m = cn[i]
                        score = cw[i][p] / m + cl / sqrt(m)
                        if score > best_score:
                            best_score = score
                            best_i = i
                    path.append((node, best_i))
                    kid = node.kids[best_i]
                    if kid is _END:
                        m = cn[best_i]
                        v = [x / m for x in cw[best_i]]
                        break
                    s.apply_code(codes[best_i])
                    follow_forced(s)
                    if kid is None:  # the game goes on there (a finished one is _END)
                        who = s.current_player
                        assert who is not None
                        kid = node.kids[best_i] = _Node(who)
                    node = kid
                for nd, i in path:
                    nd.n += 1
                    nd.cn[i] += 1
                    w = nd.cw[i]
                    for q in range(nseats):
                        w[q] += v[q]
                if len(path) > deepest:
                    deepest = len(path)
        finally:
            if collecting:
                _age_young()
                gc.enable()
        self.last = Stats(done, time.perf_counter() - wall, deepest, self._nodes, self._evals,
                          reused)
        if self.reuse:
            self._kept = (state.copy(), [a.code for a in state.history()], root, center,
                          weight)
        return root

    def _reused(self, state: State) -> tuple[_Node, list[float], list[float]] | None:
        """The subtree of the last search at ``state`` (:func:`reached`), with the
        margins its values are measured from and their weights, else None."""
        kept = self._kept
        self._kept = None
        if kept is None:
            return None
        old, old_codes, node, center, weight = kept
        kid = reached(old, old_codes, node, state, _END)
        if kid is None:
            return None
        return cast(_Node, kid), center, weight


def _age_young() -> None:
    """Move every object the collector tracks as young to its oldest generation, without
    walking them (``gc.freeze`` then ``gc.unfreeze``): after a search, the young
    generation holds its whole tree and scratch positions, allocated with the collector
    at rest, which the first allocation afterwards would otherwise walk, and again in
    the middle generation, although none of them is garbage in a cycle (what is not kept
    is freed by its reference count). Not where something else has frozen objects (the
    web app does, at its start): unfreezing would undo that."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


def settled(root: Any, more: float) -> bool:
    """Whether the most visited of ``root``'s children stays the most visited however
    the ``more`` iterations a time budget has left fall: a search under a time budget
    stops there, since the move it would play can no longer change (the choice is the
    most visited child, :meth:`MCTSBot._ranked`)."""
    cn = root.cn
    if cn is None:
        return False
    first = second = 0
    for m in cn:
        if m > first:
            second = first
            first = m
        elif m > second:
            second = m
    return first - second > more


def margin_frame(state: State) -> tuple[list[float], list[float]]:
    """What a search's values measure the glory margin from (the ``center`` and
    ``weight`` of :func:`~.evaluate.search_values`): each seat's margin at ``state``,
    where the search starts, and the weight of its margin term there."""
    n = state.n
    here = search_values(state)
    return margins(here[2 * n:]), margin_weights(here[n:2 * n])


def frame_holds(center: list[float], kept: list[float]) -> bool:
    """Whether a tree whose values are measured from the margins ``kept`` may be reused
    at a position whose own are ``center``: while they stay close (the values' margin
    term is :data:`~.evaluate.MARGIN_SCALE` wide)."""
    return max(abs(a - b) for a, b in zip(center, kept, strict=True)) <= MARGIN_SCALE / 4


def exact_answer(bot: Any, state: State) -> list[tuple[int, list[float]]] | None:
    """A search bot's exact end-game answer (:func:`~.endgame.exact_ranking` within its
    budget ``bot.exact``, 0: never): the legal codes with the values of the finished games
    they lead to, best first for the player to move (by value, then own final glory;
    ties in legal order), or None. Sets ``bot.last`` and drops the tree kept for reuse
    when it answers. Shared by :class:`MCTSBot` and :class:`~.expert.ExpertBot`."""
    if not bot.exact:
        return None
    start = time.perf_counter()
    found = exact_ranking(state, bot.exact)
    if found is None:
        return None
    rows, looked = found
    bot.last = Stats(0, time.perf_counter() - start, 0, 0, looked, 0, exact=True)
    bot._kept = None
    return rows


def reached(old: State, old_codes: list[int], node: Any, state: State, end: Any) -> Any:
    """The node of a search tree (``node``, the root searched at ``old``, whose history
    is ``old_codes``) that stands for ``state``, when ``state`` follows from ``old``
    (its history extends ``old_codes`` and replaying the new decisions from ``old``
    reaches ``state`` exactly) and the tree has expanded it; else None. Nodes have
    ``codes`` (None until expanded) and ``kids`` (None until reached, ``end`` for a
    finished game); a forced decision stays inside its node. Shared by :mod:`.mcts`
    and :mod:`.expert`, whose trees keep their subtree between decisions."""
    k = len(old_codes)
    if state.config != old.config or state.num_actions < k:
        return None
    codes = [a.code for a in state.history()]
    if codes[:k] != old_codes:
        return None
    s = old.copy()
    for code in codes[k:]:
        legal = s.legal_codes()
        if code not in legal:  # a position built by hand, not a later one
            return None
        if len(legal) > 1:  # a forced decision stays inside its node
            if node.codes is None or code not in node.codes:
                return None
            kid = node.kids[node.codes.index(code)]
            if kid is None or kid is end:
                return None
            node = kid
        s.apply_code(code)
    if node.codes is None or s.to_json() != state.to_json():
        return None
    return node


def pack_kept(kept: tuple[Any, ...] | None, end: Any, fields: tuple[str, ...]
              ) -> tuple[Any, ...] | None:
    """A search bot's kept tree (``(root position, its history codes, root node, center,
    weight)``, or None) for pickling: the tree as rows (:func:`pack_tree`)."""
    if kept is None:
        return None
    return (kept[0], kept[1], pack_tree(kept[2], end, fields), kept[3], kept[4])


def unpack_kept(packed: tuple[Any, ...] | None, end: Any, make: Any,
                fields: tuple[str, ...]) -> Any:
    """:func:`pack_kept` undone (``make(player)`` makes a node)."""
    if packed is None:
        return None
    return (packed[0], packed[1], unpack_tree(packed[2], end, make, fields), packed[3],
            packed[4])


def pack_tree(root: Any, end: Any, fields: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """A search tree as rows, the root first: each node's ``fields`` (the first is its
    player), then its children as row numbers (-1: None, not reached; -2: ``end``, a
    finished game). Flat, so that pickling or copying a deep tree does not recurse
    through it, and so that ``end`` comes back as the module's own marker, which the
    search tells by identity. Shared by :mod:`.mcts` and :mod:`.expert`."""
    rows: list[tuple[Any, ...]] = []
    todo = [root]
    i = 0
    while i < len(todo):
        node = todo[i]
        i += 1
        kids: list[int] = []
        for kid in node.kids:
            if kid is None:
                kids.append(-1)
            elif kid is end:
                kids.append(-2)
            else:
                kids.append(len(todo))
                todo.append(kid)
        rows.append((*[getattr(node, f) for f in fields], kids))
    return rows


def unpack_tree(rows: list[tuple[Any, ...]], end: Any, make: Any,
                fields: tuple[str, ...]) -> Any:
    """The tree of :func:`pack_tree`'s rows (``make(player)`` makes a node); its root."""
    nodes = [make(row[0]) for row in rows]
    for node, row in zip(nodes, rows, strict=True):
        for k, f in enumerate(fields):
            setattr(node, f, row[k])
        node.kids = [None if j == -1 else end if j == -2 else nodes[j] for j in row[-1]]
    return nodes[0]


def _unpickle(seed: int, options: dict[str, Any], rng: Any, last: Stats,
              kept: tuple[Any, ...] | None) -> MCTSBot:
    """An :class:`MCTSBot` as :meth:`MCTSBot.__reduce__` pickled it."""
    bot = MCTSBot(seed, **options)
    bot.rng.setstate(rng)
    bot.last = last
    bot._kept = unpack_kept(kept, _END, _Node, _NODE_FIELDS)
    return bot


def make_mcts(seed: int = 0, **options: Any) -> MCTSBot:
    """``MCTSBot(seed, **options)``, raising ``ValueError`` (not ``TypeError``) for an
    option it does not have. (A plain function: ``**options`` on the class itself would
    not compile with mypyc.)"""
    unknown = sorted(k for k in options if k not in OPTIONS)
    if unknown:
        raise ValueError(f"unknown mcts option(s): {', '.join(unknown)} (the budget is "
                         f"seconds= or iterations=; options: {', '.join(OPTIONS)})")
    return MCTSBot(seed, **options)
