"""The ``endeavor`` command line: ``simulate``, ``play``, ``replay``, ``bench`` and
``tournament``.

An adapter over the engine's public API. :func:`main` parses ``argv``, runs one
subcommand and returns its exit status: 0 on success (and for ``--help``), 2 when the
input is bad (a usage error, a number out of range, an impossible configuration, a
missing or unreadable file, a corrupt record), reported as one line
``endeavor: error: ...`` on stderr; no traceback ever reaches the user. Interactive
input is read with the builtin :func:`input` (with :mod:`readline` history when stdin is
a terminal), so it can come from a terminal, a pipe or a test.

``play`` draws the screen of :mod:`endeavor.screen` at each of the human's decisions:
redrawn in place on a terminal (its size is used), printed at 100×40 otherwise. The
other seats are played by bots of :mod:`endeavor.bots` (``--opponents``), and ``hint``
asks the strongest one (:data:`HINT_BOTS`) to rank the human's options.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import random
import secrets
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from rich import box
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table
from rich.text import Text

from .. import BUILD, __version__, render
from .. import bots as B
from .. import data as D
from .. import screen as S
from ..actions import Action
from ..bots import RandomBot
from ..config import OPTIONS, GameConfig
from ..decision import Decision
from ..errors import (
    EndeavorError,
    IllegalActionError,
    NotationError,
    RecordError,
    UndoError,
)
from ..events import Event
from ..exploits import EXPLOIT_IDS
from ..records import replay
from ..scoring import final_scores
from ..state import State, new_game

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
PIPE_WIDTH, PIPE_HEIGHT = S.WIDTH, S.HEIGHT  # the screen when stdout is not a terminal
MAX_SEED = 2**63 - 1
MAX_GAMES = 1_000_000
MAX_RUNS = 1_000
MAX_SECONDS = 3_600.0
DEFAULT_PASS_WEIGHT = 0.1  # the opponents in play keep playing rather than pass early
#: the bot of every other seat in ``play`` when --opponents is not given
DEFAULT_OPPONENT = "medium" if "medium" in B.NAMES else "random"
#: the bots asked for a hint, strongest first: the first one that exists answers
HINT_BOTS = ("hard", "mcts", "medium", "greedy", "easy", "random")
HINT_SECONDS = 1.0  # a hint's search budget when --hint-budget is not given
HINT_TOP = 3  # how many actions a hint ranks
THINKING_AFTER = 0.3  # a bot thinking longer than this many seconds says so (terminal)
_N = TypeVar("_N", int, float)


class UsageError(Exception):
    """Bad command-line input that argparse or a subcommand detected."""


class _HelpExit(Exception):
    """argparse finished early (``--help``) with this status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so :func:`main` returns."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _HelpExit(status)


