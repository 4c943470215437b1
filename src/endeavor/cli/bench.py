"""``endeavor bench``: the speed of the rules engine (random play, ``copy()``, the
size of a serialized state)."""

from __future__ import annotations

import argparse
import json
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
from ..state import new_game
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
                    "about T seconds on copy() of a mid-game state, then measures the "
                    "mean size of a serialized state (to_json) over one random game. "
                    "Prints the median, min and max over the runs and the mean number "
                    "of decisions per game.",
        epilog="example: endeavor bench --runs 3 --seconds 2 --exploits random --json")
    bench.add_argument("--runs", type=_runs, default=5, metavar="R",
                       help=f"number of runs, 1 to {MAX_RUNS:,} (default: 5)")
    bench.add_argument("--seconds", type=_seconds, default=1.0, metavar="T",
                       help=f"seconds per measurement, more than 0 and at most "
                            f"{MAX_SECONDS:g} (default: 1.0)")
    bench.add_argument("--players", type=_players, default=4, metavar="N",
                       help="number of players, 2 to 5 (default: 4)")
    _add_exploits_option(bench)
    _add_rules_options(bench)
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_bench)


def _bench_run(seed: int, seconds: float, config: Callable[[int], GameConfig]
               ) -> dict[str, float]:
    """One run: random play for ``seconds`` (and until a game finishes), copies of a
    mid-game state for ``seconds``, then state sizes over one random game. Game i
    uses ``config(seed + i)`` (with random Exploits, each game draws its own)."""

    bot = RandomBot(seed)
    state = new_game(config(seed))
    steps = games = finished_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
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
    elapsed = time.perf_counter() - start

    mid = new_game(config(seed))
    while mid.round < D.ROUNDS // 2 + 1:
        mid.apply_code(bot.choose_code(mid))
    copies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            mid.copy()
        copies += 100
    copy_elapsed = time.perf_counter() - start

    sample = new_game(config(seed))
    sizes = []
    while not sample.is_over:
        sample.apply_code(bot.choose_code(sample))
        sizes.append(len(sample.to_json()))
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed,
            "copies_per_s": copies / copy_elapsed, "bytes_per_state": statistics.mean(sizes),
            "games": games, "finished_steps": finished_steps}


_BENCH_METRICS = (("steps_per_s", "decisions/s (random play)"),
                  ("games_per_s", "games/s (random play)"),
                  ("copies_per_s", "copy()/s (mid-game state)"),
                  ("bytes_per_state", "bytes per state (to_json)"))


def _bench(args: argparse.Namespace, out: Console) -> int:
    def config(seed: int) -> GameConfig:
        return _config(args, seed)

    # fail on a bad configuration (player count, Exploit list, options) before measuring
    new_game(config(0))
    runs = [_bench_run(run, args.seconds, config) for run in range(args.runs)]
    summary: dict[str, Any] = {"build": BUILD, "runs": args.runs, "seconds": args.seconds,
                               "players": args.players, "exploits": args.exploits,
                               "ruleset": args.ruleset, "options": _options(args)}
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
    table.add_column("Measure")
    for column in ("median", "min", "max"):
        table.add_column(column, justify="right")
    for key, label in _BENCH_METRICS:
        table.add_row(label, *[f"{summary[key][c]:,.0f}" for c in ("median", "min", "max")])
    ex = "" if args.exploits == "none" else f" · Exploits: {_exploits_label(args.exploits)}"
    rules = "" if args.ruleset == "age_of_sail" else f" · {args.ruleset}"
    flags = "".join(f" · {name}" for name in _options(args) if name != "phase_order")
    out.print(Text(f"endeavor bench · {args.runs} run(s) × {args.seconds:g} s · "
                   f"{args.players} players{rules}{flags}{ex}", style="bold"))
    out.print(f"endeavor {__version__}, engine {BUILD}")
    out.print(table)
    out.print(f"Mean decisions per game: {summary['decisions_per_game']:.1f}")
    return EXIT_OK
