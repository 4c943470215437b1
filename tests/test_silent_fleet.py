"""The Silent Fleet, the 2-player variant (R21, R22; rulings P80-P90): its options, each
reaction (Ship, Occupy, Draw, nothing for Attack and Payment), the trigger choice after
a ``+`` building, a Governor and Abolition through the fleet, attacking its discs, its
supply running out, the three optional rules, and its meeting with the Exploits'
pieces (Letters of Marque, the Pirate, The Dutch East India Company)."""

from __future__ import annotations

import pytest

from endeavor import (
    ConfigError,
    Event,
    GameConfig,
    IllegalActionError,
    State,
    api,
    final_scores,
    new_game,
    replay,
)
from endeavor import data as D
from scenario import (
    REGION,
    at_actions,
    check,
    clear_site_token,
    exploit,
    fleet_owner,
    fleet_place,
    fleet_sea,
    fleet_ship,
    fleet_supply,
    fresh,
    give_building,
    give_token,
    link_index,
    mark_site,
    open_region,
    place,
    put_on_top,
    ready_to_act,
    sell_out,
    set_module_data,
    ship,
    staff,
    texts,
)

AF, SA, CA, FE = REGION["AF"], REGION["SA"], REGION["CA"], REGION["FE"]
FLEET = {"silent_fleet": True}


def _game(**options: bool) -> State:
    """A 2-player Silent Fleet game on side A after the start tiles (round 1)."""
    return fresh(2, silent_fleet=True, **options)


def _kind(s: State) -> str:
    d = s.decision()
    assert d is not None
    return d.kind


def _fleet_events(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.kind == "fleet"]


def _spent(s: State) -> int:
    return sum(s.spent)


# --------------------------------------------------------------------------- options
def test_options_default_off_and_the_fleet_is_a_module_of_two_player_games() -> None:
    c = GameConfig(players=2)
    assert not c.option("silent_fleet") and not c.option("building_shortage")
    assert [m.id for m in new_game(c).modules] == []
    for board in ("A", "B"):  # either side (fr text), with Exploits
        s = new_game(GameConfig(players=2, board=board, exploits=("spice_trade",),
                                options={**FLEET, "limited_occupation": True}))
        assert [m.id for m in s.modules] == ["spice_trade", "silent_fleet"]
        assert s.owners == 3 and fleet_owner(s) == 2 and fleet_supply(s) == 35  # R21
    s = new_game(GameConfig(players=2, exploits="random", options=FLEET))
    assert len(s.modules) == 4 and s.modules[-1].id == "silent_fleet"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_fleet_needs_exactly_two_players(players: int) -> None:
    with pytest.raises(ConfigError, match="2-player variant .*this game has "
                                          f"{players} players"):
        GameConfig(players=players, options=FLEET)


@pytest.mark.parametrize("option", ["limited_occupation", "no_token_reaction",
                                    "building_shortage"])
def test_optional_rules_need_the_fleet(option: str) -> None:  # R22
    with pytest.raises(ConfigError, match=f"option {option} is an optional rule of the "
                                          "Silent Fleet .*turn on silent_fleet"):
        GameConfig(players=2, options={option: True})
    with pytest.raises(ConfigError, match="must be one of"):
        GameConfig(players=2, options={"silent_fleet": 1})
    assert GameConfig(players=2, options={**FLEET, option: True}).option(option) is True


def test_the_fleet_never_scores() -> None:
    s = _game()
    assert [sc.player for sc in final_scores(s)] == [0, 1]
    assert all("The Silent Fleet" not in sc.lines for sc in final_scores(s))  # P87
    assert "35 discs in its supply, 0 on the board" in s.modules[0].describe_in(s, 0)


# --------------------------------------------------------------------------- Ship
def _shipped(s: State) -> list[Event]:
    """P0 activates a Shipyard and ships to the Africa track."""
    ready_to_act(s, 0, 2, "shipyard")
    s.apply("act shipyard")
    return s.apply("ship AF")


