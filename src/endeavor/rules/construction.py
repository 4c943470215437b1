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
from ..messages import SEMICOLON, Items, Message, Seat, Term, define, msg
from .words import AOS_NAMES, icons_message, left_message

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import State

_C: Final = A.code
_NB: Final = len(D.BUILDINGS)
_B_LEVEL: Final = tuple(b.level for b in D.BUILDINGS)
_BUILD: Final = A.code(A.V_BUILD)
_LEVEL: Final = D.TRACK_LEVEL
#: building types of level 5
_LEVEL5: Final = frozenset(b for b in range(_NB) if _B_LEVEL[b] == 5)
#: by Build Level 0-5: the building types of that level or lower (with level-5 types,
#: then without them), in type order
_UP_TO: Final = tuple(tuple(b for b in range(_NB) if _B_LEVEL[b] <= bl) for bl in range(6))
_UP_TO_NO5: Final = tuple(tuple(b for b in types if _B_LEVEL[b] != 5) for types in _UP_TO)


def build_level(s: State, p: int) -> int:
    """``p``'s Build Level: the Industry level plus the modules' bonuses, at most 5."""
    a = s.players[p].attr[D.INDUSTRY]
    bl = _LEVEL[a] if a < 16 else 5
    for i, e in s.rules.h_build_bonus:
        bl += e.build_bonus(s, i, p)
    return min(bl, 5)


def build_options(s: State, p: int) -> list[int]:
    """Building types ``p`` may construct: Build Level or lower; if none remains, the
    next level up; never a second level-5 building (RB, P3). Sorted."""
    return _options(s, p, 0)


def _options(s: State, p: int, verb: int) -> list[int]:
    """:func:`build_options`, each type ``b`` given as ``verb | b`` (``verb`` 0: the
    types; ``_BUILD``: the ``build`` codes)."""
    pl = s.players[p]
    bl = build_level(s, p)
    has5 = not _LEVEL5.isdisjoint(pl.buildings)
    sup = s.building_supply
    if bl >= 0:
        opts = [verb | b for b in (_UP_TO_NO5 if has5 else _UP_TO)[bl] if sup[b]]
    else:  # pragma: no cover  (no rule lowers the Build Level below 0)
        opts = []
    if not opts and bl < 5:
        opts = [verb | b for b in range(_NB) if sup[b] and _B_LEVEL[b] == bl + 1
                and not (has5 and bl + 1 == 5)]
    return opts


def build(s: State, p: int, b: int) -> None:
    """``p`` takes building ``b`` from the supply onto the right of the Seaside."""
    pl = s.players[p]
    s.building_supply[b] -= 1
    pl.buildings.append(b)
    pl.changed()
    icons = D.BUILDINGS[b].icons
    a = pl.attr
    for k in range(4):
        if icons[k]:
            a[k] += icons[k]


def begin(s: State, p: int) -> None:
    """``p``'s Construction step: ask, unless nothing can be built (P3). The options
    found are the legal actions of the decision pushed: the state keeps them, so they
    are not worked out a second time."""
    codes = _options(s, p, _BUILD)
    if codes:
        s.stack.append((F_BUILD, p))
        s._legal = codes


def begin_setup(s: State, p: int) -> None:
    """``p`` chooses a start tile (R3)."""
    s.stack.append((F_START, p))


#: building_message already made, by (building, names)
_BUILDING_MESSAGE: Final[dict[tuple[int, tuple[str, ...]], Message]] = {}

#: the start tiles' option messages, by building
_STARTS: Final[dict[int, Message]] = {}
#: Build's option messages by building << 8 | supply (the Age of Sail's token names)
_BUILD_OPTION: Final[dict[int, Message]] = {}

BUILDING = define("construction.building", "{building} (level {level}): {what}")
START_BUILDING = define("construction.building.start", "{building}: {what}")
NO_ACTION = define("construction.no_action", "no action")
#: a building's two actions: one of them, or both
EITHER = define("construction.actions.either", "{a} / {b}")
BOTH = define("construction.actions.both", "{a} + {b}")
PROMPT = define(
    "construction.prompt",
    "Construction: {seat} builds one building of level {level} (their Build Level) or lower",
    you="Construction: build one building of level {level} (your Build Level) or lower")
