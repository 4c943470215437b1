"""The ``expert`` bot: max-n Monte Carlo tree search guided by a learned policy/value
network (PUCT, as in AlphaZero, with one value per seat).

The tree is :mod:`.mcts`'s (no chance nodes: after setup the game is deterministic, R2;
decisions with a single legal action are followed straight through; a node's player is
``state.current_player``, who may decide out of turn), but a node is expanded by asking
the network (:class:`~endeavor.bots.net.Net`, trained by ``endeavor train``) about its
position once: its **priors** over the legal actions and its **value vector**, each
seat's win share. There are no rollouts. A leaf's value is the network's value vector
mixed, at ``mix`` (default :data:`MIX`; 0: the network alone), with the hand-made
search values ``hard`` backs up (:func:`~endeavor.bots.evaluate.search_values`: the win
share plus a term for the glory margin, measured from the root's margins), as AlphaGo
mixed its value network with rollouts: the margin term keeps a decided game played for
points, and the hand-made evaluation steadies a network trained on few
games. A finished game backs up its real result (1 to the sole winner, a shared first
place split; mixed the same way with its final margins). The value vector is backed up
along the path, every edge keeps one value sum per seat, and selection at a node
maximises, for the player who decides there,

    Q(a) + c * P(a) * sqrt(N + 1) / (1 + N(a))

where ``Q(a)`` is that player's mean value through the edge (the node's own value for
that player, less ``fpu``, while the edge is unvisited), ``P(a)`` the prior, ``N`` the
node's visits and ``N(a)`` the edge's. The move is the most visited root edge (ties: the
higher value, then the higher prior, then the engine's action order).

Where the rest of the game is the mover's own (the last round once every other player
has passed, the last Discard phase), the move is found exactly, as ``hard`` finds it
(:mod:`.endgame`; ``exact=`` its budget in positions, 0 turns it off).

The budget is ``seconds=`` (default 1 s) or ``iterations=`` (one network evaluation
each, at most). With an iteration budget and ``noise=0`` the search depends only on
the position and the weights: the same on every machine. ``noise`` > 0 mixes
Dirichlet(``alpha``) noise into the root's priors (self-play exploration, from the
bot's own ``random.Random(seed)``). ``reuse`` keeps the subtree of the position reached
between decisions of one game.

A bot pickles and deep-copies whole (settings, network, generator, last statistics and
the tree kept for reuse), so that the copy chooses exactly as the original would have.

The network needs numpy (``pip install 'endeavor[expert]'``); the weights are the file
shipped with the package (:data:`WEIGHTS`) unless ``weights=`` names another file (or
passes a :class:`~endeavor.bots.net.Net`).
"""

from __future__ import annotations

import math
import os
import random
import time
from importlib import resources
from typing import Any, cast

import numpy as np

from .. import actions as A
from ..actions import Action
from ..encoding.actions import CODES
from ..encoding.observation import ObservationEncoder
from ..state import State
from .base import Rated, exact_rated
from .endgame import BUDGET
from .evaluate import search_values
from .evaluate import values as _values
from .mcts import (
    CLOCKS,
    Stats,
    clock_of,
    exact_answer,
    follow_forced,
    frame_holds,
    margin_frame,
    pack_kept,
    reached,
    settled,
    settled_option,
    unpack_kept,
)
from .net import Net, NetError

#: the shipped weights: this file in the package ``endeavor.bots``
WEIGHTS = "weights/expert_v1.npz"
#: default search time per decision when no budget is given
DEFAULT_SECONDS = 1.0
#: default share of the hand-made search values in a leaf's value (the rest: the
#: network's), as AlphaGo mixed its value network with rollouts
MIX = 0.5
#: the keyword options of :class:`ExpertBot`
OPTIONS = ("seconds", "iterations", "c", "fpu", "noise", "alpha", "reuse", "weights", "mix",
           "exact", "clock", "settle")

_INDEX: dict[int, int] = {c: i for i, c in enumerate(CODES)}
#: networks already read, by (path, modification time, size): the last few
_LOADED: dict[tuple[str, float, int], Net] = {}
_KEEP = 8


