"""endeavor.web.view: the position, the decision with its click targets, the scores and
the events as JSON, for every ruleset and option, on seeded random games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from endeavor import GameConfig, State, new_game
from endeavor.bots import make
from endeavor.data import SITE_INDEX
from endeavor.rules.module import M_FORT, M_MISSIONARY, M_PIRATE
from endeavor.testing import (
    apply_ability,
    check,
    clear_site_token,
    exploit,
    fresh,
    mark_site,
    open_region,
    place,
    set_module_data,
    to_pile,
)
from endeavor.web import view

CONFIGS: list[GameConfig] = [
    GameConfig(players=2, seed=1),
    GameConfig(players=3, seed=2, exploits="random"),
    GameConfig(players=4, board="B", seed=3, exploits="random"),
    GameConfig(players=5, seed=4, exploits=("dutch_east_india_company", "imperialism",
                                            "jesuit_missionaries")),
    GameConfig(players=2, seed=5, options={"silent_fleet": True, "building_shortage": True}),
    GameConfig(players=3, seed=6, ruleset="classic"),
    GameConfig(players=5, seed=7, ruleset="classic", options={"phase_order": "by_player"}),
    GameConfig(players=4, seed=8, exploits=("globalisation", "manila_galleons",
                                            "letters_of_marque")),
]


_EXPLOITS = ("dutch_east_india_company", "globalisation", "haitian_revolution", "imperialism",
             "jesuit_missionaries", "letters_of_marque", "manila_galleons",
             "republic_of_pirates", "saltpeter_stockpiles", "south_sea_company",
             "spanish_main", "spice_trade", "sun_never_sets", "transit_of_venus",
             "underground_railroad")
#: every Exploit once, three to a game, on both boards
CONFIGS += [GameConfig(players=3 + k % 2, seed=20 + k, exploits=_EXPLOITS[3 * k:3 * k + 3])
            for k in range(5)]


def _ids(cfg: GameConfig) -> str:
    return f"{cfg.ruleset}-{cfg.players}p-{cfg.board}-{cfg.seed}"


def _check_position(state: State) -> dict[str, Any]:
    """The position and the decision: JSON-serialisable, options exactly the legal
    actions, every target an element of the position."""
    pos = view.position(state)
    json.dumps(pos)
    ids = view.element_ids(pos)
    p = state.current_player
    d = view.decision_view(state, [] if p is None else [p])
    if state.is_over:
        assert d is None
        return pos
    assert d is not None
    json.dumps(d)
    assert [o["action"] for o in d["options"]] == [str(a) for a in state.legal_actions()]
    for o in d["options"]:
        missing = [t for t in o["targets"] if t not in ids]
        assert not missing, (o["action"], missing)
        assert o["group"] and o["text"]
    # a spectator, or another seat, sees the prompt but no options
    spectator = view.decision_view(state, [])
    assert spectator is not None and spectator["options"] == []
    assert spectator["prompt"] == d["prompt"] and spectator["player"] == d["player"]
    others = [q for q in range(state.n) if q != p]
    assert view.decision_view(state, others)["options"] == []  # type: ignore[index]
    return pos


@pytest.mark.parametrize("cfg", CONFIGS, ids=_ids)
def test_random_games_serialise_and_targets_exist(cfg: GameConfig) -> None:
    """Play a whole seeded random game; check the views at every decision."""
    state = new_game(cfg)
    bot = make("random", seed=cfg.seed)
    seq = 0
    while not state.is_over:
        _check_position(state)
        for e in state.apply(bot.choose(state)):
            seq += 1
            ev = view.event_view(e, seq)
            json.dumps(ev)
            assert ev["kind"] == e.kind and ev["player"] == e.player and ev["text"]
    _check_position(state)
    scores = view.scores_view(state)
    assert scores is not None
    json.dumps(scores)
    assert [s["seat"] for s in scores] == list(range(cfg.players))
    for s in scores:
        assert sum(pts for _, pts in s["lines"]) == s["total"]
        assert 1 <= s["rank"] <= cfg.players
    assert min(s["rank"] for s in scores) == 1


def test_scores_only_at_the_end() -> None:
    assert view.scores_view(new_game(GameConfig(players=3))) is None


def test_position_contents_age_of_sail() -> None:
    state = new_game(GameConfig(players=4, board="B", seed=11, exploits="random"))
    pos = view.position(state)
    assert pos["ruleset"] == "age_of_sail" and pos["board"] == "B"
    assert [r["id"] for r in pos["regions"]] == ["EU", "AF", "SA", "CA", "NA", "IN", "FE"]
    europe, africa = pos["regions"][0], pos["regions"][1]
    assert europe["open"] and europe["track"] is None
    assert [d["id"] for d in europe["decks"]] == ["deck:EU", "deck:SL"]
    assert not africa["open"] and africa["track"]["length"] == 6
    assert all(s["owner"] is None and s["token"] for s in africa["track"]["spaces"])
    assert africa["governor"]["where"] == "board"
    assert africa["decks"][0]["top"]["code"] == "AF/1"
    assert any(r["routes"] for r in pos["regions"])
    assert len(pos["exploits"]) == 3
    assert pos["attributes"] == ["Industry", "Culture", "Wealth", "Influence"]
    assert {t["id"] for t in pos["start_tiles"]} == {"supply:colonial-house",
                                                      "supply:merchant-dock"}
    assert len(pos["level5"]) == 3
    mat = pos["players"][0]
    assert mat["buildings"] == [] and mat["supply"] > 0 and mat["card_limit"] == 1
    assert [a["next_level_at"] for a in mat["attributes"]] == [2, 2, 2, 2]
    assert any(link["circular"] for link in pos["links"])
    assert any(not link["circular"] for link in pos["links"])


def test_position_classic_names_and_no_sea_routes() -> None:
    state = new_game(GameConfig(players=3, ruleset="classic", seed=2))
    pos = view.position(state)
    assert pos["attributes"] == ["Industry", "Culture", "Finance", "Politics"]
    assert all(r["routes"] == [] for r in pos["regions"])
    assert pos["start_tiles"] == []
    assert [b["code"] for b in pos["players"][0]["buildings"]] == ["colonial-house"]
    assert pos["regions"][1]["sea"]["label"] == "beside the track"


def test_silent_fleet_neutral() -> None:
    state = new_game(GameConfig(players=2, seed=3, options={"silent_fleet": True}))
    pos = view.position(state)
    assert pos["neutral"] and pos["neutral"][0]["owner"] == 2
    assert pos["variants"] and pos["variants"][0]["name"]
    assert all(len(r["presence"]) == 3 for r in pos["regions"])


def test_targets_of_core_actions() -> None:
    """Each core verb's targets, on a position in the Action phase."""
    from endeavor import testing as T

    s = T.fresh(players=3, seed=4)
    T.give_building(s, 0, "docks")
    T.give_building(s, 0, "market", staffed=True)
    T.give_token(s, 0, 4)
    T.set_harbor(s, 0, 3)
    s = T.at_actions(s, 0)
    d = view.decision_view(s, [0])
    assert d is not None
    by = {o["action"]: o for o in d["options"]}
    assert by["act docks"]["targets"] == ["building:0:1"]  # after the Colonial House
    assert by["use ship-draw"]["targets"] == ["token:0:ship-draw"]
    assert by["pass"]["targets"] == ["pass"] and by["pass"]["group"] == "Pass"
    assert by["act docks"]["group"] == "Activate"
    assert "act market" not in by  # staffed
    ids = view.element_ids(view.position(s))
    for o in d["options"]:
        assert set(o["targets"]) <= ids
    s.apply("act docks")
    d = view.decision_view(s, [0])
    assert d is not None
    kinds = {o["action"].split()[0]: o for o in d["options"]}
    assert kinds["ship"]["targets"][0].startswith(("track:", "route:"))
    assert kinds["occupy"]["targets"][0].startswith("city:")


