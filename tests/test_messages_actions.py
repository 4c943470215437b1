"""The words of the four action kinds' targets (Ship, Occupy, Attack, Draw) and of the
Memorial's casualty as structured messages: read in English by the seat deciding as the
engine always said them, in the third person without "your", and in French without
English left."""

from __future__ import annotations

import random

import pytest

from endeavor import GameConfig, new_game
from endeavor.actions import V_DONE, V_EXPLOIT
from endeavor.messages import Message
from endeavor.rules.attack import Attack
from endeavor.rules.draw import Draw
from endeavor.rules.kinds import VERB_KIND
from endeavor.rules.occupy import Occupy
from endeavor.rules.ship import Ship
from endeavor.state import State

#: the kinds whose words are these messages (a ruleset may word a kind its own way)
KINDS = (Ship, Occupy, Attack, Draw)
MINE = {k.describe for k in KINDS}

CONFIGS = [
    {"players": 2, "seed": 11},
    {"players": 3, "seed": 12, "exploits": "random"},
    {"players": 4, "seed": 13},
    {"players": 5, "seed": 14, "exploits": "random"},
    {"players": 2, "seed": 15, "options": {"silent_fleet": True}},
    {"players": 4, "seed": 16, "exploits": "random"},
    {"players": 3, "seed": 17, "ruleset": "classic"},
]

FRENCH_NEVER = ("{", "Ship to", " the ", "track", "Occupy", "Attack", "Draw", " your ")


def _message(s: State, p: int, o: object) -> Message | None:
    """The message of an effect option worded by the action kinds (None otherwise)."""
    verb = o.action.verb  # type: ignore[attr-defined]
    if verb == V_DONE or verb >= V_EXPLOIT:
        return None
    kind = s.rules.kinds[VERB_KIND[verb]]
    if getattr(type(kind).describe, "__func__", type(kind).describe) not in MINE:
        return None
    m: Message | None = o.message  # type: ignore[attr-defined]
    if m is None:  # the kinds' declared describe returns words: ask for the message
        m = kind.describe_message(s, p, o.action.code)  # type: ignore[attr-defined]
    return m


def _check(m: Message, text: str, p: int) -> None:
    assert m.render(viewer=p) == text, (m, text)
    third = m.render()
    assert "your" not in third.lower() and "you " not in third.lower(), third
    for fr in (m.render("fr", viewer=p), m.render("fr")):
        for bad in FRENCH_NEVER:
            assert bad not in fr, (bad, fr, m)


@pytest.fixture(scope="module")
def seen() -> dict[str, int]:
    counts: dict[str, int] = {}
    for cfg in CONFIGS:
        s = new_game(GameConfig(**cfg))  # type: ignore[arg-type]
        r = random.Random(cfg["seed"])
        while not s.is_over:
            d = s.decision()
            assert d is not None
            p = d.player
            if d.kind == "effect":
                for o in d.options:
                    m = _message(s, p, o)
                    if m is None:
                        continue
                    if o.message is not None:
                        assert o.message == m
                    _check(m, o.text, p)
                    counts[m.id] = counts.get(m.id, 0) + 1
            elif d.kind == "casualty":
                assert d.message is not None
                _check(d.message, d.prompt, p)
                for o in d.options:
                    assert o.message is not None
                    _check(o.message, o.text, p)
                    counts[o.message.id] = counts.get(o.message.id, 0) + 1
            s.apply(d.options[r.randrange(len(d.options))].action)
    return counts


def test_every_target_of_the_four_kinds_reads_as_its_words(seen: dict[str, int]) -> None:
    assert {"ship.track", "ship.route", "ship.sea", "occupy.city", "attack.city",
            "draw.deck"} <= set(seen), seen
