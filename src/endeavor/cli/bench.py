"""``endeavor bench``: the speed of the rules engine (random play through the bots'
code path or the public API every client uses, ``copy()``, ``undo()``, ``to_json`` /
``from_json``, the size of a serialized state)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import BUILD, __version__
from .. import data as D
from ..bots import RandomBot
from ..config import GameConfig
from ..state import State, new_game
from .common import (
    EXIT_OK,
    MAX_RUNS,
    MAX_SECONDS,
    _add_exploits_option,
    _add_rules_options,
    _config,
    _exploits_label,
    _options,
    _players,
    _runs,
    _seconds,
)


def add_parser(sub: Any) -> None:
    """The ``bench`` subcommand's options."""
    bench = sub.add_parser(
        "bench", help="measure the speed of the rules engine",
        description="Each run spends about T seconds on random play (legal actions, "
                    "random choice, apply; new games as needed; at least one game is "
                    "finished) to measure decisions and finished games per second, then "
                    "about T seconds on copy() of a mid-game state, then plays one random "
                    "game measuring the mean size of a serialized state (to_json), "
                    "to_json and from_json (checked, and trusted=True) of its mid-game "
                    "state, and undo() of the whole game step by step. Rates and times "
                    "are in CPU time of this process (steadier than the wall clock on a "
                    "busy machine). Prints the median, min and max over the runs and the "
                    "mean number of decisions per game.",
        epilog="example: endeavor bench --runs 3 --seconds 2 --exploits random --api public "
               "--json")
    bench.add_argument("--runs", type=_runs, default=5, metavar="R",
                       help=f"number of runs, 1 to {MAX_RUNS:,} (default: 5)")
    bench.add_argument("--seconds", type=_seconds, default=1.0, metavar="T",
                       help=f"seconds per measurement, more than 0 and at most "
                            f"{MAX_SECONDS:g} (default: 1.0)")
    bench.add_argument("--players", type=_players, default=4, metavar="N",
                       help="number of players, 2 to 5 (default: 4)")
    bench.add_argument("--api", choices=("codes", "public"), default="codes",
                       help="the random-play loop: codes (default: legal_codes() and "
                            "apply_code(), the bots' path, no events) or public "
                            "(legal_actions() and apply(), which returns the events, as "
                            "every client does; their words are not read)")
    _add_exploits_option(bench)
    _add_rules_options(bench)
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_bench)


def _play(seed: int, seconds: float, config: Callable[[int], GameConfig], api: str
          ) -> tuple[int, int, int, float]:
    """Random play for ``seconds`` of wall time and until a game finishes: (decisions,
    games finished, decisions in them, CPU seconds). Game i uses ``config(seed + i)``
    (with random Exploits, each game draws its own)."""
    state = new_game(config(seed))
    steps = games = finished_steps = 0
    bot = RandomBot(seed)
    rng = random.Random(seed)
    public = api == "public"
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while True:
        if public:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        else:
            state.apply_code(bot.choose_code(state))
        steps += 1
        if state.is_over:
            games += 1
            finished_steps = steps
            if time.perf_counter() >= deadline:
                break
            state = new_game(config(seed + games))
        elif games and time.perf_counter() >= deadline:
            break
    return steps, games, finished_steps, time.process_time() - cpu


def _per_call_us(f: Callable[[], object], seconds: float) -> float:
    """Mean CPU microseconds of ``f()`` over about ``seconds`` (at least 3 calls)."""
    calls = 0
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while calls < 3 or time.perf_counter() < deadline:
        f()
        calls += 1
    return (time.process_time() - cpu) / calls * 1e6


