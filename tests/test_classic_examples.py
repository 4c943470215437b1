"""Every worked example of the 2009 rulebook (``classic-2009-rulebook.en.txt``) as a
scenario test of the classic ruleset.

Each test builds the position the example describes with :mod:`scenario` (the
``endeavor.testing`` builders), checks the conservation invariants, then drives the
decisions through ``state.apply(notation)`` exactly as a player would and asserts what
the text states. Seats of the 5-player game are named after the rulebook's colours.
"""

from __future__ import annotations

import pytest

import scenario as S
from endeavor import NotationError, State
from endeavor import data as D
from endeavor.rules.classic import SCORE_PAD, marker
from endeavor.scoring import final_scores

RED, GREEN, PURPLE, WHITE, BLACK = range(5)
I, C, W, N = D.INDUSTRY, D.CULTURE, D.WEALTH, D.INFLUENCE
AF, SA, NA, IN, FE = (S.REGION[r] for r in ("AF", "SA", "NA", "IN", "FE"))
CARD = D.CARD_INDEX
SITE = D.SITE_INDEX


def game() -> State:
    """A 5-player 2009 game at its first decision: the Crown holder builds (P70)."""
    s = S.fresh(5, ruleset="classic")
    assert S.decision_kind(s) == "construction" and s.phase_name == "Build"
    return s


def tokens(s: State, p: int, t: int, k: int) -> None:
    S.give_token(s, p, t, k)


def open_bare(s: State, region: str, *owners: int) -> None:
    """Open ``region`` with discs of ``owners`` (cycled) on a track whose free spaces
    first lose their tokens, so the tracks change only by what the test states."""
    r = S.REGION[region]
    for k in range(s.info.trk_len[r]):
        if s.track(r)[k] < 0:
            S.set_track_token(s, region, k, -1)
    S.open_region(s, region, *owners)


# --------------------------------------------------------------------------- Build, Growth, Salary
def test_green_builds_the_theater_with_industry_5() -> None:
    """Green has 5 Industry, so Build Level 3: any building of level 3 or lower; she
    chooses the Theater, whose two Culture icons push her Culture up two spaces."""
    s = game()
    tokens(s, GREEN, D.T_INDUSTRY, 5)
    S.check(s)
    while s.current_player != GREEN:
        s.apply("build market")
    d = s.decision()
    assert d is not None and d.kind == "construction"
    assert "Build phase" in d.prompt and "Industry 5" in d.prompt
    assert s.players[GREEN].level(I) == 3
    assert set(S.texts(s)) == {f"build {b.code}" for b in D.BUILDINGS if 1 <= b.level <= 3}
    assert d.option("build theater").text == \
        "Build the Theater (level 3): +2 Culture (then 2 left)"
    s.apply("build theater")
    assert s.players[GREEN].attr[C] == 2
    assert s.players[GREEN].blds == [D.CLASSIC_START_BUILDING, D.BUILDING_INDEX["theater"]]
    S.check(s)


def test_purple_grows_three_discs_with_culture_2() -> None:
    """Purple has a Culture score of 2, which gives him a Growth Level of 3: he takes 3
    Population Markers from his supply to his Harbor."""
    s = game()
    tokens(s, PURPLE, D.T_CULTURE, 2)
    events = []
    while S.decision_kind(s) == "construction":
        events += s.apply("build workshop")
    assert s.players[PURPLE].harbor == 3 and s.players[PURPLE].supply == 27
    growth = [e.text for e in events if e.kind == "growth" and e.player == PURPLE]
    assert growth == ["P2 gains 3 discs from the supply (Growth, Culture 2)"]
    assert all(s.players[p].harbor == 2 for p in (RED, GREEN, WHITE, BLACK))
    S.check(s)


