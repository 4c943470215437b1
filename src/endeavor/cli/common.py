"""What the commands of :mod:`endeavor.cli` share: exit statuses, :class:`UsageError`
and the parser that raises it, argparse types (:func:`ranged` and the ranges built on it),
the options of the game settings (:func:`_add_game_options`, :func:`_config`,
:func:`_options`), the options of where games run (:func:`_add_backend_options`,
:func:`_check_backend_options`), reading a record, the screen size and the whole game's
log, and the lazy import of the web app."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from rich.console import Console
from rich.text import Text

from ..analysis.parallel import BACKENDS
from ..config import OPTIONS, GameConfig
from ..errors import EndeavorError, RecordError
from ..errors import UsageError as UsageError  # (re-exported: the commands import it here)
from ..events import Event
from ..exploits import EXPLOIT_IDS
from ..messages import DEFAULT_LOCALE, LOCALES
from ..records import replay
from ..state import State, new_game
from ..terminal import render
from ..terminal import screen as S

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
PIPE_WIDTH, PIPE_HEIGHT = S.WIDTH, S.HEIGHT  # the screen when stdout is not a terminal
MAX_SEED = 2**63 - 1
MAX_GAMES = 1_000_000
MAX_RUNS = 1_000
MAX_SECONDS = 3_600.0
MAX_WORKERS = 1_024
_N = TypeVar("_N", int, float)


class HelpExit(Exception):
    """argparse finished early (``--help``) with this status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so :func:`main` returns: a
    :class:`UsageError` for bad input, :class:`HelpExit` after ``--help``. The commands
    and the load test (``tools/loadtest``) build theirs from it."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise HelpExit(status)


# --------------------------------------------------------------------------- arguments
def ranged(convert: Callable[[str], _N], valid: Callable[[_N], bool],
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


_games = ranged(int, lambda v: 1 <= v <= MAX_GAMES, f"1 to {MAX_GAMES:,}")
_runs = ranged(int, lambda v: 1 <= v <= MAX_RUNS, f"1 to {MAX_RUNS:,}")
_seconds = ranged(float, lambda v: 0 < v <= MAX_SECONDS,
                   f"a positive number of seconds, at most {MAX_SECONDS:g}")
_fraction = ranged(float, lambda v: 0.0 <= v <= 1.0, "between 0 and 1")
_seed = ranged(int, lambda v: 0 <= v <= MAX_SEED, f"0 to {MAX_SEED}")
_players = ranged(int, lambda v: True, "an integer")
_seat = ranged(int, lambda v: 0 <= v <= 4, "a seat number, 0 to 4")
_workers = ranged(int, lambda v: 1 <= v <= MAX_WORKERS, f"1 to {MAX_WORKERS:,}")


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


def _add_lang_option(p: argparse.ArgumentParser) -> None:
    """``--lang``: the language of the screen and of the engine's words."""
    p.add_argument("--lang", choices=LOCALES, default=DEFAULT_LOCALE,
                   help="the language of the screen and of the game's words: "
                        "en (English, default) or fr (French, the terms of the French "
                        "rulebook); what you type (the notation, the commands) is the "
                        "same in every language")


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


# --------------------------------------------------------------------------- backends
def _add_backend_options(p: argparse.ArgumentParser, what: str, verb: str,
                         workers: int | None = None) -> None:
    """``--workers``, ``--backend`` and ``--address``: where ``what`` (``"the games"``)
    is run; with one worker the command ``verb`` (``"plays"``) in this process.
    ``workers``: the default (None: every core, which the library picks)."""
    default = "the number of cores" if workers is None else str(workers)
    p.add_argument("--workers", type=_workers, default=workers, metavar="N",
                   help=f"parallel worker processes for {what} (with --backend ray: the "
                        f"CPUs of the local Ray instance); 1 {verb} in this process "
                        f"(default: {default})")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="local (default): worker processes on this machine; ray: Ray tasks "
                        "on a local Ray instance or on the cluster at --address (needs "
                        "pip install 'endeavor[ray]', and endeavor installed on each node)")
    p.add_argument("--address", metavar="HOST:PORT",
                   help="the Ray cluster to use with --backend ray (default: start a local "
                        "one)")


def _check_backend_options(args: argparse.Namespace) -> None:
    """The checks argparse cannot make on :func:`_add_backend_options`' options."""
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address needs --backend ray")


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


def _check_output(path: str, flag: str) -> None:
    """Fail before any work is done if ``path`` cannot be written (``flag`` names the
    option in the message)."""
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


def _check_plot(path: str, formats: dict[str, str], out: str | None = None) -> None:
    """Fail before any work is done if ``--plot path`` cannot be written: a suffix of
    ``formats`` (what matplotlib writes), a writable place, not the ``--out`` file."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in formats:
        raise UsageError(f"--plot {path}: the file name must end in one of "
                         f"{', '.join('.' + f for f in sorted(formats))} (e.g. .png)")
    _check_output(path, "--plot")
    if out is not None and Path(out).resolve() == Path(path).resolve():
        raise UsageError("--out and --plot name the same file")


def _screen_size(out: Console) -> tuple[int, int]:
    """The terminal's size, or 100×40 when stdout is not a terminal."""
    if out.is_terminal:
        width, height = out.size
        return max(width, 60), max(height, 20)
    return PIPE_WIDTH, PIPE_HEIGHT


def final_lines(state: State, width: int, lang: str = "en") -> list[Text]:
    """The score table and the winner line, as screen lines."""
    lines = S.renderable_lines(render.score_table(state, lang), width)
    if state.is_over:
        lines.append(render.winners_line(state, lang))
    return lines


def _history_log(state: State, human: int | None = None
                 ) -> tuple[list[Event], list[int], list[int]]:
    """The events of ``state``'s whole history, replayed from setup, the log length
    before each action and the action counts at which ``human`` decided. A position
    its history does not lead to (one built by hand, e.g. in a test) gets a one-line
    log instead."""
    s = new_game(state.config)
    log = [render.new_game_event(s)]
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


# --------------------------------------------------------------------------- web app
_web_workers = ranged(int, lambda v: 1 <= v <= 64, "1 to 64")


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
