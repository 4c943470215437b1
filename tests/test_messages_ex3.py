"""The words of three Exploits as messages (The Dutch East India Company, Jesuit
Missionaries, The Spice Trade): in seeded games with each in play, every decision and
option they word is a message that reads, for the seat deciding, as the engine always
said it, in the third person without "you", and in French with no English left."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from endeavor import GameConfig, new_game
from endeavor.decision import Decision
from endeavor.messages import Message
from scenario import SHIPPERS, SHIPPY_BUILDS, exploit_bot

#: each Exploit: the notation of its abilities, its own steps' decision kinds, the bot
#: playing towards it, and the message ids its games must show
CASES = {
    "dutch_east_india_company": (
        "deic ", (), exploit_bot(0.8, prefer_builds=SHIPPY_BUILDS + ("trade-office",), pass_p=0),
        {"dutch_east_india_company.rebuild", "dutch_east_india_company.occupy"}),
    "jesuit_missionaries": (
        "jesuit ", ("jesuit_convert",), exploit_bot(0.8, prefer_builds=SHIPPY_BUILDS, pass_p=0),
        {"jesuit_missionaries.mission", "jesuit_missionaries.move",
         "jesuit_missionaries.convert", "jesuit_missionaries.convert.prompt"}),
    "spice_trade": (
        "spice ", ("spice_trade_stock",),
        exploit_bot(0.8, 0.7, ship_to=("AF", "IN", "FE"), shippers=SHIPPERS, pass_p=0.05),
        {"spice_trade.sea.draw", "spice_trade.stock", "spice_trade.more.prompt"}),
}
#: English left in a French text
NOT_FRENCH = ("{", " the ", " your ", "disc", "Ship", "Occupy", "Attack")


def _ids(m: Message, out: set[str]) -> set[str]:
    """The ids of ``m`` and of every message nested in it."""
    out |= m.ids()
    return out


def _said(what: Message, mine: str, english: str, p: int, where: str) -> set[str]:
    """Check one message of ours; its ids."""
    ids = _ids(what, set())
    assert any(x.startswith(mine + ".") for x in ids), (where, what)
    assert what.render("en", viewer=p) == english, where
    third = what.render("en")
    assert "your" not in third.lower() and "you " not in third.lower(), (where, third)
    for fr in (what.render("fr", viewer=p), what.render("fr")):
        assert not any(w in fr for w in NOT_FRENCH), (where, fr)
    return ids


def _check(d: Decision, mine: str, notation: str, steps: tuple[str, ...]) -> set[str]:
    seen: set[str] = set()
    if d.kind in steps:
        assert d.message is not None, d.prompt
        seen |= _said(d.message, mine, d.prompt, d.player, "prompt")
    for o in d.options:
        if o.action.text.startswith(notation):
            assert o.message is not None, o.text
            seen |= _said(o.message, mine, o.text, d.player, o.action.text)
    return seen


@pytest.mark.parametrize("mine", sorted(CASES))
def test_the_exploits_words_are_messages(mine: str) -> None:
    notation, steps, bot, wanted = CASES[mine]
    seen: Counter[str] = Counter()
    for g in range(12):
        s = new_game(GameConfig(players=3 + g % 3, seed=g, exploits=(mine,)))
        rng = random.Random(1000 + g)
        while not s.is_over:
            d = s.decision()
            assert d is not None
            seen.update(_check(d, mine, notation, steps))
            s.apply_code(bot(s, rng))
        if wanted <= set(seen):
            break
    assert wanted <= set(seen), (wanted - set(seen), seen)
