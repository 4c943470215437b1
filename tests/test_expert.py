"""The expert bot (issue 18 §3): its policy/value network (shapes, masking, the weights
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
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from endeavor import GameConfig, final_scores, new_game  # noqa: E402
from endeavor import bots as B  # noqa: E402
from endeavor.bots.expert import ExpertBot, make_expert, weights_path  # noqa: E402
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
    bot = ExpertBot(0, seconds=0.2, weights=tiny)
    bot.choose(_position())
    assert 0.2 <= bot.last.seconds < 1.0 and bot.last.iterations > 10


@pytest.mark.parametrize(("options", "words"), [
    ({"seconds": 1, "iterations": 5}, "not both"),
    ({"iterations": 0}, "iterations"),
    ({"iterations": 2.5}, "iterations"),
    ({"seconds": -1}, "seconds"),
    ({"c": 0}, "c must"),
    ({"noise": 1.0}, "noise"),
    ({"reuse": "yes"}, "reuse"),
    ({"weights": 3}, "weights"),
    ({"depth": 3}, "unknown expert option"),
])
def test_bad_options_are_value_errors(tiny: Net, options: dict[str, Any],
                                      words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_expert(1, **({"weights": tiny} | options))


def test_tree_reuse_keeps_the_subtree(tiny: Net) -> None:
    state = _position(players=2)
    bot = ExpertBot(0, iterations=200, weights=tiny)
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
