"""The pending decision as JSON (:func:`decision_view`): each option with its group and the
ids of the elements it is clicked on (:func:`targets_of`), its prompt in the second or
third person."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from ... import actions as A
from ... import data as D
from ...rules.module import RuleModule
from ...state import State
from ..effects import option_effects

if TYPE_CHECKING:
    pass

from .board import _supply
from .pieces import JSON
from .words import plain_words, third_person

#: a short label per verb, for grouping the options in a menu
VERB_GROUPS: Final[dict[int, str]] = {
    A.V_START: "Start tile", A.V_BUILD: "Build", A.V_PAY: "Pay", A.V_ACT: "Activate",
    A.V_USE: "Use token", A.V_SHIP: "Ship", A.V_ROUTE: "Ship", A.V_SEA: "Ship",
    A.V_OCCUPY: "Occupy", A.V_ATTACK: "Attack", A.V_DRAW: "Draw", A.V_DRAWP: "Draw",
    A.V_CASUALTY: "Casualty", A.V_SLOT: "Governor slot", A.V_DISCARD: "Discard",
    A.V_DONE: "Done", A.V_PASS: "Pass",
}


_SITE_CODES: Final = frozenset(s.code for s in D.SITES)
_CARD_CODES: Final = frozenset(c.code for c in D.CARDS)
_REGION_INDEX: Final = {c: i for i, c in enumerate(D.REGION_CODES)}
_DECK_INDEX: Final = {c: i for i, c in enumerate(D.DECK_CODES)}


def _module_of(state: State, action: A.Action) -> RuleModule | None:
    for m in state.modules:
        if m.owns(action.code):
            return m
    return None


def group_of(state: State, action: A.Action) -> str:
    """A short label for the option's verb: Build, Activate, Use token, Ship, ..., or
    the name of the Exploit (or variant) whose action it is."""
    label = VERB_GROUPS.get(action.verb)
    if label is not None:
        return label
    m = _module_of(state, action)
    if m is None:
        return "Other"
    if m.id == "silent_fleet":
        return "Building shortage" if action.text.startswith("shortage") else "Silent Fleet"
    return m.name


def _mat_buildings(state: State, p: int, code: str, worker: bool | None) -> list[str]:
    """Ids of ``p``'s buildings of type ``code``; those with (``worker=True``) or
    without (False) a worker first, all of them if none matches."""
    pl = state.players[p]
    idx = [i for i, b in enumerate(pl.buildings) if state.rules.buildings[b].code == code]
    if worker is not None:
        pref = [i for i in idx if bool(pl.taken_circles >> i & 1) == worker]
        if pref:
            idx = pref
    return [f"building:{p}:{i}" for i in idx]


def _card_place(state: State, p: int, code: str) -> list[str]:
    """Where a card named in an action lies: in ``p``'s hand, the discard pile, or on
    top of a deck."""
    c = D.CARD_INDEX[code]
    if c in state.held_cards(p):
        return [f"card:{code}"]
    if c in state.pile:
        return [f"pile:{code}"]
    for d, deck in enumerate(state.decks):
        if deck and deck[-1] == c:
            return [f"deck:{D.DECK_CODES[d]}"]
    return []


def _site_target(code: str) -> str:
    return f"city:{code}" if D.SITES[D.SITE_INDEX[code]].city else f"route:{code}"


def _word_targets(state: State, p: int, words: list[str]) -> Iterator[str]:
    """Targets named by the words of a module's action (Exploits, the Silent Fleet):
    sites, regions (a track, or an open sea after ``sea``; Europe's deck), decks after
    ``draw``, cards, buildings (on the mat, else in the supply), tokens, links."""
    prev = ""
    for w in words:
        up = w.upper()
        if up in _SITE_CODES and D.SITE_INDEX[up] in state.info.site_set:
            yield _site_target(up)
        elif prev == "draw" and up in _DECK_INDEX:
            yield f"deck:{up}"
        elif up in _REGION_INDEX:
            r = _REGION_INDEX[up]
            if r == D.EUROPE:
                yield "deck:EU"
            elif prev == "sea":
                yield f"sea:{up}"
            else:
                yield f"track:{up}"
        elif up in _CARD_CODES:
            yield from _card_place(state, p, up)
        elif w in D.BUILDING_INDEX:
            on_mat = _mat_buildings(state, p, w, None)
            if on_mat:
                yield from on_mat
            elif w in {s["code"] for s in _supply(state)}:
                yield f"supply:{w}"
        elif w in D.TOKEN_CODES and D.TOKEN_CODES.index(w) >= 4:
            t = D.TOKEN_CODES.index(w)
            if state.players[p].blue[t - 4]:
                yield f"token:{p}:{w}"
        elif "-" in w and all(x.upper() in _SITE_CODES for x in w.split("-")):
            a, b = (x.upper() for x in w.split("-"))
            yield f"link:{a}-{b}"
        prev = w


def targets_of(state: State, action: A.Action, p: int) -> list[str]:
    """The ids of the elements where ``p`` clicks to take ``action`` (see the module
    docstring); [] when it has no element (it stays reachable from the option list)."""
    verb = action.verb
    words = action.text.split()
    arg = words[-1] if len(words) > 1 else ""
    out: list[str]
    if verb == A.V_START:
        out = [f"supply:{arg}"]
    elif verb == A.V_BUILD:
        out = [f"supply:{arg}"]
    elif verb == A.V_PAY:
        out = _mat_buildings(state, p, arg, True)
    elif verb == A.V_ACT:
        out = _mat_buildings(state, p, arg, False)
    elif verb == A.V_USE:
        out = [f"token:{p}:{arg}"]
    elif verb == A.V_SHIP:
        out = [f"track:{arg}"]
    elif verb == A.V_SEA:
        out = [f"sea:{arg}"]
    elif verb in (A.V_ROUTE, A.V_OCCUPY, A.V_ATTACK):
        out = [_site_target(arg)]
    elif verb == A.V_DRAW:
        out = [f"deck:{arg}"]
    elif verb == A.V_DRAWP:
        out = [f"pile:{arg}"]
    elif verb == A.V_SLOT:
        out = [f"slot:{arg}"] if arg != "none" else ["slot:none"]
    elif verb == A.V_DISCARD:
        out = [f"card:{arg}"]
    elif verb == A.V_CASUALTY:
        out = []
    elif verb == A.V_PASS:
        out = ["pass"]
    elif verb == A.V_DONE:
        out = ["done"]
    else:
        m = _module_of(state, action)
        out = list(dict.fromkeys(_word_targets(state, p, words[1:])))
        if m is not None and m.is_exploit:
            out.append(f"exploit:{m.id}")
    return out


def decision_view(state: State, seats: list[int] | tuple[int, ...] | set[int]) -> JSON | None:
    """The pending decision for a client playing ``seats``: who decides, its kind, the
    prompt, the same in the third person for those who watch (``summary``), and (only
    when that player is one of ``seats``) the options, each with its notation, its
    words, a group label, its click targets, (``rules``, when there are some) the
    rulings its words cite, which are cut out of the words as out of the prompt's, and
    (``effect``, only on the options of a few decisions) what it changes that its words
    do not say: the final score of the last discards, the Harbor discs an activation
    leaves (:mod:`endeavor.web.effects`). None at the end."""
    d = state.decision()
    if d is None:
        return None
    options: list[JSON] = []
    if state.current_player in seats:
        effects = option_effects(state, d)
        for o in d.options:
            text, rules = plain_words(o.text)
            option: JSON = {"action": str(o.action), "text": text,
                            "group": group_of(state, o.action),
                            "targets": targets_of(state, o.action, d.player)}
            if rules:
                option["rules"] = rules
            effect = effects.get(option["action"])
            if effect:
                option["effect"] = effect
            options.append(option)
    return {"player": d.player, "kind": d.kind, "prompt": plain_words(d.prompt)[0],
            "summary": third_person(d.prompt, d.player), "options": options}
