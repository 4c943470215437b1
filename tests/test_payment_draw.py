"""Payment and Draw (RB fr "Paiement", "Piocher", "Abolition de l'esclavage", the discard
pile; R14, R15, R16, R17)."""

from __future__ import annotations

import pytest

import scenario as S
from endeavor import IllegalActionError
from endeavor import data as D
from scenario import (
    REGION,
    at_actions,
    check,
    fresh,
    give_building,
    give_card,
    give_discs,
    give_token,
    place,
    ship,
    texts,
)

AF, NA = REGION["AF"], REGION["NA"]
CARD = D.CARD_INDEX
B = D.BUILDING_INDEX


def _staffed(s, p: int) -> list[str]:  # type: ignore[no-untyped-def]
    pl = s.players[p]
    return [D.BUILDINGS[b].code for i, b in enumerate(pl.buildings) if pl.taken_circles >> i & 1]


def _drawer(p: int = 0, **options: object):  # type: ignore[no-untyped-def]
    """Player ``p`` to act with a Market and 1 disc to activate it."""
    s = fresh(**options)
    give_building(s, p, "market")
    give_discs(s, p, 1)
    return at_actions(s, p)


def _draws(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {t for t in texts(s) if t.startswith("draw ")}


def _to_pile(s, code: str) -> None:  # type: ignore[no-untyped-def]
    """Put card ``code`` on the face-up discard pile (held by player 3, discarded)."""
    give_card(s, 3, code)
    S.discard_card(s, 3, code)
    assert CARD[code] in s.pile


# ------------------------------------------------------------------ Payment
def test_payment_moves_one_worker_to_the_harbor() -> None:
    s = fresh()
    give_building(s, 0, "market", staffed=True)
    give_building(s, 0, "shipyard", staffed=True)
    give_token(s, 0, D.T_PAYMENT)
    at_actions(s, 0)
    assert "use payment" in texts(s)
    s.apply("use payment")
    assert sorted(texts(s)) == ["pay colonial-house", "pay market", "pay shipyard"]
    s.apply("pay market")
    assert _staffed(s, 0) == ["colonial-house", "shipyard"]
    assert s.players[0].harbor == 1
    assert s.players[0].blue[D.T_PAYMENT - 4] == 0
    # the freed building can be activated again later
    at_actions(s, 0)
    assert "act market" in texts(s)
    check(s)


def test_payment_needs_a_worker_to_pay() -> None:  # R8
    s = fresh()
    S.free_workers(s, 0)
    give_token(s, 0, D.T_PAYMENT)
    at_actions(s, 0)
    assert "use payment" not in texts(s)


@pytest.mark.parametrize("code", ["exchange", "museum", "parliament"])
def test_payment_cannot_free_a_no_payment_building(code: str) -> None:  # R15
    s = fresh()
    give_building(s, 0, code, staffed=True)
    give_token(s, 0, D.T_PAYMENT)
    at_actions(s, 0)
    s.apply("use payment")
    assert texts(s) == ["pay colonial-house"]
    with pytest.raises(IllegalActionError):
        s.apply(f"pay {code}")


@pytest.mark.parametrize("code", ["exchange", "museum", "parliament"])
def test_payment_with_only_no_payment_workers_is_not_offered(code: str) -> None:  # R8, R15
    s = fresh()
    S.free_workers(s, 0)
    give_building(s, 0, code, staffed=True)
    give_token(s, 0, D.T_PAYMENT)
    at_actions(s, 0)
    assert "use payment" not in texts(s)


@pytest.mark.parametrize("code", ["exchange", "museum", "parliament"])
def test_payment_building_pays_others_but_not_itself(code: str) -> None:  # R15
    s = fresh()
    give_building(s, 0, code)
    give_building(s, 0, "market", staffed=True)
    give_discs(s, 0, 1)
    at_actions(s, 0)
    s.apply(f"act {code}")
    assert sorted(texts(s)) == ["pay colonial-house", "pay market"]
    s.apply("pay market")
    assert _staffed(s, 0) == ["colonial-house", code]
    assert s.players[0].harbor == 1
    check(s)


# ------------------------------------------------------------------ Draw
def test_draw_presence_must_reach_the_value() -> None:  # R14
    s = _drawer()
    s.apply("act market")
    assert "draw AF" not in _draws(s)  # AF/1 needs 1 disc in Africa
    s = _drawer()
    ship(s, 0, "AF")
    assert not s.is_open(AF)  # closed regions allowed (Age of Sail)
    s.apply("act market")
    assert "draw AF" in _draws(s)
    s.apply("draw AF")
    assert s.players[0].cards == [CARD["AF/1"]]
    # the next card is worth 2: one disc is not enough
    at_actions(s, 0)
    give_token(s, 0, D.T_SHIP_DRAW)
    s.apply("use ship-draw")
    assert "draw AF" not in texts(s)
    check(s)


def test_rulebook_example_draw_from_closed_north_america() -> None:  # R14
    # RB: Red draws the top North American card (value 3) with 3 discs there
    s = _drawer()
    for card in ("NA/1", "NA/2"):
        give_card(s, 1, card)
    for _ in range(2):
        ship(s, 0, "NA")
    assert not s.is_open(NA)
    s.apply("act market")
    assert "draw NA" not in _draws(s)
    at_actions(s, 0)
    ship(s, 0, "NA")
    give_token(s, 0, D.T_SHIP_DRAW)
    s.apply("use ship-draw")
    before = s.players[0].attr[:]
    s.apply("draw NA")
    assert s.players[0].cards == [CARD["NA/3"]]
    assert [a - b for a, b in zip(s.players[0].attr, before, strict=True)] == [2, 2, 0, 0]
    check(s)


def test_draw_zero_value_needs_no_disc() -> None:  # R14
    s = _drawer()
    s.apply("act market")
    assert _draws(s) == {"draw EU", "draw SL"}
    s.apply("draw EU")
    assert s.players[0].cards == [CARD["EU/0"]]
    assert s.players[0].attr == [0, 1, 1, 0]
    check(s)


def test_europe_count_is_cities_and_trade_routes() -> None:  # R14
    s = _drawer()
    give_card(s, 1, "EU/0")
    give_card(s, 1, "SL/0")
    ship(s, 0, "AF")  # presence elsewhere does not count for Europe
    assert "act market" in texts(s)  # AF/1 is drawable
    s.apply("act market")
    assert _draws(s) == {"draw AF"}  # EU/1 and SL/1 need 1 disc in Europe
    s = _drawer()
    give_card(s, 1, "EU/0")
    give_card(s, 1, "SL/0")
    place(s, 0, "EUT1")  # a trade route counts
    s.apply("act market")
    assert _draws(s) == {"draw EU", "draw SL"}
    s = _drawer()
    give_card(s, 1, "EU/0")
    give_card(s, 1, "EU/1")
    give_card(s, 1, "SL/0")
    give_card(s, 1, "SL/1")
    place(s, 0, "EU2")
    place(s, 0, "EUT1")  # city + trade route: 2
    s.apply("act market")
    assert _draws(s) == {"draw EU", "draw SL"}
    s.apply("draw SL")
    assert s.players[0].cards == [CARD["SL/2"]]


def test_no_drawable_card_no_draw_action() -> None:  # R8
    s = _drawer()
    give_card(s, 1, "EU/0")
    give_card(s, 1, "SL/0")
    assert "act market" not in texts(s)
    assert texts(s) == ["pass"]


def test_discard_pile_cards_use_the_europe_count() -> None:  # R14
    s = _drawer()
    give_card(s, 1, "EU/0")
    give_card(s, 1, "SL/0")
    _to_pile(s, "AF/3")
    for _ in range(5):
        ship(s, 0, "AF")  # lots of African presence does not help
    s.apply("act market")
    assert "draw AF/3" not in _draws(s)
    s = _drawer()
    _to_pile(s, "AF/3")
    _to_pile(s, "FE/5")
    for site in ("EU1", "EU2", "EUT2"):
        place(s, 0, site)
    s.apply("act market")
    assert "draw AF/3" in _draws(s)  # Europe count 3 >= 3, no African disc needed
    assert "draw FE/5" not in _draws(s)
    attr = s.players[0].attr[:]
    s.apply("draw AF/3")
    assert CARD["AF/3"] not in s.pile
    assert s.players[0].cards == [CARD["AF/3"]]
    assert s.players[0].attr == [attr[0], attr[1], attr[2] + 2, attr[3] + 2]
    check(s)


def test_value1_region_card_gives_a_disc() -> None:  # R16
    s = _drawer()
    supply = s.players[0].supply
    ship(s, 0, "AF")
    s.apply("act market")
    s.apply("draw AF")
    pl = s.players[0]
    assert pl.harbor == 1  # 1 activated the Market, 1 disc gained from the supply
    assert pl.supply == supply - 2
    check(s)


def test_value1_bonus_from_the_pile_by_default() -> None:  # R16
    s = _drawer()
    _to_pile(s, "SA/1")
    place(s, 0, "EU5")
    s.apply("act market")
    s.apply("draw SA/1")
    assert s.players[0].harbor == 1  # the bonus disc (fr)
    check(s)


def test_value1_no_bonus_from_the_pile_with_the_draft_option() -> None:  # R16
    s = _drawer(discard_pile_bonus=False)
    _to_pile(s, "SA/1")
    place(s, 0, "EU5")
    s.apply("act market")
    s.apply("draw SA/1")
    assert s.players[0].harbor == 0
    assert s.players[0].cards == [CARD["SA/1"]]
    # a value-1 card from its own deck still gives the disc
    at_actions(s, 0)
    give_token(s, 0, D.T_SHIP_DRAW)
    ship(s, 0, "IN")
    s.apply("use ship-draw")
    s.apply("draw IN")
    assert s.players[0].harbor == 1
    check(s)


@pytest.mark.parametrize("code", ["EU/1", "SL/1"])
def test_europe_and_slavery_value1_give_no_disc(code: str) -> None:
    s = _drawer()
    give_card(s, 1, code[:2] + "/0")
    place(s, 0, "EU1")
    s.apply("act market")
    s.apply(f"draw {code[:2]}")
    assert s.players[0].cards == [CARD[code]]
    assert s.players[0].harbor == 0


def test_bonus_disc_limited_by_supply() -> None:
    s = _drawer()
    ship(s, 0, "AF")
    give_discs(s, 0, s.players[0].supply)
    s.apply("act market")
    s.apply("draw AF")
    assert s.players[0].supply == 0
    check(s)


# ------------------------------------------------------------------ Abolition
def _europe_to_five(s) -> None:  # type: ignore[no-untyped-def]
    for v in range(5):
        give_card(s, 3, f"EU/{v}")


def test_abolition_sets_aside_every_slavery_card() -> None:  # R17
    s = _drawer()
    give_card(s, 1, "SL/0")
    give_card(s, 1, "SL/1")
    give_card(s, 2, "SL/2")
    _europe_to_five(s)
    for i in range(1, 6):
        place(s, 0, f"EU{i}")
    # RB example: Blue loses the symbols of her set-aside cards
    assert s.players[1].attr == [2, 0, 2, 0]
    s.apply("act market")
    s.apply("draw EU")
    assert s.abolished
    assert s.players[1].cards == [] and s.players[1].aside == [CARD["SL/0"], CARD["SL/1"]]
    assert s.players[1].attr == [0, 0, 0, 0]
    assert s.players[2].aside == [CARD["SL/2"]] and s.players[2].attr == [0, 0, 0, 0]
    # the rest of the Slavery deck leaves the game
    assert s.decks[D.SLAVERY_DECK] == []
    assert {CARD[f"SL/{v}"] for v in (3, 4, 5)} <= set(s.removed)
    at_actions(s, 0)
    give_token(s, 0, D.T_SHIP_DRAW)
    give_discs(s, 0, 1)
    s.apply("use ship-draw")
    assert "ship AF" in texts(s)
    assert "draw SL" not in texts(s)
    check(s)


def test_abolition_triggers_once() -> None:  # R17
    s = _drawer()
    _europe_to_five(s)
    for i in range(1, 6):
        place(s, 0, f"EU{i}")
    s.apply("act market")
    s.apply("draw EU")
    assert s.abolished
    # EU/5 goes to the pile and is drawn again; a Slavery card held by then stays
    S.discard_card(s, 0, "EU/5")
    card = CARD["SL/3"]
    S.give_card(s, 1, "SL/3")
    for i in range(6, 11):
        place(s, 2, f"EU{i}")
    give_token(s, 2, D.T_SHIP_DRAW)
    give_discs(s, 2, 1)
    at_actions(s, 2)
    s.apply("use ship-draw")
    s.apply("draw EU/5")
    assert s.players[1].cards == [card]
    assert s.players[1].aside == []
