"""Occupy, link control and Attack (RB fr "Occuper", "Contrôle des liaisons",
"Attaquer"; R9, R12, R13)."""

from __future__ import annotations

import pytest

import scenario as S
from endeavor import IllegalActionError
from endeavor import data as D
from endeavor.scoring import cities_and_links
from scenario import (
    REGION,
    at_actions,
    check,
    deciding,
    fresh,
    give_building,
    give_discs,
    give_token,
    link_index,
    place,
    sea,
    set_link_token,
    set_site_token,
    ship,
    texts,
)

AF, SA = REGION["AF"], REGION["SA"]
SITE = D.SITE_INDEX
EU_CITIES = [f"occupy EU{i}" for i in range(1, 11)]


def _occupier(p: int = 0, harbor: int = 1):  # type: ignore[no-untyped-def]
    """Player ``p`` to act: Colonial House unstaffed, ``harbor`` + 1 discs in the Harbor."""
    s = fresh()
    S.free_workers(s, p)
    give_discs(s, p, harbor)
    return at_actions(s, p)


def _open(s, region: str, owner: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(len(s.track(REGION[region]))):
        ship(s, owner, region)
    assert s.is_open(REGION[region])


def _attacker(p: int = 0, harbor: int = 3):  # type: ignore[no-untyped-def]
    s = fresh()
    give_building(s, p, "barracks")
    give_discs(s, p, harbor)
    return at_actions(s, p)


def _occupy_targets(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {t for t in texts(s) if t.startswith("occupy ")}


def _attack_targets(s) -> set[str]:  # type: ignore[no-untyped-def]
    return {t for t in texts(s) if t.startswith("attack ")}


# ------------------------------------------------------------------ Occupy
def test_occupy_any_unoccupied_europe_city_without_presence() -> None:  # R12, R13
    s = _occupier()
    assert s.presence(0, D.EUROPE) == 0
    s.apply("act colonial-house")
    assert _occupy_targets(s) == set(EU_CITIES)  # cities only, not trade routes
    x = SITE["EU3"]
    t = s.site_token[x]
    attr, blue = s.players[0].attr[:], s.players[0].blue[:]
    s.apply("occupy EU3")
    assert s.site_owner[x] == 0
    assert s.site_token[x] == -1
    if t < 4:
        attr[t] += 1
    else:
        blue[t - 4] += 1
    assert s.players[0].attr == attr and s.players[0].blue == blue
    assert s.players[0].harbor == 0  # 1 disc to activate, 1 placed
    assert s.presence(0, D.EUROPE) == 1
    check(s)


def test_occupy_needs_an_unoccupied_city() -> None:
    s = _occupier()
    place(s, 1, "EU3")
    place(s, 0, "EU4")
    s.apply("act colonial-house")
    assert _occupy_targets(s) == set(EU_CITIES) - {"occupy EU3", "occupy EU4"}
    with pytest.raises(IllegalActionError):
        s.apply("occupy EU3")


def test_occupy_from_a_building_needs_two_harbor_discs() -> None:  # R9
    s = _occupier(harbor=0)
    assert s.players[0].harbor == 1
    assert "act colonial-house" not in texts(s)
    assert texts(s) == ["pass"]


def test_no_occupy_in_a_closed_region_even_with_presence() -> None:  # R13
    s = _occupier()
    ship(s, 0, "AF")
    assert s.presence(0, AF) == 1 and not s.is_open(AF)
    s.apply("act colonial-house")
    assert not any(t.startswith("occupy AF") for t in texts(s))


def test_occupy_in_an_open_region_needs_presence() -> None:  # R12, R13
    s = _occupier()
    _open(s, "AF", 1)
    s.apply("act colonial-house")
    assert _occupy_targets(s) == set(EU_CITIES)
    s = _occupier()
    _open(s, "AF", 1)
    sea(s, 0, "AF")
    s.apply("act colonial-house")
    assert _occupy_targets(s) == set(EU_CITIES) | {"occupy AF1", "occupy AF2", "occupy AF3"}
    s.apply("occupy AF2")
    assert s.presence(0, AF) == 2
    check(s)


def test_no_occupy_when_nothing_is_free() -> None:  # R8
    s = _occupier()
    for i in range(1, 11):
        place(s, 1, f"EU{i}")
    assert "act colonial-house" not in texts(s)


# ------------------------------------------------------------------ links
def test_first_control_of_a_circular_link_takes_its_token() -> None:  # R13
    s = _occupier()
    li = set_link_token(s, "EU9", "EU10", D.T_WEALTH)
    set_site_token(s, "EU10", D.T_CULTURE)
    place(s, 0, "EU9")
    s.apply("act colonial-house")
    s.apply("occupy EU10")
    assert s.link_token[li] == -1
    assert s.players[0].attr == [0, 1, 1, 0]  # the city's Culture and the link's Wealth
    assert s.players[0].brown_tokens == [0, 1, 1, 0]
    assert s.controls_link(0, li)
    check(s)


def test_link_token_not_taken_by_holding_one_end() -> None:  # R13
    s = _occupier()
    li = set_link_token(s, "EU9", "EU10", D.T_WEALTH)
    place(s, 1, "EU9")
    s.apply("act colonial-house")
    s.apply("occupy EU10")
    assert s.link_token[li] == D.T_WEALTH
    assert not s.controls_link(0, li) and not s.controls_link(1, li)


def test_square_links_have_no_token_but_score() -> None:  # R13
    s = _occupier()
    li = link_index(s, "EU5", "EU6")
    assert not D.BOARDS[s.config.board].link_circular[li]
    assert s.link_token[li] == -1
    place(s, 0, "EU5")
    attr = s.players[0].attr[:]
    blue = s.players[0].blue[:]
    set_site_token(s, "EU6", D.T_INDUSTRY)
    s.apply("act colonial-house")
    s.apply("occupy EU6")
    attr[D.INDUSTRY] += 1  # the city's token only
    assert s.players[0].attr == attr and s.players[0].blue == blue
    assert s.controls_link(0, li)
    # EU5, EU6 and the square link EU5-EU6 (EU6-EU7, EU7-EU10 need EU7)
    assert cities_and_links(s, 0) == 3
    check(s)


def test_link_token_stays_with_the_first_controller() -> None:  # R13
    s = _attacker(p=1, harbor=6)
    li = set_link_token(s, "EU9", "EU10", D.T_INFLUENCE)
    place(s, 0, "EU9")
    place(s, 0, "EU10")
    assert s.link_token[li] == -1  # player 0 took it
    assert s.players[0].brown_tokens[D.T_INFLUENCE] == 1
    # player 1 takes both ends: controls the link, no token left to take
    give_token(s, 1, D.T_ATTACK)
    s.apply("act barracks")
    s.apply("attack EU9")
    at_actions(s, 1)
    s.apply("use attack")
    s.apply("attack EU10")
    assert s.controls_link(1, li)
    assert s.players[1].brown_tokens[D.T_INFLUENCE] == 0
    # player 0 keeps the token (and its Influence) after losing the link
    assert s.players[0].brown_tokens[D.T_INFLUENCE] == 1
    assert s.players[0].attr[D.INFLUENCE] == 1
    check(s)


def test_attack_can_win_the_first_control_of_a_link() -> None:  # R13
    # RB example: Blue attacks, now controls the link first and takes its token
    s = _attacker(p=2)
    li = set_link_token(s, "EU8", "AF1", D.T_INFLUENCE)
    _open(s, "AF", 1)
    place(s, 2, "EU8")
    place(s, 1, "AF1")
    sea(s, 2, "AF")
    s.apply("act barracks")
    d = s.decision()
    assert d is not None  # the Attack says which link it completes, as an Occupy does
    assert d.option("attack AF1").text.endswith(
        "; completes the link AF1-EU8 (Influence token)")
    s.apply("attack AF1")
    assert s.link_token[li] == -1
    assert s.players[2].brown_tokens[D.T_INFLUENCE] == 1
    assert cities_and_links(s, 2) == 3 and cities_and_links(s, 1) == 0
    check(s)


# ------------------------------------------------------------------ Attack
def test_attack_costs_a_casualty_and_a_second_disc() -> None:  # R9, R13
    s = _attacker()
    place(s, 1, "EU3")
    pl, d = s.players[0], s.players[1]
    supply, dsupply = pl.supply, d.supply
    assert pl.harbor == 3
    s.apply("act barracks")
    assert _attack_targets(s) == {"attack EU3"}
    s.apply("attack EU3")
    assert pl.harbor == 0  # activation + casualty + the occupying disc
    assert pl.supply == supply + 1  # the casualty goes back to the supply
    assert d.supply == dsupply + 1  # the defender's disc goes back to its supply
    assert s.site_owner[SITE["EU3"]] == 0
    assert s.presence(1, D.EUROPE) == 0 and s.presence(0, D.EUROPE) == 1
    assert deciding(s) == ("action", 1)
    check(s)


def test_attack_from_a_building_needs_three_harbor_discs() -> None:  # R9
    s = _attacker(harbor=2)
    place(s, 1, "EU3")
    assert "act barracks" not in texts(s)
    give_discs(s, 0, 1)
    assert "act barracks" in texts(s)


def test_attack_token_needs_two_harbor_discs() -> None:  # R9
    s = fresh()
    place(s, 1, "EU3")
    give_token(s, 0, D.T_ATTACK)
    give_discs(s, 0, 1)
    at_actions(s, 0)
    assert "use attack" not in texts(s)
    give_discs(s, 0, 1)
    assert "use attack" in texts(s)
    s.apply("use attack")
    s.apply("attack EU3")
    assert s.players[0].harbor == 0
    check(s)


def test_attack_only_opponents_on_cities_and_trade_routes() -> None:  # R13
    s = _attacker()
    place(s, 0, "EU1")
    place(s, 1, "EU2")
    place(s, 2, "EUT1")
    ship(s, 3, "AF")  # a track disc cannot be attacked
    s.apply("act barracks")
    assert _attack_targets(s) == {"attack EU2", "attack EUT1"}
    with pytest.raises(IllegalActionError):
        s.apply("attack EU1")
    s.apply("attack EUT1")
    assert s.site_owner[SITE["EUT1"]] == 0
    check(s)


def test_no_attack_without_an_opponent_to_attack() -> None:  # R8
    s = _attacker()
    place(s, 0, "EU1")
    assert "act barracks" not in texts(s)


def test_attack_in_an_open_region_needs_presence() -> None:  # R12, R13
    s = _attacker()
    _open(s, "AF", 1)
    place(s, 2, "AF2")
    assert "act barracks" not in texts(s)  # no presence in Africa
    sea(s, 0, "AF")
    assert "act barracks" in texts(s)
    s.apply("act barracks")
    assert _attack_targets(s) == {"attack AF2"}


def test_defender_may_lose_presence() -> None:  # R12, R13
    s = _attacker()
    _open(s, "AF", 1)
    place(s, 2, "AF2")
    sea(s, 0, "AF")
    assert s.presence(2, AF) == 1
    s.apply("act barracks")
    s.apply("attack AF2")
    assert s.presence(2, AF) == 0
    # so player 2 can no longer Occupy in Africa
    give_token(s, 2, D.T_OCCUPY_DRAW)
    give_discs(s, 2, 1)
    at_actions(s, 2)
    s.apply("use occupy-draw")
    assert not any(t.startswith("occupy AF") for t in texts(s))
    check(s)


def test_defender_with_other_discs_keeps_presence() -> None:  # R12
    s = _attacker()
    _open(s, "AF", 2)
    place(s, 2, "AF2")
    sea(s, 0, "AF")
    s.apply("act barracks")
    s.apply("attack AF2")
    assert s.presence(2, AF) == 6  # the track discs remain


def test_attack_a_two_glory_city() -> None:  # R13, R19
    s = _attacker()
    _open(s, "SA", 3)
    place(s, 1, "SA1")  # Rio de Janeiro, 2 Glory
    assert D.SITES[SITE["SA1"]].glory == 2
    assert cities_and_links(s, 1) == 2
    sea(s, 0, "SA")
    s.apply("act barracks")
    s.apply("attack SA1")
    assert cities_and_links(s, 0) == 2
    assert cities_and_links(s, 1) == 0
    check(s)


def test_attacker_gains_no_city_token_already_taken() -> None:  # R13
    s = _attacker()
    set_site_token(s, "EU3", D.T_WEALTH)
    place(s, 1, "EU3", token=None)  # player 1 takes the token when occupying
    assert s.players[1].attr[D.WEALTH] == 1
    s.apply("act barracks")
    s.apply("attack EU3")
    assert s.players[0].attr == [0, 0, 0, 0]
    assert s.players[1].attr[D.WEALTH] == 1  # the defender keeps its token
    check(s)


def test_attack_in_europe_needs_no_presence() -> None:  # R12
    s = _attacker()
    place(s, 3, "EU7")
    assert s.presence(0, D.EUROPE) == 0
    s.apply("act barracks")
    assert _attack_targets(s) == {"attack EU7"}
