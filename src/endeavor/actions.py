"""Atomic actions, their integer codes and their text notation.

Every decision a player makes is one :class:`Action`. Actions are interned: there is
exactly one object per code, built once at import in a fixed catalogue that does not
depend on the board side, so an action can be used as an int (``action.code``), as a
string (``str(action)``, its notation) or as an index into :data:`CATALOGUE` for masks.

Notation (verbs lower case, ids as printed; parsing ignores case and extra spaces)::

    start colonial-house | start merchant-dock      start tile (R3)
    build theater                                    Construction
    pay market                                       Salary payment / Payment action
    act docks | use ship-draw | pass                 Action phase: activate, token, pass
    ship FE | ship EUT1 | sea FE                     Ship to a track, a trade route, open sea
    occupy EU3 | attack CA1                          Occupy / Attack a site
    draw EU | draw SL | draw AF/1                    Draw a deck's top card / a pile card
    done                                             decline the second half of a "+"
    casualty supply | casualty culture               Memorial casualty placement
    slot FE/G | slot none                            free Governor slot (Discard phase)
    discard SA/1                                     Discard phase
"""

from __future__ import annotations

from typing import Final

from . import data as D
from .errors import NotationError

# verbs, in menu order (codes sort by verb first)
V_START: Final = 1
V_BUILD: Final = 2
V_PAY: Final = 3
V_ACT: Final = 4
V_USE: Final = 5
V_SHIP: Final = 6
V_ROUTE: Final = 7
V_SEA: Final = 8
V_OCCUPY: Final = 9
V_ATTACK: Final = 10
V_DRAW: Final = 11
V_DRAWP: Final = 12
V_CASUALTY: Final = 13
V_SLOT: Final = 14
V_DISCARD: Final = 15
#: Exploit actions: Exploit number n (1-15) owns verbs V_EXPLOIT + 8 * (n - 1) .. + 7
V_EXPLOIT: Final = 32
EXPLOIT_VERBS: Final = 8
V_DONE: Final = 254  # sort last in every menu
V_PASS: Final = 255
SHIFT: Final = 16  # arg holds up to two 8-bit ids (room for Exploit actions)
ARG: Final = (1 << SHIFT) - 1
#: "slot none" argument
NONE_ARG: Final = 255
#: "casualty supply" argument (0-3 are the attribute tracks)
SUPPLY_ARG: Final = 4

VERB_NAMES: Final = {V_START: "start", V_BUILD: "build", V_PAY: "pay", V_ACT: "act",
                     V_USE: "use", V_SHIP: "ship", V_ROUTE: "ship", V_SEA: "sea",
                     V_OCCUPY: "occupy", V_ATTACK: "attack", V_DRAW: "draw", V_DRAWP: "draw",
                     V_CASUALTY: "casualty", V_SLOT: "slot", V_DISCARD: "discard",
                     V_DONE: "done", V_PASS: "pass"}


class Action:
    """One atomic decision. Interned: compare with ``==`` or ``is``; hashable; sorts by code.

    ``Action("ship FE")`` parses notation and returns the interned object (raises
    :class:`NotationError`); whether it is legal is for ``State.apply`` to decide."""

    __slots__ = ("code", "verb", "arg", "text")
    code: int
    verb: int
    arg: int
    text: str

    def __new__(cls, text: object, _code: int = -1) -> Action:
        if _code < 0:
            return parse(text)  # NotationError for unknown notation or a non-string
        # a new action, for the catalogue only (``_make``); built here because mypyc
        # compiles ``object.__new__(cls)`` only inside ``__new__``
        self = object.__new__(cls)
        self.code = _code
        self.verb = _code >> SHIFT
        self.arg = _code & ARG
        self.text = str(text)
        return self

    @classmethod
    def _make(cls, code: int, text: str) -> Action:
        return cls(text, code)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.code == self.code

    def __hash__(self) -> int:
        return self.code

    def __lt__(self, other: Action) -> bool:
        return self.code < other.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse, (self.text,))