def test_white_pays_two_workers_with_finance_3() -> None:
    """White has a Finance score of 3, which permits 2 Payments: she returns 2 markers
    from her occupied buildings to her Harbor and chooses which."""
    s = game()
    S.give_building(s, WHITE, "shipyard", staffed=True)
    S.give_building(s, WHITE, "market", staffed=True)
    S.staff(s, WHITE, "colonial-house")
    tokens(s, WHITE, D.T_WEALTH, 3)
    S.check(s)
    S.to_salary(s)
    assert S.deciding(s) == ("salary", WHITE)
    assert S.payments_left(s) == 2
    assert S.texts(s) == ["pay market", "pay shipyard", "pay colonial-house"]
    harbor = s.players[WHITE].harbor
    s.apply("pay shipyard")
    s.apply("pay market")
    white = s.players[WHITE]
    assert white.harbor == harbor + 2
    assert bin(white.occ).count("1") == 1  # the Colonial House keeps its worker
    S.check(s)


# --------------------------------------------------------------------------- taking actions
def test_black_activates_his_shipyard_not_his_bank() -> None:
    """Black moves a marker from his Harbor to his Shipyard's activation space to Ship;
    he could not activate his Bank, which has no activation circle."""
    s = game()
    S.give_building(s, BLACK, "bank")
    S.ready_to_act(s, BLACK, 2, "shipyard")
    assert "act shipyard" in S.texts(s)
    assert not D.BUILDINGS[D.BUILDING_INDEX["bank"]].activatable
    with pytest.raises(NotationError):
        s.apply("act bank")  # no such action: a Bank has no circle
    s.apply("act shipyard")
    assert s.players[BLACK].harbor == 1
    assert S.texts(s) == [f"ship {r}" for r in ("AF", "SA", "CA", "NA", "IN", "FE")]
    S.check(s)


def test_black_spends_an_attack_token() -> None:
    """Black discards the Attack token from his Harbor and performs the Attack."""
    s = game()
    S.place(s, PURPLE, "EU3")
    S.give_token(s, BLACK, D.T_ATTACK)
    S.set_harbor(s, BLACK, 2)
    S.at_actions(s, BLACK)
    spent = s.spent[D.T_ATTACK]
    s.apply("use attack")
    assert S.texts(s) == ["attack EU3"]
    s.apply("attack EU3")
    black = s.players[BLACK]
    assert black.blue[D.T_ATTACK - 4] == 0 and s.spent[D.T_ATTACK] == spent + 1
    assert s.site_owner[SITE["EU3"]] == BLACK and black.harbor == 0
    S.check(s)


def test_white_ships_to_the_third_far_east_space_for_politics() -> None:
    """The first and second Far East spaces are Black's and White's; White ships to the
    third and receives the Politics token there."""
    s = game()
    S.ship(s, BLACK, "FE")
    S.ship(s, WHITE, "FE")
    S.set_track_token(s, "FE", 2, D.T_INFLUENCE)
    S.ready_to_act(s, WHITE, 2, "shipyard")
    s.apply("act shipyard")
    d = s.decision()
    assert d is not None
    assert d.option("ship FE").text == \
        "Ship to the Far East track, space 3 of 8: gain a Politics token"
    politics = s.players[WHITE].attr[N]
    s.apply("ship FE")
    assert s.track(FE)[:3] == [BLACK, WHITE, WHITE]
    assert s.players[WHITE].attr[N] == politics + 1
    S.check(s)


def test_africa_governor_tie_goes_to_reds_most_recent_disc() -> None:
    """Black claims the last space of Africa's track and opens it. Red and White are
    tied with 2 discs apiece; Red's is the most recently placed, so Red receives the
    Governor: +2 Finance, +1 Politics (R11)."""
    s = game()
    for p in (WHITE, RED, WHITE, GREEN, RED):
        S.ship(s, p, "AF")
    assert s.governor_winner(AF) == RED
    S.ready_to_act(s, BLACK, 2, "shipyard")
    s.apply("act shipyard")
    d = s.decision()
    assert d is not None
    assert d.option("ship AF").text == \
        "Ship to the Africa track, space 6 of 6: gain " + \
        _token(s.track_tokens(AF)[5]) + "; fills the track and opens Africa"
    red = s.players[RED]
    finance, politics = red.attr[W], red.attr[N]
    events = s.apply("ship AF")
    assert s.is_open(AF)
    assert red.gov == CARD["AF/G"]  # the free Governor slot was empty (P1)
    assert (red.attr[W], red.attr[N]) == (finance + 2, politics + 1)
    assert [e.text for e in events if e.kind == "governor"] == [
        "P0 wins the Africa Governor (AF/G: +2 Finance, +1 Politics, 1 glory), most "
        "discs on the track (R11)"]
    assert s.decks[AF][-1] == CARD["AF/1"]  # the Governor came off the top of the deck
    S.check(s)


