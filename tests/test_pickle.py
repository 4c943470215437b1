"""States that travel between processes: ``GameConfig``, ``State``,
``Action``, ``Event`` and ``Decision`` pickle and deep-copy on whichever build runs the
suite (``make test`` runs it on the pure and on the mypyc build); a state that comes
back is equal to the original (the same JSON, the same legal actions) and plays on
identically, here and in the worker processes of a ``multiprocessing`` pool."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random

import pytest

from endeavor import Action, Decision, Event, GameConfig, State, new_game
from endeavor.testing import fresh, give_building, set_harbor

CONFIGS = [
    GameConfig(players=4, seed=1),
    GameConfig(players=3, seed=2, exploits="random"),
    GameConfig(players=5, board="B", seed=3, exploits=("spice_trade", "transit_of_venus",
                                                       "south_sea_company"),
               options={"phase_order": "by_player"}),
    GameConfig(players=4, ruleset="classic", seed=4),
    GameConfig(players=2, seed=5, options={"silent_fleet": True, "building_shortage": True}),
]


def advance(s: State, steps: int, seed: int) -> list[Event]:
    """``steps`` seeded random actions (fewer at the end): the events they raised."""
    rng = random.Random(seed)
    events: list[Event] = []
    for _ in range(steps):
        if s.is_over:
            break
        events += s.apply(rng.choice(s.legal_actions()))
    return events


def same(a: State, b: State) -> None:
    """Equal, as the issue defines it: the same JSON and the same legal actions."""
    assert a.to_json() == b.to_json()
    assert a.legal_actions() == b.legal_actions()
    assert a.decision() == b.decision()


def play_on(s: State, steps: int = 60, seed: int = 99) -> tuple[str, list[Event]]:
    events = advance(s, steps, seed)
    return s.to_json(), events


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.ruleset}-{c.players}-{c.seed}")
def test_states_pickle_and_deep_copy_and_play_on_identically(config: GameConfig) -> None:
    s = new_game(config)
    for stop in range(4):
        for protocol in (pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL):
            back = pickle.loads(pickle.dumps(s, protocol=protocol))
            assert isinstance(back, State) and back is not s
            same(s, back)
        deep = copy.deepcopy(s)
        shallow = copy.copy(s)
        same(s, deep)
        same(s, shallow)
        reference = s.copy()
        expected = play_on(reference)
        assert play_on(pickle.loads(pickle.dumps(s))) == expected
        assert play_on(deep) == expected
        # the copies played on; the original did not move
        assert s.to_json() != deep.to_json() or s.is_over
        same(s, pickle.loads(pickle.dumps(s)))
        advance(s, 40 + 30 * stop, seed=stop)


def test_a_finished_game_and_its_undo_travel() -> None:
    s = new_game(GameConfig(players=2, seed=8))
    advance(s, 10_000, seed=8)
    assert s.is_over
    back = pickle.loads(pickle.dumps(s))
    same(s, back)
    assert back.decision() is None
    s.undo()
    back.undo()
    same(s, back)


def test_a_built_position_travels() -> None:
    s = fresh(players=3, seed=7)
    give_building(s, 0, "docks")
    set_harbor(s, 0, 2)
    back = pickle.loads(pickle.dumps(s))
    same(s, back)
    assert play_on(back) == play_on(s.copy())


def test_configs_actions_events_and_decisions_round_trip() -> None:
    for config in CONFIGS:
        back = pickle.loads(pickle.dumps(config))
        assert back == config and back.options == config.options
        assert copy.deepcopy(config) == config
        s = new_game(config)
        d = s.decision()
        assert isinstance(d, Decision)
        assert pickle.loads(pickle.dumps(d)) == d and copy.deepcopy(d) == d
        for a in s.legal_actions()[:5]:
            assert pickle.loads(pickle.dumps(a)) == a and isinstance(a, Action)
        events = s.apply(s.legal_actions()[0])
        assert pickle.loads(pickle.dumps(events)) == events
        assert [e.to_dict() for e in copy.deepcopy(events)] == [e.to_dict() for e in events]


def test_a_deep_copy_shares_nothing_mutable() -> None:
    s = new_game(GameConfig(players=4, seed=12, exploits="random"))
    advance(s, 80, seed=1)
    before = s.to_json()
    twin = copy.deepcopy({"state": s})["state"]
    advance(twin, 50, seed=2)
    assert s.to_json() == before


def _worker(blob: bytes) -> tuple[bytes, str]:
    """In another process: unpickle a state, play on, send both back."""
    s = pickle.loads(blob)
    json_after, _ = play_on(s)
    return pickle.dumps(s), json_after


def test_states_travel_through_a_process_pool() -> None:
    states = []
    for i, config in enumerate(CONFIGS):
        s = new_game(config)
        advance(s, 25 * i, seed=i)
        states.append(s)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.map(_worker, [pickle.dumps(s) for s in states])
    for s, (blob, json_after) in zip(states, results, strict=True):
        expected, _ = play_on(s.copy())
        assert json_after == expected
        assert pickle.loads(blob).to_json() == expected
