"""The expert bot: its policy/value network (shapes, masking, the weights
file and the refusal of a file made for another version), its PUCT max-n search
(legal moves in every ruleset and option, the state untouched, reproducible, budgets
checked), its place among the bots, and ``endeavor train`` (a tiny run on local
workers and on a local Ray instance ending in a loadable weights file, resuming, bad
input).

Most tests use a tiny network with fresh weights (``hidden=(16,)``): the rules of the
search and of the file do not depend on what the weights learned. The shipped weights
are tested where they are present."""

from __future__ import annotations

import io
import json
import math
import time
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from endeavor import GameConfig, final_scores, new_game  # noqa: E402
from endeavor import bots as B  # noqa: E402
from endeavor.bots.expert import (  # noqa: E402
    MIX,
    ExpertBot,
    make_expert,
    mix_for,
    trained_players,
    weights_path,
)
from endeavor.bots.net import SEATS, Net, NetError  # noqa: E402
from endeavor.config import EXPLOIT_IDS  # noqa: E402
from endeavor.rl import NUM_ACTIONS, OBSERVATION_VERSION, encode, index_of  # noqa: E402
from endeavor.state import State  # noqa: E402

CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 2, "exploits": "random", "options": {"phase_order": "by_player"}},
    {"players": 4, "exploits": "random"},
    {"players": 5, "board": "A", "options": {"plus_same_region": True}},
    {"players": 3, "ruleset": "classic"},
    {"players": 4, "ruleset": "classic", "options": {"phase_order": "by_player"}},
    {"players": 2, "options": {"silent_fleet": True, "limited_occupation": True,
                               "no_token_reaction": True, "building_shortage": True}},
    {"players": 2, "exploits": "random", "options": {"silent_fleet": True}},
] + [{"players": 4, "exploits": EXPLOIT_IDS[i:i + 3]} for i in range(0, 15, 3)]
IDS = [",".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS]


@pytest.fixture(scope="module")
def tiny() -> Net:
    return Net.new(hidden=(16,), seed=3)


def _position(players: int = 4, seed: int = 2, steps: int = 25) -> State:
    state = new_game(GameConfig(players=players, seed=seed, exploits="random"))
    bot = B.make("greedy", seed=1)
    for _ in range(steps):
        state.apply(bot.choose(state))
    return state


# --------------------------------------------------------------------------- the net
def test_forward_shapes_and_sums(tiny: Net) -> None:
    for players in (2, 4, 5):
        state = _position(players)
        p = state.current_player
        assert p is not None
        legal = np.array([index_of(c) for c in state.legal_codes()])
        priors, values = tiny.evaluate(encode(state, p), legal, players)
        assert priors.shape == (len(legal),) and values.shape == (players,)
        assert priors.dtype == np.float32 and values.dtype == np.float32
        assert math.isclose(float(priors.sum()), 1.0, rel_tol=1e-5)
        assert math.isclose(float(values.sum()), 1.0, rel_tol=1e-5)
        assert (priors > 0).all() and (values > 0).all()


def test_illegal_actions_never_get_probability(tiny: Net) -> None:
    state = _position()
    p = state.current_player
    assert p is not None
    codes = state.legal_codes()
    legal = np.array([index_of(c) for c in codes])
    loud = tiny.copy()
    illegal = np.setdiff1d(np.arange(NUM_ACTIONS), legal)
    loud.params["bp"][illegal] = 1e4  # every illegal action far more likely, if it counted
    before, _ = tiny.evaluate(encode(state, p), legal, state.n)
    after, _ = loud.evaluate(encode(state, p), legal, state.n)
    assert np.allclose(before, after)
    # the search's priors are per legal code, and so are its children
    bot = ExpertBot(1, iterations=30, weights=loud)
    got, priors, values = bot.evaluate(state)
    assert got == codes and len(priors) == len(codes)
    assert all(r.action.code in codes for r in bot.analyse(state, top=100))


