"""The Action phase's decisions as messages: the choice of a source (activate a building,
spend a token, pass), the effect frames (a source's action(s), a "+" second half, a
follow-up) and module steps' own options read in English as the engine always said them,
in the third person for the others, and in French."""

from __future__ import annotations

import random
from typing import Any

import pytest

from endeavor import GameConfig, new_game
from endeavor import actions as A
from endeavor import data as D
from endeavor import testing as T
from endeavor.decision import Decision, Option
from endeavor.messages import Items, Message
from endeavor.rules.sources import ActionChoice, Effect, ModuleStep, push_followup
from endeavor.state import State

CONFIGS: list[dict[str, Any]] = [
    {"players": 4, "seed": 11},
    {"players": 4, "seed": 12, "options": {"plus_same_region": True}},
    # the Dutch East India Company's rebuild offered instead of a normal Draw
    {"players": 3, "seed": 17, "exploits": "random"},
]

#: English words no French text of this area may keep
ENGLISH = (" your ", " the ", "Harbor", "Activate", "token", "Spend", "Pass:", "Done",
           " choose", " or ", "second action", "Not available", " needs ", " turn ")

#: the options this area words itself (the others: an action kind's target, a module's
#: ability, which their own areas word)
OWN_VERBS = (A.V_PASS, A.V_ACT, A.V_USE, A.V_DONE, A.V_PAY)

Seen = list[tuple[Decision, type]]


def _decisions(cfg: dict[str, Any]) -> Seen:
    s = new_game(GameConfig(**cfg))
    r = random.Random(cfg["seed"])
    out: Seen = []
    while not s.is_over:
        d = s.decision()
        assert d is not None
        t = type(s.rules.decisions[s.stack[-1][0]])
        if issubclass(t, (ActionChoice, Effect, ModuleStep)):
            out.append((d, t))
        s.apply(d.options[r.randrange(len(d.options))].action)
    return out


@pytest.fixture(scope="module")
def decisions() -> Seen:
    return [x for cfg in CONFIGS for x in _decisions(cfg)]


def _foreign(v: Any) -> bool:
    """Does a message hold words of another area (a plain string with words in it, not a
    code such as "EU3")?"""
    if isinstance(v, str):
        return " " in v.strip()
    if isinstance(v, Message):
        return any(_foreign(x) for x in v.args.values())
    if isinstance(v, Items):
        return any(_foreign(x) for x in v.items)
    return False


def _ids(v: Any) -> set[str]:
    """The ids of a message and of the messages nested in it."""
    return v.ids() if isinstance(v, Message) else set()


def _check_french(m: Message, viewer: int) -> None:
    for text in (m.render("fr", viewer=viewer), m.render("fr")):
        assert "{" not in text, text
        if not _foreign(m):
            for word in ENGLISH:
                assert word not in text, (word, text)


def _check_third(m: Message, english: str) -> None:
    third = m.render()
    if not _foreign(m):
        assert "your" not in third.lower() and "you " not in third.lower(), third
        assert third != english or m.template.you is None, third


def _own(d: Decision, t: type, o: Option) -> bool:
    if t is ModuleStep:
        return o.action.verb in (A.V_DONE, A.V_PAY)
    return o.action.verb in OWN_VERBS


def test_every_prompt_and_own_option_is_a_message_in_three_voices(decisions: Seen) -> None:
    ids: set[str] = set()
    for d, t in decisions:
        if t is not ModuleStep:  # a module step's prompt is its module's
            m = d.message
            assert m is not None, d.prompt
            ids |= _ids(m)
            assert m.render(viewer=d.player) == d.prompt == d.render(viewer=d.player)
            assert m.subject == d.player or m.template.you is None
            _check_third(m, d.prompt)
            _check_french(m, d.player)
        for o in d.options:
            om = o.message
            if om is None:
                assert not _own(d, t, o), (d.prompt, o.text)
                continue
            ids |= _ids(om)
            assert om.render(viewer=d.player) == o.text == o.render(viewer=d.player)
            if om.template.you is not None:
                assert om.subject == d.player
            _check_third(om, o.text)
            _check_french(om, d.player)
    assert {"sources.prompt", "sources.pass", "sources.activate", "sources.activate.both",
            "sources.activate.choice", "sources.spend", "sources.effect",
            "sources.second.of", "sources.done.decline", "payment.pay",
            "sources.instead", "sources.blocked", "sources.blocked.building",
            "sources.needs.one", "sources.source.token", "sources.where.region",
            "sources.kinds.both"} <= ids, sorted(ids)


