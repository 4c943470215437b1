"""Blunder positions: moves a good player never makes, taken from games people played
games and from the bots' own games, each with the move a good player makes. Every level
from ``medium`` up must find it (``hard`` with a small, fixed iteration budget, so the
choices are deterministic).

Built by hand (:mod:`endeavor.testing`): a settled last round where passing, or shipping
to an empty open sea, wastes a free Merchant Dock and 4 Harbor discs; a player 20 ahead
(or behind) with two free buildings and a token; the Ship half of the Docks declined with
Harbor discs and six ship targets carrying tokens; the last Discard phase, where the
Governor slot decides whether a Governor's Influence keeps the card limit up. From the
bots' own games (``tests/fixtures/blunders.json``: the hard of before its margin term against
medium): last Discard phases and Governor slots a point or three short of the best, and
round-7 passes with free buildings.

Where the rest of the game is one player's own (the last round once the others have
passed, the last Discard phase), :func:`_best_total` finds the best final score by
trying every line (independently of the bots' own end-game search), and the bot must
reach it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from endeavor import State, final_scores
from endeavor import data as D
from endeavor import testing as T
from endeavor.bots import NAMES, Bot, make
from endeavor.bots.endgame import BUDGET, exact_options

#: every level from medium up, with the budget used here (hard: a fixed iteration budget)
LEVELS: list[tuple[str, dict[str, Any]]] = [("medium", {}), ("hard", {"iterations": 200})]
if "expert" in NAMES:  # where numpy and the shipped weights are present
    LEVELS.append(("expert", {"iterations": 600}))
LEVEL_IDS = [name for name, _ in LEVELS]
FIXTURES = Path(__file__).parent / "fixtures" / "blunders.json"


def _bot(level: str, budget: dict[str, Any], seed: int = 1) -> Bot:
    return make(level, seed=seed, **budget)


def _best_total(s: State, p: int) -> int:
    """``p``'s best final total from ``s`` when ``p`` alone has choices to make until the
    end (the others only discard for themselves, which changes nothing of ``p``'s
    score): every line of ``p``'s decisions tried, each hand of a discard sequence once."""
    memo: dict[tuple[Any, ...], int] = {}

    def best(s: State) -> int:
        if s.is_over:
            return final_scores(s)[p].total
        codes = s.legal_codes()
        if s.current_player != p:
            t = s.copy()
            t.apply_code(codes[0])
            return best(t)
        key = None
        if s.phase_name == "Discard":
            pl = s.players[p]
            key = (tuple(sorted(pl.cards)), pl.gov, tuple(codes))
            if key in memo:
                return memo[key]
        found = max(best(_after(s, c)) for c in codes)
        if key is not None:
            memo[key] = found
        return found

    return best(s)


def _after(s: State, code: int) -> State:
    t = s.copy()
    t.apply_code(code)
    return t


def _play_to_the_end(bot: Bot, s: State, p: int) -> None:
    """Let ``bot`` play ``p``'s decisions from ``s`` (in place) to the end of a game
    where the others only have discards left (they take their first option)."""
    while not s.is_over:
        if s.current_player == p:
            s.apply(bot.choose(s))
        else:
            s.apply_code(s.legal_codes()[0])


def _settle(s: State, winner: int, cards: tuple[str, ...] = ("EU/4", "CA/5", "NA/5", "FE/5")
            ) -> None:
    """Give ``winner`` a lead no last round can undo: glory cards and Influence."""
    for c in cards:
        T.give_card(s, winner, c)
    T.give_token(s, winner, D.T_INFLUENCE, 10)


