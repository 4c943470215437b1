"""``endeavor train``: the expert bot's network trained by imitation of ``hard`` and
self-play (:mod:`endeavor.analysis.train` does the work; it needs numpy and is imported when the
command runs, so the parser is built without it)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from .common import (
    EXIT_OK,
    MAX_SEED,
    UsageError,
    _add_backend_options,
    _add_exploits_option,
    _add_rules_options,
    _check_backend_options,
    _check_plot,
    _options,
    _seed,
    ranged,
)

MAX_COUNT = 1_000_000
MAX_ITERATIONS = 1_000_000
#: the defaults of a new run (``endeavor.analysis.train.Settings``' own, which a test keeps equal;
#: written here so that building the parser does not import numpy)
DEFAULTS: dict[str, Any] = {
    "games": 40, "generations": 1, "warm_start_games": 20, "hard_iterations": 200,
    "iterations": 100, "players": (2,), "seed": 0, "hidden": (128, 128), "epochs": 6,
    "batch": 256, "lr": 1e-3, "weight_decay": 1e-4, "window": 4, "result_weight": 0.5,
    "mix": "self:4,snapshot:1,hard:1,greedy:1", "noise": 0.25, "temperature_moves": 8,
    "promotion_games": 10, "promotion_threshold": 0.55, "eval_games": 10,
    "eval_iterations": 200, "search_weight": 0.25, "batch_games": 8,
    "warm_start_from": None, "pool": None, "pool_games": 2000}
#: the options that only a new run takes (a resumed run keeps its own settings)
SETTING_OPTIONS = ("games", "warm_start_games", "hard_iterations", "iterations", "players",
                   "seed", "hidden", "epochs", "batch", "lr", "window", "result_weight", "mix",
                   "promotion_games", "promotion_threshold", "eval_games", "eval_iterations",
                   "search_weight", "batch_games", "warm_start_from", "pool", "pool_games",
                   "exploits")

#: the environment variables that set the threads of numpy's linear algebra
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

_count = ranged(int, lambda v: 1 <= v <= MAX_COUNT, f"1 to {MAX_COUNT:,}")
_count0 = ranged(int, lambda v: 0 <= v <= MAX_COUNT, f"0 to {MAX_COUNT:,}")
_iterations = ranged(int, lambda v: 1 <= v <= MAX_ITERATIONS, f"1 to {MAX_ITERATIONS:,}")
_share = ranged(float, lambda v: 0.0 <= v <= 1.0, "between 0 and 1")
_lr = ranged(float, lambda v: 0.0 < v <= 1.0, "more than 0 and at most 1")


def _ints(what: str, low: int, high: int) -> Any:
    """An argparse ``type``: comma-separated whole numbers from ``low`` to ``high``."""
    def parse(text: str) -> tuple[int, ...]:
        parts = [p.strip() for p in text.split(",")]
        if not parts or not all(p.isdigit() and low <= int(p) <= high for p in parts):
            raise argparse.ArgumentTypeError(
                f"must be {what}: comma-separated whole numbers from {low} to {high}, "
                f"not {text!r}")
        return tuple(int(p) for p in parts)
    parse.__name__ = "list"
    return parse


def add_parser(sub: Any) -> None:
    """The ``train`` subcommand's options."""
    d = DEFAULTS
    t = sub.add_parser(
        "train", help="train the expert bot's network by imitation of hard and self-play",
        description="Train the policy/value network of the expert bot. Generation 0 (the "
                    "warm start) imitates the hard bot: its searches' visits are the "
                    "policy targets, each game's result (mixed with the bots' evaluation, "
                    "--result-weight) the value targets. Each later generation plays "
                    "self-play games of the best network against itself, earlier "
                    "snapshots, hard and greedy in rotated seats (--mix), trains a "
                    "candidate on the recent games (a numpy learner), and promotes it "
                    "only if it beats the best network in a tournament. After each "
                    "generation the best network plays hard: the learning curve. "
                    "--warm-start-from starts from a network file (a previous run's, the "
                    "shipped one); --pool shares games between runs; each worker plays "
                    "--batch-games self-play games together, their positions evaluated "
                    "in batched network passes. "
                    "Everything is kept in --out (run.json, games/, nets/, curve.json, "
                    "expert.npz: the best network), checkpointed after each stage, so "
                    "--resume continues an interrupted run (or adds generations). "
                    "Needs pip install 'endeavor[expert]' (numpy).",
        epilog="example: endeavor train --out runs/first --warm-start-games 40 "
               "--games 40 --generations 3 --workers 2 --plot curve.png; on a Ray "
               "cluster: endeavor train --backend ray --address HEAD:6379 --out runs/v4 "
               "--warm-start-from runs/first/expert.npz --pool runs/pool --players 2,3,4 "
               "(docs/bots.md); then "
               "endeavor tournament with make('expert', weights='runs/first/expert.npz'), "
               "or copy it to src/endeavor/bots/weights/expert_v1.npz to ship it")
    t.add_argument("--out", required=True, metavar="DIR",
                   help="the run's directory: new or empty, or with --resume a run's")
    t.add_argument("--resume", action="store_true",
                   help="continue the run in --out with its own settings (only "
                        "--generations, --workers, --backend, --address, --plot and --quiet "
                        "may be given: --generations raises the total)")
    t.add_argument("--games", type=_count, metavar="N",
                   help=f"self-play games per generation (default: {d['games']})")
    t.add_argument("--generations", type=_count0, metavar="G",
                   help="self-play generations after the warm start (default: "
                        f"{d['generations']}; 0: the warm start only)")
    t.add_argument("--warm-start-games", type=_count0, metavar="N",
                   help="games of hard in every seat to imitate first (default: "
                        f"{d['warm_start_games']}; 0: start from fresh weights)")
    t.add_argument("--warm-start-from", metavar="FILE.npz",
                   help="start from this network (an expert weights file, e.g. the shipped "
                        "src/endeavor/bots/weights/expert_v1.npz or a run's expert.npz) "
                        "instead of fresh weights; its hidden layers are the run's")
    t.add_argument("--hard-iterations", type=_iterations, metavar="N",
                   help="the hard bot's search per decision in training games "
                        f"(default: {d['hard_iterations']})")
    t.add_argument("--iterations", type=_iterations, metavar="N",
                   help="the network's search per decision in self-play and promotion "
                        f"games (default: {d['iterations']})")
    t.add_argument("--players", type=_ints("player counts", 2, 5), metavar="N[,N...]",
                   help="player counts of the training games, in turn; promotion and "
                        "evaluation games use the first (default: 2)")
    _add_exploits_option(t, None, "; random: 3 drawn for each game")
    _add_rules_options(t)
    t.add_argument("--seed", type=_seed, metavar="S",
                   help=f"seed of the deals, bots and learner, 0 to {MAX_SEED} (default: 0)")
    t.add_argument("--hidden", type=_ints("layer sizes", 1, 4096), metavar="H[,H...]",
                   help="the hidden layers of a new network (default: 128,128)")
    t.add_argument("--epochs", type=_count, metavar="E",
                   help=f"passes of the learner over its samples (default: {d['epochs']})")
    t.add_argument("--batch", type=_count, metavar="B",
                   help=f"minibatch size (default: {d['batch']})")
    t.add_argument("--lr", type=_lr, metavar="X",
                   help=f"Adam's learning rate (default: {d['lr']:g})")
    t.add_argument("--window", type=_count, metavar="W",
                   help="the learner trains on the games of the last W generations "
                        f"(default: {d['window']})")
    t.add_argument("--result-weight", type=_share, metavar="W",
                   help="weight of the game's result in the value targets, the rest the "
                        "bots' evaluation of the position (default: "
                        f"{d['result_weight']:g}; 1: results only)")
    t.add_argument("--search-weight", type=_share, metavar="W",
                   help="weight of the search's value at the root in the value targets "
                        f"(default: {d['search_weight']:g}; the rest after --result-weight "
                        "is the bots' evaluation)")
    t.add_argument("--pool", metavar="DIR",
                   help="a games pool shared by runs: this run adds its games to it and "
                        "its learner also reads the pool's most recent games of other runs "
                        "(created if missing)")
    t.add_argument("--pool-games", type=_count0, metavar="N",
                   help="how many of the pool's most recent games the learner reads "
                        f"(default: {d['pool_games']})")
    t.add_argument("--batch-games", type=_count, metavar="K",
                   help="self-play games each worker plays together, their positions "
                        "evaluated in one batched network pass (default: "
                        f"{d['batch_games']})")
    t.add_argument("--mix", metavar="KIND:W,...",
                   help="the opponents of the best network in self-play games, in turn "
                        f"by weight: self, snapshot, hard, greedy (default: {d['mix']})")
    t.add_argument("--promotion-games", type=_count, metavar="N",
                   help="games of the candidate against the best network (default: "
                        f"{d['promotion_games']})")
    t.add_argument("--promotion-threshold", type=_share, metavar="F",
                   help="the candidate's win share needed to become the best network "
                        f"(default: {d['promotion_threshold']:g})")
    t.add_argument("--eval-games", type=_count0, metavar="N",
                   help="games of the best network against hard after each generation "
                        f"(the learning curve; default: {d['eval_games']}; 0: none)")
    t.add_argument("--eval-iterations", type=_iterations, metavar="N",
                   help="the search of both in those games, per decision (default: "
                        f"{d['eval_iterations']})")
    _add_backend_options(t, "games and tournaments", "plays", workers=1)
    t.add_argument("--plot", metavar="FILE.png",
                   help="draw the learning curve (the best network against hard per "
                        "generation) to this file (needs pip install 'endeavor[plot]')")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(run=_train)


