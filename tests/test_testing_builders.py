"""The position builders of :mod:`endeavor.testing` build positions a game can save and
load: whatever they build and :func:`check` accepts round-trips through
``State.to_json`` / ``State.from_json`` (same JSON, same legal actions), and what
``check`` refuses, ``from_json`` refuses too. Every public builder is exercised here
(a new one must be added to :data:`SCENARIOS`).

The game has 95 Trade tokens (R2) and no more: a builder that puts a token into play
takes one that is out of the game, or else the last one of its type lying free on the
board; the count out of the game never goes below 0."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from endeavor import RecordError, State
from endeavor import data as D
from endeavor import testing as T
from endeavor.api import L_BLOCKADE, M_FORT_DEIC

#: builder name -> a position built with it (one position tries several builders)
SCENARIOS: dict[str, Callable[[], State]] = {}


def scenario(*names: str) -> Callable[[Callable[[], State]], Callable[[], State]]:
    def register(f: Callable[[], State]) -> Callable[[], State]:
        for name in names:
            assert name not in SCENARIOS, name
            SCENARIOS[name] = f
        return f
    return register


def _acting(exploits: tuple[str, ...] = (), **options: object) -> State:
    s = T.fresh(4, exploits=exploits, **options)
    return T.at_actions(s, 0)


@scenario("fresh", "at_actions", "set_round", "set_crown", "set_passed")
def _flow() -> State:
    s = _acting()
    T.set_round(s, 3)
    T.set_crown(s, 1)
    T.set_passed(s, 2)
    T.set_passed(s, 2, False)
    T.set_passed(s, 3)
    return s


@scenario("give_discs", "set_harbor", "set_supply", "free_workers", "stock")
def _discs() -> State:
    s = _acting()
    T.give_discs(s, 0, 3)
    T.set_harbor(s, 1, 4)
    T.set_supply(s, 2, 20)
    T.free_workers(s, 3)
    T.stock(s, 1, D.CULTURE, 2)
    return s


@scenario("place", "remove", "ship", "sea", "open_region")
def _board() -> State:
    s = _acting()
    T.place(s, 0, "EU3")
    T.place(s, 1, "EU5", token=None)
    T.remove(s, "EU3")
    T.ship(s, 0, "AF")
    T.open_region(s, "CA", 0, 1)
    T.sea(s, 2, "CA")
    return s


@scenario("give_building", "staff")
def _buildings() -> State:
    s = _acting()
    T.give_building(s, 0, "docks")
    T.give_building(s, 1, "market", staffed=True)
    T.staff(s, 0, "docks")
    T.give_building(s, 2, "colonial-house")  # a second start tile: from the box
    return s


@scenario("give_token", "take_token")
def _tokens() -> State:
    s = _acting()
    T.give_token(s, 0, D.T_INDUSTRY, 17)  # every Industry token of the game
    T.give_token(s, 1, D.T_ATTACK, 2)
    T.take_token(s, 1, D.T_ATTACK)
    T.give_token(s, 2, D.T_ATTACK)  # the one that just left the game comes back
    return s


@scenario("set_site_token", "clear_site_token", "set_link_token", "set_track_token",
          "link_index", "swap_board_token")
def _board_tokens() -> State:
    s = _acting()
    for t in range(8):  # every type, more than once
        T.set_site_token(s, "EU3", t)
        T.set_track_token(s, "AF", 0, t)
        T.set_link_token(s, "FE3", "FE5", t)
    T.set_link_token(s, "FE3", "FE5", -1)
    T.set_track_token(s, "AF", 1, -1)
    T.clear_site_token(s, "EU5")
    T.swap_board_token(s, "EU3", D.T_WEALTH)
    assert T.link_index(s, "FE3", "FE5") >= 0
    return s


@scenario("give_card", "discard_card", "to_pile", "put_on_top", "empty_deck",
          "abolish_slavery", "remove_top_cards", "remove_card", "insert_card")
def _cards() -> State:
    s = _acting()
    T.give_card(s, 0, "EU/1", bonus=True)
    T.give_card(s, 0, "SL/1")
    T.discard_card(s, 0, "SL/1")
    T.to_pile(s, "AF/1")
    T.put_on_top(s, "IN/3")
    T.empty_deck(s, "SA")
    T.remove_top_cards(s, "FE", 2)
    T.remove_card(s, "CA/2")
    T.insert_card(s, "CA/2", "CA")
    T.abolish_slavery(s)
    return s


@scenario("ready_to_act", "texts", "is_module_action")
def _ready() -> State:
    s = T.fresh(4)
    T.ready_to_act(s, 2, 3)
    assert "act shipyard" in T.texts(s)
    assert not any(T.is_module_action(a.code) for a in s.legal_actions())
    return s


@scenario("play_random", "check", "problems")
def _random() -> State:
    s = T.play_random(T.fresh(3), seed=4)
    T.check(s)
    assert T.problems(s) == []
    return s


@scenario("pool_level5", "slot_governor")
def _supply() -> State:
    s = _acting()
    T.pool_level5(s, "town-hall")
    T.give_building(s, 0, "town-hall")
    T.open_region(s, "AF", 1)
    T.open_region(s, "CA", 1)
    gov = [c for c in s.players[1].cards if D.CARDS[c].governor]
    T.slot_governor(s, 1, D.CARDS[gov[0]].code)
    return s


@scenario("exploit", "set_module_data", "mark_site", "apply_ability", "mark_link")
def _modules() -> State:
    s = _acting(exploits=("dutch_east_india_company", "imperialism",
                          "jesuit_missionaries"))
    T.open_region(s, "FE", 0)
    T.place(s, 0, "FE3")
    T.apply_ability(s, 0, "blockade FE3-FE5")
    i = T.exploit(s, "jesuit_missionaries")
    T.set_module_data(s, "jesuit_missionaries", s.module_data[i])
    T.mark_site(s, "BAT", M_FORT_DEIC)
    T.mark_site(s, "BAT", M_FORT_DEIC, on=False)
    li = next(k for k, m in enumerate(s.link_marks) if m & L_BLOCKADE)
    a, b = (D.SITES[x].code for x in s.info.board.links[li])
    T.mark_link(s, a, b, L_BLOCKADE, on=False)  # a Blockade lifted and put back
    T.mark_link(s, a, b, L_BLOCKADE)
    return s


@scenario("set_nassau", "swap_track_disc")
def _pirates() -> State:
    s = T.fresh(3, exploits=("republic_of_pirates",))
    T.open_region(s, "CA", 0, 1)
    T.open_region(s, "NA", 0, 1)
    T.ready_to_act(s, 0, 2)
    s.apply("act shipyard")
    s.apply("pirates nassau CA1")
    T.set_nassau(s, 2)
    T.ship(s, 0, "AF")
    T.swap_track_disc(s, "AF", 0, 1)
    return s


@scenario("saltpeter_tile_disc", "saltpeter_cannon_on")
def _saltpeter() -> State:
    s = _acting(exploits=("saltpeter_stockpiles",))
    T.saltpeter_tile_disc(s, 0)
    T.give_building(s, 1, "barracks")
    T.give_token(s, 1, D.T_INDUSTRY)
    T.apply_ability(s, 1, "saltpeter cannon")
    T.saltpeter_cannon_on(s, 1, "barracks")
    return s


@scenario("set_tile")
def _tile() -> State:
    s = _acting(exploits=("haitian_revolution",))
    i = T.exploit(s, "haitian_revolution")
    T.set_tile(s, "haitian_revolution", s.module_data[i] + [D.CARD_INDEX["CA/1"]])
    return s


@scenario("to_salary")
def _salary() -> State:
    s = T.fresh(4)
    T.give_building(s, 0, "market", staffed=True)
    return T.to_salary(s)


@scenario("beside")
def _classic() -> State:
    s = T.fresh(3, ruleset="classic")
    s = T.at_actions(s, 0)
    T.open_region(s, "AF", 0, 1)
    T.beside(s, 0, "AF", 2)
    return s


@scenario("fleet_owner", "fleet_supply", "fleet_place", "fleet_ship", "fleet_sea")
def _fleet() -> State:
    s = T.at_actions(T.fresh(2, silent_fleet=True), 0)
    T.fleet_place(s, "EU3")
    T.fleet_ship(s, "AF", 2)
    T.fleet_sea(s, "EU")
    assert T.fleet_owner(s) == 2 and T.fleet_supply(s) == D.DISCS_PER_PLAYER - 4
    return s


#: builders that leave a position no game reaches, on purpose: ``check`` names it
REFUSED = {"sell_out": "building"}


@scenario("sell_out")
def _sold_out() -> State:
    s = _acting()
    T.sell_out(s, "market")
    return s


def test_every_builder_has_a_scenario() -> None:
    public = {name for name in T.__all__ if callable(getattr(T, name))}
    assert public - set(SCENARIOS) == set(), "add a scenario for the new builders"
    assert set(SCENARIOS) - public == set()


@pytest.mark.parametrize("build", sorted(set(SCENARIOS.values()), key=lambda f: f.__name__),
                         ids=lambda f: f.__name__.strip("_"))
def test_built_positions_save_and_load(build: Callable[[], State]) -> None:
    s = build()
    problems = T.problems(s)
    if build is _sold_out:
        assert problems and all(REFUSED["sell_out"] in p for p in problems)
        with pytest.raises(RecordError, match="consistency"):
            State.from_json(s.to_json())
        return
    assert problems == []
    assert min(s.spent) >= 0, "a token count out of the game below 0"
    js = s.to_json()
    back = State.from_json(js)
    assert back.to_json() == js
    assert [a.text for a in back.legal_actions()] == [a.text for a in s.legal_actions()]


def test_a_token_comes_from_out_of_the_game_first_then_from_the_board() -> None:
    # R2: 95 tokens and no more
    s = _acting()
    on_board = s.link_token + s.site_token + s.track_token
    industry = on_board.count(D.T_INDUSTRY)
    assert s.spent[D.T_INDUSTRY] == 0 and industry == s.rules.token_counts[D.T_INDUSTRY]
    T.give_token(s, 0, D.T_INDUSTRY)  # none out of the game: the last one on the board
    on_board = s.link_token + s.site_token + s.track_token
    assert on_board.count(D.T_INDUSTRY) == industry - 1 and s.spent[D.T_INDUSTRY] == 0
    T.take_token(s, 0, D.T_INDUSTRY)  # it leaves the game ...
    assert s.spent[D.T_INDUSTRY] == 1
    T.give_token(s, 1, D.T_INDUSTRY)  # ... and is the one taken next
    assert s.spent[D.T_INDUSTRY] == 0
    assert (s.link_token + s.site_token + s.track_token).count(D.T_INDUSTRY) == industry - 1
    T.check(s)


def test_no_token_beyond_the_games_own() -> None:
    s = _acting()
    T.give_token(s, 0, D.T_INDUSTRY, 17)
    before = s.to_json()
    with pytest.raises(ValueError, match="no Industry token is left to take"):
        T.give_token(s, 1, D.T_INDUSTRY)
    assert s.to_json() == before
    T.check(s)


@pytest.mark.xfail(strict=True, reason="known gap: check() does not yet see the facts "
                   "State.from_json adds to it (a closed region's Governor held, R11); "
                   "15 scenario tests build such positions with give_card")
def test_a_governor_given_before_its_region_opens_is_refused_by_check() -> None:
    s = _acting()
    T.give_card(s, 0, "AF/G")  # R11: only the opening awards it
    with pytest.raises(RecordError, match="Africa is closed but its Governor is gone"):
        State.from_json(s.to_json())
    assert T.problems(s), "check() accepts what from_json refuses"
