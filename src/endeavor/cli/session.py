"""The terminal session of ``endeavor play``: :class:`PlaySession` draws the screen
of :mod:`endeavor.terminal.screen` at each of the human's decisions and reads their commands with
the builtin :func:`input` (help, hint, board, log, undo, save, back, quit); the bots play
the other seats. Also the pager for long output and the "is thinking" note."""

from __future__ import annotations

import io
import json
import os
import random
import shlex
import shutil
import subprocess
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from .. import bots as B
from ..actions import Action
from ..decision import Decision
from ..errors import IllegalActionError, NotationError, UndoError
from ..events import Event
from ..state import State
from ..terminal import render
from ..terminal import screen as S
from ..terminal import words as W
from ..web.effects import option_effects
from .common import EXIT_OK, _history_log, _screen_size, final_lines

#: the bots asked for a hint, strongest first (the strongest measured,
#: :func:`endeavor.bots.strongest`, then the others): the first one that exists answers
HINT_BOTS = tuple(dict.fromkeys((B.strongest(), "hard", "mcts", "medium", "greedy", "easy",
                                 "random")))
HINT_SECONDS = 1.0  # a hint's search budget when --hint-budget is not given
HINT_TOP = 3  # how many actions a hint ranks
THINKING_AFTER = 0.3  # a bot thinking longer than this many seconds says so (terminal)

