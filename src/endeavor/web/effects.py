"""What an option changes that its words do not say: the ``effect`` of an option in
:func:`endeavor.web.view.decision_view`.

Two kinds of decision get one, and only they (the others cost nothing):

* The last Discard and Governor-slot decisions of the game, once their effect on the
  final score is settled: the last round, every player has passed (Age of Sail's last
  Discard phase; the 2009 game's discard on passing, for the last player to pass). Then
  nothing can change a player's score but their own discards, so each option says by
  how much it changes the score pad's total, line by line, and, when more discards must
  follow, the best the player can still do (P91)::

      Industry 12 → 9 (−5), Buildings & cards −1: −6 glory
      Governor slot +3: +3 glory; then you must discard again (at best −2 glory):
      +1 glory in all

* An activation that leaves too few Harbor discs to carry out both actions of a "+"
  building that needs discs for both (the Docks' Ship + Occupy, the Cartographer's
  Ship + Ship): the activation of that building itself, and an activation or a token
  whose actions all need discs while such a building of yours, still unstaffed, could
  now do both (P91)::

      leaves 1 disc in your Harbor: not enough for Ship + Occupy (2 discs)
      leaves at most 1 disc in your Harbor: not enough for your Docks' Ship + Occupy (3
      discs with its activation)

  The second says "may leave" when the player holds a Shield: an Exploit ability may
  then take no disc or give discs back.

Only the engine's public API is used: :meth:`State.copy`, :meth:`State.apply_code`,
:meth:`State.legal_codes`, ``state.marker``, ``state.has_passed``, ``state.has_shield``,
the mats and the ruleset's tables, and the score pad's lines of one player,
``state.rules.score_lines`` (what :func:`endeavor.scoring.final_scores` adds up, without
scoring the others). The
discards that must follow are searched (each hand once, at most
:data:`SEARCH_BUDGET` positions): a few milliseconds, a few tens for a big hand, once
per player and game. The Harbor words count normal actions only: an Exploit ability
that needs no disc or gives one back is not counted, only announced by "may".
"""

from __future__ import annotations

from typing import Final

from .. import actions as A
from .. import data as D
from ..decision import Decision
from ..messages import COMMA, Count, Items, Message, Term, define, msg
from ..state import State

#: Harbor discs a normal action of each kind takes (P91): Ship and Occupy one, Attack
#: two (the casualty and the disc that moves in), Payment and Draw none
DISCS_NEEDED: Final = {D.SHIP: 1, D.OCCUPY: 1, D.ATTACK: 2, D.PAYMENT: 0, D.DRAW: 0}
_SCORED: Final = frozenset({"discard", "governor_slot"})

# the effects' words, as messages (ids ``effects.*``, in ``parts/effects.po``)
_TRACK: Final = define("effects.track", "{track} {before} → {after} ({change})")
_LINE: Final = define("effects.line", "{line} {change}")
_NO_LINE: Final = define("effects.no_line", "no line of your score changes")
_TOTAL: Final = define("effects.total", "{changes}: {change} glory")
_AGAIN: Final = define("effects.again", "{text}; then you must discard again")
_AGAIN_BEST: Final = define("effects.again_best",
                            "{text}; then you must discard again (at best {rest} glory): "
                            "{total} glory in all")
_PAIR: Final = define("effects.pair", "leaves {left} in your Harbor: not enough for "
                                      "{first} + {second} ({both})")
_SHORT: Final = define("effects.short", "leaves at most {most} in your Harbor: not enough "
                                        "for {words} ({need} with its activation)")
_MAY_SHORT: Final = define("effects.may_short", "may leave at most {most} in your Harbor: "
                                                "not enough for {words} ({need} with its "
                                                "activation)")
_YOURS: Final = define("effects.yours", "your {building}'s {first} + {second}")
_YOURS_S: Final = define("effects.yours_s", "your {building}' {first} + {second}")
#: the score pad's lines, by their English name (an Exploit's line is its name)
_LINES: Final = {
    name: define(f"effects.line.{key}", name) for key, name in (
        ("industry", "Industry"), ("culture", "Culture"), ("wealth", "Wealth"),
        ("influence", "Influence"), ("cities", "Cities & links"),
        ("buildings", "Buildings & cards"), ("governor", "Governor slot"),
        ("population", "Extra population"), ("slavery", "Slavery"))
}


