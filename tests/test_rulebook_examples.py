"""Every worked example of the Age of Sail rulebooks as a scenario test.

Each test builds the position the example describes with :mod:`scenario`, checks the
conservation invariants, then drives the decisions through ``state.apply(notation)`` and
``state.legal_actions()`` exactly as a player would, and asserts what the text states.
Where the two rulebooks differ the published French text wins (RULINGS preamble): the
final Far East space holds an Industry token in the French example (Wealth in the
English draft), and the score example is the French one (Red, 69 points).

Seats in a 4-player game are named after the rulebook colours.
"""

from __future__ import annotations

import scenario as S
from endeavor import State
from endeavor import data as D
from endeavor.scoring import LINE_NAMES, final_scores

RED, YELLOW, BLUE, PURPLE = 0, 1, 2, 3
I, C, W, N = D.INDUSTRY, D.CULTURE, D.WEALTH, D.INFLUENCE
EU, NA, IN, FE = (S.REGION[r] for r in ("EU", "NA", "IN", "FE"))
CARD = D.CARD_INDEX
SITE = D.SITE_INDEX


def others(*seats: int) -> int:
    """Bitmask of the players *not* listed (used as the ``passed`` mask)."""
    mask = 0
    for p in range(4):
        if p not in seats:
            mask |= 1 << p
    return mask


def tokens(s: State, p: int, t: int, k: int) -> None:
    for _ in range(k):
        S.give_token(s, p, t)


def build_all(s: State, choice: dict[int, str] | None = None,
              default: str = "build workshop") -> None:
    """Play the Construction phase: every player builds ``choice[p]`` or the default."""
    choice = choice or {}
    while S.decision_kind(s) == "construction":
        s.apply(choice.get(s.current_player, default))


def finish_game(s: State) -> None:
    """The last Discard phase for players the test does not care about: each keeps his
    Governor in the free slot (no forced discard is expected), then the game ends."""
    while not s.is_over:
        assert S.decision_kind(s) == "governor_slot", S.deciding(s)
        s.apply(S.texts(s)[0])


def glory(s: State, p: int) -> dict[str, int]:
    return final_scores(s)[p].lines


# --------------------------------------------------------------------------- Phase 1


def test_construction_red_build_level_3_builds_theater() -> None:
    """Red has 5 Industry, so Build Level 3: any building of level 3 or lower; she
    builds the Theater and her Culture rises by 2."""
    s = S.fresh(4)
    tokens(s, RED, D.T_INDUSTRY, 5)
    S.check(s)
    while s.current_player != RED:
        s.apply("build market")
    assert S.deciding(s) == ("construction", RED)
    red = s.players[RED]
    assert red.attr[I] == 5 and red.level(I) == 3
    offered = set(S.texts(s))
    assert offered == {f"build {b.code}" for b in D.BUILDINGS if 1 <= b.level <= 3}
    assert "build theater" in offered
    assert not any(f"build {b.code}" in offered for b in D.BUILDINGS if b.level >= 4)
    culture = red.attr[C]
    theaters = s.bsupply[D.BUILDING_INDEX["theater"]]
    s.apply("build theater")
    assert red.blds[-1] == D.BUILDING_INDEX["theater"]  # leftmost free Seaside space
    assert red.attr[C] == culture + 2
    assert s.bsupply[D.BUILDING_INDEX["theater"]] == theaters - 1
    S.check(s)


def test_construction_next_level_up_when_none_left() -> None:
    """RB: if no building at or below your Build Level remains, take one a level up."""
    s = S.fresh(4)
    p = s.current_player
    assert p is not None and s.players[p].level(I) == 1
    others_ = [q for q in range(4) if q != p]
    for code in ("market", "shipyard", "workshop"):  # every level-1 copy is taken
        for k in range(D.BUILDINGS[D.BUILDING_INDEX[code]].copies):
            S.give_building(s, others_[k % 3], code)
    S.check(s)
    assert set(S.texts(s)) == {"build bank", "build barracks", "build guild-hall"}
    s.apply("build bank")
    S.check(s)


