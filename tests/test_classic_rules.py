"""The 2009 ruleset (``GameConfig(ruleset="classic")``): one test per rule that differs
from Age of Sail, citing the rulings (R1, R3, R5, R10, R13-R15, R18, R19, R23 and the
project's P70-P77 in ``docs/rulings.md``), side by side with Age of Sail where the
difference is the point.
"""

from __future__ import annotations

import json
import random

import pytest

import scenario as S
from endeavor import (
    ConfigError,
    GameConfig,
    IllegalActionError,
    NotationError,
    State,
    new_game,
    replay,
)
from endeavor import data as D
from endeavor.rules.classic import SCORE_PAD
from endeavor.scoring import final_scores

RED, GREEN, WHITE = 0, 1, 2
I, C, W, N = D.INDUSTRY, D.CULTURE, D.WEALTH, D.INFLUENCE
EU, AF, SA, CA, NA, IN, FE = range(7)
CARD = D.CARD_INDEX
SITE = D.SITE_INDEX
BLD = D.BUILDING_INDEX


def classic(players: int = 3, seed: int = 0, **options: object) -> State:
    return S.fresh(players, ruleset="classic", seed=seed, **options)


def bare(s: State, region: str) -> None:
    """The free spaces of ``region``'s track lose their tokens (out of the game)."""
    r = S.REGION[region]
    for k in range(s.info.trk_len[r]):
        if s.track(r)[k] < 0:
            S.set_track_token(s, region, k, -1)


def open_bare(s: State, region: str, *owners: int) -> None:
    bare(s, region)
    S.open_region(s, region, *owners)


def illegal(s: State, action: str) -> str:
    with pytest.raises(IllegalActionError) as e:
        s.apply(action)
    return str(e.value)


# --------------------------------------------------------------------------- config (R1)
def test_config_defaults_to_the_classic_board_and_its_one_option() -> None:
    c = GameConfig(players=4, ruleset="classic")
    assert c.board == "classic"
    assert dict(c.options) == {"phase_order": "by_phase"}
    assert GameConfig.from_dict(c.to_dict()) == c
    assert GameConfig(players=5, ruleset="classic", board="classic",
                      options={"phase_order": "by_player"}).option("phase_order") == "by_player"


@pytest.mark.parametrize("players", [2, 6, 1])
def test_classic_is_for_3_to_5_players(players: int) -> None:
    with pytest.raises(ConfigError, match=f"Endeavor \\(2009\\) is for 3 to 5 players, "
                                          f"not {players}"):
        GameConfig(players=players, ruleset="classic")


@pytest.mark.parametrize("exploits", [("spanish_main",), "random", "spice_trade,imperialism"])
def test_classic_has_no_exploits(exploits: tuple[str, ...] | str) -> None:
    with pytest.raises(ConfigError, match="Exploits are an Age of Sail expansion"):
        GameConfig(players=3, ruleset="classic", exploits=exploits)
    assert GameConfig(players=3, ruleset="classic", exploits="none").exploits == ()


@pytest.mark.parametrize("option", ["plus_same_region", "discard_pile_bonus", "silent_fleet"])
def test_age_of_sail_options_are_unknown_to_classic(option: str) -> None:
    """R23: the same-region '+' rule is always on in the 2009 game, not an option; no
    discard pile; the Silent Fleet is an Age of Sail variant."""
    with pytest.raises(ConfigError, match=f"unknown option '{option}'"):
        GameConfig(players=3, ruleset="classic", options={option: True})


@pytest.mark.parametrize("board", ["A", "B"])
def test_classic_has_one_board(board: str) -> None:
    with pytest.raises(ConfigError, match="board side must be 'classic'"):
        GameConfig(players=4, ruleset="classic", board=board)