def test_ship_reaction_to_a_track_space() -> None:  # R21, P81
    s = _game()
    _shipped(s)
    d = s.decision()
    assert d is not None and (d.player, d.kind) == (0, "fleet_ship")
    assert d.prompt.startswith("The Silent Fleet reacts to your Ship: choose where its "
                               "disc goes")
    opts = texts(s)
    # every closed track (its next space) and the free Europe trade routes; no open sea
    assert opts == ["fleet ship AF", "fleet ship SA", "fleet ship CA", "fleet ship NA",
                    "fleet ship IN", "fleet ship FE", "fleet ship EUT1", "fleet ship EUT2"]
    token = s.track_tokens(FE)[0]
    assert d.option("fleet ship FE").text == (
        f"The fleet's disc to the Far East track, space 1 of 7: the "
        f"{D.TOKEN_NAMES[token]} token there leaves the game")
    spent = _spent(s)
    events = s.apply("fleet ship FE")
    assert _fleet_events(events) == [
        f"The Silent Fleet ships to the Far East track, space 1 of 7; the "
        f"{D.TOKEN_NAMES[token]} token there leaves the game"]
    assert s.track(FE)[0] == fleet_owner(s) and s.presence(2, FE) == 1
    assert fleet_supply(s) == 34 and _spent(s) == spent + 1
    assert _kind(s) == "action" and s.current_player == 1  # P1's turn follows
    check(s)


def test_ship_reaction_to_a_trade_route_claims_no_link() -> None:  # P81, P82
    s = _game()
    _shipped(s)
    x = D.SITE_INDEX["EUT1"]
    t = s.site_token[x]
    assert t >= 0
    blue, btok, spent = s.players[0].blue[:], s.players[0].brown_tokens[:], _spent(s)
    events = s.apply("fleet ship EUT1")
    assert _fleet_events(events) == [
        f"The Silent Fleet ships to the trade route EUT1 (English Channel); the "
        f"{D.TOKEN_NAMES[t]} token there leaves the game"]
    assert s.site_owner[x] == 2 and s.site_token[x] < 0 and _spent(s) == spent + 1
    assert (s.players[0].blue, s.players[0].brown_tokens) == (blue, btok)  # nobody gains it
    check(s)


def test_a_single_target_is_taken_at_once() -> None:  # P84
    s = _game()
    for r in ("AF", "SA", "NA", "IN", "FE", "CA"):
        open_region(s, r, 0, 1)
    place(s, 1, "EUT1")
    place(s, 1, "EUT2")
    place(s, 1, "CAT1")  # the only free trade route left: FET1
    ready_to_act(s, 0, 2, "shipyard")
    s.apply("act shipyard")
    events = s.apply("sea AF")
    assert [e.kind for e in events][:2] == ["action", "fleet"]  # no decision: at once
    assert _fleet_events(events)[0].startswith(
        "The Silent Fleet ships to the trade route FET1 (Strait of Malacca)")
    assert s.site_owner[D.SITE_INDEX["FET1"]] == 2 and _kind(s) == "action"
    check(s)


def test_the_fleet_wins_a_governor_which_leaves_the_game() -> None:  # R11, R21, P81
    s = _game()
    fleet_ship(s, "AF", 3)  # spaces 1-3 of 5
    ship(s, 1, "AF")  # space 4
    ready_to_act(s, 0, 2, "shipyard")
    s.apply("act shipyard")
    s.apply("ship FE")
    d = s.decision()
    assert d is not None
    assert d.option("fleet ship AF").text.endswith(
        "fills the track and opens Africa: the Governor goes to the fleet and leaves the "
        "game (R11)")
    events = s.apply("fleet ship AF")
    kinds = [e.kind for e in events]
    assert kinds[1:4] == ["fleet", "region", "governor"]
    assert events[3].text == ("The Silent Fleet wins the Africa Governor (AF/G), most discs "
                              "on the track (R11): it leaves the game (R21)")
    assert s.is_open(AF) and s.region_governors[AF] < 0
    assert D.CARD_INDEX["AF/G"] in s.removed
    assert all(D.CARD_INDEX["AF/G"] not in s.held_cards(p) for p in (0, 1))
    check(s)


