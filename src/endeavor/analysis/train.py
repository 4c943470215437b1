"""Training the ``expert`` bot's network: imitation of ``hard``, then
self-play generations, a numpy learner, promotion by tournament, a learning curve.

An adapter beside the bots (like :mod:`endeavor.analysis.tournament`, whose API it uses for the
promotion and evaluation matches). Needs numpy (``pip install 'endeavor[expert]'``);
``backend="ray"`` needs Ray (``'endeavor[ray]'``) and :func:`plot_curve` matplotlib
(``'endeavor[plot]'``).

**Run** (:func:`train`), everything kept in the output directory ``out``:

1. *Warm start* (generation 0): ``warm_start_games`` games of ``hard`` (max-n MCTS at
   ``hard_iterations`` a decision) in every seat. Each of its non-forced decisions is a
   sample: the observation of the player to move, the **policy target** (the search's
   visits per legal action, less the one visit every child gets when its node is
   expanded, normalised; the move played when nothing is left) and the **value target**
   (below). A network is trained on them (``epochs`` passes), together with the pool's
   games (below): one with fresh weights, or with ``warm_start_from`` the network of
   that weights file (a previous run's ``expert.npz``, the shipped weights; its hidden
   layers are the run's, and a file that does not fit is refused before any game is
   played). It is the first *best* network. With nothing to learn from (no warm-start
   games, no pool) the first best network is the untrained one, or the file's as it is.
2. *Generations* 1..``generations``: ``games`` games in which the best network (the
   expert bot's search at ``iterations`` a decision, with Dirichlet noise at the root and
   the first ``temperature_moves`` decisions of each seat sampled in proportion to the
   visits; :func:`play_training_games` plays ``batch_games`` games together and
   evaluates their positions in batched network passes) plays against the schedule
   ``mix``: itself in every seat
   (``self``), an earlier snapshot (``snapshot``), ``hard`` or ``greedy``, in rotated
   seats (the best network takes every other seat, from seat ``j mod n`` in the ``j``-th
   game of ``n`` players). The decisions of the best network and of ``hard`` are
   samples. The learner trains a *candidate* from the best network's weights on the
   samples of the last ``window`` generations (the warm start's included while it is in
   the window); the candidate plays the best network in a tournament of
   ``promotion_games`` games (:func:`endeavor.analysis.tournament.run_tournament`, seats rotated,
   both at ``iterations``) and becomes the best network only if its win share is at
   least ``promotion_threshold``.
3. After each generation (the warm start included) the best network plays ``hard`` in
   ``eval_games`` games at ``eval_iterations`` a decision each: the **learning curve**
   (its win share with the 95% interval, mean scores, the rating difference).

**Value target** of a sample: ``result_weight`` times the game's result (each seat's
win share: 1 to a sole winner, a shared first place split), plus ``search_weight``
times the search's value at the root (each seat's mean backed-up value, normalised to
sum to 1; recorded with the network's samples and the exact end game's; ``hard``'s
samples have none and use the evaluation's instead), plus the rest times the
hand-made evaluation's win chances at that position
(:func:`endeavor.bots.evaluate.values`): with the few games of a small run the
results alone are mostly noise, the search's value is what a deeper look at that very
position found (AlphaZero's variants that train on it learn faster from few games),
and the evaluation steers the value head toward what ``hard`` already knows
(``result_weight=1``: results only). Targets are seat-rotated like the observation:
relative seat 0 is the player to move.

**Player counts**: one network for 2 to 5 players. The observation says how many
seats the game has (a one-hot of the player count, so the first layer holds a bias of
each count), the value head's softmax runs over the game's seats only, and the policy
index is the same for every count: the games of every count in ``players`` train the
same trunk, and the held-out losses are reported per count (``held_by_players``).

**Pool** (``pool``, :class:`Pool`): a directory of games that runs share. Every stage's
games are added to it; the learner reads, besides its own window, the ``pool_games``
most recent games of the other runs in it.

**Learner**: the network of :mod:`endeavor.bots.net`, trained by Adam on minibatches
(``batch``, ``lr``, L2 ``weight_decay``): cross-entropy of the policy's softmax over the
legal actions (illegal ones masked out) with the policy target, plus cross-entropy of
the value softmax over the game's seats with the value target. 10% of the games (by a
hash of their seed) are held out to report validation losses.

**Files** in ``out``: ``run.json`` (the settings, the stage reached, the best network,
the curve, the games, samples and CPU seconds so far: written after each stage, so
``resume=True`` continues from the last finished stage, and a generation interrupted
midway keeps the games already played in ``games/genNNN.jsonl.part``), ``games/``
(one JSON line per game, version :data:`GAMES_VERSION`: its record, its samples
``[step, policy, value]``, scores, result, seats, the network evaluations, CPU seconds
and the worker that played it), ``nets/start.npz`` (the ``warm_start_from`` network),
``nets/genNNN.npz`` (the network trained at each generation, promoted or not),
``curve.json`` (the learning curve) and ``expert.npz`` (the best network at the end:
what ``make("expert", weights=...)`` loads; copy it to
``src/endeavor/bots/weights/expert_v1.npz`` to ship it).

**Backends**: ``workers=1`` plays in this process; more use spawned local processes;
``backend="ray"`` runs the games and the tournaments as Ray tasks on a local Ray
instance (``num_cpus=workers``) or the cluster at ``address``, the networks sent as
bytes through Ray's object store; a task is a batch of ``batch_games`` games. Game
seeds and bot seeds derive from ``seed``, the generation and the game, and the batches
from the settings only, so the same settings play the same games on any backend and
any number of workers (the learner's minibatches are shuffled from ``seed`` too).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import random
import socket
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field, fields
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import actions as A
from ..bots import Bot, make
from ..bots.endgame import BUDGET as EXACT_BUDGET
from ..bots.evaluate import search_values
from ..bots.evaluate import values as heuristic_values
from ..bots.expert import END, ExpertBot, Node, load_net, mix_for
from ..bots.expert import MIX as EXPERT_MIX
from ..bots.mcts import exact_answer, follow_forced, frame_holds, margin_frame
from ..bots.net import DEFAULT_HIDDEN, Net, NetError
from ..config import GameConfig
from ..encoding.actions import ACTION_SPACE_VERSION, CODES, NUM_ACTIONS
from ..encoding.observation import SIZE, ObservationEncoder
from ..errors import EndeavorError
from ..scoring import final_scores
from ..state import State, new_game
from . import parallel
from .tournament import run_tournament

FORMAT = "endeavor-train"
VERSION = 1
#: the version of a game's line in ``games/`` and in a pool (2: samples carry the
#: search's root value; 1: ``[step, policy]`` only, still read)
GAMES_VERSION = 2
BACKENDS = parallel.BACKENDS
#: kinds of opponents in the self-play schedule
MIX_KINDS = ("self", "snapshot", "hard", "greedy")
DEFAULT_MIX = "self:4,snapshot:1,hard:1,greedy:1"

_INDEX: dict[int, int] = {c: i for i, c in enumerate(CODES)}


class TrainError(EndeavorError, ValueError):
    """Impossible training settings, an output directory in the way, a run that cannot
    be resumed, a missing optional extra, or a game that failed."""


# --------------------------------------------------------------------------- settings
@dataclass
class Settings:
    """What a run does (see the module docstring). ``players``: the player counts of
    the training games, in turn; ``ruleset``, ``exploits``, ``options``: their
    config."""

    games: int = 40
    generations: int = 1
    warm_start_games: int = 20
    hard_iterations: int = 200
    iterations: int = 100
    players: tuple[int, ...] = (2,)
    ruleset: str = "age_of_sail"
    exploits: str = "none"
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    epochs: int = 6
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 4
    result_weight: float = 0.5
    mix: str = DEFAULT_MIX
    noise: float = 0.25
    temperature_moves: int = 8
    promotion_games: int = 10
    promotion_threshold: float = 0.55
    eval_games: int = 10
    eval_iterations: int = 200
    search_weight: float = 0.25
    batch_games: int = 8
    warm_start_from: str | None = None
    pool: str | None = None
    pool_games: int = 2000

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["players"] = list(self.players)
        d["hidden"] = list(self.hidden)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in known}
        for k in ("players", "hidden"):
            if k in kw:
                kw[k] = tuple(kw[k])
        return cls(**kw)

    def check(self) -> None:
        """Raise :class:`TrainError` for a setting out of range."""
        def whole(name: str, least: int) -> None:
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < least:
                raise TrainError(f"{name} must be a whole number >= {least}, not {v!r}")

        for name in ("games", "hard_iterations", "iterations", "epochs", "batch",
                     "window", "promotion_games", "eval_iterations", "batch_games"):
            whole(name, 1)
        for name in ("generations", "warm_start_games", "temperature_moves", "eval_games",
                     "pool_games"):
            whole(name, 0)
        for name, lo, hi in (("lr", 0.0, 1.0), ("weight_decay", 0.0, 1.0),
                             ("result_weight", 0.0, 1.0), ("search_weight", 0.0, 1.0),
                             ("noise", 0.0, 0.99), ("promotion_threshold", 0.0, 1.0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) \
                    or not math.isfinite(v) or not lo <= v <= hi:
                raise TrainError(f"{name} must be a number from {lo:g} to {hi:g}, "
                                 f"not {v!r}")
        if self.lr <= 0:
            raise TrainError("lr must be more than 0")
        if self.result_weight + self.search_weight > 1.0 + 1e-9:
            raise TrainError(f"result_weight and search_weight add up to more than 1 "
                             f"({self.result_weight:g} + {self.search_weight:g})")
        for name in ("warm_start_from", "pool"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, str) or not v):
                raise TrainError(f"{name} must be a path, not {v!r}")
        if not self.players:
            raise TrainError("give at least one player count")
        if not self.hidden or any(isinstance(h, bool) or not isinstance(h, int)
                                  or not 1 <= h <= 4096 for h in self.hidden):
            raise TrainError(f"hidden layers must be sizes from 1 to 4096, not "
                             f"{list(self.hidden)}")
        parse_mix(self.mix)
        for n in self.players:  # every config must be possible (ConfigError otherwise)
            GameConfig(players=n, ruleset=self.ruleset, exploits=self.exploits,
                       options=dict(self.options))


def parse_mix(text: str) -> list[str]:
    """``"self:4,hard:1"`` -> the schedule ``["self"] * 4 + ["hard"]`` (games take its
    entries in turn). Raises :class:`TrainError` for anything else."""
    out: list[str] = []
    for part in text.split(","):
        name, _, weight = part.strip().partition(":")
        name = name.strip().lower()
        if name not in MIX_KINDS:
            raise TrainError(f"bad mix {text!r}: {name!r} is not one of "
                             f"{', '.join(MIX_KINDS)}")
        w = weight.strip() or "1"
        if not w.isdigit() or not 0 <= int(w) <= 100:
            raise TrainError(f"bad mix {text!r}: the weight of {name} must be 0 to 100")
        out += [name] * int(w)
    if not out:
        raise TrainError(f"bad mix {text!r}: every weight is 0")
    return out


# --------------------------------------------------------------------------- actors
def _seed(*parts: object) -> int:
    return random.Random("endeavor-train/" + "/".join(map(str, parts))).getrandbits(62)


#: networks a worker has read from bytes, by digest
_NETS: dict[str, Net] = {}


def _net(ref: str | bytes) -> Net:
    """A network from a path (read through the expert bot's cache) or bytes."""
    if isinstance(ref, str):
        return load_net(ref)
    key = hashlib.sha1(ref).hexdigest()
    net = _NETS.get(key)
    if net is None:
        while len(_NETS) >= 8:
            del _NETS[next(iter(_NETS))]
        net = _NETS[key] = Net.from_bytes(ref)
    return net


def _policy(rated: Sequence[Any], baseline: int) -> list[list[float]]:
    """[[action index, weight], ...] from a search's rated actions: visits less
    ``baseline``, normalised (the best action alone when nothing is left)."""
    counts = [(_INDEX[r.action.code], max(0, r.visits - baseline)) for r in rated]
    total = sum(c for _, c in counts)
    if total <= 0:
        return [[float(counts[0][0]), 1.0]]
    return [[float(i), round(c / total, 5)] for i, c in counts if c > 0]


def _shares(scores: Sequence[int]) -> list[float]:
    best = max(scores)
    k = sum(1 for s in scores if s == best)
    return [1.0 / k if s == best else 0.0 for s in scores]


def _label(seat: Mapping[str, Any]) -> str:
    kind = seat["kind"]
    if kind == "net":
        return f"net:{seat['net']}"
    if kind == "hard":
        return f"hard:{seat['iterations']}"
    return str(kind)


# --------------------------------------------------------------------------- batched play
#: the search constants of self-play: :class:`~endeavor.bots.expert.ExpertBot`'s defaults
#: (a test keeps them equal)
C_PUCT = 1.0
FPU = 0.1
ALPHA = 0.3


def forward_batch(net: Net, idx: Sequence[npt.NDArray[np.intp]],
                  val: Sequence[npt.NDArray[np.float32]],
                  legal: Sequence[npt.NDArray[np.intp]], players: Sequence[int]
                  ) -> tuple[list[list[float]], list[list[float]]]:
    """:meth:`~endeavor.bots.net.Net.evaluate` on several positions in one pass: the
    observations as their nonzero entries (``idx``, ``val``), the action-index entries
    of their legal actions (``legal``) and their seats (``players``). Returns each
    position's priors over its legal actions and its value per relative seat (lists).
    The first layer reads the nonzero entries only, as the bot's one-at-a-time call
    does; the policy head computes the legal rows only."""
    p = net.params
    b = len(idx)
    if b == 0:
        return [], []
    w0 = p["W0"]
    # the first layer position by position (a gather of the nonzero rows and one
    # product each: what one position costs alone; measured faster than one gather of
    # every row with a segmented sum, or a dense product over the rows in use)
    h = np.empty((b, w0.shape[1]), np.float32)
    for k in range(b):
        np.dot(val[k], w0[idx[k]], out=h[k])
    h += p["b0"]
    np.maximum(h, 0.0, out=h)
    for i in range(1, len(net.hidden)):
        h = h @ p[f"W{i}"]
        h += p[f"b{i}"]
        np.maximum(h, 0.0, out=h)
    lcounts = np.fromiter((len(x) for x in legal), np.intp, b)
    lstarts = np.zeros(b, np.intp)
    np.cumsum(lcounts[:-1], out=lstarts[1:])
    lflat = np.concatenate(legal)
    rows = np.repeat(np.arange(b), lcounts)
    logits = np.einsum("ij,ij->i", p["Wp"][lflat], h[rows]) + p["bp"][lflat]
    logits -= np.maximum.reduceat(logits, lstarts)[rows]
    e = np.exp(logits)
    e /= np.add.reduceat(e, lstarts)[rows]
    v = h @ p["Wv"].T + p["bv"]
    seats = np.asarray(players, np.intp)
    v = np.where(np.arange(v.shape[1])[None, :] < seats[:, None], v, -np.inf)
    v -= v.max(axis=1, keepdims=True)
    v = np.exp(v)
    v /= v.sum(axis=1, keepdims=True)
    flat_priors: list[float] = e.tolist()
    vals: list[list[float]] = v.tolist()
    ends = np.cumsum(lcounts).tolist()
    begin = lstarts.tolist()
    return ([flat_priors[begin[k]:ends[k]] for k in range(b)],
            [vals[k][:players[k]] for k in range(b)])


#: where a game was played (host and process), kept in its line
WORKER = f"{socket.gethostname()}:{os.getpid()}"


class _ExactHolder:
    """What :func:`~endeavor.bots.mcts.exact_answer` reads and sets on a bot."""

    def __init__(self) -> None:
        self.exact = EXACT_BUDGET
        self.last: Any = None
        self._kept: Any = None


class _Leaf:
    """A position waiting for the network: the game, the node to expand, its state
    (a copy), the path to back the value up along, the network's inputs."""

    __slots__ = ("game", "node", "state", "path", "idx", "val", "legal", "players")

    def __init__(self, game: _Game, node: Node, state: State,
                 path: list[tuple[Node, int]]) -> None:
        self.game = game
        self.node = node
        self.state = state
        self.path = path
        p = state.current_player
        assert p is not None
        obs = game.encoder(p).encode(state, copy=False)
        nz = np.flatnonzero(obs)
        self.idx = nz
        self.val = obs[nz]
        codes = state.legal_codes()
        node.codes = codes
        self.legal = np.fromiter((_INDEX[c] for c in codes), np.intp, len(codes))
        self.players = state.n


class _Game:
    """One training game played inside a batch (see :func:`play_training_games`): the
    state, the seats, the bots of the seats that are not the network, and the search
    of the network seat to move, advanced one leaf at a time."""

    def __init__(self, task: Mapping[str, Any], nets: Mapping[str, str | bytes],
                 reuse: bool = True) -> None:
        self.start = time.process_time()
        self.cpu = 0.0
        self.task = task
        config = GameConfig.from_dict(task["config"])
        self.state = new_game(config)
        self.n = config.players
        self.seats: list[Mapping[str, Any]] = task["seats"]
        self.bots: list[Bot | None] = []
        self.nets: dict[str, Net] = {}
        for k, seat in enumerate(self.seats):
            seed = _seed(task["seed"], k)
            if seat["kind"] == "net":
                self.bots.append(None)
                self.nets[seat["net"]] = _net(nets[seat["net"]])
            elif seat["kind"] == "hard":
                self.bots.append(make("hard", seed=seed, iterations=int(seat["iterations"])))
            else:
                self.bots.append(make(seat["kind"], seed=seed))
        self.rng = random.Random(_seed(task["seed"], "moves"))
        self.noise_rng = random.Random(_seed(task["seed"], "noise"))
        self.temperature = int(task.get("temperature_moves", 0))
        self.reuse = reuse
        self.decided = [0] * self.n
        self.samples: list[list[Any]] = []
        self.encoders: list[ObservationEncoder] = []
        self.exact = _ExactHolder()
        #: the kept tree of each network, walked along the moves played
        self.trees: dict[str, tuple[Node, list[float], list[float]]] = {}
        self.evaluations = 0
        # the search in progress
        self.key = ""
        self.root = Node(0)
        self.root_prior: list[float] = []
        self.budget = 0
        self.done = 0
        self.center: list[float] = []
        self.weight: list[float] = []
        #: the network's mix in the search under way (the bot's: :func:`mix_for`)
        self.mix = EXPERT_MIX
        self.over = False
        self.advance()

    def encoder(self, p: int) -> ObservationEncoder:
        while len(self.encoders) <= p:
            self.encoders.append(ObservationEncoder(len(self.encoders)))
        return self.encoders[p]

    # ---------------------------------------------------------------- moves
    def _walk(self, code: int) -> None:
        """Move the kept trees along ``code``, played at a decision (not forced)."""
        for key, (node, center, weight) in list(self.trees.items()):
            kid = None
            if node.codes is not None:
                try:
                    kid = node.kids[node.codes.index(code)]
                except ValueError:
                    kid = None
            if kid is None or kid is END or kid.codes is None:
                del self.trees[key]
            else:
                self.trees[key] = (kid, center, weight)

    def _play(self, code: int) -> None:
        self._walk(code)
        self.state.apply_code(code)

    def advance(self) -> None:
        """Play on until a network seat must search (set up its search) or the game
        ends: forced moves, the other bots' moves, exact end games."""
        t0 = time.process_time()
        state = self.state
        while not state.is_over:
            p = state.current_player
            assert p is not None
            codes = state.legal_codes()
            if len(codes) == 1:
                state.apply_code(codes[0])
                continue
            seat = self.seats[p]
            bot = self.bots[p]
            if bot is not None:
                if not seat.get("record"):
                    self._play(bot.choose(state).code)
                    continue
                rated = bot.analyse(state, top=len(codes))
                baseline = 1 if seat["kind"] == "hard" else 0
                self.samples.append([state.num_actions, _policy(rated, baseline)])
                self._play(rated[0].action.code)
                continue
            exact = exact_answer(self.exact, state)
            if exact is not None:
                if seat.get("record"):
                    n = self.n
                    self.samples.append([state.num_actions, [[float(_INDEX[exact[0][0]]), 1.0]],
                                         [round(x, 4) for x in exact[0][1][n:2 * n]]])
                    self.decided[p] += 1
                self._play(exact[0][0])
                continue
            self._start_search(seat, p)
            self.cpu += time.process_time() - t0
            return
        self.over = True
        self.cpu += time.process_time() - t0

    def _start_search(self, seat: Mapping[str, Any], p: int) -> None:
        key = str(seat["net"])
        self.key = key
        self.mix = mix_for(self.nets[key], self.n)
        self.budget = int(seat["iterations"])
        self.done = 0
        self.noise = float(seat.get("noise", 0.0))
        center, weight = margin_frame(self.state)
        kept = self.trees.pop(key, None) if self.reuse else None
        if kept is not None and frame_holds(center, kept[1]) and kept[0].player == p:
            self.root, self.center, self.weight = kept
        else:
            self.root = Node(p)
            self.center, self.weight = center, weight
        self.root_prior = []
        if self.root.codes is not None:
            self._set_root_prior()

    def _set_root_prior(self) -> None:
        prior = self.root.prior
        e = self.noise
        if e > 0:
            g = [self.noise_rng.gammavariate(ALPHA, 1.0) for _ in prior]
            z = sum(g) or 1.0
            self.root_prior = [(1.0 - e) * x + e * y / z for x, y in zip(prior, g, strict=True)]
        else:
            self.root_prior = prior

    # ---------------------------------------------------------------- search
    def descend(self) -> _Leaf | None:
        """Run simulations until one reaches a position the network must evaluate
        (returned) or the budget is spent (None)."""
        t0 = time.process_time()
        try:
            root = self.root
            if root.codes is None:
                return _Leaf(self, root, self.state.copy(), [])
            nseats = self.n
            while self.done < self.budget:
                self.done += 1
                s = self.state.copy()
                node = root
                path: list[tuple[Node, int]] = []
                v: list[float]
                while True:
                    codes = node.codes
                    if codes is None:
                        return _Leaf(self, node, s, path)
                    p = node.player
                    cn = node.cn
                    cw = node.cw
                    prior = self.root_prior if node is root else node.prior
                    first = node.value[p] - FPU
                    scale = C_PUCT * math.sqrt(node.n + 1)
                    best_i = 0
                    best_score = -math.inf
                    for i in range(len(codes)):
                        m = cn[i]
                        score = (cw[i][p] / m if m else first) + scale * prior[i] / (1 + m)
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
                            v = self.blend(heuristic_values(s), s)
                            break
                        who = s.current_player
                        assert who is not None
                        kid = node.kids[best_i] = Node(who)
                    node = kid
                _backup(path, v, nseats)
            return None
        finally:
            self.cpu += time.process_time() - t0

    def blend(self, net: list[float], s: State) -> list[float]:
        """``net`` mixed with the hand-made search values at the bot's mix for this
        network and player count (:func:`~endeavor.bots.expert.mix_for`), as the bot's
        leaves are."""
        k = self.mix
        hand = search_values(s, None, self.center, self.weight)
        return [(1.0 - k) * net[q] + k * hand[q] for q in range(self.n)]

    def expand(self, leaf: _Leaf, priors: list[float], rel: list[float]) -> None:
        t0 = time.process_time()
        self.evaluations += 1
        s = leaf.state
        p = s.current_player
        assert p is not None
        n = self.n
        values = [0.0] * n
        for k in range(n):
            values[(p + k) % n] = rel[k]
        values = self.blend(values, s)
        node = leaf.node
        assert node.codes is not None
        node.prior = priors
        node.value = values
        node.cn = [0] * len(priors)
        node.cw = [[0.0] * n for _ in priors]
        node.kids = [None] * len(priors)
        if node is self.root and not leaf.path:
            self._set_root_prior()
        else:
            _backup(leaf.path, values, n)
        self.cpu += time.process_time() - t0

    def searched(self) -> bool:
        return self.root.codes is not None and self.done >= self.budget

    def decide(self) -> None:
        """The search is over: record the sample, choose the move, play on."""
        t0 = time.process_time()
        root = self.root
        assert root.codes is not None
        p = root.player
        seat = self.seats[p]
        first = root.value[p] - FPU
        rows = [(code, root.cw[i][p] / root.cn[i] if root.cn[i] else first, root.cn[i],
                 root.prior[i]) for i, code in enumerate(root.codes)]
        order = sorted(range(len(rows)), key=lambda i: (-rows[i][2], -rows[i][1],
                                                         -rows[i][3], i))
        choice = order[0]
        if seat.get("record"):
            total = sum(root.cn)
            if total > 0:
                policy = [[float(_INDEX[code]), round(m / total, 5)]
                          for code, m in zip(root.codes, root.cn, strict=True) if m > 0]
                value = [sum(w[q] for w in root.cw) / total for q in range(self.n)]
            else:
                policy = [[float(_INDEX[root.codes[choice]]), 1.0]]
                value = root.value
            # the backed-up values carry the hand-made margin term: normalised to sum
            # to 1, as the win shares the value head estimates
            value = [max(0.0, x) for x in value]
            z = sum(value) or 1.0
            self.samples.append([self.state.num_actions, policy,
                                 [round(x / z, 4) for x in value]])
            if self.decided[p] < self.temperature and total > 0:
                choice = self.rng.choices(range(len(rows)), root.cn)[0]
            self.decided[p] += 1
        if self.reuse:
            self.trees[self.key] = (root, self.center, self.weight)
        self.cpu += time.process_time() - t0
        self._play(root.codes[choice])
        self.advance()

    def line(self) -> dict[str, Any]:
        state = self.state
        scores = [s.total for s in final_scores(state)]
        return {"version": GAMES_VERSION, "index": self.task["index"],
                "generation": self.task["generation"],
                "seats": [_label(s) for s in self.seats], "record": state.record(),
                "samples": self.samples, "scores": scores, "result": _shares(scores),
                "evaluations": self.evaluations, "cpu_seconds": round(self.cpu, 3),
                "worker": WORKER}


def _backup(path: list[tuple[Node, int]], v: list[float], nseats: int) -> None:
    for nd, i in path:
        nd.n += 1
        nd.cn[i] += 1
        w = nd.cw[i]
        for q in range(nseats):
            w[q] += v[q]


def play_training_games(tasks: Sequence[Mapping[str, Any]],
                        nets: Mapping[str, str | bytes], *, reuse: bool = True
                        ) -> list[dict[str, Any]]:
    """Play the training games ``tasks`` together (as :func:`_tasks` builds them;
    ``nets``: the networks by name, as paths or bytes) and return their lines for
    ``games/``, in the order of the tasks.

    The games advance in lockstep: each game whose network seat is searching runs its
    simulations until one reaches a position to evaluate, the positions of all the
    games are evaluated in one batched forward pass per network
    (:func:`forward_batch`), and the values are backed up. The search is the expert
    bot's (PUCT, its exploration constant and first-play urgency, the network's values
    mixed with the hand-made ones, the exact end game, the tree kept between decisions),
    with Dirichlet noise at the root (``noise`` of the seat) and the first
    ``temperature_moves`` decisions of each recorded seat sampled in proportion to the
    visits. The other seats' bots (``hard``, ``greedy``) play in turn. A sample is
    ``[step, policy, value]``: the position's step, the visits per legal action
    (normalised) and the search's value at the root for each seat (absolute seats;
    ``hard``'s samples have no value). The CPU seconds of the batched passes are shared
    among the games by their positions."""
    games = [_Game(t, nets, reuse) for t in tasks]
    live = [g for g in games if not g.over]
    while live:
        leaves: dict[str, list[_Leaf]] = {}
        for g in live:
            while True:
                leaf = g.descend()
                if leaf is not None:
                    leaves.setdefault(g.key, []).append(leaf)
                    break
                g.decide()
                if g.over:
                    break
        for key, group in leaves.items():
            t0 = time.process_time()
            priors, values = forward_batch(group[0].game.nets[key], [x.idx for x in group],
                                           [x.val for x in group], [x.legal for x in group],
                                           [x.players for x in group])
            share = (time.process_time() - t0) / len(group)
            for leaf, pr, va in zip(group, priors, values, strict=True):
                leaf.game.cpu += share
                leaf.game.expand(leaf, pr, va)
        live = [g for g in live if not g.over]
    return [g.line() for g in games]


def play_training_game(task: Mapping[str, Any], nets: Mapping[str, str | bytes]
                       ) -> dict[str, Any]:
    """:func:`play_training_games` for one game."""
    return play_training_games([task], nets)[0]


# --------------------------------------------------------------------------- tasks
def _config(settings: Settings, generation: int, index: int) -> dict[str, Any]:
    n = settings.players[index % len(settings.players)]
    seed = _seed(settings.seed, "deal", generation, index) % 2**31
    return GameConfig(players=n, ruleset=settings.ruleset, exploits=settings.exploits,
                      seed=seed, options=dict(settings.options)).to_dict()


def warm_tasks(settings: Settings) -> list[dict[str, Any]]:
    """The warm start's games: ``hard`` in every seat, every seat recorded."""
    out = []
    for i in range(settings.warm_start_games):
        config = _config(settings, 0, i)
        hard = {"kind": "hard", "iterations": settings.hard_iterations, "record": True}
        out.append({"index": i, "generation": 0, "config": config,
                    "seats": [dict(hard) for _ in range(config["players"])],
                    "seed": _seed(settings.seed, "game", 0, i), "temperature_moves": 0})
    return out


def generation_tasks(settings: Settings, generation: int, snapshots: Sequence[str]
                     ) -> list[dict[str, Any]]:
    """The games of a self-play generation: the best network (``"best"``) against the
    schedule of ``settings.mix``, in rotated seats; ``snapshots``: the names of earlier
    networks (none: ``snapshot`` games become ``self`` games)."""
    schedule = parse_mix(settings.mix)
    rng = random.Random(_seed(settings.seed, "mix", generation))
    best = {"kind": "net", "net": "best", "iterations": settings.iterations,
            "noise": settings.noise, "record": True}
    out = []
    for i in range(settings.games):
        config = _config(settings, generation, i)
        n = config["players"]
        kind = schedule[i % len(schedule)]
        if kind == "snapshot" and not snapshots:
            kind = "self"
        other: dict[str, Any]
        if kind == "self":
            other = best
        elif kind == "snapshot":
            other = {"kind": "net", "net": rng.choice(list(snapshots)),
                     "iterations": settings.iterations, "record": False}
        elif kind == "hard":
            other = {"kind": "hard", "iterations": settings.hard_iterations, "record": True}
        else:
            other = {"kind": "greedy", "record": False}
        first = i // len(settings.players) % n  # the j-th game of n players: seat j mod n
        seats = [dict(best if (s - first) % n % 2 == 0 else other) for s in range(n)]
        out.append({"index": i, "generation": generation, "config": config, "seats": seats,
                    "seed": _seed(settings.seed, "game", generation, i),
                    "temperature_moves": settings.temperature_moves})
    return out


# --------------------------------------------------------------------------- backends
class Actors:
    """Plays training games on the backend: in this process (``workers=1``), on a pool
    of spawned local processes (kept from one generation to the next until
    :meth:`close`), or as Ray tasks (on the Ray instance the caller started)."""

    def __init__(self, backend: str, workers: int, address: str | None = None,
                 batch_games: int = 1) -> None:
        self.backend = backend
        self.workers = workers
        self.address = address
        self.batch_games = batch_games
        self._pool = parallel.LocalPool(workers)

    def run(self, tasks: Sequence[dict[str, Any]], nets: Mapping[str, str | bytes],
            handle: Callable[[dict[str, Any]], None]) -> None:
        """Play ``tasks`` (in any order), calling ``handle`` with each game's line; the
        networks go with each batch of games to local workers, once through Ray's object
        store. The tasks are played ``batch_games`` at a time in task order
        (:func:`play_training_games`): the same batches on any backend and any number of
        workers, so the same games."""
        if not tasks:
            return
        k = self.batch_games
        batches = [list(tasks[i:i + k]) for i in range(0, len(tasks), k)]

        def each(lines: list[dict[str, Any]]) -> None:
            for line in lines:
                handle(line)

        parallel.run(play_training_games, batches, each, shared=(dict(nets),),
                     backend=self.backend, workers=self.workers, address=self.address,
                     error=TrainError, pool=self._pool)

    def close(self) -> None:
        self._pool.close()


def net_factory(name: str, seed: int = 0, nets: Mapping[str, str | bytes] | None = None,
                **budget: Any) -> Bot:
    """A bot for :func:`endeavor.analysis.tournament.run_tournament`: an
    :class:`~endeavor.bots.expert.ExpertBot` on the network ``nets[name]`` (a path or
    bytes), or :func:`endeavor.bots.make`'s bot of that name."""
    if nets is not None and name in nets:
        return ExpertBot(seed, weights=_net(nets[name]), **budget)
    return make(name, seed=seed, **budget)


# --------------------------------------------------------------------------- data
@dataclass
class Dataset:
    """Samples as arrays: observations (sparse rows: ``obs_ptr``, ``obs_idx``,
    ``obs_val``), legal actions with their policy targets (rows ``legal_ptr``,
    ``legal_idx``, ``legal_p``), value targets per relative seat (``value``, zeros past
    the game's seats), the game's seats (``seats``) and whether the sample's game is
    held out for validation (``held``)."""

    obs_ptr: npt.NDArray[np.int64]
    obs_idx: npt.NDArray[np.int32]
    obs_val: npt.NDArray[np.float32]
    legal_ptr: npt.NDArray[np.int64]
    legal_idx: npt.NDArray[np.int32]
    legal_p: npt.NDArray[np.float32]
    value: npt.NDArray[np.float32]
    seats: npt.NDArray[np.int8]
    held: npt.NDArray[np.bool_]

    def __len__(self) -> int:
        return int(self.seats.shape[0])


def build_dataset(games: Iterable[Mapping[str, Any]], result_weight: float,
                  search_weight: float = 0.0, skipped: list[str] | None = None) -> Dataset:
    """The samples of ``games`` (lines of ``games/`` or of a pool), replayed to their
    positions. A value target is ``result_weight`` times the game's result plus
    ``search_weight`` times the search's value at the root (where the sample has one;
    else the hand-made evaluation's) plus the rest times the hand-made evaluation's win
    chances. A game that cannot be replayed (made by another version of the rules) is
    left out, and its reason appended to ``skipped`` when given."""
    obs_ptr = [0]
    obs_idx: list[npt.NDArray[np.int32]] = []
    obs_val: list[npt.NDArray[np.float32]] = []
    legal_ptr = [0]
    legal_idx: list[int] = []
    legal_p: list[float] = []
    value: list[list[float]] = []
    seats: list[int] = []
    held: list[bool] = []
    rest = 1.0 - result_weight - search_weight
    for game in games:
        samples = {int(sample[0]): sample for sample in game["samples"]}
        if not samples:
            continue
        record = game["record"]
        try:
            config = GameConfig.from_dict(record["config"])
            state = new_game(config)
        except (EndeavorError, ValueError, KeyError, TypeError) as e:
            if skipped is not None:
                skipped.append(f"game {game.get('index')}: {e}")
            continue
        n = config.players
        result = [float(x) for x in game["result"]]
        out_of_sample = int(hashlib.sha1(str(config.seed).encode()).hexdigest(), 16) % 10 == 0
        encoders = [ObservationEncoder(p) for p in range(n)]
        last = max(samples)
        rows: list[tuple[Any, ...]] = []
        try:
            for k, text in enumerate(record["actions"]):
                if k > last:
                    break
                sample = samples.get(k)
                if sample is not None:
                    p = state.current_player
                    assert p is not None
                    vec = encoders[p].encode(state, copy=False)
                    nz = np.flatnonzero(vec)
                    target = {int(i): float(w) for i, w in sample[1]}
                    legal = [_INDEX[c] for c in state.legal_codes()]
                    if not any(i in target for i in legal):
                        raise ValueError(f"step {k}: the policy target names no legal action")
                    guess = heuristic_values(state)
                    searched = sample[2] if len(sample) > 2 and sample[2] else guess
                    mixed = [result_weight * result[q] + search_weight * float(searched[q])
                             + rest * guess[q] for q in range(n)]
                    rows.append((nz.astype(np.int32), vec[nz].astype(np.float32), legal,
                                 [target.get(i, 0.0) for i in legal],
                                 [mixed[(p + j) % n] for j in range(n)] + [0.0] * (5 - n)))
                state.apply_code(A.parse(text).code)
        except (EndeavorError, ValueError, KeyError, IndexError, TypeError) as e:
            if skipped is not None:
                skipped.append(f"game {game.get('index')}: {e}")
            continue
        for nz_idx, nz_val, legal, probs, val in rows:
            obs_idx.append(nz_idx)
            obs_val.append(nz_val)
            obs_ptr.append(obs_ptr[-1] + len(nz_idx))
            legal_idx.extend(legal)
            legal_p.extend(probs)
            legal_ptr.append(len(legal_idx))
            value.append(val)
            seats.append(n)
            held.append(out_of_sample)
    return Dataset(
        np.asarray(obs_ptr, np.int64),
        np.concatenate(obs_idx).astype(np.int32) if obs_idx else np.zeros(0, np.int32),
        np.concatenate(obs_val).astype(np.float32) if obs_val else np.zeros(0, np.float32),
        np.asarray(legal_ptr, np.int64), np.asarray(legal_idx, np.int32),
        np.asarray(legal_p, np.float32), np.asarray(value, np.float32).reshape(-1, 5),
        np.asarray(seats, np.int8), np.asarray(held, np.bool_))


def _rows(ptr: npt.NDArray[np.int64], rows: npt.NDArray[np.intp]
          ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """For sparse rows ``rows``: the batch row and the flat position of every entry."""
    starts = ptr[rows]
    counts = ptr[rows + 1] - starts
    which = np.repeat(np.arange(len(rows)), counts)
    offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return which, (np.repeat(starts, counts) + offsets).astype(np.intp)


def make_batch(data: Dataset, rows: npt.NDArray[np.intp]) -> tuple[Any, Any, Any, Any, Any]:
    """Dense arrays of a minibatch: observations, legal mask, policy targets, value
    targets, seat mask."""
    b = len(rows)
    x = np.zeros((b, SIZE), np.float32)
    which, pos = _rows(data.obs_ptr, rows)
    x[which, data.obs_idx[pos]] = data.obs_val[pos]
    mask = np.zeros((b, NUM_ACTIONS), np.bool_)
    target = np.zeros((b, NUM_ACTIONS), np.float32)
    which, pos = _rows(data.legal_ptr, rows)
    mask[which, data.legal_idx[pos]] = True
    target[which, data.legal_idx[pos]] = data.legal_p[pos]
    target /= np.maximum(target.sum(axis=1, keepdims=True), 1e-12)
    seat_mask = np.arange(5)[None, :] < data.seats[rows][:, None]
    return x, mask, target, data.value[rows], seat_mask


def masked_log_softmax(z: Any, mask: Any) -> Any:
    z = np.where(mask, z, np.float32(-1e30))
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(z), np.float32(0.0))
    return z - np.log(e.sum(axis=1, keepdims=True)), e / e.sum(axis=1, keepdims=True)


def loss_and_grads(net: Net, batch: tuple[Any, Any, Any, Any, Any], weight_decay: float,
                   grads: bool = True) -> tuple[dict[str, float], dict[str, Any]]:
    """The losses of ``net`` on a minibatch (policy and value cross-entropy, the top-1
    agreement with the policy target) and, with ``grads``, the gradients of their sum
    plus ``weight_decay`` times half the squared weights."""
    x, mask, target, z, seat_mask = batch
    p = net.params
    b = x.shape[0]
    acts = [x]
    h = x
    for i in range(len(net.hidden)):
        h = np.maximum(h @ p[f"W{i}"] + p[f"b{i}"], 0.0)
        acts.append(h)
    logp, prob = masked_log_softmax(h @ p["Wp"].T + p["bp"], mask)
    logv, val = masked_log_softmax(h @ p["Wv"].T + p["bv"], seat_mask)
    policy_loss = float(-(target * np.where(mask, logp, 0.0)).sum() / b)
    value_loss = float(-(z * np.where(seat_mask, logv, 0.0)).sum() / b)
    agree = float(np.mean(np.argmax(np.where(mask, logp, -np.inf), axis=1)
                          == np.argmax(target, axis=1)))
    losses = {"policy": policy_loss, "value": value_loss, "top1": agree}
    if not grads:
        return losses, {}
    g: dict[str, Any] = {}
    dlogits = (prob - target) / b
    dv = (val - z) / b
    g["Wp"] = dlogits.T @ h
    g["bp"] = dlogits.sum(axis=0)
    g["Wv"] = dv.T @ h
    g["bv"] = dv.sum(axis=0)
    dh = dlogits @ p["Wp"] + dv @ p["Wv"]
    for i in reversed(range(len(net.hidden))):
        dz = dh * (acts[i + 1] > 0)
        g[f"W{i}"] = acts[i].T @ dz
        g[f"b{i}"] = dz.sum(axis=0)
        if i:
            dh = dz @ p[f"W{i}"].T
    for k in g:
        if k.startswith("W"):
            g[k] += weight_decay * p[k]
        g[k] = g[k].astype(np.float32, copy=False)
    return losses, g


def evaluate_losses(net: Net, data: Dataset, rows: npt.NDArray[np.intp], batch: int = 256
                    ) -> dict[str, float]:
    """The mean losses of ``net`` on the samples ``rows`` of ``data`` (policy and value
    cross-entropy, top-1 agreement) and how many there are."""
    sums = {"policy": 0.0, "value": 0.0, "top1": 0.0}
    for start in range(0, len(rows), batch):
        part = rows[start:start + batch]
        losses, _ = loss_and_grads(net, make_batch(data, part), 0.0, grads=False)
        for k in sums:
            sums[k] += losses[k] * len(part)
    out = {k: round(v / max(1, len(rows)), 4) for k, v in sums.items()}
    out["samples"] = len(rows)
    return out


def fit(net: Net, data: Dataset, settings: Settings, seed: int,
        progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Train ``net`` in place on ``data`` (Adam, ``settings.epochs`` passes over the
    samples not held out); return the losses: the last epoch's training means and the
    held-out ones."""
    rng = np.random.default_rng(seed)
    train_rows = np.flatnonzero(~data.held)
    held_rows = np.flatnonzero(data.held)
    if len(train_rows) == 0:  # too few games to hold any out
        train_rows, held_rows = np.arange(len(data)), np.zeros(0, np.intp)
    m = {k: np.zeros_like(v) for k, v in net.params.items()}
    v2 = {k: np.zeros_like(v) for k, v in net.params.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    bs = settings.batch
    steps_per_epoch = max(1, -(-len(train_rows) // bs))
    total = settings.epochs * steps_per_epoch
    step = 0
    sums: dict[str, float] = {}
    for _ in range(settings.epochs):
        perm = rng.permutation(train_rows)
        sums = {"policy": 0.0, "value": 0.0, "top1": 0.0}
        for start in range(0, len(perm), bs):
            rows = perm[start:start + bs]
            losses, g = loss_and_grads(net, make_batch(data, rows), settings.weight_decay)
            for k in sums:
                sums[k] += losses[k] * len(rows)
            step += 1
            lr = settings.lr * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
            for k, grad in g.items():
                m[k] *= beta1
                m[k] += (1 - beta1) * grad
                v2[k] *= beta2
                v2[k] += (1 - beta2) * grad * grad
                net.params[k] -= (lr * m[k] / (np.sqrt(v2[k]) + eps)).astype(np.float32)
            if progress is not None:
                progress(step, total)
    out: dict[str, Any] = {"samples": len(train_rows), "held_out": len(held_rows),
                           "steps": step}
    out["train"] = {k: round(s / max(1, len(train_rows)), 4) for k, s in sums.items()}
    if len(held_rows):
        out["held"] = evaluate_losses(net, data, held_rows, bs)
        counts = sorted({int(x) for x in data.seats[held_rows]})
        if len(counts) > 1:  # the held-out losses of each player count
            out["held_by_players"] = {
                str(k): evaluate_losses(net, data, held_rows[data.seats[held_rows] == k], bs)
                for k in counts}
    if not all(np.all(np.isfinite(a)) for a in net.params.values()):
        raise TrainError("the learner diverged (weights not finite): lower --lr")
    return out


# --------------------------------------------------------------------------- the run
Progress = Callable[[str, int, int], None]
Log = Callable[[str], None]


def _read_lines(path: Path) -> list[dict[str, Any]]:
    out = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                try:
                    out.append(json.loads(line))
                except ValueError:  # a line cut short by an interruption
                    continue
    return out


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


#: where a run keeps the network it started from (``warm_start_from``)
START = "nets/start.npz"


def _net_name(generation: int) -> str:
    return f"nets/gen{generation:03d}.npz"


def _games_name(generation: int) -> str:
    return f"games/gen{generation:03d}.jsonl"


# --------------------------------------------------------------------------- the pool
POOL_FORMAT = "endeavor-train-pool"
POOL_VERSION = 1


class Pool:
    """A directory of training games shared by runs: each run adds the games of each
    stage it finishes, and its learner reads the most recent ones of the other runs
    besides its own window.

    Layout (version :data:`POOL_VERSION`): ``pool.json`` (the format
    :data:`POOL_FORMAT`, its version, the :data:`~endeavor.encoding.actions.ACTION_SPACE_VERSION`
    of the policy targets, and ``files``: one entry per games file, oldest first, with
    its ``file`` name, the ``run`` that played it (its id) and the run's directory
    ``out``, the ``generation``, how many ``games`` and ``samples``, the ``players``
    counts and when it was ``added``) and ``games/RUN-genNNN.jsonl`` (one JSON line per
    game, as a run's ``games/``: the record, the samples ``[step, policy, value]``, the
    result...). The observations are not stored: the learner replays the records and
    encodes them with this version's encoder, so a pool outlives an observation change;
    a game the rules of this version cannot replay is left out with a note. A pool made
    for another action index is refused. Writers take a lock file (``pool.lock``)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.index = self.root / "pool.json"

    def check(self) -> dict[str, Any]:
        """The pool's index (a new pool's, if the directory is missing or empty);
        :class:`TrainError` when it is not a pool or not one this version can use."""
        if self.root.exists() and not self.root.is_dir():
            raise TrainError(f"pool {self.root}: not a directory")
        if not self.index.exists():
            if self.root.exists() and any(p.name not in ("pool.lock", "games")
                                          for p in self.root.iterdir()):
                raise TrainError(f"pool {self.root}: not a games pool (no pool.json) and "
                                 "not empty: choose a new or empty directory")
            return {"format": POOL_FORMAT, "version": POOL_VERSION,
                    "action_space_version": ACTION_SPACE_VERSION, "files": []}
        try:
            data = json.loads(self.index.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise TrainError(f"{self.index}: cannot be read: {e}") from None
        if not isinstance(data, dict) or data.get("format") != POOL_FORMAT:
            raise TrainError(f"{self.index}: not an {POOL_FORMAT} file")
        if data.get("version") != POOL_VERSION:
            raise TrainError(f"{self.index}: pool version {data.get('version')!r}, this "
                             f"endeavor reads version {POOL_VERSION}")
        if data.get("action_space_version") != ACTION_SPACE_VERSION:
            raise TrainError(f"{self.index}: its policy targets are for action index "
                             f"version {data.get('action_space_version')!r}, this endeavor "
                             f"uses {ACTION_SPACE_VERSION}: start a new pool")
        if not isinstance(data.get("files"), list):
            raise TrainError(f"{self.index}: no list of files")
        return data

    def add(self, run: str, out: Path, generation: int, games: Sequence[Mapping[str, Any]]
            ) -> None:
        """Add a run's games of one stage (again: nothing happens)."""
        name = f"games/{run}-gen{generation:03d}.jsonl"
        self.root.mkdir(parents=True, exist_ok=True)
        with _locked(self.root / "pool.lock"):
            data = self.check()
            (self.root / "games").mkdir(exist_ok=True)
            if any(f.get("file") == name for f in data["files"]):
                return
            tmp = self.root / (name + ".tmp")
            tmp.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
            os.replace(tmp, self.root / name)
            data["files"].append({
                "file": name, "run": run, "out": str(out.resolve()), "generation": generation,
                "games": len(games), "samples": sum(len(g["samples"]) for g in games),
                "players": sorted({len(g["result"]) for g in games}),
                "added": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
            _write_json(self.index, data)

    def recent(self, games: int, exclude: str) -> list[dict[str, Any]]:
        """The most recent ``games`` games of the pool not played by the run
        ``exclude``, oldest first."""
        if games <= 0 or not self.index.exists():
            return []
        out: list[dict[str, Any]] = []
        for entry in reversed(self.check()["files"]):
            if entry.get("run") == exclude:
                continue
            lines = _read_lines(self.root / str(entry["file"]))
            out = lines[max(0, len(lines) - (games - len(out))):] + out
            if len(out) >= games:
                break
        return out


class _locked:
    """An exclusive lock on ``path`` (a file created for it) for a ``with`` block,
    where the platform has ``fcntl``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.f: Any = None

    def __enter__(self) -> None:
        self.f = open(self.path, "a+b")  # noqa: SIM115 - closed in __exit__
        try:
            fcntl = importlib.import_module("fcntl")
        except ImportError:  # pragma: no cover - Windows: no lock
            return
        fcntl.flock(self.f.fileno(), fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        self.f.close()  # closing releases the lock


class _Run:
    """One training run in its directory: the state of ``run.json`` and the stages."""

    def __init__(self, out: Path, settings: Settings, state: dict[str, Any], workers: int,
                 backend: str, address: str | None, progress: Progress | None,
                 log: Log | None) -> None:
        self.out = out
        self.settings = settings
        self.state = state
        self.workers = workers
        self.backend = backend
        self.address = address
        self.progress = progress or (lambda stage, done, total: None)
        self.log = log or (lambda text: None)
        self.actors = Actors(backend, workers, address, settings.batch_games)
        self.pool = Pool(settings.pool) if settings.pool else None
        self.started = time.perf_counter()
        self.wall0 = float(state.get("wall_seconds", 0.0))

    # ---------------------------------------------------------------- bookkeeping
    def save(self) -> None:
        self.state["wall_seconds"] = round(self.wall0 + time.perf_counter() - self.started, 1)
        _write_json(self.out / "run.json", self.state)
        _write_json(self.out / "curve.json", {"format": "endeavor-train-curve",
                                              "settings": self.settings.to_dict(),
                                              "curve": self.state["curve"]})

    def _nets(self, names: Mapping[str, str]) -> dict[str, str | bytes]:
        """Networks for the actors and tournaments: paths locally, bytes on Ray."""
        out: dict[str, str | bytes] = {}
        for key, rel in names.items():
            path = self.out / rel
            out[key] = path.read_bytes() if self.backend == "ray" else str(path)
        return out

    def _cpu(self, key: str, seconds: float) -> None:
        cpu = self.state.setdefault("cpu_seconds", {})
        cpu[key] = round(cpu.get(key, 0.0) + seconds, 1)

    # ---------------------------------------------------------------- stages
    def play(self, generation: int, tasks: list[dict[str, Any]],
             nets: Mapping[str, str]) -> list[dict[str, Any]]:
        """Play ``tasks`` (keeping what an interrupted run already played) into
        ``games/genNNN.jsonl``; return the games' lines."""
        final = self.out / _games_name(generation)
        if final.exists():
            games = _read_lines(final)
            self.to_pool(generation, games)  # (again: nothing happens)
            return games
        part = final.with_name(final.name + ".part")
        have = {g["index"]: g for g in _read_lines(part)}
        # the whole lines only (an interruption may have cut the last one short)
        part.write_text("".join(json.dumps(g) + "\n" for g in have.values()),
                        encoding="utf-8")
        todo = [t for t in tasks if t["index"] not in have]
        stage = "warm start games" if generation == 0 else f"generation {generation} games"
        self.progress(stage, len(have), len(tasks))
        if have:
            self.log(f"{stage}: {len(have)} of {len(tasks)} already played")
        with part.open("a", encoding="utf-8") as f:
            def handle(game: dict[str, Any]) -> None:
                have[game["index"]] = game
                f.write(json.dumps(game) + "\n")
                f.flush()
                self._cpu("actors", float(game["cpu_seconds"]))
                self.progress(stage, len(have), len(tasks))

            self.actors.run(todo, self._nets(nets), handle)
        games = [have[t["index"]] for t in tasks]
        os.replace(part, final)
        self.state["games"] = self.state.get("games", 0) + len(games)
        self.state["samples"] = self.state.get("samples", 0) + sum(
            len(g["samples"]) for g in games)
        self.positions(games)
        self.to_pool(generation, games)
        return games

    def positions(self, games: Sequence[Mapping[str, Any]]) -> None:
        """Count the network's evaluations of the self-play games (the throughput)."""
        evals = sum(int(g.get("evaluations", 0)) for g in games)
        self.state["evaluations"] = self.state.get("evaluations", 0) + evals

    def to_pool(self, generation: int, games: Sequence[Mapping[str, Any]]) -> None:
        if self.pool is not None and games:
            self.pool.add(self.state["run_id"], self.out, generation, games)

    def learn(self, generation: int, net: Net) -> dict[str, Any] | None:
        """Train ``net`` on the games of the window ending at ``generation`` and the
        pool's most recent games of other runs; None (``net`` unchanged) when there is
        no sample."""
        s = self.settings
        first = max(0, generation - s.window + 1)
        games: list[dict[str, Any]] = []
        for g in range(first, generation + 1):  # in game order, however they were played
            games += sorted(_read_lines(self.out / _games_name(g)), key=lambda x: x["index"])
        own = len(games)
        if self.pool is not None:
            games = self.pool.recent(s.pool_games, self.state["run_id"]) + games
        cpu = time.process_time()
        self.progress(f"generation {generation} samples", 0, len(games))
        skipped: list[str] = []
        data = build_dataset(games, s.result_weight, s.search_weight, skipped)
        if skipped:
            self.log(f"generation {generation}: {len(skipped)} pool game(s) left out "
                     f"(not replayable by this version), the first: {skipped[0]}")
        self.progress(f"generation {generation} samples", len(games), len(games))
        if len(data) == 0:
            return None
        stage = f"generation {generation} learner"
        losses = fit(net, data, s, _seed(s.seed, "learn", generation),
                     lambda done, total: self.progress(stage, done, total))
        self._cpu("learner", time.process_time() - cpu)
        losses["window"] = [first, generation]
        losses["games"] = own
        losses["pool_games"] = len(games) - own - len(skipped)
        return losses

    def match(self, bots: list[str], nets: Mapping[str, str], games: int, iterations: int,
              seed: int, stage: str) -> dict[str, Any]:
        """A tournament between ``bots`` (names of ``nets`` or of bots) at ``iterations``
        a decision, in games of the first player count; the first bot's row."""
        s = self.settings
        self.progress(stage, 0, games)
        done = [0]

        def on_game(_: Any) -> None:
            done[0] += 1
            self.progress(stage, done[0], games)

        result = run_tournament(
            bots, games, seed, players=s.players[0], ruleset=s.ruleset, exploits=s.exploits,
            options=s.options, budget={"iterations": iterations}, workers=self.workers,
            backend=self.backend, address=self.address,
            on_start=lambda total: self.progress(stage, 0, total), on_game=on_game,
            factory=partial(net_factory, nets=self._nets(nets)))
        self._cpu("tournaments", sum(sum(g.think) for g in result.games))
        rows = {r.bot: r for r in result.table}
        me, other = rows[bots[0]], rows[bots[1]]
        return {"games": len(result.games), "share": round(me.win_share, 4),
                "ci": [round(me.ci_low, 4), round(me.ci_high, 4)],
                "score": round(me.mean_score, 2), "other_score": round(other.mean_score, 2),
                "rating_diff": round(me.rating - other.rating, 1), "iterations": iterations,
                "players": s.players[0], "seed": seed}

    def evaluate(self, generation: int) -> dict[str, Any] | None:
        s = self.settings
        if s.eval_games == 0:
            return None
        return self.match(["best", "hard"], {"best": self.state["best"]}, s.eval_games,
                          s.eval_iterations, 1000 + 10 * generation,
                          f"generation {generation} against hard")

    def point(self, generation: int, losses: dict[str, Any] | None,
              promotion: dict[str, Any] | None, promoted: bool | None) -> None:
        vs_hard = self.evaluate(generation)
        cpu = self.state.get("cpu_seconds", {})
        self.state["curve"].append({
            "generation": generation, "best": self.state["best"], "promoted": promoted,
            "promotion": promotion, "vs_hard": vs_hard, "losses": losses,
            "games": self.state.get("games", 0), "samples": self.state.get("samples", 0),
            "cpu_hours": round(sum(cpu.values()) / 3600, 3),
            "wall_seconds": round(self.wall0 + time.perf_counter() - self.started, 1)})
        if vs_hard is not None:
            self.log(f"generation {generation}: the best network against hard: "
                     f"{vs_hard['share']:.0%} of {vs_hard['games']} games "
                     f"(95% CI {vs_hard['ci'][0]:.0%}-{vs_hard['ci'][1]:.0%}), "
                     f"mean score {vs_hard['score']:g} to {vs_hard['other_score']:g}")

    def warm_start(self) -> None:
        s = self.settings
        games = self.play(0, warm_tasks(s), {})
        if s.warm_start_from:
            net = load_net(self.out / START).copy()
        else:
            net = Net.new(s.hidden, seed=_seed(s.seed, "init") % 2**32)
        losses = self.learn(0, net)
        if losses is not None:
            self.log(f"warm start: {len(games)} games of hard, {losses['pool_games']} "
                     f"of the pool, {losses['samples'] + losses['held_out']} samples; "
                     f"{_loss_text(losses)}")
        net.save(self.out / _net_name(0), self.metadata(0, losses))
        self.state["best"] = _net_name(0)
        self.state["snapshots"] = []
        self.state["generation"] = 0
        self.point(0, losses, None, None)
        self.finish_stage()

    def generation(self, g: int) -> None:
        s = self.settings
        best = self.state["best"]
        snapshots = {f"snap{k}": rel for k, rel in enumerate(self.state["snapshots"])}
        tasks = generation_tasks(s, g, sorted(snapshots))
        self.play(g, tasks, {"best": best, **snapshots})
        net = load_net(self.out / best).copy()
        losses = self.learn(g, net)
        assert losses is not None  # the generation's own games have samples
        net.save(self.out / _net_name(g), self.metadata(g, losses))
        promotion = self.match(["candidate", "best"], {"candidate": _net_name(g), "best": best},
                               s.promotion_games, s.iterations, 2000 + 10 * g,
                               f"generation {g} promotion")
        promoted = promotion["share"] >= s.promotion_threshold
        self.log(f"generation {g}: {_loss_text(losses)}; the candidate won "
                 f"{promotion['share']:.0%} of {promotion['games']} games against the best "
                 f"network: {'promoted' if promoted else 'not promoted'}")
        if promoted:
            self.state["snapshots"].append(best)
            self.state["best"] = _net_name(g)
        self.state["generation"] = g
        self.point(g, losses, promotion, promoted)
        self.finish_stage()

    def metadata(self, generation: int, losses: dict[str, Any] | None) -> dict[str, Any]:
        cpu = self.state.get("cpu_seconds", {})
        return {"program": "endeavor train", "generation": generation,
                "games": self.state.get("games", 0), "samples": self.state.get("samples", 0),
                "cpu_hours": round(sum(cpu.values()) / 3600, 3), "losses": losses,
                "settings": self.settings.to_dict()}

    def finish_stage(self) -> None:
        best = load_net(self.out / self.state["best"])
        meta = dict(best.header.get("training", {}))
        meta["curve"] = self.state["curve"][-1]
        meta["cpu_hours_total"] = round(sum(self.state.get("cpu_seconds", {}).values())
                                        / 3600, 3)
        best.copy().save(self.out / "expert.npz", meta)
        self.save()


def _loss_text(losses: Mapping[str, Any]) -> str:
    part = losses.get("held") or losses["train"]
    which = "held-out" if "held" in losses else "training"
    return (f"{which} policy loss {part['policy']:.3f}, top-1 {part['top1']:.0%}, "
            f"value loss {part['value']:.3f}")


def train(out: str | os.PathLike[str], settings: Settings | None = None, *,
          resume: bool = False, generations: int | None = None, workers: int = 1,
          backend: str = "local", address: str | None = None,
          progress: Progress | None = None, log: Log | None = None) -> dict[str, Any]:
    """Run (or, with ``resume``, continue) a training run in the directory ``out`` and
    return the content of its ``run.json``. ``settings``: a new run's (default
    :class:`Settings`); a resumed run keeps its own, but ``generations`` (the total
    wanted) may extend it. ``workers``, ``backend``, ``address``: where the games and
    tournaments are played. ``progress(stage, done, total)`` and ``log(line)`` report as
    it goes. Raises :class:`TrainError` for bad settings, a directory in the way or a
    run that cannot be resumed (before any game is played), and if a game fails."""
    parallel.check_backend(backend, address, TrainError)
    parallel.check_workers(workers, TrainError)
    root = Path(out)
    run_file = root / "run.json"
    if resume:
        if not run_file.is_file():
            raise TrainError(f"{root}: no training run to resume (no run.json)")
        try:
            state = json.loads(run_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise TrainError(f"{run_file}: cannot be read: {e}") from None
        if not isinstance(state, dict) or state.get("format") != FORMAT:
            raise TrainError(f"{run_file}: not an {FORMAT} file")
        settings = Settings.from_dict(state["settings"])
    else:
        if root.exists() and not root.is_dir():
            raise TrainError(f"{root}: not a directory")
        if run_file.exists():
            raise TrainError(f"{root} holds a training run already: resume it, or choose "
                             "another directory")
        if root.exists() and any(root.iterdir()):
            raise TrainError(f"{root} is not empty: choose a new or empty directory")
        settings = settings or Settings()
        state = {"format": FORMAT, "version": VERSION, "settings": {}, "curve": [],
                 "games": 0, "samples": 0, "cpu_seconds": {}, "wall_seconds": 0.0}
    if generations is not None:
        settings.generations = generations
    settings.check()
    start: Net | None = None
    if not resume and settings.warm_start_from:
        start = start_net(settings.warm_start_from, settings.hidden)
        settings.warm_start_from = os.path.abspath(settings.warm_start_from)
    if settings.pool:
        Pool(settings.pool).check()
    state["settings"] = settings.to_dict()
    state.setdefault("run_id", uuid.uuid4().hex[:12])
    if backend == "ray":
        parallel.require_ray(TrainError)
    root.mkdir(parents=True, exist_ok=True)
    (root / "games").mkdir(exist_ok=True)
    (root / "nets").mkdir(exist_ok=True)
    if start is not None:
        start.save(root / START)
    with ExitStack() as stack:
        if backend == "ray":  # one Ray instance for the whole run, tournaments included
            stack.enter_context(parallel.using_ray(workers, address, TrainError))
        run = _Run(root, settings, state, workers, backend, address, progress, log)
        stack.callback(run.actors.close)
        run.save()
        if state.get("generation") is None:
            run.warm_start()
        for g in range(int(state["generation"]) + 1, settings.generations + 1):
            run.generation(g)
        run.save()
    return state


def start_net(path: str | os.PathLike[str], hidden: Sequence[int] | None = None) -> Net:
    """The network in the weights file ``path`` to warm-start a run from;
    :class:`TrainError` when it cannot be read, is not an expert network of this
    version (observation layout, action index), or its hidden layers are not ``hidden``
    (when given)."""
    try:
        net = Net.load(path)
    except NetError as e:
        raise TrainError(f"--warm-start-from: {e}") from None
    except OSError as e:
        raise TrainError(f"--warm-start-from {os.fspath(path)}: {e.strerror or e}") from None
    if hidden is not None and tuple(hidden) != net.hidden:
        raise TrainError(
            f"--warm-start-from {os.fspath(path)}: its hidden layers are "
            f"{','.join(map(str, net.hidden))}, this run's network has "
            f"{','.join(map(str, hidden))}: give --hidden "
            f"{','.join(map(str, net.hidden))} (or leave --hidden out), or start fresh")
    return net


# --------------------------------------------------------------------------- plot
def plot_formats() -> dict[str, str]:
    """The file types :func:`plot_curve` can write; :class:`TrainError` without
    matplotlib."""
    return parallel.plot_formats(TrainError)


def plot_curve(curve: Sequence[Mapping[str, Any]], path: str | os.PathLike[str]) -> None:
    """Draw the learning curve (the best network's win share against ``hard`` per
    generation, with its 95% interval, and the rating difference) to ``path``."""
    parallel.import_optional("matplotlib", "plot", "--plot", TrainError)
    figure_module = importlib.import_module("matplotlib.figure")
    backend_agg = importlib.import_module("matplotlib.backends.backend_agg")
    points = [p for p in curve if p.get("vs_hard")]
    fig = figure_module.Figure(figsize=(8.0, 4.6), layout="constrained")
    backend_agg.FigureCanvasAgg(fig)
    ax = fig.subplots()
    xs = [p["generation"] for p in points]
    shares = [p["vs_hard"]["share"] for p in points]
    low = [p["vs_hard"]["share"] - p["vs_hard"]["ci"][0] for p in points]
    high = [p["vs_hard"]["ci"][1] - p["vs_hard"]["share"] for p in points]
    ax.errorbar(xs, shares, yerr=[low, high], fmt="o-", color="#4c78a8", capsize=5,
                label="win share against hard (95% CI)")
    players = next((int(p["vs_hard"].get("players", 2)) for p in points), 2)
    ax.axhline(1 / players, color="#e45756", linestyle="--", label=f"parity (1/{players})")
    ax.set_ylim(0, 1)
    ax.set_xlabel("generation (0: the warm start: imitation of hard, or a network file)")
    ax.set_ylabel("win share")
    if xs:
        ax.set_xticks(xs)
    ax2 = ax.twinx()
    ax2.plot(xs, [p["vs_hard"]["rating_diff"] for p in points], "s:", color="#54a24b",
             label="rating difference (Elo scale)")
    ax2.set_ylabel("rating - hard's")
    reach = max([400.0] + [abs(p["vs_hard"]["rating_diff"]) + 50 for p in points])
    ax2.set_ylim(-reach, reach)
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper left")
    games = [p["games"] for p in points]
    fig.suptitle(f"endeavor train: the best network against hard "
                 f"({games[-1] if games else 0} training games)")
    fig.savefig(os.fspath(path), dpi=100)


__all__ = ["BACKENDS", "DEFAULT_MIX", "Dataset", "GAMES_VERSION", "MIX_KINDS", "POOL_FORMAT",
           "POOL_VERSION", "Pool", "Settings", "TrainError", "build_dataset",
           "evaluate_losses", "fit", "forward_batch", "generation_tasks", "loss_and_grads",
           "net_factory", "parse_mix", "play_training_game", "play_training_games",
           "plot_curve", "plot_formats", "start_net", "train", "warm_tasks"]
