"""Special buildings and track extenders (RB fr "Bâtiments spéciaux": Mémorial; "Règles
générales de la phase d'action": extensions de piste; component listing)."""

from __future__ import annotations

import pytest

from endeavor import IllegalActionError
from endeavor import data as D
from endeavor.scoring import score_lines
from scenario import (
    at_actions,
    check,
    deciding,
    decision_kind,
    fresh,
    give_building,
    give_discs,
    give_token,
    place,
    texts,
)

CASUALTY = ["casualty industry", "casualty culture", "casualty wealth",
            "casualty influence", "casualty supply"]


def _battle(memorial: int):  # type: ignore[no-untyped-def]
    """Player 0 (3 Harbor discs, a Barracks) is about to attack player 1 on EU3;
    ``memorial`` owns the Memorial."""
    s = fresh()
    give_building(s, memorial, "memorial")
    give_building(s, 0, "barracks")
    give_discs(s, 0, 3)
    place(s, 1, "EU3")
    return at_actions(s, 0)


@pytest.mark.parametrize("k", range(4))
def test_memorial_attacker_casualty_to_a_track(k: int) -> None:  # R9
    s = _battle(memorial=0)
    pl = s.players[0]
    supply = pl.supply
    attr = pl.attr[:]
    s.apply("act barracks")
    s.apply("attack EU3")
    assert deciding(s) == ("casualty", 0)
    assert sorted(texts(s)) == sorted(CASUALTY)
    s.apply(CASUALTY[k])
    attr[k] += 1
    assert pl.attr == attr  # the track rises as for a Trade token of that attribute
    assert pl.mem[k] == 1
    assert pl.supply == supply  # the disc did not return to the supply
    assert s.site_owner[D.SITE_INDEX["EU3"]] == 0
    assert deciding(s) == ("action", 1)  # then the turn ends
    check(s)  # the disc stays counted among the 35


def test_memorial_casualty_may_go_to_the_supply() -> None:
    s = _battle(memorial=0)
    pl = s.players[0]
    supply = pl.supply
    attr = pl.attr[:]
    s.apply("act barracks")
    s.apply("attack EU3")
    s.apply("casualty supply")
    assert pl.attr == attr and pl.mem == [0, 0, 0, 0]
    assert pl.supply == supply + 1
    check(s)


def test_memorial_defender_casualty() -> None:  # R9
    s = _battle(memorial=1)
    d = s.players[1]
    supply = d.supply
    s.apply("act barracks")
    s.apply("attack EU3")
    assert deciding(s) == ("casualty", 1)  # the defender decides
    with pytest.raises(IllegalActionError):
        s.apply("pass")
    s.apply("casualty wealth")
    assert d.attr[D.WEALTH] == 1 and d.mem[D.WEALTH] == 1
    assert d.supply == supply
    assert deciding(s) == ("action", 1)
    check(s)


def test_no_memorial_no_casualty_decision() -> None:
    s = _battle(memorial=2)
    supply0, supply1 = s.players[0].supply, s.players[1].supply
    s.apply("act barracks")
    s.apply("attack EU3")
    assert deciding(s) == ("action", 1)
    assert s.players[0].supply == supply0 + 1 and s.players[1].supply == supply1 + 1


def test_memorial_with_an_attack_token_and_fortress() -> None:
    s = fresh()
    give_building(s, 0, "memorial")
    give_building(s, 0, "fortress")
    give_token(s, 0, D.T_ATTACK)
    give_discs(s, 0, 5)
    place(s, 1, "EU3")
    place(s, 2, "EU4")
    at_actions(s, 0)
    s.apply("use attack")
    s.apply("attack EU3")
    s.apply("casualty industry")
    at_actions(s, 0)
    s.apply("act fortress")
    s.apply("attack EU4")
    assert deciding(s) == ("casualty", 0)
    s.apply("casualty industry")
    assert s.players[0].mem[D.INDUSTRY] == 2
    assert s.players[0].attr[D.INDUSTRY] == 2
    check(s)


def test_memorial_casualty_scores_like_a_token() -> None:
    s = _battle(memorial=0)
    for _ in range(6):
        give_token(s, 0, D.T_INFLUENCE)  # Influence 6 slides down to 4
    assert score_lines(s, 0)["Influence"] == 4
    s.apply("act barracks")
    s.apply("attack EU3")
    s.apply("casualty influence")  # 7: a glory symbol
    assert score_lines(s, 0)["Influence"] == 7
    assert s.players[0].level(D.INFLUENCE) == 4  # Card Limit follows the track


def test_memorial_casualty_survives_a_round() -> None:
    # a token of that attribute is kept for good: the end-of-round check finds it
    s = _battle(memorial=0)
    s.apply("act barracks")
    s.apply("attack EU3")
    s.apply("casualty culture")
    while decision_kind(s) not in ("construction", None):
        s.apply("pass")
    assert s.round == 2
    assert s.players[0].attr[D.CULTURE] == 1
    check(s)


# ------------------------------------------------------------------ track extenders
def test_scores_above_15_keep_counting() -> None:
    s = fresh()
    p = s.current_player
    for _ in range(18):
        give_token(s, p, D.T_INFLUENCE)
    for _ in range(17):
        give_token(s, p, D.T_CULTURE)
    give_building(s, p, "theater")  # +2 Culture past 15
    pl = s.players[p]
    assert pl.attr[D.INFLUENCE] == 18 and pl.attr[D.CULTURE] == 19
    lines = score_lines(s, p)
    assert lines["Influence"] == 18 and lines["Culture"] == 19
    check(s)


def test_levels_stay_5_past_15() -> None:
    s = fresh()
    p = s.current_player
    for t in (D.T_INDUSTRY, D.T_CULTURE, D.T_WEALTH, D.T_INFLUENCE):
        for _ in range(17):
            give_token(s, p, t)
    pl = s.players[p]
    assert [pl.level(k) for k in range(4)] == [5, 5, 5, 5]
    assert D.growth_level(pl.attr[D.CULTURE]) == 6
    assert {D.BUILDINGS[b].level for b in s.build_options(p)} == {1, 2, 3, 4, 5}
    s.apply("build workshop")  # Industry 19
    assert pl.attr[D.INDUSTRY] == 19 and pl.level(D.INDUSTRY) == 5
    # Growth 6, Salary 5 (1 worker), then the Action phase
    while decision_kind(s) == "construction":
        s.apply("build market")
    assert pl.supply == 34 - 6
    check(s)