def _module() -> Any:
    try:
        from ..analysis import train as T
    except ImportError as e:
        if e.name and e.name.split(".")[0] == "numpy":
            raise UsageError("endeavor train needs numpy: pip install "
                             "'endeavor[expert]'") from None
        raise
    return T


def _train(args: argparse.Namespace, out: Console) -> int:
    # one thread of linear algebra a process: the workers are one process a core, and
    # the batched network passes are too small to gain from threads (measured slower
    # on a loaded machine); inherited by the worker processes (set before numpy loads)
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
    T = _module()
    _check_backend_options(args)
    given = [name for name in SETTING_OPTIONS if getattr(args, name) is not None]
    if args.ruleset != "age_of_sail" or _options(args):
        given.append("ruleset")
    if args.resume and given:
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        raise UsageError(f"--resume continues the run with its own settings: leave out "
                         f"{flags}")
    if args.plot is not None:
        _check_plot(args.plot, T.plot_formats())
    settings = None
    if not args.resume:
        values = {**DEFAULTS, **{k: getattr(args, k) for k in SETTING_OPTIONS
                                 if k != "exploits" and getattr(args, k) is not None}}
        values["generations"] = DEFAULTS["generations"]
        if args.warm_start_from is not None and args.hidden is None:
            values["hidden"] = T.start_net(args.warm_start_from).hidden  # the file's
        settings = T.Settings(
            **{k: v for k, v in values.items()},
            ruleset=args.ruleset, exploits=args.exploits or "none", options=_options(args))
    err = Console(stderr=True)
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        console=err, transient=True,
                        disable=args.quiet or not err.is_terminal)
    tasks: dict[str, Any] = {}

    def on_progress(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            for old in tasks.values():
                progress.update(old, visible=False)
            tasks[stage] = progress.add_task(stage, total=total)
        progress.update(tasks[stage], completed=done, total=total)

    def on_log(line: str) -> None:
        (progress.console if progress.live.is_started else err).print(
            f"endeavor train: {line}", markup=False, highlight=False, soft_wrap=True)

    progress.start()
    try:
        state = T.train(args.out, settings, resume=args.resume, generations=args.generations,
                        workers=args.workers, backend=args.backend, address=args.address,
                        progress=on_progress, log=on_log)
    finally:
        progress.stop()
    out.print(_summary(state, args.out))
    if args.plot is not None:
        T.plot_curve(state["curve"], args.plot)
        out.print(f"Saved the learning curve to {args.plot}")
    return EXIT_OK


def _summary(state: dict[str, Any], where: str) -> Group:
    """The run's curve as a table, and where its weights are."""
    s = state["settings"]
    cpu = state.get("cpu_seconds", {})
    head = (f"endeavor train · {where} · generation {state['generation']} · "
            f"{state['games']} games, {state['samples']} samples, "
            f"{state.get('evaluations', 0)} network evaluations · players "
            f"{','.join(map(str, s['players']))} · {s['ruleset']} · hidden "
            f"{','.join(map(str, s['hidden']))} · {sum(cpu.values()) / 3600:.2f} CPU hours "
            f"({', '.join(f'{k} {v / 3600:.2f}' for k, v in sorted(cpu.items()))}) · "
            f"{state.get('wall_seconds', 0.0):.0f} s")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for column in ("Gen", "Games", "Samples", "Policy", "Top-1", "Value", "Promoted",
                   "Best", "vs hard", "95% CI", "Score", "Δ rating"):
        table.add_column(column, justify="left" if column == "Best" else "right",
                         no_wrap=True)
    for p in state["curve"]:
        losses = p.get("losses") or {}
        part = losses.get("held") or losses.get("train") or {}
        promo = p.get("promotion")
        vs = p.get("vs_hard")
        table.add_row(
            str(p["generation"]), str(p["games"]), str(p["samples"]),
            f"{part['policy']:.3f}" if part else "-", f"{part['top1']:.0%}" if part else "-",
            f"{part['value']:.3f}" if part else "-",
            "-" if promo is None else
            f"{'yes' if p['promoted'] else 'no'} ({promo['share']:.0%})",
            str(p["best"]).removeprefix("nets/").removesuffix(".npz"),
            "-" if vs is None else f"{vs['share']:.0%} of {vs['games']}",
            "-" if vs is None else f"{100 * vs['ci'][0]:.0f}-{100 * vs['ci'][1]:.0f}",
            "-" if vs is None else f"{vs['score']:g}-{vs['other_score']:g}",
            "-" if vs is None else f"{vs['rating_diff']:+.0f}")
    weights = Path(where) / "expert.npz"
    return Group(Text(head, style="bold"), table, Text(
        "Policy, Top-1, Value: the learner's losses on held-out games (on its training "
        "games when none is held out): policy cross-entropy, top-1 agreement with the "
        "search, value cross-entropy. Promoted: whether the generation's candidate "
        "became the best network (its win share against it). vs hard: the best network "
        f"against hard at {s['eval_iterations']} iterations a decision each, with its "
        "95% interval in %, mean scores, and the rating difference (Elo scale).",
        style="dim"),
        Text(f"The best network: {weights} (make('expert', weights='{weights}'); copy it "
             "to src/endeavor/bots/weights/expert_v1.npz to ship it)"))