# ------------------------------------------------------------------ a free Merchant Dock
def _merchant_dock(lead: int, passed: bool) -> State:
    """Round 7 of 2: P0's Merchant Dock (its start tile) is free and its Harbor holds 4
    discs. The Caribbean and Africa are open (P1 won them), so ``sea CA`` and ``sea AF``
    ship to an open sea for nothing; the other seven targets carry a token. P0 is far
    ahead (``lead`` > 0) or far behind: the winner is settled, the score is not. 4 Harbor
    discs are 1 glory of extra population: passing keeps it, the ship uses 2 discs and
    only a token worth 2 glory makes up for it. Ahead: pass 36, ship EUT2 or SA 37, any
    other ship (the open sea above all) 35; behind: pass 4, ship EUT2 5, the others 3."""
    s = T.fresh(2, starts=("merchant-dock", "colonial-house"))
    T.set_round(s, 7)
    T.open_region(s, "CA", 1)
    T.open_region(s, "AF", 1)
    _settle(s, 0 if lead > 0 else 1)
    T.free_workers(s, 1)
    T.set_harbor(s, 1, 3)
    T.ready_to_act(s, 0, 4, "merchant-dock")
    if passed:
        T.set_passed(s, 1)
    T.check(s)
    return s


MERCHANT_DOCK_SHIPS = {1: {"ship SA", "ship EUT2"}, -1: {"ship EUT2"}}


@pytest.mark.parametrize("lead", [1, -1], ids=["ahead", "behind"])
@pytest.mark.parametrize("level, budget", LEVELS, ids=LEVEL_IDS)
def test_a_settled_last_round_still_plays_the_free_merchant_dock(
        level: str, budget: dict[str, Any], lead: int) -> None:
    """The issue's round 7: passed with a free Merchant Dock and 4 Harbor discs, or
    shipped to an empty open sea for nothing. P1 is still to play (the search decides)."""
    s = _merchant_dock(lead, passed=False)
    bot = _bot(level, budget)
    assert bot.choose(s).text == "act merchant-dock"
    s.apply("act merchant-dock")
    assert bot.choose(s).text in MERCHANT_DOCK_SHIPS[lead]


@pytest.mark.parametrize("lead", [1, -1], ids=["ahead", "behind"])
@pytest.mark.parametrize("level, budget", LEVELS, ids=LEVEL_IDS)
def test_the_last_player_in_the_last_round_plays_for_the_best_score(
        level: str, budget: dict[str, Any], lead: int) -> None:
    """The same with P1 passed: the rest of the game is P0's, and the best is exact."""
    s = _merchant_dock(lead, passed=True)
    best = _best_total(s, 0)
    assert best == (37 if lead > 0 else 5)
    _play_to_the_end(_bot(level, budget), s, 0)
    assert final_scores(s)[0].total == best


def test_the_exact_end_game_only_where_the_rest_is_one_players_own() -> None:
    """endgame.exact_options: None while another player may still act, or past its
    budget; else every option with the finished game it leads to."""
    assert exact_options(_merchant_dock(1, passed=False)) is None
    s = _merchant_dock(1, passed=True)
    assert exact_options(s, budget=10) is None
    found = exact_options(s)
    assert found is not None
    rows, looked = found
    n = s.n
    assert {s.legal_actions()[i].text: v[2 * n] for i, (_, v) in enumerate(rows)} == {
        "act merchant-dock": 37, "pass": 36}
    assert all(v[n] == 1.0 for _, v in rows) and 10 < looked <= BUDGET


# ------------------------------------------------------------------ 20 ahead, or behind
def _twenty(lead: int) -> State:
    """Round 7 of 2, P1 still to play: P0 is 24 ahead (43 to 19) or 48 behind (4 to
    52), with a free Shipyard, Market and Merchant Dock, a Ship/Draw token and 4 Harbor
    discs. Should P1 pass at once, passing scores 43 (4 behind), any action 46-47 (13)."""
    s = T.fresh(2, starts=("merchant-dock", "colonial-house"))
    T.set_round(s, 7)
    T.open_region(s, "CA", 1)
    T.open_region(s, "AF", 1)
    T.give_building(s, 0, "shipyard")
    T.give_building(s, 0, "market")
    T.give_token(s, 0, D.T_SHIP_DRAW)
    if lead > 0:
        _settle(s, 0, ("EU/4", "CA/5", "NA/5", "FE/5", "SA/5"))
    else:
        _settle(s, 1)
    T.free_workers(s, 1)
    T.set_harbor(s, 1, 3)
    T.ready_to_act(s, 0, 4, "merchant-dock")
    T.check(s)
    return s


