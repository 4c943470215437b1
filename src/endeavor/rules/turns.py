"""Turn order and the phase driver (R5, R6, R8): rounds, phases, turns, round end.

A round is a table of steps, (phase, offset from the Crown), built by the ruleset's
``schedule``. :func:`advance` runs automatic steps until a decision is needed: each
step calls the ruleset's handler for its phase (``rules.phase_steps``); the Action
phase hands turns out in order from the Crown, skipping players who passed, until all
have passed (R8). When a turn ends (its decisions all resolved) the rule modules'
``on_turn_end`` hooks run; after the last phase their ``on_round_end`` hooks run and
the Crown passes left (R5). After round 7 the game is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..events import Event
from ..frames import (
    F_ACTION,
    PH_ACTIONS,
    PH_CONSTRUCTION,
    PH_DISCARD,
    PH_END,
    PH_GROWTH,
    PH_SALARY,
    PH_SETUP,
)
from ..messages import AND, COMMA, Items, Message, Seat, Term, define, msg

if TYPE_CHECKING:
    from ..state import State

#: ``State.turn``: a turn is open (its kinds performed in the low bits)
TURN_OPEN: Final = 1 << 8
KINDS_MASK: Final = 0xFF


def schedule(n: int, rnd: int, order: str) -> tuple[tuple[int, int], ...]:
    """Age of Sail: Construction, Growth, Salary (phase by phase, or each player in turn
    with ``by_player``, R6), the Action phase, then Discard in turn order (R5)."""
    if rnd == 0:
        return tuple((PH_SETUP, i) for i in range(n))
    early = (PH_CONSTRUCTION, PH_GROWTH, PH_SALARY)
    if order == "by_player":
        steps = [(ph, i) for i in range(n) for ph in early]
    else:
        steps = [(ph, i) for ph in early for i in range(n)]
    steps.append((PH_ACTIONS, 0))
    steps += [(PH_DISCARD, i) for i in range(n)]
    return tuple(steps)


def advance(s: State) -> None:
    """Run automatic steps until a decision is needed or the game ends (R5, R6)."""
    stack = s.stack
    rules = s.rules
    sched: tuple[tuple[int, int], ...] | None = None  # this round's steps, once asked
    while not stack:
        phase = s.phase
        if phase == PH_END:
            return
        if s.turn:  # a turn just ended: its decisions are all resolved
            kinds = s.turn & KINDS_MASK
            s.turn = 0
            if rules.h_turn_end:
                for i, e in rules.h_turn_end:
                    e.on_turn_end(s, i, s.act_player, kinds)
                continue  # the hooks may have asked for decisions
        if sched is None:
            sched = rules.schedule(s.round)
        step = s.step
        if step >= len(sched):
            end_round(s)
            sched = None  # a new round
            continue
        ph, off = sched[step]
        if ph != phase:
            s.phase = ph
            if s.ev is not None:
                s.ev.append(Event("phase", None, None, None, _phase_message,
                                  (rules.phase_names[ph],)))
        if ph == PH_ACTIONS:
            if next_turn(s):
                return
            s.step = step + 1
            continue
        s.step = step + 1
        handler = rules.phase_steps[ph]
        if handler is not None:
            handler(s, (s.crown + off) % s.n)


def next_turn(s: State) -> bool:
    """R8: push the next non-passed player's action decision; False when all passed."""
    n = s.n
    passed = s.passed
    if passed == (1 << n) - 1:
        s.act_player = -1
        return False
    p = s.act_player
    if p < 0:
        p = s.crown
    else:
        a = p
        for k in range(1, n + 1):
            p = (a + k) % n
            if not (passed >> p & 1):
                break
    s.act_player = p
    s.turn = TURN_OPEN
    s.stack.append((F_ACTION, p))
    return True


PHASE = define("event.phase", "{phase} phase")
ROUND = define("event.round", "Round {round} of {rounds} begins; {seat} holds the Crown",
               you="Round {round} of {rounds} begins; you hold the Crown")
WIN = define("event.game_end.win", "Game over: {seat} wins with {glory} glory ({scores})",
             you="Game over: you win with {glory} glory ({scores})")
SHARED = define("event.game_end.shared",
                "Game over: {seats} share the victory with {glory} glory ({scores})")
SCORE = define("event.game_end.score", "{seat} {glory}")


def _phase_message(name: str) -> Message:
    return msg(PHASE, phase=Term("phase", name))


def _round_message(r: int, rounds: int, crown: int) -> Message:
    return msg(ROUND, round=r, rounds=rounds, seat=Seat(crown))


def _game_end_message(s: State) -> Message:
    from .scoring import final_scores
    scores = final_scores(s)
    best = max(x.total for x in scores)
    winners = [Seat(x.player) for x in scores if x.total == best]
    others = Items(tuple(msg(SCORE, seat=Seat(x.player), glory=x.total) for x in scores),
                   COMMA)
    if len(winners) == 1:
        return msg(WIN, seat=winners[0], glory=best, scores=others)
    return msg(SHARED, seats=Items(tuple(winners), AND), glory=best, scores=others)


def _game_end_data(final: State) -> dict[str, Any]:
    from .scoring import final_scores
    return {"scores": [{"player": x.player, "total": x.total, "rank": x.rank,
                        "lines": x.lines} for x in final_scores(final)]}


def end_round(s: State) -> None:
    """The round is over: modules' round-end hooks, then the Crown passes left (R5) and
    the next round starts, or the game ends after the last round."""
    if s.round >= 1:
        for i, e in s.rules.h_round_end:
            e.on_round_end(s, i)
        assert not s.stack, "a round-end hook may not ask for a decision"
    s.step = 0
    s.passed = 0
    s.act_player = -1
    if s.round >= s.rules.rounds:
        s.phase = PH_END
        if s.ev is not None:  # scored when read, from a copy of the finished game
            s.ev.append(Event("game_end", None, None, None, _game_end_message, (s.copy(),),
                              _game_end_data))
        return
    if s.round >= 1:  # the Crown passes left (R5)
        s.crown = (s.crown + 1) % s.n
    s.round += 1
    if s.ev is not None:
        s.ev.append(Event("round", None, None, None, _round_message,
                          (s.round, s.rules.rounds, s.crown)))
    for i, e in s.rules.h_round_start:  # may ask: advance() waits for the answers
        e.on_round_start(s, i)
