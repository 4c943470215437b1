"""The PettingZoo and Gymnasium environments of endeavor.rl: PettingZoo's api_test and
seed_test over every kind of game, Gymnasium's check_env and vector environments,
pickling and copying mid-game, seeded resets, illegal actions, truncation, rewards,
rendering."""

from __future__ import annotations

import copy
import os
import pickle
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import endeavor.rl as rl  # noqa: E402
from endeavor import (  # noqa: E402
    GameConfig,
    IllegalActionError,
    ScoreBreakdown,
    final_scores,
    new_game,
)
from endeavor.rl import rewards  # noqa: E402
from endeavor.rl.gym_env import EndeavorEnv  # noqa: E402

#: 2, 4 and 5 players with and without Exploits, the 2009 game, the Silent Fleet
CONFIGS: list[dict[str, Any]] = [
    {"players": 2}, {"players": 2, "exploits": "random"},
    {"players": 4}, {"players": 4, "exploits": "random"},
    {"players": 5}, {"players": 5, "exploits": "random"},
    {"players": 4, "ruleset": "classic"}, {"players": 5, "ruleset": "classic"},
    {"players": 2, "options": {"silent_fleet": True}},
    {"players": 2, "exploits": "random",
     "options": {"silent_fleet": True, "building_shortage": True}},
]


def _id(config: dict[str, Any]) -> str:
    parts = [f"{config['players']}p", config.get("ruleset", "")]
    if config.get("exploits"):
        parts.append("exploits")
    if config.get("options", {}).get("silent_fleet"):
        parts.append("fleet")
    return "-".join(p for p in parts if p)


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _plain(text: str) -> str:
    return ANSI.sub("", text)


def _random_action(mask: Any, rng: Any) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _play_aec(env: Any, seed: int, limit: int = 10_000) -> list[tuple[Any, ...]]:
    """Masked random play of an AEC environment to the end: what each agent saw."""
    rng = np.random.default_rng(seed)
    seen = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, info = env.last()
        seen.append((agent, reward, terminated, truncated, obs["observation"].tobytes(),
                     obs["action_mask"].tobytes(), repr(info)))
        env.step(None if terminated or truncated else _random_action(obs["action_mask"], rng))
    return seen


# =========================================================================== PettingZoo
@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_pettingzoo_api_test(config: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Dict observation, as in PettingZoo's chess
        api_test(rl.env(**config), num_cycles=100)


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_pettingzoo_seed_test(config: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: rl.env(**config), num_cycles=100)


def test_pettingzoo_names_spaces_and_metadata() -> None:
    env = rl.env(players=3)
    assert env.metadata["name"] == "endeavor_v0"
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert env.action_space(agent).n == rl.NUM_ACTIONS
        space = env.observation_space(agent)
        assert space["action_mask"].shape == (rl.NUM_ACTIONS,)
        assert space["observation"].dtype == np.float32
    with pytest.raises(AttributeError):
        env.agent_selection  # noqa: B018  (before reset)
    env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.last()
    assert env.observation_space(env.agent_selection).contains(obs)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].sum() >= 1
    assert (reward, terminated, truncated, info) == (0.0, False, False, {})
    for agent in env.agents:  # nobody else may act
        if agent != env.agent_selection:
            assert not env.observe(agent)["action_mask"].any()
    assert np.array_equal(env.state(), env.observe("player_0")["observation"])


def test_observations_are_the_encoders_also_with_environments_interleaved() -> None:
    """Each environment keeps its own encoders (several in one process do not share
    them); what it shows is ``encode(state, seat)``."""
    from endeavor.encoding.observation import encode

    envs = [rl.raw_env(players=3, exploits="random") for _ in range(3)]
    gym = EndeavorEnv(players=2, opponents="random")
    obs, info = gym.reset(seed=4)
    rngs = [np.random.default_rng(k) for k in range(3)]
    for k, env in enumerate(envs):
        env.reset(seed=k)
    for _ in range(60):
        for env, rng in zip(envs, rngs, strict=True):
            if env.terminations[env.agent_selection]:
                continue
            for agent in env.possible_agents:
                assert np.array_equal(env.observe(agent)["observation"],
                                      encode(env.game, int(agent.split("_")[1])))
            env.step(_random_action(env.observe(env.agent_selection)["action_mask"], rng))
        if not gym.done:
            assert np.array_equal(obs, encode(gym.game, gym.seat))
            obs, *_, info = gym.step(_random_action(info["action_mask"], rngs[0]))