# --------------------------------------------------------------------------- setup (R3, P70)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_needs_no_decision(players: int) -> None:
    """Every mat has the Colonial House printed on it with no disc; 30 discs in the
    supply; round 1 starts at once with the Crown holder's Build decision (P70)."""
    s = new_game(GameConfig(players=players, ruleset="classic", seed=players))
    assert (s.round, s.phase_name, s.num_actions) == (1, "Build", 0)
    assert S.deciding(s) == ("construction", s.crown)
    for pl in s.players:
        assert (pl.supply, pl.harbor, pl.taken_circles) == (30, 0, 0)
        assert pl.buildings == [BLD["colonial-house"]]
        assert pl.attr == [0, 0, 0, 0]
    assert not any(t.startswith("start") for t in S.texts(s))
    S.check(s)


def test_setup_board_tokens_and_supply() -> None:
    """The 2009 board: 40 track spaces, 29 cities, 26 links, a token on each (95); no
    trade route; all three level-5 buildings, 1 copy each; each region's Governor
    above its deck (R11, P70)."""
    s = new_game(GameConfig(players=3, ruleset="classic", seed=4))
    info = s.info
    assert [info.trk_len[r] for r in range(7)] == [0, 6, 6, 6, 7, 7, 8]
    assert len(info.sites) == 29 and all(D.SITES[x].city for x in info.sites)
    assert [D.SITES[x].code for x in info.sites if D.SITES[x].glory == 2] == ["SA1", "FE4"]
    assert info.nlinks == 26
    assert sum(t >= 0 for t in s.track_token) == 40
    assert sum(s.site_token[x] >= 0 for x in info.sites) == 29
    assert sum(t >= 0 for t in s.link_token) == 26
    level5 = {b for b in range(len(D.BUILDINGS))
              if D.BUILDINGS[b].level == 5 and s.building_supply[b]}
    assert level5 == {BLD["exchange"], BLD["museum"], BLD["parliament"]}
    assert all(s.building_supply[b] == 1 for b in level5)
    assert s.building_supply[BLD["memorial"]] == s.building_supply[BLD["town-hall"]] == 0
    assert s.region_governors == list(D.GOVERNORS)
    assert [D.CARDS[d[-1]].code for d in s.decks] == \
        ["EU/0", "AF/1", "SA/1", "CA/1", "NA/1", "IN/1", "FE/1", "SL/0"]


# --------------------------------------------------------------------------- phases (R5, R6)
def play_with_events(config: GameConfig, seed: int) -> tuple[State, list[str]]:
    s = new_game(config)
    rng = random.Random(seed)
    texts = []
    while not s.is_over:
        legal = s.legal_actions()
        if len(legal) > 1 and legal[-1].text == "pass" and rng.random() < 0.9:
            legal = legal[:-1]
        texts += [f"{e.kind}|{e.text}" for e in s.apply(rng.choice(legal))]
    return s, texts


def test_four_phases_and_no_discard_phase() -> None:
    """R5 (2009): Build, Growth, Salary, Actions; 7 rounds; no Discard phase."""
    s, events = play_with_events(GameConfig(players=3, ruleset="classic", seed=5), 1)
    phases = [t.split("|")[1] for t in events if t.startswith("phase|")]
    assert set(phases) == {"Build phase", "Growth phase", "Salary phase", "Actions phase"}
    assert phases.count("Actions phase") == 7
    assert phases.count("Build phase") == 6  # round 1's began at setup, before any event
    assert s.round == 7 and s.is_over


def test_phase_order_by_player() -> None:
    """R6: with ``by_player`` each player builds, grows and is paid before the next
    builds; by phase everyone builds first."""
    s = classic(3, seed=1, phase_order="by_player")
    first = s.current_player
    events = s.apply("build workshop")
    assert [e.player for e in events if e.kind == "growth"] == [first]
    assert S.deciding(s) == ("construction", (first + 1) % 3)
    s = classic(3, seed=1)
    events = s.apply("build workshop")
    assert not [e for e in events if e.kind == "growth"]
    assert S.deciding(s) == ("construction", (first + 1) % 3)


# --------------------------------------------------------------------------- discard at pass
def test_within_the_limit_a_pass_asks_nothing() -> None:
    s = classic()
    S.give_card(s, RED, "EU/0")
    S.at_actions(s, RED)
    s.apply("pass")
    assert s.has_passed(RED) and S.decision_kind(s) == "action" and s.current_player != RED


