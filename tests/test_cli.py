"""The command line, run in-process through ``main([...])``: every subcommand, its
``--help``, the play session's commands (undo, save, --load, quit, log, sub-menus) and
the one-line, exit-code-2 errors on bad input. Numbers the CLI prints are checked
against the engine driven directly with the same seeds. The screen's layout itself is
tested in ``test_terminal_screen.py``."""

from __future__ import annotations

import builtins
import io
import itertools
import json
import re
import statistics
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from endeavor import GameConfig, State, cli, final_scores, new_game, replay
from endeavor import data as D
from endeavor import testing as T
from endeavor.bots import RandomBot
from endeavor.cli import PlaySession, main
from endeavor.exploits import EXPLOIT_IDS, REGISTRY
from endeavor.terminal import render
from scenario import feed_input

#: "random" draws from all 15 Exploits, so it needs every module built
ALL_BUILT = pytest.mark.skipif(len(REGISTRY) < len(EXPLOIT_IDS),
                               reason="not every Exploit module is built yet")
HEADER = re.compile(r"^(Step \d+/\d+ · |Final position · |Position after \d+ actions · )?"
                    r"(Setup|Round \d/7 · \w+|Game over) ")


def _random_game(config: GameConfig, pass_weight: float = 1.0) -> tuple[State, int]:
    """What ``simulate`` plays for ``config``: (final state, decisions made)."""
    state = new_game(config)
    return state, RandomBot(config.seed, pass_weight).play_out(state)


def _feed(monkeypatch: pytest.MonkeyPatch, answers: Iterable[str]) -> list[str]:
    """Answer ``input()`` with ``answers`` (EOF when they run out); return the prompts."""
    return feed_input(monkeypatch, answers)


@pytest.fixture(autouse=True)
def _random_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    """The play tests play whole games: against random bots (fast), whatever the
    default opponent is (the bots' own tests are in test_play_bots.py)."""
    monkeypatch.setattr(cli.play, "DEFAULT_OPPONENT", "random")


