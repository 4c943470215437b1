"""Ship (RB fr "Naviguer", "Ouvrir une région"; R10, R11, R12)."""

from __future__ import annotations

import pytest

from endeavor import IllegalActionError
from endeavor import data as D
from scenario import (
    REGION,
    at_actions,
    check,
    deciding,
    fresh,
    give_building,
    give_discs,
    give_token,
    place,
    sea,
    ship,
    texts,
)

AF, CA, FE = REGION["AF"], REGION["CA"], REGION["FE"]
CARD = D.CARD_INDEX


def _shipper(p: int = 0, harbor: int = 5, board: str | None = None):  # type: ignore[no-untyped-def]
    """Player ``p`` to act with a Shipyard and ``harbor`` discs."""
    s = fresh(board=board)
    give_building(s, p, "shipyard")
    give_discs(s, p, harbor)
    return at_actions(s, p)


def _fill(s, region: str, owners: list[int]) -> None:  # type: ignore[no-untyped-def]
    for q in owners:
        ship(s, q, region)


def _track_gain(s, p: int, region: int, space: int):  # type: ignore[no-untyped-def]
    """Expected (attr, blue) of p after gaining the token on ``space`` of the region's
    track (0 = farthest from the deck)."""
    pl = s.players[p]
    attr, blue = pl.attr[:], pl.blue[:]
    t = s.track_tokens(region)[space]
    assert t >= 0
    if t < 4:
        attr[t] += 1
    else:
        blue[t - 4] += 1
    return attr, blue


def test_ship_to_the_farthest_free_space_of_a_closed_track() -> None:  # R10
    s = _shipper()
    assert texts(s) == ["act shipyard", "pass"]  # the start tile is staffed
    s.apply("act shipyard")
    # every closed region's track and every Europe trade route; no open sea
    t = texts(s)
    assert {"ship AF", "ship SA", "ship CA", "ship NA", "ship IN", "ship FE"} <= set(t)
    assert {"ship EUT1", "ship EUT2", "ship EUT3"} <= set(t)
    assert not any(x.startswith("sea ") for x in t)
    attr, blue = _track_gain(s, 0, FE, 0)
    harbor = s.players[0].harbor
    s.apply("ship FE")
    assert s.track(FE) == [0, -1, -1, -1, -1, -1]
    assert s.track_tokens(FE)[0] == -1  # the token was taken...
    assert (s.players[0].attr, s.players[0].blue) == (attr, blue)  # ...by the shipper
    assert s.players[0].harbor == harbor - 1
    assert s.presence(0, FE) == 1
    check(s)


def test_rulebook_example_third_space() -> None:
    # RB: Purple ships to the third space; the first two belong to Yellow and Blue
    s = _shipper(p=2)
    _fill(s, "FE", [0, 1])
    attr, blue = _track_gain(s, 2, FE, 2)
    s.apply("act shipyard")
    s.apply("ship FE")
    assert s.track(FE)[:3] == [0, 1, 2]
    assert (s.players[2].attr, s.players[2].blue) == (attr, blue)
    check(s)


def test_you_need_no_presence_to_ship() -> None:  # R10
    s = _shipper()
    assert s.presence(0, AF) == 0
    s.apply("act shipyard")
    s.apply("ship AF")
    assert s.presence(0, AF) == 1


def test_shipping_from_a_building_needs_a_second_disc() -> None:  # R9
    s = _shipper(harbor=1)
    assert "act shipyard" not in texts(s)  # 1 disc activates, none left to ship
    give_token(s, 0, D.T_SHIP_DRAW)
    assert "use ship-draw" in texts(s)  # a token needs no activation disc
    s.apply("use ship-draw")
    s.apply("ship AF")
    assert s.players[0].harbor == 0
    assert s.players[0].blue[D.T_SHIP_DRAW - 4] == 0  # the token is spent