def test_the_wrapper_enforces_the_order_of_calls() -> None:
    env = rl.env(players=2)
    with pytest.raises(AssertionError):
        env.agent_iter()
    with pytest.raises(AssertionError):
        env.step(0)
    with pytest.raises(AttributeError):
        env.last()
    env.reset(seed=0)
    agents = env.agent_iter(3)
    assert next(agents) == env.agent_selection
    with pytest.raises(AssertionError, match="step"):
        next(agents)  # no step() since the last agent
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    seen = []
    for agent in env.agent_iter(3):
        seen.append(agent)
        env.step(_random_action(env.last()[0]["action_mask"], rng))
    assert len(seen) == 3
    assert str(env) == "endeavor_v0"


def test_agent_selection_is_the_seat_to_move_also_out_of_turn() -> None:
    """Discards and the Silent Fleet's choices are asked of the seat the rules name:
    agent_selection follows state.current_player, not the turn order."""
    kinds: dict[str, int] = {}
    repeats = 0
    for seed in range(3):
        env = rl.raw_env(players=2, exploits="random", options={"silent_fleet": True})
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        previous = None
        while not env.terminations[env.agent_selection]:
            game = env.game
            decision = game.decision()
            assert env.agent_selection == f"player_{game.current_player}"
            assert decision.player == game.current_player
            kinds[decision.kind] = kinds.get(decision.kind, 0) + 1
            repeats += env.agent_selection == previous
            previous = env.agent_selection
            env.step(_random_action(env.observe(env.agent_selection)["action_mask"], rng))
    assert any(k.startswith("fleet_") for k in kinds), kinds
    assert "discard" in kinds, kinds
    assert repeats > 0


def test_pettingzoo_game_end_rewards_and_infos() -> None:
    env = rl.env(players=4, reward="rank")
    env.reset(seed=5)
    seen = _play_aec(env, 5)
    assert not env.agents  # every agent terminated, then removed
    final = [s for s in seen if s[2]]
    assert sorted(s[0] for s in final) == env.possible_agents
    game = env.unwrapped.game
    assert game.is_over
    scores = final_scores(game)
    expected = rewards.rank_rewards(scores)
    for agent, reward, _, truncated, _, mask, info in final:
        seat = int(agent.split("_")[1])
        assert reward == pytest.approx(expected[seat]) and not truncated
        assert not np.frombuffer(mask, np.int8).any()
        assert f"'score': {scores[seat].total}" in info and "'game_over': True" in info


def test_pettingzoo_truncation_at_max_decisions() -> None:
    env = rl.env(players=4, max_decisions=25)
    env.reset(seed=2)
    seen = _play_aec(env, 2)
    steps = [s for s in seen if not (s[2] or s[3])]
    assert len(steps) == 25
    ends = [s for s in seen if s[3]]
    assert len(ends) == 4 and all(s[1] == 0.0 and not s[2] for s in ends)
    assert all("'game_over': False" in s[6] and "'final_scores'" in s[6] for s in ends)
    assert not env.unwrapped.game.is_over


def test_pettingzoo_illegal_actions() -> None:
    raw = rl.raw_env(players=3)
    raw.reset(seed=4)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = raw.game.to_json()
    with pytest.raises(IllegalActionError):
        raw.step(illegal)
    assert raw.game.to_json() == before
    with pytest.raises(ValueError):
        raw.step(rl.NUM_ACTIONS)
    with pytest.raises(ValueError):
        raw.step(None)

    env = rl.env(players=3)  # PettingZoo's convention: the game ends, -1 for the culprit
    env.reset(seed=4)
    culprit = env.agent_selection
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[culprit] == -1.0
    assert all(r == 0.0 for a, r in env.rewards.items() if a != culprit)
    assert env.infos[culprit]["illegal_action"] is True
    seen = _play_aec(env, 0)
    assert [s[1] for s in seen if s[0] == culprit] == [-1.0]


