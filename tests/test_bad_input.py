"""Bad input gives specific errors and changes nothing (distinct errors for
unparseable and illegal; corrupt records are rejected).

* a well-formed action that is not legal now raises :class:`IllegalActionError` naming
  the problem, and the state (its JSON and its legal actions) is untouched;
* unparseable notation raises :class:`NotationError`;
* a corrupt state JSON or game record raises :class:`RecordError` with the reason;
* an impossible :class:`GameConfig` raises :class:`ConfigError` (a ``ValueError``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import scenario as S
from endeavor import (
    Action,
    ConfigError,
    EndeavorError,
    GameConfig,
    IllegalActionError,
    NotationError,
    RecordError,
    State,
    new_game,
    replay,
)
from endeavor import data as D

RED, YELLOW, BLUE, PURPLE = 0, 1, 2, 3


def _assert_unchanged_after(s: State, action: Any, exc: type[Exception],
                            phrase: str) -> str:
    before = s.to_json()
    legal = s.legal_actions()
    cur = s.current_player
    with pytest.raises(exc, match=phrase) as info:
        s.apply(action)
    assert s.to_json() == before
    assert s.legal_actions() == legal
    assert s.current_player == cur
    return str(info.value)


# --------------------------------------------------------------------------- illegal


def _at_start() -> State:
    return new_game(GameConfig(players=4, seed=2))


def _at_construction() -> State:
    return S.fresh(4)


def _actions_with(p: int, *buildings: str, harbor: int = 3,
                  board: str = "B") -> State:
    s = S.fresh(4, board=board)
    for b in buildings:
        S.give_building(s, p, b)
    S.give_discs(s, p, harbor)
    return S.at_actions(s, p)


def _occupied_city() -> State:
    s = S.fresh(4)
    S.place(s, YELLOW, "EU3")
    S.free_workers(s, RED)
    S.give_discs(s, RED, 2)
    S.at_actions(s, RED)
    s.apply("act colonial-house")
    return s


def _attack_without_presence() -> State:
    s = S.fresh(4, board="B")
    for p in (YELLOW, BLUE, PURPLE, YELLOW, BLUE, PURPLE):
        S.ship(s, p, "IN")
    S.place(s, YELLOW, "IN1")
    S.place(s, BLUE, "EU1")  # something Red may attack (Europe presence is free)
    S.give_building(s, RED, "barracks")
    S.give_discs(s, RED, 3)
    S.at_actions(s, RED)
    s.apply("act barracks")
    return s


def _draw_above_presence() -> State:
    s = S.fresh(4, board="B")
    S.ship(s, RED, "NA")
    S.ship(s, RED, "NA")
    S.give_card(s, YELLOW, "NA/1")
    S.give_card(s, BLUE, "NA/2")
    S.give_building(s, RED, "market")
    S.give_discs(s, RED, 1)
    S.at_actions(s, RED)
    s.apply("act market")
    return s


def _full_track() -> State:
    s = S.fresh(4, board="B")
    for p in (YELLOW, BLUE, PURPLE, YELLOW, BLUE, PURPLE):
        S.ship(s, p, "FE")
    S.give_building(s, RED, "shipyard")
    S.give_discs(s, RED, 2)
    S.at_actions(s, RED)
    s.apply("act shipyard")
    return s


def _exchange_worker() -> State:
    s = S.fresh(4, board="B")
    S.give_building(s, RED, "exchange", staffed=True)
    S.give_token(s, RED, D.T_PAYMENT)
    S.at_actions(s, RED)
    s.apply("use payment")
    return s


def _over() -> State:
    return S.play_random(S.fresh(2, seed=5), seed=5)


ILLEGAL: dict[str, tuple[Callable[[], State], str, str]] = {
    # name: (position, action, key phrase of the message)
    "wrong phase: build at setup": (_at_start, "build theater", "start tile decision"),
    "wrong phase: ship in construction": (_at_construction, "ship FE",
                                          "not the time for 'ship'"),
    "wrong phase: pass in construction": (_at_construction, "pass",
                                          "construction decision"),
    "build above build level": (_at_construction, "build university",
                                "above your Build Level 1"),
    "occupied city": (_occupied_city, "occupy EU3", r"EU3 \(Cadiz\) is already occupied"),
    "attack without presence": (_attack_without_presence, "attack IN1",
                                "no presence in India"),
    "attack with an Occupy source": (_occupied_city, "attack EU3",
                                     "this source allows Occupy, not Attack"),
    "draw above presence": (_draw_above_presence, "draw NA",
                            "presence in North America is 2, below the Draw Value 3"),
    "draw a card not in the pile": (_draw_above_presence, "draw SA/1",
                                    "not in the discard pile"),
    "building already staffed": (lambda: _actions_with(RED), "act colonial-house",
                                 "Colonial House is already staffed"),
    "building not owned": (lambda: _actions_with(RED), "act market", "you have no Market"),
    "token not held": (lambda: _actions_with(RED), "use attack",
                       "no Attack token"),
    "ship to a full track": (_full_track, "ship FE", "Far East track is full"),
    "payment from a no-payment building": (_exchange_worker, "pay exchange", "R15"),
    "after the game is over": (_over, "pass", "the game is over"),
}


@pytest.mark.parametrize("name", list(ILLEGAL))
def test_illegal_action_names_the_problem_and_changes_nothing(name: str) -> None:
    make, text, phrase = ILLEGAL[name]
    s = make()
    S.check(s)
    assert Action(text) not in s.legal_actions()
    msg = _assert_unchanged_after(s, text, IllegalActionError, phrase)
    assert msg.startswith(f"{text} is illegal: ")
    # the same with a parsed Action and with its code
    _assert_unchanged_after(s, s.parse_action(text), IllegalActionError, phrase)
    with pytest.raises(IllegalActionError):
        s.apply_code(Action(text).code)
    assert issubclass(IllegalActionError, ValueError)
    S.check(s)


def test_illegal_message_lists_the_legal_options() -> None:
    s = _at_construction()
    msg = _assert_unchanged_after(s, "ship FE", IllegalActionError, "legal: ")
    assert "build market, build shipyard, build workshop" in msg
    assert f"player {s.current_player} must make a construction decision" in msg


def test_route_not_on_this_board_side() -> None:
    """Side A has no Baltic Sea (EUT3): the notation parses, the action is illegal."""
    s = _actions_with(RED, "shipyard", board="A")
    s.apply("act shipyard")
    _assert_unchanged_after(s, "ship EUT3", IllegalActionError, "not on board side A")


def test_done_outside_a_plus_source() -> None:
    s = _occupied_city()
    _assert_unchanged_after(s, "done", IllegalActionError, "only the second action")


def test_attack_needs_two_harbor_discs() -> None:
    s = S.fresh(4)
    S.place(s, YELLOW, "EU3")
    S.give_building(s, RED, "barracks")
    S.give_discs(s, RED, 2)  # one to activate, one left: not enough to attack
    S.at_actions(s, RED)
    _assert_unchanged_after(s, "act barracks", IllegalActionError,
                            r"none of its actions can be carried out now \(R8\)")


def test_apply_code_unknown_code() -> None:
    s = _at_construction()
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="unknown action code"):
        s.apply_code(-5)
    assert s.to_json() == before


# --------------------------------------------------------------------------- notation


BAD_NOTATION: list[tuple[Any, str]] = [
    ("", "unknown verb ''"),
    ("   ", "unknown verb ''"),
    ("fly FE", "unknown verb 'fly'"),
    ("ship XX", "no such 'ship' target"),
    ("occupy", "no such 'occupy' target"),
    ("occupy EU11", "no such 'occupy' target"),
    ("draw FE/9", "no such 'draw' target"),
    ("build castle", "no such 'build' target"),
    (42, "must be a string, got int"),
    (None, "must be a string, got NoneType"),
    (["ship FE"], "must be a string, got list"),
]


@pytest.mark.parametrize(("text", "phrase"), BAD_NOTATION)
def test_unparseable_notation(text: Any, phrase: str) -> None:
    s = _actions_with(RED, "shipyard")
    with pytest.raises(NotationError, match=phrase):
        s.parse_action(text)
    with pytest.raises(NotationError, match=phrase):
        Action(text)
    _assert_unchanged_after(s, text, NotationError, phrase)
    assert issubclass(NotationError, ValueError)
    assert not issubclass(NotationError, IllegalActionError)


def test_notation_ignores_case_and_spaces() -> None:
    s = _actions_with(RED, "shipyard")
    assert s.parse_action("  ACT   Shipyard ") is Action("act shipyard")


# --------------------------------------------------------------------------- state JSON


def _midgame() -> State:
    s = S.fresh(4, seed=3)
    rng = random.Random(1)
    for _ in range(150):
        la = s.legal_actions()
        if len(la) > 1 and la[-1].text == "pass":
            la = la[:-1]
        s.apply(rng.choice(la))
    assert not s.is_over
    return s


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    d: dict[str, Any] = json.loads(_midgame().to_json())
    return d


def _first_deck_card(d: dict[str, Any]) -> str:
    return next(dk[-1] for dk in d["decks"] if dk)


def _del(key: str) -> Callable[[dict[str, Any]], None]:
    def f(d: dict[str, Any]) -> None:
        del d[key]
    return f


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def f(d: dict[str, Any]) -> None:
        d[key] = value
    return f


def _player(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def f(d: dict[str, Any]) -> None:
        d["players"][0][key] = value
    return f


def _json_decision(s: State) -> list[int]:
    """The pending decision as the state JSON writes it: ``[kind, player, ...]``."""
    stack: list[list[int]] = json.loads(s.to_json())["stack"]
    return stack[-1]


def _json_numbers() -> tuple[int, int, int, int]:
    """The numbers the state JSON uses for an action, an effect and a discard decision
    and for the game-over phase, read from real positions (the cases below corrupt that
    format)."""
    s = S.fresh(4)
    S.ready_to_act(s, 0, 2)
    assert S.deciding(s) == ("action", 0)
    action = _json_decision(s)[0]
    s.apply("act shipyard")
    assert S.deciding(s) == ("effect", 0)
    effect = _json_decision(s)[0]
    s = S.fresh(4)
    c = s.crown
    for code in ("NA/1", "NA/2"):  # Card Limit 1: one over
        S.give_card(s, c, code)
    S.at_actions(s, c, passed=((1 << s.n) - 1) & ~(1 << c))
    s.apply("pass")
    assert S.deciding(s) == ("discard", c)
    discard = _json_decision(s)[0]
    over = json.loads(S.play_random(S.fresh(2)).to_json())["phase"]
    return action, effect, discard, over


JSON_ACTION, JSON_EFFECT, JSON_DISCARD, JSON_GAME_OVER = _json_numbers()


def _lose_a_disc(d: dict[str, Any]) -> None:
    pl = next(p for p in d["players"] if p["supply"] > 0)
    pl["supply"] -= 1


def _duplicate_card(d: dict[str, Any]) -> None:
    d["pile"].append(_first_deck_card(d))


def _swap_site_token(d: dict[str, Any]) -> None:
    i = next(i for i, t in enumerate(d["site_token"]) if t >= 0)
    d["site_token"][i] = (d["site_token"][i] + 1) % 8


def _owner_off_board(d: dict[str, Any]) -> None:
    d["site_owner"][D.SITE_INDEX["FET1"]] = 0  # side B has no Strait of Malacca


CORRUPT: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "wrong format tag": (_set("format", "endeavor-record"), "not an endeavor state"),
    "no format tag": (_del("format"), "not an endeavor state"),
    "wrong version": (_set("version", 99), "unsupported state version 99"),
    "version as bool": (_set("version", True), "unsupported state version True"),
    "missing players": (_del("players"), "field 'players' must list 4 players"),
    "missing site owners": (_del("site_owner"), "field 'site_owner' must be a list"),
    "missing stack": (_del("stack"), "field 'stack' must be a list"),
    "missing config": (_del("config"), "config must be an object"),
    "round as text": (_set("round", "3"), "field 'round' must be an int"),
    "round as bool": (_set("round", True), "field 'round' must be an int"),
    "abolished not bool": (_set("abolished", 0), "'abolished' must be true or false"),
    "cards not a list": (_player("cards", "EU/0"), "'cards' must be a list of card codes"),
    "unknown card": (_player("cards", ["XX/9"]), "unknown card 'XX/9'"),
    "unknown building": (_player("buildings", ["castle"]), "unknown building 'castle'"),
    "crown out of range": (_set("crown", 9), r"'crown' must be an int in 0\.\.3, got 9"),
    "round out of range": (_set("round", 8), r"'round' must be an int in 0\.\.7"),
    "supply out of range": (_player("supply", 36), r"'supply' must be an int in 0\.\.35"),
    "site owner out of range": (_set("site_owner", [7] * D.NSITES), r"outside -1\.\.3"),
    "site owner off this board": (_owner_off_board, "bad owner"),
    "disc conservation": (_lose_a_disc, "34 discs, not 35"),
    "duplicated card": (_duplicate_card, "is in 2 places"),
    "token conservation": (_swap_site_token, "token type"),
    "bad frame kind": (_set("stack", [[99, 0]]), "bad decision frame"),
    "frame too short": (_set("stack", [[JSON_EFFECT, 0]]), "bad decision frame"),
    "frame player out of range": (_set("stack", [[JSON_ACTION, 7]]), "bad decision frame"),
    "frame field out of range": (_set("stack", [[JSON_EFFECT, 0, 9, 0, -1, -1, -1, 0]]),
                                 r"bad decision frame .*outside 0\.\.3"),
    "frame of text": (_set("stack", [["action", 0]]), "bad decision frame"),
    "frame of another phase": (_set("stack", [[JSON_DISCARD, 0]]), "cannot occur in phase"),
    "step past the schedule": (_set("step", 60), "past the end of the round's schedule"),
    "empty stack before the end": (_set("stack", []), "stack must be empty exactly when"),
    "game over with a decision": (_set("phase", JSON_GAME_OVER),
                                  "stack must be empty exactly when"),
    "bad config": (lambda d: d["config"].update(players=6), "2 to 5 players"),
    "bad history": (_set("history", ["fly FE"]), "history: cannot parse"),
}


@pytest.mark.parametrize("name", list(CORRUPT))
def test_corrupt_state_json(good: dict[str, Any], name: str) -> None:
    mutate, phrase = CORRUPT[name]
    d = copy.deepcopy(good)
    mutate(d)
    with pytest.raises(RecordError, match=phrase):
        State.from_json(json.dumps(d))


@pytest.mark.parametrize(("text", "phrase"), [
    ("{", "not valid JSON"),
    ("", "not valid JSON"),
    ("[]", "not an endeavor state"),
    ("null", "not an endeavor state"),
    (123, "not valid JSON"),
])
def test_state_json_not_a_state(text: Any, phrase: str) -> None:
    with pytest.raises(RecordError, match=phrase):
        State.from_json(text)


def test_good_state_json_round_trips(good: dict[str, Any]) -> None:
    text = json.dumps(good, separators=(",", ":"))
    assert State.from_json(text).to_json() == text


JUNK: list[Any] = [None, "x", -1, 10**9, 1.5, True, [], {}, [None], [[]], ["EU/0"]]


def test_junk_in_any_field_is_a_record_error(good: dict[str, Any]) -> None:
    """Whatever junk replaces a field, from_json raises RecordError (and nothing else)
    unless the junk happens to equal the field's real value."""
    cases: list[tuple[str, Any, dict[str, Any]]] = []
    for key in good:
        for junk in JUNK:
            d = copy.deepcopy(good)
            d[key] = junk
            cases.append((key, junk, d))
    for key in good["players"][0]:
        for junk in JUNK:
            d = copy.deepcopy(good)
            d["players"][0][key] = junk
            cases.append((f"players[0].{key}", junk, d))
    accepted = []
    for key, junk, d in cases:
        if d == good:
            continue
        try:
            State.from_json(json.dumps(d))
        except RecordError:
            continue
        accepted.append((key, junk))
    assert not accepted
    assert len(cases) > 400


