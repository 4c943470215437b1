"""``endeavor tournament``: bots against each other, rated (:mod:`endeavor.analysis.tournament`
plays the games; it is imported when the command runs or its parser is built)."""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from .. import bots as B
from .common import (
    EXIT_OK,
    MAX_GAMES,
    MAX_SEED,
    UsageError,
    _add_backend_options,
    _add_exploits_option,
    _add_rules_options,
    _board_name,
    _check_backend_options,
    _check_output,
    _check_plot,
    _exploits_label,
    _games,
    _options,
    _players,
    _seed,
)


def _budget(text: str) -> str:
    """An argparse ``type``: a budget ``endeavor.analysis.tournament.parse_budget`` reads."""
    from ..analysis.tournament import TournamentError, parse_budget
    try:
        parse_budget(text)
    except TournamentError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def add_parser(sub: Any) -> None:
    """The ``tournament`` subcommand's options."""
    t = sub.add_parser(
        "tournament", help="play bots against each other and rate them",
        description="Play K games between bots, one bot per seat. Games come in blocks of "
                    "N (the number of players) sharing one deal, config seed S+block; the "
                    "bot list is rotated by one seat per game of the block, so every bot "
                    "sits in every seat equally often and plays each deal from every seat "
                    "(K is rounded up to a multiple of N). Each bot's seed derives from S, "
                    "the game and the seat: the same settings with iteration budgets give "
                    "the same games whatever the workers or the backend. Prints per bot: "
                    "seat-games, wins (a first place shared by k seats counts 1/k each; "
                    "wins add up to K), win share with its 95% Wilson interval, mean "
                    "score and rank, a rating (Bradley-Terry fitted to the pairwise "
                    "results within each game, Elo scale, mean 1500) and the thinking time "
                    "per move.",
        epilog="example: endeavor tournament --bots mcts,greedy,greedy,greedy --games 200 "
               "--seed 1 --budget 0.5s --out results.json --plot results.png")
    t.add_argument("--bots", required=True, metavar="B1,B2,...",
                   help="one bot per seat, comma-separated (e.g. mcts,greedy,greedy,greedy), "
                        "or one bot with --players N for self-play; a bot is a name "
                        f"({', '.join(B.NAMES)}) optionally with its own budget, "
                        "e.g. mcts:800 or mcts:0.5s")
    t.add_argument("--games", type=_games, default=100, metavar="K",
                   help=f"number of games, 1 to {MAX_GAMES:,}, rounded up to a multiple of "
                        "the number of players (default: 100)")
    t.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help=f"seed of the first deal, 0 to {MAX_SEED}; block b deals with seed "
                        "S+b (default: 0)")
    t.add_argument("--players", type=_players, metavar="N",
                   help="number of players, 2 to 5 (3 to 5 in the 2009 ruleset; default: "
                        "the number of bots)")
    t.add_argument("--board", type=_board_name, metavar="{A,B,classic}",
                   help="board side (default: A for 2-3 players, B for 4-5; the 2009 "
                        "ruleset has its own board)")
    _add_exploits_option(t)
    _add_rules_options(t)
    t.add_argument("--budget", type=_budget, metavar="B",
                   help="search budget for the bots that take one (mcts and the levels "
                        "built on it): seconds per move like 0.5s, or iterations per move "
                        "like 800 or 800it (iterations give reproducible games); bots that "
                        "take no budget (random, greedy) play without it. A bot's own "
                        "budget (mcts:800) wins over this one")
    _add_backend_options(t, "the games", "plays")
    t.add_argument("--out", metavar="FILE",
                   help="write the settings, the table, the pairwise results and every game "
                        "(index, seed, seating, scores, ranks, decisions, record) as JSON, "
                        "after every game (so a stopped tournament can --resume); a game's "
                        "'record' is what 'endeavor replay' reads")
    t.add_argument("--resume", metavar="FILE",
                   help="go on with a tournament stopped part way: FILE is what its --out "
                        "saved (it is saved after every game); the same settings are "
                        "needed, the workers may differ. Its games are kept, the others "
                        "played, and the whole saved to --out (default: FILE again)")
    t.add_argument("--plot", metavar="FILE.png",
                   help="draw the win shares with their intervals and the score "
                        "distributions per bot (needs pip install 'endeavor[plot]'; the "
                        "suffix picks the format: png, svg, pdf...)")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(run=_tournament)


