"""Discard phase (RB fr "5: La phase de défausse"; R18)."""

from __future__ import annotations

import pytest

from endeavor import IllegalActionError
from endeavor import data as D
from endeavor.scoring import score_lines
from scenario import (
    at_actions,
    check,
    deciding,
    fresh,
    give_card,
    give_token,
    set_round,
    slot_governor,
    texts,
)

CARD = D.CARD_INDEX
# cards without Influence symbols, so they do not move the Card Limit
PLAIN = ["SA/1", "SA/2", "NA/1", "NA/2", "SA/3", "NA/3", "CA/3", "FE/3"]


def _setup():  # type: ignore[no-untyped-def]
    s = fresh()
    return s, s.crown


def _discard_phase(s, last: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Everyone but the Crown holder has passed; the Crown holder passes now.
    ``last`` plays it in round 7, where the Governor slot is a real choice (P1)."""
    if last:
        set_round(s, D.ROUNDS)
    c = s.crown
    at_actions(s, c, passed=((1 << s.n) - 1) & ~(1 << c))
    s.apply("pass")


def _influence(s, p: int, score: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(score - s.players[p].attr[D.INFLUENCE]):
        give_token(s, p, D.T_INFLUENCE)


def _codes(cards: list[int]) -> list[str]:
    return sorted(D.CARDS[c].code for c in cards)


@pytest.mark.parametrize("influence, limit", [
    (0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (6, 3), (7, 4), (9, 4), (10, 5), (15, 5),
    (18, 5),
])
def test_card_limit_is_the_influence_level(influence: int, limit: int) -> None:  # R18
    s, p = _setup()
    _influence(s, p, influence)
    for code in PLAIN[:limit + 1]:
        give_card(s, p, code)
    assert s.over_card_limit(p)
    _discard_phase(s)
    assert deciding(s) == ("discard", p)
    assert sorted(texts(s)) == sorted(f"discard {c}" for c in PLAIN[:limit + 1])
    s.apply(f"discard {PLAIN[0]}")
    assert len(s.players[p].cards) == limit
    assert deciding(s) != ("discard", p)  # exactly at the limit now
    check(s)


def test_rulebook_example_influence_3() -> None:  # R18
    # RB: Influence 3 keeps 2 cards + 1 Slavery + a free Governor; with 3 cards he is
    # one over and discards the South America 1 card, losing its 2 Culture
    s, p = _setup()
    give_card(s, p, "FE/G")
    slot_governor(s, p, "FE/G")
    for code in ("SA/1", "NA/2", "IN/2", "SL/0"):
        give_card(s, p, code)
    _influence(s, p, 3)
    assert s.players[p].level(D.INFLUENCE) == 2
    culture = s.players[p].attr[D.CULTURE]
    _discard_phase(s, last=True)
    assert deciding(s) == ("governor_slot", p)
    s.apply("slot FE/G")
    assert deciding(s) == ("discard", p)
    s.apply("discard SA/1")
    assert s.players[p].attr[D.CULTURE] == culture - 2
    assert CARD["SA/1"] in s.pile
    assert _codes(s.players[p].cards) == ["IN/2", "NA/2", "SL/0"]
    assert s.players[p].gov == CARD["FE/G"]
    assert s.is_over  # round 7 ends the game
    check(s)


def test_at_most_five_cards_in_normal_slots() -> None:  # R18
    s, p = _setup()
    _influence(s, p, 12)  # Card Limit 5
    for code in PLAIN[:5]:
        give_card(s, p, code)
    assert not s.over_card_limit(p)
    give_card(s, p, PLAIN[5])
    assert s.over_card_limit(p)
    _influence(s, p, 20)
    assert s.over_card_limit(p)  # no limit above 5 even past 15
    _discard_phase(s)
    assert deciding(s) == ("discard", p)
    s.apply(f"discard {PLAIN[2]}")
    assert len(s.players[p].cards) == 5
    check(s)


def test_one_slavery_card_beyond_the_limit() -> None:  # R18
    s, p = _setup()
    give_card(s, p, "SA/1")
    give_card(s, p, "SL/0")
    assert s.players[p].level(D.INFLUENCE) == 1
    assert not s.over_card_limit(p)  # 1 card + 1 Slavery
    give_card(s, p, "SL/1")
    assert s.over_card_limit(p)  # only one Slavery card is exempt
    _discard_phase(s)
    assert deciding(s) == ("discard", p)
    s.apply("discard SL/1")
    assert deciding(s) != ("discard", p)
    check(s)


def test_slavery_exemption_stays_within_five() -> None:  # R18
    s, p = _setup()
    _influence(s, p, 12)
    for code in PLAIN[:5]:
        give_card(s, p, code)
    give_card(s, p, "SL/0")
    assert s.over_card_limit(p)  # 5 + 1 Slavery > 5 slots
    s2, q = _setup()
    _influence(s2, q, 7)  # Card Limit 4
    for code in PLAIN[:4]:
        give_card(s2, q, code)
    give_card(s2, q, "SL/0")
    assert not s2.over_card_limit(q)  # 4 + 1 Slavery = 5


def test_free_governor_slot_outside_both_limits() -> None:  # R18
    s, p = _setup()
    _influence(s, p, 12)
    for code in PLAIN[:5]:
        give_card(s, p, code)
    give_card(s, p, "AF/G")
    slot_governor(s, p, "AF/G")
    pl = s.players[p]
    assert not s.over_card_limit(p)
    _discard_phase(s, last=True)
    assert deciding(s) == ("governor_slot", p)
    assert sorted(texts(s)) == ["slot AF/G", "slot none"]
    s.apply("slot AF/G")
    assert s.is_over  # no discard was needed
    assert pl.gov == CARD["AF/G"] and len(pl.cards) == 5
    check(s)


def test_governor_in_a_normal_slot_counts() -> None:  # R18
    s, p = _setup()
    give_card(s, p, "NA/1")
    give_card(s, p, "FE/G")  # give_card puts it in a normal slot
    pl = s.players[p]
    assert pl.gov == -1
    assert s.over_card_limit(p)  # 2 cards, Card Limit 1
    _discard_phase(s, last=True)
    assert deciding(s) == ("governor_slot", p)
    s.apply("slot none")  # keep it in a normal slot: one card must go
    assert deciding(s) == ("discard", p)
    assert sorted(texts(s)) == ["discard FE/G", "discard NA/1"]
    s.apply("discard NA/1")
    assert pl.cards == [CARD["FE/G"]] and pl.gov == -1
    check(s)


def test_governor_slot_choice_among_several_governors() -> None:  # R18
    s, p = _setup()
    for code in ("AF/G", "CA/G", "SA/1"):
        give_card(s, p, code)
    _influence(s, p, 2)  # Card Limit 2
    pl = s.players[p]
    _discard_phase(s, last=True)
    assert deciding(s) == ("governor_slot", p)
    assert sorted(texts(s)) == ["slot AF/G", "slot CA/G", "slot none"]
    s.apply("slot CA/G")
    assert pl.gov == CARD["CA/G"]
    assert _codes(pl.cards) == ["AF/G", "SA/1"]
    check(s)


def test_governor_can_move_out_of_the_free_slot() -> None:  # R18
    s, p = _setup()
    give_card(s, p, "AF/G")
    give_card(s, p, "CA/G")
    slot_governor(s, p, "AF/G")
    pl = s.players[p]
    _influence(s, p, 2)
    _discard_phase(s, last=True)
    s.apply("slot CA/G")
    assert pl.gov == CARD["CA/G"] and pl.cards == [CARD["AF/G"]]
    check(s)


def test_discarded_slavery_card_is_set_aside() -> None:  # R18
    s, p = _setup()
    give_card(s, p, "SA/1")
    give_card(s, p, "SL/3")
    give_card(s, p, "SL/4")
    pl = s.players[p]
    assert pl.attr[D.INDUSTRY] == 5
    _discard_phase(s)
    s.apply("discard SL/3")
    assert pl.aside == [CARD["SL/3"]]
    assert CARD["SL/3"] not in s.pile and CARD["SL/3"] not in s.removed
    assert pl.attr[D.INDUSTRY] == 2  # its 3 Industry are lost
    assert score_lines(s, p)["Slavery"] == -1
    check(s)


def test_discarded_governor_leaves_the_game() -> None:  # R18
    s, p = _setup()
    give_card(s, p, "NA/1")
    give_card(s, p, "IN/G")
    give_card(s, p, "FE/G")
    pl = s.players[p]
    _discard_phase(s, last=True)
    s.apply("slot FE/G")
    assert deciding(s) == ("discard", p)
    s.apply("discard IN/G")
    assert CARD["IN/G"] in s.removed and CARD["IN/G"] not in s.pile
    assert pl.attr == [2 + 2, 1, 0, 0]  # NA/1 + FE/G left; IN/G's icons lost
    check(s)


def test_discarded_card_goes_to_the_face_up_pile() -> None:  # R18
    s, p = _setup()
    give_card(s, p, "EU/0")
    give_card(s, p, "NA/3")
    pl = s.players[p]
    assert pl.attr == [2, 3, 1, 0]
    _discard_phase(s)
    s.apply("discard NA/3")
    assert s.pile == [CARD["NA/3"]]
    assert pl.attr == [0, 1, 1, 0]  # icons lost (R18)
    check(s)


def test_discard_is_the_players_choice_and_only_own_cards() -> None:  # R18
    s, p = _setup()
    give_card(s, p, "NA/1")
    give_card(s, p, "NA/2")
    give_card(s, (p + 1) % 4, "SA/1")
    _discard_phase(s)
    with pytest.raises(IllegalActionError):
        s.apply("discard SA/1")
    s.apply("discard NA/1")


def test_discard_order_from_the_crown_and_only_when_over() -> None:  # R5, R18
    s, p = _setup()
    for k in (0, 2, 3):
        q = (p + k) % 4
        give_card(s, q, "NA/1" if k == 0 else ("SA/1" if k == 2 else "CA/3"))
        give_card(s, q, "NA/2" if k == 0 else ("SA/2" if k == 2 else "FE/3"))
    give_card(s, (p + 1) % 4, "IN/3")  # 1 card: within the limit
    _discard_phase(s)
    seen = []
    while (d := deciding(s)) is not None and d[0] == "discard":
        seen.append(d[1])
        s.apply(texts(s)[0])
    assert seen == [p, (p + 2) % 4, (p + 3) % 4]
    assert s.round == 2
    check(s)


def test_icons_lost_lower_the_card_limit() -> None:  # R18
    # AF/1 carries 1 Influence; after discarding it the limit is recomputed
    s, p = _setup()
    _influence(s, p, 1)
    for code in ("AF/1", "NA/1", "SA/1"):
        give_card(s, p, code)
    assert s.players[p].level(D.INFLUENCE) == 2  # Influence 2
    _discard_phase(s)
    s.apply("discard AF/1")  # Influence back to 1: limit 1, still one over
    assert deciding(s) == ("discard", p)
    s.apply("discard SA/1")
    assert _codes(s.players[p].cards) == ["NA/1"]
    check(s)


def test_before_the_last_round_any_governor_can_be_discarded() -> None:  # P92
    # RB: "You may freely rearrange cards among your slots as allowed. If after
    # rearrangement you exceed your limits, you must discard cards as necessary (your
    # choice which)"; "you do not have to keep a Governor card in the Free Governor slot"
    s, p = _setup()
    give_card(s, p, "AF/G")
    slot_governor(s, p, "AF/G")
    for code in ("CA/G", "SA/1", "NA/1"):
        give_card(s, p, code)
    pl = s.players[p]
    assert pl.level(D.INFLUENCE) == 2 and s.over_card_limit(p)  # 3 cards, limit 2
    _discard_phase(s)
    assert deciding(s) == ("governor_slot", p)
    assert texts(s) == ["slot AF/G", "slot CA/G"]  # keeping the slot empty is no choice
    prompt = s.decision().prompt  # type: ignore[union-attr]
    assert prompt.startswith("Over your card limit: first choose which of your Governors")
    s.apply("slot CA/G")  # AF/G to a normal slot ...
    assert sorted(texts(s)) == ["discard AF/G", "discard NA/1", "discard SA/1"]
    s.apply("discard AF/G")  # ... where it can be the card discarded (out of the game)
    assert pl.gov == CARD["CA/G"] and _codes(pl.cards) == ["NA/1", "SA/1"]
    assert CARD["AF/G"] in s.removed
    check(s)


def test_before_the_last_round_a_governor_fills_the_empty_slot() -> None:  # P1
    # rearranging is free every Discard phase and only the last placement can score the
    # empty slot's 3 glory, so before round 7 an empty slot simply takes a Governor
    s, p = _setup()
    for code in ("SA/1", "NA/1", "AF/G"):  # AF/G held in a normal slot
        give_card(s, p, code)
    pl = s.players[p]
    assert pl.gov == -1 and s.over_card_limit(p)  # Card Limit 1, three cards
    _discard_phase(s)
    assert pl.gov == CARD["AF/G"]
    assert deciding(s) == ("discard", p)  # still one over: SA/1 + NA/1
    assert sorted(texts(s)) == ["discard NA/1", "discard SA/1"]
    s.apply("discard SA/1")
    assert deciding(s) == ("construction", (p + 1) % 4)  # round 2, Crown passed on
    check(s)
