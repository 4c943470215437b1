"""Records and state JSON written by the version-1 engine (before the rules object, the
R23 fix and the events) keep loading: old records replay to the same game, old state
JSON is migrated to today's format. Fixtures in ``tests/fixtures/v1`` were written by
the version-1 engine (see its README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from endeavor import RecordError, State, final_scores, replay
from endeavor.records import STATE_VERSION, VERSION

V1 = Path(__file__).parent / "fixtures" / "v1"
GAMES = sorted(p.name.split(".")[0] for p in V1.glob("*.record.json"))
MIDS = json.loads((V1 / "mid_states.legal.json").read_text())


@pytest.mark.parametrize("name", GAMES)
def test_v1_record_replays_to_the_same_game(name: str) -> None:
    record = json.loads((V1 / f"{name}.record.json").read_text())
    assert record["version"] == 1
    expected = json.loads((V1 / f"{name}.scores.json").read_text())
    s = replay(record)
    assert s.num_actions == expected["actions"] == len(record["actions"])
    assert [e.id for e in s.modules] == expected["exploits"]
    scores = final_scores(s)
    assert [x.total for x in scores] == expected["totals"]
    assert [x.lines for x in scores] == expected["lines"]
    # played with the "+" rule of its time (P5): the migrated config says so
    assert s.config.options["plus_same_region"] is True
    # and today's record of it is version 2 and replays the same
    assert s.record()["version"] == VERSION == 2
    assert replay(s.record()).to_json() == s.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_v1_final_state_json_is_migrated(name: str) -> None:
    text = (V1 / f"{name}.state.json").read_text()
    assert json.loads(text)["version"] == 1
    s = State.from_json(text)
    record = json.loads((V1 / f"{name}.record.json").read_text())
    assert s.to_json() == replay(record).to_json()
    assert json.loads(s.to_json())["version"] == STATE_VERSION == 3
    assert State.from_json(s.to_json()).to_json() == s.to_json()


@pytest.mark.parametrize("name", sorted(MIDS))
def test_v1_mid_game_state_keeps_its_decision(name: str) -> None:
    s = State.from_json((V1 / name).read_text())
    want = MIDS[name]
    assert s.current_player == want["player"]
    assert [e.id for e in s.modules] == want["exploits"]
    assert [a.text for a in s.legal_actions()] == want["legal"]
    assert s.decision() is not None
    # plays on: undo reaches back to setup, the state survives a round trip
    assert State.from_json(s.to_json()).to_json() == s.to_json()
    s.undo()
    assert s.num_actions == len(json.loads((V1 / name).read_text())["history"]) - 1


def test_v1_state_with_a_forged_field_is_rejected() -> None:
    d = json.loads((V1 / "base_4p_B.state.json").read_text())
    d["players"][0]["harbor"] += 1
    d["players"][0]["supply"] -= 1
    with pytest.raises(RecordError, match="does not follow from its history"):
        State.from_json(json.dumps(d))


def test_unknown_versions_are_refused() -> None:
    record = json.loads((V1 / "base_4p_B.record.json").read_text())
    for bad in (0, 3, True, "1", None):
        record["version"] = bad
        with pytest.raises(RecordError, match="unsupported record version"):
            replay(record)


# --------------------------------------------------------------------------- version 2
V2 = Path(__file__).parent / "fixtures" / "v2"
V2_STATES = sorted(p.name.split(".")[0] for p in V2.glob("*.state.json"))
#: the fields that version 3 renamed (version 2's name, today's)
RENAMED = {"trk_owner": "track_owner", "trk_tok": "track_token",
           "gov_avail": "region_governors", "bsupply": "building_supply",
           "smark": "site_marks", "lmark": "link_marks", "exd": "module_data"}
PLAYER_RENAMED = {"btok": "brown_tokens", "mem": "base_discs", "occ": "taken_circles"}


def test_v2_fixtures_are_there() -> None:
    assert len(V2_STATES) == 3


@pytest.mark.parametrize("name", V2_STATES)
def test_v2_state_json_is_migrated(name: str) -> None:
    text = (V2 / f"{name}.state.json").read_text()
    old = json.loads(text)
    assert old["version"] == 2
    assert set(RENAMED) <= set(old) and set(PLAYER_RENAMED) <= set(old["players"][0])
    s = State.from_json(text)
    record = json.loads((V2 / f"{name}.record.json").read_text())
    assert record["version"] == VERSION == 2
    assert s.to_json() == replay(record).to_json()
    new = json.loads(s.to_json())
    assert new["version"] == STATE_VERSION == 3
    # the same values under today's names, nothing else changed
    for was, now in RENAMED.items():
        assert new[now] == old[was]
    for p_old, p_new in zip(old["players"], new["players"], strict=True):
        for was, now in PLAYER_RENAMED.items():
            assert p_new[now] == p_old[was]
    kept = set(old) - set(RENAMED) - {"version", "players"}
    assert {k: new[k] for k in kept} == {k: old[k] for k in kept}
    # trusted (no replay) reads it the same, and today's JSON round-trips
    assert State.from_json(text, trusted=True).to_json() == s.to_json()
    assert State.from_json(s.to_json()).to_json() == s.to_json()
    assert [a.text for a in s.legal_actions()] == [
        a.text for a in replay(record).legal_actions()]


def test_v2_state_with_a_field_of_version_3_is_rejected() -> None:
    d = json.loads((V2 / f"{V2_STATES[0]}.state.json").read_text())
    d["track_owner"] = d["trk_owner"]
    with pytest.raises(RecordError, match="a version-2 state has no field 'track_owner'"):
        State.from_json(json.dumps(d))


def test_v3_state_with_a_field_of_version_2_is_rejected() -> None:
    s = State.from_json((V2 / f"{V2_STATES[0]}.state.json").read_text())
    d = json.loads(s.to_json())
    d["players"][0]["btok"] = d["players"][0].pop("brown_tokens")
    with pytest.raises(RecordError, match="brown_tokens|btok"):
        State.from_json(json.dumps(d))