# --------------------------------------------------------------------------- Phase 2


def test_growth_culture_3_and_2_gain_3_discs_and_short_supply() -> None:
    """Culture 3 (Growth Level 3) moves 3 discs from supply to harbor; so does Culture 2;
    Culture 0 gains 2. With too few discs in supply you gain what you can."""
    s = S.fresh(4)
    tokens(s, YELLOW, D.T_CULTURE, 3)
    tokens(s, BLUE, D.T_CULTURE, 2)
    tokens(s, PURPLE, D.T_CULTURE, 3)
    S.give_discs(s, PURPLE, 32)  # only 2 left in supply
    S.check(s)
    supply = [pl.supply for pl in s.players]
    assert supply == [34, 34, 34, 2]
    build_all(s)  # Workshops: no Culture icons
    # Growth, then Salary (one worker each, always payable: R7) ran automatically
    assert s.phase_name == "Actions" and s.round == 1
    assert [supply[p] - s.players[p].supply for p in range(4)] == [2, 3, 3, 2]
    assert s.players[PURPLE].supply == 0
    assert s.players[YELLOW].harbor == 3 + 1  # 3 grown + the paid start-tile worker
    assert s.players[PURPLE].harbor == 32 + 2 + 1
    S.check(s)


# --------------------------------------------------------------------------- Phase 3


def test_salary_blue_wealth_2_pays_2_of_3_workers() -> None:
    """Blue has Wealth 2 so she may pay 2 workers; she has 3 staffed buildings and
    chooses which 2 discs return to her Harbor (R7)."""
    s = S.fresh(4)
    tokens(s, BLUE, D.T_WEALTH, 2)
    S.give_building(s, BLUE, "market", staffed=True)
    S.give_building(s, BLUE, "guild-hall", staffed=True)
    S.check(s)
    blue = s.players[BLUE]
    assert blue.level(W) == 2 and bin(blue.occ).count("1") == 3
    build_all(s)
    # more workers than payments: Blue chooses
    assert S.deciding(s) == ("salary", BLUE) and S.payments_left(s) == 2
    harbor = blue.harbor
    assert sorted(S.texts(s)) == ["pay colonial-house", "pay guild-hall", "pay market"]
    s.apply("pay market")
    assert S.deciding(s) == ("salary", BLUE) and S.payments_left(s) == 1
    assert sorted(S.texts(s)) == ["pay colonial-house", "pay guild-hall"]
    s.apply("pay guild-hall")
    assert blue.harbor == harbor + 2
    staffed = [D.BUILDINGS[b].code for i, b in enumerate(blue.blds) if blue.occ >> i & 1]
    assert staffed == ["colonial-house"]  # the third worker stays on its building
    # the other players' single workers were paid automatically (R7)
    for p in (RED, YELLOW, PURPLE):
        assert s.players[p].occ == 0
    assert s.phase_name == "Actions"
    S.check(s)


# --------------------------------------------------------------------------- Ship