def _catalogue() -> dict[int, Action]:
    cat: dict[int, Action] = {}

    def add(verb: int, arg: int, text: str) -> None:
        code = (verb << SHIFT) | arg
        assert code not in cat
        cat[code] = Action._make(code, text)

    for b in D.START_BUILDINGS:
        add(V_START, b, f"start {D.BUILDINGS[b].code}")
    for i, bd in enumerate(D.BUILDINGS):
        if bd.level >= 1:
            add(V_BUILD, i, f"build {bd.code}")
        if bd.activatable:
            add(V_PAY, i, f"pay {bd.code}")
            add(V_ACT, i, f"act {bd.code}")
    for t in range(4, 8):
        add(V_USE, t, f"use {D.TOKEN_CODES[t]}")
    for r in range(1, D.NREGIONS):
        add(V_SHIP, r, f"ship {D.REGION_CODES[r]}")
        add(V_SEA, r, f"sea {D.REGION_CODES[r]}")
    for i, s in enumerate(D.SITES):
        if not s.city:
            add(V_ROUTE, i, f"ship {s.code}")
        else:
            add(V_OCCUPY, i, f"occupy {s.code}")
        add(V_ATTACK, i, f"attack {s.code}")
    for d in range(8):
        add(V_DRAW, d, f"draw {D.DECK_CODES[d]}")
    for i, c in enumerate(D.CARDS):
        if not c.governor:
            add(V_DRAWP, i, f"draw {c.code}")
        else:
            add(V_SLOT, i, f"slot {c.code}")
        add(V_DISCARD, i, f"discard {c.code}")
    add(V_SLOT, NONE_ARG, "slot none")
    for k in range(4):
        add(V_CASUALTY, k, f"casualty {D.ATTRIBUTES[k]}")
    add(V_CASUALTY, SUPPLY_ARG, "casualty supply")
    add(V_DONE, 0, "done")
    add(V_PASS, 0, "pass")
    return dict(sorted(cat.items()))


#: code -> Action, for every action that exists on any board
BY_CODE: dict[int, Action] = _catalogue()
#: all actions in code order; ``CATALOGUE.index`` gives a stable integer for masks
CATALOGUE: tuple[Action, ...] = tuple(BY_CODE.values())
INDEX_OF: dict[int, int] = {a.code: i for i, a in enumerate(CATALOGUE)}
_BY_TEXT: dict[str, Action] = {a.text.lower(): a for a in CATALOGUE}

PASS: Final = BY_CODE[V_PASS << SHIFT]
DONE: Final = BY_CODE[V_DONE << SHIFT]


def code(verb: int, arg: int = 0) -> int:
    return (verb << SHIFT) | arg


def parse(text: object) -> Action:
    """Parse notation into the interned action; raise :class:`NotationError` if unknown
    or not a string (typed ``object``: a compiled build checks it here, not at the call)."""
    if not isinstance(text, str):
        raise NotationError(f"notation must be a string, got {type(text).__name__}")
    key = " ".join(text.split()).lower()
    a = _BY_TEXT.get(key)
    if a is None:
        verb = key.split(" ", 1)[0] if key else ""
        known = sorted(set(VERB_NAMES.values()))
        if verb not in known:
            raise NotationError(f"cannot parse {text!r}: unknown verb {verb!r} "
                                f"(verbs: {', '.join(known)})")
        raise NotationError(f"cannot parse {text!r}: no such {verb!r} target")
    return a


def extend(entries: list[tuple[int, str]]) -> None:
    """Add Exploit actions (code, notation) to the catalogue; called once per Exploit
    module at import. Codes must lie in the Exploit verb range and be new."""
    global CATALOGUE, INDEX_OF
    for c, text in entries:
        verb = c >> SHIFT
        assert V_EXPLOIT <= verb < V_DONE and c not in BY_CODE, (c, text)
        assert text.lower() not in _BY_TEXT, text
        a = Action._make(c, text)
        BY_CODE[c] = a
        _BY_TEXT[text.lower()] = a
        VERB_NAMES.setdefault(verb, text.split(" ", 1)[0])
    items = sorted(BY_CODE.items())
    BY_CODE.clear()
    BY_CODE.update(items)
    CATALOGUE = tuple(BY_CODE.values())
    INDEX_OF = {a.code: i for i, a in enumerate(CATALOGUE)}
