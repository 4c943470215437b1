"""Post-game review (:mod:`endeavor.analysis.review`, ``endeavor review``): a short fixed record
reviewed with a tiny budget gives the same review in this process, on two worker
processes and on Ray, and the same labels as ``tests/golden/review_2p.txt`` (written by
the pure build; the compiled build must match it); the best move is legal where it is
proposed; a deliberate pass with every building free is a mistake or a blunder; the
JSON round-trips; the command's tables, files, plot and one-line errors.

The record (``tests/fixtures/review_2p.record.json``): a 2-player Age of Sail game,
config seed 3, seat 0 played by ``make("medium", seed=1)`` and seat 1 by
``make("easy", seed=2)``, saved with ``state.record()``. After an intended change of
the review, of the bots or of the evaluation, regenerate the golden file with
``ENDEAVOR_REGEN_GOLDEN=1 pytest tests/test_review.py`` and read the diff.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from endeavor import RecordError, final_scores, replay
from endeavor.analysis import review as R
from endeavor.cli import main
from endeavor.cli.review import progress_line
from endeavor.frames import PH_ACTIONS

FIXTURE = Path(__file__).parent / "fixtures" / "review_2p.record.json"
GOLDEN = Path(__file__).parent / "golden" / "review_2p.txt"
REGEN = os.environ.get("ENDEAVOR_REGEN_GOLDEN") == "1"
#: the tiny search budget of these tests (iterations per decision)
BUDGET = 20
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())


def _short(actions: int) -> dict[str, Any]:
    """The fixture's first ``actions`` actions, as a record."""
    return {**RECORD, "actions": RECORD["actions"][:actions]}


@pytest.fixture(scope="module")
def reviewed() -> R.Review:
    """The whole fixture reviewed in this process, both seats."""
    return R.review(RECORD, iterations=BUDGET, workers=1)