def test_far_east_third_space_then_final_space_opens_region_governor_tie() -> None:
    """Purple ships to the third Far East space (the first two were claimed by Yellow
    and Blue) and gains its Wealth token. Later he takes the final space (Industry
    token, fr), the Far East opens, and the Governor tie (Yellow 2, Purple 2) goes to the
    tied player whose disc is closest to the deck: Purple (R10, R11)."""
    s = S.fresh(4, board="B")
    assert len(s.track(FE)) == 6
    S.set_track_token(s, "FE", 2, D.T_WEALTH)
    S.set_track_token(s, "FE", 5, D.T_INDUSTRY)
    S.ship(s, YELLOW, "FE")
    S.ship(s, BLUE, "FE")
    S.give_building(s, PURPLE, "shipyard")
    S.give_token(s, PURPLE, D.T_SHIP_DRAW)
    S.give_discs(s, PURPLE, 4)
    S.at_actions(s, PURPLE, passed=others(PURPLE))
    S.check(s)
    purple = s.players[PURPLE]
    assert "act shipyard" in S.texts(s) and "use ship-draw" in S.texts(s)
    s.apply("act shipyard")
    offered = S.texts(s)
    # every closed region's track, Europe's free trade routes; no open sea anywhere yet
    assert [t for t in offered if t.startswith("ship ") and len(t) == 7] == [
        "ship AF", "ship SA", "ship CA", "ship NA", "ship IN", "ship FE"]
    assert {"ship EUT1", "ship EUT2", "ship EUT3"} <= set(offered)
    assert not any(t.startswith("sea ") for t in offered)
    wealth, wtok, harbor = purple.attr[W], purple.btok[D.T_WEALTH], purple.harbor
    s.apply("ship FE")
    assert s.track(FE) == [YELLOW, BLUE, PURPLE, -1, -1, -1]
    assert purple.attr[W] == wealth + 1 and purple.btok[D.T_WEALTH] == wtok + 1
    assert purple.harbor == harbor - 1
    assert not s.is_open(FE)
    S.check(s)

    # later: Yellow and Red claim the next two spaces, Purple takes the last one
    S.ship(s, YELLOW, "FE")
    S.ship(s, RED, "FE")
    assert s.current_player == PURPLE  # everyone else has passed
    industry, culture = purple.attr[I], purple.attr[C]
    yellow_attr = s.players[YELLOW].attr[:]
    s.apply("use ship-draw")
    assert "ship FE" in S.texts(s)
    s.apply("ship FE")
    track = s.track(FE)
    assert track == [YELLOW, BLUE, PURPLE, YELLOW, RED, PURPLE]
    assert track.count(YELLOW) == track.count(PURPLE) == 2  # a real tie
    assert s.is_open(FE)
    assert s.governor_winner(FE) == PURPLE  # R11
    fe_gov = CARD["FE/G"]
    assert purple.gov == fe_gov and s.gov_avail[FE] == -1
    # Industry token (+1) and the Governor's icons: 2 Industry, 1 Culture, 1 glory
    assert D.CARDS[fe_gov].icons == (2, 1, 0, 0) and D.CARDS[fe_gov].glory == 1
    assert purple.attr[I] == industry + 1 + 2
    assert purple.attr[C] == culture + 1
    assert s.players[YELLOW].attr == yellow_attr
    assert fe_gov not in s.held_cards(YELLOW)
    lines = glory(s, PURPLE)
    assert lines["Buildings & cards"] == 1 and lines["Governor slot"] == 0
    S.check(s)


def test_governor_tie_ignores_a_later_disc_of_a_non_tied_player() -> None:
    """R11: the tie-break looks at the tied players only; a single disc of someone else
    nearer the deck does not matter."""
    s = S.fresh(4, board="B")
    for p in (PURPLE, YELLOW, BLUE, YELLOW, PURPLE):
        S.ship(s, p, "FE")
    assert not s.is_open(FE)
    S.ship(s, RED, "FE")  # fills the track
    assert s.is_open(FE)
    assert s.governor_winner(FE) == PURPLE
    assert s.players[PURPLE].gov == CARD["FE/G"]
    S.check(s)


def test_blue_ships_to_a_trade_route_in_europe_and_gains_industry() -> None:
    """Blue ships a disc from her Harbor to an unoccupied Europe trade route and gains
    its Industry token (R10)."""
    s = S.fresh(4, board="B")
    S.set_site_token(s, "EUT1", D.T_INDUSTRY)
    S.place(s, RED, "EUT2")  # an occupied route is not offered
    S.give_building(s, BLUE, "shipyard")
    S.give_discs(s, BLUE, 2)
    S.at_actions(s, BLUE)
    S.check(s)
    s.apply("act shipyard")
    offered = S.texts(s)
    assert "ship EUT1" in offered and "ship EUT3" in offered
    assert "ship EUT2" not in offered
    blue = s.players[BLUE]
    industry = blue.attr[I]
    s.apply("ship EUT1")
    assert s.site_owner[SITE["EUT1"]] == BLUE
    assert s.site_token[SITE["EUT1"]] == -1
    assert blue.attr[I] == industry + 1 and blue.btok[D.T_INDUSTRY] == 1
    assert s.presence(BLUE, EU) == 1  # trade routes count as presence (R12, R14)
    S.check(s)


