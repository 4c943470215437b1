"""endeavor.web.view: the ``effect`` of an option (endeavor.web.effects, ruling P91): the
last discards say by how much they change the final score, exactly as the score pad will
show it; an activation says when it leaves too few Harbor discs for a "+" building's
two actions. Invariants over seeded random games, and scenarios built by hand."""

from __future__ import annotations

import re
from typing import Any

import pytest

from endeavor import GameConfig, State, new_game
from endeavor import data as D
from endeavor import testing as T
from endeavor.bots import make
from endeavor.scoring import final_scores
from endeavor.web import view

CONFIGS: list[GameConfig] = [
    *(GameConfig(players=2 + seed % 4, seed=seed, exploits="random") for seed in range(100, 112)),
    # the 2009 game: seeds where the last player to pass must discard, and others
    *(GameConfig(players=3 + seed % 3, seed=seed, ruleset="classic")
      for seed in (200, 203, 212, 219, 220, 227, 231, 233)),
    GameConfig(players=2, seed=5, options={"silent_fleet": True}),
    GameConfig(players=3, seed=21, exploits=("haitian_revolution", "manila_galleons",
                                             "underground_railroad")),
]

_SIGNED = r"([+\u2212]\d+|\u00b10)"
_HEAD = re.compile(rf"^(?P<lines>.*): {_SIGNED} glory(?:; |$)")
_REST = re.compile(rf"; then you must discard again \(at best {_SIGNED} glory\): "
                   rf"{_SIGNED} glory in all$")
_TRACK = re.compile(r"^(\w+) (\d+) \u2192 (\d+) \(" + _SIGNED + r"\)$")
_LEAVES = re.compile(r"^leaves (\d+) discs? in your Harbor: not enough for (\w+) \+ (\w+) "
                     r"\((\d+) discs\)$")
_LEAVES_MOST = re.compile(r"^(?:leaves|may leave) at most (\d+) discs? in your Harbor: not "
                          r"enough for your (.+?)'s? (\w+) \+ (\w+) \((\d+) discs with its "
                          r"activation\)$")


def effects_of(s: State) -> dict[str, str | None]:
    """P0's options by notation: their effect (None without one)."""
    d = view.decision_view(s, [0])
    assert d is not None
    return {o["action"]: o.get("effect") for o in d["options"]}


def number(text: str) -> int:
    """``+3`` / ``−2`` / ``±0`` as an int."""
    return 0 if text == "\u00b10" else int(text.replace("\u2212", "-"))


def total(state: State, p: int) -> int:
    return final_scores(state)[p].total


def parse(effect: str) -> tuple[int, int | None, int | None, str]:
    """A score effect: (its change, the best of the discards that follow and the change
    in all, or None twice, its line words)."""
    m = _HEAD.match(effect)
    assert m, effect
    rest = _REST.search(effect)
    tail = effect[m.end():]
    if rest is None:
        assert tail in ("", "then you must discard again"), effect
        return number(m.group(2)), None, None, m.group("lines")
    return number(m.group(2)), number(rest.group(1)), number(rest.group(2)), m.group("lines")


def check_score_options(state: State, options: list[dict[str, Any]]) -> None:
    """Each option's stated change is the change of the score pad's total; its tracks'
    words are its markers; the best of the discards that follow is the best of the
    next decision's options."""
    p = state.current_player
    assert p is not None
    here = total(state, p)
    names = state.rules.token_names[:4]
    for o in options:
        change, best, in_all, lines = parse(o["effect"])
        after = state.copy()
        after.apply(o["action"])
        assert total(after, p) - here == change, o
        for part in lines.split(", "):
            m = _TRACK.match(part)
            if m and m.group(1) in names:
                k = names.index(m.group(1))
                a, b = int(m.group(2)), int(m.group(3))
                assert (state.marker(p, k), after.marker(p, k)) == (a, b), o
                assert D.track_glory(b) - D.track_glory(a) == number(m.group(4)), o
        nd = after.decision()
        again = nd is not None and nd.player == p and nd.kind in ("discard", "governor_slot")
        assert again == ("then you must discard again" in o["effect"]), o
        if best is not None:
            assert in_all == change + best, o
            nxt = view.decision_view(after, [p])
            assert nxt is not None
            outcomes = []
            for n in nxt["options"]:
                c, _, a, _ = parse(n["effect"])
                outcomes.append(c if a is None else a)
            assert max(outcomes) == best, (o, nxt["options"])


