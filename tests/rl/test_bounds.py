"""The observation spaces declare the observation's real bounds (0 to 1 for a onehot or
bits float, a count's largest value by the game's components over its scale), every
observation of seeded games of every kind lies within them, and Gymnasium's env checker
and PettingZoo's api test accept the bounded spaces. On both builds: the compiled lane
runs these tests too."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import endeavor.bots as B  # noqa: E402
import endeavor.rl as rl  # noqa: E402
from endeavor import GameConfig, new_game  # noqa: E402
from endeavor import data as D  # noqa: E402
from endeavor.config import EXPLOIT_IDS  # noqa: E402
from endeavor.encoding import features as F  # noqa: E402
from endeavor.encoding.observation import (  # noqa: E402
    SIZE,
    ObservationEncoder,
    observation_bounds,
)
from endeavor.rl.gym_env import EndeavorEnv  # noqa: E402

LOW, HIGH = observation_bounds()


def _configs() -> dict[str, GameConfig]:
    """Both rulesets, 2 to 5 players, every Exploit (three a game), the options, the
    Silent Fleet and its options."""
    out = {f"aos-{n}p": GameConfig(players=n, seed=n) for n in (2, 3, 4, 5)}
    out.update({f"classic-{n}p": GameConfig(players=n, ruleset="classic", seed=10 + n)
                for n in (3, 4, 5)})
    out["classic-5p-by-player"] = GameConfig(players=5, ruleset="classic", seed=3,
                                             options={"phase_order": "by_player"})
    for k in range(0, len(EXPLOIT_IDS), 3):
        n = 2 + k // 3 % 4
        out[f"exploits-{k // 3}-{n}p"] = GameConfig(players=n, seed=30 + k,
                                                    exploits=EXPLOIT_IDS[k:k + 3])
    out["exploits-random-5p"] = GameConfig(players=5, seed=41, exploits="random")
    out["board-A-options"] = GameConfig(players=4, board="A", seed=16, exploits="random",
                                        options={"discard_pile_bonus": False,
                                                 "plus_same_region": True})
    out["fleet"] = GameConfig(players=2, seed=13, options={"silent_fleet": True})
    out["fleet-options"] = GameConfig(players=2, seed=4, exploits="random", options={
        "silent_fleet": True, "limited_occupation": True, "no_token_reaction": True,
        "building_shortage": True})
    return out


CONFIGS = _configs()


def _names() -> list[str]:
    names = []
    for f in F.FIELDS:
        names += [f.name] * f.size
    return names


def test_the_bounds_are_finite_and_follow_the_layout() -> None:
    assert LOW.shape == HIGH.shape == (SIZE,)
    assert LOW.dtype == HIGH.dtype == np.float32
    assert np.isfinite(HIGH).all() and (LOW == 0).all() and (HIGH > 0).all()
    for f in F.FIELDS:
        block = HIGH[f.offset:f.offset + f.size]
        if f.kind in ("onehot", "bits"):
            assert (block == 1).all(), f.name
        else:
            assert (block <= F.MAX_COUNT / f.scale).all(), f.name
    # counts bounded by the components, not by the encoder's cap
    field = F.FIELD
    assert HIGH[field["mats.supply"].offset] == np.float32(D.DISCS_PER_PLAYER / 35)
    assert HIGH[field["presence"].offset] == np.float32(D.DISCS_PER_PLAYER / 10)
    assert HIGH[field["tracks.length"].offset] == 1
    assert HIGH[field["mats.level"].offset] == 1
    spent = field["turn.spent"]
    assert list(HIGH[spent.offset:spent.offset + spent.size]) == [
        np.float32(k / 10) for k in D.TOKEN_COUNTS]
    built = field["mats.buildings"]
    assert HIGH[built.offset] == D.BUILDINGS[0].copies
    assert HIGH[field["saltpeter_stockpiles.tile"].offset] == 1  # 6 Improved Cannons / 6
    # new arrays each time: a caller may change its copy
    low, high = observation_bounds()
    high[0] = 7.0
    assert observation_bounds()[1][0] == HIGH[0]


def test_the_environments_declare_the_bounds() -> None:
    env = EndeavorEnv(players=3, opponents="random")
    assert (env.observation_space.low == LOW).all()
    assert (env.observation_space.high == HIGH).all()
    aec = rl.env(players=4)
    for agent in aec.possible_agents:
        space = aec.observation_space(agent)["observation"]
        assert (space.low == LOW).all() and (space.high == HIGH).all()
    state_space = rl.raw_env(players=2).state_space
    assert (state_space.low == LOW).all() and (state_space.high == HIGH).all()


@pytest.mark.parametrize("name", list(CONFIGS))
def test_every_observation_of_seeded_games_lies_within_the_bounds(name: str) -> None:
    """A seeded game played to the end by the random bot (which rarely passes, so that
    pieces pile up), every seat's observation at every position."""
    config = CONFIGS[name]
    state = new_game(config)
    bot = B.make("random", seed=config.seed)
    encoders = [ObservationEncoder(p) for p in range(config.players)]
    peak = np.zeros(SIZE, np.float32)
    while True:
        for encoder in encoders:
            obs = encoder.encode(state, copy=False)
            if not ((obs >= LOW) & (obs <= HIGH)).all():
                names = _names()
                bad = np.flatnonzero((obs < LOW) | (obs > HIGH))
                raise AssertionError(
                    f"out of bounds at decision {state.num_actions}: " + ", ".join(
                        f"{names[i]}[{i}]={obs[i]} (bound {HIGH[i]})" for i in bad[:5]))
            np.maximum(peak, obs, out=peak)
        if state.is_over:
            break
        state.apply_code(bot.choose_code(state))
    assert peak.any()


def test_checkers_accept_the_bounded_spaces() -> None:
    """Gymnasium's env checker (which warns about an unbounded Box) and PettingZoo's api
    test: no warning about the observation's bounds or values."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(EndeavorEnv(players=2, opponents="random"))
        check_env(gymnasium.make("endeavor/Endeavor-v0", players=4, seat=2,
                                 opponents="random", exploits="random").unwrapped)
        api_test(rl.env(players=3, exploits="random"), num_cycles=50)
    about_bounds = [str(w.message) for w in caught
                    if any(word in str(w.message).lower()
                           for word in ("bound", "infinit", "-inf", "within", "normali"))]
    assert about_bounds == []


def test_vector_env_observations_lie_in_the_batched_space() -> None:
    envs = gymnasium.vector.SyncVectorEnv(
        [lambda: EndeavorEnv(players=2, opponents="random") for _ in range(2)])
    try:
        obs, infos = envs.reset(seed=8)
        rng = np.random.default_rng(0)
        for _ in range(20):
            assert envs.observation_space.contains(obs)
            actions = np.array([int(rng.choice(np.flatnonzero(m)))
                                for m in infos["action_mask"]])
            obs, _, _, _, infos = envs.step(actions)
    finally:
        envs.close()