@pytest.mark.parametrize("lead", [1, -1], ids=["ahead", "behind"])
@pytest.mark.parametrize("level, budget", LEVELS, ids=LEVEL_IDS)
def test_a_decided_game_is_still_played_for_points(
        level: str, budget: dict[str, Any], lead: int) -> None:
    """The issue's "passed 20 points ahead with two free buildings and tokens unused"."""
    s = _twenty(lead)
    totals = [x.total for x in final_scores(s)]
    assert totals[0] - totals[1] >= 20 if lead > 0 else totals[1] - totals[0] >= 20
    assert _bot(level, budget).choose(s).text != "pass"


def test_a_hint_in_a_decided_game_tells_the_options_apart() -> None:
    """"hint shows 0% for every option": the search's analysis now also gives each
    option's expected final glory and margin, in words."""
    s = _twenty(-1)
    rated = make("hard", seed=1, iterations=200).analyse(s, top=5)
    assert all(r.value < 0.05 for r in rated)
    assert all(r.glory is not None and r.margin is not None for r in rated)
    assert all("glory at the end" in r.text and "behind P1" in r.text for r in rated)
    assert len({round(r.glory or 0) for r in rated}) > 1
    # the exact end game says so too, with the final score itself
    s = _merchant_dock(1, passed=True)
    rated = make("hard", seed=1, iterations=200).analyse(s, top=2)
    assert [r.action.text for r in rated] == ["act merchant-dock", "pass"]
    assert [r.glory for r in rated] == [37, 36] and rated[0].visits == 0
    assert rated[0].text.startswith("exactly 37 glory at the end, ")


# ------------------------------------------------------------------ the Docks' Ship half
def _docks(rnd: int, lead: int, harbor: int) -> State:
    """P0 has activated its Docks and occupied EU4 (its first half); the Ship half is
    next, with ``harbor`` Harbor discs and eight ship targets beside the Caribbean's
    open sea, six or more of them carrying a token (the Influence tokens a lead is
    made of come from the board first: the Far East's next space and CAT1). P0's
    Merchant Dock and Shipyard are free: 2 discs an activation, where the Ship half
    costs 1, so declining it only leaves a disc spare or loses an action."""
    s = T.fresh(2, starts=("merchant-dock", "colonial-house"))
    T.set_round(s, rnd)
    T.open_region(s, "CA", 1)
    T.give_building(s, 0, "docks")
    T.give_building(s, 0, "shipyard")
    if lead:
        _settle(s, 0 if lead > 0 else 1)
    T.free_workers(s, 0)
    T.free_workers(s, 1)
    T.set_harbor(s, 1, 3)
    T.at_actions(s, 0)
    T.set_harbor(s, 0, harbor + 2)
    T.check(s)
    s.apply("act docks")
    s.apply("occupy EU4")
    return s


@pytest.mark.parametrize("rnd, lead", [(3, -1), (5, 0), (6, 1), (6, -1)])
@pytest.mark.parametrize("level, budget", LEVELS, ids=LEVEL_IDS)
def test_the_ship_half_of_the_docks_is_taken(level: str, budget: dict[str, Any],
                                             rnd: int, lead: int) -> None:
    """The issue's "declined the Ship half of the Docks with 3-4 Harbor discs and six
    ship targets carrying tokens", with 4 Harbor discs left."""
    s = _docks(rnd, lead, 4)
    d = s.decision()
    assert d is not None and "done" in T.texts(s)
    assert sum(o.text.endswith(" token") for o in d.options) >= 6
    assert _bot(level, budget).choose(s).text.startswith("ship ")