def _token(t: int) -> str:
    name = D.CLASSIC_TOKEN_NAMES[t]
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} token"


def test_red_gains_the_far_east_governor_and_a_politics_token() -> None:
    """Red acquires the Far East Governor (2 Industry, 1 Culture, 1 Glory if still held
    at the end) and a Politics token (+1 Politics)."""
    s = game()
    open_bare(s, "FE", RED)
    red = s.players[RED]
    assert red.gov == CARD["FE/G"] and red.attr == [2, 1, 0, 0]
    assert final_scores(s)[RED].lines["Cards"] == 1
    politics = red.attr[N]
    S.give_token(s, RED, D.T_INFLUENCE)
    assert red.attr[N] == politics + 1
    S.check(s)


def test_purple_occupies_an_african_city_then_controls_its_connection() -> None:
    """Africa is open. Purple occupies an unoccupied African city (he could have taken
    the other one) and receives its Politics token; later he holds both African
    cities and, first to control their connection, collects its Industry token."""
    s = game()
    S.open_region(s, "AF", WHITE, RED, BLACK, PURPLE)  # Purple has presence in Africa
    S.set_site_token(s, "AF1", D.T_INFLUENCE)
    S.set_link_token(s, "AF1", "AF2", D.T_INDUSTRY)
    S.give_building(s, PURPLE, "fortress")
    S.ready_to_act(s, PURPLE, 2, "colonial-house")
    s.apply("act colonial-house")
    assert {"occupy AF1", "occupy AF2"} <= set(S.texts(s))
    assert all(t.startswith("occupy EU") or t.startswith("occupy AF") for t in S.texts(s))
    politics = s.players[PURPLE].attr[N]
    s.apply("occupy AF1")
    assert s.players[PURPLE].attr[N] == politics + 1
    S.give_discs(s, PURPLE, 2)  # a later turn
    S.at_actions(s, PURPLE)
    s.apply("act fortress")
    d = s.decision()
    assert d is not None and "completes the link AF2-AF1 (Industry token)" in \
        d.option("occupy AF2").text
    industry = s.players[PURPLE].attr[I]
    events = s.apply("occupy AF2")
    assert s.players[PURPLE].attr[I] == industry + 1
    assert s.controls_link(PURPLE, S.link_index(s, "AF1", "AF2"))
    assert [e.text for e in events if e.kind == "link"] == [
        "P2 controls the link AF1-AF2 first and gains its Industry token"]
    S.check(s)


def test_white_attacks_purples_city() -> None:
    """White moves a marker from her Harbor to her supply, then a second one displaces
    Purple's marker (back to his supply) and occupies the city."""
    s = game()
    S.open_region(s, "AF", WHITE, PURPLE)
    S.place(s, PURPLE, "AF2")
    S.ready_to_act(s, WHITE, 3, "barracks")
    white, purple = s.players[WHITE], s.players[PURPLE]
    supply, psupply = white.supply, purple.supply
    s.apply("act barracks")
    assert S.texts(s) == ["attack AF2"]  # only occupied cities can be attacked
    s.apply("attack AF2")
    assert white.supply == supply + 1 and white.harbor == 0
    assert purple.supply == psupply + 1
    assert s.site_owner[SITE["AF2"]] == WHITE
    S.check(s)


def test_black_pays_the_worker_on_his_cartographer() -> None:
    """Black takes a Payment action and returns the marker on his Cartographer to his
    Harbor (he could have chosen the one on his Market instead)."""
    s = game()
    S.give_building(s, BLACK, "cartographer", staffed=True)
    S.give_building(s, BLACK, "market", staffed=True)
    S.give_token(s, BLACK, D.T_PAYMENT)
    S.set_harbor(s, BLACK, 0)
    S.at_actions(s, BLACK)
    s.apply("use payment")
    assert S.texts(s) == ["pay market", "pay cartographer"]
    s.apply("pay cartographer")
    black = s.players[BLACK]
    assert black.harbor == 1
    assert [b for k, b in enumerate(black.blds) if black.occ >> k & 1] == \
        [D.BUILDING_INDEX["market"]]
    S.check(s)


