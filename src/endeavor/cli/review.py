"""``endeavor review``: every decision of a game record judged against the strongest bot
(:mod:`endeavor.analysis.review` does the work)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from .. import bots as B
from ..analysis import review as R
from .common import (
    EXIT_OK,
    UsageError,
    _add_backend_options,
    _check_backend_options,
    _check_output,
    _check_plot,
    _read_record,
    _seat,
)


def _budget(text: str) -> int:
    """An argparse ``type``: iterations per decision, ``400`` or ``400it`` (a time
    budget would make the review depend on the machine)."""
    t = text.strip().lower()
    digits = t[:-2] if t.endswith("it") else t
    if t.endswith("s") and not t.endswith("it"):
        raise argparse.ArgumentTypeError(
            f"must be iterations like 400 or 400it, not {text!r}: a review is "
            "reproducible only with an iteration budget")
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"must be iterations like 400 or 400it, "
                                         f"not {text!r}")
    value = int(digits)
    if not 1 <= value <= R.MAX_ITERATIONS:
        raise argparse.ArgumentTypeError(f"must be 1 to {R.MAX_ITERATIONS:,} iterations, "
                                         f"not {text}")
    return value


def add_parser(sub: Any) -> None:
    """The ``review`` subcommand's options."""
    r = sub.add_parser(
        "review", help="review a game record move by move against the strongest bot",
        description="Review every decision of the chosen seats in a game record (as saved "
                    "by 'endeavor play' or written by 'endeavor tournament --out'): the "
                    f"strongest bot's best action ({B.strongest()} here), each seat's "
                    "expected final glory with it and with the action played, the glory "
                    "and win chance lost, and a label (best, good, inaccuracy, mistake, "
                    "blunder); then a summary per player (accuracy, biggest mistakes, "
                    "glory lost by phase). Forced decisions are skipped. The same record, "
                    "seats, budget and policy give the same review whatever the workers "
                    "or the backend. A progress bar with the time left is shown on stderr "
                    "while it runs (without a terminal: a line at each tenth of the "
                    "decisions, at most every 10 s).",
        epilog="example: endeavor review game.json --seat 0 --budget 1000 --out review.json "
               "--plot review.png")
    r.add_argument("file", metavar="RECORD", help="the game record, a JSON file")
    r.add_argument("--seat", type=_seat, action="append", metavar="N",
                   help="a seat to review (repeat for more; default: every seat)")
    r.add_argument("--budget", type=_budget, default=R.DEFAULT_ITERATIONS, metavar="ITER",
                   help="iterations of the bot's search per decision, like 1000 or "
                        f"1000it (default: {R.DEFAULT_ITERATIONS}, as the server's)")
    bots = [b for b in R.REVIEW_BOTS if b in B.NAMES]
    r.add_argument("--bot", choices=bots, default=R.REVIEW_BOT,
                   help="the bot whose search gives the best action (default: "
                        f"{R.REVIEW_BOT}, the strongest measured): "
                        + " or ".join(bots))
    r.add_argument("--policy", choices=R.POLICIES, default=R.DEFAULT_POLICY,
                   help="how the budget is spent: contested (default: a first search of "
                        f"{R.FIRST:g} of it, carried on to the whole budget only where "
                        "the choice is contested) or fixed (the whole budget on every "
                        "decision)")
    _add_backend_options(r, "the decisions", "reviews")
    r.add_argument("--out", metavar="FILE",
                   help="write the review as JSON (every decision, the summaries, the curve "
                        "of expected final glory, the thresholds)")
    r.add_argument("--plot", metavar="FILE.png",
                   help="draw every player's expected final glory over the game, mistakes "
                        "and blunders marked (needs pip install 'endeavor[plot]'; the "
                        "suffix picks the format: png, svg, pdf...)")
    r.add_argument("--json", action="store_true",
                   help="print the review as JSON instead of the tables")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.set_defaults(run=_review)