def test_red_ships_to_the_open_sea_of_the_full_far_east() -> None:
    """The Far East track is full, so Red ships to the open sea beside it to gain
    presence there: no token, any number of discs (R10, R12)."""
    s = S.fresh(4, board="B")
    for p in (YELLOW, BLUE, PURPLE, YELLOW, BLUE, PURPLE):
        S.ship(s, p, "FE")
    assert s.is_open(FE)
    S.sea(s, BLUE, "FE")  # someone else is already there
    S.give_building(s, RED, "shipyard")
    S.give_token(s, RED, D.T_OCCUPY_DRAW)
    S.give_discs(s, RED, 3)
    S.at_actions(s, RED, passed=others(RED))
    S.check(s)
    red = s.players[RED]
    assert s.presence(RED, FE) == 0
    # without presence Red cannot Occupy in the Far East yet
    s2 = s.copy()
    s2.apply("use occupy-draw")
    assert not any(t.startswith("occupy FE") for t in S.texts(s2))
    s.apply("act shipyard")
    offered = S.texts(s)
    assert "sea FE" in offered and "ship FE" not in offered
    attr = red.attr[:]
    s.apply("sea FE")  # R10
    assert s.sea_discs(RED, FE) == 1 and s.sea_discs(BLUE, FE) == 1
    assert s.presence(RED, FE) == 1
    assert red.attr == attr  # the open sea holds no token
    assert s.track(FE).count(RED) == 0
    S.check(s)
    # now Red has presence and may Occupy a Far East city
    s.apply("use occupy-draw")
    assert {f"occupy FE{i}" for i in range(1, 6)} <= set(S.texts(s))


# --------------------------------------------------------------------------- Occupy / Attack


def _india_position() -> State:
    """Side A (every classic link circular): India open, Yellow holds London (EU1), Blue
    holds Goa (IN2). Bombay (IN1) holds a blue token; the EU1-IN1 link a Culture token
    and the IN1-IN2 link an Influence token. Red holds the English Channel (EUT1)."""
    s = S.fresh(4, board="A")
    for p in (YELLOW, BLUE, RED, PURPLE, RED, PURPLE):
        S.ship(s, p, "IN")
    assert s.is_open(IN)
    S.place(s, YELLOW, "EU1")
    S.place(s, BLUE, "IN2")
    S.place(s, RED, "EUT1")
    S.set_site_token(s, "IN1", D.T_OCCUPY_DRAW)
    S.set_link_token(s, "EU1", "IN1", D.T_CULTURE)
    S.set_link_token(s, "IN1", "IN2", D.T_INFLUENCE)
    S.free_workers(s, YELLOW)
    S.give_discs(s, YELLOW, 2)
    S.give_building(s, BLUE, "barracks")
    S.give_token(s, BLUE, D.T_ATTACK)
    S.give_discs(s, BLUE, 6)
    S.at_actions(s, YELLOW, passed=others(YELLOW, BLUE))
    S.check(s)
    return s


def test_yellow_occupies_an_india_city_and_first_controls_a_link() -> None:
    """Yellow occupies a city in India, gains its blue token, and as the first player
    to control the link carrying a Culture token, gains that token too (R13)."""
    s = _india_position()
    yellow = s.players[YELLOW]
    s.apply("act colonial-house")
    offered = set(S.texts(s))
    assert {"occupy IN1", "occupy IN3"} <= offered
    assert "occupy IN2" not in offered  # Blue's
    assert not any(t.startswith("occupy FE") for t in offered)  # closed region
    li = S.link_index(s, "EU1", "IN1")
    culture = yellow.attr[C]
    before = glory(s, YELLOW)["Cities & links"]
    s.apply("occupy IN1")  # R13
    assert s.site_owner[SITE["IN1"]] == YELLOW
    assert yellow.blue[D.T_OCCUPY_DRAW - 4] == 1  # the blue token stays in his Harbor
    assert yellow.attr[C] == culture + 1 and yellow.btok[D.T_CULTURE] >= 1
    assert s.link_token[li] == -1 and s.controls_link(YELLOW, li)
    assert glory(s, YELLOW)["Cities & links"] == before + 2  # Bombay + the link
    # the IN1-IN2 link is not controlled by anyone: its token stays
    assert s.link_token[S.link_index(s, "IN1", "IN2")] == D.T_INFLUENCE
    S.check(s)


