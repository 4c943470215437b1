"""Bad input for the 2009 ruleset: corrupt classic states and records are rejected with
the reason (``State.from_json`` checks every field, the conservation invariants and the
ruleset's own facts before replaying the history), and actions of the other ruleset are
refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import scenario as S
from endeavor import GameConfig, IllegalActionError, RecordError, State, new_game, replay

Corruption = Callable[[dict[str, Any]], None]


def mid_game() -> State:
    """A real 4-player 2009 position, 70 actions in (no hand-made change)."""
    s = S.play_random(new_game(GameConfig(players=4, ruleset="classic", seed=3)), seed=1)
    return replay(s.record(), upto=70)


def built() -> State:
    """A hand-built 2009 position (checked field by field, not replayed): Africa open,
    a disc of P0 beside its track."""
    s = S.fresh(3, ruleset="classic")
    S.open_region(s, "AF", 1)
    S.beside(s, 0, "AF")
    S.at_actions(s, 0)
    return s


def supply_plus_one(d: dict[str, Any]) -> None:
    d["players"][0]["supply"] += 1


def beside_a_closed_track(d: dict[str, Any]) -> None:
    d["players"][0]["supply"] -= 1
    d["sea"][0 * 7 + 6] += 1  # P0 beside the Far East track, which is not full


def a_discard_pile(d: dict[str, Any]) -> None:
    d["pile"].append(d["decks"][1].pop())  # the top Africa card


def no_colonial_house(d: dict[str, Any]) -> None:
    d["players"][1]["buildings"] = d["players"][1]["buildings"][1:] + ["workshop"]


def a_merchant_dock(d: dict[str, Any]) -> None:
    d["players"][2]["buildings"][0] = "merchant-dock"


def a_memorial_in_the_pool(d: dict[str, Any]) -> None:
    d["level5"] = ["exchange", "memorial", "museum"]


def a_start_tile_decision(d: dict[str, Any]) -> None:
    d["stack"].append([0, 0])


def a_memorial_casualty(d: dict[str, Any]) -> None:
    d["players"][0]["supply"] -= 1
    d["players"][0]["base_discs"][1] += 1
    d["players"][0]["attr"][1] += 1


CASES: dict[str, tuple[Corruption, str]] = {
    "31 discs": (supply_plus_one, "player 0: 31 discs, not 30"),
    "beside a closed track": (beside_a_closed_track,
                              "discs beside the Far East track before it is full"),
    "a discard pile": (a_discard_pile, "the 2009 game has no discard pile"),
    "no Colonial House": (no_colonial_house, "the Colonial House is not the first building"),
    "a start tile": (a_merchant_dock, "the Colonial House is not the first building"),
    "a Memorial": (a_memorial_in_the_pool, "field 'level5' must name 3 different level-5"),
    "a start-tile decision": (a_start_tile_decision, "cannot occur in phase"),
    "a Memorial casualty": (a_memorial_casualty, "no Memorial in 2009"),
}


@pytest.mark.parametrize("make", [mid_game, built], ids=["real", "built"])
@pytest.mark.parametrize("name", list(CASES))
def test_corrupt_classic_states_are_rejected(make: Callable[[], State], name: str) -> None:
    corrupt, reason = CASES[name]
    s = make()
    d = json.loads(s.to_json())
    assert State.from_json(json.dumps(d)).to_json() == s.to_json()
    corrupt(d)
    with pytest.raises(RecordError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        State.from_json(json.dumps(d))


def test_a_classic_state_under_another_ruleset_is_rejected() -> None:
    d = json.loads(mid_game().to_json())
    d["config"]["ruleset"] = "age_of_sail"
    d["config"]["board"] = "A"
    with pytest.raises(RecordError, match="link_token|discs|history|position"):
        State.from_json(json.dumps(d))


@pytest.mark.parametrize("config, reason", [
    ({"players": 2, "ruleset": "classic"}, "is for 3 to 5 players"),
    ({"players": 3, "ruleset": "classic", "exploits": ["spanish_main"]}, "Age of Sail expansion"),
    ({"players": 3, "ruleset": "classic", "board": "A"}, "board side must be 'classic'"),
    ({"players": 3, "ruleset": "classic", "options": {"plus_same_region": True}},
     "unknown option"),
])
def test_bad_classic_records_are_rejected(config: dict[str, Any], reason: str) -> None:
    record = {"format": "endeavor-record", "version": 2, "config": config, "actions": []}
    with pytest.raises(RecordError, match=reason):
        replay(record)


def test_age_of_sail_actions_are_refused_in_classic() -> None:
    record = {"format": "endeavor-record", "version": 2,
              "config": {"players": 3, "ruleset": "classic"},
              "actions": ["start colonial-house"]}
    with pytest.raises(RecordError, match=r"action #1 \('start colonial-house'\)"):
        replay(record)
    s = S.fresh(3, ruleset="classic")
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="must make a construction decision"):
        s.apply("start colonial-house")
    assert s.to_json() == before
