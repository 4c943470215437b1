"""Growth and Salary phases (RB fr "2: La phase de croissance", "3: La phase des
salaires"; the component listing's tracks; R7)."""

from __future__ import annotations

import pytest

from endeavor import IllegalActionError, State
from endeavor import data as D
from scenario import (
    check,
    deciding,
    decision_kind,
    fresh,
    give_building,
    give_discs,
    give_token,
    payments_left,
    texts,
)

B = D.BUILDING_INDEX
# the component listing's tracks: discs gained for a Culture score 0..15 (level + 1)
GROWTH = (2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 6, 6)


def _tokens(s, p: int, t: int, k: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(k):
        give_token(s, p, t)


def _build_all(s, code: str = "workshop") -> None:  # type: ignore[no-untyped-def]
    """Every player builds ``code`` (no action, Industry only): Construction ends."""
    while decision_kind(s) == "construction":
        s.apply(f"build {code}")


def _staffed(s, p: int) -> list[str]:  # type: ignore[no-untyped-def]
    pl = s.players[p]
    return [D.BUILDINGS[b].code for i, b in enumerate(pl.buildings) if pl.taken_circles >> i & 1]


@pytest.mark.parametrize("culture", range(16))
def test_growth_is_level_plus_one(culture: int) -> None:
    s = fresh()
    p = s.current_player
    _tokens(s, p, D.T_CULTURE, culture)
    _build_all(s)
    pl = s.players[p]
    # the Growth discs came from the supply (34 after the start disc)
    assert pl.supply == 34 - GROWTH[culture]
    # the start disc was paid automatically (1 worker, Salary Level 1)
    assert pl.harbor == GROWTH[culture] + 1
    assert s.phase_name == "Actions"
    check(s)


def test_rulebook_examples_growth() -> None:
    # RB: Culture 2 -> 3 discs; Culture 3 -> 3 discs
    s = fresh()
    p = s.current_player
    q = (p + 1) % 4
    _tokens(s, p, D.T_CULTURE, 2)
    _tokens(s, q, D.T_CULTURE, 3)
    _build_all(s)
    assert s.players[p].supply == 31 and s.players[q].supply == 31


def test_growth_past_15_stays_6() -> None:
    s = fresh()
    p = s.current_player
    _tokens(s, p, D.T_CULTURE, 19)
    _build_all(s)
    assert s.players[p].supply == 34 - 6


def test_growth_limited_by_supply() -> None:
    # RB: not enough discs: add as many as possible and forfeit the rest
    s = fresh()
    p = s.current_player
    q = (p + 1) % 4
    give_discs(s, p, 33)  # 1 disc left in supply, Growth 2
    _tokens(s, q, D.T_CULTURE, 10)  # Growth 6
    give_discs(s, q, 31)  # 3 left
    _build_all(s)
    assert s.players[p].supply == 0
    assert s.players[p].harbor == 33 + 1 + 1
    assert s.players[q].supply == 0
    assert s.players[q].harbor == 31 + 3 + 1
    check(s)


def test_growth_with_empty_supply_gains_nothing() -> None:
    s = fresh()
    p = s.current_player
    give_discs(s, p, 34)
    _build_all(s)
    assert s.players[p].supply == 0 and s.players[p].harbor == 35
    check(s)


def test_salary_pays_everyone_automatically_when_possible() -> None:  # R7
    s = fresh()
    p = s.current_player
    give_building(s, p, "market", staffed=True)
    give_building(s, p, "shipyard", staffed=True)
    _tokens(s, p, D.T_WEALTH, 4)  # Salary Level 3 >= 3 workers
    _build_all(s)
    assert deciding(s) == ("action", p)  # no Salary decision for anyone
    assert s.players[p].taken_circles == 0
    assert s.players[p].harbor == 2 + 3  # Growth + 3 paid workers
    check(s)


def test_salary_choice_when_more_workers_than_payments() -> None:  # R7
    # RB example: Wealth 2 -> 2 payments, 3 staffed buildings: she chooses 2
    s = fresh()
    p = s.current_player
    give_building(s, p, "market", staffed=True)
    give_building(s, p, "shipyard", staffed=True)
    _tokens(s, p, D.T_WEALTH, 2)
    _build_all(s)
    assert deciding(s) == ("salary", p) and payments_left(s) == 2
    assert sorted(texts(s)) == ["pay colonial-house", "pay market", "pay shipyard"]
    with pytest.raises(IllegalActionError):
        s.apply("pay barracks")  # not a building of p
    harbor = s.players[p].harbor
    s.apply("pay shipyard")
    assert deciding(s) == ("salary", p) and payments_left(s) == 1
    assert sorted(texts(s)) == ["pay colonial-house", "pay market"]
    s.apply("pay colonial-house")
    # two payments made, the third worker stays: Salary is over for p
    assert _staffed(s, p) == ["market"]
    assert s.players[p].harbor == harbor + 2
    assert deciding(s) == ("action", p)
    check(s)


def test_salary_level_1_pays_exactly_one() -> None:  # R7
    s = fresh()
    p = s.current_player
    give_building(s, p, "market", staffed=True)
    _build_all(s)
    assert deciding(s) == ("salary", p) and payments_left(s) == 1
    s.apply("pay market")
    assert _staffed(s, p) == ["colonial-house"]
    assert deciding(s) == ("action", p)
    check(s)


def test_salary_offers_each_building_type_once() -> None:
    s = fresh()
    p = s.current_player
    for _ in range(3):
        give_building(s, p, "market", staffed=True)
    _build_all(s)
    assert deciding(s) == ("salary", p) and payments_left(s) == 1
    assert sorted(texts(s)) == ["pay colonial-house", "pay market"]
    s.apply("pay market")
    assert _staffed(s, p) == ["colonial-house", "market", "market"]


def _three_to_pay_of_four() -> tuple[State, int]:
    """A Salary decision of 3 payments (Salary Level 3) for 4 working discs (the
    Colonial House's, a Market's, a Shipyard's and a Guild Hall's), and its player."""
    s = fresh()
    p = s.current_player
    assert p is not None
    give_building(s, p, "market", staffed=True)
    give_building(s, p, "shipyard", staffed=True)
    give_building(s, p, "guild-hall", staffed=True)
    _tokens(s, p, D.T_WEALTH, 4)  # Salary Level 3, 4 workers
    _build_all(s)
    return s, p


def test_salary_rest_paid_automatically_once_payments_cover_workers() -> None:
    s, p = _three_to_pay_of_four()
    assert deciding(s) == ("salary", p) and payments_left(s) == 3
    s.apply("pay market")
    # 2 payments left, 3 workers: still a choice
    assert deciding(s) == ("salary", p) and payments_left(s) == 2
    s.apply("pay guild-hall")
    assert deciding(s) == ("salary", p) and payments_left(s) == 1
    s.apply("pay colonial-house")
    assert _staffed(s, p) == ["shipyard"]  # 3 paid, the limit
    check(s)


def test_salary_prompt_after_a_pick_says_how_many_more() -> None:  # R7
    s, p = _three_to_pay_of_four()
    d = s.decision()
    assert d is not None and d.prompt.startswith(
        "Salary: pay 3 workers back to your Harbor (4 working, Salary Level 3)")
    s.apply("pay market")
    d = s.decision()
    assert d is not None and d.prompt == (
        "Salary: pay 2 more workers back to your Harbor (1 of your Salary Level 3 paid; "
        "3 still working); the others stay on their buildings")
    s.apply("pay guild-hall")
    d = s.decision()
    assert d is not None and d.prompt.startswith(
        "Salary: pay 1 more worker back to your Harbor (2 of your Salary Level 3 paid; "
        "2 still working)")


@pytest.mark.parametrize("code", ["exchange", "museum", "parliament"])
def test_no_payment_buildings_are_paid_in_the_salary_phase(code: str) -> None:  # R15
    # RB fr: their workers can only be paid in the Salary phase
    s = fresh()
    p = s.current_player
    give_building(s, p, code, staffed=True)
    give_building(s, p, "market", staffed=True)
    _build_all(s)
    level = s.players[p].level(D.WEALTH)
    assert level < 3
    assert deciding(s) == ("salary", p) and payments_left(s) == level
    assert f"pay {code}" in texts(s)
    s.apply(f"pay {code}")
    assert code not in _staffed(s, p)
    check(s)


def test_no_payment_building_paid_automatically_too() -> None:
    s = fresh()
    p = s.current_player
    give_building(s, p, "exchange", staffed=True)  # +2 Wealth: Salary Level 2
    _build_all(s)
    assert s.players[p].taken_circles == 0  # both workers paid
    check(s)


def test_salary_turn_order_from_the_crown() -> None:
    s = fresh()
    crown = s.current_player
    for k in range(4):
        give_building(s, (crown + k) % 4, "market", staffed=True)
    _build_all(s)
    for k in range(4):
        assert deciding(s) == ("salary", (crown + k) % 4) and payments_left(s) == 1
        s.apply("pay market")
    assert deciding(s) == ("action", crown)