def test_blue_attacks_yellows_city_and_a_trade_route() -> None:
    """Blue attacks: a casualty to her supply, Yellow's disc back to his supply, she
    occupies the city, denies Yellow the link and gains the Influence token of the
    other link as its first controller (R9, R13). Age of Sail also allows attacking a
    trade route."""
    s = _india_position()
    s.apply("act colonial-house")
    s.apply("occupy IN1")
    assert s.current_player == BLUE
    blue, yellow = s.players[BLUE], s.players[YELLOW]
    assert "act barracks" in S.texts(s)
    s.apply("act barracks")
    offered = set(S.texts(s))
    assert {"attack IN1", "attack EU1", "attack EUT1"} <= offered
    assert "attack IN2" not in offered  # her own city
    assert not any(t.startswith("attack FE") for t in offered)
    yl = S.link_index(s, "EU1", "IN1")
    bl = S.link_index(s, "IN1", "IN2")
    b_supply, b_harbor, b_infl = blue.supply, blue.harbor, blue.attr[N]
    y_supply, y_culture = yellow.supply, yellow.attr[C]
    y_glory = glory(s, YELLOW)["Cities & links"]
    s.apply("attack IN1")
    assert s.site_owner[SITE["IN1"]] == BLUE
    assert blue.supply == b_supply + 1  # the casualty
    assert blue.harbor == b_harbor - 2
    assert yellow.supply == y_supply + 1  # Yellow's disc back to his supply
    assert not s.controls_link(YELLOW, yl)  # denied the link glory
    assert glory(s, YELLOW)["Cities & links"] == y_glory - 2
    assert yellow.attr[C] == y_culture  # the token he took is his to keep
    assert s.controls_link(BLUE, bl) and s.link_token[bl] == -1
    assert blue.attr[N] == b_infl + 1 and blue.btok[D.T_INFLUENCE] == 1
    assert glory(s, BLUE)["Cities & links"] == 1 + 1 + 1  # Goa, Bombay, their link
    S.check(s)

    # Yellow passes; Blue spends her Attack token on Red's trade route in Europe
    s.apply("pass")
    assert s.current_player == BLUE
    s.apply("use attack")
    assert "attack EUT1" in S.texts(s)
    r_supply = s.players[RED].supply
    s.apply("attack EUT1")
    assert s.site_owner[SITE["EUT1"]] == BLUE
    assert s.players[RED].supply == r_supply + 1
    assert s.presence(RED, EU) == 0
    S.check(s)


# --------------------------------------------------------------------------- Draw


def test_red_draws_from_closed_north_america() -> None:
    """Red has 3 discs in North America (on its track) and draws the top card, value 3
    (2 Industry + 2 Culture), though the region is not open (R14)."""
    s = S.fresh(4, board="B")
    for _ in range(3):
        S.ship(s, RED, "NA")
    S.give_card(s, YELLOW, "NA/1", bonus=True)
    S.give_card(s, BLUE, "NA/2")
    S.give_building(s, RED, "market")
    S.give_discs(s, RED, 1)
    S.at_actions(s, RED)
    S.check(s)
    assert not s.is_open(NA) and s.presence(RED, NA) == 3
    assert D.CARDS[s.decks[NA][-1]].code == "NA/3"
    red = s.players[RED]
    s.apply("act market")
    # value-0 Europe and Slavery tops need no presence; NA/3 needs 3; AF/1 needs 1
    assert sorted(S.texts(s)) == ["draw EU", "draw NA", "draw SL"]
    industry, culture = red.attr[I], red.attr[C]
    s.apply("draw NA")  # R14
    assert CARD["NA/3"] in red.cards
    assert red.attr[I] == industry + 2 and red.attr[C] == culture + 2
    assert D.CARDS[s.decks[NA][-1]].code == "NA/4"
    S.check(s)


