"""Perft: exact leaf counts of the legal-action tree from fixed positions.

``perft(state, depth)`` counts the positions reached by every sequence of ``depth``
legal actions (python-chess ``examples/perft``); a game that ends earlier contributes
no leaf. Any change to move generation, to the phase driver or to the automatic steps
(Growth, Salary, turn order) changes some count here. The numbers were produced by
running the engine once; the shallow ones are derived from the rules in the comments.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from endeavor import GameConfig, State, new_game


def perft(state: State, depth: int) -> int:
    """Leaves of the legal-action tree ``depth`` plies below ``state`` (applied on copies)."""
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for a in legal:
        child = state.copy()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def initial(players: int, seed: int) -> State:
    return new_game(GameConfig(players=players, seed=seed))


def round1_actions() -> State:
    """3 players, side A, seed 5; Crown = player 1. Start tiles and builds in turn order
    from the Crown (R3, R5): P1 Merchant Dock + Shipyard, P2 Merchant Dock + Workshop,
    P0 Colonial House + Shipyard. Growth gives 2 discs (Culture 0-1 = Growth Level 2),
    Salary frees each start-tile worker (1 worker <= Salary Level 1, R7): 3 in each
    Harbor, all buildings unstaffed; P1 is first to act."""
    s = new_game(GameConfig(players=3, seed=5))
    for text in ("start merchant-dock", "start merchant-dock", "start colonial-house",
                 "build shipyard", "build workshop", "build shipyard"):
        s.apply(text)
    return s


def bot_until(players: int, seed: int, bot_seed: int,
              stop: Callable[[State], bool], **options: object) -> State:
    """Play a seeded game with a bot that never passes while it has another choice,
    until ``stop`` holds."""
    s = new_game(GameConfig(players=players, seed=seed, options=options))
    rng = random.Random(bot_seed)
    while not s.is_over and not stop(s):
        legal = s.legal_actions()
        if len(legal) > 1 and legal[-1].text == "pass":
            legal = legal[:-1]
        s.apply(rng.choice(legal))
    return s


def round3_actions() -> State:
    return bot_until(4, 6, 0, lambda s: s.round == 3 and s.phase_name == "Actions")


def round5_actions() -> State:
    return bot_until(5, 7, 0, lambda s: s.round == 5 and s.phase_name == "Actions")


def _discard_decision(s: State) -> bool:
    """A Discard decision is pending (asked of :meth:`State.decision` in that phase only)."""
    d = s.decision() if s.phase_name == "Discard" else None
    return d is not None and d.kind == "discard"


def last_discard() -> State:
    # reached with the classic "+" rule (the game the counts below were taken from, before
    # R23); the Discard tree itself does not depend on it
    return bot_until(3, 8, 0, _discard_decision, plus_same_region=True)


def classic(players: int, seed: int) -> State:
    """A new 2009 game (R1): no start tiles, round 1's Build phase (P70)."""
    return new_game(GameConfig(players=players, ruleset="classic", seed=seed))


def classic_until(players: int, seed: int, bot_seed: int,
                  stop: Callable[[State], bool], **options: object) -> State:
    """Like :func:`bot_until`, in a 2009 game."""
    s = new_game(GameConfig(players=players, ruleset="classic", seed=seed, options=options))
    rng = random.Random(bot_seed)
    while not s.is_over and not stop(s):
        legal = s.legal_actions()
        if len(legal) > 1 and legal[-1].text == "pass":
            legal = legal[:-1]
        s.apply(rng.choice(legal))
    return s


def _decision_kind(kind: str) -> Callable[[State], bool]:
    def stop(s: State) -> bool:
        d = s.decision()
        return d is not None and d.kind == kind
    return stop


