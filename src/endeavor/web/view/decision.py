"""The pending decision as JSON (:func:`decision_view`): each option with its group and the
ids of the elements it is clicked on (the engine's ``Option.targets``), its prompt in the
second or third person."""

from __future__ import annotations

from typing import Final

from ... import actions as A
from ...messages import term
from ...rules.module import RuleModule
from ...state import State
from ...targets import targets
from ..effects import option_effects
from .pieces import JSON, term_words
from .words import plain_words

#: a short label per verb, for grouping the options in a menu
VERB_GROUPS: Final[dict[int, str]] = {
    A.V_START: "Start tile", A.V_BUILD: "Build", A.V_PAY: "Pay", A.V_ACT: "Activate",
    A.V_USE: "Use token", A.V_SHIP: "Ship", A.V_ROUTE: "Ship", A.V_SEA: "Ship",
    A.V_OCCUPY: "Occupy", A.V_ATTACK: "Attack", A.V_DRAW: "Draw", A.V_DRAWP: "Draw",
    A.V_CASUALTY: "Casualty", A.V_SLOT: "Governor slot", A.V_DISCARD: "Discard",
    A.V_DONE: "Done", A.V_PASS: "Pass",
}


def _module_of(state: State, action: A.Action) -> RuleModule | None:
    for m in state.modules:
        if m.owns(action.code):
            return m
    return None


#: the groups' labels in other languages: terms of kind ``option_group`` (terms.po)
term("option_group", *dict.fromkeys(VERB_GROUPS.values()), "Other", "Building shortage")


def group_of(state: State, action: A.Action, locale: str = "en") -> str:
    """A short label for the option's verb: Build, Activate, Use token, Ship, ..., or
    the name of the Exploit (or variant) whose action it is; in ``locale``."""
    label = VERB_GROUPS.get(action.verb)
    if label is not None:
        return term_words("option_group", label, locale)
    m = _module_of(state, action)
    if m is None:
        return term_words("option_group", "Other", locale)
    if m.id == "silent_fleet":
        if action.text.startswith("shortage"):
            return term_words("option_group", "Building shortage", locale)
        return term_words("module", m.name, locale)
    return term_words("exploit", m.name, locale)


def targets_of(state: State, action: A.Action, p: int) -> list[str]:
    """The ids of the elements where ``p`` clicks to take ``action``: the engine's
    (:func:`endeavor.targets.targets`); [] when it has none (it stays reachable from
    the option list)."""
    return list(targets(state, action, p))


def decision_view(state: State, seats: list[int] | tuple[int, ...] | set[int],
                  locale: str = "en") -> JSON | None:
    """The pending decision for a client playing ``seats``: who decides, its kind, the
    prompt, the same in the third person for those who watch (``summary``), the
    prompt's message (id and arguments: ``Message.to_dict()``), and (only
    when that player is one of ``seats``) the options, each with its notation, its
    words, its message (id and arguments, language-neutral: ``Message.to_dict()``; null for a
    rule module's words only), a
    group label, its click targets, (``rules``, when there are some) the
    rulings its words cite, which are cut out of the words as out of the prompt's, and
    (``effect``, only on the options of a few decisions) what it changes that its words
    do not say: the final score of the last discards, the Harbor discs an activation
    leaves (:mod:`endeavor.web.effects`). Words in ``locale`` (the engine's messages;
    a rule module's words only stay English). None at the end."""
    d = state.decision()
    if d is None:
        return None
    options: list[JSON] = []
    if state.current_player in seats:
        effects = option_effects(state, d, locale)
        for o in d.options:
            text, rules = plain_words(o.render(locale, viewer=d.player))
            option: JSON = {"action": str(o.action), "text": text,
                            "message": None if o.message is None else o.message.to_dict(),
                            "group": group_of(state, o.action, locale),
                            "targets": list(o.targets)}
            if rules:
                option["rules"] = rules
            effect = effects.get(option["action"])
            if effect:
                option["effect"] = effect
            options.append(option)
    summary = plain_words(d.render(locale))[0]
    return {"player": d.player, "kind": d.kind,
            "prompt": plain_words(d.render(locale, viewer=d.player))[0],
            "summary": summary,
            "message": None if d.message is None else d.message.to_dict(),
            "options": options}