def _bench_run(seed: int, seconds: float, config: Callable[[int], GameConfig],
               api: str = "codes") -> dict[str, float]:
    """One run: random play for ``seconds``, copies of a mid-game state for
    ``seconds``, then one random game for state sizes, to_json/from_json of its
    mid-game state and undo() of the whole game."""
    steps, games, finished_steps, cpu = _play(seed, seconds, config, api)

    bot = RandomBot(seed)
    mid = new_game(config(seed))
    while mid.round < D.ROUNDS // 2 + 1:
        mid.apply_code(bot.choose_code(mid))
    copies = 0
    copy_cpu = time.process_time()
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            mid.copy()
        copies += 100
    copy_cpu = time.process_time() - copy_cpu

    sample = new_game(config(seed))
    sizes = []
    text = ""
    while not sample.is_over:
        sample.apply_code(bot.choose_code(sample))
        sizes.append(len(sample.to_json()))
        if sample.round == D.ROUNDS // 2 + 1 and not text:
            text = sample.to_json()
    quick = min(seconds, 1.0) / 4
    to_json_us = _per_call_us(sample.to_json, quick)
    from_json_us = _per_call_us(lambda: State.from_json(text), quick)
    trusted_us = _per_call_us(lambda: State.from_json(text, trusted=True), quick)
    undone = sample.num_actions
    undo_cpu = time.process_time()
    while sample.num_actions:
        sample.undo()
    undo_cpu = time.process_time() - undo_cpu
    return {"steps_per_s": steps / cpu, "games_per_s": games / cpu,
            "copies_per_s": copies / copy_cpu, "bytes_per_state": statistics.mean(sizes),
            "to_json_us": to_json_us, "from_json_us": from_json_us,
            "from_json_trusted_us": trusted_us, "undo_us": undo_cpu / undone * 1e6,
            "games": games, "finished_steps": finished_steps}


_BENCH_METRICS = (("steps_per_s", "decisions/s (random play)"),
                  ("games_per_s", "games/s (random play)"),
                  ("copies_per_s", "copy()/s (mid-game state)"),
                  ("bytes_per_state", "bytes per state (to_json)"),
                  ("to_json_us", "µs per to_json (mid-game state)"),
                  ("from_json_us", "µs per from_json (checked: history replayed)"),
                  ("from_json_trusted_us", "µs per from_json(trusted=True)"),
                  ("undo_us", "µs per undo() (a whole game, step by step)"))


def _bench(args: argparse.Namespace, out: Console) -> int:
    def config(seed: int) -> GameConfig:
        return _config(args, seed)

    # fail on a bad configuration (player count, Exploit list, options) before measuring
    new_game(config(0))
    runs = [_bench_run(run, args.seconds, config, args.api) for run in range(args.runs)]
    summary: dict[str, Any] = {"build": BUILD, "runs": args.runs, "seconds": args.seconds,
                               "players": args.players, "exploits": args.exploits,
                               "ruleset": args.ruleset, "options": _options(args),
                               "api": args.api, "clock": "cpu"}
    for key, _ in _BENCH_METRICS:
        values = [r[key] for r in runs]
        summary[key] = {"median": statistics.median(values), "min": min(values),
                        "max": max(values)}
    summary["decisions_per_game"] = (sum(r["finished_steps"] for r in runs)
                                     / sum(r["games"] for r in runs))
    if args.json:
        print(json.dumps(summary))
        return EXIT_OK
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("Measure (CPU time)")
    for column in ("median", "min", "max"):
        table.add_column(column, justify="right")
    for key, label in _BENCH_METRICS:
        table.add_row(label, *[f"{summary[key][c]:,.0f}" for c in ("median", "min", "max")])
    ex = "" if args.exploits == "none" else f" · Exploits: {_exploits_label(args.exploits)}"
    rules = "" if args.ruleset == "age_of_sail" else f" · {args.ruleset}"
    flags = "".join(f" · {name}" for name in _options(args) if name != "phase_order")
    api = ("public API: legal_actions() + apply()" if args.api == "public" else
           "bots' path: legal_codes() + apply_code()")
    out.print(Text(f"endeavor bench · {args.runs} run(s) × {args.seconds:g} s · "
                   f"{args.players} players{rules}{flags}{ex} · {api}", style="bold"))
    out.print(f"endeavor {__version__}, engine {BUILD}")
    out.print(table)
    out.print(f"Mean decisions per game: {summary['decisions_per_game']:.1f}")
    return EXIT_OK
