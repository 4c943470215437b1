"""The Silent Fleet's and four Exploits' decisions as messages (The Sun Never Sets, The
Spanish Main, The Haitian Revolution, Imperialism): in seeded random games that reach
them, every prompt and option these modules word is a message that reads, in English for
the seat deciding, exactly as the decision's words; in the third person it speaks of no
"you"; in French it leaves no placeholder and no English word of the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from endeavor import GameConfig, new_game
from endeavor.messages import Items, Message
from scenario import exploit_bot

PREFIXES = ("silent_fleet.", "sun_never_sets.", "spanish_main.", "haitian_revolution.",
            "imperialism.")
FRENCH_FORBIDDEN = (" the ", " your ", "Fleet", "Ship", "Occupy", "Draw")

FLEET = {"silent_fleet": True, "limited_occupation": True, "no_token_reaction": True,
         "building_shortage": True}
#: the Exploits and the tracks their bot ships to (to open their regions and win Shields)
EXPLOITS = {"sun_never_sets": ("IN", "CA"), "spanish_main": ("NA", "SA"),
            "haitian_revolution": ("AF", "CA"), "imperialism": ("FE", "IN")}
GAMES: list[tuple[dict[str, Any], tuple[str, ...]]] = [
    *(({"players": 2, "seed": seed, "options": FLEET}, ()) for seed in (1, 5, 7, 17)),
    *(({"players": 2, "seed": seed, "options": {"silent_fleet": True}}, ())
      for seed in (4, 16)),
    *(({"players": 3 + seed % 3, "seed": seed, "exploits": (ex,)}, to)
      for ex, to in EXPLOITS.items() for seed in (1, 2, 3)),
]


def _ours(w: object) -> bool:
    """Whether words ``w`` are (or hold) a message of one of this area's modules."""
    if isinstance(w, Message):
        return w.id.startswith(PREFIXES) or any(_ours(v) for v in w.args.values())
    if isinstance(w, Items):
        return any(_ours(v) for v in w.items)
    return False


def _check(m: Message, english: str, p: int, where: str) -> None:
    assert m.render(viewer=p) == english, (where, m)
    third = m.render().lower()
    assert "your" not in third and "you " not in third, (where, third)
    for viewer in (p, None):
        fr = m.render("fr", viewer=viewer)
        assert "{" not in fr, (where, fr)
        for word in FRENCH_FORBIDDEN:
            assert word not in fr, (where, word, fr)


def _play(cfg: dict[str, Any], ship_to: tuple[str, ...]) -> set[str]:
    """Play game ``cfg`` with a bot biased towards Exploits and towards shipping to
    ``ship_to`` (and, more often than not, this area's options); check every decision and
    option worded here; return the message ids seen."""
    s = new_game(GameConfig(**cfg))
    r = random.Random(cfg["seed"])
    bot = exploit_bot(0.8, 0.7, ship_to=ship_to, pass_p=0.05)
    seen: set[str] = set()
    while not s.is_over:
        d = s.decision()
        assert d is not None
        if _ours(d.message):
            assert d.message is not None
            seen.add(d.message.id)
            _check(d.message, d.prompt, d.player, "prompt")
        ours = []
        for o in d.options:
            if _ours(o.message):
                assert o.message is not None
                seen.add(o.message.id)
                for v in o.message.args.values():
                    if isinstance(v, Message):
                        seen.add(v.id)
                _check(o.message, o.text, d.player, "option")
                ours.append(o)
        if ours and r.random() < 0.6:
            s.apply(r.choice(ours).action)
        else:
            s.apply_code(bot(s, r))
    return seen


@pytest.fixture(scope="module")
def seen() -> set[str]:
    out: set[str] = set()
    for cfg, ship_to in GAMES:
        out |= _play(cfg, ship_to)
    return out


def test_the_area_s_decisions_are_reached_and_read_right(seen: set[str]) -> None:
    expected = {
        "silent_fleet.prompt.react", "silent_fleet.prompt.ship", "silent_fleet.prompt.occupy",
        "silent_fleet.prompt.draw", "silent_fleet.prompt.shortage", "silent_fleet.react",
        "silent_fleet.react.places", "silent_fleet.react.nothing", "spanish_main.prompt.one",
        "silent_fleet.option.track", "silent_fleet.option.route", "silent_fleet.option.occupy",
        "silent_fleet.option.card", "silent_fleet.option.shortage",
        "sun_never_sets.place", "spanish_main.fortify", "spanish_main.payments.one",
        "haitian_revolution.stack", "haitian_revolution.take", "imperialism.sea",
        "imperialism.claim",
    }
    assert expected <= seen, sorted(expected - seen)