def test_green_draws_north_america_3_with_five_discs() -> None:
    """North America is open and its top card is the 3. Green has five discs there (3
    on the track plus 2 in cities), at least the card's value: she draws it and raises
    Industry and Culture by 2 apiece."""
    s = game()
    S.open_region(s, "NA", GREEN, RED, GREEN, WHITE, GREEN, BLACK, PURPLE)
    S.place(s, GREEN, "NA1")
    S.place(s, GREEN, "NA2")
    S.remove_top_cards(s, "NA", 2)
    assert s.decks[NA][-1] == CARD["NA/3"]
    assert s.draw_presence(GREEN, NA) == 5
    S.ready_to_act(s, GREEN, 1, "market")
    s.apply("act market")
    d = s.decision()
    assert d is not None
    assert d.option("draw NA").text == \
        "Draw NA/3 (+2 Industry, +2 Culture) from the North America deck (then 2 left)"
    green = s.players[GREEN]
    industry, culture = green.attr[I], green.attr[C]
    s.apply("draw NA")
    assert CARD["NA/3"] in green.cards
    assert (green.attr[I], green.attr[C]) == (industry + 2, culture + 2)
    S.check(s)


def test_abolition_purple_loses_4_industry_and_2_finance() -> None:
    """Someone draws the Abolition of Slavery card. Purple holds two Slavery cards: he
    sets them aside face down (-1 glory each at the end) and loses 4 Industry and 2
    Finance; the Slavery cards left on the board leave the game (R17)."""
    s = game()
    S.give_card(s, PURPLE, "SL/0")
    S.give_card(s, PURPLE, "SL/4")
    for city in ("EU1", "EU2", "EU3", "EU4", "EU5"):
        S.place(s, RED, city)
    S.remove_top_cards(s, "EU", 5)
    assert s.decks[D.EU_DECK][-1] == D.ABOLITION_CARD
    purple = s.players[PURPLE]
    industry, finance = purple.attr[I], purple.attr[W]
    assert (industry, finance) == (4, 2)
    S.ready_to_act(s, RED, 1, "market")
    s.apply("act market")
    events = s.apply("draw EU")
    assert s.abolished
    assert (purple.attr[I], purple.attr[W]) == (industry - 4, finance - 2)
    assert sorted(purple.aside) == [CARD["SL/0"], CARD["SL/4"]] and purple.cards == []
    assert s.decks[D.SLAVERY_DECK] == []
    assert {CARD[c] for c in ("SL/1", "SL/2", "SL/3", "SL/5")} <= set(s.removed)
    assert any(e.kind == "abolition" for e in events)
    assert final_scores(s)[PURPLE].lines["Slavery"] == -2
    S.check(s)


# --------------------------------------------------------------------------- pass / discard
def test_red_discards_south_america_1_with_politics_3() -> None:
    """Red passes with Politics 3: Card Limit 2, plus one Slavery card, plus a Governor
    in the free slot. He is one card over and discards the South America 1 card, which
    returns to its stack, and loses 2 Culture (R18, P71, P76)."""
    s = game()
    open_bare(s, "FE", RED)  # the Far East Governor, in Red's free slot
    for code in ("SA/1", "NA/1", "FE/1", "SL/1"):
        S.give_card(s, RED, code)
    tokens(s, RED, D.T_INFLUENCE, 3)
    red = s.players[RED]
    assert red.attr[N] == 3 and red.level(N) == 2 and red.gov == CARD["FE/G"]
    S.set_harbor(s, RED, 0)
    S.at_actions(s, RED)
    d = s.decision()
    assert d is not None and d.option("pass").text.endswith("card limit (2) in normal slots")
    s.apply("pass")
    d = s.decision()
    assert d is not None and (d.kind, d.player) == ("discard", RED)
    assert d.prompt == ("You passed: discard 1 of 4 cards down to your card limit "
                        "(Politics 3: limit 2 + 1 Slavery card, at most 5 in all)")
    assert S.texts(s) == ["discard SA/1", "discard NA/1", "discard FE/1", "discard SL/1"]
    assert d.option("discard SA/1").text == (
        "Discard SA/1 (+2 Culture): back into the South America deck in value order, "
        "lowest on top (P76)")
    culture = red.attr[C]
    s.apply("discard SA/1")
    assert red.attr[C] == culture - 2
    assert s.decks[SA][-1] == CARD["SA/1"]  # back on its stack, lowest value on top
    assert [D.CARDS[c].value for c in s.decks[SA]] == [5, 4, 3, 2, 1]
    assert red.gov == CARD["FE/G"] and len(red.cards) == 3
    assert S.decision_kind(s) == "action" and s.current_player != RED
    S.check(s)


