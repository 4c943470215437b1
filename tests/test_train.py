"""``endeavor train``'s machinery: self-play games advanced together with batched
network passes (the same games as the expert bot's own search plays), the batched
pass itself, value targets from the search, warm starts from a weights file, the games
pool shared by runs, and a run on a local Ray cluster of two nodes.

Tiny networks (``hidden=(16,)``) and few, short searches keep it fast: what is tested
does not depend on what the weights learned."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from endeavor import GameConfig, new_game  # noqa: E402
from endeavor import actions as A  # noqa: E402
from endeavor import bots as B  # noqa: E402
from endeavor.analysis import train as T  # noqa: E402
from endeavor.bots.expert import ExpertBot  # noqa: E402
from endeavor.bots.net import Net  # noqa: E402
from endeavor.rl import encode, index_of  # noqa: E402


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nets") / "tiny.npz"
    Net.new(hidden=(16,), seed=3).save(path)
    return path


def _settings(**changes: Any) -> T.Settings:
    return T.Settings(**{"games": 2, "warm_start_games": 1, "hard_iterations": 5,
                         "iterations": 5, "hidden": (16,), "epochs": 1, "batch": 64,
                         "promotion_games": 2, "eval_games": 0, "generations": 1,
                         "batch_games": 2, **changes})


def _task(players: int, seed: int, iterations: int = 12, index: int = 0) -> dict[str, Any]:
    seat = {"kind": "net", "net": "best", "iterations": iterations, "noise": 0.0,
            "record": True}
    return {"index": index, "generation": 1, "seed": seed, "temperature_moves": 0,
            "config": GameConfig(players=players, seed=seed).to_dict(),
            "seats": [dict(seat) for _ in range(players)]}


# --------------------------------------------------------------------------- batching
def test_games_played_together_are_the_bots_own_games(tiny: Path) -> None:
    """Without noise or tree reuse, each game of a batch is move for move the game the
    expert bot plays with its one-at-a-time search: batching changes the cost only."""
    tasks = [_task(2, 11), _task(3, 12, index=1)]
    lines = T.play_training_games(tasks, {"best": str(tiny)}, reuse=False)
    net = Net.load(tiny)
    for task, line in zip(tasks, lines, strict=True):
        state = new_game(GameConfig.from_dict(task["config"]))
        bots = [ExpertBot(k, iterations=12, weights=net, reuse=False)
                for k in range(state.n)]
        while not state.is_over:
            p = state.current_player
            assert p is not None
            state.apply_code(bots[p].choose_code(state))
        assert line["record"]["actions"] == state.record()["actions"]
        assert line["evaluations"] > len(line["samples"])
    # and a batch plays the same games as its games one by one (the tree kept too)
    again = [T.play_training_games([t], {"best": str(tiny)})[0] for t in tasks]
    together = T.play_training_games(tasks, {"best": str(tiny)})
    assert [g["record"] for g in again] == [g["record"] for g in together]


def test_a_count_the_network_never_saw_is_played_as_the_bot_plays_it(
        tmp_path: Path) -> None:
    """A network trained on 2-player games only leaves its values out of 3-player
    games (the hand-made values alone, as ``mix=1``) in self-play exactly as the bot
    does, and keeps them in 2-player games."""
    path = tmp_path / "two.npz"
    Net.new(hidden=(16,), seed=3, training={"settings": {"players": [2]}}).save(path)
    net = Net.load(path)
    tasks = [_task(2, 11), _task(3, 12, index=1)]
    lines = T.play_training_games(tasks, {"best": str(path)}, reuse=False)
    for task, line in zip(tasks, lines, strict=True):
        state = new_game(GameConfig.from_dict(task["config"]))
        own = [ExpertBot(k, iterations=12, weights=net, reuse=False) for k in range(state.n)]
        hand = [ExpertBot(k, iterations=12, weights=net, reuse=False, mix=1.0)
                for k in range(state.n)]
        while not state.is_over:
            p = state.current_player
            assert p is not None
            code = own[p].choose_code(state)
            if state.n == 3:  # the count it never saw: the hand-made values alone
                assert hand[p].choose_code(state) == code
            state.apply_code(code)
        assert line["record"]["actions"] == state.record()["actions"]


def test_the_self_play_constants_are_the_bots() -> None:
    bot = ExpertBot(0, iterations=1, weights=Net.new((4,), seed=0))
    assert (T.C_PUCT, T.FPU, T.ALPHA) == (bot.c, bot.fpu, bot.alpha)


def test_a_batched_pass_equals_one_position_at_a_time(tiny: Path) -> None:
    net = Net.load(tiny)
    rows = []
    for players in (2, 3, 4, 5):
        state = new_game(GameConfig(players=players, seed=players))
        bot = B.make("greedy", seed=1)
        for _ in range(10 * players):
            state.apply(bot.choose(state))
        p = state.current_player
        assert p is not None
        obs = encode(state, p)
        legal = np.array([index_of(c) for c in state.legal_codes()], np.intp)
        rows.append((obs, legal, players))
    nz = [np.flatnonzero(o) for o, _, _ in rows]
    priors, values = T.forward_batch(net, nz, [o[i] for (o, _, _), i in zip(rows, nz, strict=True)],
                                     [lg for _, lg, _ in rows], [n for _, _, n in rows])
    for (obs, legal, n), pr, va in zip(rows, priors, values, strict=True):
        want_p, want_v = net.evaluate(obs, legal, n)
        assert np.allclose(pr, want_p, atol=1e-5) and len(pr) == len(legal)
        assert np.allclose(va, want_v, atol=1e-5) and len(va) == n
        assert abs(sum(pr) - 1) < 1e-5 and abs(sum(va) - 1) < 1e-5


def test_samples_carry_the_search_value_and_the_targets_mix_it(tiny: Path) -> None:
    line = T.play_training_games([_task(3, 5, iterations=6)], {"best": str(tiny)})[0]
    assert line["version"] == T.GAMES_VERSION
    for _step, policy, value in line["samples"]:
        assert len(value) == 3 and abs(sum(value) - 1) < 1e-3
        assert abs(sum(w for _, w in policy) - 1) < 1e-3
    data = T.build_dataset([line], result_weight=0.0, search_weight=1.0)
    assert len(data) == len(line["samples"])
    state = new_game(GameConfig.from_dict(line["record"]["config"]))
    by_step = {s[0]: s[2] for s in line["samples"]}
    k = 0
    for step, text in enumerate(line["record"]["actions"]):
        if step in by_step:
            p = state.current_player
            want = [by_step[step][(p + j) % 3] for j in range(3)]
            assert np.allclose(data.value[k][:3], want, atol=1e-6)
            k += 1
        state.apply_code(A.parse(text).code)
    # results only: every sample of the game has the game's result, seat-rotated
    results = T.build_dataset([line], result_weight=1.0, search_weight=0.0)
    assert np.allclose(results.value.sum(axis=1), 1.0)
    with pytest.raises(T.TrainError, match="add up to more than 1"):
        _settings(result_weight=0.8, search_weight=0.4).check()


def test_old_samples_without_a_value_still_train(tiny: Path) -> None:
    line = T.play_training_games([_task(2, 7, iterations=4)], {"best": str(tiny)})[0]
    old = dict(line, samples=[s[:2] for s in line["samples"]])
    del old["version"]
    data = T.build_dataset([old], 0.5, 0.25)
    assert len(data) == len(line["samples"]) and np.allclose(data.value.sum(axis=1), 1.0)


# --------------------------------------------------------------------------- warm start
def test_warm_start_from_a_file(tiny: Path, tmp_path: Path) -> None:
    state = T.train(tmp_path / "a", _settings(warm_start_from=str(tiny),
                                               warm_start_games=0, generations=0))
    start = Net.load(tiny)
    gen0 = Net.load(tmp_path / "a" / "nets" / "gen000.npz")
    assert all(np.array_equal(gen0.params[k], v) for k, v in start.params.items())
    assert state["curve"][0]["losses"] is None  # nothing to learn from: kept as it was
    # with imitation games, the learner starts from the file's weights
    T.train(tmp_path / "b", _settings(warm_start_from=str(tiny), generations=0))
    trained = Net.load(tmp_path / "b" / "nets" / "gen000.npz")
    fresh = Net.new((16,), seed=0)
    assert not np.array_equal(trained.params["W0"], start.params["W0"])
    diff = np.abs(trained.params["W0"] - start.params["W0"]).mean()
    assert diff < np.abs(fresh.params["W0"] - start.params["W0"]).mean() / 10


def test_a_warm_start_file_that_does_not_fit_is_refused_before_any_game(
        tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(T.TrainError, match="its hidden layers are 16, this run's network "
                                           "has 32"):
        T.train(tmp_path / "a", _settings(warm_start_from=str(tiny), hidden=(32,)))
    assert not (tmp_path / "a").exists()
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    from endeavor.cli import main
    for path, words in ((bad, "not an expert weights file"),
                        (tmp_path / "missing.npz", "No such file")):
        assert main(["train", "--out", str(tmp_path / "b"), "--warm-start-from",
                     str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("endeavor: error: --warm-start-from") and err.count("\n") == 1
        assert words in err, err
    # a network made for another observation layout
    net = Net.load(tiny)
    net.header["observation_version"] = 99
    net.save(tmp_path / "old.npz")
    assert main(["train", "--out", str(tmp_path / "b"), "--warm-start-from",
                 str(tmp_path / "old.npz"), "--hidden", "16"]) == 2
    assert "the observation layout" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


# --------------------------------------------------------------------------- the pool
def test_runs_share_a_pool(tmp_path: Path) -> None:
    pool = tmp_path / "pool"
    a = T.train(tmp_path / "a", _settings(generations=0, pool=str(pool)))
    index = json.loads((pool / "pool.json").read_text())
    assert index["format"] == T.POOL_FORMAT and index["version"] == T.POOL_VERSION
    assert [f["run"] for f in index["files"]] == [a["run_id"]]
    [entry] = index["files"]
    lines = (pool / entry["file"]).read_text().splitlines()
    assert entry["games"] == len(lines) == 1 and entry["players"] == [2]
    assert json.loads(lines[0])["record"] == json.loads(
        (tmp_path / "a" / "games" / "gen000.jsonl").read_text())["record"]
    # a second run reads the first run's games beside its own, and adds its own
    b = T.train(tmp_path / "b", _settings(generations=1, pool=str(pool), games=2))
    assert b["curve"][0]["losses"]["pool_games"] == 1
    assert b["curve"][1]["losses"]["pool_games"] == 1
    assert b["curve"][1]["losses"]["games"] == 3  # its own window: gen 0 and 1
    index = json.loads((pool / "pool.json").read_text())
    assert [(f["run"], f["generation"]) for f in index["files"]] == [
        (a["run_id"], 0), (b["run_id"], 0), (b["run_id"], 1)]
    # --pool-games 0: the pool is written but not read
    c = T.train(tmp_path / "c", _settings(generations=0, pool=str(pool), pool_games=0))
    assert c["curve"][0]["losses"]["pool_games"] == 0


def test_a_pool_this_version_cannot_use_is_refused(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("x")
    with pytest.raises(T.TrainError, match="not a games pool"):
        T.train(tmp_path / "a", _settings(pool=str(tmp_path / "other")))
    old = tmp_path / "old"
    old.mkdir()
    (old / "pool.json").write_text(json.dumps({
        "format": T.POOL_FORMAT, "version": T.POOL_VERSION, "action_space_version": 0,
        "files": []}))
    with pytest.raises(T.TrainError, match="action index version 0"):
        T.train(tmp_path / "a", _settings(pool=str(old)))
    assert not (tmp_path / "a").exists()


def test_a_pool_game_the_rules_cannot_replay_is_left_out(tiny: Path) -> None:
    line = T.play_training_games([_task(2, 9, iterations=3)], {"best": str(tiny)})[0]
    broken = json.loads(json.dumps(line))
    broken["record"]["actions"][3] = "nonsense"
    skipped: list[str] = []
    data = T.build_dataset([broken, line], 0.5, 0.25, skipped)
    assert len(data) == len(line["samples"]) and len(skipped) == 1


# --------------------------------------------------------------------------- Ray
def test_a_run_on_a_local_ray_cluster_of_two_nodes(tmp_path: Path) -> None:
    """A head node and a worker node (two raylets, one CPU each: what two machines
    would be), the run's driver connected by address as on a real cluster: the games
    are the same as on local worker processes, with the two nodes in the cluster and
    each game's worker recorded. (Which node plays which game is Ray's choice: on the
    compiled build one node may finish all four before the other takes one.)"""
    pytest.importorskip("ray", reason="ray is not installed (pip install 'endeavor[ray]')")
    cluster_utils = pytest.importorskip("ray.cluster_utils")
    settings = _settings(games=4, warm_start_games=0, generations=1, batch_games=1,
                         players=(2, 3))
    T.train(tmp_path / "local", settings, workers=2)
    try:
        cluster = cluster_utils.Cluster(initialize_head=True,
                                        head_node_args={"num_cpus": 1})
        cluster.add_node(num_cpus=1)
    except Exception as e:  # pragma: no cover - where Ray cannot start
        pytest.skip(f"a local Ray cluster cannot start here: {type(e).__name__}: {e}")
    try:
        cluster.wait_for_nodes()
        alive = len(cluster.list_all_nodes())
        state = T.train(tmp_path / "ray", _settings(games=4, warm_start_games=0,
                                                    generations=1, batch_games=1,
                                                    players=(2, 3)),
                        backend="ray", address=cluster.address, workers=2)
    finally:
        cluster.shutdown()
    assert state["generation"] == 1
    Net.load(tmp_path / "ray" / "expert.npz")
    here = [json.loads(x) for x in (tmp_path / "local" / "games" / "gen001.jsonl")
            .read_text().splitlines()]
    there = [json.loads(x) for x in (tmp_path / "ray" / "games" / "gen001.jsonl")
             .read_text().splitlines()]
    def by_index(games: list[Any]) -> list[Any]:  # (in the order they finished)
        return [g["record"] for g in sorted(games, key=lambda g: g["index"])]

    assert by_index(there) == by_index(here)
    assert alive == 2
    assert all(g["worker"] for g in there) and len(there) == 4


def test_the_command_takes_the_files_layers_and_a_pool(tiny: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from endeavor.cli import main
    out = tmp_path / "run"
    assert main(["train", "--out", str(out), "--warm-start-from", str(tiny),
                 "--warm-start-games", "1", "--hard-iterations", "3", "--generations", "0",
                 "--eval-games", "0", "--epochs", "1", "--pool", str(tmp_path / "pool"),
                 "--quiet"]) == 0
    run = json.loads((out / "run.json").read_text())
    assert run["settings"]["hidden"] == [16]  # the file's, --hidden left out
    assert Path(run["settings"]["warm_start_from"]).resolve() == tiny.resolve()
    assert Net.load(out / "nets" / "start.npz").hidden == (16,)
    assert json.loads((tmp_path / "pool" / "pool.json").read_text())["files"][0]["games"] == 1
    assert "1 games, " in capsys.readouterr().out