def test_event_view_normalises_space() -> None:
    from endeavor import Event

    assert view.event_view(Event("action", 1, "P1:  Ship\n to FE"), 4) == {
        "seq": 4, "kind": "action", "player": 1, "text": "P1: Ship to FE"}


def test_cached_cards_and_buildings_are_fresh_copies() -> None:
    """card_json and the buildings come from a per-ruleset cache: the same JSON as built
    afresh, and a caller changing what it got changes nothing for the next one."""
    state = new_game(GameConfig(players=3, seed=9))
    bot = make("random", seed=9)
    for _ in range(60):
        state.apply(bot.choose(state))
    first = json.dumps(view.position(state))
    view.clear_caches()
    assert json.dumps(view.position(state)) == first  # built afresh: identical
    pos = view.position(state)
    card = view.card_json(state, state.decks[0][-1])
    card["icons"]["culture"] = 99
    card["gives"] = "everything"
    for mat in pos["players"]:
        for b in mat["buildings"]:
            b["does"] = "nothing"
    assert json.dumps(view.position(state)) == first


def _site(pos: dict[str, Any], code: str) -> dict[str, Any]:
    return next(site for r in pos["regions"] for site in r["cities"] + r["routes"]
                if site["code"] == code)


def test_sites_carry_the_exploits_pieces_and_what_an_attack_takes() -> None:
    # a held city costs its attacker 2 Harbor discs (R9), a fortified one 3; a city with
    # a Missionary (P35) or the Pirate (P30) can't be attacked at all (P93)
    state = fresh(3, exploits=("spanish_main", "jesuit_missionaries", "republic_of_pirates"))
    for code in ("NA1", "NA2", "SA1"):
        place(state, 0, code)
    mark_site(state, "NA2", M_FORT)
    fort = state.module_data[exploit(state, "spanish_main")]
    set_module_data(state, "spanish_main", [fort[0] - 1] + fort[1:])
    i = exploit(state, "jesuit_missionaries")
    d = state.module_data[i]
    set_module_data(state, "jesuit_missionaries", [d[0] - 2, SITE_INDEX["SA1"], SITE_INDEX["SA1"]])
    mark_site(state, "SA1", M_MISSIONARY)
    r = exploit(state, "republic_of_pirates")
    set_module_data(state, "republic_of_pirates", [SITE_INDEX["CA1"]] + state.module_data[r][1:])
    mark_site(state, "CA1", M_PIRATE)
    clear_site_token(state, "CA1")
    check(state)
    pos = view.position(state)
    plain, fort, missioned, pirate = (_site(pos, c) for c in ("NA1", "NA2", "SA1", "CA1"))
    assert (plain["fortified"], plain["missionaries"], plain["pirate"]) == (False, 0, False)
    assert plain["attack_discs"] == [None, 2, 2]
    assert fort["fortified"] and fort["attack_discs"] == [None, 3, 3]
    assert missioned["missionaries"] == 2 and missioned["attack_discs"] is None
    assert pirate["pirate"] and pirate["owner"] is None and pirate["attack_discs"] is None
    assert _site(pos, "EU1")["attack_discs"] is None  # nobody holds it
    json.dumps(pos)


