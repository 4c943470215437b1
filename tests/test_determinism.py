"""Determinism (R2): setup randomness comes only from the config seed, play is
deterministic, and the engine never touches the global ``random`` module."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from endeavor import GameConfig, State, final_scores, new_game, replay


def setup_of(s: State) -> tuple[object, ...]:
    """Everything R2 randomizes: the token deal (tracks, sites, circular links), the
    level-5 pool and the first player."""
    tracks = tuple(t for r in range(7) for t in s.track_tokens(r))
    return (tracks, tuple(s.site_token), tuple(s.link_token), s.level5, s.crown)


def play(config: GameConfig, bot_seed: int) -> State:
    """A full game by a seeded bot that rarely passes (its own generator)."""
    s = new_game(config)
    rng = random.Random(bot_seed)
    while not s.is_over:
        legal = s.legal_actions()
        if len(legal) > 1 and legal[-1].text == "pass" and rng.random() > 0.1:
            legal = legal[:-1]
        s.apply(rng.choice(legal))
    return s


CONFIGS = [GameConfig(players=n, board=b, seed=seed)
           for n, b, seed in ((2, "A", 1), (3, "B", 22), (4, "A", 333), (5, "B", 4444))]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.board}")
def test_same_seed_same_setup(config: GameConfig) -> None:
    a, b = new_game(config), new_game(config)
    assert setup_of(a) == setup_of(b)
    assert a.to_json() == b.to_json()
    # an equal config built separately (from its dict form) deals the same
    c = new_game(GameConfig.from_dict(json.loads(json.dumps(config.to_dict()))))
    assert c.to_json() == a.to_json()


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.board}")
def test_same_seeds_same_game(config: GameConfig) -> None:
    a, b = play(config, 5), play(config, 5)
    assert a.record() == b.record()
    assert a.to_json() == b.to_json()
    assert [x.total for x in final_scores(a)] == [x.total for x in final_scores(b)]
    # a different bot seed plays a different game from the same deal
    assert play(config, 6).record()["actions"] != a.record()["actions"]


def test_different_seeds_different_deals() -> None:
    for players, board in ((3, "A"), (4, "B")):
        deals = {setup_of(new_game(GameConfig(players=players, board=board, seed=seed)))[:3]
                 for seed in range(40)}
        assert len(deals) == 40
        pools = {new_game(GameConfig(players=players, board=board, seed=seed)).level5
                 for seed in range(40)}
        assert len(pools) > 1  # 10 possible pools of 3 out of 5
        crowns = {new_game(GameConfig(players=players, board=board, seed=seed)).crown
                  for seed in range(40)}
        assert crowns == set(range(players))


def test_phase_order_does_not_change_the_deal() -> None:
    """Options that do not touch setup (phase order) deal identically for one seed."""
    a = new_game(GameConfig(players=4, board="B", seed=9))
    b = new_game(GameConfig(players=4, board="B", seed=9,
                            options={"phase_order": "by_player"}))
    assert setup_of(a) == setup_of(b)


def test_global_random_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reseeding the global generator changes nothing, a game leaves its state untouched,
    and the module-level functions are never called (they raise here)."""
    config = GameConfig(players=4, board="B", seed=77)
    random.seed(1)
    first = play(config, 3).to_json()
    random.seed(2)
    second = play(config, 3).to_json()
    assert first == second
    before = random.getstate()
    s = play(config, 3)
    replay(s.record())
    State.from_json(s.to_json())
    assert random.getstate() == before

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine called the global random module")

    for name in ("random", "randrange", "randint", "choice", "choices", "shuffle",
                 "sample", "uniform", "getrandbits", "seed"):
        monkeypatch.setattr(random, name, forbidden)
    assert play(config, 3).to_json() == first
    assert replay(s.record()).to_json() == first


def test_independent_of_hash_seed() -> None:
    """The same game in two interpreters with different string-hash seeds (set and dict
    order of strings must not leak into the rules)."""
    code = ("import json, random\n"
            "from endeavor import GameConfig, new_game\n"
            "s = new_game(GameConfig(players=5, board='B', seed=12))\n"
            "rng = random.Random(4)\n"
            "while not s.is_over:\n"
            "    la = s.legal_actions()\n"
            "    if len(la) > 1 and la[-1].text == 'pass' and rng.random() > 0.1:\n"
            "        la = la[:-1]\n"
            "    s.apply(rng.choice(la))\n"
            "print(s.to_json())\n")
    src = str(Path(__file__).resolve().parents[1] / "src")
    outs = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed,
                   PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                             capture_output=True, text=True, timeout=60).stdout
        outs.append(out)
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["format"] == "endeavor-state"