def test_the_fleet_wins_a_governor_on_a_track_a_player_fills() -> None:  # R11, P81
    s = _game()
    fleet_ship(s, "AF", 3)
    ship(s, 1, "AF")
    ready_to_act(s, 0, 2, "shipyard")
    s.apply("act shipyard")
    events = s.apply("ship AF")  # P0's disc fills the track: the fleet has the most discs
    assert "The Silent Fleet wins the Africa Governor (AF/G)" in \
        next(e.text for e in events if e.kind == "governor")
    assert D.CARD_INDEX["AF/G"] in s.removed and s.players[0].gov < 0
    check(s)


# --------------------------------------------------------------------------- Occupy
def test_occupy_reaction_in_europe_and_open_regions_with_presence() -> None:  # P82
    s = _game()
    open_region(s, "CA", 1)
    open_region(s, "NA", 1)
    fleet_place(s, "CAT1")  # fleet presence in the Caribbean, none in North America
    ready_to_act(s, 0, 2, "colonial-house")
    s.apply("act colonial-house")
    s.apply("occupy EU1")
    d = s.decision()
    assert d is not None and d.kind == "fleet_occupy"
    assert d.prompt.startswith("The Silent Fleet reacts to your Occupy: choose the city its "
                               "disc occupies")
    cities = {t.split()[-1] for t in texts(s)}
    assert {"EU2", "CA1", "CA2"} <= cities and "EU1" not in cities
    assert not any(c.startswith("NA") for c in cities)
    t = s.site_token[D.SITE_INDEX["CA1"]]
    assert t >= 0
    events = s.apply("fleet occupy CA1")
    assert _fleet_events(events) == [
        f"The Silent Fleet occupies CA1 (Havana); the {D.TOKEN_NAMES[t]} token there "
        "leaves the game"]
    assert s.site_owner[D.SITE_INDEX["CA1"]] == 2 and s.site_token[D.SITE_INDEX["CA1"]] < 0
    check(s)


def test_the_fleet_never_controls_a_link() -> None:  # R21, P82
    s = _game()
    fleet_place(s, "EU9")
    li = link_index(s, "EU9", "EU10")
    token = s.link_token[li]
    assert token >= 0
    ready_to_act(s, 0, 2, "colonial-house")
    s.apply("act colonial-house")
    s.apply("occupy EU1")
    s.apply("fleet occupy EU10")
    assert s.link_token[li] == token  # both ends the fleet's: the token stays
    assert not s.controls_link(2, li) and not s.controls_link(0, li)
    check(s)


def test_the_pirates_city_is_never_a_fleet_target() -> None:  # P82, P86
    s = fresh(2, exploits=("republic_of_pirates",), silent_fleet=True)
    open_region(s, "CA", 1)
    fleet_place(s, "CAT1")
    clear_site_token(s, "CA1")
    mark_site(s, "CA1", api.M_PIRATE)
    set_module_data(s, "republic_of_pirates", [D.SITE_INDEX["CA1"], -1, -1])
    check(s)
    ready_to_act(s, 0, 2, "colonial-house")
    s.apply("act colonial-house")
    s.apply("occupy EU1")
    assert "fleet occupy CA2" in texts(s) and "fleet occupy CA1" not in texts(s)


# --------------------------------------------------------------------------- Draw
def _drawer(s: State) -> None:
    give_building(s, 0, "market")
    ready_to_act(s, 0, 1, "market")
    s.apply("act market")


