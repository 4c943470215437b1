"""Exact play where the rest of the game is short and its effect known: the last round
once every other player has passed, and the last Discard phase.

From the moment every seat but the player to move has passed in the last round, the
rest of the game is that player's own: their remaining turns, then the Discard phase,
where each player discards for themselves (R18, P1: the last round's Governor slot
and discards, whose effect on the final score is exact; the 2009 game discards on
passing, P71). No estimate is needed there: :func:`exact_options` plays every line of
the player's decisions to the end of the game and scores it with the final score pad,
and a bot takes the best. A search would only see the end through its estimates (and,
with the outcome settled, see every move as the same win), which is how a bot came to
pass with free buildings, or to leave the Governor slot empty and then discard a
Governor that held its card limit up.

How the lines are valued. The player to move maximises their search value on the
finished game (:func:`~endeavor.bots.evaluate.search_values`: the win share, then the
glory margin), then their own final glory. Every Discard-phase segment (a player's
``slot`` and ``discard`` decisions in a row) is played by its player for their own
best final glory, found by trying every order once per hand; it is assumed that a
player's best discards depend only on their own mat (true of the score pad; an
Exploit that scores discarded cards against the board might make it slightly off).

The search is bounded: ``budget`` positions (applied actions) in all; past it, or when
another player has a real decision before the end (an Exploit's reaction), there is no
exact answer (None) and the bot searches as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from .evaluate import glory_now, search_values

if TYPE_CHECKING:
    from ..state import State

#: positions the exact end-game search may look at for one decision (the last round of a
#: player with two free buildings, tokens and a few Harbor discs takes a few thousand)
BUDGET: Final = 4000

_SHIFT: Final = A.SHIFT
_V_DISCARD: Final = A.V_DISCARD
_V_SLOT: Final = A.V_SLOT


_ARG: Final = A.ARG
_ICONS: Final = tuple(c.icons for c in D.CARDS)
_SLAVE: Final = tuple(int(c.deck == D.SLAVERY_DECK) for c in D.CARDS)


def _mat(q: int, verb: int, cards: list[int], gov: int, attr: list[int],
         aside: int) -> tuple[object, ...]:
    """The key of player ``q``'s mat (its cards, the Governor slot, the tracks and the
    Slavery cards set aside) at a decision of ``verb`` (-1: the discards are over)."""
    return (q, verb, tuple(sorted(cards)), gov, tuple(attr), aside)


class _Stop(Exception):
    """No exact answer: over the budget, or another player decides before the end."""


def settled(state: State) -> bool:
    """Whether the rest of ``state``'s game is its mover's alone but for the discards:
    the last round, and every other seat has passed (also the case throughout the last
    Discard phase)."""
    p = state.current_player
    if p is None or state.round != state.rules.rounds:
        return False
    return all(state.has_passed(q) for q in range(state.n) if q != p)


def _discarding(codes: list[int]) -> bool:
    """Whether ``codes`` (legal, not empty) are a Discard-phase choice: a Governor slot
    or a card to discard."""
    v = codes[0] >> _SHIFT
    return v == _V_DISCARD or v == _V_SLOT


class _Search:
    """One exact search: the position budget and each player's best discards by hand."""

    __slots__ = ("left", "memo", "looked")

    def __init__(self, budget: int) -> None:
        self.left = budget
        self.looked = 0
        #: each player's mats solved: (best final glory, the codes from there)
        self.memo: dict[tuple[object, ...], tuple[int, list[int]]] = {}

    def tick(self) -> None:
        self.looked += 1
        self.left -= 1
        if self.left < 0:
            raise _Stop

    def discards(self, s: State, q: int) -> tuple[int, list[int]]:
        """``q``'s best final glory and the codes that reach it over ``q``'s discard
        decisions from ``s`` (``q`` to decide; the decisions in a row that are ``q``'s
        Governor slot and discards, forced ones included). Each mat is solved once:
        the discards of a hand in any order reach the same mat, so a discard whose mat
        is known is not played again."""
        pl = s.players[q]
        codes = s.legal_codes()
        verb = codes[0] >> _SHIFT
        key = _mat(q, verb, pl.cards, pl.gov, pl.attr, len(pl.aside))
        known = self.memo.get(key)
        if known is not None:
            return known
        best = -(1 << 30)
        line: list[int] = []
        for c in codes:
            found = None
            if verb == _V_DISCARD:  # the mat it leaves, already solved?
                card = c & _ARG
                cards = [x for x in pl.cards if x != card]
                attr = [a - i for a, i in zip(pl.attr, _ICONS[card], strict=True)]
                aside = len(pl.aside) + _SLAVE[card]
                found = self.memo.get(_mat(q, _V_DISCARD, cards, pl.gov, attr, aside))
                if found is None:
                    found = self.memo.get(_mat(q, -1, cards, pl.gov, attr, aside))
            if found is None:
                self.tick()
                t = s.copy()
                t.apply_code(c)
                if t.current_player == q and _discarding(t.legal_codes()):
                    found = self.discards(t, q)
                else:  # q's discards are over: their final glory
                    tp = t.players[q]
                    found = (glory_now(t)[q], [])
                    self.memo[_mat(q, -1, tp.cards, tp.gov, tp.attr, len(tp.aside))] = found
            g, rest = found
            if g > best:
                best = g
                line = [c] + rest
        self.memo[key] = out = (best, line)
        return out

    def play_out(self, s: State) -> None:
        """Finish ``s`` (in place): forced decisions, and every player's discards for
        their own best final glory; :class:`_Stop` at any other choice."""
        while True:
            codes = s.legal_codes()
            if not codes:
                return
            if len(codes) == 1:
                s.apply_code(codes[0])
                continue
            if not _discarding(codes):
                raise _Stop
            q = s.current_player
            assert q is not None
            for c in self.discards(s, q)[1]:
                s.apply_code(c)

    def end(self, s: State) -> list[float]:
        """The search values (``3 n``, :func:`search_values`) of ``s`` played out."""
        if not s.is_over:
            s = s.copy()
            self.play_out(s)
        return search_values(s)

    def solo(self, s: State, p: int) -> list[float]:
        """The values of the end ``p`` reaches with their best line from ``s``, where
        the rest of the game is ``p``'s until the discards."""
        codes = s.legal_codes()
        if not codes or s.current_player != p or _discarding(codes):
            return self.end(s)
        n = s.n
        best: list[float] | None = None
        for c in codes:
            self.tick()
            t = s.copy()
            t.apply_code(c)
            v = self.solo(t, p)
            if best is None or (v[p], v[2 * n + p]) > (best[p], best[2 * n + p]):
                best = v
        assert best is not None
        return best