def test_opening_by_the_last_space_awards_the_governor_to_the_majority() -> None:  # R11
    s = _shipper(p=1)
    _fill(s, "AF", [0, 1, 0, 2, 1])  # 0: 2, 1: 2 -> player 1 ships the 6th space
    gov = CARD["AF/G"]
    assert not s.is_open(AF)
    s.apply("act shipyard")
    s.apply("ship AF")
    assert s.is_open(AF)
    assert s.region_governors[AF] == -1
    assert s.players[1].gov == gov  # majority 3, into the empty free Governor slot
    assert s.players[1].cards == []
    check(s)


def test_governor_majority_beats_the_opener() -> None:  # R11
    s = _shipper(p=2)
    _fill(s, "AF", [0, 0, 1, 0, 1])
    s.apply("act shipyard")
    s.apply("ship AF")
    assert s.players[0].gov == CARD["AF/G"]
    assert s.players[2].gov == -1
    check(s)


def test_governor_tie_goes_to_the_tied_disc_closest_to_the_deck() -> None:  # R11
    # 0 and 1 both have 2; 3 fills the last space but has only 1 disc.
    # Player 0's disc on space 4 is closer to the deck than player 1's on space 3.
    s = _shipper(p=3)
    _fill(s, "AF", [1, 0, 1, 0, 2])
    s.apply("act shipyard")
    s.apply("ship AF")
    assert s.governor_winner(AF) == 0
    assert s.players[0].gov == CARD["AF/G"]
    check(s)


def test_governor_tie_including_the_opener_goes_to_the_opener() -> None:  # R11
    # RB example: a tie for most, Purple's last disc is closest to the deck
    s = _shipper(p=2)
    _fill(s, "AF", [0, 1, 2, 0, 1])  # after the last space: 2 each
    s.apply("act shipyard")
    s.apply("ship AF")
    assert s.players[2].gov == CARD["AF/G"]


def test_governor_goes_to_a_card_slot_when_the_free_slot_is_taken() -> None:  # R11
    s = _shipper(p=1)
    _fill(s, "CA", [1, 1, 1, 1, 1])
    s.apply("act shipyard")
    s.apply("ship CA")
    assert s.players[1].gov == CARD["CA/G"]
    # now open Africa too: its Governor goes to a normal slot
    at_actions(s, 1)
    give_token(s, 1, D.T_SHIP_DRAW)
    _fill(s, "AF", [1, 1, 1, 1, 1])
    attr, _ = _track_gain(s, 1, AF, 5)
    s.apply("use ship-draw")
    s.apply("ship AF")
    assert s.players[1].gov == CARD["CA/G"]
    assert s.players[1].cards == [CARD["AF/G"]]
    # the Governor's icons are gained (AF/G: Wealth 2, Influence 1)
    assert s.players[1].attr == [attr[0], attr[1], attr[2] + 2, attr[3] + 1]
    check(s)


def test_governor_icons_are_gained() -> None:  # R11
    s = _shipper(p=0)
    _fill(s, "FE", [0, 0, 0, 0, 0])
    attr, _ = _track_gain(s, 0, FE, 5)
    s.apply("act shipyard")
    s.apply("ship FE")
    # RB: the Far East Governor gives 2 Industry, 1 Culture (and 1 Glory)
    assert s.players[0].attr == [attr[0] + 2, attr[1] + 1, attr[2], attr[3]]
    check(s)


def test_open_region_track_is_full_trade_routes_and_open_sea() -> None:  # R10
    s = _shipper(p=3)
    assert "ship AFT1" not in texts(s)
    s.apply("act shipyard")
    assert "ship AFT1" not in texts(s)  # closed region: no trade route
    assert "sea AF" not in texts(s)  # closed region: no open sea
    _fill(s, "AF", [0, 1, 2, 0, 1, 2])  # opened by helper moves
    t = texts(s)
    assert "ship AF" not in t  # the track is full
    assert "ship AFT1" in t and "sea AF" in t
    with pytest.raises(IllegalActionError):
        s.apply("ship AF")
    s.apply("ship AFT1")
    assert s.site_owner[D.SITE_INDEX["AFT1"]] == 3
    assert s.presence(3, AF) == 1
    check(s)