def test_draw_reaction_with_one_deck_in_reach_is_automatic() -> None:  # R21, P83, P84
    s = _game()
    _drawer(s)
    removed = len(s.removed)
    events = s.apply("draw EU")  # P0 takes EU/0; the fleet (no presence) reaches SL/0 only
    assert _fleet_events(events) == [
        "The Silent Fleet discards the top card of the Slavery deck, SL/0 "
        f"({api.icons_words(D.CARDS[D.CARD_INDEX['SL/0']].icons)}): it leaves the game"]
    assert s.removed[removed:] == [D.CARD_INDEX["SL/0"]]
    assert _kind(s) == "action"
    check(s)


def test_draw_reaction_choice_and_presence() -> None:  # P83
    s = _game()
    fleet_place(s, "EU1")  # Europe presence 1
    fleet_ship(s, "AF", 2)  # Africa presence 2 (a closed region: R14)
    _drawer(s)
    s.apply("draw EU")
    d = s.decision()
    assert d is not None and d.kind == "fleet_draw"
    assert texts(s) == ["fleet draw EU", "fleet draw AF", "fleet draw SL"]
    assert d.option("fleet draw AF").text.startswith(
        "The top card of the Africa deck, AF/1 (")
    s.apply("fleet draw AF")
    assert D.CARD_INDEX["AF/1"] in s.removed and s.decks[AF][-1] == D.CARD_INDEX["AF/2"]
    assert all(D.CARD_INDEX["AF/1"] not in s.held_cards(p) for p in (0, 1))
    check(s)


def test_abolition_through_the_fleet() -> None:  # R17, P83
    s = _game()
    for site in ("EU1", "EU2", "EU3", "EU4", "EU5"):
        fleet_place(s, site)
    put_on_top(s, "EU/5")
    _drawer(s)
    s.apply("draw SL")  # P0 takes SL/0: a Slavery card
    assert D.CARD_INDEX["SL/0"] in s.players[0].cards
    d = s.decision()
    assert d is not None
    assert d.option("fleet draw EU").text.endswith(
        "leaves the game; it is the Europe 5 card: Slavery is abolished (R17)")
    events = s.apply("fleet draw EU")
    kinds = [e.kind for e in events]
    assert kinds.index("fleet") < kinds.index("abolition")
    assert s.abolished and not s.decks[D.SLAVERY_DECK]
    assert D.CARD_INDEX["EU/5"] in s.removed
    assert s.players[0].aside == [D.CARD_INDEX["SL/0"]]  # set aside, -1 glory
    check(s)


# --------------------------------------------------------------------------- Attack, Payment
def test_attacking_a_fleet_disc_returns_it_to_its_supply() -> None:  # R21, P86
    s = _game()
    fleet_place(s, "EU1")
    assert fleet_supply(s) == 34
    ready_to_act(s, 0, 3, "barracks")
    s.apply("act barracks")
    d = s.decision()
    assert d is not None
    assert d.option("attack EU1").text.startswith(
        "Attack the EU1 (London) held by the Silent Fleet: 1 casualty")
    events = s.apply("attack EU1")
    assert s.site_owner[D.SITE_INDEX["EU1"]] == 0 and fleet_supply(s) == 35
    assert _fleet_events(events) == ["The Silent Fleet does nothing after an Attack (R21)"]
    assert _kind(s) == "action"
    check(s)


def test_payment_causes_nothing() -> None:  # R21
    s = _game()
    give_building(s, 0, "market")
    staff(s, 0, "market")
    give_token(s, 0, D.T_PAYMENT)
    at_actions(s, 0)
    s.apply("use payment")
    events = s.apply("pay market")
    assert _fleet_events(events) == ["The Silent Fleet does nothing after a Payment (R21)"]
    check(s)


def test_a_pass_causes_nothing() -> None:  # R21, P80
    s = _game()
    at_actions(s, 0)
    events = s.apply("pass")
    assert not _fleet_events(events) and _kind(s) == "action" and s.current_player == 1