BUILD = define("construction.build", "Build the {building} ({left})")
START_PROMPT = define(
    "construction.start.prompt",
    "{seat} chooses their start tile: it starts with a disc on its circle",
    you="Choose your start tile: it starts with a disc on its circle")
START = define("construction.start", "Start with the {building}")


def building_message(b: int, names: tuple[str, ...] = D.TOKEN_NAMES) -> Message:
    """``"Docks (level 3): Ship + Occupy"``; ``names`` as for
    :func:`~endeavor.rules.words.icons_message`."""
    key = (b, names)
    m = _BUILDING_MESSAGE.get(key)
    if m is None:
        m = _BUILDING_MESSAGE[key] = _building_message(b, names)
    return m


def _building_message(b: int, names: tuple[str, ...]) -> Message:
    bd = D.BUILDINGS[b]
    parts: list[object] = []
    if bd.kind1 >= 0:
        first = Term("action", D.KIND_NAMES[bd.kind1])
        if bd.kind2 >= 0:
            parts.append(Items((first, Term("action", D.KIND_NAMES[bd.kind2])),
                               EITHER if bd.mode == D.CHOICE else BOTH))
        else:
            parts.append(first)
    if any(bd.icons) or bd.glory:
        parts.append(icons_message(bd.icons, bd.glory, names))
    what = Items(tuple(parts), SEMICOLON, NO_ACTION)
    name = Term("building", bd.name)
    if bd.level:
        return msg(BUILDING, building=name, level=bd.level, what=what)
    return msg(START_BUILDING, building=name, what=what)


class Build(DecisionType):
    frame = F_BUILD
    kind = "construction"
    phases = (PH_CONSTRUCTION,)

    def codes(self, s: State, f: Frame) -> list[int]:
        return _options(s, f[1], _BUILD)

    def apply(self, s: State, f: Frame, c: int) -> None:
        build(s, f[1], c & A.ARG)

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        if action.verb != A.V_BUILD:
            return not_now(action)
        bd = D.BUILDINGS[action.arg]
        pl = s.players[f[1]]
        building = Term("building", bd.name)
        if not s.building_supply[action.arg]:
            return msg(NONE_LEFT, building=building)
        if bd.level == 5 and any(_B_LEVEL[b] == 5 for b in pl.buildings):
            return msg(LEVEL_5)
        return msg(ABOVE, building=building, level=bd.level, build_level=build_level(s, f[1]))

    def prompt(self, s: State, f: Frame) -> Message:
        p = f[1]
        return msg(PROMPT, seat=Seat(p), level=build_level(s, p))

    def option(self, s: State, f: Frame, action: Action) -> Message:
        b = action.arg
        k = s.building_supply[b]
        names = s.rules.token_names
        # the message of (building, supply) with the Age of Sail's token names: made once
        key = b << 8 | k if names is AOS_NAMES or names == AOS_NAMES else -1
        m = _BUILD_OPTION.get(key)
        if m is None:
            m = msg(BUILD, building=building_message(b, names), left=left_message(k))
            if key >= 0:
                _BUILD_OPTION[key] = m
        return m


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
        pl.buildings.append(b)
        pl.changed()
        pl.taken_circles = 1
        pl.supply -= 1
        icons = D.BUILDINGS[b].icons
        for k in range(4):
            pl.attr[k] += icons[k]

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        return not_now(action)

    def prompt(self, s: State, f: Frame) -> Message:
        return msg(START_PROMPT, seat=Seat(f[1]))

    def option(self, s: State, f: Frame, action: Action) -> Message:
        m = _STARTS.get(action.arg)
        if m is None:  # a start tile's words never change
            m = _STARTS[action.arg] = msg(START, building=building_message(action.arg))
        return m


# --------------------------------------------------------------------------- refusals
NONE_LEFT: Final = define("construction.refused.supply", "no {building} is left in the supply")
LEVEL_5: Final = define("construction.refused.level5", "you already have a level-5 building")
ABOVE: Final = define("construction.refused.level",
                      "{building} is level {level}, above your Build Level {build_level}")