def _golden_text(review: R.Review) -> str:
    lines = [f"# endeavor review of {FIXTURE.name}, {review.iterations} iterations a "
             f"decision ({review.policy} budget): step, round, phase, seat, legal actions, "
             "played | best | glory and win chance lost | label"]
    for d in review.decisions:
        lines.append(f"{d.step:03d} r{d.round} {d.phase} P{d.seat} {d.legal} {d.played} | "
                     f"{d.best} | {d.glory_loss:.4f} {d.win_loss:.4f} | {d.label}")
    for p in review.players:
        lines.append(f"P{p.seat} accuracy {p.accuracy} labels {p.labels} lost "
                     f"{p.glory_lost:.4f} worst {list(p.worst)}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the review
def test_the_labels_match_the_golden_file(reviewed: R.Review) -> None:
    text = _golden_text(reviewed)
    if REGEN:
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "the review changed: see the module docstring"


def test_the_same_review_on_two_worker_processes(reviewed: R.Review) -> None:
    again = R.review(json.dumps(RECORD), iterations=BUDGET, workers=2)
    assert again.to_json() == reviewed.to_json()


def test_every_non_forced_decision_is_reviewed_with_a_legal_best_move(
        reviewed: R.Review) -> None:
    by_step = {d.step: d for d in reviewed.decisions}
    state = replay({**RECORD, "actions": []})
    for k, text in enumerate(RECORD["actions"], 1):
        legal = [a.text for a in state.legal_actions()]
        d = by_step.get(k)
        if len(legal) == 1:
            assert d is None  # forced: skipped
        else:
            assert d is not None, k
            assert (d.seat, d.round, d.legal, d.played) == (
                state.current_player, state.round, len(legal), text)
            assert d.best in legal
            assert d.label in R.LABELS
            assert d.glory_loss >= 0 and d.win_loss >= 0
            assert d.label == R.label_for(d.glory_loss, d.win_loss, d.best == d.played)
            if d.best == d.played:
                assert (d.glory_before, d.win_before) == (d.glory_after, d.win_after)
                assert d.label == "best"
        state.apply(state.legal_actions()[legal.index(text)])
    assert reviewed.finished and reviewed.seats == (0, 1)
    assert reviewed.actions == len(RECORD["actions"])
    assert {d.label for d in reviewed.decisions} >= {"best", "mistake"}


def test_the_summaries_add_up(reviewed: R.Review) -> None:
    scores = [s.total for s in final_scores(replay(RECORD))]
    for p in reviewed.players:
        mine = [d for d in reviewed.decisions if d.seat == p.seat]
        assert p.decisions == len(mine) == sum(p.labels.values())
        assert p.accuracy == round(100 * (p.labels["best"] + p.labels["good"]) / len(mine), 1)
        assert p.glory_lost == pytest.approx(sum(d.glory_loss for d in mine), abs=1e-3)
        assert sum(p.by_phase.values()) == pytest.approx(p.glory_lost, abs=1e-3)
        assert sum(p.by_round.values()) == pytest.approx(p.glory_lost, abs=1e-3)
        worst = [d for d in mine if d.step in p.worst]
        assert len(worst) == len(p.worst) <= R.WORST
        assert all(d.label not in R.ACCURATE for d in worst)
        others = [d.glory_loss for d in mine if d.label not in R.ACCURATE
                  and d.step not in p.worst]
        assert all(x <= min(d.glory_loss for d in worst) for x in others)
        assert p.final == reviewed.final_scores[p.seat]
    assert list(reviewed.final_scores) == scores
    curve = reviewed.curve
    assert curve[0].step == reviewed.decisions[0].step - 1
    assert curve[-1].step == reviewed.actions
    assert curve[-1].glory == tuple(float(x) for x in reviewed.final_scores)
    assert [c.step for c in curve] == sorted(c.step for c in curve)


def test_the_json_round_trips(reviewed: R.Review) -> None:
    text = reviewed.to_json()
    back = R.Review.from_json(text)
    assert back == reviewed
    assert back.to_json() == text
    d = json.loads(text)
    assert d["format"] == "endeavor-review" and d["thresholds"]["mistake"] == {
        "glory_loss_below": 5.0, "win_loss_below": 0.15}
    # the bot and the budget's policy are named, in the data and in the method's words
    assert d["bot"] == "hard" == R.REVIEW_BOT and d["policy"] == "contested"
    assert "the hard bot" in d["method"] and "contested" in d["method"]
    # a review of an older version, without them: the hard bot with a fixed budget
    old = R.Review.from_json(json.dumps({k: v for k, v in d.items()
                                         if k not in ("bot", "policy")}))
    assert (old.bot, old.policy) == ("hard", "fixed")
    with pytest.raises(R.ReviewError, match="not an endeavor review"):
        R.Review.from_json(json.dumps({"format": "endeavor-record"}))
    with pytest.raises(R.ReviewError, match="bad review"):
        R.Review.from_json(json.dumps({**d, "decisions": [{"step": 1}]}))


def test_a_decision_does_not_depend_on_which_seats_or_steps_are_reviewed(
        reviewed: R.Review) -> None:
    steps = [d.step for d in reviewed.decisions if d.seat == 1][5:9]
    alone = R.review(RECORD, seats=[1], iterations=BUDGET, steps=steps)
    assert alone.seats == (1,)
    assert alone.decisions == tuple(d for d in reviewed.decisions if d.step in steps)


def test_the_contested_budget(reviewed: R.Review) -> None:
    """Contested: a decision whose move played is clearly the bot's is settled by the
    first search (a few visits), the others get more; a mistake or a blunder is called
    only after a search of CONFIRM times the budget, which names the same best move as a
    fixed budget of that size (the same tree, searched on); fixed spends the budget."""
    assert reviewed.policy == "contested"
    first = max(1, int(BUDGET * R.FIRST))
    settled = [d for d in reviewed.decisions if 0 < d.search_visits <= first]
    longer = [d for d in reviewed.decisions if d.search_visits > first]
    assert settled and longer
    assert all(d.label == "best" and d.best == d.played for d in settled)
    bad = [d for d in reviewed.decisions if d.label in ("mistake", "blunder")]
    assert bad
    sure = R.review(RECORD, iterations=R.CONFIRM * BUDGET, policy="fixed",
                    steps=[d.step for d in bad])
    assert [d.best for d in sure.decisions] == [d.best for d in bad]
    fixed = R.review(_short(30), iterations=BUDGET, policy="fixed")
    assert fixed.policy == "fixed" and all(
        d.search_visits > first for d in fixed.decisions if d.search_visits)


def test_the_review_and_the_hints_use_the_strongest_bot() -> None:
    from endeavor import bots
    from endeavor.cli import HINT_BOTS, hint_bot_name

    assert bots.STRONGEST in bots.LEVELS and bots.strongest() in bots.NAMES
    assert R.REVIEW_BOT == bots.strongest() == HINT_BOTS[0] == hint_bot_name()
    assert R.review(_short(8), iterations=2).bot == bots.strongest()


def test_the_progress_line() -> None:
    assert progress_line(45, 226, 12.0) == \
        "review: 45/226 decisions (19%), 12 s, about 48 s left"
    assert progress_line(100, 200, 70.0) == \
        "review: 100/200 decisions (50%), 1 min 10 s, about 1 min 10 s left"


def test_passing_with_every_building_free_is_a_mistake_or_a_blunder() -> None:
    """The record is cut at the first decision of round 6's Action phase (the first
    player's first turn: every building free, discs in the Harbor) and ends in a
    pass there."""
    state = replay({**RECORD, "actions": []})
    k = 1
    while not (state.round == 6 and state.phase == PH_ACTIONS):
        state.apply(next(a for a in state.legal_actions()
                         if a.text == RECORD["actions"][k - 1]))
        k += 1
    text = RECORD["actions"][k - 1]
    legal = [a.text for a in state.legal_actions()]
    assert "pass" in legal and len(legal) >= 3 and text != "pass"
    crafted = {**RECORD, "actions": RECORD["actions"][:k - 1] + ["pass"]}
    result = R.review(crafted, iterations=BUDGET, steps=[k])
    (d,) = result.decisions
    assert (d.step, d.played, d.round, d.phase) == (k, "pass", 6, "Actions")
    assert d.best != "pass"
    assert d.label in ("mistake", "blunder")
    assert d.glory_loss >= 2.5
    assert d.glory_after[d.seat] < d.glory_before[d.seat]
    assert not result.finished and result.final_scores == ()
    assert result.player(d.seat).worst == (k,)
    assert result.player(1 - d.seat).decisions == 0


@pytest.mark.parametrize("glory, win, same, label", [
    (9.0, 0.9, True, "best"), (0.0, 0.0, False, "best"), (0.99, 0.0, False, "good"),
    (0.0, 0.029, False, "good"), (1.0, 0.0, False, "inaccuracy"),
    (0.5, 0.05, False, "inaccuracy"), (2.5, 0.0, False, "mistake"),
    (0.1, 0.149, False, "mistake"), (5.0, 0.0, False, "blunder"),
    (0.0, 0.15, False, "blunder"),
])
def test_thresholds(glory: float, win: float, same: bool, label: str) -> None:
    assert R.label_for(glory, win, same) == label


def test_progress_and_bad_settings() -> None:
    calls: list[tuple[int, int]] = []
    result = R.review(_short(12), seats=[0], iterations=5,
                      progress=lambda done, total: calls.append((done, total)))
    total = len(result.decisions)
    assert total and calls == [(i, total) for i in range(total + 1)]
    for kwargs, message in [
        ({"seats": [2]}, "seat 2: the game has 2 players"),
        ({"seats": []}, "no seat to review"),
        ({"iterations": 0}, "1 to 1,000,000,000 iterations"),
        ({"iterations": 1.5}, "iterations"),
        ({"workers": 0}, "workers must be at least 1"),
        ({"backend": "mpi"}, "unknown backend"),
        ({"address": "localhost:6379"}, "ray backend only"),
        ({"steps": [0]}, "step 0: the record has 12 actions"),
        ({"policy": "timed"}, "policy must be one of fixed, contested"),
    ]:
        with pytest.raises(R.ReviewError, match=message):
            R.review(_short(12), **kwargs)
    with pytest.raises(RecordError):
        R.review({**RECORD, "actions": ["pass"]})


def test_a_review_resumes_from_the_decisions_known(reviewed: R.Review) -> None:
    """An interrupted review saved each decision through ``on_decision``; handed back
    as ``known`` they are not computed again, and the review is the same."""
    first = reviewed.decisions[:30]
    computed: list[R.ReviewedDecision] = []
    calls: list[tuple[int, int]] = []
    resumed = R.review(RECORD, iterations=BUDGET, known=first,
                       on_decision=computed.append,
                       progress=lambda done, total: calls.append((done, total)))
    assert resumed.to_json() == reviewed.to_json()
    total = len(reviewed.decisions)
    assert sorted(d.step for d in computed) == [d.step for d in reviewed.decisions[30:]]
    assert calls == [(i, total) for i in range(30, total + 1)]
    # a decision known at a step not reviewed (here: the other seat's) is ignored
    p0 = R.review(RECORD, seats=[0], iterations=BUDGET, steps=[first[0].step, first[1].step],
                  known=first)
    assert p0.decisions == tuple(d for d in first[:2] if d.seat == 0)


def test_ray_gives_the_same_review() -> None:
    pytest.importorskip("ray")
    short = _short(20)
    local = R.review(short, iterations=10)
    on_ray = R.review(short, iterations=10, workers=2, backend="ray")
    assert on_ray.to_json() == local.to_json()


# --------------------------------------------------------------------------- the command
def _write(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


def _no_more(err: str) -> str:
    """stderr without the progress lines a long review prints there without a terminal."""
    return "".join(line for line in err.splitlines(keepends=True)
                   if not line.startswith("review: "))


def test_the_command_prints_the_table_and_the_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], reviewed: R.Review) -> None:
    path = _write(tmp_path, RECORD)
    steps = {d.step for d in reviewed.decisions if d.seat == 0 and d.round <= 1}
    out_file = tmp_path / "review.json"
    assert main(["review", path, "--seat", "0", "--budget", f"{BUDGET}it", "--workers", "1",
                 "--out", str(out_file)]) == 0
    out, err = capsys.readouterr()
    assert _no_more(err) == ""
    flat = " ".join(out.split())
    assert "endeavor review · " in flat and "reviewed P0 · up to 20 iterations" in flat
    assert "a decision of the hard bot" in flat
    for word in ("Step", "Played", "Best", "Lost", "Label", "Accuracy", "Worst steps",
                 "Glory lost by phase: P0", "Saved the review to"):
        assert word in out.replace("Acc. (accuracy)", "Accuracy")
    saved = R.Review.from_json(out_file.read_text())
    assert saved.seats == (0,)
    assert saved.decisions == tuple(d for d in reviewed.decisions if d.seat == 0)
    rows = {int(m.group(1)) for m in re.finditer(r"^\s*(\d+)\s+[01] (?:Setup|Constr\.|Actions)",
                                                  out, flags=re.M)}
    assert steps and steps <= rows