def test_white_culture_16_stays_at_15_after_discarding_india_1() -> None:
    """White's Culture is 16, so its marker sits on 15. Discarding the India 1 card to
    satisfy her Card Limit, her Politics marker moves down 1, but her Culture marker
    stays on 15: the icons she holds are still 15 (P75)."""
    s = game()
    S.give_card(s, WHITE, "SA/2")
    S.give_card(s, WHITE, "IN/1")
    tokens(s, WHITE, D.T_CULTURE, 12)
    white = s.players[WHITE]
    assert (white.attr[C], white.attr[N]) == (16, 1)
    assert marker(s, WHITE, C) == 15
    assert final_scores(s)[WHITE].lines["Culture"] == 15
    S.set_harbor(s, WHITE, 0)
    S.at_actions(s, WHITE)
    s.apply("pass")
    assert S.texts(s) == ["discard SA/2", "discard IN/1"]
    s.apply("discard IN/1")
    assert (white.attr[C], white.attr[N]) == (15, 0)
    assert marker(s, WHITE, C) == 15 and marker(s, WHITE, N) == 0
    assert final_scores(s)[WHITE].lines["Culture"] == 15
    assert s.decks[IN][-1] == CARD["IN/1"]
    S.check(s)


# --------------------------------------------------------------------------- final score
RED_CITIES = ("EU1", "EU2", "EU3", "EU4", "EU5", "EU6", "EU7", "EU8", "EU9", "EU10",
              "IN1", "IN2", "NA3", "NA1", "SA1")
RED_LINKS = ("EU9-EU10", "EU7-EU10", "EU6-EU7", "EU5-EU6", "EU1-IN1", "IN1-IN2",
             "EU2-IN2", "EU1-NA3", "EU8-NA1")


def test_red_scores_71_line_by_line() -> None:
    """Red's final tally (R19, P77): A 16 for cities (fourteen 1-point cities and one
    2-point city), B 9 connections, C 10 Industry, D 7 Culture (pushed down from 8), E 7
    Finance (pushed down from 9), F 12 Politics, G 5 for cards, H 3 for the empty free
    Governor space, I 3 for his University, J 1 for 3 Harbor discs, K -2 for two
    set-aside Slavery cards: 71."""
    s = game()
    for link in RED_LINKS:
        S.set_link_token(s, *link.split("-"), -1)
    for city in RED_CITIES:
        S.place(s, RED, city)
    S.give_building(s, RED, "university")
    S.give_card(s, RED, "EU/4")  # 5 glory, no icon
    for code in ("SL/1", "SL/2"):
        S.give_card(s, RED, code)
        S.discard_card(s, RED, code)  # set aside face down (R18)
    for t, k in ((D.T_INDUSTRY, 10), (D.T_CULTURE, 8), (D.T_WEALTH, 9),
                 (D.T_INFLUENCE, 12)):
        tokens(s, RED, t, k)
    S.set_harbor(s, RED, 3)
    S.check(s)
    red = s.players[RED]
    assert red.attr == [10, 8, 9, 12] and red.gov < 0 and len(red.aside) == 2
    score = final_scores(s)[RED]
    assert list(score.lines) == [name for _, name in SCORE_PAD]
    by_letter = dict(zip((letter for letter, _ in SCORE_PAD), score.lines.values(),
                         strict=True))
    assert by_letter == {"A": 16, "B": 9, "C": 10, "D": 7, "E": 7, "F": 12, "G": 5, "H": 3,
                         "I": 3, "J": 1, "K": -2}
    assert score.total == 71
