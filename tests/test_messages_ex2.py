"""The Underground Railroad, Globalisation, the South Sea Company and Letters of Marque
word their decisions and options as messages: the English read by the seat deciding is
the text, the third person speaks of that seat, and the French has no English left."""

from __future__ import annotations

import random

import pytest

from endeavor.decision import Decision, Option
from endeavor.messages import Message
from endeavor.testing import fresh, open_region

#: each Exploit: its actions' notation, its own decisions' kinds, the words that must be
#: seen in its options (their message ids) and prompts
EXPLOITS = {
    "underground_railroad": ("railroad ", (), {
        "underground_railroad.discard", "underground_railroad.freedom"}),
    "globalisation": ("globalisation ", (), {
        "globalisation.attack.draw", "globalisation.swap"}),
    "south_sea_company": ("south-sea ", ("south_sea_share", "south_sea_payment"), {
        "south_sea_company.invest", "south_sea_company.take.top",
        "south_sea_company.take.keep", "south_sea_company.prompt.share",
        "south_sea_company.prompt.payment"}),
    "letters_of_marque": ("marque ", ("letters_of_marque_return", "letters_of_marque_steal"), {
        "letters_of_marque.push", "letters_of_marque.return", "letters_of_marque.steal.level",
        "letters_of_marque.steal.none", "letters_of_marque.prompt.return",
        "letters_of_marque.prompt.steal"}),
}
FRENCH_NEVER = ("{", " the ", " your ", "disc", "Ship", "Occupy", "Attack")


def _ids(m: Message) -> set[str]:
    """``m``'s id and those of the messages nested in it."""
    return m.ids()


def _check(what: Decision | Option, m: Message | None, english: str, p: int) -> set[str]:
    assert m is not None, english
    assert m.render(viewer=p) == english
    third = m.render()
    assert "your" not in third.lower() and "you " not in third.lower(), third
    for fr in (what.render("fr", viewer=p), what.render("fr")):
        assert not any(w in fr for w in FRENCH_NEVER), fr
    return _ids(m)


def _play(exploit: str, seed: int) -> set[str]:
    """A seeded random game with ``exploit`` in play from the first round (its two
    regions opened by every seat in turn: everyone holds a Shield) and its options chosen
    more often; the ids of the messages its decisions and options were worded with."""
    prefix, kinds, _ = EXPLOITS[exploit]
    n = 3 + seed % 3
    s = fresh(n, seed=seed, exploits=(exploit,))
    for r in s.ex[0].regions:
        open_region(s, r, *range(n))
    r = random.Random(seed)
    seen: set[str] = set()
    while not s.is_over:
        d = s.decision()
        assert d is not None
        if d.kind in kinds:
            seen |= _check(d, d.message, d.prompt, d.player)
        mine = [o for o in d.options if o.action.text.startswith(prefix)]
        for o in mine:
            seen |= _check(o, o.message, o.text, d.player)
        pick = mine if mine and r.random() < 0.7 else d.options
        s.apply(pick[r.randrange(len(pick))].action)
    return seen


@pytest.mark.parametrize("exploit", sorted(EXPLOITS))
def test_the_exploits_decisions_and_options_are_messages(exploit: str) -> None:
    wanted = EXPLOITS[exploit][2]
    seen: set[str] = set()
    for seed in range(1, 40):
        seen |= _play(exploit, seed)
        if wanted <= seen and seed >= 3:
            break
    assert wanted <= seen, wanted - seen
