"""Final scoring (RB fr "Fin de la partie et décompte final" A-E; component listing;
R19, R20)."""

from __future__ import annotations

import pytest

import scenario as S
from endeavor import data as D
from endeavor import scoring
from endeavor.scoring import LINE_NAMES, cities_and_links, final_scores, score_lines
from scenario import check, fresh, give_building, give_card, give_discs, give_token, place

# the component listing's tracks: glory after sliding down, Industry score 0..15
GLORY = (0, 0, 2, 2, 4, 4, 4, 7, 7, 7, 10, 11, 12, 13, 14, 15)


def _tokens(s, p: int, attribute: int, k: int) -> None:  # type: ignore[no-untyped-def]
    """``k`` more on a track: Trade tokens while the game has any left to take (17
    Industry...), then discs at the track's base."""
    for _ in range(k):
        try:
            give_token(s, p, attribute)
        except ValueError:
            S.stock(s, p, attribute)


def _set_tracks(s, p: int, target: list[int]) -> None:  # type: ignore[no-untyped-def]
    for k in range(4):
        _tokens(s, p, k, target[k] - s.players[p].attr[k])
    assert s.players[p].attr == target


@pytest.mark.parametrize("score", range(20))
def test_track_glory_slides_down(score: int) -> None:
    s = fresh()
    _set_tracks(s, 0, [score, score, score, score])
    # past 15 the track extenders keep counting: glory = score (REC, the component listing's tracks)
    g = GLORY[score] if score < 16 else score
    lines = score_lines(s, 0)
    assert [lines[n] for n in LINE_NAMES[:4]] == [g, g, g, g]


def test_rulebook_example_tracks() -> None:
    # RB: 10 Industry, Culture 8 -> 7, Wealth 9 -> 7, 12 Influence
    s = fresh()
    _set_tracks(s, 0, [10, 8, 9, 12])
    lines = score_lines(s, 0)
    assert (lines["Industry"], lines["Culture"], lines["Wealth"], lines["Influence"]) == \
        (10, 7, 7, 12)


def test_cities_and_links() -> None:  # R13, R19
    s = fresh()
    assert cities_and_links(s, 0) == 0
    place(s, 0, "EU9")
    assert cities_and_links(s, 0) == 1
    place(s, 0, "EU10")
    assert cities_and_links(s, 0) == 3  # two cities + the circular link EU9-EU10
    place(s, 0, "EU7")
    assert cities_and_links(s, 0) == 5  # + EU7 + the square link EU7-EU10
    place(s, 0, "EUT2")
    assert cities_and_links(s, 0) == 6  # a trade route: 0 itself, link EUT2-EU10: 1
    place(s, 0, "EU3")
    assert cities_and_links(s, 0) == 8  # EU3 + link EUT2-EU3
    place(s, 1, "EU6")
    assert cities_and_links(s, 0) == 8  # EU6-EU7 belongs to nobody
    assert cities_and_links(s, 1) == 1
    check(s)


def test_two_glory_cities() -> None:  # R19
    s = fresh()
    place(s, 0, "SA1")
    place(s, 1, "FE4")
    place(s, 2, "SA2")
    assert cities_and_links(s, 0) == 2
    assert cities_and_links(s, 1) == 2
    assert cities_and_links(s, 2) == 1
    place(s, 0, "SAT1")
    place(s, 0, "SA3")
    # SA1 (2) + SA3 (1) + square links SAT1-SA1, SAT1-SA3 (EU4-SA3 needs EU4)
    assert cities_and_links(s, 0) == 5


def test_university_is_worth_3() -> None:  # R19
    s = fresh()
    give_building(s, 0, "university")
    give_building(s, 0, "university")
    assert score_lines(s, 0)["Buildings & cards"] == 6


def test_town_hall_counts_draw_symbols() -> None:  # R19
    s = fresh()
    give_building(s, 0, "town-hall")
    assert score_lines(s, 0)["Buildings & cards"] == 1  # its own Draw symbol
    give_building(s, 0, "market")
    give_building(s, 0, "guild-hall")
    give_building(s, 0, "trade-office")  # 2 Draw symbols
    give_building(s, 0, "shipyard")  # none
    assert score_lines(s, 0)["Buildings & cards"] == 1 + 1 + 1 + 2
    # blue tokens are not buildings
    give_token(s, 0, D.T_SHIP_DRAW)
    assert score_lines(s, 0)["Buildings & cards"] == 5
    # without a Town Hall the same buildings give nothing
    give_building(s, 1, "market")
    give_building(s, 1, "trade-office")
    assert score_lines(s, 1)["Buildings & cards"] == 0