def test_pettingzoo_reset_seed_deals_that_game_and_replays_the_episode() -> None:
    env = rl.raw_env(players=4, exploits="random")
    env.reset(seed=123)
    assert env.game.to_json() == new_game(GameConfig(players=4, exploits="random",
                                                     seed=123)).to_json()
    first = _play_aec(env, 9)
    env.reset()  # unseeded: from the generator seeded by 123
    second = _play_aec(env, 9)
    env.reset(seed=123)
    assert _play_aec(env, 9) == first
    env.reset()
    assert _play_aec(env, 9) == second
    assert first != second
    # the constructor's seed seeds the first reset
    a, b = rl.env(players=2, seed=77), rl.env(players=2, seed=77)
    a.reset()
    b.reset()
    assert _play_aec(a, 1) == _play_aec(b, 1)


@pytest.mark.parametrize("make", [rl.env, rl.raw_env], ids=["env", "raw_env"])
def test_pettingzoo_pickle_and_copy_mid_game(make: Callable[..., Any]) -> None:
    env = make(players=4, exploits="random", render_mode="ansi")
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(40):
        obs, *_ = env.last()
        env.step(_random_action(obs["action_mask"], rng))
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    rest = _play_aec(env, 1)
    for clone in clones:
        assert _play_aec(clone, 1) == rest
    assert len(rest) > 4 and rest[-1][2]


def test_pettingzoo_render_ansi() -> None:
    env = rl.env(players=2, render_mode="ansi", options={"silent_fleet": True})
    env.reset(seed=3)
    text = _plain(env.render())
    assert text.splitlines()[0].startswith("endeavor_v0 · decision 0")
    assert "New game: 2 players" in text and "Legal actions (index: notation)" in text
    for index in np.flatnonzero(env.observe(env.agent_selection)["action_mask"]):
        assert f"{index}: {rl.ACTIONS[index]}" in text
    _play_aec(env, 3)
    text = _plain(env.render())
    assert "Game over" in text.splitlines()[0] and "Final score" in text
    assert "Winner" in text
    quiet = rl.env(players=2)
    quiet.reset(seed=0)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert quiet.render() is None
    with pytest.raises(ValueError):
        rl.env(players=2, render_mode="rgb_array")


def test_pettingzoo_render_test_and_human_mode(capsys: pytest.CaptureFixture[str]) -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: rl.env(players=3, render_mode=render_mode))
    env = rl.env(players=3, render_mode="human")
    env.reset(seed=1)
    assert "endeavor_v0 · decision 0" in _plain(capsys.readouterr().out)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "endeavor_v0 · decision 1" in _plain(capsys.readouterr().out)


def test_bad_settings_are_refused_when_the_env_is_made() -> None:
    from endeavor import ConfigError

    with pytest.raises(ConfigError):
        rl.env(players=2, ruleset="classic")
    with pytest.raises(ValueError, match="reward"):
        rl.env(players=2, reward="glory")
    with pytest.raises(ValueError, match="max_decisions"):
        rl.raw_env(players=2, max_decisions=0)
    with pytest.raises(ValueError, match="seat"):
        EndeavorEnv(players=2, seat=2)
    with pytest.raises(ValueError):
        EndeavorEnv(players=2, opponents="nobody")
    with pytest.raises(ValueError, match="opponents"):
        EndeavorEnv(players=4, opponents=["random", "greedy"])


