"""Mixed actions and turn order in the Action phase (RB fr "Réaliser des actions",
"4: La phase d'action"; classic "Mixed actions"; R8)."""

from __future__ import annotations

import pytest

import scenario as S
from endeavor import IllegalActionError
from endeavor import data as D
from scenario import (
    REGION,
    at_actions,
    check,
    deciding,
    decision_kind,
    fresh,
    give_building,
    give_card,
    give_discs,
    give_token,
    place,
    sea,
    ship,
    texts,
)

AF, FE = REGION["AF"], REGION["FE"]
CARD = D.CARD_INDEX
SITE = D.SITE_INDEX


def _actor(code: str | None = None, harbor: int = 4, p: int = 0,  # type: ignore[no-untyped-def]
           **options: object):
    s = fresh(**options)
    if code:
        give_building(s, p, code)
    give_discs(s, p, harbor)
    return at_actions(s, p)


def _kinds(s) -> set[str]:  # type: ignore[no-untyped-def]
    """The verbs on offer ("ship" covers tracks and trade routes)."""
    return {t.split()[0] for t in texts(s)}


def _open(s, region: str, owner: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(len(s.track(REGION[region]))):
        ship(s, owner, region)


# ------------------------------------------------------------------ "/" sources
def test_guild_hall_ship_or_draw() -> None:  # R8
    s = _actor("guild-hall")
    s.apply("act guild-hall")
    assert _kinds(s) == {"ship", "draw"}  # no "done": one action must be taken
    s.apply("draw EU")
    assert deciding(s) == ("action", 1)  # only one of the two
    s = _actor("guild-hall")
    s.apply("act guild-hall")
    s.apply("ship AF")
    assert deciding(s) == ("action", 1)


def test_fortress_occupy_or_attack() -> None:  # R8, R9
    s = _actor("fortress")
    place(s, 2, "EU1")
    s.apply("act fortress")
    assert _kinds(s) == {"occupy", "attack"}
    s.apply("attack EU1")
    assert deciding(s) == ("action", 1)
    check(s)


@pytest.mark.parametrize("token, kinds", [
    (D.T_SHIP_DRAW, {"ship", "draw"}), (D.T_OCCUPY_DRAW, {"occupy", "draw"}),
    (D.T_PAYMENT, {"pay"}), (D.T_ATTACK, {"attack"}),
])
def test_blue_tokens(token: int, kinds: set[str]) -> None:  # R9
    s = _actor()
    place(s, 2, "EU1")
    give_token(s, 0, token)
    spent = s.spent[token]
    s.apply(f"use {D.TOKEN_CODES[token]}")
    assert _kinds(s) == kinds
    assert s.players[0].blue[token - 4] == 0  # spent, out of the game
    assert s.spent[token] == spent + 1
    s.apply(texts(s)[0])
    assert deciding(s) == ("action", 1)
    check(s)


def test_choice_source_offered_if_one_action_possible() -> None:  # R8
    # Fortress with 2 Harbor discs: after activating, Attack (2 discs) is impossible
    s = _actor("fortress", harbor=2)
    place(s, 2, "EU1")
    assert "act fortress" in texts(s)
    s.apply("act fortress")
    assert _kinds(s) == {"occupy"}
    # Fortress when every Europe city is taken by opponents and 1 disc remains: Occupy
    # and Attack are both impossible
    s = _actor("fortress", harbor=2)
    for i in range(1, 11):
        place(s, 2, f"EU{i}")
    assert "act fortress" not in texts(s)


def test_guild_hall_draw_only_without_harbor_disc() -> None:  # R8
    # a token needs no activation disc: with an empty Harbor, Ship/Draw = Draw only
    s = _actor(harbor=0)
    give_token(s, 0, D.T_SHIP_DRAW)
    s.apply("use ship-draw")
    assert _kinds(s) == {"draw"}


def test_source_not_offered_when_none_of_its_actions_is_possible() -> None:  # R8
    s = _actor("market")
    give_card(s, 1, "EU/0")
    give_card(s, 1, "SL/0")
    give_building(s, 0, "barracks")
    give_token(s, 0, D.T_ATTACK)
    give_token(s, 0, D.T_OCCUPY_DRAW)
    for i in range(1, 11):
        place(s, 0, f"EU{i}")  # every city is own: no Occupy, no Attack
    assert "act barracks" not in texts(s) and "use attack" not in texts(s)
    assert "act market" in texts(s)  # Europe count 10: EU/1 and SL/1 drawable
    assert "use occupy-draw" in texts(s)  # Draw possible, Occupy not
    s = _actor("market")
    give_card(s, 1, "EU/0")
    give_card(s, 1, "SL/0")
    give_building(s, 0, "barracks")
    give_token(s, 0, D.T_ATTACK)
    assert texts(s) == ["pass"]  # nothing to draw, nobody to attack


def test_no_legal_action_only_pass() -> None:  # R8
    s = _actor(harbor=0)
    assert texts(s) == ["pass"]
    with pytest.raises(IllegalActionError):
        s.apply("act colonial-house")
    s.apply("pass")
    assert s.has_passed(0)


# ------------------------------------------------------------------ "+" sources
def test_docks_first_action_either_kind_no_done() -> None:  # R8
    s = _actor("docks")
    s.apply("act docks")
    assert decision_kind(s) == "effect"
    assert _kinds(s) == {"ship", "occupy"}


# R23: in Age of Sail the second half may be anywhere (the published text sets no region
# or deck condition); plus_same_region=True is the classic restriction as a house rule.
HOUSE = {"plus_same_region": True}


def test_docks_ship_then_occupy_anywhere() -> None:  # R23
    s = _actor("docks")
    _open(s, "AF", 1)
    ship(s, 0, "SA")  # presence in South America (closed): no Occupy there
    sea(s, 0, "AF")  # presence in Africa (open)
    s.apply("act docks")
    s.apply("ship FE")  # a closed track, far from any free city
    t = set(texts(s))
    assert t == {f"occupy EU{i}" for i in range(1, 11)} | {"occupy AF1", "occupy AF2",
                                                          "occupy AF3", "done"}
    s.apply("occupy AF2")
    assert s.site_owner[SITE["AF2"]] == 0 and s.track(FE)[0] == 0
    assert deciding(s) == ("action", 1)  # both count as one turn
    check(s)


def test_docks_ship_then_occupy_in_the_same_region_house_rule() -> None:  # R23, P5
    s = _actor("docks", **HOUSE)
    s.apply("act docks")
    s.apply("ship EUT1")
    # second half: Occupy in Europe only, or decline
    t = texts(s)
    assert "done" in t
    assert {x for x in t if x != "done"} == {f"occupy EU{i}" for i in range(1, 11)}
    s.apply("occupy EU1")
    assert s.site_owner[SITE["EUT1"]] == 0 and s.site_owner[SITE["EU1"]] == 0
    assert s.players[0].harbor == 4 - 3
    assert deciding(s) == ("action", 1)  # both count as one turn
    check(s)


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_docks_occupy_then_ship(options: dict[str, object]) -> None:  # R23, P5
    s = _actor("docks", **options)
    _open(s, "AF", 1)
    sea(s, 0, "AF")
    s.apply("act docks")
    s.apply("occupy AF2")
    t = set(texts(s))
    if options:
        assert t == {"ship AFT1", "sea AF", "done"}  # Africa only
    else:  # anywhere: the closed tracks, Europe's trade routes, Africa's route and sea
        assert t == {"ship SA", "ship CA", "ship NA", "ship IN", "ship FE", "ship EUT1",
                     "ship EUT2", "ship EUT3", "ship AFT1", "sea AF", "done"}
    s.apply("sea AF")
    assert s.sea_discs(0, AF) == 2
    assert deciding(s) == ("action", 1)
    check(s)


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_docks_ship_to_a_closed_track(options: dict[str, object]) -> None:  # R23, P5
    s = _actor("docks", **options)
    s.apply("act docks")
    s.apply("ship FE")  # Far East stays closed: nothing to occupy there
    if options:
        assert deciding(s) == ("action", 1)  # skipped: no Occupy in the Far East (P5)
    else:
        assert set(texts(s)) == {f"occupy EU{i}" for i in range(1, 11)} | {"done"}


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_docks_ship_opening_a_region_then_occupy_there(
        options: dict[str, object]) -> None:  # R8, R11, R23
    s = _actor("docks", **options)
    for q in (1, 2, 3, 1, 2):
        ship(s, q, "AF")
    s.apply("act docks")
    s.apply("ship AF")  # the last space: Africa opens
    assert s.is_open(AF)
    t = set(texts(s))
    africa = {"occupy AF1", "occupy AF2", "occupy AF3", "done"}
    assert t == (africa if options else africa | {f"occupy EU{i}" for i in range(1, 11)})
    s.apply("occupy AF3")
    assert s.site_owner[SITE["AF3"]] == 0
    check(s)


def test_docks_done_declines_the_second_action() -> None:  # R8
    s = _actor("docks")
    s.apply("act docks")
    s.apply("ship EUT2")
    s.apply("done")
    assert deciding(s) == ("action", 1)
    assert s.players[0].harbor == 4 - 2
    assert not any(s.site_owner[x] == 0 for x, site in enumerate(D.SITES)
                   if site.city and site.region == D.EUROPE)
    check(s)


def test_docks_second_action_needs_a_disc() -> None:  # R8, R9
    s = _actor("docks", harbor=2)
    s.apply("act docks")
    s.apply("ship EUT2")  # the last Harbor disc
    assert deciding(s) == ("action", 1)  # nothing left for Occupy


def test_done_only_in_the_second_half() -> None:  # R8
    s = _actor("docks")
    s.apply("act docks")
    with pytest.raises(IllegalActionError):
        s.apply("done")


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_cartographer_ship_twice(options: dict[str, object]) -> None:  # R8, R23
    s = _actor("cartographer", **options)
    s.apply("act cartographer")
    assert _kinds(s) == {"ship"}
    s.apply("ship FE")
    if options:
        assert set(texts(s)) == {"ship FE", "done"}  # the same region only (P5)
    else:
        assert set(texts(s)) == {"ship AF", "ship SA", "ship CA", "ship NA", "ship IN",
                                 "ship FE", "ship EUT1", "ship EUT2", "ship EUT3", "done"}
    s.apply("ship FE")
    assert s.track(FE)[:2] == [0, 0]
    assert deciding(s) == ("action", 1)
    check(s)


def test_cartographer_second_ship_after_opening_goes_to_that_open_region() -> None:
    s = _actor("cartographer", **HOUSE)  # P5 house rule: the same region, now open
    for q in (1, 2, 3, 1, 2):
        ship(s, q, "AF")
    s.apply("act cartographer")
    s.apply("ship AF")
    assert set(texts(s)) == {"ship AFT1", "sea AF", "done"}


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_cartographer_europe_routes(options: dict[str, object]) -> None:  # R8, R10, R23
    s = _actor("cartographer", **options)
    s.apply("act cartographer")
    s.apply("ship EUT1")
    tracks = {f"ship {r}" for r in ("AF", "SA", "CA", "NA", "IN", "FE")}
    assert set(texts(s)) == {"ship EUT2", "ship EUT3", "done"} | (set() if options
                                                                  else tracks)


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_trade_office_draws_twice(options: dict[str, object]) -> None:  # R8, R23
    s = _actor("trade-office", **options)
    place(s, 0, "EU1")
    ship(s, 0, "AF")
    s.apply("act trade-office")
    assert _kinds(s) == {"draw"}
    s.apply("draw EU")  # EU/0
    if options:
        assert set(texts(s)) == {"draw EU", "done"}  # EU/1 drawable; not SL, not AF
    else:
        assert set(texts(s)) == {"draw EU", "draw SL", "draw AF", "done"}
    s.apply("draw EU")
    assert s.players[0].cards == [CARD["EU/0"], CARD["EU/1"]]
    assert deciding(s) == ("action", 1)
    check(s)


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_trade_office_second_draw(options: dict[str, object]) -> None:  # R8, R23
    s = _actor("trade-office", **options)
    ship(s, 0, "AF")
    s.apply("act trade-office")
    s.apply("draw AF")  # AF/1; AF/2 needs 2 discs
    if options:
        assert deciding(s) == ("action", 1)  # nothing more from the same deck (P5)
    else:
        assert set(texts(s)) == {"draw EU", "draw SL", "done"}


@pytest.mark.parametrize("options", [{}, HOUSE])
def test_trade_office_from_the_pile(options: dict[str, object]) -> None:  # R8, R14, R23
    s = _actor("trade-office", **options)
    for code in ("SA/1", "CA/1"):
        give_card(s, 3, code)
        S.discard_card(s, 3, code)
    place(s, 0, "EU1")
    s.apply("act trade-office")
    s.apply("draw SA/1")
    if options:
        assert set(texts(s)) == {"draw CA/1", "done"}  # the pile again, not the decks
    else:
        assert set(texts(s)) == {"draw CA/1", "draw EU", "draw SL", "done"}
    s.apply("done")
    assert s.players[0].cards == [CARD["SA/1"]]


# ------------------------------------------------------------------ turn order
def test_turn_order_skips_passed_players_and_passing_is_final() -> None:  # R8
    s = fresh()
    for q in range(4):
        give_discs(s, q, 10)
        give_building(s, q, "shipyard")
    at_actions(s, 0)
    s.apply("act shipyard")
    s.apply("ship AF")
    assert deciding(s) == ("action", 1)
    s.apply("pass")
    assert deciding(s) == ("action", 2)
    s.apply("pass")
    assert deciding(s) == ("action", 3)
    give_token(s, 3, D.T_SHIP_DRAW)
    s.apply("act shipyard")
    s.apply("ship SA")
    assert deciding(s) == ("action", 0)  # 1 and 2 are skipped
    s.apply("pass")
    assert deciding(s) == ("action", 3)  # alone: 3 plays on until passing
    s.apply("use ship-draw")
    s.apply("ship CA")
    assert deciding(s) == ("action", 3)
    s.apply("pass")
    # nobody acts again this round: Discard (no one over the limit), then round 2
    assert s.round == 2 and deciding(s) == ("construction", (s.crown) % 4)
    check(s)


def test_action_phase_starts_with_the_crown() -> None:  # R8
    s = fresh()
    crown = s.crown
    while decision_kind(s) not in ("action", None):
        s.apply(texts(s)[0])
    assert deciding(s) == ("action", crown)
    assert s.round == 1


def test_pass_is_always_available_even_with_actions() -> None:  # R8
    s = _actor("shipyard")
    assert texts(s)[-1] == "pass"
    s.apply("pass")
    assert deciding(s) == ("action", 1)
