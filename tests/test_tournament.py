"""``endeavor tournament`` and :mod:`endeavor.analysis.tournament`: fair seating, the table adds
up, the statistics on hand-made results, the same games whatever the workers or the
backend, the JSON output (whose records replay to the saved scores), the plot, the
command line end to end and its bad inputs."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest

from endeavor import GameConfig, bots, final_scores, replay
from endeavor.actions import Action
from endeavor.analysis import tournament as T
from endeavor.analysis.tournament import GameResult, TournamentError, run_tournament
from endeavor.cli import main
from endeavor.state import State


def _result(index: int, seating: list[str], scores: list[int], ranks: list[int]) -> GameResult:
    """A hand-made game result."""
    n = len(seating)
    return GameResult(index=index, block=index // n, seed=index // n, seating=tuple(seating),
                      bot_seeds=tuple(range(n)), scores=tuple(scores), ranks=tuple(ranks),
                      decisions=10 * n, moves=(10,) * n, think=(0.5,) * n, exploits=(),
                      record={})


def _comparable(result: T.TournamentResult) -> list[dict[str, Any]]:
    """The games without the measured thinking times (the only part that may differ)."""
    games = [g.to_dict() for g in result.games]
    for g in games:
        del g["think_seconds"]
    return games


# --------------------------------------------------------------------------- budgets
@pytest.mark.parametrize("text, budget", [
    ("0.5s", {"seconds": 0.5}), ("2S", {"seconds": 2.0}), ("800", {"iterations": 800}),
    ("800it", {"iterations": 800}), (" 12 ", {"iterations": 12}),
    ("0.5s-cpu", {"seconds": 0.5, "clock": "cpu"}), ("1S-CPU", {"seconds": 1.0, "clock": "cpu"})])
def test_parse_budget(text: str, budget: dict[str, Any]) -> None:
    assert T.parse_budget(text) == budget
    assert T.parse_budget(T.budget_text(budget)) == budget


@pytest.mark.parametrize("text", ["", "s", "0s", "-1s", "nans", "infs", "1e9s", "0", "-5",
                                  "1.5", "800x", "it", "2000000000", "s-cpu", "0s-cpu",
                                  "800-cpu", "1s-cpux", "1s-gpu", "-cpu"])
def test_bad_budget(text: str) -> None:
    with pytest.raises(TournamentError, match="budget"):
        T.parse_budget(text)


def test_budget_goes_only_to_the_bots_that_take_one() -> None:
    entrants = T.resolve_bots(["mcts", "random", "mcts:3", "random"], budget="5")
    assert [(e.label, e.name, dict(e.budget)) for e in entrants] == [
        ("mcts", "mcts", {"iterations": 5}), ("random", "random", {}),
        ("mcts:3it", "mcts", {"iterations": 3}), ("random", "random", {})]
    with pytest.raises(TournamentError, match="does not take the budget"):
        T.resolve_bots(["random:5"])
    with pytest.raises(TournamentError, match="unknown bot 'nobody'"):
        T.resolve_bots(["nobody"])


# --------------------------------------------------------------------------- statistics
def test_wilson_interval_known_values() -> None:
    low, high = T.wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    low, high = T.wilson(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    assert T.wilson(5, 5)[1] == 1.0
    assert T.wilson(0, 0) == (0.0, 1.0)
    low, high = T.wilson(2.5, 10)  # shared wins are fractions
    assert low < 0.25 < high


def test_shared_first_place_is_split() -> None:
    assert T.game_shares([1, 1, 3, 4]) == [0.5, 0.5, 0.0, 0.0]
    assert T.game_shares([2, 1, 3]) == [0.0, 1.0, 0.0]
    assert T.game_shares([1, 1, 1]) == [pytest.approx(1 / 3)] * 3


def test_bradley_terry_recovers_known_strengths() -> None:
    # a beats b 3 times out of 4: odds 3, i.e. 400 log10(3) Elo points apart
    ratings = T.bradley_terry({"a": {"b": [30, 40]}, "b": {"a": [10, 40]}}, ["a", "b"],
                              prior=0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3))
    assert (ratings["a"] + ratings["b"]) / 2 == pytest.approx(1500)
    # three bots whose results are exactly those of strengths 4 : 2 : 1
    strength = {"x": 4.0, "y": 2.0, "z": 1.0}
    pairs = {a: {b: [100 * sa / (sa + strength[b]), 100.0] for b in strength if b != a}
             for a, sa in strength.items()}
    ratings = T.bradley_terry(pairs, ["x", "y", "z"], prior=0)
    step = 400 * math.log10(2)
    assert ratings["x"] - ratings["y"] == pytest.approx(step)
    assert ratings["y"] - ratings["z"] == pytest.approx(step)
    assert ratings["y"] == pytest.approx(1500)


def test_a_bot_that_always_wins_gets_a_finite_rating() -> None:
    ratings = T.bradley_terry({"a": {"b": [20, 20]}, "b": {"a": [0, 20]}}, ["a", "b"])
    # one virtual draw: 20.5 wins to 0.5, odds 41
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(41))
    assert T.bradley_terry({}, ["solo"]) == {"solo": 1500}


def test_standings_on_hand_made_results() -> None:
    games = [_result(0, ["a", "b", "b"], [30, 30, 20], [1, 1, 3]),
             _result(1, ["b", "a", "b"], [25, 20, 10], [1, 2, 3]),
             _result(2, ["b", "b", "a"], [10, 12, 40], [3, 2, 1])]
    rows = {r.bot: r for r in T.standings(games)}
    assert rows["a"].games == 3 and rows["b"].games == 6
    assert rows["a"].wins == 1.5 and rows["b"].wins == 1.5
    assert sum(r.wins for r in rows.values()) == len(games)
    assert rows["a"].win_share == 0.5 and rows["b"].win_share == 0.25
    assert rows["a"].mean_score == pytest.approx(30) and rows["a"].mean_rank == pytest.approx(4 / 3)
    assert rows["a"].seats == (1, 1, 1) and rows["b"].seats == (2, 2, 2)
    assert rows["a"].seconds_per_move == 0.05
    pairs = T.pairwise(games)
    # a against each b seat: game 0 a draw and a win, game 1 a loss and a win, game 2 two wins
    assert pairs["a"]["b"] == [4.5, 6.0] and pairs["b"]["a"] == [1.5, 6.0]
    assert rows["a"].rating > 1500 > rows["b"].rating
    assert [r.bot for r in T.standings(games)] == ["a", "b"]  # best rating first


# --------------------------------------------------------------------------- running
def test_seats_rotate_within_each_deal() -> None:
    entrants = T.resolve_bots(["random"] * 3)
    plan = T.seat_plan(entrants, 2)
    assert [index for index, _, _ in plan] == list(range(6))
    assert [who for _, _, who in plan[:3]] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    assert plan[3] == (3, 1, (0, 1, 2))


def test_the_table_adds_up_and_seats_are_balanced() -> None:
    result = run_tournament(["random", "mcts:2", "random", "random"], games=6, seed=5,
                            exploits="random")
    assert len(result.games) == 8  # rounded up to whole blocks of 4
    assert result.settings["games_requested"] == 6 and result.settings["blocks"] == 2
    assert [g.index for g in result.games] == list(range(8))
    assert [g.seed for g in result.games] == [5] * 4 + [6] * 4
    for g in result.games:
        assert sorted(g.seating) == ["mcts:2it", "random", "random", "random"]
        assert g.scores == tuple(s.total for s in final_scores(replay(g.record)))
        assert g.decisions == sum(g.moves) == len(g.record["actions"])
        assert len(g.exploits) == 3
    seeds = [s for g in result.games for s in g.bot_seeds]
    assert len(set(seeds)) == len(seeds)
    rows = {r.bot: r for r in result.table}
    assert rows["mcts:2it"].games == 8 and rows["random"].games == 24
    assert rows["mcts:2it"].seats == (2, 2, 2, 2) and rows["random"].seats == (6, 6, 6, 6)
    assert sum(r.wins for r in rows.values()) == pytest.approx(8)
    assert {r.bot: r.budget for r in result.table} == {"mcts:2it": "2it", "random": ""}


def test_self_play_and_other_rulesets() -> None:
    classic = run_tournament("random", games=3, seed=2, players=3, ruleset="classic")
    assert classic.settings["config"]["ruleset"] == "classic"
    assert [r.seats for r in classic.table] == [(3, 3, 3)]
    fleet = run_tournament(["random", "random"], games=2, seed=2,
                           options={"silent_fleet": True, "building_shortage": True})
    assert all(g.record["config"]["options"]["silent_fleet"] for g in fleet.games)
    assert sum(r.wins for r in fleet.table) == 2


def test_two_workers_play_the_same_games_as_one() -> None:
    args: dict[str, Any] = {"bots": ["random", "random", "random"], "games": 6, "seed": 11,
                            "exploits": "random", "board": "B"}
    one = run_tournament(**args, workers=1)
    two = run_tournament(**args, workers=2)
    assert _comparable(one) == _comparable(two)
    assert [r.to_dict()["wins"] for r in one.table] == [r.to_dict()["wins"] for r in two.table]
    other = run_tournament(**{**args, "seed": 12}, workers=1)
    assert _comparable(other) != _comparable(one)


def test_progress_callbacks() -> None:
    seen: list[Any] = []
    run_tournament(["random", "random"], games=3, seed=0, on_start=seen.append,
                   on_game=lambda g: seen.append(g.index))
    assert seen[0] == 4 and sorted(seen[1:]) == [0, 1, 2, 3]


class IllegalBot:
    """Always plays "pass", legal or not."""

    name = "illegal"

    def choose(self, state: State) -> Action:
        return Action("pass")


def make_with_illegal(name: str, seed: int = 0, **budget: Any) -> Any:
    """The standard bots, and "illegal" (module level: worker processes import it)."""
    return IllegalBot() if name == "illegal" else bots.make(name, seed, **budget)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_plays_an_illegal_action_is_named(workers: int) -> None:
    with pytest.raises(TournamentError,
                       match=r"^game \d+ \(seed 0\), seat \d \(illegal\), decision \d+: "
                             r"the bot chose an illegal action: "):
        run_tournament(["random", "illegal"], games=2, seed=0, workers=workers,
                       factory=make_with_illegal)
    with pytest.raises(TournamentError, match="unknown bot 'illegal'"):
        run_tournament(["random", "illegal"], games=2)


@pytest.mark.parametrize("kwargs, message", [
    ({"bots": ["random", "nobody"]}, "unknown bot 'nobody'"),
    ({"bots": ["random", "random"], "players": 3}, "2 bots for 3 players"),
    ({"bots": ["random"] * 2, "ruleset": "classic"}, "3 to 5 players, not 2"),
    ({"bots": ["random"] * 6}, "2 to 5 players, not 6"),
    ({"bots": ["random", ""]}, "one bot per seat"),
    ({"bots": ["random"] * 2, "games": 0}, "at least 1"),
    ({"bots": ["random"] * 2, "workers": 0}, "workers must be at least 1"),
    ({"bots": ["random"] * 2, "backend": "mpi"}, "unknown backend"),
    ({"bots": ["random"] * 2, "address": "localhost:6379"}, "ray backend only"),
    ({"bots": ["random"] * 2, "budget": "fast"}, "bad budget"),
])
def test_bad_settings_fail_before_any_game(kwargs: dict[str, Any], message: str) -> None:
    args = {"games": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        run_tournament(**args)


# --------------------------------------------------------------------------- output
def test_json_output_and_its_records_replay(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.json"
    assert main(["tournament", "--bots", "random,mcts:2,random", "--games", "3",
                 "--seed", "4", "--workers", "1", "--exploits", "random", "--out",
                 str(out)]) == 0
    stdout, stderr = capsys.readouterr()
    assert stderr == ""  # no progress bar when stderr is not a terminal
    assert "Saved the table and 3 games" in stdout
    data = json.loads(out.read_text())
    assert data["format"] == "endeavor-tournament" and data["version"] == 1
    assert data["settings"]["bots"] == ["random", "mcts:2it", "random"]
    assert data["settings"]["seed"] == 4 and data["settings"]["players"] == 3
    summary = {row["bot"]: row for row in data["summary"]}
    assert set(summary) == {"random", "mcts:2it"}
    assert summary["random"]["games"] == 6 and summary["mcts:2it"]["games"] == 3
    assert sum(row["wins"] for row in data["summary"]) == pytest.approx(3)
    assert set(summary["random"]) >= {"win_share", "ci95", "mean_score", "mean_rank",
                                      "rating", "seats"}
    assert [g["index"] for g in data["games"]] == [0, 1, 2]
    for g in data["games"]:
        state = replay(g["record"])
        assert state.is_over and state.config == GameConfig.from_dict(g["record"]["config"])
        assert [s.total for s in final_scores(state)] == g["scores"]
        assert [s.rank for s in final_scores(state)] == g["ranks"]
        assert g["decisions"] == len(g["record"]["actions"])
        assert g["seed"] == 4 and sorted(g["seating"]) == ["mcts:2it", "random", "random"]
    again = T.TournamentResult.from_dict(data)
    assert [r.to_dict() for r in again.table] == data["summary"]
    record = tmp_path / "game.json"
    record.write_text(json.dumps(data["games"][1]["record"]))
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    shown = capsys.readouterr().out
    assert "Final position" in shown


def test_a_stopped_tournament_resumes_and_grows(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """--out is written after every game; --resume keeps the games a stopped run saved
    and plays the others, the same games a run without a stop plays; more games extend
    it; other settings are refused, before any game."""
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    argv = ["tournament", "--bots", "mcts:3,greedy", "--seed", "2", "--workers", "1",
            "--quiet"]
    assert main([*argv, "--games", "4", "--out", str(whole)]) == 0
    data = json.loads(whole.read_text())
    played_before = [g["index"] for g in data["games"]]
    data["games"] = data["games"][:1]  # as a run stopped after its first game left it
    part.write_text(json.dumps(data))
    capsys.readouterr()
    assert main([*argv, "--games", "4", "--workers", "2", "--resume", str(part)]) == 0
    stdout, stderr = capsys.readouterr()
    assert "1 of 4 games were played already" in stderr and "Saved the table and 4" in stdout
    ours = json.loads(part.read_text())["games"]  # saved to the --resume file again

    def same(g: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in g.items() if k != "think_seconds"}
    assert played_before == [0, 1, 2, 3]
    assert [same(g) for g in ours] == [same(g) for g in json.loads(whole.read_text())["games"]]
    grown = tmp_path / "grown.json"
    assert main([*argv, "--games", "6", "--resume", str(part), "--out", str(grown)]) == 0
    assert [g["index"] for g in json.loads(grown.read_text())["games"]] == list(range(6))
    assert [same(g) for g in json.loads(grown.read_text())["games"][:4]] == [same(g) for g in ours]
    capsys.readouterr()
    for other, message in ((["--seed", "3"], "other settings (seed 2 there, 3 here"),
                           (["--budget", "5"], "other settings"),
                           (["--games", "2"], "its game 2 is not a game of this tournament")):
        before = part.read_text()
        assert main([*argv[:-1], "--games", "4", *other, "--resume", str(part)]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and part.read_text() == before


@pytest.mark.parametrize("content, message", [
    (None, "there is no such file"), ("{", "not JSON"), ("[1]", "not a tournament file"),
    ('{"format": "x"}', "not an endeavor-tournament file"),
    ('{"format": "endeavor-tournament"}', "a damaged tournament file")])
def test_resume_of_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                              content: str | None, message: str) -> None:
    path = tmp_path / "r.json"
    if content is not None:
        path.write_text(content)
    assert main(["tournament", "--bots", "random,random", "--games", "2",
                 "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"endeavor: error: --resume {path}: ") and message in err


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "random", "--players", "3", "--games", "4",
                 "--seed", "1", "--workers", "1", "--ruleset", "classic"]) == 0
    stdout, stderr = capsys.readouterr()
    assert "6 games rather than 4" in stderr and "\n" == stderr[-1]
    assert "6 games (2 deals × 3 seatings) · 3 players · classic" in stdout
    row = next(line for line in stdout.splitlines() if line.strip().startswith("random"))
    fields = row.split()
    assert fields[:4] == ["random", "18", "6", "33.3%"]  # no Budget column: no budget
    assert "Seat-games per seat: random 6/6/6" in stdout


def test_plot_is_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "shares.png"
    assert main(["tournament", "--bots", "random,mcts:2", "--games", "2", "--workers", "1",
                 "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Saved the plot" in capsys.readouterr().out


def test_plot_without_matplotlib_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    assert main(["tournament", "--bots", "random,random", "--games", "2",
                 "--plot", str(tmp_path / "p.png")]) == 2
    err = capsys.readouterr().err
    assert err == "endeavor: error: --plot needs matplotlib: pip install 'endeavor[plot]'\n"


@pytest.mark.parametrize("argv, message", [
    (["--bots", "random,nobody"], "unknown bot 'nobody'"),
    (["--bots", "random,random", "--budget", "fast"], "bad budget 'fast'"),
    (["--bots", "random,random", "--budget", "0s"], "seconds must be more than 0"),
    (["--bots", "random:5,random"], "does not take the budget"),
    (["--bots", "random,random", "--games", "0"], "--games: must be 1 to"),
    (["--bots", "random,random", "--workers", "0"], "--workers: must be 1 to"),
    (["--bots", "random,random", "--players", "3"], "2 bots for 3 players"),
    (["--bots", "random", "--players", "7"], "2 to 5 players, not 7"),
    (["--bots", "random"], "--players N"),
    (["--bots", "random,random", "--ruleset", "classic"], "3 to 5 players, not 2"),
    (["--bots", "random,random", "--exploits", "nope"], "unknown Exploit 'nope'"),
    (["--bots", "random,random", "--address", "localhost:1"], "--address needs --backend"),
    (["--bots", "random,random", "--backend", "mpi"], "invalid choice: 'mpi'"),
    (["--bots", "random,random", "--out", "/nonexistent/dir/r.json"], "there is no directory"),
    (["--bots", "random,random", "--out", "."], "is a directory"),
    (["--bots", "random,random", "--plot", "shares.txt"], "must end in one of"),
    (["--games", "2"], "the following arguments are required: --bots"),
])
def test_cli_bad_input(argv: list[str], message: str,
                       capsys: pytest.CaptureFixture[str]) -> None:
    if "--plot" in argv:
        pytest.importorskip("matplotlib")
    assert main(["tournament", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("endeavor: error: ") and captured.err.count("\n") == 1
    assert message in captured.err


def test_cli_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--bots", "--games", "--seed", "--players", "--ruleset", "--board",
                   "--exploits", "--phase-order", "--silent-fleet", "--budget", "--workers",
                   "--resume", "--backend", "--address", "--out", "--plot", "--quiet"):
        assert option in text
    assert "Wilson" in text and "Bradley-Terry" in text


# --------------------------------------------------------------------------- Ray
def test_ray_backend_plays_the_same_games() -> None:
    pytest.importorskip("ray")
    args: dict[str, Any] = {"bots": ["random", "mcts:2", "random"], "games": 3, "seed": 8}
    local = run_tournament(**args, workers=1)
    on_ray = run_tournament(**args, workers=2, backend="ray")
    assert on_ray.settings["backend"] == "ray"
    assert _comparable(on_ray) == _comparable(local)
