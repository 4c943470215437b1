"""``State.copy_into``: the scratch copy a search reuses. Whatever the state copied
into held before (another position, another game, another player count or ruleset),
afterwards it equals the original (the same JSON, legal actions, decision), plays on
and undoes exactly as a ``copy()`` would, and shares no mutable data with it: play on
either leaves the other as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest

from endeavor import GameConfig, State, new_game
from endeavor.state import Player

CONFIGS = [
    GameConfig(players=4, seed=1),
    GameConfig(players=3, seed=2, exploits="random"),
    GameConfig(players=5, board="B", seed=3, exploits=("spice_trade", "transit_of_venus",
                                                       "south_sea_company"),
               options={"phase_order": "by_player"}),
    GameConfig(players=4, ruleset="classic", seed=4),
    GameConfig(players=2, seed=5, options={"silent_fleet": True, "building_shortage": True}),
]


def advance(s: State, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply_code(rng.choice(s.legal_codes()))


def same(a: State, b: State) -> None:
    assert a.to_json() == b.to_json()
    assert a.legal_codes() == b.legal_codes()
    assert a.decision() == b.decision()
    assert a.history() == b.history()


def _fields(x: Any) -> list[Any]:
    """The values of ``x``'s public data attributes (a compiled class has no
    ``__slots__`` to read: its attributes are found with ``dir``)."""
    out = []
    for name in dir(x):
        if not name.startswith("_"):
            value = getattr(x, name)
            if not callable(value):
                out.append(value)
    return out


def _lists(x: Any, out: list[Any]) -> None:
    """Every list inside ``x`` (lists of lists, players' mats), itself included."""
    if isinstance(x, list):
        out.append(x)
        for y in x:
            _lists(y, out)
    elif isinstance(x, Player):
        for value in _fields(x):
            _lists(value, out)


def _public_lists(s: State) -> list[Any]:
    out: list[Any] = []
    for value in _fields(s):
        _lists(value, out)
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.ruleset}-{c.players}-{c.seed}")
def test_copy_into_makes_an_equal_independent_state(config: GameConfig) -> None:
    scratch = new_game(GameConfig(players=2, seed=77, exploits="random"))
    advance(scratch, 30, seed=3)
    s = new_game(config)
    for stop in range(6):
        advance(s, 25, seed=stop)
        before = s.to_json()
        s.copy_into(scratch)
        same(s, scratch)
        ours = _public_lists(s)
        assert len(ours) > 40  # the board, the decks, the players' mats...
        mine = {id(x) for x in ours}
        shared = [x for x in _public_lists(scratch) if id(x) in mine]
        assert not shared
        # play on the scratch state: the original stays, and the scratch plays on
        # exactly as a copy does
        twin = s.copy()
        advance(scratch, 40, seed=10 + stop)
        advance(twin, 40, seed=10 + stop)
        assert s.to_json() == before
        same(scratch, twin)
        # and the other way round: play on the original, copy into the old scratch
        s.copy_into(scratch)
        advance(s, 5, seed=20 + stop)
        assert scratch.to_json() == before


def test_copy_into_undoes_like_a_copy() -> None:
    s = new_game(GameConfig(players=3, seed=8, exploits="random"))
    advance(s, 45, seed=1)
    scratch = new_game(GameConfig(players=3, seed=9))
    s.copy_into(scratch)
    twin = s.copy()
    for _ in range(12):
        scratch.undo()
        twin.undo()
        same(scratch, twin)


def test_copy_into_itself_is_refused() -> None:
    s = new_game(GameConfig(players=4, seed=1))
    with pytest.raises(ValueError, match="another state"):
        s.copy_into(s)
