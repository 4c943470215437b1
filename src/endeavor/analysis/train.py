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
   (below). A network with fresh weights is trained on them (``epochs`` passes); it is
   the first *best* network. With ``warm_start_games=0`` the first best network is the
   untrained one.
2. *Generations* 1..``generations``: ``games`` games in which the best network (an
   :class:`~endeavor.bots.expert.ExpertBot` at ``iterations`` a decision, with Dirichlet
   noise at the root and the first ``temperature_moves`` decisions of each seat sampled
   in proportion to the visits) plays against the schedule ``mix``: itself in every seat
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
win share: 1 to a sole winner, a shared first place split) plus the rest times the
hand-made evaluation's win chances at that position
(:func:`endeavor.bots.evaluate.values`): with the few games of a small run the
results alone are mostly noise, and the evaluation steers the value head toward what
``hard`` already knows (``result_weight=1``: results only). Targets are seat-rotated
like the observation: relative seat 0 is the player to move.

**Learner**: the network of :mod:`endeavor.bots.net`, trained by Adam on minibatches
(``batch``, ``lr``, L2 ``weight_decay``): cross-entropy of the policy's softmax over the
legal actions (illegal ones masked out) with the policy target, plus cross-entropy of
the value softmax over the game's seats with the value target. 10% of the games (by a
hash of their seed) are held out to report validation losses.

**Files** in ``out``: ``run.json`` (the settings, the stage reached, the best network,
the curve, the games, samples and CPU seconds so far: written after each stage, so
``resume=True`` continues from the last finished stage, and a generation interrupted
midway keeps the games already played in ``games/genNNN.jsonl.part``), ``games/``
(one JSON line per game: its record, its samples, scores, seats, CPU seconds),
``nets/genNNN.npz`` (the network trained at each generation, promoted or not),
``curve.json`` (the learning curve) and ``expert.npz`` (the best network at the end:
what ``make("expert", weights=...)`` loads; copy it to
``src/endeavor/bots/weights/expert_v1.npz`` to ship it).

