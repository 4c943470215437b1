"""Construction phase (RB fr "1: La phase de construction"; component listing)."""

from __future__ import annotations

import pytest

from endeavor import IllegalActionError
from endeavor import data as D
from scenario import (
    check,
    deciding,
    fresh,
    give_building,
    give_token,
    pool_level5,
    sell_out,
    stock,
    texts,
)

B = D.BUILDING_INDEX
# the component listing's tracks: Build Level for an Industry score 0..15
BUILD_LEVEL = (1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 5)


def _industry(s, p: int, score: int) -> None:  # type: ignore[no-untyped-def]
    for _ in range(score - s.players[p].attr[D.INDUSTRY]):
        give_token(s, p, D.T_INDUSTRY)
    assert s.players[p].attr[D.INDUSTRY] == score


def _levels(s, p: int) -> set[int]:  # type: ignore[no-untyped-def]
    return {D.BUILDINGS[b].level for b in s.build_options(p)}


def _exhaust(s, p: int, level: int) -> None:  # type: ignore[no-untyped-def]
    """Another player builds every copy of every type of ``level``."""
    for b, bd in enumerate(D.BUILDINGS):
        if bd.level == level:
            for _ in range(s.bsupply[b]):
                give_building(s, p, bd.code)
            assert s.bsupply[b] == 0


@pytest.mark.parametrize("score", range(16))
def test_build_level_table(score: int) -> None:
    s = fresh()
    p = s.current_player
    _industry(s, p, score)
    level = BUILD_LEVEL[score]
    assert s.players[p].level(D.INDUSTRY) == level
    opts = s.build_options(p)
    # every type at or below the Build Level that is in the supply, nothing above
    expected = sorted(b for b, bd in enumerate(D.BUILDINGS)
                      if 1 <= bd.level <= level and s.bsupply[b] > 0)
    assert sorted(opts) == expected
    assert max(_levels(s, p)) == level
    assert sorted(texts(s)) == sorted(f"build {D.BUILDINGS[b].code}" for b in expected)


def test_rulebook_example_industry_5_builds_level_3_theater() -> None:
    # RB: Red has 5 Industry, Build Level 3; takes a Theater; Culture +2
    s = fresh()
    p = s.current_player
    _industry(s, p, 5)
    assert _levels(s, p) == {1, 2, 3}
    assert "build cartographer" not in texts(s)
    s.apply("build theater")
    pl = s.players[p]
    assert pl.blds[-1] == B["theater"]
    assert pl.attr[D.CULTURE] == 2
    check(s)


def test_cannot_build_above_build_level() -> None:
    s = fresh()
    with pytest.raises(IllegalActionError):
        s.apply("build bank")  # level 2 at Industry 0 (Build Level 1)
    s.apply("build market")


def test_past_15_the_build_level_stays_5() -> None:
    s = fresh()
    p = s.current_player
    _industry(s, p, 17)
    assert s.players[p].level(D.INDUSTRY) == 5
    assert _levels(s, p) == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("code, icons", [
    ("market", (0, 0, 0, 0)), ("shipyard", (0, 1, 0, 0)), ("workshop", (2, 0, 0, 0)),
    ("bank", (0, 0, 2, 0)), ("barracks", (0, 0, 0, 0)), ("guild-hall", (0, 0, 0, 0)),
    ("docks", (0, 0, 0, 0)), ("fortress", (0, 0, 0, 1)), ("theater", (0, 2, 0, 0)),
    ("cartographer", (0, 0, 0, 0)), ("trade-office", (0, 0, 0, 0)),
    ("university", (0, 0, 0, 0)),
])
def test_icons_applied_and_supply_decremented(code: str, icons: tuple[int, ...]) -> None:
    s = fresh()
    p = s.current_player
    _industry(s, p, 10)
    before = s.players[p].attr[:]
    supply = s.bsupply[B[code]]
    s.apply(f"build {code}")
    pl = s.players[p]
    assert pl.blds == [B["colonial-house"], B[code]]  # next free space, left to right
    assert [pl.attr[k] - before[k] for k in range(4)] == list(icons)
    assert s.bsupply[B[code]] == supply - 1
    assert pl.occ == 1  # a new building is unstaffed
    check(s)


def _sell_out_levels(s, *levels: int) -> None:  # type: ignore[no-untyped-def]
    """Every copy of every type of ``levels`` leaves the supply."""
    sell_out(s, *(bd.code for bd in D.BUILDINGS if bd.level in levels))