# ------------------------------------------------------------------ the last Discard phase
def _last_discard(cards: tuple[str, ...], lead: int, influence: int = 0) -> State:
    """The last Discard phase of 2 players, P0 first to discard: every player has passed
    in round 7 and P0 holds ``cards``, with ``influence`` more Influence (tokens).
    P0's cards make it the winner; ``lead`` < 0 gives P1 a lead no discard can undo."""
    s = T.fresh(2)
    T.set_round(s, 7)
    if lead < 0:  # every Europe city, other cards than P0's
        for k in range(1, 11):
            T.place(s, 1, f"EU{k}")
        _settle(s, 1, ("IN/4", "IN/5", "FE/4", "AF/4", "FE/3"))
    for c in cards:
        T.give_card(s, 0, c)
    if influence:
        T.give_token(s, 0, D.T_INFLUENCE, influence)
    T.ready_to_act(s, 0, 0, "colonial-house")
    T.set_passed(s, 1)
    T.check(s)
    s.apply("pass")
    assert s.decision() is not None and s.decision().kind == "governor_slot"
    return s


#: (P0's cards, who leads, P0's extra Influence)
DISCARDS = {
    # two Governors that hold Influence up: an empty slot puts both in the limit
    # (Influence 5: 3 cards), and discarding one then lowers the limit again
    "two-governors": (("SA/G", "NA/G", "EU/4", "CA/5", "SA/5", "NA/5", "AF/5"), 1, 0),
    # the same far behind
    "two-governors-behind": (("SA/G", "NA/G", "EU/4", "CA/5", "SA/5", "NA/5", "AF/5"),
                             -1, 0),
    # one Governor, within the limit: the slot is better left empty (+3)
    "slot-none": (("SA/G", "CA/5", "NA/5"), 1, 6),
}


@pytest.mark.parametrize("name", list(DISCARDS))
@pytest.mark.parametrize("level, budget", LEVELS, ids=LEVEL_IDS)
def test_the_last_discard_phase_reaches_the_best_score(
        level: str, budget: dict[str, Any], name: str) -> None:
    """The issue's last Discard: the slot left empty, then a Governor discarded, which
    lowered the card limit and forced a fourth discard (65 -> 51 where 61 was
    available)."""
    cards, lead, influence = DISCARDS[name]
    s = _last_discard(cards, lead, influence)
    best = _best_total(s, 0)
    _play_to_the_end(_bot(level, budget), s, 0)
    assert final_scores(s)[0].total == best


def test_the_discard_positions_punish_the_blunder() -> None:
    """The slot choice matters in the positions above: the empty slot (with the
    Governors then counted in the limit) is 3 glory short of the best in the first,
    and the best in the third."""
    s = _last_discard(*DISCARDS["two-governors"])
    assert _best_total(s, 0) == 19
    assert _best_total(_after(s, s.parse_action("slot none").code), 0) == 16
    s = _last_discard(*DISCARDS["slot-none"])
    assert _best_total(_after(s, s.parse_action("slot none").code), 0) == _best_total(s, 0)
    assert _best_total(_after(s, s.parse_action("slot SA/G").code), 0) < _best_total(s, 0)


# ------------------------------------------------------------------ the bots' own games
def _fixtures() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURES.read_text(encoding="utf-8"))["positions"]
    return data


#: the positions a level still gets wrong: medium's one-ply evaluation values a Harbor
#: disc kept for an activation later in the round above the Ship half it costs, even
#: where shipping keeps the same actions this round and a token more for the next
KNOWN = {("medium", "g108-docks-second-half")}
GAMES = [pytest.param(level, budget, name, id=f"{level}-{name}",
                      marks=[pytest.mark.xfail(strict=True, reason="a known blunder")]
                      if (level, name) in KNOWN else [])
         for level, budget in LEVELS for name in sorted(_fixtures())]


@pytest.mark.parametrize("level, budget, name", GAMES)
def test_blunders_of_the_bots_own_games(level: str, budget: dict[str, Any],
                                        name: str) -> None:
    entry = _fixtures()[name]
    s = State.from_json(entry["state"])
    p = entry["player"]
    assert s.current_player == p and entry["blunder"] in T.texts(s)
    bot = _bot(level, budget)
    if "good" in entry:
        assert bot.choose(s).text in entry["good"]
        return
    best = _best_total(s, p)
    blunder = _after(s, s.parse_action(entry["blunder"]).code)
    assert _best_total(blunder, p) < best
    _play_to_the_end(bot, s, p)
    assert final_scores(s)[p].total == best