def test_losing_politics_lowers_the_limit_and_asks_again() -> None:
    """R18: discarding a Politics card may lower the Card Limit: discard again."""
    s = classic()
    for code in ("EU/2", "EU/1", "SA/1", "NA/1"):  # Politics 3 + 1 = 4: limit 3
        S.give_card(s, RED, code)
    assert s.players[RED].level(N) == 3
    S.at_actions(s, RED)
    s.apply("pass")
    assert S.deciding(s) == ("discard", RED)
    s.apply("discard EU/2")  # Politics 1: limit 1
    assert S.deciding(s) == ("discard", RED)
    s.apply("discard NA/1")
    assert S.deciding(s) == ("discard", RED)
    s.apply("discard SA/1")
    assert [D.CARDS[c].code for c in s.players[RED].cards] == ["EU/1"]
    assert S.decision_kind(s) == "action"
    S.check(s)


def test_rounds_1_to_6_an_empty_free_slot_takes_a_governor_at_the_pass() -> None:
    """P1, P71: passing, an empty free Governor slot takes a held Governor at once."""
    s = classic()
    S.give_card(s, RED, "AF/G")  # into a normal slot, the free slot being empty
    S.give_card(s, RED, "EU/0")  # Politics 0: limit 1
    S.at_actions(s, RED)
    events = s.apply("pass")
    assert s.players[RED].gov == CARD["AF/G"] and s.players[RED].cards == [CARD["EU/0"]]
    assert [e.text for e in events if e.kind == "slot"] == \
        ["P0 puts AF/G in the free Governor slot (P1)"]
    assert S.decision_kind(s) == "action" and s.current_player != RED


def test_round_7_pass_chooses_the_governor_slot() -> None:
    """P1, P71: passing in round 7 the player chooses which Governor, or none, sits in
    the free slot; then discards if over the limit."""
    s = classic()
    S.set_round(s, 7)
    open_bare(s, "FE", RED)
    S.give_card(s, RED, "EU/0")
    S.at_actions(s, RED)
    s.apply("pass")
    d = s.decision()
    assert d is not None and (d.kind, d.player) == ("governor_slot", RED)
    assert d.prompt.startswith("You passed in the last round")
    assert S.texts(s) == ["slot FE/G", "slot none"]
    s.apply("slot none")  # FE/G joins EU/0 in the normal slots: limit 1
    assert S.deciding(s) == ("discard", RED)
    s.apply("discard EU/0")
    assert s.players[RED].gov < 0 and s.players[RED].cards == [CARD["FE/G"]]
    assert final_scores(s)[RED].lines["Governor space"] == 3


def _two_governors(over: int = 1) -> State:
    """Red (round 1) holds FE/G in the free slot and AF/G in a normal slot (the first
    Governor won goes into the empty free slot, the second into a normal slot, P1), and
    ``over`` cards too many in normal slots (Politics 1: limit 1)."""
    s = classic()
    open_bare(s, "FE", RED)
    open_bare(s, "AF", RED)
    for code in ("EU/0", "NA/1")[:over]:
        S.give_card(s, RED, code)
    red = s.players[RED]
    assert red.gov == CARD["FE/G"] and CARD["AF/G"] in red.cards
    assert red.level(N) == 1 and len(red.cards) == 1 + over
    return S.at_actions(s, RED)


