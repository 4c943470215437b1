"""Random-play invariant suite: 500 seeded games checked after every action.

Games cycle through 2-5 players, board sides A and B and both phase orders (R1, R6).
Each seat is driven by a seeded bot whose generator is separate from the game's own
(R2): a *random* bot picks uniformly among the legal actions; an *eager* bot rarely
passes and rarely declines a "+" second half, so its games reach deep positions
(regions opening, attacks, Abolition, discards) and, building for Industry, level-5
buildings (Memorial casualties).

After every action: :func:`check_invariants` is empty (discs, tokens, cards, tracks,
derived counters), the legal actions are sorted, unique and non-empty before the end,
and ``current_player`` is None exactly when the game is over. Every
:data:`SAMPLE_EVERY` steps and at the end: copy isolation, the JSON round-trip, the
invariants after every legal action (not only the chosen one) and the rejection of
illegal ones. At the end: replay, record JSON, determinism of a second run and the
score breakdown. Rule checks computed independently of the engine: the Governor
winner (R11), card limits after each Discard phase (R18), Abolition (R17).

:func:`test_coverage` then asserts that the suite as a whole exercised every kind of
rule event it is meant to test (ship to a track, attack on a trade route, Abolition,
Memorial casualty...), so a bot change that stops reaching a rule fails loudly.
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
from scenario import Suite

GAMES = 500
CHUNKS = 10
PER_CHUNK = GAMES // CHUNKS
SAMPLE_EVERY = 10
#: an eager bot passes (or declines a second half) only with these probabilities
EAGER_PASS = 0.03
EAGER_DECLINE = 0.3
#: and in Construction takes a level-5 building when offered, else an Industry one
EAGER_INDUSTRY = 0.6

#: chunk index -> coverage counts of the games of that chunk


def game_config(seed: int) -> GameConfig:
    """Seed -> config: players 2..5, then side A/B, then phase order, cycling."""
    return GameConfig(players=2 + seed % 4, board="AB"[seed // 4 % 2], seed=seed,
                      options={"phase_order": ("by_phase", "by_player")[seed // 8 % 2]})


class Bots:
    """The seat bots of one game, all drawing from one generator seeded by the game seed
    (never the game's own generator, never the global one)."""

    def __init__(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed * 7919 + 1)
        style = seed % 3  # 0: all random, 1: all eager, 2: mixed seats
        self.eager = [style == 1 or (style == 2 and self.rng.random() < 0.5)
                      for _ in range(players)]

    def choose(self, state: State, legal: list[A.Action]) -> A.Action:
        p = state.current_player
        assert p is not None
        options = legal
        if self.eager[p] and legal[0].verb == A.V_BUILD:
            # grow Industry to reach level 5 (Memorial, Town Hall) within 7 rounds
            top = [a for a in legal if D.BUILDINGS[a.arg].level == 5]
            if not top and self.rng.random() < EAGER_INDUSTRY:
                top = [a for a in legal if D.BUILDINGS[a.arg].icons[D.INDUSTRY]]
            if top:
                options = top
        elif self.eager[p] and len(legal) > 1:
            last = legal[-1]  # pass and done sort last (highest verbs)
            if last.verb == A.V_PASS and self.rng.random() > EAGER_PASS:
                options = legal[:-1]
            elif last.verb == A.V_DONE and self.rng.random() > EAGER_DECLINE:
                options = legal[:-1]
        return self.rng.choice(options)


def tally(before: State, action: A.Action, after: State, cov: Counter[str]) -> None:
    """Count the rule events one action caused, from its verb, the decision it answered
    and the state change it made; after a Discard phase, check the card limits (R18)."""
    if after.round != before.round or after.is_over:  # R18: the Discard phase enforced them
        assert not any(after.over_card_limit(p) for p in range(after.n))
    d = before.decision()
    assert d is not None
    v = action.verb
    if d.kind in ("second_action", "follow_up"):
        cov["second half done" if v != A.V_DONE else "second half declined"] += 1
    if v == A.V_START:
        cov["start tile"] += 1
    elif v == A.V_BUILD:
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
        cov["ship to track"] += 1
    elif v == A.V_ROUTE:
        cov["ship to trade route"] += 1
    elif v == A.V_SEA:
        cov["ship to open sea"] += 1
    elif v == A.V_OCCUPY:
        cov["occupy"] += 1
    elif v == A.V_ATTACK:
        cov["attack city" if D.SITES[action.arg].city else "attack trade route"] += 1
    elif v == A.V_DRAW:
        cov["draw from deck"] += 1
        if action.arg == D.SLAVERY_DECK:
            cov["draw from Slavery deck"] += 1
    elif v == A.V_DRAWP:
        cov["draw from discard pile"] += 1
    elif v == A.V_CASUALTY:
        cov["Memorial casualty choice"] += 1
    elif v == A.V_SLOT:
        cov["Governor slot choice"] += 1
    elif v == A.V_DISCARD:
        cov["discard"] += 1
    elif v == A.V_PASS:
        cov["pass"] += 1
    opened = sum(after.is_open(r) for r in range(1, D.NREGIONS))
    cov["region opened"] += opened - sum(before.is_open(r) for r in range(1, D.NREGIONS))
    for r in range(1, D.NREGIONS):
        g = before.gov_avail[r]
        if g >= 0 and after.gov_avail[r] < 0:
            cov["Governor awarded"] += 1
            holder = [p for p in range(after.n) if g in after.held_cards(p)]
            assert holder == [expected_governor(after.track(r), after.n)], \
                f"{D.CARDS[g].code} went to {holder}"
    if after.abolished and not before.abolished:
        cov["Abolition"] += 1
    if v in (A.V_DRAW, A.V_DRAWP) and \
            after.players[d.player].harbor > before.players[d.player].harbor:
        cov["bonus disc"] += 1  # R16


def expected_governor(track: list[int], players: int) -> int:
    """R11, computed independently: most discs on the track; a tie goes to the tied
    player whose disc is closest to the deck (the track list ends at the deck)."""
    counts = [track.count(p) for p in range(players)]
    tied = [p for p in range(players) if counts[p] == max(counts)]
    return max(tied, key=lambda p: max(i for i, o in enumerate(track) if o == p))


def check_step(s: State) -> None:
    problems = check_invariants(s)
    assert not problems, problems
    legal = s.legal_actions()
    codes = [a.code for a in legal]
    assert codes == sorted(set(codes)), "legal actions not sorted and unique"
    if s.abolished:  # R17: the Slavery deck left play and no Slavery card is held
        assert not s.decks[D.SLAVERY_DECK]
        assert not any(D.CARDS[c].deck == D.SLAVERY_DECK
                       for p in range(s.n) for c in s.players[p].cards)
    if s.is_over:
        assert s.current_player is None
        assert legal == []
    else:
        assert legal, "no legal action before the end"
        assert s.current_player is not None and 0 <= s.current_player < s.n


def check_end(s: State, seed: int) -> None:
    assert s.is_over and s.current_player is None and s.round == D.ROUNDS
    rec = s.record()
    text = json.dumps(rec)
    assert json.loads(text) == rec
    final = s.to_json()
    assert replay(rec).to_json() == final
    assert replay(text).to_json() == final
    again = play_fast(seed)
    assert again.record() == rec, "same seeds gave a different game"
    scores = final_scores(s)
    assert [sc.player for sc in scores] == list(range(s.n))
    totals = [sc.total for sc in scores]
    for sc in scores:
        assert sc.total == sum(sc.lines.values())
        assert sc.rank == 1 + sum(1 for t in totals if t > sc.total)
    assert min(sc.rank for sc in scores) == 1
    for p in range(s.n):
        assert len(s.players[p].blds) <= 1 + D.ROUNDS, "at most one building per round"


COVERED = (
    "ship to track", "ship to trade route", "ship to open sea", "occupy", "attack city",
    "attack trade route", "payment action", "salary payment choice", "draw from deck",
    "draw from Slavery deck", "draw from discard pile", "bonus disc", "region opened",
    "Governor awarded", "Abolition", "discard", "Governor slot choice",
    "second half done", "second half declined", "Memorial casualty choice",
    "level-5 building built", "token used", "building activated", "start tile", "pass",
)


SUITE = Suite("games", GAMES, CHUNKS, SAMPLE_EVERY, game_config, Bots, check_step, tally,
              check_end)


def play_fast(seed: int) -> State:
    return SUITE.play_fast(seed)


@pytest.mark.parametrize("chunk", sweep.chunks(CHUNKS))
def test_random_games(chunk: int) -> None:
    SUITE.run_chunk(chunk)


@sweep.whole_sweep
def test_coverage() -> None:
    """The suite as a whole reaches every rule event listed in :data:`COVERED`."""
    SUITE.coverage(COVERED)