def _line(name: str) -> Message | Term:
    """A score line's name as a message argument."""
    return msg(_LINES[name]) if name in _LINES else Term("exploit", name)


def signed(n: int) -> str:
    """``+3``, ``−2`` (a minus sign), ``±0``."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "\u00b10"


def option_effects(state: State, d: Decision, locale: str = "en") -> dict[str, str]:
    """The ``effect`` of the options of decision ``d`` (``state.decision()``) that have
    one, by action notation, in ``locale``'s words; {} for the others."""
    return {k: m.render(locale) for k, m in option_effect_messages(state, d).items()}


def option_effect_messages(state: State, d: Decision) -> dict[str, Message]:
    """:func:`option_effects` as messages (:mod:`endeavor.messages`)."""
    if d.kind in _SCORED:
        if settled(state):
            return _score_effects(state, d)
        return {}
    if d.kind == "action":
        return _harbor_effects(state, d)
    return {}


# =========================================================================== scores
def settled(state: State) -> bool:
    """Whether a discard now has a settled effect on the final score: the last round,
    everyone has passed (P91)."""
    return state.round == state.rules.rounds and all(
        state.has_passed(q) for q in range(state.n))


def _score_effects(state: State, d: Decision) -> dict[str, Message]:
    p = d.player
    lines = state.rules.score_lines(state, p)
    total = sum(lines.values())
    search = _Search(p)
    out: dict[str, Message] = {}
    for o in d.options:
        after = state.copy()
        after.apply_code(o.action.code)
        text, delta = _change_words(state, after, p, lines, total)
        if _discards_again(after, p):
            rest = search.best_rest(after)
            if rest is None:
                text = msg(_AGAIN, text=text)
            else:
                text = msg(_AGAIN_BEST, text=text, rest=signed(rest),
                           total=signed(delta + rest))
        out[str(o.action)] = text
    return out


def _discards_again(state: State, p: int) -> bool:
    """Whether ``p`` must next discard again (or place a Governor) in ``state``."""
    if state.current_player != p:
        return False
    codes = state.legal_codes()
    return bool(codes) and codes[0] >> A.SHIFT in (A.V_DISCARD, A.V_SLOT)


#: positions :class:`_Search` may look at for one decision (a hand of 10 cards with a
#: limit of 2 reaches a few hundred); past that the best is not said
SEARCH_BUDGET: Final = 2000


class _Search:
    """The best ``p`` can do with the discards that must follow, by trying them all,
    each hand (the cards and the Governor slot) once."""

    def __init__(self, p: int) -> None:
        self.p = p
        self.memo: dict[tuple[tuple[int, ...], int], int] = {}
        self.left = SEARCH_BUDGET

    def best_rest(self, state: State) -> int | None:
        """The most ``p`` can still gain (usually the least they lose) from their score
        in ``state`` with the discards that must follow; None past the budget."""
        try:
            return self._best(state, _total(state, self.p))
        except _OverBudget:
            return None

    def _best(self, state: State, here: int) -> int:
        """:meth:`best_rest`; ``here`` is ``p``'s total in ``state``."""
        p = self.p
        pl = state.players[p]
        key = (tuple(sorted(pl.cards)), pl.gov)
        known = self.memo.get(key)
        if known is not None:
            return known
        best: int | None = None
        for c in state.legal_codes():
            self.left -= 1
            if self.left < 0:
                raise _OverBudget
            after = state.copy()
            after.apply_code(c)
            there = _total(after, p)
            gain = there - here
            if _discards_again(after, p):
                gain += self._best(after, there)
            if best is None or gain > best:
                best = gain
        self.memo[key] = best = best or 0
        return best


class _OverBudget(Exception):
    pass


def _total(state: State, p: int) -> int:
    """``p``'s score-pad total as the game stands (``final_scores(state)[p].total``,
    without scoring the others)."""
    return sum(state.rules.score_lines(state, p).values())