def test_junk_read_as_trusted_is_a_record_error_or_a_state(good: dict[str, Any]) -> None:
    """``trusted=True`` skips the replay and the consistency checks, not the checks of
    each field's shape and range: junk still raises RecordError and nothing else."""
    refused = 0
    for key in good:
        for junk in JUNK:
            d = copy.deepcopy(good)
            d[key] = junk
            try:
                State.from_json(json.dumps(d), trusted=True)
            except RecordError:
                refused += 1
    assert refused > 100


def _open_region_without_governor(d: dict[str, Any]) -> None:
    """Fill Africa's track but leave its Governor in the box."""
    s = State.from_json(json.dumps(d))
    o = sum(len(s.track(r)) for r in range(D.AFRICA))  # the tracks, region by region
    for k in range(len(s.track(D.AFRICA))):
        if d["trk_owner"][o + k] < 0:
            d["trk_owner"][o + k] = 0
            d["players"][0]["supply"] -= 1
            t = d["trk_tok"][o + k]
            if t >= 0:
                d["trk_tok"][o + k] = -1
                d["spent"][t] += 1


UNREACHABLE: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "version true": (_set("version", True), "unsupported state version True"),
    "abolished with the Slavery deck in play": (
        _set("abolished", True), "abolished but the Slavery deck is still in play"),
    "open region, Governor never awarded": (
        _open_region_without_governor, "Africa is open but its Governor is still available"),
    "no history for a mid-game position": (
        _set("history", []), "does not follow from its history"),
    "a history that leads elsewhere": (
        lambda d: d["history"].__setitem__(-1, "pass"), "history"),
    "config without its seed": (_set("config", {}), "config lacks field"),
    "another seed": (lambda d: d["config"].update(seed=d["config"]["seed"] + 1),
                     "history"),
    "a disc moved by hand": (
        lambda d: d["players"][1].update(supply=d["players"][1]["supply"] - 1,
                                         harbor=d["players"][1]["harbor"] + 1),
        "does not follow from its history"),
}