def test_rounds_1_to_6_a_governor_in_the_free_slot_can_be_the_card_discarded() -> None:
    """P92 (2009 rulebook, Pass / Discard): "Players may reposition their cards into
    whatever slots they wish during the Discard process, as long as their Card Limit is
    obeyed when they are done", and players "are not forced to keep a held Governor card
    in their 'free Governor' slot". Passing over the limit with Governors in both kinds
    of slot, Red first chooses which one sits in the free slot, so FE/G, which sat
    there, can be the card discarded."""
    s = _two_governors()
    s.apply("pass")
    d = s.decision()
    assert d is not None and (d.kind, d.player) == ("governor_slot", RED)
    assert d.prompt.startswith("You passed over your card limit: first choose which of "
                               "your Governors sits in the free Governor slot")
    assert S.texts(s) == ["slot AF/G", "slot FE/G"]  # an empty slot is no choice (P1)
    assert d.option("slot AF/G").text.endswith(
        "in the free Governor slot, outside the card limit; FE/G moves to a normal "
        "slot, where it can be discarded")
    js = s.to_json()
    assert "before the last round the free Governor slot stays filled" in illegal(
        s, "slot none")
    assert s.to_json() == js  # refused: nothing changed
    s.apply("slot AF/G")
    assert S.deciding(s) == ("discard", RED)
    assert sorted(S.texts(s)) == ["discard EU/0", "discard FE/G"]
    industry = s.players[RED].attr[I]
    s.apply("discard FE/G")  # out of the game (R18) with its 2 Industry icons
    red = s.players[RED]
    assert red.gov == CARD["AF/G"] and red.cards == [CARD["EU/0"]]
    assert CARD["FE/G"] in s.removed and red.attr[I] == industry - 2
    assert S.decision_kind(s) == "action" and s.current_player != RED
    S.check(s)
    assert State.from_json(s.to_json()).to_json() == s.to_json()


def test_rounds_1_to_6_keeping_the_free_governor_discards_from_the_normal_slots() -> None:
    """P92: keeping FE/G in the free slot, AF/G and the other cards are the ones that
    count against the limit and can go."""
    s = _two_governors(over=2)
    s.apply("pass")
    s.apply("slot FE/G")
    assert sorted(S.texts(s)) == ["discard AF/G", "discard EU/0", "discard NA/1"]
    s.apply("discard AF/G")  # its Politics icon goes with it: Politics 0, limit still 1
    assert S.deciding(s) == ("discard", RED)
    s.apply("discard NA/1")
    assert s.players[RED].gov == CARD["FE/G"] and s.players[RED].cards == [CARD["EU/0"]]
    S.check(s)


def test_rounds_1_to_6_no_slot_question_without_a_choice() -> None:
    """P1, P92: with one Governor (in the free slot), or under the limit, where a
    Governor sits changes nothing before round 7: no question is asked."""
    s = _two_governors(over=0)  # AF/G alone in the normal slots: limit 1 kept
    s.apply("pass")
    assert S.decision_kind(s) == "action" and s.current_player != RED
    s = classic()
    open_bare(s, "FE", RED)
    for code in ("EU/0", "NA/1"):
        S.give_card(s, RED, code)
    S.at_actions(s, RED)
    s.apply("pass")
    assert S.deciding(s) == ("discard", RED)
    assert S.texts(s) == ["discard EU/0", "discard NA/1"]


@pytest.mark.parametrize("rnd, free_slot", [(6, True), (7, False)])
def test_governor_won_after_passing(rnd: int, free_slot: bool) -> None:
    """P71, P72: a Governor won after passing (another player's Ship fills the track):
    rounds 1-6 it goes into the empty free slot (P1); in round 7, whose placement
    scores, into a normal slot. No discard is asked until the player's next pass."""
    s = classic()
    S.set_round(s, rnd)
    for p in (RED, RED, GREEN, RED, GREEN):
        S.ship(s, p, "AF")
    S.give_card(s, RED, "EU/0")  # limit 1: one card held
    S.ready_to_act(s, WHITE, 2, "shipyard")
    S.set_passed(s, RED)
    s.apply("act shipyard")
    s.apply("ship AF")
    red = s.players[RED]
    assert (red.gov == CARD["AF/G"]) is free_slot
    assert (CARD["AF/G"] in red.cards) is not free_slot
    assert s.over_card_limit(RED) is not free_slot
    assert S.decision_kind(s) == "action" and s.current_player != RED
    S.check(s)


