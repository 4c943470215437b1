"""``endeavor replay``: check a game record and show where it ends (``--step``: every
position on the way)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ..state import State, new_game
from ..terminal import render
from ..terminal import screen as S
from ..terminal import words as W
from .common import (
    EXIT_OK,
    _add_lang_option,
    _history_log,
    _read_record,
    _screen_size,
    final_lines,
)


def add_parser(sub: Any) -> None:
    """The ``replay`` subcommand's options."""
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
    _add_lang_option(rep)
    rep.set_defaults(run=_replay)


def _replay(args: argparse.Namespace, out: Console) -> int:
    final, _ = _read_record(args.file)
    lang = args.lang
    if args.step:
        _step_through(final, out, lang)
    width, height = _screen_size(out)
    n = str(final.num_actions)
    title = W.say(lang, W.FINAL_POSITION if final.is_over else W.POSITION_AFTER, n=n)
    log, _, _ = _history_log(final)
    extra: list[Text]
    if final.is_over:
        extra = final_lines(final, width, lang)
    else:
        extra = [Text(W.say(lang, W.UNFINISHED, n=n), style="bold")]
    view = S.View(title=title, log=log, extra=extra, log_title="Log · the last moves",
                  lang=lang)
    out.print(S.screen(final, view, width, height, reserve=0))
    return EXIT_OK


def _step_through(final: State, out: Console, lang: str = "en") -> None:
    """Replay ``final``'s history from the start and show the position after each
    action, with the events of that action (older ones dimmed); on a terminal, wait for
    Enter between actions ('q' stops)."""
    interactive = sys.stdin.isatty() and out.is_terminal
    state = new_game(final.config)
    history = final.history()
    log = [render.new_game_event(state)]
    for i, action in enumerate(history, 1):
        mark = len(log)
        log += state.apply(action)
        width, height = _screen_size(out)
        view = S.View(title=W.say(lang, W.STEP, i=str(i), n=str(len(history))), log=log,
                      new_from=mark, log_title="Log · » this step", lang=lang)
        if interactive:
            out.clear()
        out.print(S.screen(state, view, width, height, reserve=1))
        if interactive and i < len(history):
            try:
                if input(W.say(lang, W.NEXT_STEP)).strip().lower() == "q":
                    return
            except EOFError:
                interactive = False