def check_harbor_options(state: State, options: list[dict[str, Any]]) -> None:
    """The Harbor discs an activation says it leaves, and that they are too few."""
    p = state.current_player
    assert p is not None
    pl = state.players[p]
    for o in options:
        effect = o.get("effect")
        words = o["action"].split()
        if words[0] == "act":
            bd = state.rules.buildings[D.BUILDING_INDEX[words[1]]]
            if bd.mode == D.BOTH and bd.kind1 in (D.SHIP, D.OCCUPY) \
                    and bd.kind2 in (D.SHIP, D.OCCUPY) and pl.harbor < 3:
                assert effect == (f"leaves {pl.harbor - 1} disc"
                                  f"{'' if pl.harbor == 2 else 's'} in your Harbor: not "
                                  f"enough for {D.KIND_NAMES[bd.kind1]} + "
                                  f"{D.KIND_NAMES[bd.kind2]} (2 discs)"), o
                continue
        if effect is None:
            continue
        assert words[0] in ("act", "use"), o
        m = _LEAVES_MOST.match(effect)
        assert m, effect
        cost = 1 if words[0] == "act" else 0
        assert int(m.group(1)) < int(m.group(5)) <= pl.harbor, o
        assert int(m.group(1)) <= pl.harbor - cost - 1, o
        unstaffed = [state.rules.buildings[b].name for i, b in enumerate(pl.buildings)
                     if not pl.taken_circles >> i & 1]
        assert m.group(2) in unstaffed, o
        # certain, unless an Exploit ability (a Shield's) may take no disc or give some back
        shield = any(state.has_shield(p, i) for i in range(len(state.ex)))
        assert effect.startswith("may leave") == shield, o


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: f"{c.ruleset}-{c.players}p-{c.seed}")
def test_random_games_effects_are_the_score_pad(cfg: GameConfig) -> None:
    """Over a seeded random game: the last discards of every player all say their
    change, and it is the score pad's; nothing else changes a player's score after
    their first one (the effect is settled), so the final total is the total then plus
    the changes of the options chosen; no other discard has an effect."""
    state = new_game(cfg)
    bot = make("random", seed=cfg.seed)
    start: dict[int, int] = {}
    chosen: dict[int, int] = {}
    while not state.is_over:
        p = state.current_player
        assert p is not None
        d = view.decision_view(state, [p])
        assert d is not None
        action = bot.choose(state)
        if d["kind"] in ("discard", "governor_slot"):
            last = state.round == state.rules.rounds and all(
                state.has_passed(q) for q in range(state.n))
            assert all(("effect" in o) == last for o in d["options"]), d
            if last:
                check_score_options(state, d["options"])
                start.setdefault(p, total(state, p))
                o = next(o for o in d["options"] if o["action"] == str(action))
                chosen[p] = chosen.get(p, 0) + parse(o["effect"])[0]
        elif d["kind"] == "action":
            check_harbor_options(state, d["options"])
        else:
            assert not any("effect" in o for o in d["options"]), d
        state.apply(action)
    for p, base in start.items():
        assert total(state, p) == base + chosen[p], p
    if cfg.ruleset == "age_of_sail":
        # the last Discard phase comes after everyone passed: every discard is settled
        assert all(not state.over_card_limit(p) for p in range(state.n))


def test_effects_only_for_the_player_to_move() -> None:
    state = _last_discard()
    d = view.decision_view(state, [1])
    assert d is not None and d["options"] == []


# --------------------------------------------------------------------------- scenarios
def _last_discard() -> State:
    """Age of Sail, 2 players, round 7: P0 holds 5 cards with a card limit of 4
    (Influence 7), Industry 12, Culture 5, and passes, then P1: P0 must discard 1."""
    s = T.fresh(2, seed=3)
    T.set_round(s, 7)
    T.set_crown(s, 0)
    T.stock(s, 0, D.INFLUENCE, 4)
    T.stock(s, 0, D.INDUSTRY, 10)
    for code in ("EU/2", "SA/2", "SA/1", "NA/1", "EU/4"):  # N3, C3, C2, I2, 5 glory
        T.give_card(s, 0, code)
    T.at_actions(s, 0)
    T.check(s)
    s.apply("pass")
    s.apply("pass")
    return s


def test_scenario_last_discard() -> None:
    s = _last_discard()
    assert s.current_player == 0 and s.phase_name == "Discard"
    assert [s.marker(0, k) for k in range(4)] == [12, 5, 0, 7]
    d = view.decision_view(s, [0])
    assert d is not None and d["kind"] == "discard"
    effects = {o["action"]: o["effect"] for o in d["options"]}
    minus = "\u2212"
    assert effects == {
        # Influence 7 -> 4: 7 -> 4 glory, and the card limit 4 -> 3 asks for another
        # discard: at best a Culture or the Industry card, -2
        "discard EU/2": (f"Influence 7 \u2192 4 ({minus}3): {minus}3 glory; then you must "
                         f"discard again (at best {minus}2 glory): {minus}5 glory in all"),
        "discard SA/2": f"Culture 5 \u2192 2 ({minus}2): {minus}2 glory",
        "discard SA/1": f"Culture 5 \u2192 3 ({minus}2): {minus}2 glory",
        "discard NA/1": f"Industry 12 \u2192 10 ({minus}2): {minus}2 glory",
        "discard EU/4": f"Buildings & cards {minus}5: {minus}5 glory",
    }
    before = total(s, 0)
    s.apply("discard NA/1")
    assert s.is_over and total(s, 0) == before - 2