# --------------------------------------------------------------------------- Ship (R10, P73)
def test_ship_goes_beside_a_full_track() -> None:
    """P73: a Ship to a full track puts the disc beside it: presence, no token, the
    notation stays ``ship FE``; no trade route, no open sea."""
    s = classic()
    S.open_region(s, "FE", GREEN)
    S.ready_to_act(s, RED, 2, "shipyard")
    s.apply("act shipyard")
    assert S.texts(s) == [f"ship {r}" for r in ("AF", "SA", "CA", "NA", "IN", "FE")]
    d = s.decision()
    assert d is not None
    assert d.option("ship FE").text == "Ship beside the full Far East track (presence, no token)"
    track, attr, gov = s.track(FE), s.players[RED].attr[:], s.players[GREEN].gov
    s.apply("ship FE")
    assert s.sea_discs(RED, FE) == 1 and s.presence(RED, FE) == 1
    assert s.track(FE) == track and s.players[RED].attr == attr
    assert s.players[GREEN].gov == gov
    S.check(s)


def test_no_open_sea_no_trade_route_no_europe() -> None:
    s = classic()
    S.open_region(s, "FE", GREEN)
    S.ready_to_act(s, RED, 2, "shipyard")
    s.apply("act shipyard")
    assert "no open sea" in illegal(s, "sea FE")
    assert "no trade routes" in illegal(s, "ship EUT1")
    with pytest.raises(NotationError, match="cannot parse"):
        s.apply("ship EU")  # Europe has no track: there is no such action


def test_a_disc_beside_the_track_gives_presence() -> None:
    """P73: discs beside a track count for Occupy, Attack and Draw there."""
    s = classic()
    S.open_region(s, "AF", GREEN)
    S.beside(s, RED, "AF", 2)
    S.ready_to_act(s, RED, 2, "colonial-house")
    s.apply("act colonial-house")
    assert {"occupy AF1", "occupy AF2"} <= set(S.texts(s))
    assert s.draw_presence(RED, AF) == 2


# --------------------------------------------------------------------------- Draw (R14)
def test_draw_needs_an_open_region() -> None:
    """R14 (2009): a closed region's deck is not drawable, whatever the discs there."""
    s = classic()
    for _ in range(3):
        S.ship(s, RED, "AF")
    assert not s.is_open(AF) and s.draw_presence(RED, AF) == 3
    S.ready_to_act(s, RED, 1, "market")
    s.apply("act market")
    assert "draw AF" not in S.texts(s)
    assert "Africa is not open: Draw needs an open region" in illegal(s, "draw AF")
    s2 = classic()
    open_bare(s2, "AF", RED, GREEN, RED)
    S.ready_to_act(s2, RED, 1, "market")
    s2.apply("act market")
    assert "draw AF" in S.texts(s2)


def test_europe_counts_its_cities() -> None:
    """R14 (2009): Europe's count is the discs on its cities (Europe has no track, no
    trade route, nothing beside): 2 cities draw value 2, not 3."""
    s = classic()
    S.place(s, RED, "EU1")
    S.place(s, RED, "EU2")
    S.open_region(s, "AF", RED)
    assert s.draw_presence(RED, D.EU_DECK) == 2
    S.remove_top_cards(s, "EU", 2)
    S.ready_to_act(s, RED, 1, "market")
    s.apply("act market")
    assert "draw EU" in S.texts(s)
    S.remove_top_cards(s, "EU", 1)
    assert "draw EU" not in S.texts(s)


def test_no_discard_pile_and_no_bonus_disc() -> None:
    """R16 is Age of Sail's: drawing a value-1 card gives no disc; there is no pile."""
    s = classic()
    open_bare(s, "AF", RED)
    S.ready_to_act(s, RED, 1, "market")
    s.apply("act market")
    assert "no discard pile" in illegal(s, "draw AF/1")
    supply = s.players[RED].supply
    s.apply("draw AF")
    assert CARD["AF/1"] in s.players[RED].cards
    assert s.players[RED].supply == supply and s.players[RED].harbor == 0


# --------------------------------------------------------------------------- Attack (R13)
def test_attack_targets_cities_only() -> None:
    s = classic()
    for city in ("EU1", "EU2", "EU3"):
        S.place(s, GREEN, city)
    S.ready_to_act(s, RED, 3, "barracks")
    s.apply("act barracks")
    assert S.texts(s) == ["attack EU1", "attack EU2", "attack EU3"]
    assert "not on board side classic" in illegal(s, "attack EUT1")