# name -> (position, fingerprint (round, phase, player to act, actions so far),
#          perft for depths 1, 2, ...)
POSITIONS: dict[str, tuple[Callable[[], State], tuple[int, str, int, int], list[int]]] = {
    # 2 players, side A. d1: the Crown holder chooses one of the 2 start tiles (R3);
    # d2: then the other player, 2 x 2 = 4. d3: round 1 Construction with Industry 0
    # (Build Level 1): market, shipyard, workshop, 4 x 3 = 12; d4: the second player
    # too, 12 x 3 = 36. d5: Growth and Salary are automatic; the first actor's menu is
    # "act <start tile>" (Occupy Europe / Ship), "act <building>" if it has an action
    # (market Draws the value-0 Europe card, shipyard Ships; workshop has none) and
    # pass: 3 + 3 + 2 per start tile = 8 of the 2 x 3 own choices, x 6 of the other
    # player's: 8 x 2 x 6 = 96.
    "initial 2p": (lambda: initial(2, 1), (0, "Setup", 0, 0),
                   [2, 4, 12, 36, 96, 540, 1772, 7128, 13850, 40214]),
    # 3 players, side A: 2, 4, 8 start tiles, then x 3 builds each: 24, 72, 216.
    "initial 3p": (lambda: initial(3, 2), (0, "Setup", 2, 0),
                   [2, 4, 8, 24, 72, 216, 576, 3240, 10344, 49704]),
    # 4 players, side B: 2, 4, 8, 16 start tiles, then x 3 builds each: 48, 144, 432,
    # 1296.
    "initial 4p": (lambda: initial(4, 3), (0, "Setup", 0, 0),
                   [2, 4, 8, 16, 48, 144, 432, 1296]),
    # 5 players, side B: 2^5 = 32 start-tile sequences, then x 3 builds each.
    "initial 5p": (lambda: initial(5, 4), (0, "Setup", 2, 0),
                   [2, 4, 8, 16, 32, 96, 288, 864]),
    # d1: act shipyard, act merchant-dock (both Ship), pass = 3. d2: either Ship goes to
    # one of the 6 closed tracks (AF SA CA NA IN FE) or one of side A's 2 free Europe
    # trade routes (EUT1, EUT2) = 8 each (R10), then P2 acts; after a pass, P2 (Merchant
    # Dock + Workshop) may act merchant-dock or pass = 2: 8 + 8 + 2 = 18. d3: after
    # each of the 16 Ships P2 has the same 2 choices (32); after P1's pass, P2's
    # merchant-dock Ships to 8 places, and after P2's pass P0 may act shipyard, act
    # colonial-house (Occupy a Europe city) or pass: 32 + 8 + 3 = 43.
    "round 1 actions 3p": (round1_actions, (1, "Actions", 1, 6),
                           [3, 18, 43, 220, 858, 3032, 3622, 8577]),
    # 4 players, side B, round 3: P1 holds colonial-house (staffed), shipyard and two
    # markets, 4 discs in Harbor, 2 discs in Europe and 1 in India: d1 = act market
    # (duplicates are one choice), act shipyard, pass = 3; d2: the market Draws from the
    # Europe, India or Slavery deck (top value <= presence, R14) = 3; the shipyard
    # Ships to 6 closed tracks or the free route EUT2 = 7; after the pass P2 has 3: 13.
    "round 3 actions 4p": (round3_actions, (3, "Actions", 1, 49),
                           [3, 13, 52, 293, 1230, 6284, 26346, 112175]),
    # 5 players, side B, round 5, Africa open.
    "round 5 actions 5p": (round5_actions, (5, "Actions", 2, 151),
                           [4, 22, 96, 530, 2182, 9032, 34249, 160348]),
    # 3 players, round 7 Discard phase. P1 (Crown) answered "slot none" and holds 5
    # cards in normal slots (AF/1 NA/1 NA/G FE/2 AF/G) with Influence 8 (Card Limit 4,
    # R18): d1 = one discard per card = 5. d2: after discarding NA/G (2 Influence) the
    # Card Limit drops to 3 and P1 discards again among 4; after any other discard P1 is
    # within the limit and P2 (EU/0 EU/1 SL/1 SA/1 FE/1, Influence 6: Card Limit 3 plus
    # the Slavery exemption) is one over and discards among 5: 4 x 5 + 4 = 24. The game
    # ends within 5 plies.
    "last discard 3p": (last_discard, (7, "Discard", 1, 180),
                        [5, 24, 36, 16, 0, 0, 0]),
    # The 2009 ruleset. 3 players: round 1 starts at once with the Build phase (P70):
    # Build Level 1 offers market, shipyard, workshop: 3, 9, 27. d4: Growth (2 discs)
    # and Salary (no worker) are automatic and the Crown holder (P0) acts: act
    # colonial-house (Occupy a Europe city), pass, and act market (Draw EU/0 or SL/0) or
    # act shipyard; the Workshop has no action: 9 x (3 + 3 + 2) = 72.
    "classic initial 3p": (lambda: classic(3, 1), (1, "Build", 0, 0),
                           [3, 9, 27, 72, 414, 1326, 6330, 20492]),
    # 5 players: 3^5 builds, then the Crown holder acts with 3 choices after its own
    # market or shipyard and 2 after its workshop: 3^4 x (3 + 3 + 2) = 648.
    "classic initial 5p": (lambda: classic(5, 2), (1, "Build", 4, 0),
                           [3, 9, 27, 81, 243, 648]),
    # 4 players, round 1 Actions, P3 (Crown) with a Shipyard and 2 Harbor discs: act
    # shipyard, act colonial-house, pass = 3. d2: the Shipyard ships to one of the six
    # regions (Europe cannot be shipped to, P73) = 6, the Colonial House occupies one of
    # the 10 Europe cities = 10, after the pass P0 has the same 3 choices: 19.
    "classic round 1 actions 4p": (lambda: classic_until(4, 3, 0, lambda s: s.phase_name
                                                         == "Actions"),
                                   (1, "Actions", 3, 4),
                                   [3, 19, 67, 357, 1253, 5228, 18464]),
    "classic round 4 actions 4p": (lambda: classic_until(4, 5, 0, lambda s: s.round == 4
                                                         and s.phase_name == "Actions"),
                                   (4, "Actions", 2, 81),
                                   [2, 8, 16, 36, 110, 324, 977, 2428]),
    # 3 players, round 3: P2, the last to pass, holds EU/0, EU/1 and SL/1 with Politics 1
    # (Card Limit 1 + the Slavery exemption, R18): d1 = 3 discards (P71). After EU/0 or
    # EU/1 the limit holds and round 4's Build phase starts: P1, the new Crown holder,
    # has 5 buildings to choose from (the Shipyards are gone); after SL/1 (set aside) P2
    # is over the limit again and discards EU/0 or EU/1: 5 + 5 + 2 = 12.
    "classic discard when passing 3p": (lambda: classic_until(3, 8, 0, _decision_kind(
                                            "discard")), (3, "Actions", 2, 52),
                                        [3, 12, 30, 180, 480, 968, 2892]),
    # 5 players, round 7: P3 passes holding IN/G: slot IN/G or slot none (P71) = 2; then
    # P4 acts (act shipyard or pass) either way: 4.
    "classic last round slot 5p": (lambda: classic_until(5, 9, 0, _decision_kind(
                                       "governor_slot")), (7, "Actions", 3, 231),
                                   [2, 4, 16, 64, 176, 240, 540]),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_perft(name: str) -> None:
    make, fingerprint, expected = POSITIONS[name]
    s = make()
    assert (s.round, s.phase_name, s.current_player, s.num_actions) == fingerprint
    before = s.to_json()
    got = [perft(s, d) for d in range(1, len(expected) + 1)]
    assert got == expected
    assert s.to_json() == before, "perft changed the position it started from"


def test_perft_after_json_round_trip() -> None:
    """A position restored from JSON has the same tree as the original."""
    for make in (round1_actions, round3_actions, last_discard,
                 POSITIONS["classic discard when passing 3p"][0]):
        s = make()
        r = State.from_json(s.to_json())
        assert [perft(r, d) for d in range(1, 5)] == [perft(s, d) for d in range(1, 5)]