def trained_players(net: Net) -> frozenset[int] | None:
    """The player counts of the games the network was trained on (its header's
    ``training.settings.players``), or None when its header does not say (a network
    made by hand)."""
    training = net.header.get("training")
    settings = training.get("settings") if isinstance(training, dict) else None
    players = settings.get("players") if isinstance(settings, dict) else None
    if not isinstance(players, list) or not players:
        return None
    counts = set()
    for x in players:
        if isinstance(x, bool) or not isinstance(x, int):
            return None
        counts.add(x)
    return frozenset(counts)


def mix_for(net: Net, players: int, mix: float = MIX) -> float:
    """The hand-made search values' share in a leaf's value in a game of ``players``:
    ``mix`` where the network was trained on games of that many players (or its header
    does not say), else 1. A value head never trained on a player count knows nothing
    of it: the search then takes the network's priors and ``hard``'s values (the
    shipped network, trained on 2-player games, played 4-player games better so:
    docs/bots.md, "The expert level")."""
    trained = trained_players(net)
    return mix if trained is None or players in trained else 1.0


def weights_path() -> str:
    """The shipped weights file's path (it may not exist)."""
    return str(resources.files("endeavor.bots").joinpath(WEIGHTS))


def load_net(path: str | os.PathLike[str] | None = None) -> Net:
    """The network in ``path`` (default: the shipped weights), read once per process
    and file version (the last few are kept). Raises
    :class:`~endeavor.bots.net.NetError` (a ``ValueError``) when the file is missing or
    cannot be used."""
    where = weights_path() if path is None else os.fspath(path)
    try:
        st = os.stat(where)
    except OSError as e:
        what = "the expert bot's weights" if path is None else "expert weights"
        hint = (": train them with 'endeavor train' or reinstall endeavor"
                if path is None else "")
        raise NetError(f"{what} {where}: {e.strerror or e}{hint}") from None
    key = (where, st.st_mtime, st.st_size)
    net = _LOADED.get(key)
    if net is None:
        try:
            net = Net.load(where)
        except OSError as e:
            raise NetError(f"expert weights {where}: {e.strerror or e}") from None
        while len(_LOADED) >= _KEEP:
            del _LOADED[next(iter(_LOADED))]
        _LOADED[key] = net
    return net


class Node:
    """A position in the tree, after any forced decisions: who decides there and, once
    expanded, the network's value vector (absolute seats), its legal codes (the engine's
    order), their priors, and per child the visits, the per-seat value sums and the
    child node (None until reached, :data:`END` for a finished game). The training's
    self-play (:mod:`endeavor.analysis.train`) builds the same trees, a leaf at a time."""

    __slots__ = ("player", "codes", "prior", "value", "cn", "cw", "kids", "n")

    def __init__(self, player: int) -> None:
        self.player = player
        self.codes: list[int] | None = None
        self.prior: list[float] = []
        self.value: list[float] = []
        self.cn: list[int] = []
        self.cw: list[list[float]] = []
        self.kids: list[Node | None] = []
        self.n = 0


#: the child marker of a finished game (its values are exact and never change)
END = Node(-1)
#: what a pickled tree keeps of each node, besides its children (:func:`~.mcts.pack_tree`)
_NODE_FIELDS = ("player", "codes", "prior", "value", "cn", "cw", "n")