def test_the_sources_not_offered_say_why_in_every_voice() -> None:
    s = T.fresh(4)
    T.give_token(s, 0, 6)  # a Payment token, and no worker to pay
    T.ready_to_act(s, 0, 1, "shipyard")
    d = s.decision()
    assert d is not None and d.kind == "action"
    m = d.message
    assert m is not None and m.id == "sources.prompt"
    assert ("Not available: Colonial House (Occupy needs a Harbor disc besides the one "
            "that activates the building, and you have 1); Shipyard (Ship needs a Harbor "
            "disc besides the one that activates the building, and you have 1); Payment token "
            "(Payment needs a worker on a building without the no-payment symbol)") in d.prompt
    third = m.render()
    assert third.startswith("P0's turn in the Action phase: activate a building "
                            "(1 Harbor disc; they have 1), use a token, or pass. Not available")
    assert "the building, and P0 has 1); Payment token" in third
    fr = m.render("fr", viewer=0)
    assert fr.startswith("À vous de jouer (phase d'action) : activez un bâtiment (1 disque du "
                         "port ; vous en avez 1), utilisez un jeton ou passez. Indisponible")
    assert "Chantier naval (L'action Navigation demande un disque du port en plus" in fr
    assert fr.endswith("et vous en avez 1) ; jeton Paiement (Le Paiement demande un ouvrier "
                       "sur un bâtiment sans le symbole d'interdiction de paiement)")
    ana = m.render("fr", seats=lambda p: "Ana")
    assert ana.startswith("Au tour de Ana (phase d'action)")
    assert "et Ana en a 1) ; jeton Paiement" in ana
    _check_french(m, 0)


def test_an_effect_names_its_source_to_everyone() -> None:
    s = T.fresh(4)
    T.ready_to_act(s, 0, 3, "shipyard")
    s.apply("act shipyard")
    d = s.decision()
    assert d is not None and d.kind == "effect"
    m = d.message
    assert m is not None
    assert d.prompt == "Your Shipyard: Ship: choose where (Harbor: 2)"
    assert m.render() == "P0's Shipyard: Ship: P0 chooses where (Harbor: 2)"
    assert m.render("fr", viewer=0) == ("Votre bâtiment Chantier naval : Navigation : "
                                        "choisissez où (port : 2)")
    assert m.render("fr") == ("P0 (bâtiment Chantier naval) : Navigation : P0 choisit où "
                              "(port : 2)")


def test_a_follow_up_in_a_region() -> None:
    s = T.fresh(4)
    T.ready_to_act(s, 0, 3, "shipyard")
    assert push_followup(s, 0, D.SHIP, region=1)
    s = State.from_json(s.to_json())  # the position with its new step, as a client has it
    d = s.decision()
    assert d is not None and d.kind == "follow_up"
    m = d.message
    assert m is not None and m.id == "sources.followup"
    assert d.prompt == "You may now take a normal Ship action in Africa, or done (Harbor: 3)"
    assert m.render() == "P0 may now take a normal Ship action in Africa, or done (Harbor: 3)"
    assert m.render("fr", viewer=0) == ("Vous pouvez maintenant faire une action Navigation "
                                        "normale (région : l'Afrique), ou terminer (port : 3)")
    done = d.option("done")
    assert done.message is not None and done.render("fr") == "Terminer : renoncer à cette action"
