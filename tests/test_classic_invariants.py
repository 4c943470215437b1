"""Random-play invariant suite of the 2009 ruleset: 300 seeded games
checked after every action, in the style of ``test_invariants.py``.

Games cycle through 3-5 players and both phase orders (R1, R6). Each seat is a seeded
bot (its generator separate from the game's own, R2): a *random* bot picks uniformly
among the legal actions; an *eager* bot rarely passes or declines a "+" second half,
builds towards level 5 and leans to Ships, so its games open regions, fill tracks
(Ships beside them, P73), win Governors and reach Abolition.

After every action: :func:`check_invariants` is empty (30 discs per player, the 95
tokens, the 48 cards, buildings, tracks equal to the icons held, derived counters, and
the ruleset's own facts: no discard pile, discs beside full tracks only, the Colonial
House first on every mat, the three level-5 buildings); the legal actions are sorted,
unique and non-empty before the end. Rule checks computed independently of the engine:
the Governor winner (R11) and where it goes (P1, P72), the card limits once a pass's
discards are over (R18, P71), every deck in value order (P76), no bonus disc (R16), the
targets of every Ship (never Europe, no sea, no trade route), Draw (open regions only),
Attack (cities) and Payment (not the activated building) decision. Every
:data:`SAMPLE_EVERY` steps and at the end: copy isolation, JSON round-trip, every legal
branch and illegal actions (``scenario.check_position``). At the end: replay, record
JSON, determinism and the score breakdown in pad order (P77).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import sweep
from endeavor import GameConfig, State, final_scores, replay
from endeavor import actions as A
from endeavor import data as D
from endeavor.invariants import check_invariants
from endeavor.rules.classic import LINE_NAMES
from scenario import Suite

GAMES = 300
CHUNKS = 10
PER_CHUNK = GAMES // CHUNKS
SAMPLE_EVERY = 12
EAGER_PASS = 0.03
EAGER_DECLINE = 0.3
EAGER_SHIP = 0.5
EAGER_INDUSTRY = 0.6
_VALUE = tuple(c.value for c in D.CARDS)



def game_config(seed: int) -> GameConfig:
    """Seed -> config: players 3..5, then the phase order, cycling."""
    return GameConfig(players=3 + seed % 3, ruleset="classic", seed=seed,
                      options={"phase_order": ("by_phase", "by_player")[seed // 3 % 2]})


class Bots:
    """The seat bots of one game, drawing from one generator seeded by the game seed."""

    def __init__(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed * 7919 + 2009)
        style = seed % 4  # 0: all random, 1-2: all eager, 3: mixed seats
        self.eager = [style in (1, 2) or (style == 3 and self.rng.random() < 0.5)
                      for _ in range(players)]

    def choose(self, state: State, legal: list[A.Action]) -> A.Action:
        p = state.current_player
        assert p is not None
        options = legal
        rng = self.rng
        if self.eager[p] and legal[0].verb == A.V_BUILD:
            top = [a for a in legal if D.BUILDINGS[a.arg].level == 5]
            if not top and rng.random() < EAGER_INDUSTRY:
                top = [a for a in legal if D.BUILDINGS[a.arg].icons[D.INDUSTRY]
                       or D.BUILDINGS[a.arg].kind1 == D.SHIP]
            if top:
                options = top
        elif self.eager[p] and len(legal) > 1:
            ships = [a for a in legal if a.verb == A.V_SHIP]
            last = legal[-1]
            if ships and rng.random() < EAGER_SHIP:
                options = ships
            elif last.verb == A.V_PASS and rng.random() > EAGER_PASS:
                options = legal[:-1]
            elif last.verb == A.V_DONE and rng.random() > EAGER_DECLINE:
                options = legal[:-1]
        return rng.choice(options)


def expected_governor(track: list[int], players: int) -> int:
    """R11, computed independently: most discs on the track; a tie goes to the tied
    player whose disc is closest to the deck (the end of the list)."""
    counts = [track.count(p) for p in range(players)]
    tied = [p for p in range(players) if counts[p] == max(counts)]
    return max(tied, key=lambda p: max(i for i, o in enumerate(track) if o == p))


def check_targets(s: State) -> None:
    """The legal targets of the pending decision follow the 2009 rules (R10, R13-R15)."""
    legal = s.legal_actions()
    history = s.history()
    activated = history[-1].arg if history and history[-1].verb == A.V_ACT else -1
    for a in legal:
        v = a.verb
        assert v not in (A.V_SEA, A.V_ROUTE, A.V_DRAWP, A.V_START, A.V_CASUALTY), a
        if v == A.V_DRAW and a.arg not in (D.EU_DECK, D.SLAVERY_DECK):
            assert s.is_open(a.arg), f"{a}: a closed region (R14)"
        elif v == A.V_ATTACK:
            assert D.SITES[a.arg].city, a
        elif v == A.V_PAY and s.phase_name == "Actions":
            assert a.arg != activated, f"{a}: a building's own Payment (P74)"


def check_step(s: State) -> None:
    problems = check_invariants(s)
    assert not problems, problems
    legal = s.legal_actions()
    codes = [a.code for a in legal]
    assert codes == sorted(set(codes)), "legal actions not sorted and unique"
    for deck in s.decks:  # P76: bottom first, so values fall towards the top
        values = [_VALUE[c] for c in deck]
        assert values == sorted(values, reverse=True), values
    assert s.pile == []
    if s.is_over:
        assert s.current_player is None and legal == []
    else:
        assert legal and s.current_player is not None and 0 <= s.current_player < s.n
        check_targets(s)


def tally(before: State, action: A.Action, after: State, cov: Counter[str]) -> None:
    d = before.decision()
    assert d is not None
    p = d.player
    v = action.verb
    if d.kind in ("second_action", "follow_up"):
        cov["second half done" if v != A.V_DONE else "second half declined"] += 1
    if v == A.V_BUILD:
        cov["build"] += 1
        if D.BUILDINGS[action.arg].level == 5:
            cov["level-5 building built"] += 1
    elif v == A.V_PAY:
        cov["salary payment choice" if d.kind == "salary" else "payment action"] += 1
    elif v == A.V_ACT:
        cov["building activated"] += 1
    elif v == A.V_USE:
        cov["token used"] += 1
    elif v == A.V_SHIP:
        beside = before.is_open(action.arg)
        cov["ship beside a full track" if beside else "ship to track"] += 1
        if beside:
            assert after.sea_discs(p, action.arg) == before.sea_discs(p, action.arg) + 1
            assert after.players[p].attr == before.players[p].attr, "no token (P73)"
    elif v == A.V_OCCUPY:
        cov["occupy"] += 1
    elif v == A.V_ATTACK:
        cov["attack"] += 1
    elif v == A.V_DRAW:
        cov["draw from deck"] += 1
        if action.arg == D.SLAVERY_DECK:
            cov["draw from Slavery deck"] += 1
        assert after.players[p].harbor == before.players[p].harbor, "no bonus disc (R16)"
    elif v == A.V_SLOT:
        cov["Governor slot choice"] += 1
    elif v == A.V_DISCARD:
        cov["discard when passing"] += 1
        card = D.CARDS[action.arg]
        if not card.governor and card.deck != D.SLAVERY_DECK:
            cov["card back into its deck"] += 1
            assert action.arg in after.decks[card.deck]
    elif v == A.V_PASS:
        cov["pass"] += 1
    opened = sum(after.is_open(r) for r in range(1, D.NREGIONS))
    cov["region opened"] += opened - sum(before.is_open(r) for r in range(1, D.NREGIONS))
    for r in range(1, D.NREGIONS):
        g = before.gov_avail[r]
        if g >= 0 and after.gov_avail[r] < 0:
            cov["Governor awarded"] += 1
            w = expected_governor(after.track(r), after.n)
            holder = [q for q in range(after.n) if g in after.held_cards(q)]
            assert holder == [w], f"{D.CARDS[g].code} went to {holder}"
            pl, was = after.players[w], before.players[w]
            if before.has_passed(w):
                cov["Governor won after passing"] += 1
            last = after.round == 7 and before.has_passed(w)
            assert (pl.gov == g) == (was.gov < 0 and not last), "P1, P72"
    if after.abolished and not before.abolished:
        cov["Abolition"] += 1
    # R18, P71: once a pass's decisions are over, the passer is within the limits
    if v in (A.V_PASS, A.V_DISCARD, A.V_SLOT) and not after.is_over:
        nd = after.decision()
        assert nd is not None
        if not (nd.player == p and nd.kind in ("discard", "governor_slot")):
            assert not after.over_card_limit(p), f"P{p} passed over the limit"


def check_end(s: State, seed: int) -> None:
    assert s.is_over and s.current_player is None and s.round == 7
    rec = s.record()
    text = json.dumps(rec)
    assert json.loads(text) == rec
    final = s.to_json()
    assert replay(rec).to_json() == final
    assert replay(text).to_json() == final
    assert play_fast(seed).record() == rec, "same seeds gave a different game"
    scores = final_scores(s)
    totals = [sc.total for sc in scores]
    for sc in scores:
        assert list(sc.lines) == list(LINE_NAMES)
        assert sc.total == sum(sc.lines.values())
        assert sc.rank == 1 + sum(1 for t in totals if t > sc.total)
        pl = s.players[sc.player]
        for k, name in enumerate(D.CLASSIC_ATTRIBUTE_NAMES):
            assert sc.lines[name] == D.track_glory(min(pl.attr[k], 15))  # P75
    for pl in s.players:
        assert len(pl.blds) <= 1 + 7, "the Colonial House and one building a round"


COVERED = (
    "ship to track", "ship beside a full track", "occupy", "attack", "payment action",
    "salary payment choice", "draw from deck", "draw from Slavery deck", "region opened",
    "Governor awarded", "Governor won after passing", "Abolition", "discard when passing",
    "card back into its deck", "Governor slot choice", "second half done",
    "second half declined", "level-5 building built", "token used", "building activated",
    "pass",
)


SUITE = Suite("classic games", GAMES, CHUNKS, SAMPLE_EVERY, game_config, Bots, check_step, tally,
              check_end)


def play_fast(seed: int) -> State:
    return SUITE.play_fast(seed)


@pytest.mark.parametrize("chunk", sweep.chunks(CHUNKS))
def test_classic_random_games(chunk: int) -> None:
    SUITE.run_chunk(chunk)


@sweep.whole_sweep
def test_classic_coverage() -> None:
    """The suite as a whole reaches every rule event listed in :data:`COVERED`."""
    SUITE.coverage(COVERED)