# --------------------------------------------------------------------------- arguments
def _ranged(convert: Callable[[str], _N], valid: Callable[[_N], bool],
            rule: str) -> Callable[[str], _N]:
    """An argparse ``type``: ``convert`` the text, then require a finite value that is
    ``valid`` (``rule`` says what is required, for the error message)."""
    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            what = "an integer" if convert is int else "a number"
            raise argparse.ArgumentTypeError(f"must be {what}, not {text!r}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
        if not valid(value):
            raise argparse.ArgumentTypeError(f"must be {rule}, not {text}")
        return value
    parse.__name__ = convert.__name__  # argparse names the type in some messages
    return parse


_games = _ranged(int, lambda v: 1 <= v <= MAX_GAMES, f"1 to {MAX_GAMES:,}")
_runs = _ranged(int, lambda v: 1 <= v <= MAX_RUNS, f"1 to {MAX_RUNS:,}")
_seconds = _ranged(float, lambda v: 0 < v <= MAX_SECONDS,
                   f"a positive number of seconds, at most {MAX_SECONDS:g}")
_fraction = _ranged(float, lambda v: 0.0 <= v <= 1.0, "between 0 and 1")
_seed = _ranged(int, lambda v: 0 <= v <= MAX_SEED, f"0 to {MAX_SEED}")
_players = _ranged(int, lambda v: True, "an integer")
_seat = _ranged(int, lambda v: 0 <= v <= 4, "a seat number, 0 to 4")


def _opponent_names(text: str) -> list[str]:
    """An argparse ``type`` for ``play --opponents``: comma-separated bot names, each
    one of :data:`endeavor.bots.NAMES` (case and spaces ignored)."""
    names = [name.strip().lower() for name in text.split(",")]
    for name in names:
        if name not in B.NAMES:
            what = f"unknown bot {name!r}" if name else f"a bot name is missing in {text!r}"
            raise argparse.ArgumentTypeError(f"{what}: choose from {', '.join(B.NAMES)}")
    return names


def _hint_budget(text: str) -> dict[str, float | int]:
    """An argparse ``type`` for ``play --hint-budget``: seconds (``1.5`` or ``1.5s``)
    or a number of search iterations (``800it``), as keyword arguments for
    :func:`endeavor.bots.make`."""
    plain = text.strip().lower()
    try:
        if plain.endswith("it"):
            iterations = int(plain[:-2])
            if 1 <= iterations <= 10_000_000:
                return {"iterations": iterations}
        else:
            seconds = float(plain.removesuffix("s"))
            if math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS:
                return {"seconds": seconds}
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(
        f"must be seconds (e.g. 1 or 0.5s, at most {MAX_SECONDS:g}) or iterations "
        f"(e.g. 800it, at most 10000000), not {text!r}")
EXPLOITS_HELP = ("Exploits in play: 'none', 'random' (3 drawn for each game from its seed, "
                 "R4) or up to 3 comma-separated ids, e.g. spanish_main,imperialism "
                 f"(ids: {', '.join(EXPLOIT_IDS)})")


def _add_exploits_option(p: argparse.ArgumentParser, default: str | None = "none",
                         extra: str = "") -> None:
    p.add_argument("--exploits", default=default, metavar="random|none|a,b,c",
                   help=f"{EXPLOITS_HELP} (default: none{extra})")


def _exploits_label(spec: str) -> str:
    """The --exploits value for a summary line: ``"random"``, or the ids given."""
    return spec if spec == "random" else ", ".join(
        e.strip() for e in spec.split(",") if e.strip())


def _board_name(text: str) -> str:
    return text.upper() if text.lower() in ("a", "b") else text.lower()


#: command-line flags of the rules' on/off options: (flag, option, help)
_RULE_FLAGS = (
    ("--plus-same-region", "plus_same_region",
     "Age of Sail house rule: the second action of a '+' building must be in the first "
     "one's region (Draw + Draw: the same deck), as in the 2009 game; by default it may "
     "be anywhere (R23)"),
    ("--silent-fleet", "silent_fleet",
     "the Silent Fleet 2-player variant (Age of Sail, 2 players): a neutral fleet reacts "
     "after each turn (R21)"),
    ("--limited-occupation", "limited_occupation",
     "Silent Fleet optional rule: its Occupy only in the region you just occupied (R22)"),
    ("--no-token-reaction", "no_token_reaction",
     "Silent Fleet optional rule: no reaction to a turn played with a blue token (R22)"),
    ("--building-shortage", "building_shortage",
     "Silent Fleet optional rule: each round the player without the Crown discards a "
     "building from the supply (R22)"),
)


def _add_rules_options(p: argparse.ArgumentParser) -> None:
    """The ruleset and its options (shared by every command that plays games)."""
    p.add_argument("--ruleset", choices=("age_of_sail", "classic"), default="age_of_sail",
                   help="age_of_sail (default: Endeavor: Age of Sail, 2-5 players) or "
                        "classic (the 2009 Endeavor, 3-5 players, its own board)")
    p.add_argument("--phase-order", choices=OPTIONS["phase_order"][0],
                   help="by_phase (default): each early phase for everyone in turn; "
                        "by_player: each player does Construction, Growth and Salary "
                        "before the next")
    for flag, _, text in _RULE_FLAGS:
        p.add_argument(flag, action="store_true", help=text)


def _add_game_options(p: argparse.ArgumentParser, players: int | None,
                      seed_default: int | None, seed_help: str) -> None:
    p.add_argument("--players", type=_players, default=players, metavar="N",
                   help="number of players, 2 to 5 (default: 4)")
    p.add_argument("--seed", type=_seed, default=seed_default, metavar="S", help=seed_help)
    p.add_argument("--board", type=_board_name, metavar="{A,B,classic}",
                   help="board side (default: A for 2-3 players, B for 4-5; the 2009 "
                        "ruleset has its own board)")
    _add_rules_options(p)


def _options(args: argparse.Namespace) -> dict[str, object]:
    """The config options the command-line flags ask for."""
    options: dict[str, object] = {}
    if getattr(args, "phase_order", None) is not None:
        options["phase_order"] = args.phase_order
    for _, name, _ in _RULE_FLAGS:
        if getattr(args, name, False):
            options[name] = True
    return options


def _config(args: argparse.Namespace, seed: int) -> GameConfig:
    """The game configuration the common options describe (raises ConfigError)."""
    return GameConfig(players=args.players, ruleset=args.ruleset,
                      board=getattr(args, "board", None), seed=seed,
                      options=_options(args), exploits=args.exploits)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="endeavor",
        description="Endeavor: Age of Sail - play against bots, simulate random games, "
                    "replay game records, benchmark the rules engine and run "
                    "tournaments between bots.",
        epilog="Run 'endeavor COMMAND --help' for the options of a command.")
    parser.add_argument("--version", action="version", version=f"endeavor {__version__} ({BUILD})",
                        help="print the version and which build of the engine runs "
                             "(compiled with mypyc, or pure Python), then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

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

    play = sub.add_parser(
        "play", help="play a game in the terminal against bots of your choice",
        description="Play one seat against bots (--opponents picks them and their "
                    "difficulty). The screen (redrawn at each of "
                    "your decisions; 100x40 or your terminal's size) shows the header, the "
                    "board, the Exploits in play, every player's mat (a bot's with its "
                    "name), the log of what "
                    "happened since your last decision and the menu of your options, "
                    "grouped by kind with their effect in words. Choose by menu number "
                    "or type an action's notation (e.g. 'act docks', 'ship FE'). "
                    "Commands: help, hint (the strongest bot's top actions for your "
                    "decision, with their menu numbers), board (redraw), log (the whole "
                    "game), undo (back to "
                    "your previous decision), save FILE, back (leave a sub-menu), quit. "
                    "End of input leaves the game.",
        epilog="example: endeavor play --players 4 --opponents hard,medium,easy "
               "--seed 42 --exploits random; endeavor play --load game.json")
    _add_game_options(play, None, None,
                      "game seed (default: a random one, shown on screen)")
    _add_exploits_option(play, None, "; try 'random' for 3 random Exploits")
    play.add_argument("--seat", type=_seat, metavar="K",
                      help="your seat, 0 to N-1 (default: 0, or the saved one)")
    play.add_argument("--opponents", type=_opponent_names, metavar="BOT[,BOT...]",
                      help="the bots of the other seats, in seat order after yours (N-1 "
                           "names), or one name for all of them; with --auto, N names "
                           "give every seat from seat 0 (N-1: yours plays the default). "
                           f"Bots: {', '.join(B.NAMES)} "
                           f"(default: {DEFAULT_OPPONENT}, or the saved ones)")
    play.add_argument("--bot-seed", type=_seed, metavar="B",
                      help="seed of the bots: seat K's bot is seeded with B+K (default: "
                           "the game seed, or the saved one)")
    play.add_argument("--pass-weight", type=_fraction, metavar="W",
                      help="chance, 0 to 1, that a random bot keeps 'pass' among its "
                           "choices when "
                           f"it has other actions (default: {DEFAULT_PASS_WEIGHT}, bots "
                           "that keep playing; or the saved one)")
    play.add_argument("--hint-budget", type=_hint_budget, metavar="T",
                      help="the search budget of a hint: seconds (e.g. 2 or 0.5s) or "
                           f"iterations (e.g. 800it) (default: {HINT_SECONDS:g}s; a bot "
                           "that does not search ignores it). Hints come from the first "
                           f"of {', '.join(HINT_BOTS)} that exists: {hint_bot_name()}")
    play.add_argument("--load", metavar="FILE",
                      help="resume a game saved with 'save FILE': its seat, opponents, "
                           "bot seed and "
                           "pass weight are restored unless given here (a plain engine "
                           "record, state.record(), loads too); the game's own settings "
                           "come from the file")
    play.add_argument("--auto", action="store_true",
                      help="bots play every seat, including yours (a demo that prints the "
                           "log, one event per line)")
    play.set_defaults(run=_play)

    rep = sub.add_parser(
        "replay", help="replay a saved game record",
        description="Check a game record (as written by 'save' in 'endeavor play') and show "
                    "the final position and score breakdown, or the position reached if "
                    "the game is unfinished.",
        epilog="example: endeavor replay game.json --step")
    rep.add_argument("file", metavar="FILE", help="the record, a JSON file")
    rep.add_argument("--step", action="store_true",
                     help="show the position after every action with what it caused; on a "
                          "terminal, press Enter for the next one (q stops)")
    rep.set_defaults(run=_replay)
    _add_tournament_parser(sub)
    _add_web_parsers(sub)

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
    return parser


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    try:
        args = _build_parser().parse_args(argv)
    except _HelpExit as e:
        return e.status
    except UsageError as e:
        return _fail(str(e))
    out = Console(markup=False, highlight=False, emoji=False,
                  width=None if sys.stdout.isatty() else PIPE_WIDTH)
    run: Callable[[argparse.Namespace, Console], int] = args.run
    try:
        return run(args, out)
    except (UsageError, EndeavorError) as e:
        return _fail(str(e))
    except OSError as e:
        return _fail(_os_error(e))
    except KeyboardInterrupt:
        print("endeavor: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as e:  # never a traceback: one line, and the way to report it
        return _fail(f"unexpected {type(e).__name__}: {e} (please report this bug)")


def _fail(message: str) -> int:
    line = " ".join(str(message).split())
    print(f"endeavor: error: {line}", file=sys.stderr)
    return EXIT_USAGE


def _os_error(e: OSError) -> str:
    if e.filename is not None and e.strerror:
        return f"{e.filename}: {e.strerror}"
    return str(e)


# --------------------------------------------------------------------------- records
def _read_record(path: str) -> tuple[State, dict[str, Any]]:
    """Replay the record in file ``path``; return the state and the record's JSON
    object. The engine reads the bytes (not UTF-8, not JSON, too deeply nested, not a
    record, an illegal action: :class:`RecordError` naming the file)."""
    try:
        raw = Path(path).read_bytes()
    except ValueError as e:  # e.g. a NUL in the name
        raise UsageError(f"{path!r}: {e}") from None
    try:
        state = replay(raw)  # the engine reads bytes too
        record = json.loads(raw)
    except RecordError as e:
        raise RecordError(f"{path}: {e}") from None
    except (ValueError, RecursionError) as e:  # cannot happen after replay succeeded
        raise RecordError(f"{path}: record is not valid JSON: {e}") from None
    return state, record


def _play_settings(record: dict[str, Any], path: str) -> dict[str, Any]:
    """The ``"play"`` object of a saved game (seat, bot seed, pass weight, opponents),
    checked."""
    play = record.get("play", {})
    if not isinstance(play, dict):
        raise RecordError(f"{path}: 'play' must be an object")
    players = record["config"]["players"]
    out: dict[str, Any] = {}
    seat = play.get("seat")
    if seat is not None:
        if type(seat) is not int or not 0 <= seat < players:
            raise RecordError(f"{path}: 'play' seat must be 0 to {players - 1}, not {seat!r}")
        out["seat"] = seat
    bot_seed = play.get("bot_seed")
    if bot_seed is not None:
        if type(bot_seed) is not int or not 0 <= bot_seed <= MAX_SEED:
            raise RecordError(f"{path}: 'play' bot_seed must be 0 to {MAX_SEED}, "
                              f"not {bot_seed!r}")
        out["bot_seed"] = bot_seed
    weight = play.get("pass_weight")
    if weight is not None:
        if (type(weight) not in (int, float) or not math.isfinite(weight)
                or not 0 <= weight <= 1):
            raise RecordError(f"{path}: 'play' pass_weight must be between 0 and 1, "
                              f"not {weight!r}")
        out["pass_weight"] = float(weight)
    opponents = play.get("opponents")
    if opponents is not None:
        if (not isinstance(opponents, list) or len(opponents) not in (1, players - 1)
                or not all(isinstance(x, str) for x in opponents)):
            shown = repr(opponents)
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            raise RecordError(f"{path}: 'play' opponents must be a list of 1 or "
                              f"{players - 1} bot names, not {shown}")
        unknown = [x for x in opponents if x not in B.NAMES]
        if unknown:
            raise RecordError(f"{path}: 'play' opponents: unknown bot {unknown[0][:40]!r}: "
                              f"choose from {', '.join(B.NAMES)}")
        out["opponents"] = list(opponents)
    return out


def _screen_size(out: Console) -> tuple[int, int]:
    """The terminal's size, or 100×40 when stdout is not a terminal."""
    if out.is_terminal:
        width, height = out.size
        return max(width, 60), max(height, 20)
    return PIPE_WIDTH, PIPE_HEIGHT


def final_lines(state: State, width: int) -> list[Text]:
    """The score table and the winner line, as screen lines."""
    lines = S.renderable_lines(render.score_table(state), width)
    if state.is_over:
        lines.append(render.winners_line(state))
    return lines


def _new_game_event(state: State) -> Event:
    config = state.config
    text = f"New game: {config.players} players, board {config.board}, seed {config.seed}"
    if state.exploits:
        text += f"; Exploits: {', '.join(e.name for _, e in state.exploits)}"
    for e in state.modules:
        if not e.is_exploit:
            text += f"; with {e.name}"
    return Event("info", None, text)


def _history_log(state: State, human: int | None = None
                 ) -> tuple[list[Event], list[int], list[int]]:
    """The events of ``state``'s whole history, replayed from setup, the log length
    before each action and the action counts at which ``human`` decided. A position
    its history does not lead to (one built by hand, e.g. in a test) gets a one-line
    log instead."""
    s = new_game(state.config)
    log = [_new_game_event(s)]
    marks: list[int] = []
    points: list[int] = []
    try:
        for k, action in enumerate(state.history()):
            marks.append(len(log))
            if s.current_player == human:
                points.append(k)
            log += s.apply(action)
    except EndeavorError:
        log = [Event("info", None, f"A position set up by hand after {state.num_actions} "
                                   "actions")]
        return log, [1] * state.num_actions, []
    return log, marks, points


# --------------------------------------------------------------------------- simulate
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


# --------------------------------------------------------------------------- play
_PLAY_HELP = """\
Choose an action by its menu number, or type its notation, e.g.:
  start merchant-dock   build docks   pay market   act docks   use ship-draw   pass
  ship FE (track)   ship EUT1 (trade route)   sea FE (open sea)   occupy EU3   attack CA1
  draw EU   draw AF/1 (from the discard pile)   done   casualty culture   slot FE/G
  discard SA/1
Exploit actions are typed as shown in the menu, e.g. fortify NA1, spanish-main payments.
A long menu offers the ability first: an entry ending in '…' opens its targets; 'back'
returns. Typing a whole notation works at any level.
Commands: help · board (redraw) · log (the whole game's log) · undo (back to your
previous decision, with the bots' moves after it) · save FILE · back · quit ·
hint (what the strongest bot would play here: its top actions with their menu numbers
and its evaluation in words; the game is not changed).
Help and the log open in a pager on a terminal: q returns to the game."""

#: answers that confirm an overwrite
_YES = ("y", "yes")


class _Quit(Exception):
    """The human leaves the game (quit, or the end of input)."""


class _Thinking:
    """A context manager: on a terminal, a note (e.g. "P1 (hard) is thinking…") shown
    when the work inside takes longer than ``after`` seconds (default
    :data:`THINKING_AFTER`) and erased when it is done; a quick bot never shows it (no
    flicker). Elsewhere (a pipe) it does nothing."""

    def __init__(self, out: Console, text: str, after: float | None = None) -> None:
        self.out = out
        self.text = text
        self.after = THINKING_AFTER if after is None else after
        self.lock = threading.Lock()
        self.done = False
        self.shown = False
        self.timer: threading.Timer | None = None

    def __enter__(self) -> _Thinking:
        if self.out.is_terminal:
            self.timer = threading.Timer(self.after, self._show)
            self.timer.daemon = True
            self.timer.start()
        return self

    def _write(self, text: str) -> None:
        file = self.out.file
        file.write(text)
        file.flush()

    def _show(self) -> None:
        with self.lock:
            if self.done:
                return
            dim, plain = ("\x1b[2m", "\x1b[0m") if self.out.color_system else ("", "")
            self._write(f"\r\x1b[2K{dim}{self.text}{plain}")
            self.shown = True

    def __exit__(self, *exc: object) -> None:
        if self.timer is not None:
            self.timer.cancel()
        with self.lock:
            self.done = True
            if self.shown:
                self._write("\r\x1b[2K")


def hint_bot_name() -> str:
    """The bot that gives hints: the first of :data:`HINT_BOTS` that exists."""
    return next((name for name in HINT_BOTS if name in B.NAMES), "random")


def _menu_spot(menu: S.Menu, action: Action) -> str:
    """Where ``action`` is in ``menu``: `` [menu 3]``, `` [menu 3 …]`` (in that entry's
    sub-menu), or nothing (not in this sub-menu: its notation still works)."""
    for e in menu.entries:
        if e.action == action:
            return f" [menu {e.number}]"
        if e.action is None and action.text.startswith(e.notation.removesuffix("…")):
            return f" [menu {e.number} …]"
    return ""


#: how to leave the pager, said above the paged text and in less's prompt
PAGER_LEAVE = "q returns to the game"


def pager_command(environ: Mapping[str, str] | None = None) -> list[str] | None:
    """The pager ``page`` runs: ``$PAGER`` if set (an empty value: none), else ``less``,
    else ``more``; None if there is none."""
    env = os.environ if environ is None else environ
    if "PAGER" in env:
        return shlex.split(env["PAGER"]) or None
    for name in ("less", "more"):
        path = shutil.which(name)
        if path:
            return [path]
    return None


def _less_prompt(text: str) -> str:
    """``text`` as a literal less prompt (its special characters escaped)."""
    return "".join("\\" + c if c in "?:.%\\" else c for c in text)


def pager_environment(title: str, environ: Mapping[str, str] | None = None
                      ) -> dict[str, str]:
    """The environment of the pager: ``less`` shows colours (``-R`` ahead of the user's
    own ``$LESS`` options, which still apply), reads UTF-8 and says at the bottom how
    to leave."""
    env = dict(os.environ if environ is None else environ)
    prompt = _less_prompt(f"{title} - {PAGER_LEAVE} (space, b: next, previous page)")
    env["LESS"] = f"-R -Ps{prompt}$ {env.get('LESS', '')}".strip()
    env.setdefault("LESSCHARSET", "utf-8")
    return env


def page(out: Console, lines: Sequence[Text], title: str,
         command: Sequence[str] | None = None) -> None:
    """Show ``lines`` (styled) through a pager, ``command`` or :func:`pager_command`,
    with ``title`` and how to leave on the first line; without a pager (none found, or
    it fails to start) print them on ``out``. The pager gets the lines with their
    colours as terminal escape codes, and ``less`` is told to show them as colours
    (:func:`pager_environment`)."""
    head = Text.assemble((title, "bold"), " · ", (PAGER_LEAVE, "bold reverse"))
    cmd = list(command) if command is not None else pager_command()
    if cmd:
        buffer = io.StringIO()
        console = Console(file=buffer, width=out.width, force_terminal=True,
                          color_system=("truecolor" if out.color_system == "truecolor"
                                        else "256" if out.color_system == "256"
                                        else "standard"),
                          no_color=out.no_color, legacy_windows=False)
        console.print(head)
        for line in lines:
            console.print(line)
        try:
            subprocess.run(cmd, input=buffer.getvalue(), text=True, encoding="utf-8",
                           env=pager_environment(title), check=False)
            return
        except OSError:
            pass  # no pager after all: print the lines
        except KeyboardInterrupt:  # the pager had the terminal: back to the game
            return
    out.print(head)
    for line in lines:
        out.print(line)


class PlaySession:
    """One game in the terminal: ``human`` (a seat, or None for all bots) answers
    prompts read with :func:`input`; every other decision is a bot's, applied with
    :meth:`State.apply` so that its events make the log.

    ``bots`` is one bot for every other seat, or a bot per seat (a mapping that covers
    every seat but the human's); ``names`` (seat -> the bot's name) are shown on the
    screen. ``hint_budget`` (e.g. ``{"seconds": 1.0}`` or ``{"iterations": 500}``) is
    passed to the bot that answers ``hint`` (see :data:`HINT_BOTS`); ``hint_bot``, if
    given, answers instead."""

    def __init__(self, state: State, out: Console, human: int | None,
                 bots: B.Bot | Mapping[int, B.Bot], settings: dict[str, Any],
                 names: Mapping[int, str] | None = None,
                 hint_budget: Mapping[str, float | int] | None = None,
                 hint_bot: B.Bot | None = None) -> None:
        self.state = state
        self.out = out
        self.human = human
        if isinstance(bots, Mapping):
            self.bots = dict(bots)
        else:
            self.bots = {p: bots for p in range(state.n) if p != human}
        missing = [p for p in range(state.n) if p != human and p not in self.bots]
        if missing:
            raise ValueError(f"no bot for seat(s) {missing}")
        self.names = dict(names or {})
        self.hint_budget = dict(hint_budget if hint_budget is not None
                                else {"seconds": HINT_SECONDS})
        self.hint_bot = hint_bot
        self.settings = settings  # the "play" object of a save: seat, bot seed, weight
        self.terminal = out.is_terminal
        # the log (events of the whole game), the log length before each action, the
        # action counts at which the human decided (for undo), and the bots' generator
        # states at each decision taken in this session (so undo replays the same bots)
        self.log, self.marks, self.points = _history_log(state, human)
        self.rng: dict[int, list[tuple[Any, ...]]] = {}
        self.messages: list[Text] = []
        self.played = False  # whether an action was taken in this session

    # ------------------------------------------------------------------ loop
    def run(self) -> int:
        """Play until the game ends, the human quits or input ends; return 0."""
        state = self.state
        try:
            while not state.is_over:
                if state.current_player == self.human:
                    self._human_turn()
                else:
                    self._apply(self._bot_choice())
        except _Quit:
            return EXIT_OK
        self._draw_final()
        if self.human is not None and self.played:
            self._offer_save("The game is over. Save it?")
        return EXIT_OK

    def _label(self, p: int) -> str:
        """A seat for the human to read: ``P1 (hard)``, ``P0 (you)``."""
        who = "you" if p == self.human else self.names.get(p)
        return f"P{p} ({who})" if who else f"P{p}"

    def _bot_choice(self) -> Action:
        """The choice of the bot of the player to move (a note on a terminal when it
        thinks for long)."""
        p = self.state.current_player
        assert p is not None
        with _Thinking(self.out, f"{self._label(p)} is thinking…"):
            return self.bots[p].choose(self.state)

    def _generators(self) -> list[random.Random]:
        """The bots' own random generators (each bot once), for undo."""
        seen: dict[int, random.Random] = {}
        for bot in self.bots.values():
            rng = getattr(bot, "rng", None)
            if isinstance(rng, random.Random):
                seen.setdefault(id(rng), rng)
        return list(seen.values())

    def _apply(self, action: Action | str) -> list[Event]:
        """Apply a legal action and log its events (printed as they come in --auto)."""
        mark = len(self.log)
        events = self.state.apply(action)
        self.played = True
        self.marks.append(mark)
        self.log += events
        if self.human is None:
            for e in events:
                self.out.print(Text(e.text), soft_wrap=True)
        return events

    def _new_from(self) -> int | None:
        """Where the log's new part starts: the human's last action (None: all new)."""
        if self.human is None:
            return None
        return self.marks[self.points[-1]] if self.points else 0

    # ------------------------------------------------------------------ drawing
    def _draw(self, decision: Decision | None, menu: S.Menu | None,
              extra: Sequence[Text] = ()) -> None:
        width, height = _screen_size(self.out)
        view = S.View(human=self.human, log=self.log, new_from=self._new_from(),
                      decision=decision, menu=menu, extra=extra, messages=self.messages,
                      names=self.names)
        self.messages = []
        if self.terminal:
            self.out.clear()
        self.out.print(S.screen(self.state, view, width, height))

    def _draw_final(self) -> None:
        width, height = _screen_size(self.out)
        if self.human is None:  # the demo printed the log already
            view = S.View(title="Final position", names=self.names)
            self.out.print(S.screen(self.state, view, width, height, reserve=0))
            for line in final_lines(self.state, width):
                self.out.print(line)
            return
        self._draw(None, None, final_lines(self.state, width))

    def _say(self, message: str, style: str = "") -> None:
        """A message for the human: on a terminal shown above the prompt at the next
        redraw, otherwise printed now."""
        text = Text(message, style=style)
        if self.terminal:
            self.messages.append(text)
        else:
            self.out.print(text, soft_wrap=True)

    def _page(self, lines: Sequence[Text], title: str) -> None:
        """Long output (help, the whole log): through the pager on a terminal."""
        if self.terminal:
            page(self.out, lines, title)
        else:
            for line in lines:
                self.out.print(line)

    def _ask(self, prompt: str) -> str:
        try:
            return input(prompt).strip()
        except EOFError:
            self.out.print("\nEnd of input: the game is left unfinished.")
            raise _Quit from None

    # ------------------------------------------------------------------ a decision
    def _human_turn(self) -> None:
        """Prompt until the human applies an action, undoes, or leaves (:class:`_Quit`)."""
        state = self.state
        decision = state.decision()
        assert decision is not None
        _, height = _screen_size(self.out)
        limit = max(S.COLLAPSE_AT, height // 2)
        prefixes: list[str] = []
        redraw = True
        while True:
            menu = S.build_menu(decision, prefixes[-1] if prefixes else "", limit)
            if redraw or (self.terminal and self.messages):
                self._draw(decision, menu)
                redraw = False
            back = ", back" if prefixes else ""
            line = self._ask(f"P{self.human} [1-{len(menu)}{back}, notation, hint, help]> ")
            if not line:
                continue
            command, _, rest = line.partition(" ")
            command = command.lower()
            rest = rest.strip()
            if command == "help" and not rest:
                lines = [Text(_PLAY_HELP), Text(render.LEGEND, style="dim")]
                self._page(lines, "Help")
                redraw = self.terminal
            elif command == "board" and not rest:
                redraw = True
            elif command == "hint" and not rest:
                self._hint(menu)
            elif command == "log" and not rest:
                width, _ = _screen_size(self.out)
                self._page([x.text for x in S.log_lines(self.log, width, self._new_from())],
                           "The whole game's log")
                redraw = self.terminal
            elif command == "undo" and not rest:
                if self._undo():
                    return
            elif command == "save":
                self._save(rest)
            elif command == "quit" and not rest:
                self._offer_save("Save the game before leaving?")
                self.out.print("Game left unfinished.")
                raise _Quit
            elif command == "back" and not rest:
                if prefixes:
                    prefixes.pop()
                    redraw = True
                else:
                    self._say("This is the whole menu already.", "red")
            elif line.isdigit():
                entry = menu.entry(int(line))
                if entry is None:
                    self._say(f"No menu entry {line}: choose 1 to {len(menu)}.", "red")
                elif entry.action is None:
                    prefixes.append(entry.notation.rstrip(" …"))
                    redraw = True
                else:
                    self._human_apply(entry.action)
                    return
            else:
                try:
                    self._human_apply(state.parse_action(line))
                except (NotationError, IllegalActionError) as e:
                    self._say(str(e), "red")  # the state is unchanged
                else:
                    return

    def _hint(self, menu: S.Menu) -> None:
        """Show what the hint bot would play at the human's decision: its top actions
        with their menu numbers (in ``menu``, the menu on screen) and its evaluation in
        words. The bot analyses a copy: the game and its undo history are unchanged."""
        state = self.state
        bot = self.hint_bot
        budget = ""
        name = bot.name if bot is not None else hint_bot_name()
        if bot is None:
            seed = int(self.settings.get("bot_seed", 0)) + state.num_actions
            try:
                bot = B.make(name, seed=seed, **self.hint_budget)
                budget = " (" + ", ".join(f"{v:g}s" if k == "seconds" else f"{v} {k}"
                                          for k, v in self.hint_budget.items()) + ")"
            except (TypeError, ValueError):  # a bot that does not search
                bot = B.make(name, seed=seed)
        try:
            with _Thinking(self.out, f"Asking the {name} bot for a hint…", 0.0):
                rated = bot.analyse(state.copy(), HINT_TOP)
        except Exception as e:  # a bot's failure must not end the human's game
            self._say(f"No hint: the {name} bot failed ({type(e).__name__}: {e}).", "red")
            return
        if not rated:
            self._say(f"No hint: the {name} bot has no suggestion here.", "red")
            return
        self._say(f"Hint from the {name} bot{budget}, its best actions for you first "
                  "(type the menu number or the notation):", "bold")
        for k, r in enumerate(rated, 1):
            where = _menu_spot(menu, r.action)
            self._say(f"  {k}. {r.action.text}{where} - {r.text}")

    def _human_apply(self, action: Action) -> None:
        """Apply the human's action (raises, changing nothing, if it is illegal) and
        remember the decision for undo."""
        k = self.state.num_actions
        rng = [g.getstate() for g in self._generators()]
        self._apply(action)
        self.points.append(k)
        self.rng[k] = rng

    def _undo(self) -> bool:
        """Back to the human's previous decision (the bots' moves after it undone too);
        True if something was undone."""
        state = self.state
        if not self.points:
            self._say("Nothing to undo: this is your first decision of the game.", "red")
            return False
        target = self.points[-1]
        history = state.history()
        undone = []
        for k in range(target, state.num_actions):
            event = self.log[self.marks[k]]
            who = "you" if event.player == self.human else f"P{event.player}"
            undone.append(f"{history[k].text} ({who})")
        try:
            for _ in range(state.num_actions - target):
                state.undo()
        except UndoError as e:  # the engine cannot go back that far
            self._say(f"Cannot undo: {e}", "red")
        n = state.num_actions
        self.points = [p for p in self.points if p < n]
        if n < len(self.marks):
            del self.log[self.marks[n]:]
            del self.marks[n:]
        if n != target:
            return n < len(history)
        saved = self.rng.pop(target, None)
        if saved is not None:
            for generator, rng in zip(self._generators(), saved, strict=True):
                generator.setstate(rng)
        bots = len(undone) - 1
        detail = "; ".join(undone[:8]) + (f"; … {len(undone) - 8} more" if bots > 7 else "")
        self._say(f"Undone: your move and {bots} later move(s) of the bots: {detail}. "
                  "You decide again.", "bold")
        return True

    # ------------------------------------------------------------------ saving
    def _save(self, path: str) -> bool:
        """Write the record and the "play" settings to ``path`` (asking before
        overwriting a file); True if saved."""
        if not path:
            self._say("usage: save FILE", "red")
            return False
        target = Path(path).expanduser()
        try:
            exists = target.exists()
        except (OSError, ValueError) as e:
            self._say(f"could not save: {e}", "red")
            return False
        if exists:
            try:
                answer = input(f"{path} exists: overwrite it? [y/N] ").strip().lower()
            except EOFError:
                answer = ""
            if answer not in _YES:
                self._say(f"Not saved: {path} is left as it was.", "red")
                return False
        record = self.state.record()
        record["play"] = dict(self.settings)
        try:
            target.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        except (OSError, ValueError) as e:
            self._say(f"could not save: {e}", "red")
            return False
        self._say(f"Saved the game ({self.state.num_actions} actions) to {path}; "
                  f"resume it with: endeavor play --load {path}")
        return True

    def _offer_save(self, question: str) -> None:
        """Ask for a file name until the game is saved or the answer is empty."""
        while True:
            try:
                name = input(f"{question} File name (empty: don't save): ").strip()
            except EOFError:
                return
            if not name or self._save(name):
                for message in self.messages:  # nothing will redraw them
                    self.out.print(message, soft_wrap=True)
                self.messages = []
                return
            for message in self.messages:
                self.out.print(message, soft_wrap=True)
            self.messages = []


def _play(args: argparse.Namespace, out: Console) -> int:
    settings: dict[str, Any] = {}
    if args.load is not None:
        given = [f"--{name.replace('_', '-')}" for name in
                 ("players", "seed", "board", "phase_order", "exploits")
                 if getattr(args, name) is not None]
        given += [flag for flag, name, _ in _RULE_FLAGS if getattr(args, name)]
        if args.ruleset != "age_of_sail":
            given.append("--ruleset")
        if given:
            raise UsageError(f"{', '.join(given)} cannot be used with --load: the saved "
                             "game fixes its settings")
        state, record = _read_record(args.load)
        settings = _play_settings(record, args.load)
        config = state.config
    else:
        if args.players is None:
            args.players = 4
        if args.exploits is None:
            args.exploits = "none"
        seed = secrets.randbelow(1_000_000) if args.seed is None else args.seed
        config = _config(args, seed)
        state = new_game(config)
    seat = args.seat if args.seat is not None else settings.get("seat", 0)
    if not 0 <= seat < config.players:
        raise UsageError(f"--seat must be 0 to {config.players - 1}, not {seat}")
    bot_seed = (args.bot_seed if args.bot_seed is not None
                else settings.get("bot_seed", config.seed))
    weight = (args.pass_weight if args.pass_weight is not None
              else settings.get("pass_weight", DEFAULT_PASS_WEIGHT))
    opponents = (args.opponents if args.opponents is not None
                 else settings.get("opponents", [DEFAULT_OPPONENT]))
    names = _seat_bots(opponents, config.players, seat, args.auto)
    bots: dict[int, B.Bot] = {}
    for p, name in names.items():
        options = {"pass_weight": weight} if name == "random" else {}
        bots[p] = B.make(name, seed=bot_seed + p, **options)
    human = None if args.auto else seat
    if human is not None and sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (arrow keys and history for input())
        except ImportError:  # pragma: no cover - platforms without readline
            pass
    play = {"seat": seat, "bot_seed": bot_seed, "pass_weight": weight,
            "opponents": list(opponents)}
    return PlaySession(state, out, human, bots, play, names, args.hint_budget).run()


def _seat_bots(opponents: Sequence[str], players: int, seat: int,
               auto: bool) -> dict[int, str]:
    """Seat -> bot name: one name for every other seat, or players-1 names for the
    seats after ``seat`` in order; with ``auto`` (bots play ``seat`` too) one name is
    every seat, players names are seats 0.. in order, and with players-1 names
    ``seat`` gets :data:`DEFAULT_OPPONENT`."""
    n = len(opponents)
    if n == 1:
        return {p: opponents[0] for p in range(players) if auto or p != seat}
    if n == players - 1:
        out = {(seat + 1 + k) % players: name for k, name in enumerate(opponents)}
        if auto:
            out[seat] = DEFAULT_OPPONENT
        return dict(sorted(out.items()))
    if auto and n == players:
        return dict(enumerate(opponents))
    if players == 2 and not auto:
        need = "1 bot name"
    else:
        need = f"{players - 1} bot names (one for each other seat, after yours) or one name for all"
        if auto:
            need = (f"{players} bot names (every seat from seat 0), {players - 1} (the "
                    "seats after yours) or one name for all")
    raise UsageError(f"--opponents: {players} players need {need}, not {n}: "
                     f"{','.join(opponents)}")


# --------------------------------------------------------------------------- replay
def _replay(args: argparse.Namespace, out: Console) -> int:
    final, _ = _read_record(args.file)
    if args.step:
        _step_through(final, out)
    width, height = _screen_size(out)
    title = "Final position" if final.is_over else f"Position after {final.num_actions} actions"
    log, _, _ = _history_log(final)
    extra: list[Text]
    if final.is_over:
        extra = final_lines(final, width)
    else:
        extra = [Text(f"Position after {final.num_actions} actions: "
                      "the game is not finished.", style="bold")]
    view = S.View(title=title, log=log, extra=extra, log_title="Log · the last moves")
    out.print(S.screen(final, view, width, height, reserve=0))
    return EXIT_OK


def _step_through(final: State, out: Console) -> None:
    """Replay ``final``'s history from the start and show the position after each
    action, with the events of that action (older ones dimmed); on a terminal, wait for
    Enter between actions ('q' stops)."""
    interactive = sys.stdin.isatty() and out.is_terminal
    state = new_game(final.config)
    history = final.history()
    log = [_new_game_event(state)]
    for i, action in enumerate(history, 1):
        mark = len(log)
        log += state.apply(action)
        width, height = _screen_size(out)
        view = S.View(title=f"Step {i}/{len(history)}", log=log, new_from=mark,
                      log_title="Log · » this step")
        if interactive:
            out.clear()
        out.print(S.screen(state, view, width, height, reserve=1))
        if interactive and i < len(history):
            try:
                if input("Enter: next action · q then Enter: stop ").strip().lower() == "q":
                    return
            except EOFError:
                interactive = False


# --------------------------------------------------------------------------- bench
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


# --------------------------------------------------------------------------- tournament
MAX_WORKERS = 1_024
_workers = _ranged(int, lambda v: 1 <= v <= MAX_WORKERS, f"1 to {MAX_WORKERS:,}")


def _budget(text: str) -> str:
    """An argparse ``type``: a budget ``endeavor.tournament.parse_budget`` reads."""
    from ..tournament import TournamentError, parse_budget
    try:
        parse_budget(text)
    except TournamentError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def _add_tournament_parser(sub: Any) -> None:
    """The ``tournament`` subcommand's options."""
    from ..tournament import BACKENDS
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
    t.add_argument("--workers", type=_workers, metavar="N",
                   help="parallel worker processes (with --backend ray: the CPUs of the "
                        "local Ray instance); 1 plays in this process (default: the number "
                        "of cores)")
    t.add_argument("--backend", choices=BACKENDS, default="local",
                   help="local (default): worker processes on this machine; ray: Ray tasks "
                        "on a local Ray instance or on the cluster at --address (needs "
                        "pip install 'endeavor[ray]', and endeavor installed on each node)")
    t.add_argument("--address", metavar="HOST:PORT",
                   help="the Ray cluster to use with --backend ray (default: start a local "
                        "one)")
    t.add_argument("--out", metavar="FILE",
                   help="write the settings, the table, the pairwise results and every game "
                        "(index, seed, seating, scores, ranks, decisions, record) as JSON; "
                        "a game's 'record' is what 'endeavor replay' reads")
    t.add_argument("--plot", metavar="FILE.png",
                   help="draw the win shares with their intervals and the score "
                        "distributions per bot (needs pip install 'endeavor[plot]'; the "
                        "suffix picks the format: png, svg, pdf...)")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(run=_tournament)


def _check_output(path: str, flag: str) -> None:
    """Fail before playing if ``path`` cannot be written."""
    import os
    target = Path(path).expanduser()
    try:
        if target.is_dir():
            raise UsageError(f"{flag} {path}: is a directory")
        parent = target.parent
        if not parent.is_dir():
            raise UsageError(f"{flag} {path}: there is no directory {str(parent)!r}")
        if not os.access(parent, os.W_OK) or (target.exists()
                                              and not os.access(target, os.W_OK)):
            raise UsageError(f"{flag} {path}: permission denied")
    except (OSError, ValueError) as e:
        raise UsageError(f"{flag} {path!r}: {e}") from None


def _tournament(args: argparse.Namespace, out: Console) -> int:
    from rich.progress import TimeElapsedColumn, TimeRemainingColumn

    from .. import tournament as T
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address needs --backend ray")
    if args.out is not None:
        _check_output(args.out, "--out")
    if args.plot is not None:
        formats = T.plot_formats()
        suffix = Path(args.plot).suffix.lower().lstrip(".")
        if suffix not in formats:
            raise UsageError(f"--plot {args.plot}: the file name must end in one of "
                             f"{', '.join('.' + f for f in sorted(formats))} (e.g. .png)")
        _check_output(args.plot, "--plot")
        if args.out is not None and Path(args.out).resolve() == Path(args.plot).resolve():
            raise UsageError("--out and --plot name the same file")
    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) == 1 and args.players is None:
        raise UsageError("one bot plays every seat: say how many with --players N")
    err = Console(stderr=True)
    progress = Progress(TextColumn("tournament"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("games ·"), TimeElapsedColumn(), TextColumn("· ETA"),
                        TimeRemainingColumn(), console=err, transient=True,
                        disable=args.quiet or not err.is_terminal)
    task = progress.add_task("games", total=None)

    def on_start(total: int) -> None:
        if total != args.games:
            n = args.players if args.players is not None else len(bots)
            err.print(f"endeavor: playing {total} games rather than {args.games}: whole "
                      f"blocks of {n}, so that every bot sits in every seat equally often",
                      markup=False, highlight=False, soft_wrap=True)
        progress.update(task, total=total)
        progress.start()

    try:
        result = T.run_tournament(
            bots, args.games, args.seed, players=args.players, ruleset=args.ruleset,
            board=args.board, exploits=args.exploits, options=_options(args),
            budget=args.budget, workers=args.workers, backend=args.backend,
            address=args.address, on_start=on_start,
            on_game=lambda _: progress.advance(task))
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


# --------------------------------------------------------------------------- web app
MAX_PORT = 65_535
_port = _ranged(int, lambda v: 1 <= v <= MAX_PORT, f"1 to {MAX_PORT:,}")
_web_workers = _ranged(int, lambda v: 1 <= v <= 64, "1 to 64")
_load_games = _ranged(int, lambda v: 1 <= v <= 5_000, "1 to 5,000")
_think = _ranged(float, lambda v: 0.0 <= v <= 60.0, "0 to 60 seconds")
_clock_seconds = _ranged(float, lambda v: 1.0 <= v <= 86_400.0, "1 to 86,400 seconds")


def _add_web_parsers(sub: Any) -> None:
    """The ``serve`` and ``loadtest`` subcommands (the browser app, ``endeavor.web``)."""
    s = sub.add_parser(
        "serve", help="run the web app: play in the browser",
        description="Serve the browser app and its HTTP API (FastAPI under Uvicorn). The "
                    "database is the source of truth: a game is its config plus an "
                    "append-only list of actions. SQLite by default (a file, created "
                    "with its tables on first use); PostgreSQL with "
                    "--db postgresql+psycopg://USER:PASS@HOST/DB. Needs "
                    "pip install 'endeavor[web]'.",
        epilog="example: endeavor serve --port 8000 --db sqlite:///endeavor.db")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: "
                   "127.0.0.1, this machine only)")
    s.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    s.add_argument("--db", metavar="URL", default=None,
                   help="SQLAlchemy database URL (default: sqlite:///endeavor.db in the "
                        "current directory, or $ENDEAVOR_DB)")
    s.add_argument("--workers", type=_web_workers, default=1, metavar="N",
                   help="Uvicorn worker processes, 1 to 64 (default: 1; several need a "
                        "database they can share: PostgreSQL, or one SQLite file)")
    s.add_argument("--log-level", default="warning",
                   choices=("critical", "error", "warning", "info", "debug"),
                   help="Uvicorn's log level (default: warning)")
    s.add_argument("--public-url", metavar="URL", default=None,
                   help="the address players reach the app at (e.g. "
                        "https://games.example.org or https://example.org/endeavor behind "
                        "a reverse proxy): seat, host and spectator links, notifications "
                        "and e-mails use it (default: links are paths, and messages use "
                        "http://HOST:PORT)")
    s.add_argument("--forwarded-allow-ips", metavar="IPS", default=None,
                   help="the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto "
                        "headers are believed (the client's address and http/https): "
                        "addresses or networks, comma-separated, e.g. 127.0.0.1 or "
                        "127.0.0.1,10.0.0.0/8 (default: none; these headers are ignored)")
    s.add_argument("--smtp", metavar="URL", default=None,
                   help="send turn e-mails through this SMTP server: "
                        "smtp://USER:PASS@HOST:587 (STARTTLS), smtps://USER:PASS@HOST:465 "
                        "(TLS) or smtp://HOST:25 (plain, e.g. a local relay); needs "
                        "--mail-from")
    s.add_argument("--mail-from", metavar="ADDRESS", default=None,
                   help="the sender of turn e-mails, e.g. endeavor@example.org")
    s.add_argument("--allow-private-webhooks", action="store_true",
                   help="let players set webhooks on loopback and private network "
                        "addresses (a LAN, tests); refused by default")
    s.set_defaults(run=_serve)
    lt = sub.add_parser(
        "loadtest", help="drive many concurrent games through the HTTP API and measure",
        description="Start the web app in another process (or use --url), create G games "
                    "and play them concurrently through the HTTP API, with a WebSocket "
                    "per game; report the move round trip (p50/p95/p99), moves/s, errors "
                    "and lost moves (every acknowledged move checked against the "
                    "game's record at the end).",
        epilog="example: endeavor loadtest --games 200 --db postgresql+psycopg:///endeavor")
    lt.add_argument("--games", type=_load_games, default=200, metavar="G",
                    help="concurrent games, 1 to 5,000 (default: 200)")
    lt.add_argument("--moves", type=_load_games, default=20, metavar="M",
                    help="moves per game, 1 to 5,000 (default: 20)")
    lt.add_argument("--db", metavar="URL", default=None,
                    help="database of the server started for the test (default: a new "
                         "SQLite file in a temporary directory)")
    lt.add_argument("--url", metavar="URL", default=None,
                    help="test a server that is already running at URL instead")
    lt.add_argument("--workers", type=_web_workers, default=1, metavar="N",
                    help="Uvicorn workers of the server started for the test (default: 1)")
    lt.add_argument("--think", type=_think, default=1.0, metavar="T",
                    help="each player's mean pause before a move, in seconds (uniform from "
                         "0 to 2T), 0 to 60; 0 plays every game as fast as the server "
                         "answers, a closed loop measuring throughput (default: 1)")
    lt.add_argument("--clock", type=_clock_seconds, default=None, metavar="S",
                    help="give every game a turn-based clock of S seconds per decision "
                         "(1 to 86,400; default: no clock)")
    lt.add_argument("--notify", action="store_true",
                    help="every seat sets a webhook to a receiver the load test runs on "
                         "loopback: the server sends a turn notification at each change "
                         "of turn while the moves are measured (a server given with --url "
                         "must allow private webhooks)")
    lt.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed (default: 0)")
    lt.add_argument("--json", action="store_true", help="print one JSON object")
    lt.add_argument("--quiet", action="store_true", help="no progress bar")
    lt.set_defaults(run=_loadtest)


def _web_module(name: str) -> Any:
    """``endeavor.web.<name>``, or a clear error when the web extra is not installed."""
    import importlib
    try:
        return importlib.import_module(f"endeavor.web.{name}")
    except ModuleNotFoundError as e:
        if e.name and not e.name.startswith("endeavor"):
            raise UsageError(f"the web app needs the 'web' extra ({e.name} is missing): "
                             "pip install 'endeavor[web]'") from None
        raise


def _serve(args: argparse.Namespace, out: Console) -> int:
    result: int = _web_module("server").serve(args, out)
    return result


def _loadtest(args: argparse.Namespace, out: Console) -> int:
    result: int = _web_module("loadtest").run(args, out)
    return result