def _tournament(args: argparse.Namespace, out: Console) -> int:
    from rich.progress import TimeElapsedColumn, TimeRemainingColumn

    from ..analysis import tournament as T
    _check_backend_options(args)
    resume = _read_resume(args.resume, T) if args.resume is not None else None
    if resume is not None and args.out is None:
        args.out = args.resume
    if args.out is not None:
        _check_output(args.out, "--out")
    if args.plot is not None:
        _check_plot(args.plot, T.plot_formats(), args.out)
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) == 1 and args.players is None:
        raise UsageError("one bot plays every seat: say how many with --players N")
    err = Console(stderr=True)
    progress = Progress(TextColumn("tournament"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("games ·"), TimeElapsedColumn(), TextColumn("· ETA"),
                        TimeRemainingColumn(), console=err, transient=True,
                        disable=args.quiet or not err.is_terminal)
    task = progress.add_task("games", total=None)

    played = len(resume.games) if resume is not None else 0

    def on_start(total: int) -> None:
        total += played
        if played:
            err.print(f"endeavor: {played} of {total} games were played already "
                      f"({args.resume}); playing the other {total - played}",
                      markup=False, highlight=False, soft_wrap=True)
        if total != args.games:
            n = args.players if args.players is not None else len(bots)
            err.print(f"endeavor: playing {total} games rather than {args.games}: whole "
                      f"blocks of {n}, so that every bot sits in every seat equally often",
                      markup=False, highlight=False, soft_wrap=True)
        progress.update(task, total=total, completed=played)
        progress.start()

    try:
        result = T.run_tournament(
            bots, args.games, args.seed, players=args.players, ruleset=args.ruleset,
            board=args.board, exploits=args.exploits, options=_options(args),
            budget=args.budget, workers=args.workers, backend=args.backend,
            address=args.address, on_start=on_start,
            on_game=lambda _: progress.advance(task), resume=resume, save=args.out)
    finally:
        progress.stop()
    out.print(_tournament_summary(result, args))
    if args.out is not None:
        result.write_json(args.out)
        out.print(f"Saved the table and {len(result.games)} games to {args.out}")
    if args.plot is not None:
        T.plot(result, args.plot)
        out.print(f"Saved the plot to {args.plot}")
    return EXIT_OK


def _read_resume(path: str, T: Any) -> Any:
    """The tournament saved in ``path`` (for ``--resume``), or a :class:`UsageError`
    saying why it cannot be read."""
    import json
    from pathlib import Path

    try:
        data = json.loads(Path(path).expanduser().read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"--resume {path}: there is no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"--resume {path}: {e}") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"--resume {path}: not JSON ({e})") from None
    if not isinstance(data, dict):
        raise UsageError(f"--resume {path}: not a tournament file (what --out writes)")
    try:
        return T.TournamentResult.from_dict(data)
    except T.TournamentError as e:
        raise UsageError(f"--resume {path}: {e}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise UsageError(f"--resume {path}: a damaged tournament file "
                         f"({type(e).__name__}: {e})") from None


def _duration(seconds: float) -> str:
    """A short time: ``1.25s``, ``12ms``, ``<1ms``."""
    if seconds >= 1:
        return f"{seconds:.2f}s"
    return f"{seconds * 1000:.0f}ms" if seconds >= 0.001 else "<1ms"


def _tournament_summary(result: Any, args: argparse.Namespace) -> Group:
    """The tournament's header, table, pairwise results and notes."""
    settings = result.settings
    n = settings["players"]
    config = settings["config"]
    rows = result.table
    deals = "1 deal" if settings["blocks"] == 1 else f"{settings['blocks']} deals"
    head = (f"endeavor tournament · {settings['games']} games ({deals} × "
            f"{n} seatings) · {n} players · {config['ruleset']} · board {config['board']} · "
            f"seeds {settings['seeds'][0]}-{settings['seeds'][1]}")
    if config["exploits"]:
        head += f" · Exploits: {_exploits_label(args.exploits)}"
    flags = [name for name in _options(args) if name != "phase_order"]
    if "phase_order" in _options(args):
        flags.append(f"phase order {args.phase_order}")
    head += "".join(f" · {f}" for f in flags)
    where = ("1 process" if settings["workers"] == 1 and settings["backend"] == "local"
             else f"{settings['workers']} workers" if settings["backend"] == "local"
             else f"Ray at {settings['address']}" if settings["address"]
             else f"Ray, {settings['workers']} CPUs")
    head += f" · {result.elapsed:.1f} s, {where}"
    # the Budget column only when some bot's label does not show its budget already
    budgets = any(r.budget and ":" not in r.bot for r in rows)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for column in ("Bot", "Budget", "Games", "Wins", "Share", "95% CI", "Score", "Rank",
                   "Rating", "t/move"):
        text = column in ("Bot", "Budget")  # these wrap on a narrow terminal, not numbers
        if column != "Budget" or budgets:
            table.add_column(column, justify="left" if text else "right", no_wrap=not text)
    for r in rows:
        wins = f"{r.wins:g}" if r.wins == int(r.wins) else f"{r.wins:.2f}"
        cells = [r.bot] + ([r.budget or "-"] if budgets else []) + [
            str(r.games), wins, f"{r.win_share:.1%}",
            f"{100 * r.ci_low:.1f}-{100 * r.ci_high:.1f}", f"{r.mean_score:.1f}",
            f"{r.mean_rank:.2f}", f"{r.rating:.0f}", _duration(r.seconds_per_move)]
        table.add_row(*cells)
    parts: list[Any] = [Text(head, style="bold"), table]
    if len(rows) > 2:
        pairs = result.pairs
        grid = Table(box=box.SIMPLE_HEAD, collapse_padding=True)
        grid.add_column("")
        for r in rows:
            grid.add_column(r.bot, justify="right")
        for a in rows:
            cells = []
            for b in rows:
                wins_ab, games_ab = pairs.get(a.bot, {}).get(b.bot, (0.0, 0.0))
                cells.append("-" if not games_ab else f"{wins_ab / games_ab:.0%}")
            grid.add_row(a.bot, *cells)
        parts += [Text("Pairwise: how often the row's bot finished above the column's in "
                       "the same game"), grid]
    seats = " · ".join(f"{r.bot} {'/'.join(map(str, r.seats))}" for r in rows)
    every = [s for g in result.games for s in g.scores]
    decisions = statistics.mean(g.decisions for g in result.games)
    parts += [
        Text(f"Seat-games per seat: {seats}. Mean score of all seats "
             f"{statistics.mean(every):.1f}; {decisions:.0f} decisions per game."),
        Text(f"Wins: a first place shared by k seats counts 1/k. Share: wins per seat-game "
             f"(parity {1 / n:.0%}), with its 95% Wilson interval in %. Score, Rank: means. "
             "Rating: Bradley-Terry fitted to the pairwise results within each game, Elo "
             "scale, mean 1500. t/move: thinking time per decision.", style="dim")]
    return Group(*parts)
