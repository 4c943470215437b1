"""Every change of a player's mat is counted (``Player.version``), and a search's
copies that trust the counts (``State.copy_into(other, marked=True)``) are exact.

Over seeded random games of both rulesets, every Exploit, the Silent Fleet and the
options: whenever an action changes one of a mat's lists, its count moves (a rule
that wrote a mat without counting it would let a search skip a mat that changed);
and a scratch state played on through ``apply_code`` and copied into again with
``marked=True``, as the tree search does with its siblings, is each time exactly the
position copied (the same JSON, legal actions and decision)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from endeavor import GameConfig, State, new_game
from endeavor.config import EXPLOIT_IDS
from endeavor.state import Player

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 2, "options": {"phase_order": "by_player"}},
    {"players": 5, "board": "B", "options": {"plus_same_region": True}},
    {"players": 3, "ruleset": "classic"},
    {"players": 4, "ruleset": "classic", "options": {"phase_order": "by_player"}},
    {"players": 2, "options": {"silent_fleet": True, "limited_occupation": True,
                               "no_token_reaction": True, "building_shortage": True}},
    {"players": 2, "exploits": "random", "options": {"silent_fleet": True}},
] + [{"players": 4, "exploits": EXPLOIT_IDS[i:i + 3]} for i in range(0, 15, 3)] \
  + [{"players": 3, "exploits": EXPLOIT_IDS[i:i + 3]} for i in range(1, 15, 3)]
IDS = [",".join(f"{k}={v}" for k, v in c.items()) for c in CONFIGS]


def _mat(pl: Player) -> tuple[list[int], ...]:
    return (pl.attr[:], pl.brown_tokens[:], pl.base_discs[:], pl.blue[:], pl.buildings[:],
            pl.cards[:], pl.aside[:])


def _same(a: State, b: State) -> None:
    assert a.to_json() == b.to_json()
    assert a.legal_codes() == b.legal_codes()
    assert a.decision() == b.decision()


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_change_of_a_mat_is_counted(config: dict[str, Any]) -> None:
    for seed in range(3):
        state = new_game(GameConfig(seed=seed, **config))
        rng = random.Random(seed)
        while not state.is_over:
            before = [(pl, pl.version(), _mat(pl)) for pl in state.players]
            state.apply_code(rng.choice(state.legal_codes()))
            for p, (pl, version, mat) in enumerate(before):
                assert state.players[p] is pl
                if _mat(pl) != mat:
                    assert pl.version() != version, (p, state.num_actions, mat, _mat(pl))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_marked_copies_are_exact(config: dict[str, Any]) -> None:
    """As a search does: the path's position copied into a scratch state, a sibling
    played there, then copied again, while the path moves on."""
    state = new_game(GameConfig(seed=5, **config))
    rng = random.Random(5)
    scratch = state.copy()
    other = state.copy()
    while not state.is_over:
        state.copy_into(scratch, True)
        _same(state, scratch)
        codes = state.legal_codes()
        for _ in range(2):  # two siblings on the same scratch state
            scratch.apply_code(rng.choice(codes))
            state.copy_into(scratch, True)
            _same(state, scratch)
        # the scratch state moves on by itself, then the path's other scratch copies it
        scratch.apply_code(rng.choice(codes))
        scratch.copy_into(other, True)
        _same(scratch, other)
        state.apply_code(rng.choice(codes))