# --------------------------------------------------------------------------- '+' (R23)
def test_docks_second_action_in_the_same_region() -> None:
    s = classic()
    S.open_region(s, "AF", GREEN)
    S.give_building(s, RED, "docks")
    S.ready_to_act(s, RED, 3, "docks")
    s.apply("act docks")
    s.apply("ship AF")  # beside the full track
    assert S.deciding(s) == ("second_action", RED)
    assert S.texts(s) == ["occupy AF1", "occupy AF2", "done"]
    assert "the second action must be in Africa" in illegal(s, "occupy EU1")
    s.apply("occupy AF1")
    # Occupy in Europe first: the Ship cannot follow there, so it is skipped (P5)
    S.give_discs(s, RED, 2)
    S.free_workers(s, RED)
    S.at_actions(s, RED)
    s.apply("act docks")
    s.apply("occupy EU1")
    assert S.decision_kind(s) == "action" and s.current_player != RED


def test_cartographer_ships_twice_in_one_region() -> None:
    s = classic()
    S.give_building(s, RED, "cartographer")
    S.ready_to_act(s, RED, 3, "cartographer")
    s.apply("act cartographer")
    s.apply("ship SA")
    assert S.texts(s) == ["ship SA", "done"]
    s.apply("ship SA")
    assert s.track(SA)[:2] == [RED, RED]


def test_trade_office_draws_twice_from_one_deck() -> None:
    s = classic()
    S.place(s, RED, "EU1")
    S.give_building(s, RED, "trade-office")
    S.ready_to_act(s, RED, 1, "trade-office")
    s.apply("act trade-office")
    assert S.texts(s) == ["draw EU", "draw SL"]
    s.apply("draw SL")
    assert S.texts(s) == ["draw SL", "done"]  # EU/0 is drawable too, but not the same deck
    assert "the second Draw must be from the same deck" in illegal(s, "draw EU")


# --------------------------------------------------------------------------- Payment (R15)
def test_a_payment_building_does_not_pay_itself() -> None:
    """R15 (2009), P74: the Exchange's Payment pays another worker, never its own."""
    s = classic()
    S.give_building(s, RED, "exchange")
    S.give_building(s, RED, "market", staffed=True)
    S.ready_to_act(s, RED, 1, "exchange")
    S.staff(s, RED, "market")
    s.apply("act exchange")
    assert S.texts(s) == ["pay market"]
    assert "may not use its own Payment on itself (R15)" in illegal(s, "pay exchange")


def test_a_payment_building_needs_another_worker() -> None:
    s = classic()
    S.give_building(s, RED, "museum")
    S.ready_to_act(s, RED, 1, "museum")
    assert "act museum" not in S.texts(s)
    assert "Payment needs a worker on another of your buildings" in illegal(s, "act museum")


def test_a_payment_token_may_pay_a_payment_building() -> None:
    """P74: the 2009 tiles have no no-payment symbol (Age of Sail's R15 rule)."""
    s = classic()
    S.give_building(s, RED, "parliament", staffed=True)
    S.give_token(s, RED, D.T_PAYMENT)
    S.set_harbor(s, RED, 0)
    S.at_actions(s, RED)
    s.apply("use payment")
    assert S.texts(s) == ["pay parliament"]
    s.apply("pay parliament")
    assert s.players[RED].taken_circles == 0 and s.players[RED].harbor == 1


# --------------------------------------------------------------------------- discards (R18, P76)
def test_discarded_cards_return_to_their_deck_in_value_order() -> None:
    """P76: back into the printed deck at the place of its value, lowest on top; a
    Governor leaves the game; a Slavery card is set aside."""
    s = classic()
    for code in ("EU/0", "EU/1", "EU/2"):
        S.give_card(s, RED, code)
    S.give_card(s, RED, "SL/0")
    S.give_card(s, RED, "AF/G")
    S.slot_governor(s, RED, "AF/G")
    S.give_card(s, RED, "FE/G")
    S.discard_card(s, RED, "EU/1")
    assert [D.CARDS[c].code for c in s.decks[EU]] == ["EU/5", "EU/4", "EU/3", "EU/1"]
    S.discard_card(s, RED, "EU/0")
    S.discard_card(s, RED, "EU/2")
    assert [D.CARDS[c].value for c in s.decks[EU]] == [5, 4, 3, 2, 1, 0]
    S.discard_card(s, RED, "FE/G")
    assert CARD["FE/G"] in s.removed
    S.discard_card(s, RED, "SL/0")
    assert s.players[RED].aside == [CARD["SL/0"]] and s.pile == []
    S.check(s)