def test_blockades_and_the_attack_they_leave_free() -> None:
    # Imperialism: every link to India / the Far East carries a Blockade (P23); an
    # attacker holding a city linked without one suffers no casualty (P24)
    state = fresh(3, exploits=("imperialism",))
    pos = view.position(state)
    blockaded = {link["id"] for link in pos["links"] if link["blockade"]}
    assert len(blockaded) == 9 and "link:IN3-FE2" in blockaded
    assert all(link["token"] for link in pos["links"] if link["blockade"] and link["circular"])
    open_region(state, "FE", 0, 1)
    open_region(state, "IN", 0, 1)
    place(state, 0, "IN3")
    place(state, 1, "FE2")
    assert _site(view.position(state), "FE2")["attack_discs"] == [2, None, 2]
    apply_ability(state, 1, "blockade IN3-FE2")
    pos = view.position(state)
    link = next(link for link in pos["links"] if link["id"] == "link:IN3-FE2")
    assert not link["blockade"] and link["token"] is None
    assert _site(pos, "FE2")["attack_discs"] == [1, None, 2]


@pytest.mark.parametrize("bonus", [True, False])
def test_a_pile_cards_disc_follows_the_discard_pile_rule(bonus: bool) -> None:
    # R16: a value-1 region card drawn from the pile brings its disc only under the
    # published rule (the draft's reading, discard_pile_bonus=False, gives none)
    state = fresh(3, discard_pile_bonus=bonus)
    to_pile(state, "SA/1")
    assert [c["bonus_disc"] for c in view.position(state)["pile"]] == [bonus]
