"""``endeavor play``: one game in the terminal against bots (the session itself is
:mod:`endeavor.cli.session`), or ``--auto``, bots in every seat."""

from __future__ import annotations

import argparse
import math
import secrets
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from .. import bots as B
from ..errors import RecordError
from ..state import new_game
from .common import (
    _RULE_FLAGS,
    MAX_SECONDS,
    MAX_SEED,
    UsageError,
    _add_exploits_option,
    _add_game_options,
    _add_lang_option,
    _config,
    _fraction,
    _read_record,
    _seat,
    _seed,
)
from .session import HINT_BOTS, HINT_SECONDS, PlaySession, hint_bot_name

DEFAULT_PASS_WEIGHT = 0.1  # the opponents in play keep playing rather than pass early
#: the bot of every other seat in ``play`` when --opponents is not given
DEFAULT_OPPONENT = "medium" if "medium" in B.NAMES else "random"


def _opponent_names(text: str) -> list[str]:
    """An argparse ``type`` for ``play --opponents``: comma-separated bot names, each
    one of :data:`endeavor.bots.NAMES` (case and spaces ignored)."""
    names = [name.strip().lower() for name in text.split(",")]
    for name in names:
        if name not in B.NAMES:
            what = f"unknown bot {name!r}" if name else f"a bot name is missing in {text!r}"
            raise argparse.ArgumentTypeError(f"{what}: choose from {', '.join(B.NAMES)}")
    return names


def _hint_bot(text: str) -> str:
    """An argparse ``type`` for ``play --hint-bot``: one of :data:`endeavor.bots.NAMES`."""
    name = text.strip().lower()
    if name not in B.NAMES:
        raise argparse.ArgumentTypeError(f"unknown bot {name!r}: choose from "
                                         f"{', '.join(B.NAMES)}")
    return name


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


def add_parser(sub: Any) -> None:
    """The ``play`` subcommand's options."""
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
    play.add_argument("--hint-bot", type=_hint_bot, metavar="BOT",
                      help=f"the bot that answers hint, one of {', '.join(B.NAMES)} "
                           f"(default: the first of {', '.join(HINT_BOTS)} that exists: "
                           f"{hint_bot_name()})")
    play.add_argument("--load", metavar="FILE",
                      help="resume a game saved with 'save FILE': its seat, opponents, "
                           "bot seed and "
                           "pass weight are restored unless given here (a plain engine "
                           "record, state.record(), loads too); the game's own settings "
                           "come from the file")
    play.add_argument("--auto", action="store_true",
                      help="bots play every seat, including yours (a demo that prints the "
                           "log, one event per line)")
    _add_lang_option(play)
    play.set_defaults(run=_play)


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
    return PlaySession(state, out, human, bots, play, names, args.hint_budget,
                       hint_name=args.hint_bot, lang=args.lang).run()


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