@pytest.mark.parametrize("code, icons", [
    ("exchange", (0, 0, 2, 0)), ("museum", (0, 2, 0, 0)), ("parliament", (0, 0, 0, 2)),
    ("memorial", (0, 0, 0, 0)), ("town-hall", (0, 0, 0, 0)),
])
def test_level5_build(code: str, icons: tuple[int, ...]) -> None:
    s = fresh()
    p = s.current_player
    pool_level5(s, code)  # one of this game's three available tiles
    _industry(s, p, 10)  # Build Level 5
    assert f"build {code}" in texts(s)
    s.apply(f"build {code}")
    assert s.players[p].attr == [10 + icons[0], *icons[1:]]
    assert s.bsupply[B[code]] == 0  # the only copy
    assert f"build {code}" not in texts(s)  # gone for the next player too
    check(s)


def test_duplicates_allowed_and_next_player_builds() -> None:
    s = fresh()
    p = s.current_player
    s.apply("build market")
    assert s.bsupply[B["market"]] == 4
    assert deciding(s) == ("construction", (p + 1) % 4)
    s.apply("build market")
    s.apply("build market")
    s.apply("build market")
    assert s.bsupply[B["market"]] == 1
    # next round the same player may build a second Market (duplicates allowed)
    s2 = fresh()
    p = s2.current_player
    give_building(s2, p, "market")
    assert B["market"] in s2.build_options(p)
    s2.apply("build market")
    assert s2.players[p].blds.count(B["market"]) == 2


def test_sold_out_type_is_not_offered() -> None:
    s = fresh()
    p = s.current_player
    other = (p + 1) % 4
    for _ in range(5):
        give_building(s, other, "market")
    assert s.bsupply[B["market"]] == 0
    assert "build market" not in texts(s)
    assert sorted(texts(s)) == ["build shipyard", "build workshop"]
    with pytest.raises(IllegalActionError):
        s.apply("build market")


def test_next_level_up_only_when_nothing_at_or_below_build_level() -> None:
    s = fresh()
    p = s.current_player
    other = (p + 1) % 4
    # one Level-1 building left: no fallback to Level 2
    for code in ("market", "shipyard"):
        for _ in range(5):
            give_building(s, other, code)
    for _ in range(4):
        give_building(s, other, "workshop")
    assert texts(s) == ["build workshop"]
    # none left at Build Level 1: the next level up (2) is offered, not level 3
    give_building(s, other, "workshop")
    assert _levels(s, p) == {2}
    assert sorted(texts(s)) == ["build bank", "build barracks", "build guild-hall"]
    s.apply("build guild-hall")
    assert s.players[p].blds[-1] == B["guild-hall"]
    check(s)


def test_fallback_is_only_one_level_up() -> None:
    s = fresh()
    p = s.current_player
    other = (p + 1) % 4
    _industry(s, p, 2)  # Build Level 2
    _exhaust(s, other, 1)
    _exhaust(s, other, 2)
    assert _levels(s, p) == {3}


def test_at_most_one_level5_building_per_player() -> None:
    s = fresh()
    p = s.current_player
    _industry(s, p, 10)  # Build Level 5
    five = set(s.level5)
    assert five <= set(s.build_options(p))
    give_building(s, p, D.BUILDINGS[next(iter(five))].code)
    assert not any(D.BUILDINGS[b].level == 5 for b in s.build_options(p))
    assert _levels(s, p) == {1, 2, 3, 4}
    # another player at Build Level 5 still sees the remaining level-5 tiles
    q = (p + 1) % 4
    stock(s, q, D.INDUSTRY, 10 - s.players[q].attr[D.INDUSTRY])  # 17 Industry tokens in all
    assert {b for b in s.build_options(q) if D.BUILDINGS[b].level == 5} == \
        {b for b in five if s.bsupply[b]}


def test_no_second_level5_even_as_fallback() -> None:
    s = fresh()
    p = s.current_player
    _industry(s, p, 7)  # Build Level 4
    give_building(s, p, "exchange")
    _sell_out_levels(s, 1, 2, 3, 4)
    assert s.build_options(p) == []


def test_level5_is_a_fallback_from_build_level_4() -> None:
    s = fresh()
    p = s.current_player
    _industry(s, p, 7)  # Build Level 4
    _sell_out_levels(s, 1, 2, 3, 4)
    assert sorted(s.build_options(p)) == sorted(s.level5)


def test_player_with_nothing_to_build_is_skipped() -> None:
    s = fresh()
    p = s.current_player
    _industry(s, p, 4)  # Build Level 3
    _industry(s, (p + 2) % 4, 2)  # Build Level 2: falls back to level 3
    _sell_out_levels(s, 1, 2)
    s.apply("build theater")
    # p + 1 (Build Level 1) has nothing at level 1 or 2: no Construction decision
    assert s.build_options((p + 1) % 4) == []
    assert deciding(s) == ("construction", (p + 2) % 4)
    assert _levels(s, (p + 2) % 4) == {3}