def test_card_glory_including_governors() -> None:  # R19
    s = fresh()
    give_card(s, 0, "NA/5")  # 6 glory
    give_card(s, 0, "AF/G")  # 1 glory, in a normal slot
    give_card(s, 0, "FE/G")
    S.slot_governor(s, 0, "FE/G")  # 1 glory in the free slot
    lines = score_lines(s, 0)
    assert lines["Buildings & cards"] == 8
    assert lines["Governor slot"] == 0


def test_empty_governor_slot_is_worth_3() -> None:  # R19
    s = fresh()
    assert score_lines(s, 0)["Governor slot"] == 3
    give_card(s, 0, "AF/G")  # a Governor in a normal slot leaves the free slot empty
    assert score_lines(s, 0)["Governor slot"] == 3


@pytest.mark.parametrize("harbor, glory", [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2), (11, 3)])
def test_extra_population(harbor: int, glory: int) -> None:  # R19
    s = fresh()
    give_discs(s, 0, harbor)
    assert score_lines(s, 0)["Extra population"] == glory


def test_slavery_subtraction() -> None:  # R17, R19
    s = fresh()
    give_card(s, 0, "SL/0")
    give_card(s, 0, "SL/1")
    assert score_lines(s, 0)["Slavery"] == 0  # held, not set aside
    S.abolish_slavery(s)
    assert score_lines(s, 0)["Slavery"] == -2


def test_line_order_and_total() -> None:  # R19, R20
    s = fresh()
    give_discs(s, 2, 7)
    for b in final_scores(s):
        assert tuple(b.lines) == LINE_NAMES
        assert b.total == sum(b.lines.values())
    assert LINE_NAMES == ("Industry", "Culture", "Wealth", "Influence", "Cities & links",
                          "Buildings & cards", "Governor slot", "Extra population",
                          "Slavery")


def test_ties_share_the_rank() -> None:  # R19
    s = fresh()
    give_discs(s, 0, 6)  # 3 + 2
    give_discs(s, 1, 6)  # 3 + 2
    give_discs(s, 2, 3)  # 3 + 1
    scores = final_scores(s)
    assert [b.total for b in scores] == [5, 5, 4, 3]
    assert [b.rank for b in scores] == [1, 1, 3, 4]
    assert [b.player for b in scores] == [0, 1, 2, 3]


def test_all_tied() -> None:  # R19
    s = fresh()
    assert [b.rank for b in final_scores(s)] == [1, 1, 1, 1]


def test_rulebook_example_69() -> None:  # R19, R20
    # RB fr: Red scores A 10/7/7/12, B 19, C 14 (incl. the empty Governor slot),
    # D 1, E -1: 69
    s = fresh()
    p = 0
    # B: 19 glory of cities and links
    for i in range(1, 11):
        place(s, p, f"EU{i}")
    # 10 cities + links EU9-EU10, EU7-EU10, EU6-EU7, EU5-EU6: 14
    for site in ("SA1", "SAT1", "EUT1"):  # 2 + link SAT1-SA1 + EUT1-EU1, EUT1-EU5
        place(s, p, site)
    assert cities_and_links(s, p) == 19
    # C: 11 printed glory + 3 for the empty Governor slot
    give_building(s, p, "university")  # 3
    give_card(s, p, "NA/5")  # 6
    give_card(s, p, "AF/4")  # 1
    give_card(s, p, "FE/4")  # 1
    # E: one Slavery card set aside
    give_card(s, p, "SL/0")
    S.abolish_slavery(s)
    # A: tracks 10, 8, 9, 12
    _set_tracks(s, p, [10, 8, 9, 12])
    # D: 1 group of 3 in the Harbor (4 discs)
    give_discs(s, p, 4)
    lines = score_lines(s, p)
    assert lines == {"Industry": 10, "Culture": 7, "Wealth": 7, "Influence": 12,
                     "Cities & links": 19, "Buildings & cards": 11, "Governor slot": 3,
                     "Extra population": 1, "Slavery": -1}
    assert final_scores(s)[p].total == 69
    check(s)


def test_scoring_module_breakdown_is_a_frozen_record() -> None:
    s = fresh()
    b = final_scores(s)[0]
    assert isinstance(b, scoring.ScoreBreakdown)
    with pytest.raises(AttributeError):
        b.total = 3  # type: ignore[misc]