def _number(name: str, value: object, least: float, strict: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or value < least or (strict and value == least):
        rel = ">" if strict else ">="
        raise ValueError(f"{name} must be a finite number {rel} {least:g}, not {value!r}")
    return float(value)


class ExpertBot:
    """PUCT max-n tree search on a policy/value network (see the module docstring).

    ``seconds`` or ``iterations``: the budget per decision (not both; default
    ``seconds=1.0``); ``clock``: what the seconds count (``wall`` or ``cpu`` time, as
    :data:`~.mcts.CLOCKS`); ``settle``: stop a search under a time budget once its choice
    can no longer change (:func:`~.mcts.settled`). ``c`` (> 0): the exploration constant
    (values are win shares in [0, 1]). ``fpu`` (>= 0): how much less than the node's own
    value an unvisited child is worth to the player deciding. ``noise`` in [0, 1): the share
    of Dirichlet (``alpha`` > 0) noise in the root's priors (0: none, deterministic).
    ``reuse``: keep the tree between decisions of one game. ``weights``: a weights file or a
    :class:`~endeavor.bots.net.Net` (default: the shipped weights). ``mix`` in [0, 1]: the
    hand-made search values' share in a leaf's value. ``exact`` (>= 0): the budget in
    positions of the exact end game (0: off).

    ``choose`` never modifies the state it is given; ``last`` holds the
    :class:`~endeavor.bots.mcts.Stats` of the last search (``evaluations``: network
    evaluations).
    """

    name = "expert"

    def __init__(self, seed: int = 0, seconds: float | None | object = None,
                 iterations: int | None | object = None, c: float | object = 1.0,
                 fpu: float | object = 0.1, noise: float | object = 0.0,
                 alpha: float | object = 0.3, reuse: bool | object = True,
                 weights: str | os.PathLike[str] | Net | None | object = None,
                 mix: float | object = MIX, exact: int | object = BUDGET,
                 clock: str | object = "wall", settle: bool | object = True) -> None:
        self.clock = clock_of(clock)
        self.settle = settled_option(settle)
        if seconds is not None and iterations is not None:
            raise ValueError("give the expert budget as seconds= or iterations=, not both")
        if iterations is not None:
            if isinstance(iterations, bool) or not isinstance(iterations, int) \
                    or iterations < 1:
                raise ValueError(f"iterations must be a whole number >= 1, not "
                                 f"{iterations!r}")
        elif seconds is not None:
            _number("seconds", seconds, 0.0, strict=True)
        else:
            seconds = DEFAULT_SECONDS
        self.c = _number("c", c, 0.0, strict=True)
        self.fpu = _number("fpu", fpu, 0.0, strict=False)
        self.noise = _number("noise", noise, 0.0, strict=False)
        if self.noise >= 1.0:
            raise ValueError(f"noise must be below 1, not {noise!r}")
        self.alpha = _number("alpha", alpha, 0.0, strict=True)
        if not isinstance(reuse, bool):
            raise ValueError(f"reuse must be True or False, not {reuse!r}")
        self.reuse = reuse
        self.mix = _number("mix", mix, 0.0, strict=False)
        if self.mix > 1.0:
            raise ValueError(f"mix must be between 0 and 1, not {mix!r}")
        #: the mix of the search under way (:func:`mix_for` the game's player count)
        self._mix = self.mix
        if isinstance(exact, bool) or not isinstance(exact, int) or exact < 0:
            raise ValueError(f"exact must be a whole number >= 0, not {exact!r}")
        self.exact = exact
        self._center: list[float] = []
        self._weight: list[float] = []
        if isinstance(weights, Net):
            self.net = weights
        elif weights is None or isinstance(weights, (str, os.PathLike)):
            self.net = load_net(cast("str | os.PathLike[str] | None", weights))
        else:
            raise ValueError(f"weights must be a file name or a Net, not {weights!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.seconds = None if seconds is None else float(cast(float, seconds))
        self.iterations = iterations if isinstance(iterations, int) else None
        self.last = Stats()
        self._encoders: list[ObservationEncoder] = []
        self._kept: tuple[State, list[int], Node, list[float], list[float]] | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled and deep-copied whole: the settings, the network, the generator's
        state, the last statistics and the tree kept for reuse (flat,
        :func:`~.mcts.pack_tree`), so that the copy chooses exactly as the original would
        have. The encoders are made again (an observation does not depend on the ones
        encoded before it)."""
        return (_unpickle, (self.seed, {k: getattr(self, k) for k in OPTIONS if k != "weights"},
                            self.net, self.rng.getstate(), self.last,
                            pack_kept(self._kept, END, _NODE_FIELDS)))

    # ------------------------------------------------------------------ public
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
        that player's mean value through the action (a win share estimate; the
        network's own value of the position, less ``fpu``, for an action not visited),
        with the visits behind it and the network's prior in the text."""
        codes = state.legal_codes()
        if not codes or top <= 0:
            return []
        if len(codes) == 1:
            self.last = Stats()
            return [Rated(A.BY_CODE[codes[0]], 0.0, 0, "the only legal action")]
        out = []
        exact = self._exact(state)
        if exact is not None:
            p = state.current_player
            assert p is not None
            return exact_rated(exact, p, state.n, top)
        for code, value, visits, prior in self._ranked(self._search(state))[:top]:
            out.append(Rated(A.BY_CODE[code], value, visits,
                             f"wins about {round(100 * value)}% of simulations "
                             f"({visits} visit{'s' if visits != 1 else ''}, "
                             f"prior {round(100 * prior)}%)"))
        return out

    def evaluate(self, state: State) -> tuple[list[int], list[float], list[float]]:
        """The network on ``state`` (not over): its legal codes, their priors and each
        seat's value (win share, by absolute seat)."""
        return self._evaluate(state)

    def _exact(self, state: State) -> list[tuple[int, list[float]]] | None:
        return exact_answer(self, state)

    # ------------------------------------------------------------------ search
    def _ranked(self, root: Node) -> list[tuple[int, float, int, float]]:
        """(code, value for the mover, visits, prior) of the root's children, most
        visited first; ties: the higher value, then the higher prior, then the order."""
        assert root.codes is not None
        p = root.player
        first = root.value[p] - self.fpu
        rows = [(code, root.cw[i][p] / root.cn[i] if root.cn[i] else first, root.cn[i],
                 root.prior[i]) for i, code in enumerate(root.codes)]
        order = sorted(range(len(rows)),
                       key=lambda i: (-rows[i][2], -rows[i][1], -rows[i][3], i))
        return [rows[i] for i in order]

    def _evaluate(self, s: State) -> tuple[list[int], list[float], list[float]]:
        p = s.current_player
        assert p is not None
        codes = s.legal_codes()
        encoders = self._encoders
        while len(encoders) <= p:
            encoders.append(ObservationEncoder(len(encoders)))
        obs = encoders[p].encode(s, copy=False)
        index = _INDEX
        legal = np.array([index[c] for c in codes], dtype=np.intp)
        n = s.n
        priors, rel = self.net.evaluate(obs, legal, n)
        r = cast("list[float]", rel.tolist())
        values = [0.0] * n
        for k in range(n):
            values[(p + k) % n] = r[k]
        return codes, cast("list[float]", priors.tolist()), values

    def _blend(self, net: list[float], s: State) -> list[float]:
        """``net`` (win shares) mixed at :attr:`mix` with the hand-made search values of
        ``s`` (win share and glory margin, :func:`~.evaluate.search_values`, measured
        from the root's margins)."""
        k = self._mix
        if k <= 0.0:
            return net
        n = s.n
        hand = search_values(s, None, self._center, self._weight)
        return [(1.0 - k) * net[q] + k * hand[q] for q in range(n)]

    def _expand(self, node: Node, s: State) -> list[float]:
        codes, priors, values = self._evaluate(s)
        values = self._blend(values, s)
        n = s.n
        node.codes = codes
        node.prior = priors
        node.value = values
        node.cn = [0] * len(codes)
        node.cw = [[0.0] * n for _ in codes]
        node.kids = [None] * len(codes)
        return values

    def _noisy(self, prior: list[float]) -> list[float]:
        """``prior`` with Dirichlet(``alpha``) noise mixed in at ``noise``."""
        rng = self.rng
        g = [rng.gammavariate(self.alpha, 1.0) for _ in prior]
        z = sum(g) or 1.0
        e = self.noise
        return [(1.0 - e) * p + e * x / z for p, x in zip(prior, g, strict=True)]

    def _search(self, state: State) -> Node:
        nseats = state.n
        c = self.c
        fpu = self.fpu
        sqrt = math.sqrt
        root = None
        self._mix = mix_for(self.net, state.n, self.mix)
        # the network's values alone measure no margin (mix=0): nothing to keep close
        center, weight = margin_frame(state) if self._mix > 0.0 else ([], [])
        if self.reuse:
            kept = self._reused(state)
            if kept is not None and (not center or frame_holds(center, kept[1])):
                root, center, weight = kept
        self._center = center
        self._weight = weight
        reused = root.n if root is not None else 0
        clock = CLOCKS[self.clock]
        wall = time.perf_counter()
        start = clock()
        evals = 0
        nodes = 0
        if root is None:
            mover = state.current_player
            assert mover is not None
            root = Node(mover)
            self._expand(root, state.copy())
            evals += 1
            nodes += 1
        root_prior = self._noisy(root.prior) if self.noise > 0 else root.prior
        budget = self.iterations
        deadline = start + (self.seconds or 0.0)
        deepest = 0
        done = 0
        v: list[float]
        while True:
            if budget is not None:
                if done >= budget:
                    break
            else:
                now = clock()
                if done and (now >= deadline or (self.settle and done & 15 == 0 and settled(
                        root, done / (now - start + 1e-9) * (deadline - now)))):
                    break
            done += 1
            s = state.copy()
            node = root
            path: list[tuple[Node, int]] = []
            while True:
                codes = node.codes
                if codes is None:
                    v = self._expand(node, s)
                    evals += 1
                    nodes += 1
                    break
                p = node.player
                cn = node.cn
                cw = node.cw
                prior = root_prior if node is root else node.prior
                first = node.value[p] - fpu
                scale = c * sqrt(node.n + 1)
                best_i = 0
                best_score = -math.inf
                for i in range(len(codes)):
                    m = cn[i]
                    mean = cw[i][p] / m if m else first
                    score = mean + scale * prior[i] / (1 + m)
                    if score > best_score:
                        best_score = score
                        best_i = i
                path.append((node, best_i))
                kid = node.kids[best_i]
                if kid is END:
                    m = cn[best_i]
                    v = [x / m for x in cw[best_i]]
                    break
                s.apply_code(codes[best_i])
                follow_forced(s)
                if kid is None:
                    if s.is_over:
                        node.kids[best_i] = END
                        v = self._blend(_values(s), s)  # the real result
                        break
                    who = s.current_player
                    assert who is not None
                    kid = node.kids[best_i] = Node(who)
                node = kid
            for nd, i in path:
                nd.n += 1
                nd.cn[i] += 1
                w = nd.cw[i]
                for q in range(nseats):
                    w[q] += v[q]
            if len(path) > deepest:
                deepest = len(path)
        self.last = Stats(done, time.perf_counter() - wall, deepest, nodes, evals, reused)
        if self.reuse:
            self._kept = (state.copy(), [a.code for a in state.history()], root, center,
                          weight)
        return root

    def _reused(self, state: State) -> tuple[Node, list[float], list[float]] | None:
        """The subtree of the last search at ``state`` (:func:`~.mcts.reached`), with
        the margins and weights of its values' hand-made share, else None."""
        kept = self._kept
        self._kept = None
        if kept is None:
            return None
        old, old_codes, node, center, weight = kept
        kid = reached(old, old_codes, node, state, END)
        if kid is None:
            return None
        return cast(Node, kid), center, weight


def _unpickle(seed: int, options: dict[str, Any], net: Net, rng: Any, last: Stats,
              kept: tuple[Any, ...] | None) -> ExpertBot:
    """An :class:`ExpertBot` as :meth:`ExpertBot.__reduce__` pickled it."""
    bot = ExpertBot(seed, weights=net, **options)
    bot.rng.setstate(rng)
    bot.last = last
    bot._kept = unpack_kept(kept, END, Node, _NODE_FIELDS)
    return bot


def make_expert(seed: int = 0, **options: Any) -> ExpertBot:
    """``ExpertBot(seed, **options)``, raising ``ValueError`` (not ``TypeError``) for an
    option it does not have."""
    unknown = sorted(k for k in options if k not in OPTIONS)
    if unknown:
        raise ValueError(f"unknown expert option(s): {', '.join(unknown)} (the budget is "
                         f"seconds= or iterations=; options: {', '.join(OPTIONS)})")
    return ExpertBot(seed, **options)


__all__ = ["DEFAULT_SECONDS", "ExpertBot", "OPTIONS", "WEIGHTS", "load_net", "make_expert",
           "mix_for", "trained_players", "weights_path"]