**Backends**: ``workers=1`` plays in this process; more use spawned local processes;
``backend="ray"`` runs the games and the tournaments as Ray tasks on a local Ray
instance (``num_cpus=workers``) or the cluster at ``address``, the networks sent as
bytes through Ray's object store. Game seeds and bot seeds derive from ``seed``, the
generation and the game, so the same settings play the same games on any backend
(the learner's minibatches are shuffled from ``seed`` too).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import random
import time
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
from ..bots.evaluate import values as heuristic_values
from ..bots.expert import ExpertBot, load_net
from ..bots.net import DEFAULT_HIDDEN, Net
from ..config import GameConfig
from ..encoding.actions import CODES, NUM_ACTIONS
from ..encoding.observation import SIZE, ObservationEncoder
from ..errors import EndeavorError
from ..scoring import final_scores
from ..state import new_game
from . import parallel
from .tournament import run_tournament

FORMAT = "endeavor-train"
VERSION = 1
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
                     "window", "promotion_games", "eval_iterations"):
            whole(name, 1)
        for name in ("generations", "warm_start_games", "temperature_moves", "eval_games"):
            whole(name, 0)
        for name, lo, hi in (("lr", 0.0, 1.0), ("weight_decay", 0.0, 1.0),
                             ("result_weight", 0.0, 1.0), ("noise", 0.0, 0.99),
                             ("promotion_threshold", 0.0, 1.0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) \
                    or not math.isfinite(v) or not lo <= v <= hi:
                raise TrainError(f"{name} must be a number from {lo:g} to {hi:g}, "
                                 f"not {v!r}")
        if self.lr <= 0:
            raise TrainError("lr must be more than 0")
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


def play_training_game(task: Mapping[str, Any], nets: Mapping[str, str | bytes]
                       ) -> dict[str, Any]:
    """Play one training game (``task`` as :func:`_tasks` builds it; ``nets``: the
    networks by name, as paths or bytes) and return its line for ``games/``: the record,
    the samples ``[step, policy]`` of the recorded seats, the scores, the result (win
    shares), the seats and the CPU seconds it took."""
    start = time.process_time()
    config = GameConfig.from_dict(task["config"])
    state = new_game(config)
    n = config.players
    seats = task["seats"]
    bots: list[Bot] = []
    for k, seat in enumerate(seats):
        seed = _seed(task["seed"], k)
        if seat["kind"] == "net":
            bots.append(ExpertBot(seed, iterations=int(seat["iterations"]),
                                  weights=_net(nets[seat["net"]]),
                                  noise=float(seat.get("noise", 0.0))))
        elif seat["kind"] == "hard":
            bots.append(make("hard", seed=seed, iterations=int(seat["iterations"])))
        else:
            bots.append(make(seat["kind"], seed=seed))
    rng = random.Random(_seed(task["seed"], "moves"))
    temperature = int(task.get("temperature_moves", 0))
    decided = [0] * n
    samples: list[list[Any]] = []
    while not state.is_over:
        p = state.current_player
        assert p is not None
        codes = state.legal_codes()
        if len(codes) == 1:
            state.apply_code(codes[0])
            continue
        seat = seats[p]
        bot = bots[p]
        if not seat.get("record"):
            state.apply_code(bot.choose(state).code)
            continue
        rated = bot.analyse(state, top=len(codes))
        baseline = 1 if seat["kind"] == "hard" else 0
        samples.append([state.num_actions, _policy(rated, baseline)])
        choice = rated[0].action.code
        if seat["kind"] == "net" and decided[p] < temperature:
            weights = [r.visits for r in rated]
            if sum(weights) > 0:
                choice = rated[rng.choices(range(len(rated)), weights)[0]].action.code
        decided[p] += 1
        state.apply_code(choice)
    scores = [s.total for s in final_scores(state)]
    return {"index": task["index"], "generation": task["generation"],
            "seats": [_label(s) for s in seats], "record": state.record(),
            "samples": samples, "scores": scores, "result": _shares(scores),
            "cpu_seconds": round(time.process_time() - start, 3)}


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

    def __init__(self, backend: str, workers: int, address: str | None = None) -> None:
        self.backend = backend
        self.workers = workers
        self.address = address
        self._pool = parallel.LocalPool(workers)

    def run(self, tasks: Sequence[dict[str, Any]], nets: Mapping[str, str | bytes],
            handle: Callable[[dict[str, Any]], None]) -> None:
        """Play ``tasks`` (in any order), calling ``handle`` with each game's line; the
        networks go with each task to local workers, once through Ray's object store."""
        if not tasks:
            return
        parallel.run(play_training_game, tasks, handle, shared=(dict(nets),),
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


def build_dataset(games: Iterable[Mapping[str, Any]], result_weight: float) -> Dataset:
    """The samples of ``games`` (lines of ``games/``), replayed to their positions."""
    obs_ptr = [0]
    obs_idx: list[npt.NDArray[np.int32]] = []
    obs_val: list[npt.NDArray[np.float32]] = []
    legal_ptr = [0]
    legal_idx: list[int] = []
    legal_p: list[float] = []
    value: list[list[float]] = []
    seats: list[int] = []
    held: list[bool] = []
    for game in games:
        samples = {int(step): policy for step, policy in game["samples"]}
        if not samples:
            continue
        record = game["record"]
        config = GameConfig.from_dict(record["config"])
        state = new_game(config)
        n = config.players
        result = [float(x) for x in game["result"]]
        out_of_sample = int(hashlib.sha1(str(config.seed).encode()).hexdigest(), 16) % 10 == 0
        encoders = [ObservationEncoder(p) for p in range(n)]
        last = max(samples)
        for k, text in enumerate(record["actions"]):
            if k > last:
                break
            policy = samples.get(k)
            if policy is not None:
                p = state.current_player
                assert p is not None
                vec = encoders[p].encode(state, copy=False)
                nz = np.flatnonzero(vec)
                obs_idx.append(nz.astype(np.int32))
                obs_val.append(vec[nz].astype(np.float32))
                obs_ptr.append(obs_ptr[-1] + len(nz))
                target = {int(i): float(w) for i, w in policy}
                for c in state.legal_codes():
                    i = _INDEX[c]
                    legal_idx.append(i)
                    legal_p.append(target.get(i, 0.0))
                legal_ptr.append(len(legal_idx))
                guess = heuristic_values(state)
                mixed = [result_weight * result[q] + (1 - result_weight) * guess[q]
                         for q in range(n)]
                value.append([mixed[(p + j) % n] for j in range(n)] + [0.0] * (5 - n))
                seats.append(n)
                held.append(out_of_sample)
            state.apply_code(A.parse(text).code)
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
        hs = {"policy": 0.0, "value": 0.0, "top1": 0.0}
        for start in range(0, len(held_rows), bs):
            rows = held_rows[start:start + bs]
            losses, _ = loss_and_grads(net, make_batch(data, rows), 0.0, grads=False)
            for k in hs:
                hs[k] += losses[k] * len(rows)
        out["held"] = {k: round(s / len(held_rows), 4) for k, s in hs.items()}
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


def _net_name(generation: int) -> str:
    return f"nets/gen{generation:03d}.npz"


def _games_name(generation: int) -> str:
    return f"games/gen{generation:03d}.jsonl"


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
        self.actors = Actors(backend, workers, address)
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
            return _read_lines(final)
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
        return games

    def learn(self, generation: int, net: Net) -> dict[str, Any]:
        """Train ``net`` on the games of the window ending at ``generation``."""
        s = self.settings
        first = max(0, generation - s.window + 1)
        games: list[dict[str, Any]] = []
        for g in range(first, generation + 1):  # in game order, however they were played
            games += sorted(_read_lines(self.out / _games_name(g)), key=lambda x: x["index"])
        cpu = time.process_time()
        self.progress(f"generation {generation} samples", 0, len(games))
        data = build_dataset(games, s.result_weight)
        self.progress(f"generation {generation} samples", len(games), len(games))
        stage = f"generation {generation} learner"
        losses = fit(net, data, s, _seed(s.seed, "learn", generation),
                     lambda done, total: self.progress(stage, done, total))
        self._cpu("learner", time.process_time() - cpu)
        losses["window"] = [first, generation]
        losses["games"] = len(games)
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
        net = Net.new(s.hidden, seed=_seed(s.seed, "init") % 2**32)
        losses = None
        if games:
            losses = self.learn(0, net)
            self.log(f"warm start: {len(games)} games of hard, "
                     f"{losses['samples'] + losses['held_out']} samples; "
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
    state["settings"] = settings.to_dict()
    if backend == "ray":
        parallel.require_ray(TrainError)
    root.mkdir(parents=True, exist_ok=True)
    (root / "games").mkdir(exist_ok=True)
    (root / "nets").mkdir(exist_ok=True)
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
    ax.set_xlabel("generation (0: warm start by imitation of hard)")
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


__all__ = ["BACKENDS", "DEFAULT_MIX", "Dataset", "MIX_KINDS", "Settings", "TrainError",
           "build_dataset", "fit", "generation_tasks", "loss_and_grads", "net_factory",
           "parse_mix", "play_training_game", "plot_curve", "plot_formats", "train",
           "warm_tasks"]
