"""The engine's words name a region the way English does: "the Caribbean" and "the Far
East" take the article when they stand alone in a sentence ("opens the Caribbean",
"the open sea of the Far East"), and keep the bare name before a noun ("the Caribbean
track"); the other regions never take one."""

from __future__ import annotations

import pytest

from endeavor import IllegalActionError, State
from endeavor import testing as T


def _shipper(harbor: int = 5, ruleset: str = "age_of_sail") -> State:
    """Player 0 to act with a Shipyard (the 2009 game: a Docks) and ``harbor`` discs."""
    s = T.fresh(4, ruleset=ruleset)
    return T.ready_to_act(s, 0, harbor, "shipyard" if ruleset == "age_of_sail" else "docks")


def _fill_but_one(s: State, region: str) -> None:
    """Every space of ``region``'s track but the last holds a disc of player 1."""
    r = T.REGION[region]
    while s.filled[r] < s.info.trk_len[r] - 1:
        T.ship(s, 1, region)


@pytest.mark.parametrize("ruleset", ["age_of_sail", "classic"])
@pytest.mark.parametrize(("code", "noun"), [("CA", "the Caribbean"), ("FE", "the Far East"),
                                            ("NA", "North America")])
def test_the_ship_that_opens_a_region(ruleset: str, code: str, noun: str) -> None:
    s = _shipper(ruleset=ruleset)
    _fill_but_one(s, code)
    T.at_actions(s, 0)
    s.apply("act shipyard" if ruleset == "age_of_sail" else "act docks")
    d = s.decision()
    assert d is not None
    text = d.option(f"ship {code}").text
    assert text.endswith(f"; fills the track and opens {noun}"), text
    assert f"Ship to the {noun.removeprefix('the ')} track" in text  # before a noun: bare
    events = s.apply(f"ship {code}")
    opened = [e.text for e in events if e.kind == "region"]
    assert opened == [f"{noun[0].upper()}{noun[1:]} opens: its track is full"]


def test_the_open_sea_of_the_far_east() -> None:
    s = _shipper()
    T.open_region(s, "FE", 1)
    T.at_actions(s, 0)
    s.apply("act shipyard")
    d = s.decision()
    assert d is not None
    assert d.option("sea FE").text == ("Ship to the open sea of the Far East (presence "
                                       "there, no token)")


def test_refusals_name_the_region_with_its_article() -> None:
    s = _shipper()
    s.apply("act shipyard")
    with pytest.raises(IllegalActionError, match="The Caribbean is not open"):
        s.apply("sea CA")
    T.open_region(s, "FE", 1)  # open, but player 0 has no presence there
    T.at_actions(s, 0)
    s.apply("act colonial-house")
    with pytest.raises(IllegalActionError, match="no presence in the Far East"):
        s.apply("occupy FE1")