# =========================================================================== Gymnasium
def test_gymnasium_registered_on_import_and_check_env() -> None:
    assert "endeavor/Endeavor-v0" in gymnasium.registry
    env = gymnasium.make("endeavor/Endeavor-v0", players=4, opponents="greedy", seat=0)
    assert isinstance(env.unwrapped, EndeavorEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the checker's note on render modes without a spec)
        check_env(env.unwrapped)
        check_env(gymnasium.make("endeavor/Endeavor-v0", players=2, seat=1,
                                 opponents="random",
                                 options={"silent_fleet": True}).unwrapped)


def _play_gym(env: Any, seed: int | None, rng_seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    seen = [(obs.tobytes(), repr(info))]
    while True:
        obs, reward, terminated, truncated, info = env.step(
            _random_action(info["action_mask"], rng))
        seen.append((obs.tobytes(), reward, terminated, truncated, repr(info)))
        if terminated or truncated:
            return seen


def test_gymnasium_episode_rewards_and_masks() -> None:
    env = EndeavorEnv(players=3, opponents="random", seat=1, reward="score")
    obs, info = env.reset(seed=8)
    assert env.observation_space.contains(obs)
    assert np.array_equal(env.action_masks(), info["action_mask"])
    assert env.game.current_player == 1
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        assert env.game.current_player == 1  # every step is the agent's decision
        obs, reward, terminated, truncated, info = env.step(
            _random_action(env.action_masks(), rng))
        steps += 1
        if terminated:
            break
        assert reward == 0.0 and not truncated
    scores = final_scores(env.game)
    assert reward == pytest.approx(scores[1].total / 100)
    assert info["score"] == scores[1].total and info["rank"] == scores[1].rank
    assert info["final_scores"] == rewards.score_pad(scores) and info["game_over"]
    assert not env.action_masks().any() and env.decisions == steps


def test_gymnasium_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = gymnasium.make("endeavor/Endeavor-v0", players=2, opponents="random",
                         illegal_penalty=-2.5)
    obs, info = env.reset(seed=3)
    before = env.unwrapped.game.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-2.5, True, False, True)
    assert env.unwrapped.game.to_json() == before
    for junk in (rl.NUM_ACTIONS, -1, "pass", None):
        env.reset(seed=3)
        assert env.step(junk)[1:3] == (-2.5, True)


def test_gymnasium_truncation_and_seeded_resets() -> None:
    env = EndeavorEnv(players=4, opponents="greedy", max_decisions=7)
    seen = _play_gym(env, 21, 0)
    assert len(seen) == 8 and seen[-1][3] and not seen[-1][2]
    assert "'game_over': False" in seen[-1][4]
    full = EndeavorEnv(players=4, opponents=["greedy", "random", "easy"], seat=None)
    first = _play_gym(full, 21, 0)
    assert full.game.config.seed == 21
    second = _play_gym(full, None, 0)
    assert _play_gym(full, 21, 0) == first
    assert _play_gym(full, None, 0) == second
    assert first != second
    assert full.bots[(full.seat + 2) % 4].name == "random"  # seat order after the agent's


def test_gymnasium_opponents_with_budgets_and_objects() -> None:
    from endeavor.bots import RandomBot

    env = EndeavorEnv(players=2, opponents="mcts:20")
    env.reset(seed=1)
    assert env.bots[1].name.startswith("mcts")
    assert len(_play_gym(env, 1, 0)) > 5
    env = EndeavorEnv(players=3, opponents=RandomBot(5), seat=2)
    env.reset(seed=1)
    assert env.bots[0] is env.bots[1]


def test_gymnasium_sync_vector_env_with_masks() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("endeavor/Endeavor-v0", players=2, opponents="random")
         for _ in range(4)])
    obs, infos = envs.reset(seed=0)
    assert obs.shape == (4, *envs.single_observation_space.shape)
    rng = np.random.default_rng(0)
    finished = np.zeros(4, bool)
    done_before = np.zeros(4, bool)
    for _ in range(400):
        masks = np.stack(envs.call("action_masks"))
        actions = np.array([_random_action(m, rng) if m.any() else 0 for m in masks])
        assert np.array_equal(masks[~done_before], infos["action_mask"][~done_before])
        obs, reward, terminated, truncated, infos = envs.step(actions)
        assert not infos.get("illegal_action", np.zeros(4, bool)).any()
        finished |= terminated
        done_before = terminated | truncated  # the next step resets those (next-step mode)
        if finished.all():
            break
    assert finished.all()
    envs.close()


def test_gymnasium_async_vector_env() -> None:
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("endeavor/Endeavor-v0", players=2, opponents="random")
         for _ in range(2)])
    try:
        obs, infos = envs.reset(seed=5)
        for _ in range(3):
            actions = np.array([int(np.flatnonzero(m)[0]) for m in infos["action_mask"]])
            obs, reward, terminated, truncated, infos = envs.step(actions)
        assert obs.shape[0] == 2
    finally:
        envs.close()