# --------------------------------------------------------------------------- several kinds
def test_trigger_choice_after_the_docks() -> None:  # R21 (the rulebook's example), P80
    s = _game()
    give_building(s, 0, "docks")
    ready_to_act(s, 0, 3, "docks")
    s.apply("act docks")
    s.apply("ship EUT1")
    s.apply("occupy EU2")
    d = s.decision()
    assert d is not None and (d.player, d.kind) == (0, "fleet_react")
    assert d.prompt == ("The Silent Fleet reacts once to your turn: choose which of your "
                        "actions triggers it (Ship, Occupy)")
    assert texts(s) == ["fleet react ship", "fleet react occupy"]
    assert d.option("fleet react occupy").text.startswith(
        "Your Occupy triggers it: you then choose among")
    s.apply("fleet react occupy")
    assert _kind(s) == "fleet_occupy"
    s.apply("fleet occupy EU3")
    assert _kind(s) == "action" and s.current_player == 1  # once per turn
    check(s)


def test_docks_with_one_action_reacts_to_it() -> None:  # P80
    s = _game()
    give_building(s, 0, "docks")
    ready_to_act(s, 0, 3, "docks")
    s.apply("act docks")
    s.apply("ship AF")
    s.apply("done")
    assert _kind(s) == "fleet_ship"


def test_trigger_choice_skipped_when_nothing_can_happen() -> None:  # P80
    s = _game(limited_occupation=True)
    fleet_sea(s, "FE", 35)  # an empty supply: neither Ship nor Occupy can place a disc
    give_building(s, 0, "docks")
    ready_to_act(s, 0, 3, "docks")
    s.apply("act docks")
    s.apply("ship AF")
    events = s.apply("occupy EU2")
    assert _fleet_events(events) == [
        "The Silent Fleet could react to your Ship or Occupy, but none of them gives it "
        "anything to do: nothing happens (P84)"]
    assert _kind(s) == "action"


def test_an_empty_supply_places_nothing_but_still_draws() -> None:  # P85
    s = _game()
    fleet_sea(s, "FE", 35)
    assert fleet_supply(s) == 0
    events = _shipped(s)
    assert _fleet_events(events) == [
        "The Silent Fleet reacts to your Ship but its supply is empty (P85): nothing "
        "happens (P84)"]
    assert _kind(s) == "action"
    _drawer(s)
    s.apply("draw EU")  # its 35 discs in the Far East's sea reach FE/1; SL/0 too
    assert _kind(s) == "fleet_draw" and texts(s) == ["fleet draw FE", "fleet draw SL"]
    check(s)


# --------------------------------------------------------------------------- optional rules
def test_limited_occupation() -> None:  # R22, P88
    s = _game(limited_occupation=True)
    open_region(s, "CA", 0)
    fleet_place(s, "CAT1")
    ready_to_act(s, 0, 2, "colonial-house")
    s.apply("act colonial-house")
    s.apply("occupy EU1")  # Europe: the fleet may occupy only there
    d = s.decision()
    assert d is not None and d.prompt.startswith(
        "The Silent Fleet reacts to your Occupy: choose the city its disc occupies in Europe")
    assert all(t.startswith("fleet occupy EU") for t in texts(s))
    s.apply("fleet occupy EU2")
    s.apply("pass")  # P1
    ready_to_act(s, 0, 2, "colonial-house")
    at_actions(s, 0, passed=0b10)
    s.apply("act colonial-house")
    s.apply("occupy CA1")  # the Caribbean: only there
    d = s.decision()
    assert d is not None and d.prompt.startswith(
        "The Silent Fleet reacts to your Occupy: choose the city its disc occupies in the "
        "Caribbean")
    assert {t.split()[-1][:2] for t in texts(s)} == {"CA"}
    check(s)


