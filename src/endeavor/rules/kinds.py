"""The action kinds (Ship, Occupy, Attack, Payment, Draw): their common interface.

Each kind is one class in its own module (:mod:`.ship`, :mod:`.occupy`, :mod:`.attack`,
:mod:`.payment`, :mod:`.draw`) that owns, for a *normal* action of that kind, the four
things that must never drift apart (one rule, one place): whether one is possible at all (R8),
its concrete targets, its effect, and why a target is refused, plus what it does in
words. The rules object holds one instance per kind in ``rules.kinds`` (indexed by
``SHIP``...), and a ruleset that plays a kind differently supplies its own class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from .. import actions as A
from .. import data as D
from ..frames import FL_NO_EUROPE
from ..messages import Message, Term, define, msg, term

if TYPE_CHECKING:
    from ..state import State

#: region of each site
SITE_REGION: Final = tuple(s.region for s in D.SITES)
ALL_REGIONS: Final = tuple(range(D.NREGIONS))
OVERSEAS: Final = tuple(range(1, D.NREGIONS))
_ONE: Final = tuple((r,) for r in range(D.NREGIONS))


def target_regions(region: int, flags: int) -> tuple[int, ...]:
    """The regions a normal action may target: ``region`` alone when >= 0, else every
    region, Europe left out under ``FL_NO_EUROPE`` (R24)."""
    if region < 0:
        return OVERSEAS if flags & FL_NO_EUROPE else ALL_REGIONS
    return _ONE[region] if region < D.NREGIONS else (region,)


#: why no normal action of a kind is possible, when the kind says no more
UNAVAILABLE: Final = define("kinds.unavailable", "no {action} is possible")

#: the action kind of each normal-action verb
VERB_KIND: Final = {A.V_SHIP: D.SHIP, A.V_ROUTE: D.SHIP, A.V_SEA: D.SHIP, A.V_OCCUPY: D.OCCUPY,
                    A.V_ATTACK: D.ATTACK, A.V_PAY: D.PAYMENT, A.V_DRAW: D.DRAW,
                    A.V_DRAWP: D.DRAW}


class ActionKind:
    """One action kind. ``region`` / ``deck`` >= 0 restrict targets (a "+" second half
    under ``plus_same_region``, or a follow-up); ``flags`` are the effect frame's."""

    kind: ClassVar[int] = -1
    name: ClassVar[str] = ""

    def possible(self, s: State, p: int, harbor: int) -> bool:
        """R8: can ``p`` carry out a normal action of this kind with ``harbor`` Harbor
        discs? (Exploit abilities are asked separately.)"""
        raise NotImplementedError

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        """Every concrete target, as action codes (not necessarily sorted)."""
        raise NotImplementedError

    def apply(self, s: State, p: int, c: int) -> tuple[int, int]:
        """Carry out legal code ``c``; return the (region, deck) it happened in (-1 when
        it does not apply), for a "+" second half under ``plus_same_region``."""
        raise NotImplementedError

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        """Why ``c`` (of this kind, not legal) cannot be carried out by ``p`` now: a
        message said to ``p``, made only when an action is refused."""
        return msg(NOT_ALLOWED)

    def unavailable(self, s: State, p: int, harbor: int) -> str | Message:
        """Why no normal action of this kind is possible (for prompts): a message (or
        words) said to ``p``."""
        return msg(UNAVAILABLE, action=Term("action", self.name))

    def describe(self, s: State, p: int, c: int) -> str | Message:
        """What legal code ``c`` does: a message (or words) said to ``p``."""
        return A.BY_CODE[c].text


# --------------------------------------------------------------------------- refusals
#: the reasons every action kind may give for refusing an action (``why_not``), said to
#: the seat deciding
NOT_ALLOWED: Final = define("kinds.refused", "not allowed now")
NOT_ON_BOARD: Final = define("kinds.refused.board", "{site} is not on board side {side}")
NO_HARBOR_DISC: Final = define("kinds.refused.harbor", "you need 1 disc in your Harbor")
NOT_OPEN: Final = define("kinds.refused.closed", "{region} is not open")
OCCUPIED: Final = define("kinds.refused.occupied", "{site} is already occupied")
NO_PRESENCE: Final = define("kinds.refused.presence", "you have no presence in {region} (R12)")
term("board_side", "A", "B", "classic")


def not_on_board(s: State, x: int) -> Message:
    """The refusal of site ``x``, which is not on this game's board side."""
    return msg(NOT_ON_BOARD, site=D.SITES[x].code, side=Term("board_side", s.info.side))