def test_values_are_seat_rotated_to_absolute_seats(tiny: Net) -> None:
    state = _position(players=3)
    p = state.current_player
    assert p is not None
    legal = np.array([index_of(c) for c in state.legal_codes()])
    _, rel = tiny.evaluate(encode(state, p), legal, 3)
    _, _, values = ExpertBot(0, iterations=1, weights=tiny).evaluate(state)
    assert [values[(p + k) % 3] for k in range(3)] == pytest.approx(rel.tolist())


def test_weights_file_round_trip(tiny: Net, tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    tiny.save(path, {"note": "test"})
    back = Net.load(path)
    assert back.hidden == (16,) and back.header["training"] == {"note": "test"}
    assert back.header["observation_version"] == OBSERVATION_VERSION
    assert set(back.params) == set(tiny.params)
    for k, v in tiny.params.items():
        assert np.array_equal(back.params[k], v) and back.params[k].dtype == np.float32
    assert Net.from_bytes(path.read_bytes()).header == back.header
    # a bot on the file plays as on the net itself
    state = _position()
    a = ExpertBot(4, iterations=40, weights=tiny).choose(state)
    assert ExpertBot(4, iterations=40, weights=str(path)).choose(state) == a


def _edited(net: Net, **changes: Any) -> bytes:
    """The net's file with its header changed."""
    buf = io.BytesIO()
    header = {**net.header, **changes}
    arrays = dict(net.params)
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    np.savez(buf, **arrays)
    return buf.getvalue()


@pytest.mark.parametrize(("change", "words"), [
    ({"observation_version": OBSERVATION_VERSION + 1}, "observation layout"),
    ({"action_space_version": 99}, "action index"),
    ({"num_actions": 3000}, "number of actions"),
    ({"observation_size": 10}, "observation size"),
    ({"format_version": 2}, "weights format"),
    ({"format": "something-else"}, "not an expert weights file"),
    ({"hidden": [32]}, "shape"),
    ({"hidden": []}, "hidden sizes"),
    ({"value": "glory"}, "value head"),
])
def test_a_mismatched_file_is_refused(tiny: Net, change: dict[str, Any], words: str) -> None:
    with pytest.raises(NetError, match=words):
        Net.from_bytes(_edited(tiny, **change), "w.npz")


def test_files_that_are_not_weights_are_refused(tiny: Net, tmp_path: Path) -> None:
    with pytest.raises(NetError, match="not an expert weights file"):
        Net.from_bytes(b"hello", "x.npz")
    buf = io.BytesIO()
    np.savez(buf, W0=np.zeros(3))
    with pytest.raises(NetError, match="no header"):
        Net.from_bytes(buf.getvalue())
    buf = io.BytesIO()
    np.savez(buf, header=np.array([{"a": 1}], dtype=object))  # a pickle: never loaded
    with pytest.raises(NetError, match="not an expert weights file"):
        Net.from_bytes(buf.getvalue())
    arrays = dict(tiny.params)
    arrays["W0"] = arrays["W0"].copy()
    arrays["W0"][0, 0] = np.nan
    with pytest.raises(NetError, match="not finite"):
        Net(arrays, tiny.header)
    with pytest.raises(NetError, match="No such file"):
        make_expert(weights=str(tmp_path / "missing.npz"))
    assert issubclass(NetError, ValueError)


# --------------------------------------------------------------------------- the bot
def _play(config: dict[str, Any], net: Net, seed: int, iterations: int = 6) -> State:
    """A whole game with one small-budget expert bot deciding for every seat; every
    choice is checked legal and the state unchanged by the search."""
    state = new_game(GameConfig(seed=seed, **config))
    bot = ExpertBot(seed, iterations=iterations, weights=net)
    while not state.is_over:
        before = state.to_json()
        legal = state.legal_actions()
        action = bot.choose(state)
        assert action in legal
        assert state.to_json() == before
        state.apply(action)
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_legal_moves_to_the_end_in_every_ruleset_and_option(config: dict[str, Any],
                                                           tiny: Net) -> None:
    state = _play(config, tiny, seed=len(str(config)))
    assert len(final_scores(state)) == state.n


def test_same_seed_and_iterations_give_the_same_game(tiny: Net) -> None:
    config = {"players": 3, "exploits": "random"}
    first = _play(config, tiny, seed=5, iterations=12).record()
    assert _play(config, tiny, seed=5, iterations=12).record() == first


def test_noise_is_seeded(tiny: Net) -> None:
    state = _position()
    def choices(seed: int) -> list[tuple[str, int]]:
        bot = ExpertBot(seed, iterations=60, weights=tiny, noise=0.5, reuse=False)
        return [(str(r.action), r.visits) for r in bot.analyse(state, top=50)]
    assert choices(1) == choices(1)


@pytest.mark.parametrize("training, counts", [
    ({}, None),
    ({"settings": {"players": [2]}}, {2}),
    ({"settings": {"players": [2, 3, 4]}}, {2, 3, 4}),
    ({"settings": {"players": []}}, None),
    ({"settings": {"players": "2"}}, None),
    ({"settings": {"players": [2, True]}}, None),
    ({"settings": "players"}, None),
])
def test_the_player_counts_a_network_was_trained_on(training: dict[str, Any],
                                                   counts: set[int] | None) -> None:
    net = Net.new(hidden=(4,), seed=0, training=training)
    assert trained_players(net) == (None if counts is None else frozenset(counts))
    for n in range(2, 6):
        trusted = counts is None or n in counts
        assert mix_for(net, n) == (MIX if trusted else 1.0)
        assert mix_for(net, n, 0.25) == (0.25 if trusted else 1.0)


def test_values_of_a_count_never_trained_are_left_out() -> None:
    """A network trained on 2-player games only: in a 4-player game its search takes
    the hand-made values alone (as ``mix=1``), whatever ``mix`` asks; in a 2-player game
    it mixes its own values in as asked."""
    net = Net.new(hidden=(16,), seed=3, training={"settings": {"players": [2]}})

    def rated(state: State, mix: float) -> list[tuple[str, float, int]]:
        bot = ExpertBot(2, iterations=120, weights=net, mix=mix, reuse=False)
        return [(str(r.action), r.value, r.visits) for r in bot.analyse(state, top=50)]

    four = _position(players=4)
    assert rated(four, 0.5) == rated(four, 1.0) == rated(four, 0.0)
    two = _position(players=2)
    assert rated(two, 0.5) != rated(two, 1.0)


def test_the_shipped_network_says_what_it_was_trained_on() -> None:
    if not Path(weights_path()).exists():
        pytest.skip("the shipped weights are not present")
    net = ExpertBot(0, iterations=1).net
    counts = trained_players(net)
    assert counts is not None and 2 in counts


def test_analyse_ranks_by_visits_with_values_in_0_1(tiny: Net) -> None:
    state = _position()
    bot = ExpertBot(2, iterations=200, weights=tiny)
    rated = bot.analyse(state, top=5)
    assert 1 <= len(rated) <= 5
    assert [r.visits for r in rated] == sorted((r.visits for r in rated), reverse=True)
    assert all(0.0 <= r.value <= 1.0 for r in rated)
    assert "prior" in rated[0].text and bot.last.iterations == 200
    assert bot.choose(state) == ExpertBot(2, iterations=200, weights=tiny).choose(state)


def test_a_time_budget_stops_in_time(tiny: Net) -> None:
    bot = ExpertBot(0, seconds=0.2, weights=tiny, settle=False)
    bot.choose(_position())
    assert 0.2 <= bot.last.seconds < 1.0 and bot.last.iterations > 10


def test_a_budget_in_processor_seconds(tiny: Net) -> None:
    bot = ExpertBot(0, seconds=0.2, clock="cpu", weights=tiny, settle=False)
    start = time.process_time()
    bot.choose(_position())
    assert 0.2 <= time.process_time() - start < 1.0 and bot.last.iterations > 10


def test_a_settled_search_stops_early_with_the_same_choice(ticking_clock: str) -> None:
    """The shipped network under a time budget: once no other child can catch up with
    the most visited one in the time left, the search stops with the move the whole
    budget would have played."""
    shorter = 0
    for seed in range(3):
        state = _position(players=2 + seed, seed=seed, steps=20 + 7 * seed)
        full = ExpertBot(seed, seconds=2.0, clock=ticking_clock, settle=False, reuse=False)
        quick = ExpertBot(seed, seconds=2.0, clock=ticking_clock, reuse=False)
        assert quick.choose(state) == full.choose(state)
        assert quick.last.iterations <= full.last.iterations
        shorter += quick.last.iterations < full.last.iterations
    assert shorter >= 1


@pytest.mark.parametrize(("options", "words"), [
    ({"seconds": 1, "iterations": 5}, "not both"),
    ({"settle": "no"}, "settle must be True or False"),
    ({"iterations": 0}, "iterations"),
    ({"iterations": 2.5}, "iterations"),
    ({"seconds": -1}, "seconds"),
    ({"c": 0}, "c must"),
    ({"noise": 1.0}, "noise"),
    ({"reuse": "yes"}, "reuse"),
    ({"weights": 3}, "weights"),
    ({"mix": 1.5}, "mix must be between 0 and 1"),
    ({"mix": -0.1}, "mix"),
    ({"exact": -1}, "exact must be a whole number"),
    ({"exact": True}, "exact"),
    ({"depth": 3}, "unknown expert option"),
    ({"clock": "sundial"}, "clock must be one of"),
])
def test_bad_options_are_value_errors(tiny: Net, options: dict[str, Any],
                                      words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_expert(1, **({"weights": tiny} | options))


def test_tree_reuse_keeps_the_subtree(tiny: Net) -> None:
    state = _position(players=2)
    # the network's values alone: a hand-made share's margins move with the build
    bot = ExpertBot(0, iterations=200, weights=tiny, mix=0.0)
    action = bot.choose(state)
    state.apply(action)
    while len(state.legal_codes()) == 1:
        state.apply(state.legal_actions()[0])
    bot.choose(state)
    assert bot.last.reused > 0


# --------------------------------------------------------------------------- the level
def test_expert_is_a_name_where_it_can_play(monkeypatch: pytest.MonkeyPatch,
                                            tiny: Net, tmp_path: Path) -> None:
    shipped = Path(weights_path()).is_file()
    assert (B.expert_missing() is None) == shipped
    assert ("expert" in B.NAMES) == shipped == ("expert" in B.LEVELS)
    path = tmp_path / "w.npz"
    tiny.save(path)
    bot = B.make("expert", seed=3, iterations=5, weights=str(path))
    assert isinstance(bot, ExpertBot) and bot.name == "expert"
    monkeypatch.setattr(B, "find_spec", lambda name: None)
    with pytest.raises(ValueError, match=r"needs numpy: pip install 'endeavor\[expert\]'"):
        B.make("expert", weights=str(path))


@pytest.mark.skipif(not Path(weights_path()).is_file(), reason="no shipped weights")
@pytest.mark.parametrize("config", CONFIGS[:8], ids=IDS[:8])
def test_the_shipped_weights_play_legal_moves(config: dict[str, Any]) -> None:
    bot = B.make("expert", seed=1, iterations=4)
    assert isinstance(bot, ExpertBot)
    assert bot.net.header["observation_version"] == OBSERVATION_VERSION
    assert bot.net.params["Wv"].shape[0] == SEATS
    state = _play(config, bot.net, seed=3, iterations=4)
    assert state.is_over


# --------------------------------------------------------------------------- training
TINY = ["--games", "2", "--warm-start-games", "2", "--hard-iterations", "8",
        "--iterations", "8", "--hidden", "16", "--epochs", "2", "--batch", "32",
        "--promotion-games", "2", "--eval-games", "2", "--eval-iterations", "8",
        "--generations", "1", "--quiet"]


def _settings(**changes: Any) -> Any:
    from endeavor.analysis.train import Settings
    return Settings(**{"games": 2, "warm_start_games": 2, "hard_iterations": 8,
                       "iterations": 8, "hidden": (16,), "epochs": 2, "batch": 32,
                       "promotion_games": 2, "eval_games": 2, "eval_iterations": 8,
                       "generations": 1, **changes})


def _games(run: Path) -> list[Any]:
    """The run's games (records and samples), in order."""
    out = []
    for path in sorted((run / "games").glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        out += [(g["record"], g["samples"]) for g in sorted(lines, key=lambda g: g["index"])]
    return out


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny run of ``endeavor train`` on 2 local worker processes."""
    from endeavor.cli import main
    out = tmp_path_factory.mktemp("train") / "run"
    assert main(["train", "--out", str(out), *TINY, "--workers", "2"]) == 0
    return out


def test_a_tiny_run_on_local_workers_ends_in_a_loadable_weights_file(local_run: Path) -> None:
    net = Net.load(local_run / "expert.npz")
    assert net.hidden == (16,)
    training = net.header["training"]
    run = json.loads((local_run / "run.json").read_text())
    # the best network's own metadata: the games played when it was trained
    assert training["program"] == "endeavor train"
    assert training["games"] == (4 if run["curve"][1]["promoted"] else 2)
    assert run["generation"] == 1 and run["games"] == 4 and run["samples"] > 0
    assert [p["generation"] for p in run["curve"]] == [0, 1]
    assert run["curve"][1]["promotion"]["games"] == 2
    assert run["curve"][1]["vs_hard"]["games"] == 2
    assert {p.name for p in (local_run / "nets").iterdir()} == {"gen000.npz", "gen001.npz"}
    assert json.loads((local_run / "curve.json").read_text())["curve"] == run["curve"]
    bot = B.make("expert", seed=1, iterations=5, weights=str(local_run / "expert.npz"))
    state = _position()
    assert bot.choose(state) in state.legal_actions()


def test_training_on_local_ray_plays_the_same_games(local_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="ray is not installed (pip install 'endeavor[ray]')")
    from endeavor.analysis.train import train
    # (no evaluation matches against hard: they change nothing the comparison reads)
    state = train(tmp_path / "ray", _settings(eval_games=0), workers=2, backend="ray")
    assert state["generation"] == 1
    Net.load(tmp_path / "ray" / "expert.npz")
    assert _games(tmp_path / "ray") == _games(local_run)
    assert json.loads((tmp_path / "ray" / "run.json").read_text())["curve"][1]["losses"] == \
        json.loads((local_run / "run.json").read_text())["curve"][1]["losses"]


def test_resume_adds_generations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from endeavor.cli import main
    out = tmp_path / "run"
    argv = [a for a in TINY if a not in ("--generations", "1")]
    assert main(["train", "--out", str(out), *argv, "--generations", "0"]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["generation"] == 0 and len(run["curve"]) == 1
    before = (out / "nets" / "gen000.npz").read_bytes()
    assert main(["train", "--out", str(out), "--resume", "--generations", "1", "--quiet"]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["generation"] == 1 and [p["generation"] for p in run["curve"]] == [0, 1]
    assert (out / "nets" / "gen000.npz").read_bytes() == before  # not trained again
    best = "gen001" if run["curve"][1]["promoted"] else "gen000"  # the summary's row 1
    row = next(line for line in capsys.readouterr().out.splitlines()
               if line.split()[:2] == ["1", "4"])
    assert best in row.split()


def test_an_interrupted_generation_keeps_its_games(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import endeavor.analysis.train as T
    out = tmp_path / "run"
    T.train(out, _settings(generations=0, eval_games=0))
    tasks = T.generation_tasks(T.Settings.from_dict(
        json.loads((out / "run.json").read_text())["settings"]), 1, [])
    first = T.play_training_game(tasks[0], {"best": str(out / "nets" / "gen000.npz")})
    (out / "games" / "gen001.jsonl.part").write_text(json.dumps(first) + "\n{cut sh")
    played: list[int] = []
    real = T.play_training_games
    def spy(batch: Any, nets: Any) -> Any:
        played.extend(task["index"] for task in batch)
        return real(batch, nets)
    monkeypatch.setattr(T, "play_training_games", spy)
    T.train(out, resume=True, generations=1)
    assert played == [1]
    lines = (out / "games" / "gen001.jsonl").read_text().splitlines()
    assert sorted(json.loads(x)["index"] for x in lines) == [0, 1]


def test_seats_rotate_and_the_mix_is_followed() -> None:
    from endeavor.analysis.train import generation_tasks, parse_mix
    s = _settings(games=8, players=(2, 4), mix="self:1,hard:1,greedy:1,snapshot:1")
    tasks = generation_tasks(s, 3, ["snap0"])
    kinds = [[seat["kind"] if seat["kind"] != "net" else seat["net"] for seat in t["seats"]]
             for t in tasks]
    # the j-th game of n players: the best network from seat j mod n, every other seat
    assert kinds[0] == ["best", "best"]
    assert kinds[1] == ["best", "hard", "best", "hard"]
    assert kinds[2] == ["greedy", "best"]
    assert kinds[3] == ["snap0", "best", "snap0", "best"]
    assert kinds[4] == ["best", "best"]
    assert kinds[5] == ["best", "hard", "best", "hard"]
    assert [t["config"]["players"] for t in tasks] == [2, 4] * 4
    assert all(seat["record"] == (seat["kind"] == "hard" or seat.get("net") == "best")
               for t in tasks for seat in t["seats"])
    assert [t["seats"] for t in generation_tasks(s, 3, [])][3] == [tasks[0]["seats"][0]] * 4
    assert parse_mix("self:2,hard") == ["self", "self", "hard"]


def test_the_learner_lowers_its_loss_and_masks_illegal_actions(local_run: Path) -> None:
    from endeavor.analysis.train import (
        build_dataset,
        fit,
        loss_and_grads,
        make_batch,
        masked_log_softmax,
    )
    games = [json.loads(line) for line in
             (local_run / "games" / "gen000.jsonl").read_text().splitlines()]
    data = build_dataset(games, 0.5)
    assert len(data) == sum(len(g["samples"]) for g in games)
    net = Net.new((16,), seed=1)
    rows = np.arange(min(64, len(data)))
    before, _ = loss_and_grads(net, make_batch(data, rows), 0.0, grads=False)
    fit(net, data, _settings(epochs=8, lr=3e-3), seed=0)
    after, _ = loss_and_grads(net, make_batch(data, rows), 0.0, grads=False)
    assert after["policy"] < before["policy"] and after["value"] < before["value"]
    x, mask, target, z, seat_mask = make_batch(data, rows)
    assert (target[~mask] == 0).all() and np.allclose(target.sum(axis=1), 1.0)
    assert np.allclose(z.sum(axis=1), 1.0) and (z[~seat_mask] == 0).all()
    big = np.where(mask, 0.0, 1e4).astype(np.float32)  # illegal actions "preferred"
    _, prob = masked_log_softmax(big, mask)
    assert (prob[~mask] == 0).all() and np.allclose(prob.sum(axis=1), 1.0)


def test_the_cli_defaults_are_the_settings() -> None:
    from dataclasses import fields

    from endeavor.analysis.train import Settings
    from endeavor.cli.train import DEFAULTS
    s = Settings()
    assert DEFAULTS == {f.name: getattr(s, f.name) for f in fields(s)
                        if f.name not in ("ruleset", "exploits", "options")}


@pytest.mark.parametrize(("argv", "words"), [
    (["--resume"], "no training run to resume"),
    (["--players", "7"], "--players: must be player counts"),
    (["--players", "2", "--ruleset", "classic"], "3 to 5 players"),
    (["--mix", "self:2,bogus:1"], "bad mix"),
    (["--mix", "self:0"], "every weight is 0"),
    (["--address", "localhost:6379"], "--address needs --backend ray"),
    (["--plot", "curve.txt"], "must end in one of" if find_spec("matplotlib")
     else "--plot needs matplotlib: pip install 'endeavor[plot]'"),
    (["--games", "0"], "--games: must be 1 to"),
    (["--lr", "0"], "--lr: must be more than 0"),
    (["--hidden", "16,0"], "layer sizes"),
    (["--exploits", "nonsense"], "nonsense"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          argv: list[str], words: str) -> None:
    from endeavor.cli import main
    assert main(["train", "--out", str(tmp_path / "run"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("endeavor: error: ") and err.count("\n") == 1, err
    assert words in err, err
    assert not (tmp_path / "run" / "games").exists()


def test_a_directory_in_the_way_or_resumed_with_settings(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    from endeavor.cli import main
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    assert main(["train", "--out", str(tmp_path / "full")]) == 2
    assert "is not empty" in capsys.readouterr().err
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.json").write_text("{}")
    assert main(["train", "--out", str(tmp_path / "run"), "--resume", "--games", "3"]) == 2
    assert "leave out --games" in capsys.readouterr().err
    assert main(["train", "--out", str(tmp_path / "run"), "--resume"]) == 2
    assert "not an endeavor-train file" in capsys.readouterr().err
    assert main(["train", "--out", str(tmp_path / "run")]) == 2
    assert "holds a training run already" in capsys.readouterr().err


# --------------------------------------------------------------------------- play, review
SHIPPED = Path(weights_path()).is_file()
FIXTURE = Path(__file__).parent / "fixtures" / "review_2p.record.json"


def test_review_takes_the_expert_bot_where_it_can_play() -> None:
    from endeavor.analysis.review import Review, ReviewError, review
    record = FIXTURE.read_text()
    with pytest.raises(ReviewError, match="hard, expert"):
        review(record, bot="greedy")
    if not SHIPPED:
        with pytest.raises(ReviewError, match="weights"):
            review(record, bot="expert")
        return
    result = review(record, seats=[1], iterations=5, steps=[2, 4, 7], bot="expert")
    assert result.bot == "expert" and [d.step for d in result.decisions] == [2, 4, 7]
    data = json.loads(result.to_json())
    assert data["bot"] == "expert" and "the expert bot" in data["method"]
    assert Review.from_json(result.to_json()) == result
    # a review by the default bot names it too (the strongest: hard today)
    assert json.loads(review(record, seats=[1], iterations=5,
                             steps=[2]).to_json())["bot"] == "hard"


def test_play_asks_the_hint_bot_named(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from endeavor.cli import main
    from scenario import feed_input
    name = "expert" if SHIPPED else "medium"
    prompts = feed_input(monkeypatch, ["hint", "quit", ""])
    assert main(["play", "--players", "2", "--seed", "6", "--opponents", "random",
                 "--hint-bot", name, "--hint-budget", "20it"]) == 0
    assert f"Hint from the {name} bot" in capsys.readouterr().out, prompts
    assert main(["play", "--hint-bot", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_help_and_no_numpy_until_needed(capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys

    from endeavor.cli import main
    assert main(["train", "--help"]) == 0
    out = capsys.readouterr().out
    for word in ("--out", "--resume", "--warm-start-games", "--hard-iterations", "--mix",
                 "--backend", "--address", "--plot", "endeavor[expert]"):
        assert word in out, word
    assert main(["--help"]) == 0 and "train" in capsys.readouterr().out
    # the bots, the command line's parser and every other bot stay free of numpy
    code = ("import sys; import endeavor.bots as B; from endeavor.cli import _build_parser; "
            "_build_parser(); B.make('hard', iterations=2); print('numpy' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)  # the endeavor this session imports (PYTHONPATH)
    assert run.stdout.strip() == "False", run.stderr
