"""``endeavor simulate``: many games between random bots, summarized (or one JSON
object per game)."""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from ..bots import RandomBot
from ..exploits import EXPLOIT_IDS
from ..scoring import final_scores
from ..state import new_game
from ..terminal import render
from .common import (
    EXIT_OK,
    MAX_GAMES,
    MAX_SEED,
    _add_exploits_option,
    _add_game_options,
    _config,
    _exploits_label,
    _fraction,
    _games,
)


def add_parser(sub: Any) -> None:
    """The ``simulate`` subcommand's options."""
    sim = sub.add_parser(
        "simulate", help="play many random games and summarize the scores",
        description="Play K games between random bots. Game i uses config seed S+i and a "
                    "RandomBot seeded with S+i playing every seat, so each game can be "
                    "reproduced. Prints the mean score and wins (rank 1, ties count for "
                    "each) per seat, the spread of the totals and the mean number of "
                    "decisions per game.",
        epilog="example: endeavor simulate --players 3 --games 500 --seed 7 --json")
    _add_game_options(sim, 4, 0, f"seed of the first game, 0 to {MAX_SEED} (default: 0)")
    _add_exploits_option(sim)
    sim.add_argument("--games", type=_games, default=100, metavar="K",
                     help=f"number of games, 1 to {MAX_GAMES:,} (default: 100)")
    sim.add_argument("--pass-weight", type=_fraction, default=1.0, metavar="W",
                     help="chance, 0 to 1, that a bot keeps 'pass' among its choices when "
                          "it has other actions; lower values give fuller games "
                          "(default: 1)")
    sim.add_argument("--json", action="store_true",
                     help="instead of the summary, write one JSON object per game: seed, "
                          "config, exploits (the ids in play), totals, ranks, decisions")
    sim.set_defaults(run=_simulate)


def _simulate(args: argparse.Namespace, out: Console) -> int:
    first = args.seed
    board = _config(args, first).board  # a bad configuration fails before any game
    totals: list[list[int]] = []
    wins = [0] * args.players
    decisions: list[int] = []
    exploits: dict[str, list[int]] = {}  # id -> [games, active at the end, glory]
    err = Console(stderr=True)
    progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                        console=err, transient=True,
                        disable=args.json or not err.is_terminal)
    with progress:
        task = progress.add_task("games", total=args.games)
        for seed in range(first, first + args.games):
            config = _config(args, seed)
            state = new_game(config)
            made = RandomBot(seed, args.pass_weight).play_out(state)
            scores = final_scores(state)
            for i, e in state.exploits:
                tally = exploits.setdefault(e.id, [0, 0, 0])
                tally[0] += 1
                tally[1] += state.exploit_active(i)
                tally[2] += sum(s.lines[e.name] for s in scores)
            if args.json:
                print(json.dumps({"seed": seed, "config": config.to_dict(),
                                  "exploits": [e.id for _, e in state.exploits],
                                  "totals": [s.total for s in scores],
                                  "ranks": [s.rank for s in scores], "decisions": made}))
            totals.append([s.total for s in scores])
            for s in scores:
                wins[s.player] += s.rank == 1
            decisions.append(made)
            progress.advance(task)
    if not args.json:
        out.print(_simulation_summary(args, board, totals, wins, decisions, exploits))
    return EXIT_OK


def _simulation_summary(args: argparse.Namespace, board: str | None,
                        totals: list[list[int]], wins: list[int],
                        decisions: list[int], exploits: dict[str, list[int]]) -> Group:
    first = args.seed
    every = [t for game in totals for t in game]
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("Seat")
    table.add_column("Mean score", justify="right")
    table.add_column("Wins", justify="right")
    for p in range(args.players):
        table.add_row(render.player_text(p), f"{statistics.mean(g[p] for g in totals):.2f}",
                      str(wins[p]))
    head = (f"{args.games} random games · {args.players} players · board {board} · "
            f"seeds {first}-{first + args.games - 1}")
    if exploits:
        head += f" · Exploits: {_exploits_label(args.exploits)}"
    parts: list[Any] = [
        Text(head, style="bold"),
        table,
        Text(f"Totals: min {min(every)} · max {max(every)} · "
             f"std dev {statistics.pstdev(every):.2f}"),
        Text(f"Mean decisions per game: {statistics.mean(decisions):.1f}")]
    if exploits:
        ex_table = Table(box=box.SIMPLE_HEAD)
        ex_table.add_column("Exploit")
        ex_table.add_column("Games", justify="right")
        ex_table.add_column("Active at end", justify="right")
        ex_table.add_column("Glory per game", justify="right")
        for ex_id in sorted(exploits, key=EXPLOIT_IDS.index):
            games, active, glory = exploits[ex_id]
            ex_table.add_row(ex_id, str(games), str(active), f"{glory / games:.2f}")
        parts.append(ex_table)
    return Group(*parts)