def _change_words(before: State, after: State, p: int, lines: dict[str, int],
                  total: int) -> tuple[Message, int]:
    """What changed on ``p``'s score pad from ``before`` to ``after``, in words, and by
    how much the total changed."""
    now = after.rules.score_lines(after, p)
    names = before.rules.token_names[:4]
    parts: list[Message] = []
    tracks: set[str] = set()
    for k in range(4):
        a, b = before.marker(p, k), after.marker(p, k)
        if a != b:
            ga, gb = D.track_glory(a), D.track_glory(b)
            parts.append(msg(_TRACK, track=Term("token", names[k]), before=str(a),
                             after=str(b), change=signed(gb - ga)))
        tracks.add(names[k])
    for name, pts in now.items():
        old = lines.get(name, 0)
        if pts != old and name not in tracks:
            parts.append(msg(_LINE, line=_line(name), change=signed(pts - old)))
    for name, old in lines.items():
        if name not in now and old and name not in tracks:
            parts.append(msg(_LINE, line=_line(name), change=signed(-old)))
    delta = sum(now.values()) - total
    changes = Items(tuple(parts), COMMA, _NO_LINE)
    return msg(_TOTAL, changes=changes, change=signed(delta)), delta


# =========================================================================== Harbor
def _needs(mode: int, k1: int, k2: int) -> tuple[int, int]:
    """Harbor discs a source's actions take: (the fewest it can do something with, all
    of them); (-1, -1) when one of its actions needs none (P91)."""
    kinds = [k for k in (k1, k2) if k >= 0]
    if not kinds or any(DISCS_NEEDED[k] == 0 for k in kinds):
        return -1, -1
    needs = [DISCS_NEEDED[k] for k in kinds]
    return min(needs), (sum(needs) if mode == D.BOTH else max(needs))


def _harbor_effects(state: State, d: Decision) -> dict[str, Message]:
    p = d.player
    pl = state.players[p]
    h = pl.harbor
    rules = state.rules
    # the unstaffed "+" buildings needing discs for both actions that could do both
    # now: (index, discs to activate it and do both, its words)
    pairs: list[tuple[int, int, Message]] = []
    for i, b in enumerate(pl.buildings):
        bd = rules.buildings[b]
        if not bd.activatable or pl.taken_circles >> i & 1 or bd.mode != D.BOTH:
            continue
        least, both = _needs(bd.mode, bd.kind1, bd.kind2)
        if least > 0 and 1 + both <= h:
            pairs.append((i, 1 + both, msg(
                _YOURS_S if bd.name.endswith("s") else _YOURS,
                building=Term("building", bd.name),
                first=Term("action", D.KIND_NAMES[bd.kind1]),
                second=Term("action", D.KIND_NAMES[bd.kind2]))))
    # an Exploit ability (only a Shield holder's) may take no disc or give discs back:
    # then the most a source leaves is not certain
    ability = any(state.has_shield(p, i) for i in range(len(state.ex)))
    out: dict[str, Message] = {}
    for o in d.options:
        a = o.action
        used = -1  # the mat index the activation staffs
        if a.verb == A.V_ACT:
            bd = rules.buildings[a.arg]
            cost, mode, k1, k2 = 1, bd.mode, bd.kind1, bd.kind2
            used = next(i for i, b in enumerate(pl.buildings)
                        if b == a.arg and not pl.taken_circles >> i & 1)
        elif a.verb == A.V_USE:
            cost, (mode, k1, k2) = 0, D.TOKEN_ACTIONS[a.arg - 4]
        else:
            continue
        least, both = _needs(mode, k1, k2)
        if least < 0:
            continue
        left = h - cost
        if a.verb == A.V_ACT and mode == D.BOTH and left < both:
            out[str(a)] = msg(_PAIR, left=Count(left, "disc"),
                              first=Term("action", D.KIND_NAMES[k1]),
                              second=Term("action", D.KIND_NAMES[k2]),
                              both=Count(both, "disc"))
            continue
        most = left - least  # at most this many discs stay after its actions
        short = [(need, words) for i, need, words in pairs if i != used and most < need]
        if short:
            need, words = short[0]
            out[str(a)] = msg(_MAY_SHORT if ability else _SHORT, most=Count(most, "disc"),
                              words=words, need=Count(need, "disc"))
    return out
