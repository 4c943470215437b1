"""The command line, run in-process through ``main([...])``: every subcommand, its
``--help``, and the one-line, exit-code-2 errors on bad input. Numbers the CLI prints
are checked against the engine driven directly with the same seeds."""

from __future__ import annotations

import builtins
import io
import itertools
import json
import statistics
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from endeavor import GameConfig, State, final_scores, new_game, render, replay
from endeavor import data as D
from endeavor.bots import RandomBot
from endeavor.cli import _events, main
from endeavor.config import EXPLOIT_IDS
from endeavor.exploits import REGISTRY
from endeavor.state import F_EFFECT
from scenario import at_actions, exploit, fresh, give_discs, open_region, place, sea

#: "random" draws from all 15 Exploits, so it needs every module built
ALL_BUILT = pytest.mark.skipif(len(REGISTRY) < len(EXPLOIT_IDS),
                               reason="not every Exploit module is built yet")


def _random_game(config: GameConfig, pass_weight: float = 1.0) -> tuple[State, int]:
    """What ``simulate`` plays for ``config``: (final state, decisions made)."""
    state = new_game(config)
    return state, RandomBot(config.seed, pass_weight).play_out(state)


def _feed(monkeypatch: pytest.MonkeyPatch, answers: Iterable[str]) -> list[str]:
    """Answer ``input()`` with ``answers`` (EOF when they run out); return the prompts."""
    prompts: list[str] = []
    it: Iterator[str] = iter(answers)

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


