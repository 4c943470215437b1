"""Structured messages of four Exploits (Manila Galleons, The Transit of Venus, Saltpeter
Stockpiles, The Republic of Pirates): in seeded games where each is in play, every prompt
and option they word is a message that reads, in English for the seat deciding, as the
engine's words; its third person speaks of no "you"; its French is complete."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from endeavor import GameConfig, State, new_game
from endeavor import actions as A
from endeavor.decision import Decision
from endeavor.messages import MESSAGES, Message, catalog
from scenario import by_frame, exploit_bot

MINE = ("manila_galleons", "transit_of_venus", "saltpeter_stockpiles", "republic_of_pirates")
#: the module steps these Exploits word (``step_kind``)
STEPS = {"manila_swap_give", "manila_swap_take", "manila_galleon", "transit_of_venus_payment"}
#: never in a French text: English left over
NOT_FRENCH = (" the ", " your ", "disc", "Ship", "Occupy", "Attack")
SEEDS = range(12)
#: messages every Exploit's games must show (the rarer branches are read in
#: ``test_every_message_has_french_without_english``)
SEEN = {
    "manila_galleons": {"manila_galleons.move", "manila_galleons.move.swap",
                        "manila_galleons.move.galleon", "manila_galleons.give",
                        "manila_galleons.take", "manila_galleons.track_space",
                        "manila_galleons.link", "manila_galleons.prompt.give",
                        "manila_galleons.prompt.take", "manila_galleons.prompt.galleon",
                        "manila_galleons.gain_disc"},
    "transit_of_venus": {"transit_of_venus.space", "transit_of_venus.finance",
                         "transit_of_venus.finance.discs", "transit_of_venus.finance.payments",
                         "transit_of_venus.prompt.payment"},
    "saltpeter_stockpiles": {"saltpeter_stockpiles.attack.store",
                             "saltpeter_stockpiles.attack.disc", "saltpeter_stockpiles.take",
                             "saltpeter_stockpiles.cannon"},
    "republic_of_pirates": {"republic_of_pirates.claim", "republic_of_pirates.nassau.moved",
                            "republic_of_pirates.hit.disc", "republic_of_pirates.hit.token",
                            "republic_of_pirates.governor"},
}
_SALTPETER_BOT = exploit_bot(0.9, 0, prefer=[(by_frame(
    builds=("barracks", "fortress", "market", "memorial", "shipyard", "docks", "cartographer"),
    effect=(A.V_SHIP, A.V_ATTACK)), 0.8)], pass_p=0)


def _ids(m: Message, out: set[str]) -> set[str]:
    """The ids of ``m`` and of the messages nested in it."""
    out |= m.ids()
    return out


def _check(d: Decision, m: Message | None, english: str) -> set[str]:
    """One prompt or option worded by these Exploits: a message of theirs, its English
    for the decider ``english``, its third person and French clean. Returns its ids."""
    assert m is not None, english
    ids = _ids(m, set())
    assert any(i.startswith(MINE) for i in ids), (english, m)
    assert m.render(viewer=d.player) == english
    for viewer in (None, (d.player + 1) % 3):
        third = m.render(viewer=viewer)
        assert "your" not in third.lower() and "you " not in third.lower(), third
    for viewer in (d.player, None):
        fr = m.render("fr", viewer=viewer)
        assert "{" not in fr, fr
        assert not [w for w in NOT_FRENCH if w in fr], fr
    return ids


def _play(exploit: str, seed: int) -> Counter[str]:
    s: State = new_game(GameConfig(players=3 + seed % 3, exploits=(exploit,), seed=seed))
    rng = random.Random(seed)
    bot = _SALTPETER_BOT if exploit == "saltpeter_stockpiles" else exploit_bot()
    seen: Counter[str] = Counter()
    while not s.is_over:
        d = s.decision()
        assert d is not None
        mine = [e for e in s.ex if e.id in MINE]
        if d.kind in STEPS:
            seen.update(_check(d, d.message, d.prompt))
        for o in d.options:
            if any(e.owns(o.action.code) for e in mine):
                seen.update(_check(d, o.message, o.text))
        s.apply_code(bot(s, rng))
    return seen


@pytest.mark.parametrize("exploit", MINE)
def test_prompts_and_options_are_messages(exploit: str) -> None:
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        seen.update(_play(exploit, seed))
    assert SEEN[exploit] <= set(seen), SEEN[exploit] - set(seen)


def test_every_message_has_french_without_english() -> None:
    fr = catalog("fr")
    ids = [i for i in MESSAGES if i.startswith(MINE)]
    assert {i.split(".")[0] for i in ids} == set(MINE)
    for i in ids:
        t = MESSAGES[i]
        assert "your" not in t.text.lower() and "you " not in t.text.lower(), i
        forms = [(i, t.text)] + ([(i + "/you", t.you)] if t.you is not None else [])
        for ctx, english in forms:
            text = fr.pgettext(ctx, english)
            words = re.sub(r"\{[^}]*\}", "", english)
            assert text != english or not any(c.isalpha() for c in words), (ctx, text)
            bare = re.sub(r"\{[^}]*\}", "", text)  # its placeholders are no French words
            assert not [w for w in NOT_FRENCH if w in bare], (ctx, text)