def test_value_1_region_card_gives_a_disc() -> None:
    """R16: a value-1 region card gives +1 disc from supply to Harbor when gained."""
    s = S.fresh(4, board="B")
    S.ship(s, RED, "AF")
    S.give_building(s, RED, "market")
    S.give_discs(s, RED, 1)
    S.at_actions(s, RED)
    S.check(s)
    red = s.players[RED]
    s.apply("act market")
    assert "draw AF" in S.texts(s)
    supply, harbor, attr = red.supply, red.harbor, red.attr[:]
    s.apply("draw AF")
    assert CARD["AF/1"] in red.cards
    assert red.supply == supply - 1 and red.harbor == harbor + 1
    assert red.attr == [attr[0] + 1, attr[1], attr[2], attr[3] + 1]  # AF/1: 1 I, 1 N
    S.check(s)


def _pile_position(**options: object) -> State:
    s = S.fresh(4, board="B", **options)
    S.give_card(s, YELLOW, "SA/1", bonus=True)
    S.discard_card(s, YELLOW, "SA/1")
    S.place(s, RED, "EU1")
    S.give_building(s, RED, "market")
    S.give_discs(s, RED, 1)
    S.at_actions(s, RED)
    S.check(s)
    return s


def test_value_1_card_from_the_discard_pile_gives_a_disc() -> None:
    """R16 (fr): the bonus disc also comes with a value-1 card taken from the pile,
    which uses the Europe presence (R14)."""
    s = _pile_position()
    red = s.players[RED]
    s.apply("act market")
    assert "draw SA/1" in S.texts(s)
    supply, harbor = red.supply, red.harbor
    s.apply("draw SA/1")
    assert s.pile == [] and CARD["SA/1"] in red.cards
    assert red.supply == supply - 1 and red.harbor == harbor + 1
    S.check(s)


def test_discard_pile_bonus_option_off() -> None:
    """R16: option ``discard_pile_bonus=False`` gives the English draft's reading."""
    s = _pile_position(discard_pile_bonus=False)
    red = s.players[RED]
    s.apply("act market")
    supply, harbor = red.supply, red.harbor
    s.apply("draw SA/1")
    assert red.supply == supply and red.harbor == harbor
    S.check(s)


# --------------------------------------------------------------------------- Abolition


def test_abolition_blue_sets_aside_two_slavery_cards() -> None:
    """Slavery is abolished (no matter by whom): Blue sets aside her two Slavery cards,
    losing 5 Industry and 2 Wealth; the Slavery deck leaves the game; she scores -2 at
    the end (R17, R19). SL/3 + SL/4 = (3 + 2) Industry and (0 + 2) Wealth."""
    s = S.fresh(4, board="B")
    S.give_card(s, BLUE, "SL/3")
    S.give_card(s, BLUE, "SL/4")
    for p, code in ((YELLOW, "EU/0"), (YELLOW, "EU/1"), (PURPLE, "EU/2"),
                    (PURPLE, "EU/3"), (BLUE, "EU/4")):
        S.give_card(s, p, code)
    for site in ("EU1", "EU2", "EU3", "EU4", "EU5"):
        S.place(s, RED, site)
    S.give_building(s, RED, "market")
    S.give_building(s, RED, "market")
    S.give_discs(s, RED, 2)
    S.at_actions(s, RED, passed=others(RED))
    S.check(s)
    blue = s.players[BLUE]
    assert D.CARDS[s.decks[D.EU_DECK][-1]].code == "EU/5"
    assert s.presence(RED, EU) == 5
    industry, wealth = blue.attr[I], blue.attr[W]
    glory_before = glory(s, BLUE)
    s.apply("act market")
    assert {"draw EU", "draw SL"} <= set(S.texts(s))
    s.apply("draw EU")
    assert s.abolished  # R17
    assert CARD["EU/5"] in s.players[RED].cards
    assert blue.aside == [CARD["SL/3"], CARD["SL/4"]]
    assert not any(D.CARDS[c].deck == D.SLAVERY_DECK for c in blue.cards)
    assert blue.attr[I] == industry - 5 and blue.attr[W] == wealth - 2
    assert s.decks[D.SLAVERY_DECK] == []
    assert {CARD[f"SL/{v}"] for v in (0, 1, 2, 5)} <= set(s.removed)
    lines = glory(s, BLUE)
    assert lines["Slavery"] == -2 and glory_before["Slavery"] == 0
    # set-aside cards no longer count toward the card limit
    assert CARD["SL/3"] not in s.held_cards(BLUE)
    S.check(s)
    # the Slavery deck is gone for good: with Europe and Slavery decks empty, Red's
    # second Market can only draw where she has presence (R8)
    assert S.texts(s) == ["pass"]
    S.ship(s, RED, "AF")
    s.apply("act market")
    assert S.texts(s) == ["draw AF"]
    S.check(s)