@pytest.mark.parametrize("made", [False, True], ids=["EndeavorEnv", "gymnasium.make"])
def test_gymnasium_pickle_and_copy_mid_game(made: bool) -> None:
    kwargs: dict[str, Any] = {"players": 3, "opponents": "random", "exploits": "random",
                              "render_mode": "ansi"}
    env = gymnasium.make("endeavor/Endeavor-v0", **kwargs) if made else EndeavorEnv(**kwargs)
    obs, info = env.reset(seed=6)
    rng = np.random.default_rng(1)
    for _ in range(10):
        obs, _, _, _, info = env.step(_random_action(info["action_mask"], rng))
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]

    def rest(e: Any) -> list[Any]:
        r = np.random.default_rng(2)
        out, mask = [], info["action_mask"]
        while True:
            o, reward, terminated, truncated, i = e.step(_random_action(mask, r))
            mask = i["action_mask"]
            out.append((o.tobytes(), reward, terminated, repr(i)))
            if terminated or truncated:
                return out

    expected = rest(env)
    for clone in clones:
        assert rest(clone) == expected
        assert "Game over" in _plain(clone.render())


def test_gymnasium_render_ansi() -> None:
    env = gymnasium.make("endeavor/Endeavor-v0", players=4, render_mode="ansi")
    env.reset(seed=2)
    text = _plain(env.render())
    assert text.splitlines()[0].startswith("Endeavor-v0 · step 0")
    assert "(agent)" in text and "greedy" in text and "Legal actions" in text


def test_gymnasium_human_mode_prints_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = EndeavorEnv(players=2, opponents="random", render_mode="human")
    obs, info = env.reset(seed=2)
    assert "Endeavor-v0 · step 0" in _plain(capsys.readouterr().out)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "Endeavor-v0 · step 1" in _plain(capsys.readouterr().out)
    assert env.render() is None


# =========================================================================== rewards
def _scores(totals: list[int]) -> list[ScoreBreakdown]:
    ranks = [1 + sum(o > t for o in totals) for t in totals]
    return [ScoreBreakdown(p, {"Total": t}, t, r) for p, (t, r) in
            enumerate(zip(totals, ranks, strict=True))]


def test_rewards_by_name() -> None:
    s = _scores([50, 62, 62, 40])
    assert rewards.win_rewards(s) == [0.0, 0.5, 0.5, 0.0]
    assert rewards.rank_rewards(s) == pytest.approx([1 / 3, 5 / 6, 5 / 6, 0.0])
    assert rewards.score_rewards(s) == pytest.approx([0.5, 0.62, 0.62, 0.4])
    assert rewards.rank_rewards(_scores([7, 7])) == [0.5, 0.5]
    assert rewards.win_rewards(_scores([9, 3, 1])) == [1.0, 0.0, 0.0]
    assert rewards.reward_function("win") is rewards.win_rewards
    assert rewards.reward_function(" Rank ") is rewards.rank_rewards
    custom = rewards.reward_function(lambda scores: [0.0] * len(scores))
    assert custom(s) == [0.0] * 4
    pad = rewards.score_pad(s)
    assert pad[1] == {"player": 1, "total": 62, "rank": 1, "lines": {"Total": 62}}


@pytest.mark.parametrize("name", rewards.REWARDS)
def test_rewards_of_a_finished_game_match_its_final_scores(name: str) -> None:
    env = rl.raw_env(players=5, reward=name)
    env.reset(seed=31)
    cumulative = _final_rewards(env, 31)
    scores = final_scores(env.game)
    want = {"win": rewards.win_rewards, "rank": rewards.rank_rewards,
            "score": rewards.score_rewards}[name](scores)
    assert cumulative == pytest.approx(want)
    if name == "win":
        assert sum(cumulative) == pytest.approx(1.0)
        assert [c > 0 for c in cumulative] == [s.rank == 1 for s in scores]


def _final_rewards(env: Any, seed: int) -> list[float]:
    rng = np.random.default_rng(seed)
    out = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            out[agent] = reward
            env.step(None)
        else:
            env.step(_random_action(obs["action_mask"], rng))
    return [out[a] for a in env.possible_agents]


# =========================================================================== packaging
def test_missing_libraries_are_named_with_the_extra() -> None:
    code = ("import sys\n"
            "sys.modules['pettingzoo'] = None\n"
            "import endeavor.rl as rl\n"
            "assert rl.NUM_ACTIONS > 0\n"
            "try:\n"
            "    rl.env\n"
            "except ImportError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                         check=True).stdout
    assert "pip install 'endeavor[rl]'" in out


def test_example_trains_with_a_tiny_budget() -> None:
    example = Path(__file__).parents[2] / "examples" / "train_masked_policy.py"
    out = subprocess.run([sys.executable, str(example), "--smoke"], capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                         timeout=120, check=True).stdout
    assert "win rate" in out
