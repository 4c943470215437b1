"""The legal-action cache: the engine keeps the legal actions it works out while running
the phase driver (a Construction decision's buildings, the second half of a "+"
building) and shares them between copies. Whatever path produced them, they must be
exactly the actions worked out from scratch for the same position, in every ruleset
and option, and a copy must see the same list.

The reference is the same position restored from its JSON marked ``built`` (a position
built by hand): it is taken as it stands, not replayed from its history, so nothing is
cached and its legal actions are worked out afresh."""

from __future__ import annotations

import json
import random

import pytest

from endeavor import Action, GameConfig, State, new_game

PASS = Action("pass").code

CONFIGS = [
    GameConfig(players=4, seed=11),
    GameConfig(players=2, board="B", seed=12, exploits="random"),
    GameConfig(players=4, seed=13, exploits="random", options={"plus_same_region": True}),
    GameConfig(players=5, seed=14, options={"phase_order": "by_player"}),
    GameConfig(players=4, ruleset="classic", seed=15),
    GameConfig(players=2, seed=16, exploits="random",
               options={"silent_fleet": True, "limited_occupation": True,
                        "building_shortage": True}),
]


@pytest.mark.parametrize("config", CONFIGS,
                         ids=lambda c: f"{c.ruleset}-{c.players}p-{c.seed}")
def test_cached_legal_actions_equal_fresh_ones(config: GameConfig) -> None:
    rng = random.Random(config.seed)
    s = new_game(config)
    kinds: set[str] = set()
    steps = 0
    while not s.is_over:
        codes = s.legal_codes()
        position = json.loads(s.to_json())
        position["built"] = True
        fresh = State.from_json(json.dumps(position)).legal_codes()
        assert codes == fresh, (steps, s.decision())
        assert s.copy().legal_codes() == fresh
        decision = s.decision()
        assert decision is not None
        kinds.add(decision.kind)
        # mostly act rather than pass, so "+" buildings and second halves come up
        if len(codes) > 1 and codes[-1] == PASS and rng.random() < 0.85:
            code = codes[rng.randrange(len(codes) - 1)]
        else:
            code = codes[rng.randrange(len(codes))]
        s.apply_code(code)
        steps += 1
    assert s.legal_codes() == [] and s.legal_actions() == []
    # the cached paths were exercised: Construction, and a second action of a "+" source
    assert "construction" in kinds
    assert "second_action" in kinds