def exact_options(state: State, budget: int = BUDGET
                  ) -> tuple[list[tuple[int, list[float]]], int] | None:
    """Every legal action of the player to move with the search values (``3 n``,
    :func:`~endeavor.bots.evaluate.search_values`: values, win shares, final glory) of
    the finished game it leads to when that player plays on at their best, and the
    positions looked at; None unless the position is :func:`settled` and its end is
    found within ``budget`` positions (see the module docstring). ``state`` is not
    modified."""
    if budget <= 0 or not settled(state):
        return None
    p = state.current_player
    assert p is not None
    search = _Search(budget)
    out = []
    try:
        for c in state.legal_codes():
            search.tick()
            t = state.copy()
            t.apply_code(c)
            out.append((c, search.solo(t, p)))
    except _Stop:
        return None
    return out, search.looked


def exact_ranking(state: State, budget: int = BUDGET
                  ) -> tuple[list[tuple[int, list[float]]], int] | None:
    """:func:`exact_options` best first for the player to move: by search value, then
    by their own final glory (ties in the legal order); with the positions looked at;
    or None."""
    found = exact_options(state, budget)
    if found is None:
        return None
    rows, looked = found
    p = state.current_player
    assert p is not None
    g = 2 * state.n + p
    order = sorted(range(len(rows)), key=lambda i: (-rows[i][1][p], -rows[i][1][g], i))
    return [rows[i] for i in order], looked


__all__ = ["BUDGET", "exact_options", "exact_ranking", "settled"]