def test_limited_occupation_without_a_free_city_there() -> None:  # P88
    s = _game(limited_occupation=True)
    open_region(s, "CA", 0)  # the fleet has no presence in the Caribbean
    ready_to_act(s, 0, 2, "colonial-house")
    s.apply("act colonial-house")
    events = s.apply("occupy CA1")
    assert _fleet_events(events) == [
        "The Silent Fleet reacts to your Occupy but there is no city it may occupy in "
        "the Caribbean (limited occupation, P88): nothing happens (P84)"]


def test_limited_occupation_after_an_occupy_ability() -> None:  # P88
    s = fresh(2, exploits=("dutch_east_india_company",), silent_fleet=True,
              limited_occupation=True)
    open_region(s, "FE", 0)
    open_region(s, "AF", 0)
    fleet_place(s, "FET1")  # fleet presence in the Far East
    at_actions(s, 1)
    s.apply("pass")  # P1 passes: a turn end
    ready_to_act(s, 0, 2, "colonial-house")
    at_actions(s, 0, passed=0b10)
    s.apply("act colonial-house")
    s.apply("deic occupy BAT")  # Batavia, a Far East city
    assert _kind(s) == "fleet_occupy"
    assert {t.split()[-1][:2] for t in texts(s)} == {"FE"}


def test_no_token_reaction() -> None:  # R22, P89
    s = _game(no_token_reaction=True)
    give_token(s, 0, D.T_SHIP_DRAW)
    ready_to_act(s, 0, 1, "shipyard")
    s.apply("use ship-draw")
    events = s.apply("ship AF")
    assert _fleet_events(events) == [
        "The Silent Fleet does not react: the turn was played with a blue Action token "
        "(no token reaction, R22, P89)"]
    assert _kind(s) == "action" and s.current_player == 1
    s.apply("pass")
    ready_to_act(s, 0, 2, "shipyard")
    at_actions(s, 0, passed=0b10)
    s.apply("act shipyard")  # a building: the fleet reacts
    s.apply("ship AF")
    assert _kind(s) == "fleet_ship"
    check(s)


def test_tokens_trigger_the_fleet_without_the_rule() -> None:  # R21
    s = _game()
    give_token(s, 0, D.T_SHIP_DRAW)
    ready_to_act(s, 0, 1, "shipyard")
    s.apply("use ship-draw")
    s.apply("ship AF")
    assert _kind(s) == "fleet_ship"


def test_building_shortage_at_each_round_start() -> None:  # R22, P90
    s = _game(building_shortage=True)
    d = s.decision()
    assert d is not None and d.kind == "building_shortage" and d.player != s.crown
    assert d.prompt.startswith("Building shortage (Silent Fleet, R22): you do not hold the "
                               "Crown, so discard a building of level 1 or lower")
    assert texts(s) == ["shortage discard market", "shortage discard shipyard",
                        "shortage discard workshop"]
    assert s.phase_name == "Building shortage" and s.round == 1  # before Construction
    js = s.to_json()  # a round-start decision survives the JSON round trip
    assert State.from_json(js).to_json() == js
    events = s.apply("shortage discard workshop")
    assert events[1].text == (f"Building shortage: P{d.player} (without the Crown) discards a "
                              "Workshop (level 1) from the supply; it leaves the game (R22, "
                              "P90)")
    assert s.building_supply[D.BUILDING_INDEX["workshop"]] == 4
    assert "buildings discarded: Workshop" in s.modules[0].describe_in(s, 0)
    assert _kind(s) == "construction" and s.current_player == s.crown
    check(s)
    assert replay(s.record()).to_json() == s.to_json()


def _to_round(s: State, rnd: int) -> list[Event]:
    """Play on to round ``rnd``'s first decision: pass, decline, build a Barracks when
    offered, else the first option; returns the events."""
    events: list[Event] = []
    while s.round < rnd:
        opts = texts(s)
        pick = next((a for a in ("pass", "done", "build barracks") if a in opts), opts[0])
        events += s.apply(pick)
    return events