@pytest.mark.parametrize("name", list(UNREACHABLE))
def test_states_no_game_can_reach_are_rejected(good: dict[str, Any], name: str) -> None:
    mutate, phrase = UNREACHABLE[name]
    d = copy.deepcopy(good)
    mutate(d)
    assert d != good
    with pytest.raises(RecordError, match=phrase):
        State.from_json(json.dumps(d))


# --------------------------------------------------------------------------- records


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    s = S.fresh(3, seed=4)
    rng = random.Random(2)
    for _ in range(40):
        s.apply(rng.choice(s.legal_actions()))
    rec = s.record()
    assert replay(rec).to_json() == s.to_json()
    return rec


def _illegal_at(k: int) -> Callable[[dict[str, Any]], None]:
    def f(r: dict[str, Any]) -> None:
        r["actions"][k - 1] = "build university"  # never legal at Build Level 1
    return f


BAD_RECORDS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "wrong format": (_set("format", "endeavor-state"), "not an endeavor record"),
    "wrong version": (_set("version", 99), "unsupported record version 99"),
    "players 6": (lambda r: r["config"].update(players=6),
                  "bad config in record: Age of Sail is for 2 to 5 players, not 6"),
    "unknown option": (lambda r: r["config"]["options"].update(fog=True),
                       "bad config in record: unknown option 'fog'"),
    "unknown config field": (lambda r: r["config"].update(colour="red"),
                             "unknown config field"),
    "config not an object": (_set("config", [3]), "config must be an object"),
    "actions not a list": (_set("actions", "pass"), "no 'actions' list"),
    "missing actions": (_del("actions"), "no 'actions' list"),
    "unparseable action": (lambda r: r["actions"].__setitem__(2, "fly FE"),
                           r"action #3 \('fly FE'\): cannot parse"),
    "non-string action": (lambda r: r["actions"].__setitem__(0, 7),
                          "action #1 .*must be a string"),
    "illegal action at 5": (_illegal_at(5), r"action #5 \('build university'\).*illegal"),
    "illegal action at 30": (_illegal_at(30), r"action #30 \('build university'\)"),
}


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_corrupt_record(record: dict[str, Any], name: str) -> None:
    mutate, phrase = BAD_RECORDS[name]
    r = copy.deepcopy(record)
    mutate(r)
    with pytest.raises(RecordError, match=phrase):
        replay(r)
    with pytest.raises(RecordError, match=phrase):
        replay(json.dumps(r))


