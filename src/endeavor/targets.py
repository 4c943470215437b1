"""Where an action is taken on the table: the ids of the board's, the mats' and the
supply's elements an option concerns, which a client highlights and clicks
(``Option.targets``; :func:`targets` for any action and position).

The ids:

==========================  ==========================================================
``supply:CODE``             a building type in the supply (a start tile in setup)
``building:P:I``            seat P's building in mat space I
``token:P:CODE``            seat P's blue Action token of type CODE (``S/D``, ``A``...)
``track:REGION``            a region's shipping track (``track:AF``)
``sea:REGION``              a region's open sea
``city:SITE``               a city (``city:EU3``)
``route:SITE``              a trade route (a fleet space)
``link:SITE-SITE``          a link between two sites
``deck:DECK``               a deck's top card (``deck:EU``, ``deck:SL``)
``pile:CARD``               a card of the discard pile
``card:CARD``               a card in the deciding seat's hand
``slot:CARD``, ``slot:none``  the free Governor slot's choice
``exploit:ID``              an Exploit tile (its ability)
``pass``, ``done``          the pass and done buttons
==========================  ==========================================================

An action with no element (a casualty, a choice a module asks in words) has none; it
stays reachable from the options' list. A rule module gives its own actions' targets
with :meth:`~endeavor.rules.module.RuleModule.action_targets`; by default they are the
elements its notation names (sites, regions, decks, cards, buildings, tokens, links).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import actions as A
from . import data as D
from .actions import Action

if TYPE_CHECKING:
    from .state import State

_SITE_CODES: Final = frozenset(s.code for s in D.SITES)
_CARD_CODES: Final = frozenset(c.code for c in D.CARDS)
_REGION_INDEX: Final = {c: i for i, c in enumerate(D.REGION_CODES)}
_DECK_INDEX: Final = {c: i for i, c in enumerate(D.DECK_CODES)}


def mat_buildings(s: State, p: int, code: str, worker: bool | None) -> list[str]:
    """Ids of ``p``'s buildings of type ``code``: those with (``worker=True``) or
    without (False) a worker first, all of them if none matches."""
    pl = s.players[p]
    idx = [i for i, b in enumerate(pl.buildings) if s.rules.buildings[b].code == code]
    if worker is not None:
        pref = [i for i in idx if bool(pl.taken_circles >> i & 1) == worker]
        if pref:
            idx = pref
    return [f"building:{p}:{i}" for i in idx]


def card_place(s: State, p: int, code: str) -> list[str]:
    """Where a card lies: in ``p``'s hand, the discard pile, or on top of a deck."""
    c = D.CARD_INDEX[code]
    if c in s.held_cards(p):
        return [f"card:{code}"]
    if c in s.pile:
        return [f"pile:{code}"]
    for d, deck in enumerate(s.decks):
        if deck and deck[-1] == c:
            return [f"deck:{D.DECK_CODES[d]}"]
    return []


def site_target(code: str) -> str:
    """``city:CODE`` or ``route:CODE``."""
    return f"city:{code}" if D.SITES[D.SITE_INDEX[code]].city else f"route:{code}"


def _in_supply(s: State, code: str) -> bool:
    rules = s.rules
    for b in list(rules.base_supply) + list(s.level5):
        if rules.buildings[b].code == code:
            return True
    return False


def named_targets(s: State, p: int, words: list[str]) -> list[str]:
    """The elements a module action's notation names (its words after the verb): sites,
    regions (a track, an open sea after ``sea``; Europe's deck), decks after ``draw``,
    cards, buildings (on the mat, else in the supply), ``p``'s tokens, links."""
    out: list[str] = []
    prev = ""
    for w in words:
        up = w.upper()
        if up in _SITE_CODES and D.SITE_INDEX[up] in s.info.site_set:
            out.append(site_target(up))
        elif prev == "draw" and up in _DECK_INDEX:
            out.append(f"deck:{up}")
        elif up in _REGION_INDEX:
            r = _REGION_INDEX[up]
            if r == D.EUROPE:
                out.append("deck:EU")
            elif prev == "sea":
                out.append(f"sea:{up}")
            else:
                out.append(f"track:{up}")
        elif up in _CARD_CODES:
            out.extend(card_place(s, p, up))
        elif w in D.BUILDING_INDEX:
            on_mat = mat_buildings(s, p, w, None)
            if on_mat:
                out.extend(on_mat)
            elif _in_supply(s, w):
                out.append(f"supply:{w}")
        elif w in D.TOKEN_CODES and D.TOKEN_CODES.index(w) >= 4:
            t = D.TOKEN_CODES.index(w)
            if s.players[p].blue[t - 4]:
                out.append(f"token:{p}:{w}")
        elif "-" in w and all(x.upper() in _SITE_CODES for x in w.split("-")):
            a, b = (x.upper() for x in w.split("-"))
            out.append(f"link:{a}-{b}")
        prev = w
    return list(dict.fromkeys(out))


def targets(s: State, action: Action, p: int) -> tuple[str, ...]:
    """The ids of the elements where seat ``p`` takes ``action`` in position ``s`` (see
    the module docstring); () when it has none."""
    verb = action.verb
    words = action.text.split()
    arg = words[-1] if len(words) > 1 else ""
    if verb == A.V_START or verb == A.V_BUILD:
        return (f"supply:{arg}",)
    if verb == A.V_PAY:
        return tuple(mat_buildings(s, p, arg, True))
    if verb == A.V_ACT:
        return tuple(mat_buildings(s, p, arg, False))
    if verb == A.V_USE:
        return (f"token:{p}:{arg}",)
    if verb == A.V_SHIP:
        return (f"track:{arg}",)
    if verb == A.V_SEA:
        return (f"sea:{arg}",)
    if verb == A.V_ROUTE or verb == A.V_OCCUPY or verb == A.V_ATTACK:
        return (site_target(arg),)
    if verb == A.V_DRAW:
        return (f"deck:{arg}",)
    if verb == A.V_DRAWP:
        return (f"pile:{arg}",)
    if verb == A.V_SLOT:
        return (f"slot:{arg}",)
    if verb == A.V_DISCARD:
        return (f"card:{arg}",)
    if verb == A.V_CASUALTY:
        return ()
    if verb == A.V_PASS:
        return ("pass",)
    if verb == A.V_DONE:
        return ("done",)
    for i, m in enumerate(s.modules):
        if m.owns(action.code):
            own = m.action_targets(s, i, p, action.code)
            out = named_targets(s, p, words[1:]) if own is None else list(own)
            if m.is_exploit:
                out.append(f"exploit:{m.id}")
            return tuple(out)
    return ()