def test_scenario_governor_slot() -> None:
    """A Governor in the free slot in round 7: leaving it empty scores 3 but puts the
    Governor in a normal slot, over the card limit."""
    s = T.fresh(2, seed=3)
    T.set_round(s, 7)
    T.set_crown(s, 0)
    T.stock(s, 0, D.INFLUENCE, 4)  # limit 3 (Influence 4, +1 from IN/G: 5 -> level 3)
    for code in ("SA/2", "NA/1", "IN/G"):  # C3, I2; India's Governor C1 W1 N1 1 glory
        T.give_card(s, 0, code)
    T.slot_governor(s, 0, "IN/G")
    T.give_card(s, 0, "SA/1")  # C2
    T.at_actions(s, 0)
    s.apply("pass")
    s.apply("pass")
    d = view.decision_view(s, [0])
    assert d is not None and d["kind"] == "governor_slot", d
    effects = {o["action"]: o["effect"] for o in d["options"]}
    assert effects["slot IN/G"] == "no line of your score changes: \u00b10 glory"
    # empty: +3, and 4 cards in normal slots over a limit of 3 (Influence 5). Industry
    # 2, Culture 6, Wealth 1: SA/2 costs Culture 6 -> 3 (4 -> 2 glory), NA/1 Industry
    # 2 -> 0 (2 -> 0), IN/G its 1 glory (Culture 6 -> 5, Wealth 1 -> 0, Influence
    # 5 -> 4 keep their glory), SA/1 nothing: Culture 6 -> 4 keeps 4 glory
    assert effects["slot none"] == ("Governor slot +3: +3 glory; then you must discard "
                                    "again (at best \u00b10 glory): +3 glory in all"), effects
    check_score_options(s, d["options"])


def test_scenario_harbor_docks() -> None:
    s = T.fresh(2, seed=3)
    T.ready_to_act(s, 0, 2, "docks")
    effects = effects_of(s)
    assert effects["act docks"] == ("leaves 1 disc in your Harbor: not enough for Ship + "
                                    "Occupy (2 discs)")
    assert effects["act colonial-house"] is None  # the Docks cannot do both anyway
    T.ready_to_act(s, 0, 3, "docks")
    effects = effects_of(s)
    assert effects["act docks"] is None
    assert effects["act colonial-house"] == (
        "leaves at most 1 disc in your Harbor: not enough for your Docks' Ship + Occupy "
        "(3 discs with its activation)")
    T.ready_to_act(s, 0, 4, "docks")
    effects = effects_of(s)
    assert effects["act colonial-house"] == (
        "leaves at most 2 discs in your Harbor: not enough for your Docks' Ship + Occupy "
        "(3 discs with its activation)")
    T.ready_to_act(s, 0, 5, "docks")
    d = view.decision_view(s, [0])
    assert d is not None
    assert not any("effect" in o for o in d["options"])


def test_scenario_harbor_docks_with_a_shield_says_may() -> None:
    # a Shield on The Spice Trade: its abilities may take a disc from the open sea instead
    # of the Harbor, so the discs an activation leaves are not certain
    s = T.fresh(2, seed=3, exploits=("spice_trade",))
    T.open_region(s, "AF", 0)
    T.open_region(s, "IN", 0)
    T.ready_to_act(s, 0, 3, "docks")
    assert s.has_shield(0, s.exploit_index("spice_trade"))
    assert effects_of(s)["act colonial-house"] == (
        "may leave at most 1 disc in your Harbor: not enough for your Docks' Ship + Occupy "
        "(3 discs with its activation)")


def test_search_past_its_budget_says_no_best(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the search budget the discards that follow are announced without their best
    (the change of the option itself is still said)."""
    from endeavor.web import effects
    s = _last_discard()
    monkeypatch.setattr(effects, "SEARCH_BUDGET", 0)
    d = view.decision_view(s, [0])
    assert d is not None
    eu2 = next(o["effect"] for o in d["options"] if o["action"] == "discard EU/2")
    assert eu2 == "Influence 7 \u2192 4 (\u22123): \u22123 glory; then you must discard again"
    assert parse(eu2)[:3] == (-3, None, None)
