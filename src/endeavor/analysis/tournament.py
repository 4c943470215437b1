"""Tournaments between bots: seated fairly, played in parallel, summarized honestly.

An adapter beside the engine (like :mod:`endeavor.bots`): it uses only the public API
(``new_game``, ``current_player``, ``apply_code``, ``final_scores``, ``record``) and
builds bots only with :func:`endeavor.bots.make`.

Seating. Games come in *blocks* of ``n`` (the number of players). The games of block
``b`` share one deal, config seed ``seed + b``; in the ``k``-th game of a block seat
``s`` is played by entrant ``(s - k) mod n`` of the bot list, so every entrant plays
each deal from every seat and every bot sits in every seat equally often. A number of
games that is not a multiple of ``n`` is rounded up to whole blocks (the result says
how many were asked for). Each seat's bot is built afresh for each game with a seed
derived from the tournament seed, the game index and the seat, so a game's result does
not depend on which worker played it, nor when.

Determinism. With bots that are deterministic for a seed and an iteration budget
(``random``, ``greedy``, ``mcts`` with ``iterations``), the same settings give the
same games, scores and records whatever the number of workers or the backend; only the
measured thinking times differ. A budget in seconds makes search bots depend on the
machine's speed.

Summary, per distinct bot (an *entrant label*: the bot name, plus ``:budget`` when one
was given for that bot alone, e.g. ``mcts:800``):

- ``games``: seat-games (a bot in 3 seats of one game counts 3);
- ``wins``: each game's win is shared by the seats ranked first (``final_scores``
  rank, ties share it): ``k`` seats tied for first get ``1/k`` each, so the wins of
  all bots add up to the number of games;
- ``win share`` = wins / games, with a 95% Wilson score interval (seat-games are
  treated as independent trials; parity is ``1/n``);
- mean score, mean rank (1 = first; ties share the better rank), thinking time per move;
- ``rating``: Elo-scaled Bradley-Terry strengths fitted by maximum likelihood (the MM
  algorithm) from the pairwise results within each game: every pair of seats held by
  different bots is a win, a loss or (equal rank) a half win each. One virtual draw per
  pair of bots keeps a bot that wins or loses every pair finite. Ratings are
  ``1500 + 400 log10(strength / geometric mean)``: the bots' mean is 1500 and a
  difference of 400 means 10:1 odds in a head-to-head comparison.

Backends. ``workers=1`` plays in this process; more workers use a pool of spawned
processes (a script that calls :func:`run_tournament` with ``workers > 1`` needs the
usual ``if __name__ == "__main__":`` guard). ``backend="ray"`` runs the games as Ray
tasks, on a local Ray instance (``num_cpus=workers``) or the cluster at ``address``;
``endeavor`` must be importable on every node. Ray is an optional extra
(``pip install 'endeavor[ray]'``); so is matplotlib for :func:`plot`
(``pip install 'endeavor[plot]'``).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ..bots import make
from ..bots import specs as _specs
from ..bots.specs import (
    BotFactory,
    BotSpecError,
    Budget,
    Entrant,
    budget_text,
)
from ..config import GameConfig
from ..errors import IllegalActionError
from ..scoring import final_scores
from ..state import new_game
from . import parallel
from .parallel import default_workers

FORMAT = "endeavor-tournament"
VERSION = 1
BACKENDS = parallel.BACKENDS
#: z for a 95% interval
Z95 = 1.959963984540054
RATING_MEAN = 1500.0
RATING_SCALE = 400.0

class TournamentError(BotSpecError):
    """Impossible tournament settings (an unknown bot, a bad budget, a seat count that
    does not fit), a missing optional extra, or a bot that failed during a game."""


# --------------------------------------------------------------------------- bot specs
def parse_budget(text: str) -> Budget:
    """:func:`endeavor.bots.parse_budget`, raising :class:`TournamentError`."""
    try:
        return _specs.parse_budget(text)
    except BotSpecError as e:
        raise TournamentError(str(e)) from None


def resolve_bots(specs: Sequence[str], budget: str | Mapping[str, Any] | None = None,
                 factory: BotFactory = make) -> list[Entrant]:
    """:func:`endeavor.bots.resolve_bots`, raising :class:`TournamentError`."""
    try:
        return _specs.resolve_bots(specs, budget, factory)
    except BotSpecError as e:
        raise TournamentError(str(e)) from None


def _distinct(entrants: Iterable[Entrant]) -> list[Entrant]:
    """The entrants without repeats (by label), in order."""
    seen: dict[str, Entrant] = {}
    for e in entrants:
        seen.setdefault(e.label, e)
    return list(seen.values())


# --------------------------------------------------------------------------- one game
@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play one game: the config (``to_dict`` form),
    the entrant label, bot name and budget, and bot seed of each seat. Workers receive
    it as :meth:`to_dict` (plain data crosses every backend, compiled or not)."""

    index: int
    block: int
    config: dict[str, Any]
    seating: tuple[str, ...]
    makers: tuple[tuple[str, dict[str, Any]], ...]
    bot_seeds: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (lists, dicts, numbers, text)."""
        return {"index": self.index, "block": self.block, "config": self.config,
                "seating": list(self.seating),
                "makers": [[name, dict(budget)] for name, budget in self.makers],
                "bot_seeds": list(self.bot_seeds)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameSpec:
        """The inverse of :meth:`to_dict`."""
        return cls(d["index"], d["block"], dict(d["config"]), tuple(d["seating"]),
                   tuple((name, dict(budget)) for name, budget in d["makers"]),
                   tuple(d["bot_seeds"]))


@dataclass(frozen=True)
class GameResult:
    """One finished game: ``seed`` is its config seed, ``seating`` the entrant label
    per seat, ``scores`` the totals per seat, ``ranks`` the ``final_scores`` ranks,
    ``decisions`` the decisions made, ``moves`` and ``think`` the decisions and
    seconds of thinking per seat, ``exploits`` the ids in play and ``record`` the
    game's record (``state.record()``: ``endeavor replay`` reads it)."""

    index: int
    block: int
    seed: int
    seating: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    decisions: int
    moves: tuple[int, ...]
    think: tuple[float, ...]
    exploits: tuple[str, ...]
    record: dict[str, Any]

    def to_dict(self, records: bool = True) -> dict[str, Any]:
        """JSON-ready form (without the record if ``records`` is False)."""
        d: dict[str, Any] = {
            "index": self.index, "block": self.block, "seed": self.seed,
            "seating": list(self.seating), "bot_seeds": list(self.bot_seeds),
            "scores": list(self.scores), "ranks": list(self.ranks),
            "decisions": self.decisions, "moves": list(self.moves),
            "think_seconds": list(self.think),
            "exploits": list(self.exploits)}
        if records:
            d["record"] = self.record
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameResult:
        """The inverse of :meth:`to_dict` (a missing record becomes ``{}``)."""
        return cls(index=d["index"], block=d["block"], seed=d["seed"],
                   seating=tuple(d["seating"]), bot_seeds=tuple(d["bot_seeds"]),
                   scores=tuple(d["scores"]), ranks=tuple(d["ranks"]),
                   decisions=d["decisions"], moves=tuple(d["moves"]),
                   think=tuple(d["think_seconds"]), exploits=tuple(d["exploits"]),
                   record=d.get("record", {}))


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of game ``game`` (deterministic, well mixed)."""
    return random.Random(f"endeavor-tournament/{seed}/{game}/{seat}").getrandbits(63)


def play_game(spec: GameSpec, factory: BotFactory = make) -> GameResult:
    """Play one game to the end with bots built by ``factory``. Raises
    :class:`TournamentError` naming the game and seat when a bot chooses an illegal
    action or fails."""
    config = GameConfig.from_dict(spec.config)
    state = new_game(config)
    n = config.players
    bots = [factory(name, seed=s, **kw)
            for (name, kw), s in zip(spec.makers, spec.bot_seeds, strict=True)]
    moves = [0] * n
    think = [0.0] * n
    clock = time.perf_counter
    while not state.is_over:
        p = state.current_player
        assert p is not None
        try:
            start = clock()
            action = bots[p].choose(state)
            think[p] += clock() - start
            state.apply_code(action.code)
        except Exception as e:
            where = (f"game {spec.index} (seed {config.seed}), seat {p} "
                     f"({spec.seating[p]}), decision {state.num_actions}")
            if isinstance(e, IllegalActionError):
                raise TournamentError(f"{where}: the bot chose an illegal action: {e}") from e
            raise TournamentError(f"{where}: the bot failed: {type(e).__name__}: {e}") from e
        moves[p] += 1
    scores = final_scores(state)
    return GameResult(index=spec.index, block=spec.block, seed=config.seed,
                      seating=spec.seating, bot_seeds=spec.bot_seeds,
                      scores=tuple(s.total for s in scores),
                      ranks=tuple(s.rank for s in scores), decisions=sum(moves),
                      moves=tuple(moves), think=tuple(think),
                      exploits=tuple(e.id for _, e in state.exploits),
                      record=state.record())


def play_spec(spec: dict[str, Any], factory: BotFactory = make) -> dict[str, Any] | str:
    """:func:`play_game` for workers, on plain data: ``spec`` is
    :meth:`GameSpec.to_dict`, the result :meth:`GameResult.to_dict`; a failure comes back
    as its message, so it crosses every backend as one line."""
    try:
        return play_game(GameSpec.from_dict(spec), factory).to_dict()
    except TournamentError as e:
        return str(e)
    except Exception as e:  # a failure outside the bots' moves: setup, scoring
        return f"game {spec.get('index')}: {type(e).__name__}: {e}"


# --------------------------------------------------------------------------- statistics
def wilson(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (``(0, 1)`` if ``n`` is
    0); fractional wins (shared first places) are allowed."""
    if n <= 0:
        return 0.0, 1.0
    p = min(max(wins / n, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def game_shares(ranks: Sequence[int]) -> list[float]:
    """Each seat's share of the game's win: ``1/k`` for each of the ``k`` seats
    ranked first, 0 for the others."""
    first = [r == 1 for r in ranks]
    k = sum(first)
    return [1.0 / k if f else 0.0 for f in first]


def pairwise(games: Iterable[GameResult]) -> dict[str, dict[str, list[float]]]:
    """``result[a][b] = [wins, comparisons]``: how often a seat of ``a`` ranked above a
    seat of ``b`` in the same game (equal ranks count a half), over all such pairs."""
    table: dict[str, dict[str, list[float]]] = {}
    for g in games:
        for i, a in enumerate(g.seating):
            for j, b in enumerate(g.seating):
                if a == b:
                    continue
                cell = table.setdefault(a, {}).setdefault(b, [0.0, 0.0])
                ri, rj = g.ranks[i], g.ranks[j]
                cell[0] += 1.0 if ri < rj else 0.5 if ri == rj else 0.0
                cell[1] += 1.0
    return table


def bradley_terry(pairs: Mapping[str, Mapping[str, Sequence[float]]],
                  labels: Sequence[str], prior: float = 1.0,
                  iterations: int = 10_000, tolerance: float = 1e-12) -> dict[str, float]:
    """Elo-scaled Bradley-Terry ratings by maximum likelihood (Hunter's MM algorithm)
    from ``pairs`` as :func:`pairwise` gives them; ``prior`` virtual draws are added
    between every two bots. The geometric mean strength is rated 1500."""
    labels = list(dict.fromkeys(labels))
    if len(labels) < 2:
        return {a: RATING_MEAN for a in labels}
    wins = {a: 0.0 for a in labels}
    games: dict[tuple[str, str], float] = {}
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            ab = pairs.get(a, {}).get(b, (0.0, 0.0))
            ba = pairs.get(b, {}).get(a, (0.0, 0.0))
            wins[a] += ab[0] + prior / 2
            wins[b] += ba[0] + prior / 2
            games[a, b] = games[b, a] = ab[1] + prior
    strength = {a: 1.0 for a in labels}
    for _ in range(iterations):
        new = {}
        for a in labels:
            denominator = sum(games[a, b] / (strength[a] + strength[b])
                              for b in labels if b != a)
            new[a] = wins[a] / denominator if denominator > 0 else strength[a]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {a: v / math.exp(mean_log) for a, v in new.items()}
        change = max(abs(math.log(new[a] / strength[a])) for a in labels)
        strength = new
        if change < tolerance:
            break
    return {a: RATING_MEAN + RATING_SCALE * math.log10(strength[a]) for a in labels}


@dataclass(frozen=True)
class Standing:
    """One row of the tournament table (see the module docstring)."""

    bot: str
    budget: str
    games: int
    wins: float
    win_share: float
    ci_low: float
    ci_high: float
    mean_score: float
    mean_rank: float
    rating: float
    seats: tuple[int, ...]
    moves: int
    seconds_per_move: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"bot": self.bot, "budget": self.budget, "games": self.games,
                "wins": self.wins, "win_share": self.win_share,
                "ci95": [self.ci_low, self.ci_high], "mean_score": self.mean_score,
                "mean_rank": self.mean_rank, "rating": self.rating,
                "seats": list(self.seats), "moves": self.moves,
                "seconds_per_move": self.seconds_per_move}


def standings(games: Sequence[GameResult], entrants: Sequence[Entrant] = ()
              ) -> list[Standing]:
    """The table per bot, best rating first (ties: the order of first appearance)."""
    order: list[str] = [e.label for e in entrants]
    budgets = {e.label: budget_text(e.budget) for e in entrants}
    for g in games:
        order += [a for a in g.seating if a not in order]
    order = list(dict.fromkeys(order))
    n = max((len(g.seating) for g in games), default=0)
    tally: dict[str, dict[str, Any]] = {
        a: {"games": 0, "wins": 0.0, "score": 0, "rank": 0, "seats": [0] * n,
            "moves": 0, "think": 0.0} for a in order}
    for g in games:
        shares = game_shares(g.ranks)
        for seat, a in enumerate(g.seating):
            t = tally[a]
            t["games"] += 1
            t["wins"] += shares[seat]
            t["score"] += g.scores[seat]
            t["rank"] += g.ranks[seat]
            t["seats"][seat] += 1
            t["moves"] += g.moves[seat]
            t["think"] += g.think[seat]
    ratings = bradley_terry(pairwise(games), [a for a in order if tally[a]["games"]])
    rows = []
    for a in order:
        t = tally[a]
        k = t["games"]
        if not k:
            continue
        low, high = wilson(t["wins"], k)
        rows.append(Standing(
            bot=a, budget=budgets.get(a, ""), games=k, wins=t["wins"],
            win_share=t["wins"] / k, ci_low=low, ci_high=high, mean_score=t["score"] / k,
            mean_rank=t["rank"] / k, rating=ratings[a], seats=tuple(t["seats"]),
            moves=t["moves"],
            seconds_per_move=t["think"] / t["moves"] if t["moves"] else 0.0))
    rows.sort(key=lambda r: -r.rating)
    return rows


# --------------------------------------------------------------------------- result
@dataclass
class TournamentResult:
    """What :func:`run_tournament` returns: the ``settings`` it was run with, every
    game (sorted by index), the table and the pairwise results."""

    settings: dict[str, Any]
    entrants: list[Entrant]
    games: list[GameResult]
    elapsed: float = 0.0

    @property
    def table(self) -> list[Standing]:
        """The standings, best rating first."""
        return standings(self.games, self.entrants)

    @property
    def pairs(self) -> dict[str, dict[str, list[float]]]:
        """:func:`pairwise` over the games."""
        return pairwise(self.games)

    def to_dict(self, records: bool = True) -> dict[str, Any]:
        """The JSON-ready form ``--out`` writes: settings, ``summary`` (the table),
        ``pairwise`` (``[wins, comparisons]`` of row against column) and ``games``."""
        pairs = self.pairs
        return {"format": FORMAT, "version": VERSION, "settings": self.settings,
                "elapsed_seconds": round(self.elapsed, 3),
                "summary": [s.to_dict() for s in self.table],
                "rating_method": "Bradley-Terry (MM) on pairwise results within each game, "
                                 "one virtual draw per pair of bots, Elo scale, mean 1500",
                "pairwise": {a: {b: list(v) for b, v in row.items()}
                             for a, row in pairs.items()},
                "games": [g.to_dict(records) for g in self.games]}

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dict` to ``path`` (replacing it whole: a reader never sees
        half a file)."""
        target = Path(path)
        part = target.with_name(target.name + ".part")
        part.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        os.replace(part, target)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TournamentResult:
        """Read back what :meth:`to_dict` wrote (the table is recomputed)."""
        if d.get("format") != FORMAT:
            raise TournamentError(f"not an {FORMAT} file")
        settings = dict(d["settings"])
        entrants = [Entrant(e["label"], e["name"], e["budget"])
                    for e in settings.get("entrants", [])]
        return cls(settings, entrants, [GameResult.from_dict(g) for g in d["games"]],
                   d.get("elapsed_seconds", 0.0))


# --------------------------------------------------------------------------- running
def seat_plan(entrants: Sequence[Entrant], blocks: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """(game index, block, entrant index per seat) of every game: game ``k`` of a block
    seats entrant ``(s - k) mod n`` in seat ``s``."""
    n = len(entrants)
    return [(b * n + k, b, tuple((s - k) % n for s in range(n)))
            for b in range(blocks) for k in range(n)]


def run_tournament(bots: Sequence[str] | str, games: int, seed: int = 0, *,
                   players: int | None = None, ruleset: str = "age_of_sail",
                   board: str | None = None, exploits: tuple[str, ...] | str = (),
                   options: Mapping[str, Any] | None = None,
                   budget: str | Mapping[str, Any] | None = None,
                   workers: int | None = 1, backend: str = "local",
                   address: str | None = None,
                   on_start: Callable[[int], None] | None = None,
                   on_game: Callable[[GameResult], None] | None = None,
                   factory: BotFactory = make,
                   resume: TournamentResult | None = None,
                   save: str | os.PathLike[str] | None = None) -> TournamentResult:
    """Play a tournament and return its result.

    ``bots``: one spec per seat (a list, or comma-separated text), or one spec for
    self-play with ``players`` copies; a spec is a bot name or ``name:budget``
    (:func:`resolve_bots`). ``games`` is rounded up to a multiple of the number of
    players (whole blocks, see the module docstring). ``seed``: block ``b`` deals with
    config seed ``seed + b``. ``players`` (default: the number of bots), ``ruleset``,
    ``board``, ``exploits``, ``options``: the :class:`GameConfig` of every game.
    ``budget``: the default budget (``"0.5s"``, ``"800"``, or ``{"iterations": 800}``)
    for the bots that take one. ``workers``: processes (None: every core; 1: this
    process) or, with ``backend="ray"``, the CPUs of the local Ray instance (ignored
    with ``address``). ``on_start(total)`` is called once the workers are ready to
    start, ``on_game(result)`` after each game, in the order games finish.
    ``factory(name, seed=..., **budget)`` builds the bots (default
    :func:`endeavor.bots.make`; bring your own bots with a module-level function, which
    worker processes import by name). ``resume``: a tournament of the same settings
    stopped part way (what :meth:`TournamentResult.write_json` saved as it went): its
    games are kept and only the others are played (``on_start`` gets the number still
    to play; more games than it had extend it). ``save``: a file the result so far is
    written to after every game (what ``resume`` takes). Raises :class:`TournamentError` (or
    :class:`~endeavor.errors.ConfigError`) for bad settings, or a ``resume`` of other
    settings, before any game is played, and if a bot fails.
    """
    specs_text = [b for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    specs_text = [s.strip() for s in specs_text]
    if not specs_text or any(not s for s in specs_text):
        raise TournamentError("give one bot per seat, comma-separated, e.g. "
                              "mcts,greedy,greedy,greedy (or one bot for self-play)")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"the number of games must be at least 1, not {games!r}")
    parallel.check_backend(backend, address, TournamentError)
    workers = parallel.check_workers(default_workers() if workers is None else workers,
                                     TournamentError)
    n = players if players is not None else len(specs_text)
    if len(specs_text) == 1:
        specs_text = specs_text * n
    if len(specs_text) != n:
        raise TournamentError(f"{len(specs_text)} bots for {n} players: give one bot per "
                              "seat, or one bot for self-play")
    config = GameConfig(players=n, ruleset=ruleset, board=board, exploits=exploits,
                        seed=seed, options=dict(options or {}))
    if backend == "ray":
        parallel.require_ray(TournamentError)
    entrants = resolve_bots(specs_text, budget, factory)
    blocks = -(-games // n)
    base = config.to_dict()
    specs = []
    for index, block, who in seat_plan(entrants, blocks):
        seating = tuple(entrants[i].label for i in who)
        makers = tuple((entrants[i].name, dict(entrants[i].budget)) for i in who)
        seeds = tuple(bot_seed(seed, index, s) for s in range(n))
        specs.append(GameSpec(index, block, {**base, "seed": seed + block}, seating,
                              makers, seeds).to_dict())
    settings: dict[str, Any] = {
        "bots": [e.label for e in entrants],
        "entrants": [{"label": e.label, "name": e.name, "budget": dict(e.budget)}
                     for e in _distinct(entrants)],
        "games": len(specs), "games_requested": games, "players": n, "seed": seed,
        "blocks": blocks, "seeds": [seed, seed + blocks - 1],
        "config": {k: v for k, v in base.items() if k != "seed"},
        "budget": budget_text(_specs.as_budget(budget)), "backend": backend,
        "workers": workers, "address": address}
    results: list[GameResult] = []
    if resume is not None:
        results = _resumed(resume, settings, specs)
        done = {g.index for g in results}
        specs = [spec for spec in specs if spec["index"] not in done]

    def handle(outcome: dict[str, Any] | str) -> None:
        if isinstance(outcome, str):
            raise TournamentError(outcome)
        game = GameResult.from_dict(outcome)
        results.append(game)
        if save is not None:
            TournamentResult(settings, _distinct(entrants), sorted(results, key=lambda g: g.index),
                             time.perf_counter() - start).write_json(save)
        if on_game is not None:
            on_game(game)

    start = time.perf_counter() - (resume.elapsed if resume is not None else 0.0)
    if on_start is not None:
        on_start(len(specs))
    parallel.run(play_spec, specs, handle, shared=(factory,), backend=backend,
                 workers=workers, address=address, error=TournamentError)
    results.sort(key=lambda g: g.index)
    return TournamentResult(settings, _distinct(entrants), results,
                            time.perf_counter() - start)


#: settings that may change when a tournament is resumed: where it runs, and how many
#: games (more games extend it: the first games of a longer tournament are the same)
_MAY_DIFFER: Final = ("workers", "backend", "address", "games", "games_requested", "blocks",
                      "seeds")


def _resumed(resume: TournamentResult, settings: Mapping[str, Any],
             specs: Sequence[Mapping[str, Any]]) -> list[GameResult]:
    """The games of ``resume`` once checked against this tournament's ``settings`` and
    game ``specs``: the same settings (but where it runs and how many games), and each
    game the one this tournament would play at its index (seating, deal and bot seeds)."""
    differ = sorted(k for k in set(settings) | set(resume.settings)
                    if k not in _MAY_DIFFER and settings.get(k) != resume.settings.get(k))
    if differ:
        shown = ", ".join(f"{k} {resume.settings.get(k)!r} there, {settings.get(k)!r} here"
                          for k in differ[:3])
        raise TournamentError(f"cannot resume a tournament of other settings ({shown})")
    by_index = {spec["index"]: spec for spec in specs}
    games: dict[int, GameResult] = {}
    for g in resume.games:
        spec = by_index.get(g.index)
        if spec is None or g.index in games or (
                list(g.seating), g.seed, list(g.bot_seeds)) != (
                list(spec["seating"]), spec["config"]["seed"], list(spec["bot_seeds"])):
            raise TournamentError(f"cannot resume: its game {g.index} is not a game of this "
                                  "tournament (fewer games? a damaged file?) or comes twice")
        games[g.index] = g
    return [games[i] for i in sorted(games)]


# --------------------------------------------------------------------------- plot
def plot_formats() -> dict[str, str]:
    """The file types :func:`plot` can write (suffix -> description); raises
    :class:`TournamentError` if matplotlib is missing."""
    return parallel.plot_formats(TournamentError)


def plot(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Draw the win shares with their 95% intervals (and parity) beside the score
    distribution of each bot, and save it to ``path`` (its suffix picks the format)."""
    parallel.import_optional("matplotlib", "plot", "--plot", TournamentError)
    figure_module = importlib.import_module("matplotlib.figure")
    backend_agg = importlib.import_module("matplotlib.backends.backend_agg")
    rows = result.table
    labels = [r.bot for r in rows]
    n = result.settings.get("players", 0)
    fig = figure_module.Figure(figsize=(max(8.0, 2.2 * len(rows) + 4), 4.6),
                               layout="constrained")
    backend_agg.FigureCanvasAgg(fig)
    share_ax, score_ax = fig.subplots(1, 2)
    x = list(range(len(rows)))
    shares = [r.win_share for r in rows]
    errors = [[r.win_share - r.ci_low for r in rows], [r.ci_high - r.win_share for r in rows]]
    share_ax.bar(x, shares, width=0.6, color="#4c78a8", alpha=0.85)
    share_ax.errorbar(x, shares, yerr=errors, fmt="none", ecolor="black", capsize=6)
    if n:
        share_ax.axhline(1 / n, color="#e45756", linestyle="--", label=f"parity (1/{n})")
        share_ax.legend(loc="best")
    for i, r in enumerate(rows):
        share_ax.annotate(f"{r.win_share:.0%}", (i, r.ci_high), textcoords="offset points",
                          xytext=(0, 4), ha="center")
    share_ax.set_xticks(x, labels)
    share_ax.set_ylim(0, min(1.0, max((r.ci_high for r in rows), default=1.0)) + 0.1)
    share_ax.set_yticks([i / 10 for i in range(11)
                         if i / 10 <= max((r.ci_high for r in rows), default=1.0) + 0.05])
    share_ax.set_ylabel("win share (shared wins split)")
    share_ax.set_title("Win share, 95% Wilson interval")
    scores: dict[str, list[int]] = {a: [] for a in labels}
    for g in result.games:
        for seat, a in enumerate(g.seating):
            scores[a].append(g.scores[seat])
    score_ax.boxplot([scores[a] for a in labels], showmeans=True)
    score_ax.set_xticks([i + 1 for i in x], labels)
    score_ax.set_ylabel("final score")
    score_ax.set_title("Score distribution (triangle: mean)")
    games = result.settings.get("games", len(result.games))
    fig.suptitle(f"endeavor tournament: {games} games, {n} players")
    fig.savefig(os.fspath(path), dpi=100)


__all__ = [
    "BACKENDS", "BotFactory", "Entrant", "GameResult", "GameSpec", "Standing",
    "TournamentError", "TournamentResult", "bot_seed", "bradley_terry", "budget_text",
    "default_workers", "game_shares", "pairwise", "parse_budget", "play_game", "play_spec",
    "plot", "plot_formats",
    "resolve_bots", "run_tournament", "seat_plan", "standings", "wilson",
]
