"""``endeavor play`` against bots of the player's choice: ``--opponents`` (seat order,
one name for all, errors, saved and loaded with the game, each seat's bot seeded from
the bot seed), the bots' names on the screen, the "is thinking" note on a terminal, and
the ``hint`` command end to end: ranked actions with their menu numbers, the game and
its undo history unchanged, the game going on as if no hint had been asked."""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from endeavor import GameConfig, State, cli, new_game, replay
from endeavor import bots as B
from endeavor import testing as T
from endeavor.actions import Action
from endeavor.bots import RandomBot, Rated
from endeavor.cli import PlaySession, hint_bot_name, main
from endeavor.terminal import screen as S
from scenario import feed_input

HEADER = re.compile(r"^(Final position · )?(Setup|Round \d/7 · \w+|Game over) ")
HINT_LINE = re.compile(r"^  (\d)\. (.+?)( \[menu (\d+)( …)?\])? - (.+)$")
#: a bot other than random, to tell seats apart on screen (it never moves in these tests)
OTHER = next((name for name in B.NAMES if name != "random"), "random")


@pytest.fixture(autouse=True)
def _random_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games here are played against random bots, whatever the default is."""
    monkeypatch.setattr(cli.play, "DEFAULT_OPPONENT", "random")


def _screens(out: str) -> list[list[str]]:
    """The screens printed (each starts with its header line), as lists of lines."""
    screens: list[list[str]] = []
    for line in out.splitlines():
        if HEADER.match(line):
            screens.append([line])
        elif screens:
            screens[-1].append(line)
    return screens


def _crown(players: int, seed: int) -> int:
    """The seat that decides first in a new game (the Crown picks its start tile)."""
    return new_game(GameConfig(players=players, seed=seed)).crown


def _fail(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``argv``; it must fail with exit code 2 and one line on stderr."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("endeavor: error: "), captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


# --------------------------------------------------------------------------- --opponents
def test_opponents_sit_after_you_in_order_with_their_names_on_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seat = _crown(3, 4)  # the human decides first: no bot moves before the screen
    path = tmp_path / "game.json"
    feed_input(monkeypatch, [f"save {path}", "quit", ""])
    assert main(["play", "--players", "3", "--seed", "4", "--seat", str(seat),
                 "--opponents", f"{OTHER}, Random"]) == 0
    screen = _screens(capsys.readouterr().out)[0]
    mats = {int(m.group(1)): m.group(2) for line in screen
            if (m := re.match(r"^[▶ ] P(\d) (\w+)", line))}
    assert mats == {seat: "you", (seat + 1) % 3: OTHER, (seat + 2) % 3: "random"}
    assert f"▶ P{seat} (you)" in screen[0]
    # the opponents are saved with the game and come back with --load
    record = json.loads(path.read_text())
    assert record["play"]["opponents"] == [OTHER, "random"]
    feed_input(monkeypatch, [])
    assert main(["play", "--load", str(path)]) == 0
    again = _screens(capsys.readouterr().out)[0]
    assert any(line.startswith(f"  P{(seat + 1) % 3} {OTHER}") for line in again)
    # --opponents given with --load wins over the saved ones
    feed_input(monkeypatch, [])
    assert main(["play", "--load", str(path), "--opponents", "random"]) == 0
    third = _screens(capsys.readouterr().out)[0]
    assert sum(1 for line in third if re.match(r"^  P\d random ", line)) == 2


def test_one_name_plays_every_other_seat_each_seeded_from_the_bot_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def game(opponents: str, bot_seed: int, name: str) -> dict[str, Any]:
        path = tmp_path / name
        feed_input(monkeypatch, ["1"] * 15 + [f"save {path}", "quit", ""])
        assert main(["play", "--players", "3", "--seed", "5", "--seat", "1",
                     "--bot-seed", str(bot_seed), "--opponents", opponents]) == 0
        record: dict[str, Any] = json.loads(path.read_text())
        return record

    one = game("random", 7, "one.json")
    both = game("random,random", 7, "both.json")
    assert one["actions"] == both["actions"]
    assert one["play"]["opponents"] == ["random"]
    assert both["play"]["opponents"] == ["random", "random"]
    assert game("random", 8, "other.json")["actions"] != one["actions"]
    # seat K's bot is RandomBot(bot seed + K) with the play pass weight, 0.1
    bots = {p: RandomBot(7 + p, 0.1) for p in (0, 2)}
    state = new_game(GameConfig(players=3, seed=5))
    bot_moves = 0
    for text in one["actions"]:
        p = state.current_player
        assert p is not None
        if p != 1:
            assert bots[p].choose(state).text == text
            bot_moves += 1
        state.apply(text)
    assert bot_moves > 15


@pytest.mark.parametrize("argv, reason", [
    (["play", "--opponents", "nobody"],
     f"argument --opponents: unknown bot 'nobody': choose from {', '.join(B.NAMES)}"),
    (["play", "--opponents", "random,,random"], "a bot name is missing in 'random,,random'"),
    (["play", "--players", "4", "--opponents", "random,random"],
     "--opponents: 4 players need 3 bot names (one for each other seat, after yours) or "
     "one name for all, not 2: random,random"),
    (["play", "--players", "2", "--opponents", "random,random"],
     "--opponents: 2 players need 1 bot name, not 2: random,random"),
    (["play", "--auto", "--players", "3", "--opponents", "random,random,random,random"],
     "--opponents: 3 players need 3 bot names (every seat from seat 0), 2 (the seats after "
     "yours) or one name for all, not 4"),
    (["play", "--hint-budget", "0"], "argument --hint-budget: must be seconds"),
    (["play", "--hint-budget", "1.5it"], "or iterations (e.g. 800it, at most 10000000), "
                                         "not '1.5it'"),
    (["play", "--hint-budget", "soon"], "not 'soon'"),
    (["play", "--hint-budget", "nan"], "not 'nan'"),
    (["play", "--hint-budget=-2s"], "not '-2s'"),
])
def test_bad_opponents_and_hint_budgets(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch,
                                        argv: list[str], reason: str) -> None:
    feed_input(monkeypatch, [])
    assert reason in _fail(capsys, argv)


@pytest.mark.parametrize("opponents, reason", [
    (["nobody"], "'play' opponents: unknown bot 'nobody': choose from random"),
    ("random", "'play' opponents must be a list of 1 or 2 bot names, not 'random'"),
    (["random"] * 4, "'play' opponents must be a list of 1 or 2 bot names"),
    ([3], "'play' opponents must be a list of 1 or 2 bot names, not [3]"),
])
def test_load_rejects_bad_saved_opponents(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, opponents: Any,
                                          reason: str) -> None:
    record = new_game(GameConfig(players=3, seed=1)).record()
    record["play"] = {"opponents": opponents}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    feed_input(monkeypatch, [])
    assert reason in _fail(capsys, ["play", "--load", str(path)])


def test_auto_takes_a_bot_for_every_seat(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    feed_input(monkeypatch, [])
    assert main(["play", "--auto", "--players", "2", "--seed", "9",
                 "--opponents", "random,random"]) == 0
    out = capsys.readouterr().out
    assert "Final score" in out
    final = _screens(out)[-1]
    assert sum(1 for line in final if re.match(r"^  P\d random ", line)) == 2


# --------------------------------------------------------------------------- hint
def test_hint_ranks_actions_changes_nothing_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c, d = (tmp_path / f"{x}.json" for x in "abcd")
    argv = ["play", "--players", "2", "--seed", "6", "--opponents", "random",
            "--hint-budget", "40it"]
    feed_input(monkeypatch, [f"save {a}", "hint", f"save {b}", "undo", "1", "1", "hint",
                             "1", "1", "1", f"save {c}", "quit", ""])
    assert main(argv) == 0
    out = capsys.readouterr().out
    name = hint_bot_name()
    assert name in B.NAMES
    # (a bot that does not search takes no budget and says none)
    said = re.findall(rf"Hint from the {name} bot( \(40 iterations\))?, its best actions "
                      r"for you first \(type the menu number or the notation\):", out)
    assert len(said) == 2
    # the game is unchanged: the same record before and after, no undo point added
    assert a.read_text() == b.read_text()
    assert "Nothing to undo: this is your first decision of the game." in out
    # the ranked lines: legal actions of the decision, each with its number in the menu
    # on the screen, and the bot's evaluation in words
    state = replay(json.loads(a.read_text()))
    decision = state.decision()
    assert decision is not None
    legal = {o.action.text for o in decision.options}
    screen = _screens(out)[0]
    ranked = []
    for line in out[out.index("Hint from the"):].splitlines()[1:]:
        m = HINT_LINE.match(line)
        if m is None:
            break
        ranked.append(m)
    assert 1 <= len(ranked) <= min(3, len(legal))
    assert [int(m.group(1)) for m in ranked] == list(range(1, len(ranked) + 1))
    assert len({m.group(2) for m in ranked}) == len(ranked)
    for m in ranked:
        assert m.group(2) in legal
        assert m.group(6).strip()
        number = m.group(4)
        assert number is not None and m.group(5) is None  # a short menu: no sub-menu
        assert any(re.search(rf"(?<!\d){number} {re.escape(m.group(2))}(?= |$)", line)
                   for line in screen)
    # the same game without the hints: the same moves (bots and all)
    feed_input(monkeypatch, [f"save {a}", f"save {b}", "undo", "1", "1", "1", "1", "1",
                             f"save {d}", "quit", ""])
    assert main(argv) == 0
    assert json.loads(c.read_text())["actions"] == json.loads(d.read_text())["actions"]


class _Scripted:
    """A stand-in hint bot: ranks the ``actions`` it is given, in that order."""

    name = "scripted"

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions

    def choose(self, state: State) -> Action:
        return self.actions[0]

    def analyse(self, state: State, top: int = 3) -> list[Rated]:
        return [Rated(x, 0.5, 10, f"scored {k}") for k, x in enumerate(self.actions[:top])]


def _deic_draw() -> State:
    """Dutch East India Company active, P0 about to rebuild with a Market's draw: a
    menu of more than 20 options, the rebuilds in sub-menus (as in
    test_terminal_screen.py)."""
    s = T.fresh(2, exploits=("dutch_east_india_company",))
    T.open_region(s, "FE", 0)
    T.open_region(s, "AF", 0)
    for code in ("market", "bank", "docks"):
        T.give_building(s, 0, code)
    T.give_token(s, 0, 0)
    T.give_discs(s, 0, 3)
    T.at_actions(s, 0)
    s.apply("act market")
    return s


def test_hint_points_at_sub_menu_entries_and_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _deic_draw()
    decision = state.decision()
    assert decision is not None
    menu = S.build_menu(decision)
    sub = next(e for e in menu.entries if e.action is None)
    leaf = next(e for e in menu.entries if e.action is not None)
    inside = next(o.action for o in decision.options
                  if o.action.text.startswith(sub.notation.removesuffix("…")))
    assert leaf.action is not None
    before = state.to_json()
    feed_input(monkeypatch, ["hint", str(sub.number), "hint"])
    out = Console(width=100, file=io.StringIO(), color_system=None)
    session = PlaySession(state, out, 0, RandomBot(1), {"seat": 0},
                          hint_bot=_Scripted([inside, leaf.action]))
    assert session.run() == 0
    file = out.file
    assert isinstance(file, io.StringIO)
    text = file.getvalue()
    assert state.to_json() == before
    ranked = [m for line in text.splitlines() if (m := HINT_LINE.match(line))]
    assert text.count("Hint from the scripted bot, its best actions for you first") == 2
    # on the whole menu: the sub-menu's number (with …) and the leaf's number
    first, second = ranked[0], ranked[1]
    assert (first.group(2), first.group(4), first.group(5)) == (inside.text,
                                                                 str(sub.number), " …")
    assert (second.group(2), second.group(4), second.group(5)) == (leaf.action.text,
                                                                   str(leaf.number), None)
    assert first.group(6) == "scored 0" and second.group(6) == "scored 1"
    # inside the sub-menu: the number there; the leaf elsewhere is shown without one
    in_sub = S.build_menu(decision, sub.notation.removesuffix(" …"))
    number = next(e.number for e in in_sub.entries if e.action == inside)
    assert ranked[2].group(4) == str(number) and ranked[2].group(5) is None
    assert ranked[3].group(2) == leaf.action.text and ranked[3].group(3) is None


# --------------------------------------------------------------------------- thinking
class _Slow:
    """A random bot that takes ``delay`` seconds a move."""

    name = "slow"

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.rng = RandomBot(2, 0.1)

    def choose(self, state: State) -> Action:
        time.sleep(self.delay)
        return self.rng.choose(state)

    def analyse(self, state: State, top: int = 3) -> list[Rated]:
        return self.rng.analyse(state, top)


def _terminal_session(state: State, bot: Any, answers: Iterable[str],
                      monkeypatch: pytest.MonkeyPatch) -> str:
    feed_input(monkeypatch, answers)
    out = Console(width=100, height=40, file=io.StringIO(), force_terminal=True,
                  color_system="standard")
    assert out.is_terminal
    assert PlaySession(state, out, 0, {1: bot}, {"seat": 0}, {1: bot.name}).run() == 0
    file = out.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def test_a_slow_bot_says_it_is_thinking_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seed = next(s for s in range(20) if _crown(2, s) == 1)  # the bot moves first
    monkeypatch.setattr(cli.session, "THINKING_AFTER", 0.01)
    out = _terminal_session(new_game(GameConfig(players=2, seed=seed)), _Slow(0.3), [],
                            monkeypatch)
    note = out.index("P1 (slow) is thinking…")
    assert out.index("\r\x1b[2K", note) > note  # erased when the bot is done
    # a quick bot shows nothing
    monkeypatch.setattr(cli.session, "THINKING_AFTER", 0.3)
    out = _terminal_session(new_game(GameConfig(players=2, seed=seed)), _Slow(0.0),
                            ["1", "1", "1"], monkeypatch)
    assert "thinking" not in out