@pytest.mark.parametrize(("rec", "phrase"), [
    ("{", "record is not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
    ([1, 2], "must be a JSON object"),
])
def test_record_not_an_object(rec: Any, phrase: str) -> None:
    with pytest.raises(RecordError, match=phrase):
        replay(rec)


def test_record_errors_are_value_errors() -> None:
    assert issubclass(RecordError, ValueError) and issubclass(RecordError, EndeavorError)


# --------------------------------------------------------------------------- config


BAD_CONFIGS: list[tuple[dict[str, Any], str]] = [
    ({"players": 6}, "2 to 5 players, not 6"),
    ({"players": 1}, "2 to 5 players, not 1"),
    ({"players": "4"}, "players must be an int"),
    ({"board": "C"}, "board side must be 'A' or 'B', not 'C'"),
    ({"options": {"fog": True}}, "unknown option 'fog'"),
    ({"options": {"phase_order": "sideways"}}, "option phase_order='sideways' must be"),
    ({"options": {"discard_pile_bonus": 1}}, "option discard_pile_bonus=1 must be"),
    ({"options": ["phase_order"]}, "options must be a mapping"),
    ({"exploits": ("kraken",)}, "unknown Exploit 'kraken'"),
    ({"exploits": ("imperialism", "imperialism")}, "Exploit listed twice"),
    ({"exploits": 5}, "exploits must be a tuple"),
    ({"ruleset": "chess"}, "unknown ruleset 'chess'"),
    ({"seed": "x"}, "seed must be an int"),
]


@pytest.mark.parametrize(("kwargs", "phrase"), BAD_CONFIGS)
def test_impossible_config(kwargs: dict[str, Any], phrase: str) -> None:
    with pytest.raises(ConfigError, match=phrase):
        GameConfig(**kwargs)
    with pytest.raises(ValueError):
        GameConfig(**kwargs)


def test_unusual_but_legal_configs() -> None:
    """R1: side A is meant for 2-4 players, but 5 on side A (or 2 on side B) is legal."""
    for players, board in ((5, "A"), (2, "B"), (4, "A")):
        cfg = GameConfig(players=players, board=board)
        assert cfg.board == board
        s = new_game(cfg)
        S.check(s)
        assert s.current_player is not None
    assert GameConfig(players=4).board == "B" and GameConfig(players=3).board == "A"


def test_unavailable_exploit_ability_says_why() -> None:
    # dormant Exploit, then no Shield (P13): the message names the reason, state unchanged
    from scenario import at_actions, fresh, give_building, give_discs, open_region, place

    s = fresh(4, exploits=("spanish_main",))
    give_building(s, 0, "barracks")
    give_discs(s, 0, 3)
    place(s, 1, "EU1")
    at_actions(s, 0)
    s.apply("act barracks")
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="dormant until North America and South"):
        s.apply("fortify NA1")
    open_region(s, "NA", 1)
    open_region(s, "SA", 1)
    with pytest.raises(IllegalActionError, match="no Shield on The Spanish Main"):
        s.apply("fortify NA1")
    with pytest.raises(IllegalActionError, match="not in this game"):
        s.apply("saltpeter cannon")
    assert s.to_json() != before  # the regions opened, but no failed apply changed it
    after = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply("fortify NA1")
    assert s.to_json() == after
