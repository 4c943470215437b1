"""Construction (RB, P3) and the start tile (R3).

Each round a player builds one building of their Build Level (Industry level, plus
the modules' build bonuses) or lower; if none remains, the next level up; never a
second level-5 building; with nothing to build, the step is skipped. At setup each
player chooses a start tile, which comes with a disc on its circle (R3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..decision import DecisionType, Frame, not_now
from ..frames import F_BUILD, F_START, PH_CONSTRUCTION, PH_SETUP
from .words import icons_words

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import State

_C: Final = A.code
_NB: Final = len(D.BUILDINGS)
_B_LEVEL: Final = tuple(b.level for b in D.BUILDINGS)


def build_level(s: State, p: int) -> int:
    """``p``'s Build Level: the Industry level plus the modules' bonuses, at most 5."""
    bl = s.players[p].level(D.INDUSTRY)
    for i, e in s.rules.h_build_bonus:
        bl += e.build_bonus(s, i, p)
    return min(bl, 5)


def build_options(s: State, p: int) -> list[int]:
    """Building types ``p`` may construct: Build Level or lower; if none remains, the
    next level up; never a second level-5 building (RB, P3). Sorted."""
    pl = s.players[p]
    bl = build_level(s, p)
    has5 = any(_B_LEVEL[b] == 5 for b in pl.blds)
    sup = s.bsupply
    opts = [b for b in range(_NB) if sup[b] and _B_LEVEL[b] <= bl
            and not (has5 and _B_LEVEL[b] == 5)]
    if not opts and bl < 5:
        opts = [b for b in range(_NB) if sup[b] and _B_LEVEL[b] == bl + 1
                and not (has5 and bl + 1 == 5)]
    return opts


def build(s: State, p: int, b: int) -> None:
    """``p`` takes building ``b`` from the supply onto the right of the Seaside."""
    pl = s.players[p]
    s.bsupply[b] -= 1
    pl.blds.append(b)
    icons = D.BUILDINGS[b].icons
    a = pl.attr
    for k in range(4):
        if icons[k]:
            a[k] += icons[k]


def begin(s: State, p: int) -> None:
    """``p``'s Construction step: ask, unless nothing can be built (P3)."""
    if build_options(s, p):
        s.stack.append((F_BUILD, p))


def begin_setup(s: State, p: int) -> None:
    """``p`` chooses a start tile (R3)."""
    s.stack.append((F_START, p))


def building_words(b: int, names: tuple[str, ...] = D.TOKEN_NAMES) -> str:
    """``"Docks (level 3): Ship + Occupy"``; ``names`` as for
    :func:`~endeavor.rules.words.icons_words`."""
    bd = D.BUILDINGS[b]
    parts = []
    if bd.kind1 >= 0:
        sep = " / " if bd.mode == D.CHOICE else " + "
        parts.append(D.KIND_NAMES[bd.kind1] + (sep + D.KIND_NAMES[bd.kind2]
                                               if bd.kind2 >= 0 else ""))
    if any(bd.icons) or bd.glory:
        parts.append(icons_words(bd.icons, bd.glory, names))
    level = f" (level {bd.level})" if bd.level else ""
    return f"{bd.name}{level}: {'; '.join(parts) or 'no action'}"


class Build(DecisionType):
    frame = F_BUILD
    kind = "construction"
    phases = (PH_CONSTRUCTION,)

    def codes(self, s: State, f: Frame) -> list[int]:
        return [_C(A.V_BUILD, b) for b in build_options(s, f[1])]

    def apply(self, s: State, f: Frame, c: int) -> None:
        build(s, f[1], c & A.ARG)

    def why_not(self, s: State, f: Frame, action: Action) -> str:
        if action.verb != A.V_BUILD:
            return not_now(action)
        bd = D.BUILDINGS[action.arg]
        pl = s.players[f[1]]
        if not s.bsupply[action.arg]:
            return f"no {bd.name} is left in the supply"
        if bd.level == 5 and any(_B_LEVEL[b] == 5 for b in pl.blds):
            return "you already have a level-5 building"
        return f"{bd.name} is level {bd.level}, above your Build Level {build_level(s, f[1])}"

    def prompt(self, s: State, f: Frame) -> str:
        p = f[1]
        return (f"Construction: build one building of level {build_level(s, p)} (your "
                "Build Level) or lower")

    def option(self, s: State, f: Frame, action: Action) -> str:
        left = s.bsupply[action.arg]
        return f"Build the {building_words(action.arg, s.rules.token_names)} ({left} left)"


class StartTile(DecisionType):
    """R3: in turn order from the Crown, each player chooses a start tile and puts a
    disc from the supply on its activation circle."""

    frame = F_START
    kind = "start_tile"
    phases = (PH_SETUP,)

    def codes(self, s: State, f: Frame) -> list[int]:
        return [_C(A.V_START, b) for b in s.rules.start_buildings]

    def apply(self, s: State, f: Frame, c: int) -> None:
        pl = s.players[f[1]]
        b = c & A.ARG
        pl.blds.append(b)
        pl.occ = 1
        pl.supply -= 1
        icons = D.BUILDINGS[b].icons
        for k in range(4):
            pl.attr[k] += icons[k]

    def why_not(self, s: State, f: Frame, action: Action) -> str:
        return not_now(action)

    def prompt(self, s: State, f: Frame) -> str:
        return "Choose your start tile: it starts with a disc on its circle"

    def option(self, s: State, f: Frame, action: Action) -> str:
        return f"Start with the {building_words(action.arg)}"