# --------------------------------------------------------------------------- Discard


def _purple_over_limit() -> State:
    """Purple: Influence 3 (Card Limit 2), holding SA/1, NA/1, FE/1, a Slavery card and
    the Far East Governor: one card over his limit once the Governor is in the free
    slot."""
    s = S.fresh(4, board="B")
    tokens(s, PURPLE, D.T_INFLUENCE, 3)
    for code in ("SA/1", "NA/1", "FE/1"):
        S.give_card(s, PURPLE, code, bonus=True)
    S.give_card(s, PURPLE, "SL/0")
    S.give_card(s, PURPLE, "FE/G")
    S.at_actions(s, PURPLE, passed=others(PURPLE))
    S.check(s)
    return s


def test_purple_discards_his_south_america_card() -> None:
    """Influence 3 -> Card Limit 2, plus 1 Slavery card, plus a Governor in the free
    slot. With 3 cards + 1 Slavery + the Governor he is one over and chooses to discard
    his South America value-1 card (2 Culture), which goes to the discard pile (R18)."""
    s = _purple_over_limit()
    purple = s.players[PURPLE]
    assert purple.attr[N] == 3 and purple.level(N) == 2
    s.apply("pass")  # everyone has passed: the Discard phase
    # before the last round the empty free slot simply takes the Governor (P1)
    assert s.phase_name == "Discard" and purple.gov == CARD["FE/G"]
    assert len(purple.cards) == 4  # 3 cards + 1 Slavery card in normal slots
    assert S.deciding(s) == ("discard", PURPLE)
    assert sorted(S.texts(s)) == sorted(
        f"discard {c}" for c in ("SA/1", "NA/1", "FE/1", "SL/0"))
    culture = purple.attr[C]
    s.apply("discard SA/1")
    assert s.pile == [CARD["SA/1"]]  # R18
    assert purple.attr[C] == culture - 2
    assert sorted(purple.cards) == sorted(CARD[c] for c in ("NA/1", "FE/1", "SL/0"))
    assert purple.gov == CARD["FE/G"]
    assert not s.over_card_limit(PURPLE)
    assert s.round == 2 and S.decision_kind(s) == "construction"  # next round
    S.check(s)


def test_purple_governor_kept_in_a_normal_slot_costs_two_discards() -> None:
    """R18: a Governor in a normal slot counts toward the limit; only one Slavery card is
    exempt, and a discarded Slavery card is set aside, not put in the pile."""
    s = _purple_over_limit()
    S.set_round(s, D.ROUNDS)  # the slot is a real choice in the last round only (P1)
    purple = s.players[PURPLE]
    s.apply("pass")
    assert S.deciding(s) == ("governor_slot", PURPLE)
    assert S.texts(s) == ["slot FE/G", "slot none"]
    s.apply("slot none")
    assert purple.gov == -1 and len(purple.cards) == 5
    assert S.deciding(s) == ("discard", PURPLE)
    assert "discard FE/G" in S.texts(s)
    s.apply("discard SL/0")  # the exemption is lost with it: still two over
    assert purple.aside == [CARD["SL/0"]] and s.pile == []
    assert S.deciding(s) == ("discard", PURPLE)
    s.apply("discard FE/G")  # a discarded Governor leaves the game
    assert CARD["FE/G"] in s.removed
    assert S.deciding(s) == ("discard", PURPLE)
    s.apply("discard NA/1")
    assert s.pile == [CARD["NA/1"]]
    assert not s.over_card_limit(PURPLE)
    S.check(s)