def _no_input(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(prompt: str = "") -> str:
        raise AssertionError(f"unexpected prompt {prompt!r}")

    monkeypatch.setattr(builtins, "input", fail)


def _screens(out: str) -> list[list[str]]:
    """The screens printed (each starts with its header line), as lists of lines."""
    screens: list[list[str]] = []
    for line in out.splitlines():
        if HEADER.match(line):
            screens.append([line])
        elif screens:
            screens[-1].append(line)
    return screens


def _session(state: State, answers: Iterable[str], monkeypatch: pytest.MonkeyPatch,
             human: int = 0) -> tuple[PlaySession, str, list[str]]:
    """Run a play session on ``state`` with typed ``answers`` (then end of input);
    return it, what it printed and the prompts."""
    prompts = _feed(monkeypatch, answers)
    out = Console(width=100, file=io.StringIO(), color_system=None, markup=False,
                  highlight=False, emoji=False)
    session = PlaySession(state, out, human, RandomBot(1, 0.1),
                          {"seat": human, "bot_seed": 1, "pass_weight": 0.1})
    assert session.run() == 0
    file = out.file
    assert isinstance(file, io.StringIO)
    return session, file.getvalue(), prompts


# --------------------------------------------------------------------------- help, errors
@pytest.mark.parametrize("command, expected", [
    ([], ["simulate", "play", "replay", "bench"]),
    (["simulate"], ["--players", "--games", "--seed", "--board", "--json", "--phase-order",
                    "--pass-weight", "--exploits", "random", "spanish_main"]),
    (["play"], ["--seat", "--bot-seed", "--auto", "--load", "save FILE", "undo", "log",
                "--exploits", "random", "--opponents", "hint", "--hint-budget"]),
    (["replay"], ["FILE", "--step"]),
    (["bench"], ["--runs", "--seconds", "--players", "--json", "--exploits", "random"]),
])
def test_help(capsys: pytest.CaptureFixture[str], command: list[str],
              expected: list[str]) -> None:
    assert main([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: endeavor {' '.join(command)}".rstrip())
    for word in expected:
        assert word in out


@pytest.mark.parametrize("argv, reason", [
    (["simulate", "--board", "C"], "board side must be 'A' or 'B'"),
    (["simulate", "--players", "6"], "2 to 5 players, not 6"),
    (["simulate", "--players", "two"], "--players: must be an integer, not 'two'"),
    (["simulate", "--games", "0"], "--games: must be 1 to 1,000,000, not 0"),
    (["simulate", "--games", "-3"], "--games: must be 1 to 1,000,000, not -3"),
    (["simulate", "--games", "1e9"], "--games: must be an integer, not '1e9'"),
    (["simulate", "--games", str(10**30)], "--games: must be 1 to 1,000,000"),
    (["simulate", "--pass-weight", "2"], "--pass-weight: must be between 0 and 1, not 2"),
    (["simulate", "--pass-weight", "-0.5"], "--pass-weight: must be between 0 and 1"),
    (["simulate", "--pass-weight", "nan"], "--pass-weight: must be a finite number, not nan"),
    (["simulate", "--pass-weight", "inf"], "--pass-weight: must be a finite number, not inf"),
    (["simulate", "--seed", "-1"], "--seed: must be 0 to 9223372036854775807, not -1"),
    (["simulate", "--seed", str(2**63)], "--seed: must be 0 to 9223372036854775807"),
    (["simulate", "--phase-order", "sideways"], "--phase-order: invalid choice"),
    (["play", "--players", "3", "--seat", "3"], "--seat must be 0 to 2, not 3"),
    (["play", "--seat", "-1"], "--seat: must be a seat number, 0 to 4, not -1"),
    (["play", "--pass-weight", "NaN"], "--pass-weight: must be a finite number, not NaN"),
    (["play", "--pass-weight=-inf"], "--pass-weight: must be a finite number"),
    (["play", "--bot-seed", "-5"], "--bot-seed: must be 0 to 9223372036854775807, not -5"),
    (["play", "--seed", "1.5"], "--seed: must be an integer, not '1.5'"),
    (["play", "--load", "game.json", "--players", "3"], "--players cannot be used with --load"),
    (["play", "--load", "game.json", "--exploits", "none", "--seed", "2"],
     "--seed, --exploits cannot be used with --load"),
    (["replay", "no/such/file.json"], "no/such/file.json: No such file or directory"),
    (["bench", "--players", "1"], "2 to 5 players, not 1"),
    (["bench", "--players", "0"], "2 to 5 players, not 0"),
    (["bench", "--seconds", "0"], "--seconds: must be a positive number of seconds"),
    (["bench", "--seconds", "-1"], "--seconds: must be a positive number of seconds"),
    (["bench", "--seconds", "inf"], "--seconds: must be a finite number, not inf"),
    (["bench", "--seconds", "nan"], "--seconds: must be a finite number, not nan"),
    (["bench", "--seconds", "1e999"], "--seconds: must be a finite number, not 1e999"),
    (["bench", "--seconds", "3601"], "--seconds: must be a positive number of seconds, at "
                                     "most 3600, not 3601"),
    (["bench", "--runs", "0"], "--runs: must be 1 to 1,000, not 0"),
    (["bench", "--runs", "1001"], "--runs: must be 1 to 1,000, not 1001"),
    (["bench", "--runs", "2.5"], "--runs: must be an integer, not '2.5'"),
    (["simulate", "--exploits", "atlantis"], "unknown Exploit 'atlantis'"),
    (["play", "--exploits", "spanish_main,spanish_main"], "Exploit listed twice"),
    (["bench", "--exploits", "a,b,c,d"], "unknown Exploit 'a'"),
    (["simulate", "--exploits", ",".join(EXPLOIT_IDS[:4])], "at most 3 Exploits, got 4"),
    (["conquer"], "invalid choice: 'conquer'"),
    ([], "the following arguments are required: COMMAND"),
])
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                      reason: str) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("endeavor: error: ")
    assert reason in captured.err
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize("content, reason", [
    (b"\xff\xfe\x00not utf-8 \x80", "record is not UTF-8 text"),
    (b"[" * 100_000, "record is not valid JSON"),
    (b'{"format": "endeavor-record", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     "record is not valid JSON"),
    (b"{" * 50_000, "record is not valid JSON"),
    (b"", "record is not valid JSON"),
    (b"{not json", "record is not valid JSON"),
    (b"5", "record must be a JSON object"),
    (b'{"format": "chess"}', "not an endeavor record"),
    (None, "action #5 ('attack FE9')"),
])
@pytest.mark.parametrize("command", [["replay"], ["replay", "--step"], ["play", "--load"]])
def test_bad_record_files(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch, content: bytes | None,
                          reason: str, command: list[str]) -> None:
    _no_input(monkeypatch)
    path = tmp_path / "bad.json"
    if content is None:
        record = _write_record(path, 2, 1, upto=10)
        record["actions"][4] = "attack FE9"
        content = json.dumps(record).encode()
    path.write_bytes(content)
    assert main([*command, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"endeavor: error: {path}: ")
    assert reason in captured.err
    assert captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_unreadable_paths_are_one_line(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    for argv, reason in ((["replay", str(tmp_path)], "Is a directory"),
                         (["replay", "bad\x00name"], "embedded null byte"),
                         (["play", "--load", str(tmp_path / "none.json")],
                          "No such file or directory")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("endeavor: error: ") and reason in err
        assert err.count("\n") == 1


@pytest.mark.parametrize("play, reason", [
    ({"seat": 7}, "'play' seat must be 0 to 1, not 7"),
    ({"seat": "0"}, "'play' seat must be 0 to 1"),
    ({"bot_seed": -1}, "'play' bot_seed must be 0 to"),
    ({"pass_weight": 2}, "'play' pass_weight must be between 0 and 1, not 2"),
    ({"pass_weight": True}, "'play' pass_weight must be between 0 and 1"),
    ("seat 1", "'play' must be an object"),
])
def test_load_rejects_bad_play_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch, play: Any,
                                        reason: str) -> None:
    _no_input(monkeypatch)
    path = tmp_path / "game.json"
    record = _write_record(path, 2, 1, upto=10)
    record["play"] = play
    path.write_text(json.dumps(record))
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"endeavor: error: {path}: ") and reason in err
    assert err.count("\n") == 1


# --------------------------------------------------------------------------- simulate
def test_simulate_summary_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "3", "--games", "4", "--seed", "10"]) == 0
    out = capsys.readouterr().out
    games = [_random_game(GameConfig(players=3, seed=seed)) for seed in range(10, 14)]
    scores = [final_scores(state) for state, _ in games]
    every = [s.total for game in scores for s in game]
    assert "4 random games · 3 players · board A · seeds 10-13" in out
    assert (f"Totals: min {min(every)} · max {max(every)} · "
            f"std dev {statistics.pstdev(every):.2f}") in out
    mean_decisions = statistics.mean(made for _, made in games)
    assert f"Mean decisions per game: {mean_decisions:.1f}" in out
    for p in range(3):
        mean = statistics.mean(game[p].total for game in scores)
        wins = sum(game[p].rank == 1 for game in scores)
        assert any(line.split() == [f"P{p}", f"{mean:.2f}", str(wins)]
                   for line in out.splitlines())


def test_simulate_json_lines_replay_with_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--json", "--players", "5", "--games", "3", "--seed", "40",
            "--board", "A", "--phase-order", "by_player", "--pass-weight", "0.4"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # no progress bar with --json
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [game["seed"] for game in lines] == [40, 41, 42]
    for game in lines:
        assert set(game) == {"seed", "config", "exploits", "totals", "ranks", "decisions"}
        assert game["exploits"] == []
        config = GameConfig(players=5, board="A", seed=game["seed"],
                            options={"phase_order": "by_player"})
        assert game["config"] == config.to_dict()
        state, made = _random_game(GameConfig.from_dict(game["config"]), 0.4)
        scores = final_scores(state)
        assert game["totals"] == [s.total for s in scores]
        assert game["ranks"] == [s.rank for s in scores]
        assert game["decisions"] == made == len(state.history())


# --------------------------------------------------------------------------- play
def test_play_a_whole_game_from_typed_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    before, after, mid = tmp_path / "before.json", tmp_path / "after.json", tmp_path / "mid.json"
    script = [f"save {before}", "xyz", "999", "0", "attack EU1", "", "save", "back", "help",
              "board", "log", f"save {after}", "START  Merchant-Dock"]
    answers = itertools.chain(script, ["1"] * 25, [f"save {mid}"], ["1"] * 400)
    prompts = _feed(monkeypatch, answers)
    assert main(["play", "--players", "3", "--seat", "1", "--seed", "5", "--bot-seed", "9"]) == 0
    out = capsys.readouterr().out

    # invalid input is rejected with its reason and leaves the game as it was
    assert "cannot parse 'xyz': unknown verb 'xyz'" in out
    assert "No menu entry 999: choose 1 to 2." in out
    assert "No menu entry 0: choose 1 to 2." in out
    assert "attack EU1 is illegal" in out
    assert "usage: save FILE" in out
    assert "This is the whole menu already." in out
    assert "Commands: help · board (redraw) · log" in out
    assert before.read_text() == after.read_text()
    assert json.loads(before.read_text())["play"] == {"seat": 1, "bot_seed": 9,
                                                      "pass_weight": 0.1,
                                                      "opponents": ["random"]}
    game_prompts = [p for p in prompts if p.startswith("P")]
    assert all(p.startswith("P1 [") for p in game_prompts)

    # the notation was accepted, then "1" played the game to its end
    record = json.loads(mid.read_text())
    assert record["config"] == GameConfig(players=3, seed=5).to_dict()
    crown = replay(record, upto=0).crown
    assert record["actions"][(1 - crown) % 3] == "start merchant-dock"
    assert "Final score" in out and "Total" in out and "Rank" in out
    assert "Winner" in out
    # the game end offered to save; the answer "1" named the file
    assert prompts[-1] == "The game is over. Save it? File name (empty: don't save): "
    saved = json.loads((tmp_path / "1").read_text())
    assert replay(saved).is_over

    assert main(["replay", str(mid)]) == 0
    assert "the game is not finished" in capsys.readouterr().out


def test_play_screens_fit_and_start_with_the_header(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _feed(monkeypatch, ["1"] * 30)
    assert main(["play", "--players", "5", "--seed", "11", "--exploits",
                 "spanish_main,dutch_east_india_company,south_sea_company"]) == 0
    out = capsys.readouterr().out
    screens = _screens(out)
    assert len(screens) == 31  # one per decision (the last one met the end of input)
    screens[-1] = screens[-1][:-2]  # the end of input, after the screen
    for body in screens:
        assert len(body) <= 39  # 40 lines with the prompt
        assert max(len(line) for line in body) <= 100
        assert "Crown P" in body[0]
        assert any(line.startswith("▶ P0 (you) · ") for line in body)  # the prompt


def test_play_menu_numbers_follow_the_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    s = T.fresh(3)
    for code in ("market", "shipyard", "docks"):
        T.give_building(s, 0, code)
    T.give_token(s, 0, D.T_SHIP_DRAW)
    T.give_token(s, 0, D.T_OCCUPY_DRAW)
    T.give_discs(s, 0, 4)
    T.at_actions(s, 0)
    decision = s.decision()
    assert decision is not None
    options = [o.action.text for o in decision.options]
    k = s.num_actions
    session, out, _ = _session(s, ["6"], monkeypatch)
    screen = _screens(out)[0]
    # where each option's "N notation" is on screen: reading order gives 1, 2, 3, ...
    found = []
    for notation in options:
        spots = [(row, m.start(), int(m.group(1))) for row, line in enumerate(screen)
                 for m in re.finditer(rf"(\d+) {re.escape(notation)}(?= |$)", line)]
        assert len(spots) == 1, (notation, spots)
        found.append((*spots[0], notation))
    found.sort()
    assert [n for _, _, n, _ in found] == list(range(1, len(options) + 1))
    shown = [notation for _, _, _, notation in found]
    # grouped by kind (activations, tokens, pass), each group in the decision's order
    assert shown == ([o for o in options if o.startswith("act ")]
                     + [o for o in options if o.startswith("use ")] + ["pass"])
    # typing 6 applied the sixth entry on screen
    assert session.state.history()[k].text == shown[5]


def test_play_menu_shows_the_score_preview_of_the_last_discards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # round 7, everyone passed: the Governor-slot choice's effect on the final score, the
    # words the web app shows beside each option
    s = T.fresh(2, seed=3)
    T.set_round(s, 7)
    T.set_crown(s, 0)
    T.stock(s, 0, D.INFLUENCE, 4)
    for code in ("SA/2", "NA/1", "IN/G"):
        T.give_card(s, 0, code)
    T.slot_governor(s, 0, "IN/G")
    T.give_card(s, 0, "SA/1")
    T.at_actions(s, 0)
    s.apply("pass")
    s.apply("pass")
    decision = s.decision()
    assert decision is not None and decision.kind == "governor_slot"
    _, out, _ = _session(s, [], monkeypatch)
    shown = " ".join(" ".join(line.split()) for line in _screens(out)[0])
    assert ("slot none Leave the Governor slot empty: +3 glory at the end; your Governors "
            "count against the card limit [Governor slot +3: +3 glory; then you must "
            "discard again (at best \u00b10 glory): +3 glory in all]") in shown
    assert "outside the card limit [no line of your score changes: \u00b10 glory]" in shown


def test_play_end_of_input_leaves_politely(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    prompts = _feed(monkeypatch, [])
    assert main(["play", "--seed", "2"]) == 0
    assert len(prompts) == 1
    assert "End of input: the game is left unfinished." in capsys.readouterr().out


def test_quit_offers_to_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "quit.json"
    prompts = _feed(monkeypatch, ["2", "quit", str(path)])
    assert main(["play", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert prompts[-1] == "Save the game before leaving? File name (empty: don't save): "
    assert "Saved the game (" in out and f"endeavor play --load {path}" in out
    assert "Game left unfinished." in out
    record = json.loads(path.read_text())
    assert record["play"] == {"seat": 0, "bot_seed": 1, "pass_weight": 0.1,
                              "opponents": ["random"]}
    state = replay(record)
    assert state.current_player == 0 and not state.is_over

    # an empty answer saves nothing
    _feed(monkeypatch, ["quit", ""])
    assert main(["play", "--players", "2", "--seed", "1"]) == 0
    assert "Saved" not in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quit.json"]


def test_save_never_overwrites_without_yes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text("precious\n")
    prompts = _feed(monkeypatch, [f"save {path}", "n", f"save {path}", "",
                                  "quit", str(path), "no", ""])
    assert main(["play", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert path.read_text() == "precious\n"
    assert prompts.count(f"{path} exists: overwrite it? [y/N] ") == 3
    assert out.count(f"Not saved: {path} is left as it was.") == 3
    # "y" overwrites
    _feed(monkeypatch, ["1", f"save {path}", "y", "quit", ""])
    assert main(["play", "--players", "2", "--seed", "1"]) == 0
    assert replay(json.loads(path.read_text())).num_actions >= 1


def test_save_and_load_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    _feed(monkeypatch, ["1"] * 12 + [f"save {path}", "quit", ""])
    argv = ["play", "--players", "3", "--seat", "2", "--seed", "8", "--bot-seed", "4",
            "--pass-weight", "0.3"]
    assert main(argv) == 0
    capsys.readouterr()
    record = json.loads(path.read_text())
    assert record["play"] == {"seat": 2, "bot_seed": 4, "pass_weight": 0.3,
                              "opponents": ["random"]}
    saved = replay(record)
    assert saved.current_player == 2

    # --load resumes at the same decision, with the saved seat and settings
    again = tmp_path / "again.json"
    prompts = _feed(monkeypatch, [f"save {again}", "quit", ""])
    assert main(["play", "--load", str(path)]) == 0
    out = capsys.readouterr().out
    assert prompts[0].startswith("P2 [")
    assert replay(json.loads(again.read_text())).to_json() == saved.to_json()
    assert json.loads(again.read_text())["play"] == record["play"]
    first = _screens(out)[0]
    assert first[0].startswith(f"Round {saved.round}/7") and "▶ P2 (you)" in first[0]
    # the log of a loaded game holds the whole game: the human's last action is new
    assert any(line.startswith("» P2: ") for line in first)

    # options on the command line win over the saved ones
    third = tmp_path / "third.json"
    _feed(monkeypatch, ["1", "1", f"save {third}", "quit", ""])
    assert main(["play", "--load", str(path), "--seat", "0", "--pass-weight", "1"]) == 0
    assert json.loads(third.read_text())["play"] == {"seat": 0, "bot_seed": 4,
                                                     "pass_weight": 1.0,
                                                     "opponents": ["random"]}

    # a plain engine record (no "play" object) loads too: seat 0, bots seeded by the game
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(saved.record()))
    prompts = _feed(monkeypatch, [f"save {tmp_path / 'p2.json'}", "quit", ""])
    assert main(["play", "--load", str(plain)]) == 0
    assert json.loads((tmp_path / "p2.json").read_text())["play"] == {
        "seat": 0, "bot_seed": 8, "pass_weight": 0.1, "opponents": ["random"]}

    # a finished game loads to its final screen
    done = tmp_path / "done.json"
    _write_record(done, 2, 3)
    _no_input(monkeypatch)
    assert main(["play", "--load", str(done)]) == 0
    assert "Final score" in capsys.readouterr().out


def test_undo_goes_back_to_the_previous_decision(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = (tmp_path / f"{x}.json" for x in "abc")
    _feed(monkeypatch, ["undo", "1", "1", f"save {a}", "1", "undo", f"save {b}", "1",
                        f"save {c}", "quit", ""])
    assert main(["play", "--players", "4", "--seed", "6"]) == 0
    out = capsys.readouterr().out
    assert "Nothing to undo: this is your first decision of the game." in out
    assert re.search(r"Undone: your move and \d+ later move\(s\) of the bots: "
                     r"\S.* \(you\)", out)
    # the state after undo is exactly the state at that decision
    assert replay(json.loads(b.read_text())).to_json() == replay(
        json.loads(a.read_text())).to_json()
    # and the bots, given the same choice again, answer as before (their generator too)
    record_c = json.loads(c.read_text())
    _feed(monkeypatch, ["1", "1", "1", f"save {tmp_path / 'd.json'}", "quit", ""])
    assert main(["play", "--players", "4", "--seed", "6"]) == 0
    assert json.loads((tmp_path / "d.json").read_text())["actions"] == record_c["actions"]


def test_undo_restores_the_state_json(monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(GameConfig(players=3, seed=21))
    bot = RandomBot(3, 0.1)
    for _ in range(40):  # into round 1's actions with the human at seat 0
        state.apply(bot.choose(state))
    while state.current_player != 0:
        state.apply(bot.choose(state))
    before = state.to_json()
    session, out, _ = _session(state, ["1", "undo"], monkeypatch)
    assert session.state.to_json() == before
    assert "Undone: your move and" in out
    # the screen after undo is the screen before the move, log included
    first, _, again = _screens(out)
    assert again[:len(first)] == first


def test_play_log_command_prints_the_whole_game(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _feed(monkeypatch, ["1"] * 20 + ["log", "quit", ""])
    assert main(["play", "--players", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    last_screen = out.rindex("· Crown P")
    log = out[out.rindex("New game: 3 players, board A, seed 4"):]
    assert out.index(log) > last_screen  # printed after the last screen
    for text in ("Round 1 of 7 begins", "Construction phase", "Growth phase",
                 "Salary phase", "Actions phase"):
        assert text in log
    assert log.index("Growth phase") < log.index("Salary phase") < log.index("Actions phase")


def test_play_auto_is_the_bot_game(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    _no_input(monkeypatch)
    assert main(["play", "--auto", "--players", "2", "--seed", "3", "--pass-weight", "1"]) == 0
    out = capsys.readouterr().out
    # every seat is a random bot of its own, seat K's seeded with the bot seed (the game
    # seed, 3) plus K
    state = new_game(GameConfig(players=2, seed=3))
    seats = [RandomBot(3 + p) for p in range(2)]
    made = 0
    while not state.is_over:
        state.apply(seats[state.current_player or 0].choose(state))
        made += 1
    best = max(s.total for s in final_scores(state))
    assert f"with {best} glory" in out
    actions = [line for line in out.splitlines() if line.startswith(("P0: ", "P1: "))]
    assert len(actions) == made
    assert "Round 7 of 7 begins" in out
    assert "Growth phase" in out and "Salary phase" in out
    assert "Game over: " in out
    assert "Final score" in out


# --------------------------------------------------------------------------- replay
def _write_record(path: Path, players: int, seed: int,
                  upto: int | None = None) -> dict[str, Any]:
    state, _ = _random_game(GameConfig(players=players, seed=seed))
    record = state.record()
    if upto is not None:
        record["actions"] = record["actions"][:upto]
    path.write_text(json.dumps(record))
    return record


def test_replay_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    _write_record(path, 4, 8)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    scores = final_scores(replay(json.loads(path.read_text())))
    assert "Final score" in out
    assert [line.split()[1:] for line in out.splitlines() if line.split()[:1] == ["Total"]] \
        == [[str(s.total) for s in scores]]
    assert "Winner" in out
    assert out.splitlines()[0].startswith("Final position · Game over")


def test_replay_step_shows_every_position(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    record = _write_record(path, 3, 4, upto=40)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a TTY: no waiting
    assert main(["replay", str(path), "--step"]) == 0
    out = capsys.readouterr().out
    screens = _screens(out)
    steps = [s for s in screens if s[0].startswith("Step ")]
    assert [s[0].split()[1] for s in steps] == [f"{i}/40" for i in range(1, 41)]
    state = new_game(GameConfig.from_dict(record["config"]))
    for lines, action in zip(steps, record["actions"], strict=True):
        events = state.apply(action)
        assert len(lines) <= 39 and max(len(line) for line in lines) <= 100
        assert any(line.startswith("EU ") for line in lines)  # the board
        assert any(line.startswith(("▶ P0", "  P0")) for line in lines)  # the mats
        new = " ".join(line[2:].strip() for line in lines if line.startswith(("» ", "    ")))
        assert events[0].text in " ".join(new.split())  # the action of this step
    assert "Round 1 of 7 begins" in out
    assert any(line.startswith("Position after 40 actions") for line in out.splitlines())


# --------------------------------------------------------------------------- bench
def test_bench_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "1", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    for label in ("decisions/s", "games/s", "copy()/s", "bytes per state", "per undo()",
                  "from_json(trusted=True)", "Mean decisions per game"):
        assert label in out


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "2", "--seconds", "0.1", "--players", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["runs"], result["seconds"], result["players"]) == (2, 0.1, 2)
    for key in ("steps_per_s", "games_per_s", "copies_per_s", "bytes_per_state",
                "to_json_us", "from_json_us", "from_json_trusted_us", "undo_us"):
        stats = result[key]
        assert 0 < stats["min"] <= stats["median"] <= stats["max"]
    assert result["decisions_per_game"] > 20
    assert (result["api"], result["clock"]) == ("codes", "cpu")


def test_bench_public_api(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "1", "--seconds", "0.1", "--api", "public",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["api"] == "public" and result["steps_per_s"]["median"] > 0
    assert main(["bench", "--runs", "1", "--seconds", "0.1", "--api", "public"]) == 0
    assert "public API: legal_actions() + apply()" in capsys.readouterr().out
    assert main(["bench", "--api", "fast"]) == 2
    assert "invalid choice: 'fast'" in capsys.readouterr().err


def test_console_script_entry_point() -> None:
    from importlib.metadata import entry_points

    (script,) = [ep for ep in entry_points(group="console_scripts") if ep.name == "endeavor"]
    loaded: Callable[..., int] = script.load()
    assert loaded is main


# --------------------------------------------------------------------------- Exploits
def _spanish_main_active() -> State:
    """The Spanish Main active: P0 has presence in North and South America (a Shield),
    P1 only in North America; P0 holds NA1, P1 holds NA2; P0 may Attack (Barracks)."""
    s = T.fresh(2, exploits=("spanish_main",))
    T.open_region(s, "NA", 0, 1)
    T.open_region(s, "SA", 0)
    T.place(s, 0, "NA1")
    T.place(s, 1, "NA2")
    T.give_building(s, 0, "barracks")
    T.give_discs(s, 0, 3)
    T.at_actions(s, 0)
    return s


def test_exploit_status_and_score_table() -> None:
    s = T.fresh(3, exploits=("spanish_main",))
    assert render.exploit_state(s, 0) == "dormant" and render.shield_holders(s, 0) == []
    s = _spanish_main_active()
    i = T.exploit(s, "spanish_main")
    assert render.shield_holders(s, i) == [0] and render.exploit_state(s, i) == "active"
    console = Console(width=100, file=io.StringIO(), color_system=None)
    console.print(render.score_table(s))
    file = console.file
    assert isinstance(file, io.StringIO)
    lines = file.getvalue().splitlines()
    assert lines[0].startswith("Score if the game ended now")
    rule = next(k for k, line in enumerate(lines) if line.startswith("─"))
    rows = [line.split() for line in lines[rule + 1:] if line.strip()
            and not line.startswith("─")]
    assert rows[0][:3] == ["The", "Spanish", "Main"]  # Exploits score first (R19)
    assert rows[1][0] == "Industry"
    assert rows[-2][0] == "Total" and rows[-1][0] == "Rank"


def test_exploit_ability_in_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _spanish_main_active()
    session, out, _ = _session(s, ["act barracks"], monkeypatch)
    screens = _screens(out)
    last = "\n".join(screens[-1])
    assert "The Spanish Main  NA✓+SA✓  active  Shields P0" in last
    decision = session.state.decision()
    assert decision is not None
    fortify = [o for o in decision.options if o.action.text.startswith("fortify")]
    assert fortify and all(o.action.text in last for o in fortify)


def test_simulate_with_exploits_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--json", "--players", "3", "--games", "3", "--seed", "20",
            "--exploits", "spanish_main", "--pass-weight", "0.2"]
    assert main(argv) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for game in lines:
        config = GameConfig.from_dict(game["config"])
        assert config.exploits == ("spanish_main",)
        assert game["exploits"] == ["spanish_main"]
        state, made = _random_game(config, 0.2)
        assert game["totals"] == [s.total for s in final_scores(state)]
        assert game["decisions"] == made
    assert main(["simulate", "--players", "2", "--games", "2", "--exploits",
                 "spanish_main"]) == 0
    out = capsys.readouterr().out
    assert "2 random games · 2 players · board A · seeds 0-1 · Exploits: spanish_main" in out
    assert "Active at end" in out and "Glory per game" in out


def test_play_auto_with_exploits(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    _no_input(monkeypatch)
    assert main(["play", "--auto", "--players", "2", "--seed", "3",
                 "--exploits", "spanish_main"]) == 0
    out = capsys.readouterr().out
    assert "The Spanish Main" in out and "Fortifications on the tile" in out
    score = out[out.index("Final score"):].splitlines()
    rows = [line.split()[0] for line in score[1:] if line.strip() and "─" not in line]
    assert rows[1:3] == ["The", "Industry"]  # after the header


def test_play_help_mentions_exploit_notation(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    _feed(monkeypatch, ["help", "quit", ""])
    assert main(["play", "--players", "2", "--seed", "1", "--exploits", "spanish_main"]) == 0
    out = capsys.readouterr().out
    assert "Exploit actions are typed as shown in the menu" in out
    assert "Buildings when short of room:" in out  # the legend
    assert "Exploits: The Spanish Main" in out  # the first log line
    assert "The Spanish Main  NA+SA  dormant  Shields —" in out


def test_bench_with_exploits(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "1", "--seconds", "0.1", "--players", "3",
                 "--exploits", "spanish_main", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["exploits"] == "spanish_main"
    assert result["steps_per_s"]["median"] > 0
    assert main(["bench", "--runs", "1", "--seconds", "0.1", "--exploits",
                 "spanish_main"]) == 0
    assert "Exploits: spanish_main" in capsys.readouterr().out


@ALL_BUILT
def test_random_exploits_differ_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--json", "--players", "4", "--games", "4", "--seed", "3",
                 "--exploits", "random"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    drawn = [tuple(game["exploits"]) for game in lines]
    assert len(set(drawn)) > 1 and all(len(set(d)) == 3 for d in drawn)
    for game, ids in zip(lines, drawn, strict=True):
        assert game["config"]["exploits"] == "random"
        state, _ = _random_game(GameConfig.from_dict(game["config"]))
        assert tuple(e.id for e in state.modules) == ids
    assert main(["bench", "--runs", "1", "--seconds", "0.2", "--exploits", "random",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exploits"] == "random"


# --------------------------------------------------------------------------- rulesets
def test_simulate_classic_and_the_silent_fleet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--ruleset", "classic", "--players", "3", "--games", "2",
                 "--json"]) == 0
    games = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [g["config"]["ruleset"] for g in games] == ["classic", "classic"]
    assert all(g["config"]["board"] == "classic" for g in games)
    for g in games:  # the numbers are the engine's own
        state = replay({"format": "endeavor-record", "version": 2, "config": g["config"],
                        "actions": []})
        assert state.rules.discs == 30
    assert main(["simulate", "--players", "2", "--silent-fleet", "--no-token-reaction",
                 "--games", "1", "--json"]) == 0
    options = json.loads(capsys.readouterr().out)["config"]["options"]
    assert options["silent_fleet"] is True and options["no_token_reaction"] is True
    assert options["limited_occupation"] is False


@pytest.mark.parametrize("argv, reason", [
    (["simulate", "--ruleset", "classic", "--players", "2"], "3 to 5 players, not 2"),
    (["simulate", "--ruleset", "classic", "--players", "3", "--exploits", "random"],
     "Exploit"),
    (["simulate", "--silent-fleet"], "2-player variant"),
    (["simulate", "--players", "2", "--limited-occupation"], "silent_fleet"),
    (["bench", "--ruleset", "classic", "--players", "2"], "3 to 5 players"),
    (["simulate", "--ruleset", "classic", "--players", "3", "--board", "A"],
     "board side must be 'classic'"),
])
def test_ruleset_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                     reason: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("endeavor: error: ") and reason in err[0]


def test_play_auto_classic_and_fleet(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    _no_input(monkeypatch)
    assert main(["play", "--auto", "--ruleset", "classic", "--players", "3",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Build phase" in out and "Game over" in out and "Universities" in out
    assert main(["play", "--auto", "--players", "2", "--silent-fleet", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "The Silent Fleet" in out and "Game over" in out


def test_bench_and_replay_classic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--ruleset", "classic", "--players", "3", "--runs", "1",
                 "--seconds", "0.05", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["ruleset"] == "classic" and summary["steps_per_s"]["median"] > 0
    state, _ = _random_game(GameConfig(players=3, ruleset="classic", seed=5))
    path = tmp_path / "classic.json"
    path.write_text(json.dumps(state.record()))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Final score" in out and "Connections" in out


# --------------------------------------------------------------------------- the pager
_FAKE_PAGER = ("import os, sys; open(sys.argv[1], 'w', encoding='utf-8').write("
               "os.environ['LESS'] + '\\n' + sys.stdin.read())")


def test_pager_environment_shows_colours_and_says_how_to_leave() -> None:
    env = cli.pager_environment("Help", {"LESS": "-X", "HOME": "/h"})
    assert env["LESS"].startswith("-R ") and env["LESS"].endswith("$ -X")
    assert "q returns to the game" in env["LESS"] and env["HOME"] == "/h"
    assert env["LESSCHARSET"] == "utf-8"
    assert cli.pager_environment("Help", {"LESSCHARSET": "latin1"})["LESSCHARSET"] == "latin1"
    assert cli.pager_command({"PAGER": ""}) is None
    assert cli.pager_command({"PAGER": "most -s"}) == ["most", "-s"]


def test_log_and_help_page_with_colours_and_say_q_returns(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On a terminal, ``help`` and ``log`` run the pager ($PAGER) with the lines'
    colours as escape codes, ``less`` told to show them (-R) and how to leave."""
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("PAGER", f"{sys.executable} -c \"{_FAKE_PAGER}\" {paged}")
    monkeypatch.delenv("LESS", raising=False)
    out = Console(width=100, file=io.StringIO(), force_terminal=True,
                  color_system="truecolor")
    state = new_game(GameConfig(players=2, seed=1))
    _feed(monkeypatch, ["help", "log"])
    session = PlaySession(state, out, state.current_player, RandomBot(0), {"seat": 0})
    pages = []
    real_run = cli.session.subprocess.run

    def run(*args: Any, **kwargs: Any) -> Any:
        done = real_run(*args, **kwargs)
        pages.append(paged.read_text(encoding="utf-8"))
        return done

    monkeypatch.setattr(cli.session.subprocess, "run", run)
    assert session.run() == 0
    assert len(pages) == 2
    for text, title in zip(pages, ("Help", "The whole game's log"), strict=True):
        less, _, body = text.partition("\n")
        assert less.startswith("-R -Ps") and "q returns to the game" in less
        assert body.splitlines()[0].startswith("\x1b[")  # styled: escape codes
        plain = re.sub(r"\x1b\[[0-9;]*m", "", body)
        assert plain.splitlines()[0] == f"{title} · q returns to the game"
    assert "Commands: help" in pages[0] and "New game" in pages[1]


def test_page_without_a_pager_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    out = Console(width=80, file=io.StringIO(), color_system=None)
    cli.page(out, [render.player_text(1)], "Help", command=["/nonexistent/pager"])
    file = out.file
    assert isinstance(file, io.StringIO)
    assert file.getvalue() == "Help · q returns to the game\nP1\n"