def test_the_abolition_card_may_come_back_without_a_second_abolition() -> None:
    s = classic()
    S.give_card(s, RED, "EU/5")
    assert s.abolished
    S.discard_card(s, RED, "EU/5")
    assert s.decks[EU][0] == D.ABOLITION_CARD
    S.give_card(s, GREEN, "SL/1")  # Slavery cards held after Abolition are not set aside
    S.give_card(s, GREEN, "EU/5")
    assert s.players[GREEN].aside == []


# --------------------------------------------------------------------------- tracks, scoring
def test_tracks_score_at_most_15() -> None:
    """P75: 18 Industry icons score 15 in the 2009 game (18 in Age of Sail, P9)."""
    s = classic()
    S.give_token(s, RED, D.T_INDUSTRY, 16)  # the game has 17 Industry tokens
    S.give_building(s, RED, "workshop")  # and 2 icons more
    assert s.players[RED].attr[I] == 18 and s.players[RED].level(I) == 5
    assert final_scores(s)[RED].lines["Industry"] == 15
    a = S.fresh(3)
    S.give_token(a, RED, D.T_INDUSTRY, 16)
    S.give_building(a, RED, "workshop")
    assert final_scores(a)[RED].lines["Industry"] == 18


def test_score_pad_lines_and_universities() -> None:
    """R19, P77: lines A-K in pad order; each University scores its printed 3 glory on
    line I; a Governor in the free slot scores on line G and empties line H."""
    s = classic()
    S.give_building(s, RED, "university")
    S.give_building(s, RED, "university")
    open_bare(s, "IN", RED)
    lines = final_scores(s)[RED].lines
    assert list(lines) == [name for _, name in SCORE_PAD]
    assert (lines["Universities"], lines["Cards"], lines["Governor space"]) == (6, 1, 0)


def test_level_5_buildings_and_one_each() -> None:
    s = classic()
    S.give_token(s, RED, D.T_INDUSTRY, 10)
    while s.current_player != RED:
        s.apply("build workshop")
    assert {"build exchange", "build museum", "build parliament"} <= set(S.texts(s))
    assert "build memorial" not in S.texts(s) and "build town-hall" not in S.texts(s)
    s.apply("build museum")
    assert s.building_supply[BLD["museum"]] == 0


# --------------------------------------------------------------------------- words, records
def test_words_say_finance_and_politics() -> None:
    """Prompts, options and events of the 2009 game name Finance and Politics."""
    for seed in range(6):
        s = new_game(GameConfig(players=3 + seed % 3, ruleset="classic", seed=seed))
        rng = random.Random(seed)
        while not s.is_over:
            d = s.decision()
            assert d is not None
            words = [d.prompt] + [o.text for o in d.options]
            legal = s.legal_actions()
            if len(legal) > 1 and legal[-1].text == "pass" and rng.random() < 0.9:
                legal = legal[:-1]
            words += [e.text for e in s.apply(rng.choice(legal))]
            for w in words:
                assert "Wealth" not in w and "Influence" not in w, w


def test_records_and_json_carry_the_ruleset() -> None:
    s, _ = play_with_events(GameConfig(players=4, ruleset="classic", seed=9), 3)
    rec = s.record()
    assert rec["config"]["ruleset"] == "classic" and rec["config"]["board"] == "classic"
    assert replay(json.dumps(rec)).to_json() == s.to_json()
    assert State.from_json(s.to_json()).to_json() == s.to_json()
    mid = replay(rec, upto=60)
    assert State.from_json(mid.to_json()).legal_actions() == mid.legal_actions()