# --------------------------------------------------------------------------- Final score


def test_red_final_score_69() -> None:
    """French rulebook, end of the scoring section (R19, R20): Red scores 10 Industry,
    7 Culture (pushed down from 8), 7 Wealth (pushed down from 9), 12 Influence; 19 for
    cities and links; 14 for buildings, cards and the empty Governor slot (11 + 3); 1
    for a group of 3 Harbor discs; -1 for a set-aside Slavery card: 69."""
    s = S.fresh(4, board="B")
    # India open (Red is on its track but Yellow wins the Governor), then the map
    for p in (YELLOW, RED, YELLOW, BLUE, PURPLE, YELLOW):
        S.ship(s, p, "IN")
    assert s.is_open(IN) and s.governor_winner(IN) == YELLOW
    # links among Red's sites carry Influence tokens (taken by Red as she links them)
    for a, b in (("EU9", "EU10"), ("EU1", "IN1"), ("EU2", "IN2")):
        S.set_link_token(s, a, b, D.T_INFLUENCE)
    red_sites = ("EU1", "EU2", "EU3", "EU5", "EU6", "EU7", "EU9", "EU10", "EUT1",
                 "IN1", "IN2")
    for site in red_sites:
        S.place(s, RED, site)
    # buildings: start tile + one per round
    for code in ("workshop", "bank", "theater", "docks", "university", "trade-office",
                 "parliament"):
        S.give_building(s, RED, code, staffed=code in ("docks", "trade-office"))
    # cards: the Europe deck down to the Abolition card, which Red drew holding SL/0
    S.give_card(s, RED, "SL/0")
    for p, code in ((YELLOW, "EU/0"), (BLUE, "EU/1"), (PURPLE, "EU/2"), (RED, "EU/3"),
                    (RED, "EU/4"), (RED, "EU/5")):
        S.give_card(s, p, code)
    assert s.abolished and s.players[RED].aside == [CARD["SL/0"]]
    S.give_card(s, RED, "CA/3")
    S.give_card(s, RED, "AF/2")
    # the remaining icons came from Trade tokens
    red = s.players[RED]
    target = [10, 8, 9, 12]
    for k in range(4):
        assert red.attr[k] <= target[k]
        tokens(s, RED, k, target[k] - red.attr[k])
    assert red.attr == target
    # 5 discs left in the Harbor
    S.give_discs(s, RED, 5)
    # the last round's Action phase; everyone else has passed
    S.set_round(s, 7)
    S.at_actions(s, RED, passed=others(RED))
    S.check(s)
    assert len(red.blds) == 8 and len(red.cards) == 5 and red.gov == -1
    s.apply("pass")
    finish_game(s)
    assert s.is_over and s.current_player is None
    S.check(s)

    score = final_scores(s)[RED]
    assert list(score.lines) == list(LINE_NAMES)
    assert score.lines == {
        "Industry": 10,
        "Culture": 7,  # pushed down from 8
        "Wealth": 7,  # pushed down from 9
        "Influence": 12,
        "Cities & links": 19,
        "Buildings & cards": 11,  # University 3, EU/4 5, EU/5 3
        "Governor slot": 3,  # empty free slot
        "Extra population": 1,  # 5 discs: one group of 3, surplus ignored
        "Slavery": -1,
    }
    assert score.lines["Buildings & cards"] + score.lines["Governor slot"] == 14
    assert score.total == 69  # R19, R20
