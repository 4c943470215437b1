"""OpenSpiel's ``python_endeavor`` (endeavor.rl.openspiel): loading with parameters,
OpenSpiel's own random-simulation test with serialization, the chance node of the deal,
legal actions, clones, serialization, observations, the reward schemes and the
``max_game_length`` cut-off. Skipped where ``open_spiel`` is not installed."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (the openspiel extra: "
                      "pip install 'endeavor[openspiel]')")

import numpy as np  # noqa: E402  (open_spiel needs numpy)

from endeavor import GameConfig, final_scores, new_game  # noqa: E402
from endeavor.encoding.actions import NUM_ACTIONS, action_of, index_of  # noqa: E402
from endeavor.encoding.observation import encode, observation_size  # noqa: E402
from endeavor.rl.openspiel import (  # noqa: E402
    DEFAULT_DEALS,
    MAX_GAME_LENGTH,
    REWARDS,
    EndeavorState,
    rewards_of,
)

CONFIGS = [
    {"players": 2},
    {"players": 4},
    {"players": 5, "exploits": "random", "reward": "rank"},
    {"players": 3, "ruleset": "classic"},
    {"players": 4, "ruleset": "classic", "phase_order": "by_player"},
    {"players": 2, "silent_fleet": True, "limited_occupation": True, "building_shortage": True},
    {"players": 3, "exploits": "spice_trade,globalisation,imperialism", "reward": "score"},
    {"players": 2, "board": "B", "exploits": "random", "plus_same_region": True},
]


def load(**params: object) -> object:
    return pyspiel.load_game("python_endeavor", params)


def dealt(game: object, deal: int = 0) -> EndeavorState:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    state.apply_action(deal)
    return state  # type: ignore[no-any-return]


def play(state: EndeavorState, rng: random.Random, steps: int = 10**6) -> None:
    """Random legal actions until the end (or ``steps`` of them)."""
    while not state.is_terminal() and steps > 0:
        state.apply_action(rng.choice(state.legal_actions()))
        steps -= 1


# ---------------------------------------------------------------------- loading
@pytest.mark.parametrize("params", CONFIGS,
                         ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_load_game_with_parameters(params: dict[str, object]) -> None:
    game = load(**params)
    n = int(params["players"])  # type: ignore[call-overload]
    assert game.num_players() == n
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == DEFAULT_DEALS
    assert game.max_game_length() == MAX_GAME_LENGTH[n]
    assert game.get_type().short_name == "python_endeavor"
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    lo, hi = game.min_utility(), game.max_utility()
    assert (lo, hi) == {"win": (0, 1), "rank": (-1, 1), "score": (-1, 2)}[
        str(params.get("reward", "win"))]
    assert game.observation_tensor_shape() == [observation_size(game.config)]
    # the game string loads the same game (Exploits joined by "+", not ",")
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert "," not in str(game.get_parameters()["exploits"])
    # the deal: the engine's game of seed 0 with these settings
    engine = dealt(game).engine
    assert engine is not None and engine.config.players == n
    assert engine.config.ruleset == params.get("ruleset", "age_of_sail")
    for name in ("silent_fleet", "limited_occupation", "building_shortage", "phase_order",
                 "plus_same_region"):
        if name in params:
            assert engine.config.option(name) == params[name]
    if params.get("exploits") == "spice_trade,globalisation,imperialism":
        assert [m.id for _, m in engine.exploits] == ["spice_trade", "globalisation",
                                                      "imperialism"]


@pytest.mark.parametrize("params", [
    {"players": 1}, {"players": 2, "ruleset": "classic"}, {"players": 4, "silent_fleet": True},
    {"exploits": "no_such_exploit"}, {"board": "C"}, {"reward": "glory"}, {"deals": 0},
    {"deals": 1_000_001},
    {"first_seed": -1}, {"max_game_length": -5},
])
def test_impossible_parameters_are_refused_with_the_reason(params: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        load(**params)


def test_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="bogus"):
        load(bogus=1)


# ---------------------------------------------------------------------- OpenSpiel's test
@pytest.mark.parametrize("params, sims", [
    ({"players": 4, "exploits": "random"}, 2),
    ({"players": 2, "silent_fleet": True, "reward": "score"}, 1),
    ({"players": 3, "ruleset": "classic", "reward": "rank"}, 1),
    ({"players": 5, "max_game_length": 60, "deals": 3}, 2),
])
def test_openspiels_random_simulation_test_with_serialization(
        params: dict[str, object], sims: int) -> None:
    pyspiel.random_sim_test(load(**params), num_sims=sims, serialize=True, verbose=False)


# ---------------------------------------------------------------------- the deal
def test_the_deal_is_a_uniform_chance_node_over_seeds() -> None:
    game = load(players=3, exploits="random", deals=50, first_seed=1000)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.engine is None
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(50)) == state.legal_actions()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert len({p for _, p in outcomes}) == 1
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal seed 1007"
    state.apply_action(7)
    engine = state.engine
    # the game of seed first_seed + outcome: its Exploits drawn from that seed too
    expected = new_game(GameConfig(players=3, exploits="random", seed=1007))
    assert engine.to_json() == expected.to_json()
    assert [m.id for _, m in engine.exploits] == [m.id for _, m in expected.exploits]
    assert not state.is_chance_node()
    assert state.current_player() == engine.current_player
    with pytest.raises(ValueError):
        game.new_initial_state().apply_action(50)


# ---------------------------------------------------------------------- actions
def test_legal_actions_are_the_engines_sorted_and_empty_for_the_others() -> None:
    rng = random.Random(3)
    for params in ({"players": 4, "exploits": "random"}, {"players": 5, "ruleset": "classic"}):
        game = load(**params)
        state = dealt(game, 5)
        seats: set[int] = set()
        while not state.is_terminal():
            engine = state.engine
            player = state.current_player()
            assert player == engine.current_player
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            assert legal == sorted(index_of(a) for a in engine.legal_actions())
            assert state.legal_actions(player) == legal
            assert state.legal_actions_mask(player) == [
                1 if i in set(legal) else 0 for i in range(NUM_ACTIONS)]
            for other in range(game.num_players()):
                if other != player:
                    assert state.legal_actions(other) == []
            seats.add(player)
            action = rng.choice(legal)
            assert state.action_to_string(player, action) == action_of(action).text
            state.apply_action(action)
        assert seats == set(range(game.num_players()))
        assert state.legal_actions() == []
        for p in range(game.num_players()):
            assert state.legal_actions(p) == []
        assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_actions_read_as_the_engines_notation_and_illegal_ones_are_refused() -> None:
    state = dealt(load(players=2))
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "start colonial-house", "start merchant-dock"]
    history = state.history()
    with pytest.raises(Exception, match="illegal"):
        state.apply_action(index_of("pass"))
    assert state.history() == history


def test_a_position_without_legal_actions_before_the_end_is_an_error_not_an_empty_list(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import endeavor.rl.openspiel as module

    state = dealt(load(players=2))
    monkeypatch.setattr(module, "legal_indices", lambda engine: [])
    with pytest.raises(RuntimeError, match="engine bug.*record"):
        state.legal_actions()


# ---------------------------------------------------------------------- clone, serialize
def test_a_clone_is_independent_of_its_original() -> None:
    rng = random.Random(1)
    state = dealt(load(players=4, exploits="random"), 2)
    play(state, rng, 60)
    before, json_before = str(state), state.engine.to_json()
    clone = state.clone()
    assert str(clone) == before and clone.history() == state.history()
    assert clone.engine is not state.engine
    assert clone.engine.to_json() == json_before
    play(clone, rng, 40)
    assert clone.history() != state.history()
    assert str(state) == before and state.engine.to_json() == json_before
    # and the other way round
    clone2 = state.clone()
    play(state, rng)
    assert clone2.engine.to_json() == json_before and not clone2.is_terminal()


@pytest.mark.parametrize("steps", [0, 1, 90, 10**6])
def test_serialization_and_pickle_restore_the_state(steps: int) -> None:
    game = load(players=3, exploits="random", reward="rank")
    state = game.new_initial_state()
    if steps:
        state.apply_action(11)
        play(state, random.Random(steps), steps - 1)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    for other in (state2, pickle.loads(pickle.dumps(state))):
        assert str(other) == str(state)
        assert other.history() == state.history()
        assert other.is_terminal() == state.is_terminal()
        assert other.returns() == state.returns()
        if not state.is_terminal():
            assert other.legal_actions() == state.legal_actions()
        if state.engine is not None:
            assert other.engine.to_json() == state.engine.to_json()
    assert str(game2) == str(game) == str(pickle.loads(pickle.dumps(game)))


# ---------------------------------------------------------------------- observations
def test_observations_are_the_encoders_and_the_positions_text() -> None:
    game = load(players=4)
    state = game.new_initial_state()
    size = observation_size(game.config)
    for p in range(4):  # the chance node: zeros
        assert state.observation_tensor(p) == [0.0] * size
    state.apply_action(0)
    play(state, random.Random(4), 50)
    engine = state.engine
    for p in range(4):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(p), np.float32), encode(engine, p))
        text = state.observation_string(p)
        assert text.startswith(f"P{p} observes") and str(state) in text
        # perfect information: the information state is the history
        assert state.information_state_string(p) == state.history_str()
    assert f"round {engine.round}" in str(state)
    play(state, random.Random(4))
    for p in range(4):  # the end, too
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(p), np.float32), encode(state.engine, p))


# ---------------------------------------------------------------------- rewards
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_returns_follow_the_reward_scheme(players: int) -> None:
    results = {}
    for reward in REWARDS:
        game = load(players=players, reward=reward, exploits="random")
        state = dealt(game, players)
        rng = random.Random(players)
        while not state.is_terminal():
            assert state.returns() == [0.0] * players
            state.apply_action(rng.choice(state.legal_actions()))
        assert not state.truncated and state.engine.is_over
        returns = state.returns()
        assert state.rewards() == returns
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        results[reward] = returns
        totals = [s.total for s in final_scores(state.engine)]
    ranks = [s.rank for s in final_scores(state.engine)]
    assert sum(results["win"]) == pytest.approx(1.0)
    assert [r > 0 for r in results["win"]] == [k == 1 for k in ranks]
    assert sum(results["rank"]) == pytest.approx(0.0)
    assert results["score"] == [t / 100 for t in totals]
    order = sorted(range(players), key=lambda p: -totals[p])
    assert [results["rank"][p] for p in order] == sorted(results["rank"], reverse=True)


def test_ties_share_the_win_and_the_rank() -> None:
    assert rewards_of([40, 40, 30], "win") == [0.5, 0.5, 0.0]
    assert rewards_of([40, 40, 40, 40], "win") == [0.25] * 4
    assert rewards_of([40, 40, 30], "rank") == [0.5, 0.5, -1.0]
    assert rewards_of([50, 40, 30, 20], "rank") == pytest.approx([1, 1 / 3, -1 / 3, -1])
    assert rewards_of([40, 40], "rank") == [0.0, 0.0]
    assert rewards_of([55, -3, 400], "score") == [0.55, -0.03, 2.0]
    with pytest.raises(ValueError):
        rewards_of([1, 2], "glory")


# ---------------------------------------------------------------------- max_game_length
def test_max_game_length_cuts_the_game_off_and_scores_it_as_it_stands() -> None:
    game = load(players=4, max_game_length=30)
    assert game.max_game_length() == 30
    state = dealt(game, 9)
    play(state, random.Random(9))
    assert state.is_terminal() and state.truncated
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.engine.num_actions == 30 and not state.engine.is_over
    assert len(state.history()) == 31  # the deal and 30 decisions
    assert state.legal_actions() == []
    returns = state.returns()
    assert returns == rewards_of([s.total for s in final_scores(state.engine)], "win")
    assert sum(returns) == pytest.approx(1.0)
    # a clone and a deserialized state stay cut off
    assert state.clone().is_terminal()
    assert pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))[1].is_terminal()


def test_the_default_bound_leaves_real_games_whole() -> None:
    for players in (2, 5):
        game = load(players=players)
        state = dealt(game, 1)
        play(state, random.Random(players))
        assert state.engine.is_over and not state.truncated
        assert state.engine.num_actions < game.max_game_length() // 2


# ---------------------------------------------------------------------- rl_environment
def test_openspiels_rl_environment_plays_a_game() -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(load(players=3))
    assert env.observation_spec()["info_state"] == (observation_size(GameConfig(players=3)),)
    assert env.action_spec()["num_actions"] == NUM_ACTIONS
    rng = random.Random(0)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == pytest.approx(1.0)


# ---------------------------------------------------------------------- optional extra
def test_endeavor_rl_does_not_import_open_spiel() -> None:
    code = ("import sys, endeavor.rl; "
            "assert 'pyspiel' not in sys.modules and 'endeavor.rl.openspiel' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