def test_building_shortage_names_its_own_step_of_the_round() -> None:  # R22, P90
    # fr: "Au début de chaque tour avant la phase de construction, le joueur qui n'a pas
    # la Couronne défausse un bâtiment de la réserve": neither the Setup (round 1) nor the
    # Discard phase of the round before (rounds 2-7) is happening then
    s = _game(building_shortage=True)
    seen = []
    while s.round <= 3:
        if _kind(s) == "building_shortage":
            seen.append((s.round, s.phase_name))
            assert repr(s).startswith(f"<State round {s.round} Building shortage ")
        else:
            assert s.phase_name != "Building shortage"
        opts = texts(s)
        s.apply(next((a for a in ("pass", "done") if a in opts), opts[0]))
    assert seen == [(1, "Building shortage"), (2, "Building shortage"),
                     (3, "Building shortage")]
    assert (s.round, _kind(s), s.phase_name) == (4, "building_shortage", "Building shortage")
    s.apply(texts(s)[0])
    assert (_kind(s), s.phase_name) == ("construction", "Construction")


def test_a_wrong_action_during_the_shortage_says_what_is_asked() -> None:  # P90
    s = _game(building_shortage=True)
    js = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply("build workshop")
    msg = str(err.value)
    assert (f"player {1 - s.crown} must discard a building from the supply for the "
            "building shortage (P90) (round 1, Building shortage); legal: shortage "
            "discard market") in msg
    assert "exploit" not in msg.lower()
    assert s.to_json() == js  # refused: nothing changed


@pytest.mark.parametrize(("kind", "asked"), [
    ("fleet_ship", "choose where The Silent Fleet's disc ships to (its reaction to a Ship)"),
    ("fleet_react", "choose which of the turn's actions The Silent Fleet reacts to")])
def test_a_wrong_action_during_a_fleet_reaction_says_what_is_asked(kind: str,
                                                                   asked: str) -> None:
    # R21: the fleet reacts after the turn; the player makes its choices, which are no
    # Exploit's
    s = _game()
    if kind == "fleet_ship":
        _shipped(s)
    else:
        give_building(s, 0, "docks")
        ready_to_act(s, 0, 3, "docks")
        s.apply("act docks")
        s.apply("ship AF")
        s.apply("occupy EU3" if "occupy EU3" in texts(s) else texts(s)[0])
    assert _kind(s) == kind
    js = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply("pass")
    msg = str(err.value)
    assert f"player 0 must {asked} (round 1, Actions)" in msg
    assert "exploit" not in msg.lower()
    assert s.to_json() == js


def test_building_shortage_with_nothing_to_discard() -> None:  # P90
    s = _game(building_shortage=True)
    s.apply("shortage discard workshop")
    sell_out(s, "market", "shipyard", "workshop")  # no level-1 building left
    events = _to_round(s, 2)  # both build a Barracks (level 2, P3): Industry stays 0
    q = 1 - s.crown
    assert s.players[q].level(D.INDUSTRY) == 1
    assert [e.text for e in events if e.kind == "fleet"] == [
        f"Building shortage: no building of level 1 or lower is left in the supply, so "
        f"P{q} discards nothing (P90)"]
    assert _kind(s) == "construction"


def test_building_shortage_with_one_type_to_discard() -> None:  # P90
    s = _game(building_shortage=True)
    s.apply("shortage discard market")
    sell_out(s, "market", "shipyard", "bank", "barracks", "guild-hall")
    events = _to_round(s, 2)  # both build a Workshop in round 1: Build Level 2
    q = 1 - s.crown
    assert s.players[q].level(D.INDUSTRY) == 2
    assert [e.text for e in events if e.kind == "fleet"] == [
        f"Building shortage: P{q} (without the Crown) discards a Workshop (level 1) from "
        "the supply; it leaves the game (R22, P90)"]  # the only type: at once
    assert s.building_supply[D.BUILDING_INDEX["workshop"]] == 2
    assert _kind(s) == "construction"