def _review(args: argparse.Namespace, out: Console) -> int:
    _check_backend_options(args)
    final, record = _read_record(args.file)
    n = final.n
    seats = sorted(set(args.seat)) if args.seat else None
    for s in seats or ():
        if s >= n:
            raise UsageError(f"--seat {s}: the game has {n} players (seats 0 to {n - 1})")
    if args.out is not None:
        _check_output(args.out, "--out")
    if args.plot is not None:
        _check_plot(args.plot, R.plot_formats(), args.out)
    workers = args.workers if args.workers is not None else R.default_workers()
    err = Console(stderr=True)
    progress = Progress(TextColumn("review"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("decisions ·"), TimeElapsedColumn(), TextColumn("· ETA"),
                        TimeRemainingColumn(), console=err, transient=True,
                        disable=args.quiet or not err.is_terminal)
    task = progress.add_task("decisions", total=None)
    # without a terminal: a line at a new tenth of the decisions, at most every
    # LINE_SECONDS, with the time left (a short review says nothing)
    lines = not args.quiet and not err.is_terminal
    shown = [0, 0.0]  # the tenth and the time of the last line

    def on_progress(done: int, total: int) -> None:
        if done == 0:
            progress.update(task, total=total)
            progress.start()
        else:
            progress.update(task, completed=done)
        now = time.perf_counter() - start
        if lines and total and 0 < done < total and 10 * done // total > shown[0] \
                and now - shown[1] >= LINE_SECONDS:
            shown[:] = [10 * done // total, now]
            err.print(progress_line(done, total, now), markup=False, highlight=False,
                      soft_wrap=True)

    start = time.perf_counter()
    try:
        result = R.review(record, seats, args.budget, workers=workers, backend=args.backend,
                          address=args.address, progress=on_progress, bot=args.bot,
                          policy=args.policy)
    finally:
        progress.stop()
    elapsed = time.perf_counter() - start
    saved = []
    if args.out is not None:
        Path(args.out).expanduser().write_text(result.to_json(indent=1) + "\n",
                                               encoding="utf-8")
        saved.append(f"Saved the review to {args.out}")
    if args.plot is not None:
        R.plot(result, Path(args.plot).expanduser())
        saved.append(f"Saved the plot to {args.plot}")
    if args.json:
        print(result.to_json(indent=1))
        for line in saved:
            err.print(line, markup=False, highlight=False, soft_wrap=True)
        return EXIT_OK
    where = (f"{workers} worker{'s' if workers != 1 else ''}" if args.backend == "local"
             else f"Ray at {args.address}" if args.address else f"Ray, {workers} CPUs")
    out.print(review_text(result, args.file, f"{elapsed:.1f} s, {where}"))
    for line in saved:
        out.print(line)
    return EXIT_OK


#: the shortest time between two progress lines when stderr is not a terminal (seconds)
LINE_SECONDS = 10.0


def progress_line(done: int, total: int, elapsed: float) -> str:
    """The progress as a line (stderr without a terminal): ``"review: 45/226 decisions
    (20%), 12 s, about 48 s left"``: the decisions left at the pace so far."""
    left = elapsed / done * (total - done)
    when = "done" if done >= total else f"about {_duration(left)} left"
    return (f"review: {done}/{total} decisions ({100 * done // total}%), "
            f"{_duration(elapsed)}, {when}")


def _duration(seconds: float) -> str:
    s = round(seconds)
    return f"{s} s" if s < 60 else f"{s // 60} min {s % 60:02d} s"


#: the phases as the table writes them (narrow)
_PHASES = {"Construction": "Constr."}


def _loss(x: float, scale: float = 1.0, unit: str = "") -> str:
    value = x * scale
    return "-" if round(value, 1) == 0 else f"{value:.1f}{unit}"


def review_text(result: R.Review, name: str, timing: str) -> Group:
    """The review as the command prints it: a header, one row per decision, a summary
    per player, the glory lost by phase, and a note on the method."""
    config = result.config
    seats = ", ".join(f"P{s}" for s in result.seats)
    state = (f"finished, scores {'-'.join(map(str, result.final_scores))}"
             if result.finished else "unfinished")
    head = (f"endeavor review · {name} · {config['players']} players · {config['ruleset']} · "
            f"board {config['board']} · {result.actions} actions, {state} · reviewed "
            f"{seats} · {'up to ' if result.policy == 'contested' else ''}"
            f"{result.iterations} iterations a decision of the {result.bot} bot · {timing}")
    parts: list[Any] = [Text(head, style="bold")]
    if not result.decisions:
        parts.append(Text("No decision to review: the reviewed seats made no choice "
                          "with more than one legal action."))
    else:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
        for column, right in (("Step", True), ("Round", False), ("P", False),
                              ("Played", False), ("Best", False), ("Glory", True),
                              ("Lost", True), ("Win lost", True), ("Label", False)):
            table.add_column(column, justify="right" if right else "left",
                             no_wrap=column not in ("Played", "Best"))
        for d in result.decisions:
            style = ("bold red" if d.label == "blunder" else "red" if d.label == "mistake"
                     else "yellow" if d.label == "inaccuracy" else None)
            table.add_row(str(d.step), f"{d.round} {_PHASES.get(d.phase, d.phase)}",
                          f"P{d.seat}", d.played, "=" if d.best == d.played else d.best,
                          f"{d.glory_after[d.seat]:.1f}", _loss(d.glory_loss),
                          _loss(d.win_loss, 100, "%"), d.label, style=style)
        parts.append(table)
    summary = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for column in ("Player", "Moves", "Acc.", "Best", "Good", "Inacc.", "Mist.", "Blund.",
                   "Lost", "Win lost", "Final", "Worst steps"):
        summary.add_column(column, justify="left" if column in ("Player", "Worst steps")
                           else "right", no_wrap=column != "Worst steps")
    for p in result.players:
        labels = p.labels
        worst = ", ".join(map(str, p.worst)) or "-"
        summary.add_row(f"P{p.seat}", str(p.decisions),
                        f"{p.accuracy:.0f}%" if p.decisions else "-",
                        *(str(labels[x]) for x in R.LABELS), f"{p.glory_lost:.1f}",
                        f"{100 * p.win_lost / p.decisions:.1f}%" if p.decisions else "-",
                        "-" if p.final is None else str(p.final), worst)
    parts.append(summary)
    phases = []
    for p in result.players:
        lost = [f"{k} {v:.1f}" for k, v in p.by_phase.items() if round(v, 1)]
        phases.append(f"P{p.seat} " + (" · ".join(lost) if lost else "none"))
    parts.append(Text("Glory lost by phase: " + "; ".join(phases)))
    limits = ", ".join(f"{label} < {g:g} glory and < {100 * w:g}%"
                       for label, g, w in R.THRESHOLDS)
    parts.append(Text(
        f"Best: the {result.bot} bot's action with the budget (\"=\": the one played). Glory: the "
        "mover's expected final glory after the action played (the medium bot continues "
        "every seat to the end of the round, then the bots' evaluation). Lost, Win lost: "
        "the glory and the win chance the action played gives up against the best one "
        "(never below 0; in the summary: glory in all, win chance per decision on average). "
        "Moves: the decisions reviewed (forced ones are skipped); Acc. (accuracy): the share "
        "of them labelled best or good; Worst steps: the "
        f"{R.WORST} biggest glory losses labelled inaccuracy or worse. Labels: best (the bot's "
        f"action, or no loss), {limits}, else blunder.", style="dim"))
    return Group(*parts)