def _no_input(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(prompt: str = "") -> str:
        raise AssertionError(f"unexpected prompt {prompt!r}")

    monkeypatch.setattr(builtins, "input", fail)


# --------------------------------------------------------------------------- help, errors
@pytest.mark.parametrize("command, expected", [
    ([], ["simulate", "play", "replay", "bench"]),
    (["simulate"], ["--players", "--games", "--seed", "--board", "--json", "--phase-order",
                    "--pass-weight", "--exploits", "random", "spanish_main"]),
    (["play"], ["--seat", "--bot-seed", "--auto", "save FILE", "--exploits", "random"]),
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
    (["simulate", "--games", "0"], "--games: must be at least 1"),
    (["simulate", "--pass-weight", "2"], "--pass-weight: must be between 0 and 1"),
    (["simulate", "--phase-order", "sideways"], "--phase-order: invalid choice"),
    (["play", "--players", "3", "--seat", "3"], "--seat must be 0 to 2, not 3"),
    (["replay", "no/such/file.json"], "No such file or directory"),
    (["bench", "--players", "1"], "2 to 5 players, not 1"),
    (["bench", "--seconds", "0"], "--seconds: must be positive"),
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
    before, after, mid = tmp_path / "before.json", tmp_path / "after.json", tmp_path / "mid.json"
    script = [f"save {before}", "xyz", "999", "0", "attack EU1", "", "save", "help", "board",
              f"save {after}", "START  Merchant-Dock"]
    answers = itertools.chain(script, ["1"] * 25, [f"save {mid}"], itertools.repeat("1"))
    prompts = _feed(monkeypatch, answers)
    assert main(["play", "--players", "3", "--seat", "1", "--seed", "5", "--bot-seed", "9"]) == 0
    out = capsys.readouterr().out

    # invalid input is rejected with its reason and leaves the game as it was
    assert "cannot parse 'xyz': unknown verb 'xyz'" in out
    assert "No menu entry 999: choose 1 to 2." in out
    assert "No menu entry 0: choose 1 to 2." in out
    assert "attack EU1 is illegal" in out
    assert "usage: save FILE" in out
    assert "Commands: help · board (redraw) · save FILE" in out
    assert before.read_text() == after.read_text()
    assert all(prompt.startswith("P1 [") for prompt in prompts)

    # the notation was accepted, then "1" played the game to its end
    record = json.loads(mid.read_text())
    assert record["config"] == GameConfig(players=3, seed=5).to_dict()
    crown = replay(record, upto=0).crown
    assert record["actions"][(1 - crown) % 3] == "start merchant-dock"
    assert "Final score" in out
    assert "Total" in out and "Rank" in out
    assert "Winner" in out
    assert "Recent moves" in out

    assert main(["replay", str(mid)]) == 0
    assert "the game is not finished" in capsys.readouterr().out


def test_play_menu_numbers_follow_legal_actions(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    state = new_game(GameConfig(players=2, seed=1))
    bot = RandomBot(1)  # what the CLI's bots do before seat 0 first decides
    while state.current_player != 0:
        state.apply(bot.choose(state))
    first = state.legal_actions()
    _feed(monkeypatch, ["2", "quit"])
    assert main(["play", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert f" 2 {first[1].text} " in out
    assert f"P0 {first[1].text}" in out  # logged after the choice
    assert "Game left unfinished." in out


def test_play_end_of_input_leaves_politely(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    prompts = _feed(monkeypatch, [])
    assert main(["play", "--seed", "2"]) == 0
    assert len(prompts) == 1
    assert "End of input: the game is left unfinished." in capsys.readouterr().out


def test_play_auto_is_the_bot_game(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    _no_input(monkeypatch)
    assert main(["play", "--auto", "--players", "2", "--seed", "3", "--pass-weight", "1"]) == 0
    out = capsys.readouterr().out
    state, made = _random_game(GameConfig(players=2, seed=3))
    best = max(s.total for s in final_scores(state))
    assert f"with {best} glory" in out
    actions = [line for line in out.splitlines() if line.startswith(("P0 ", "P1 "))]
    assert len(actions) == made
    assert "Round 7: Construction" in out
    assert "Game over" in out
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
    assert [line.split()[1:] for line in out.splitlines() if line.startswith(" Total")] == \
        [[str(s.total) for s in scores]]
    assert "Winner" in out


def test_replay_step_lists_every_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    record = _write_record(path, 3, 4, upto=40)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a TTY: no waiting
    assert main(["replay", str(path), "--step"]) == 0
    out = capsys.readouterr().out.splitlines()
    numbered = [line for line in out if line[:4].strip().isdigit()]
    assert [int(line.split()[0]) for line in numbered] == list(range(1, 41))
    for line, action in zip(numbered, record["actions"], strict=True):
        assert line.endswith(f" {action}")
    assert numbered[0].split()[1:4] == [f"P{replay(record, upto=0).crown}", "setup", "Setup"]
    assert "Round 1: Construction" in "\n".join(out)
    assert any(line.startswith("Position after 40 actions") for line in out)


@pytest.mark.parametrize("content, reason", [
    ("{not json", "record is not valid JSON"),
    ('{"format": "chess"}', "not an endeavor record"),
    (None, "action #5 ('attack FE9')"),
])
def test_replay_corrupt_record(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               content: str | None, reason: str) -> None:
    path = tmp_path / "bad.json"
    if content is None:
        record = _write_record(path, 2, 1, upto=10)
        record["actions"][4] = "attack FE9"
        content = json.dumps(record)
    path.write_text(content)
    assert main(["replay", str(path), "--step"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"endeavor: error: {path}: ")
    assert reason in captured.err
    assert captured.err.count("\n") == 1


# --------------------------------------------------------------------------- bench
def test_bench_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "1", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    for label in ("decisions/s", "games/s", "copy()/s", "bytes per state",
                  "Mean decisions per game"):
        assert label in out


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--runs", "2", "--seconds", "0.1", "--players", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["runs"], result["seconds"], result["players"]) == (2, 0.1, 2)
    for key in ("steps_per_s", "games_per_s", "copies_per_s", "bytes_per_state"):
        stats = result[key]
        assert 0 < stats["min"] <= stats["median"] <= stats["max"]
    assert result["decisions_per_game"] > 20


def test_console_script_entry_point() -> None:
    from importlib.metadata import entry_points

    (script,) = [ep for ep in entry_points(group="console_scripts") if ep.name == "endeavor"]
    loaded: Callable[..., int] = script.load()
    assert loaded is main


# --------------------------------------------------------------------------- Exploits
def _text(renderable: Any, width: int = 160) -> str:
    """Render a Rich renderable to plain text."""
    from rich.console import Console

    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(renderable)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def _spanish_main_active() -> State:
    """The Spanish Main active: P0 has presence in North and South America (a Shield),
    P1 only in North America; P0 holds NA1, P1 holds NA2; P0 is about to Attack."""
    s = fresh(2, exploits=("spanish_main",))
    open_region(s, "NA", 0, 1)
    open_region(s, "SA", 0)
    place(s, 0, "NA1")
    place(s, 1, "NA2")
    give_discs(s, 0, 3)
    at_actions(s, 0)
    s.stack[-1] = (F_EFFECT, 0, D.SINGLE, D.ATTACK, -1, -1, -1, 0)  # an Attack source
    s._legal = None
    return s


def test_exploits_view_shows_regions_state_shields_and_tile() -> None:
    s = fresh(3, exploits=("spanish_main",))
    out = _text(render.game_view(s))
    assert "The Spanish Main" in out and "dormant" in out
    assert "North America + South America" in out
    assert "8 Fortifications on the tile" in out
    s = _spanish_main_active()
    i = exploit(s, "spanish_main")
    assert render.shield_holders(s, i) == [0] and render.exploit_state(s, i) == "active"
    row = next(line for line in _text(render.exploits_view(s)).splitlines()
               if "The Spanish Main" in line)
    assert "North America ✓ + South America ✓" in row
    assert "active" in row and "P0" in row and "P1" not in row
    assert s.ex[i].describe(s, i)[:20] in row
    # no Exploits: no Exploit table at all
    assert "Exploit" not in _text(render.game_view(fresh(2)))


def test_exploit_menu_hints_and_decision_text() -> None:
    s = _spanish_main_active()
    texts = [a.text for a in s.legal_actions()]
    assert "fortify NA1" in texts and "fortify NA2" not in texts
    menu = _text(render.menu_view(s, s.legal_actions()))
    assert "fortify NA1 The Spanish Main: instead of Attack" in menu
    assert "attack NA2 " in menu  # normal actions keep their hints
    s.apply("fortify NA1")
    board = _text(render.board_view(s))
    assert "NA1¹:P0[F]" in board
    assert "fortified: NA1:P0" in _text(render.exploits_view(s))


def test_exploit_activation_is_logged() -> None:
    s = fresh(2, exploits=("spanish_main",))
    open_region(s, "NA", 0)
    sea(s, 1, "NA")
    before = s.copy()
    open_region(s, "SA", 1)
    events = _events(before, s)
    assert "Exploit The Spanish Main is active; Shields: P1" in events
    assert any(e.startswith("South America opens") for e in events)


def test_score_table_lists_exploits_first() -> None:
    s = _spanish_main_active()
    s.apply("fortify NA1")
    lines = [line.split() for line in _text(render.score_table(s)).splitlines()]
    named = [line for line in lines
             if line and not line[0].startswith(("P", "Final", "─"))]
    assert named[0][:3] == ["The", "Spanish", "Main"]
    assert named[0][3:] == ["1", "0"]  # P0 scores its fortified NA1 (G1); P1 no Shield
    assert named[1][0] == "Industry"


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
    _feed(monkeypatch, ["help", "quit"])
    assert main(["play", "--players", "2", "--seed", "1", "--exploits", "spanish_main"]) == 0
    out = capsys.readouterr().out
    assert "Exploit actions are typed as shown in the menu" in out
    assert render.MARK_LEGEND in out
    assert "Exploits: The Spanish Main" in out  # the first log line


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
        assert tuple(e.id for e in state.ex) == ids
    assert main(["bench", "--runs", "1", "--seconds", "0.2", "--exploits", "random",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exploits"] == "random"


def test_random_exploits_before_every_module_is_built(
        capsys: pytest.CaptureFixture[str]) -> None:
    """'random' draws among all 15; with a module missing the draw may fail, then as a
    one-line error (exit 2), never a traceback."""
    status = main(["simulate", "--games", "3", "--exploits", "random"])
    err = capsys.readouterr().err
    if len(REGISTRY) < len(EXPLOIT_IDS) and status:
        assert status == 2 and "not built yet" in err and err.count("\n") == 1
    else:
        assert status == 0