#: answers that confirm an overwrite
_YES = ("y", "yes", "o", "oui")  # (French: oui)


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
         command: Sequence[str] | None = None, lang: str = "en") -> None:
    """Show ``lines`` (styled) through a pager, ``command`` or :func:`pager_command`,
    with ``title`` and how to leave on the first line; without a pager (none found, or
    it fails to start) print them on ``out``. The pager gets the lines with their
    colours as terminal escape codes, and ``less`` is told to show them as colours
    (:func:`pager_environment`)."""
    head = Text.assemble((title, "bold"), " · ",
                         (W.say(lang, W.PAGER_LEAVE), "bold reverse"))
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
    passed to the bot that answers ``hint``: the one named ``hint_name`` (default: see
    :data:`HINT_BOTS`); ``hint_bot``, if given, answers instead."""

    def __init__(self, state: State, out: Console, human: int | None,
                 bots: B.Bot | Mapping[int, B.Bot], settings: dict[str, Any],
                 names: Mapping[int, str] | None = None,
                 hint_budget: Mapping[str, float | int] | None = None,
                 hint_bot: B.Bot | None = None, hint_name: str | None = None,
                 lang: str = "en") -> None:
        self.state = state
        self.lang = lang
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
        self.hint_name = hint_name
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
            self._offer_save(self._t(W.SAVE_OVER))
        return EXIT_OK

    def _t(self, id: str, **args: Any) -> str:
        """The terminal's message ``id`` in the session's language."""
        return W.say(self.lang, id, **args)

    def _label(self, p: int) -> str:
        """A seat for the human to read: ``P1 (hard)``, ``P0 (you)``."""
        who = self._t(W.YOU) if p == self.human else self.names.get(p)
        return f"P{p} ({who})" if who else f"P{p}"

    def _bot_choice(self) -> Action:
        """The choice of the bot of the player to move (a note on a terminal when it
        thinks for long)."""
        p = self.state.current_player
        assert p is not None
        with _Thinking(self.out, self._t(W.THINKING, who=self._label(p))):
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
                self.out.print(Text(e.text if self.lang == "en" else e.render(self.lang)),
                               soft_wrap=True)
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
                      names=self.names, lang=self.lang)
        self.messages = []
        if self.terminal:
            self.out.clear()
        self.out.print(S.screen(self.state, view, width, height))

    def _draw_final(self) -> None:
        width, height = _screen_size(self.out)
        if self.human is None:  # the demo printed the log already
            view = S.View(title=self._t(W.FINAL_POSITION), names=self.names,
                          lang=self.lang)
            self.out.print(S.screen(self.state, view, width, height, reserve=0))
            for line in final_lines(self.state, width, self.lang):
                self.out.print(line)
            return
        self._draw(None, None, final_lines(self.state, width, self.lang))

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
            page(self.out, lines, title, lang=self.lang)
        else:
            for line in lines:
                self.out.print(line)

    def _ask(self, prompt: str) -> str:
        try:
            return input(prompt).strip()
        except EOFError:
            self.out.print("\n" + self._t(W.END_OF_INPUT))
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
        effects = option_effects(state, decision, self.lang)  # as the web app shows them
        while True:
            menu = S.build_menu(decision, prefixes[-1] if prefixes else "", limit, effects,
                                self.lang)
            if redraw or (self.terminal and self.messages):
                self._draw(decision, menu)
                redraw = False
            back = self._t(W.INPUT_BACK) if prefixes else ""
            line = self._ask(self._t(W.INPUT, seat=str(self.human), n=str(len(menu)),
                                     back=back))
            if not line:
                continue
            command, _, rest = line.partition(" ")
            command = command.lower()
            rest = rest.strip()
            if command == "help" and not rest:
                lines = [Text(self._t(W.HELP)), Text(render.legend(self.lang), style="dim")]
                self._page(lines, self._t(W.HELP_TITLE))
                redraw = self.terminal
            elif command == "board" and not rest:
                redraw = True
            elif command == "hint" and not rest:
                self._hint(menu)
            elif command == "log" and not rest:
                width, _ = _screen_size(self.out)
                self._page([x.text for x in S.log_lines(self.log, width, self._new_from(),
                                                        lang=self.lang)],
                           self._t(W.LOG_PAGE))
                redraw = self.terminal
            elif command == "undo" and not rest:
                if self._undo():
                    return
            elif command == "save":
                self._save(rest)
            elif command == "quit" and not rest:
                self._offer_save(self._t(W.SAVE_BEFORE))
                self.out.print(self._t(W.LEFT))
                raise _Quit
            elif command == "back" and not rest:
                if prefixes:
                    prefixes.pop()
                    redraw = True
                else:
                    self._say(self._t(W.WHOLE_MENU), "red")
            elif line.isdigit():
                entry = menu.entry(int(line))
                if entry is None:
                    self._say(self._t(W.NO_ENTRY, line=line, n=str(len(menu))), "red")
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
                    said = getattr(e, "message", None)  # a refusal in words, if it has them
                    self._say(said.render(self.lang, getattr(e, "viewer", None))
                              if said is not None else str(e), "red")  # the state is unchanged
                else:
                    return

    def _hint(self, menu: S.Menu) -> None:
        """Show what the hint bot would play at the human's decision: its top actions
        with their menu numbers (in ``menu``, the menu on screen) and its evaluation in
        words. The bot analyses a copy: the game and its undo history are unchanged."""
        state = self.state
        bot = self.hint_bot
        budget = ""
        name = bot.name if bot is not None else self.hint_name or hint_bot_name()
        if bot is None:
            seed = int(self.settings.get("bot_seed", 0)) + state.num_actions
            try:
                bot = B.make(name, seed=seed, **self.hint_budget)
                budget = " (" + ", ".join(f"{v:g}s" if k == "seconds" else f"{v} {k}"
                                          for k, v in self.hint_budget.items()) + ")"
            except (TypeError, ValueError):  # a bot that does not search
                bot = B.make(name, seed=seed)
        try:
            with _Thinking(self.out, self._t(W.HINT_ASKING, name=name), 0.0):
                rated = bot.analyse(state.copy(), HINT_TOP)
        except Exception as e:  # a bot's failure must not end the human's game
            self._say(self._t(W.HINT_FAILED, name=name, error=f"{type(e).__name__}: {e}"),
                      "red")
            return
        if not rated:
            self._say(self._t(W.HINT_NONE, name=name), "red")
            return
        self._say(self._t(W.HINT_HEAD, name=name, budget=budget), "bold")
        for k, r in enumerate(rated, 1):
            where = _menu_spot(menu, r.action)
            self._say(f"  {k}. {r.action.text}{where} - {self.outlook(r)}")

    def outlook(self, r: B.Rated) -> str:
        """A hint's estimate in words: the bot's own (English) words, or in another
        language the glory and margin it expects, and its search's visits."""
        if self.lang == "en" or r.glory is None or r.margin is None:
            return r.text
        gap = round(r.margin)
        text = self._t(W.HINT_AHEAD if gap > 0 else W.HINT_BEHIND if gap < 0
                       else W.HINT_LEVEL, glory=str(round(r.glory)), gap=str(abs(gap)))
        if r.visits:
            text = self._t(W.HINT_VISITS, text=text, visits=str(r.visits))
        return text

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
            self._say(self._t(W.UNDO_NOTHING), "red")
            return False
        target = self.points[-1]
        history = state.history()
        undone = []
        for k in range(target, state.num_actions):
            event = self.log[self.marks[k]]
            who = self._t(W.YOU) if event.player == self.human else f"P{event.player}"
            undone.append(f"{history[k].text} ({who})")
        try:
            for _ in range(state.num_actions - target):
                state.undo()
        except UndoError as e:  # the engine cannot go back that far
            self._say(self._t(W.UNDO_FAILED, error=str(e)), "red")
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
        detail = "; ".join(undone[:8])
        if bots > 7:
            detail = self._t(W.UNDO_MORE, detail=detail, n=str(len(undone) - 8))
        self._say(self._t(W.UNDONE, bots=str(bots), detail=detail), "bold")
        return True

    # ------------------------------------------------------------------ saving
    def _save(self, path: str) -> bool:
        """Write the record and the "play" settings to ``path`` (asking before
        overwriting a file); True if saved."""
        if not path:
            self._say(self._t(W.SAVE_USAGE), "red")
            return False
        target = Path(path).expanduser()
        try:
            exists = target.exists()
        except (OSError, ValueError) as e:
            self._say(self._t(W.SAVE_FAILED, error=str(e)), "red")
            return False
        if exists:
            try:
                answer = input(self._t(W.SAVE_EXISTS, path=path)).strip().lower()
            except EOFError:
                answer = ""
            if answer not in _YES:
                self._say(self._t(W.SAVE_KEPT, path=path), "red")
                return False
        record = self.state.record()
        record["play"] = dict(self.settings)
        try:
            target.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        except (OSError, ValueError) as e:
            self._say(self._t(W.SAVE_FAILED, error=str(e)), "red")
            return False
        self._say(self._t(W.SAVED, n=str(self.state.num_actions), path=path))
        return True

    def _offer_save(self, question: str) -> None:
        """Ask for a file name until the game is saved or the answer is empty."""
        while True:
            try:
                name = input(self._t(W.SAVE_FILE, question=question)).strip()
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