def test_the_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, _short(15))
    assert main(["review", path, "--budget", "5", "--workers", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert _no_more(err) == ""
    result = R.Review.from_json(out)
    assert result == R.review(_short(15), iterations=5)
    assert result.actions == 15 and not result.finished


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           reviewed: R.Review) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib (the plot extra)")
    png = tmp_path / "whole.png"
    R.plot(reviewed, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    path = _write(tmp_path, _short(15))
    png = tmp_path / "review.png"
    assert main(["review", path, "--budget", "5", "--workers", "1", "--plot", str(png)]) == 0
    assert "Saved the plot to" in capsys.readouterr().out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, _short(15))
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    assert main(["review", path, "--plot", str(tmp_path / "p.png")]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", "endeavor: error: --plot needs matplotlib: "
                              "pip install 'endeavor[plot]'\n")


@pytest.mark.parametrize("argv, message", [
    (["missing.json"], "missing.json: No such file or directory"),
    (["corrupt.json"], "corrupt.json: record is not valid JSON"),
    (["illegal.json"], "illegal.json: action #1 ('pass')"),
    (["game.json", "--seat", "2"], "--seat 2: the game has 2 players (seats 0 to 1)"),
    (["game.json", "--seat", "7"], "argument --seat: must be a seat number, 0 to 4, not 7"),
    (["game.json", "--seat", "one"], "argument --seat: must be an integer, not 'one'"),
    (["game.json", "--budget", "0.5s"], "argument --budget: must be iterations like 400 or "
                                        "400it, not '0.5s': a review is reproducible only"),
    (["game.json", "--budget", "0"], "argument --budget: must be 1 to 1,000,000,000"),
    (["game.json", "--budget", "lots"], "argument --budget: must be iterations like 400"),
    (["game.json", "--workers", "0"], "argument --workers: must be 1 to 1,024, not 0"),
    (["game.json", "--backend", "mpi"], "argument --backend: invalid choice: 'mpi'"),
    (["game.json", "--address", "localhost:6379"], "--address needs --backend ray"),
    (["game.json", "--out", "nodir/review.json"], "--out nodir/review.json: there is no "
                                                  "directory 'nodir'"),
    (["game.json", "--out", "."], "--out .: is a directory"),
    (["game.json", "--plot", "review.txt"], "--plot review.txt: the file name must end in "
                                            "one of"),
    (["game.json", "--out", "r.png", "--plot", "r.png"], "--out and --plot name the same file"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          argv: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, _short(10))
    (tmp_path / "corrupt.json").write_text("{not json")
    _write(tmp_path, {**RECORD, "actions": ["pass"]}, "illegal.json")
    assert main(["review", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("endeavor: error: ") and err.count("\n") == 1, err
    assert message in err
    assert "Traceback" not in err


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: endeavor review")
    for word in ("RECORD", "--seat", "--budget", "--workers", "--backend", "--address",
                 "--out", "--plot", "--json", "--quiet"):
        assert word in out
    assert main(["--help"]) == 0
    assert "review" in capsys.readouterr().out