def test_trade_route_token_and_only_unoccupied_routes() -> None:  # R10
    s = _shipper(p=0)
    x = D.SITE_INDEX["EUT2"]
    t = s.site_token[x]
    attr, blue = s.players[0].attr[:], s.players[0].blue[:]
    if t < 4:
        attr[t] += 1
    else:
        blue[t - 4] += 1
    place(s, 1, "EUT1")
    s.apply("act shipyard")
    assert "ship EUT1" not in texts(s)  # occupied by player 1
    s.apply("ship EUT2")
    assert (s.players[0].attr, s.players[0].blue) == (attr, blue)
    assert s.site_token[x] == -1
    assert s.presence(0, D.EUROPE) == 1
    check(s)


def test_open_sea_only_in_open_regions_other_than_europe_and_unlimited() -> None:  # R10
    s = _shipper(p=0, harbor=8)
    _fill(s, "FE", [1, 1, 2, 2, 3, 3])
    s.apply("act shipyard")
    t = texts(s)
    assert "sea FE" in t
    assert "sea AF" not in t  # closed
    assert "sea EU" not in t  # Europe has no open sea
    attr = s.players[0].attr[:]
    s.apply("sea FE")
    assert s.sea_discs(0, FE) == 1
    assert s.presence(0, FE) == 1
    assert s.players[0].attr == attr  # no token
    check(s)
    # any number of discs of any number of players
    for q, k in ((0, 3), (1, 2), (2, 1)):
        for _ in range(k):
            at_actions(s, q)
            give_token(s, q, D.T_SHIP_DRAW)
            if s.players[q].harbor == 0:
                give_discs(s, q, 1)
            s.apply("use ship-draw")
            assert "sea FE" in texts(s)
            s.apply("sea FE")
    assert [s.sea_discs(q, FE) for q in range(3)] == [4, 2, 1]
    check(s)


def test_europe_trade_routes_need_nothing_but_a_free_route() -> None:  # R10
    s = _shipper(p=0, board="A")
    s.apply("act shipyard")
    t = texts(s)
    assert "ship EUT1" in t and "ship EUT2" in t
    assert "ship EUT3" not in t  # not on side A
    assert "ship CAT1" not in t  # Caribbean closed


def test_ship_ends_the_turn() -> None:  # R8
    s = _shipper(p=0)
    s.apply("act shipyard")
    s.apply("ship NA")
    assert deciding(s) == ("action", 1)


def _africa_open(how: str):  # type: ignore[no-untyped-def]
    """Africa open, player 2 on AF2; player 0 with 3 Harbor discs, an Occupy/Draw and
    an Attack token, and one disc in Africa of the kind ``how`` (or none)."""
    s = fresh()
    _fill(s, "AF", [0 if how == "track" else 1, 1, 1, 1, 1, 1])
    place(s, 2, "AF2")
    if how == "sea":
        sea(s, 0, "AF")
    elif how == "route":
        place(s, 0, "AFT1")
    elif how == "city":
        place(s, 0, "AF3")
    give_discs(s, 0, 3)
    give_token(s, 0, D.T_OCCUPY_DRAW)
    give_token(s, 0, D.T_ATTACK)
    return at_actions(s, 0)


def test_no_presence_no_occupy_attack_or_draw_in_a_region() -> None:  # R12
    s = _africa_open("none")
    assert s.presence(0, AF) == 0
    assert "use attack" not in texts(s)  # nobody to attack in Europe, none in Africa
    s.apply("use occupy-draw")
    t = texts(s)
    assert not any(x.startswith("occupy AF") for x in t)
    assert "draw AF" not in t


@pytest.mark.parametrize("how", ["track", "sea", "route", "city"])
def test_presence_counts_for_every_kind_of_disc(how: str) -> None:  # R12
    s = _africa_open(how)
    assert s.presence(0, AF) == 1
    assert "use attack" in texts(s)
    s.apply("use occupy-draw")
    t = texts(s)
    assert "occupy AF1" in t  # Occupy in the open region
    assert "draw AF" in t  # AF/1 needs 1 disc in Africa
    s.apply("occupy AF1")
    at_actions(s, 0)
    s.apply("use attack")
    assert "attack AF2" in texts(s)
    s.apply("attack AF2")
    assert s.site_owner[D.SITE_INDEX["AF2"]] == 0
    check(s)