def test_json_and_replay_with_a_pending_fleet_decision() -> None:
    s = new_game(GameConfig(players=2, seed=5, options={**FLEET, "limited_occupation": True}))
    seen: set[str] = set()
    while not s.is_over and len(seen) < 3:
        kind = _kind(s)
        if kind.startswith("fleet"):
            seen.add(kind)
            js = s.to_json()  # a pending fleet decision survives both round trips
            assert State.from_json(js).to_json() == js
            assert replay(s.record()).to_json() == js
        opts = texts(s)
        s.apply(opts[len(s.history()) % len(opts)] if "pass" not in opts or len(opts) == 1
                else opts[len(s.history()) % (len(opts) - 1)])
    assert seen


# --------------------------------------------------------------------------- the Exploits' pieces
def test_letters_of_marque_pushes_a_fleet_disc_without_a_steal() -> None:  # P26, P86
    s = fresh(2, exploits=("letters_of_marque",), silent_fleet=True)
    open_region(s, "AF", 0)
    open_region(s, "SA", 0)
    fleet_ship(s, "CA")
    i = exploit(s, "letters_of_marque")
    assert s.has_shield(0, i) and not s.has_shield(2, i)
    ready_to_act(s, 0, 2, "barracks")
    s.apply("act barracks")
    d = s.decision()
    assert d is not None
    assert d.option("marque push CA 1").text.startswith(
        "Push the Silent Fleet's disc on space 1 (from the far end) of the Caribbean track")
    assert "steal" not in d.option("marque push CA 1").text
    events = s.apply("marque push CA 1")
    assert s.track(CA)[0] == 0 and s.sea_discs(2, CA) == 1 and s.presence(2, CA) == 1
    assert _fleet_events(events) == ["The Silent Fleet does nothing after an Attack (R21)"]
    assert _kind(s) == "action"  # no steal step: the fleet holds no token
    check(s)


def test_fleet_discs_never_count_for_letters_of_marque_places() -> None:  # P27, P87
    s = fresh(2, exploits=("letters_of_marque",), silent_fleet=True)
    open_region(s, "AF", 0)
    open_region(s, "SA", 0)
    fleet_ship(s, "CA", 3)
    ship(s, 0, "CA")
    i = exploit(s, "letters_of_marque")
    e = s.modules[i]
    assert e.score(s, i, 0) >= 3  # alone on the Caribbean track among Shield holders
    assert final_scores(s)[0].lines["Letters of Marque"] == e.score(s, i, 0)


def test_an_ability_and_its_follow_up_attack() -> None:  # P80: abilities count as kinds
    s = fresh(2, exploits=("imperialism",), silent_fleet=True)
    open_region(s, "FE", 0, 1)
    open_region(s, "IN", 0, 1)
    place(s, 1, "FE2")
    ready_to_act(s, 0, 4, "shipyard")
    s.apply("act shipyard")
    s.apply("imperialism sea FE")  # a Ship ability, then a normal Attack follows
    s.apply("attack FE2")
    d = s.decision()
    assert d is not None and d.kind == "fleet_react"
    assert texts(s) == ["fleet react ship", "fleet react attack"]
    assert d.option("fleet react attack").text == "Your Attack triggers it: the fleet does nothing"
    events = s.apply("fleet react attack")  # the player may deny the fleet its Ship
    assert _fleet_events(events) == ["The Silent Fleet does nothing after an Attack (R21)"]
    assert _kind(s) == "action" and s.current_player == 1
    check(s)


def test_undo_across_a_reaction() -> None:
    s = new_game(GameConfig(players=2, seed=11, options=FLEET))
    while _kind(s) != "fleet_ship":
        opts = texts(s)
        ships = [a for a in opts if a.startswith(("ship", "act shipyard", "act merchant"))]
        s.apply((ships or [a for a in opts if a != "pass"] or opts)[0])
    before = s.to_json()
    s.apply(texts(s)[0])
    s.undo()
    assert s.to_json() == before and _kind(s) == "fleet_ship"
