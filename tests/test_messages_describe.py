"""The rule modules' one-line state summaries (``describe``) are structured messages: read
in English word for word as the engine always said them, and in French with no English
left.

A seeded sweep plays games (a greedy bot, now and then a random move) with each Exploit
and with the Silent Fleet (and its optional rules) and reads every module's summary at
every fifth decision. The English lines
are compared with ``fixtures/describe.json``, recorded from the engine when the summaries
were still English strings (``python tests/test_messages_describe.py --record`` writes it
again: only when an English summary is meant to change)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from endeavor import GameConfig, api, new_game
from endeavor import data as D
from endeavor.bots import GreedyBot
from endeavor.exploits import EXPLOIT_IDS
from endeavor.messages import MESSAGES, Message, msg
from endeavor.state import State
from endeavor.terminal.screen import exploit_lines

FIXTURE = Path(__file__).parent / "fixtures" / "describe.json"

FLEET = {"silent_fleet": True, "limited_occupation": True, "no_token_reaction": True,
         "building_shortage": True}
EVERY = 5

#: the games swept, by the module they are about
GAMES: dict[str, list[dict[str, Any]]] = {
    **{x: [{"players": 2 + g % 4, "seed": 500 + 10 * k + g, "exploits": (x,)}
           for g in range(6)] for k, x in enumerate(EXPLOIT_IDS)},
    "silent_fleet": [
        {"players": 2, "seed": 701, "options": FLEET},
        {"players": 2, "seed": 702, "options": {"silent_fleet": True}},
        {"players": 2, "seed": 703, "options": FLEET, "board": "B"},
        {"players": 2, "seed": 704, "options": {"silent_fleet": True,
                                                "building_shortage": True}},
        {"players": 2, "seed": 705, "options": FLEET, "exploits": "random"},
        {"players": 2, "seed": 706, "options": {"silent_fleet": True,
                                                "limited_occupation": True}},
    ],
}


def _summaries(cfg: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every module's summary (its id and what ``describe`` returns) at every fifth
    decision of one game."""
    s = new_game(GameConfig(**cfg))
    r = random.Random(json.dumps(cfg, sort_keys=True))
    bot = GreedyBot(cfg["seed"])
    out: list[tuple[str, Any]] = []
    step = 0
    while True:
        if step % EVERY == 0 or s.is_over:
            out.extend((m.id, m.describe(s, i)) for i, m in enumerate(s.modules))
        if s.is_over:
            break
        step += 1
        # a greedy bot, with a random move now and then, so that Exploits wake up and
        # the positions vary
        if r.random() < 0.8:
            s.apply(bot.choose(s))
        else:
            s.apply(r.choice(s.legal_actions()))
    return out


def _english(said: Any) -> str:
    return said if isinstance(said, str) else said.render()


def record() -> dict[str, Any]:
    """What the fixture holds, by module swept: how many summaries, a digest of them in
    order, and the distinct lines."""
    out: dict[str, Any] = {}
    for key, games in GAMES.items():
        digest = hashlib.sha256()
        lines: set[str] = set()
        n = 0
        for cfg in games:
            for mid, said in _summaries(cfg):
                text = _english(said)
                digest.update(f"{mid}\t{text}\n".encode())
                lines.add(f"{mid}\t{text}")
                n += 1
        out[key] = {"summaries": n, "digest": digest.hexdigest(), "lines": sorted(lines)}
    return out


@pytest.fixture(scope="module")
def swept() -> dict[str, list[tuple[str, Any]]]:
    return {key: [x for cfg in games for x in _summaries(cfg)] for key, games in GAMES.items()}


def test_the_english_summaries_read_as_they_always_did(
        swept: dict[str, list[tuple[str, Any]]]) -> None:
    want = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert sorted(swept) == sorted(want)
    for key, said in swept.items():
        lines = [f"{mid}\t{_english(x)}" for mid, x in said]
        assert len(lines) == want[key]["summaries"], key
        assert sorted(set(lines) - set(want[key]["lines"])) == [], key
        assert sorted(set(want[key]["lines"]) - set(lines)) == [], key
        digest = hashlib.sha256()
        for line in lines:
            digest.update(f"{line}\n".encode())
        assert digest.hexdigest() == want[key]["digest"], key


def test_every_summary_is_a_message_of_its_module(
        swept: dict[str, list[tuple[str, Any]]]) -> None:
    seen = set()
    for said in swept.values():
        for mid, x in said:
            assert isinstance(x, Message), (mid, x)
            assert all(i.startswith(mid + ".") or i.startswith("list.") for i in x.ids()), x
            seen.add(mid)
    assert seen == {*EXPLOIT_IDS, "silent_fleet"}


class _Plain(api.RuleModule):
    """A module of one's own whose summary is plain English text."""

    def describe(self, s: State, i: int) -> str:
        return f"  round {s.round}:\n  nothing to see "


def test_describe_in_reads_a_message_or_plain_text_on_one_line() -> None:
    s = new_game(GameConfig(players=3, seed=2, exploits=("imperialism",)))
    [imperialism] = s.modules
    assert imperialism.describe_in(s, 0) == "9 Blockades on links; held: none"
    assert imperialism.describe_in(s, 0, "fr") == "Blocus sur les liaisons : 9 ; détenus : aucun"
    assert _Plain().describe_in(s, 0, "fr") == "round 0: nothing to see"


def test_the_terminal_shows_the_summaries_in_its_language() -> None:
    s = new_game(GameConfig(players=2, seed=4, exploits=("imperialism",),
                            options={"silent_fleet": True}))
    en = " ".join(line.plain for line in exploit_lines(s, 200, level=1))
    fr = " ".join(line.plain for line in exploit_lines(s, 200, level=1, lang="fr"))
    assert "9 Blockades on links; held: none" in en and "discs in its supply" in en
    assert "Blocus sur les liaisons : 9 ; détenus : aucun" in fr
    assert "disques dans sa réserve : " in fr and "Blockades" not in fr


#: English words no French summary may keep
ENGLISH = frozenset({
    "on", "the", "tile", "held", "none", "empty", "in", "of", "out", "game", "unclaimed",
    "fortified", "placed", "kept", "map", "tokens", "token", "left", "deck", "card", "cards",
    "abolished", "discs", "disc", "sea", "moved", "between", "decks", "track", "leaders",
    "holders", "stacked", "symbols", "is", "not", "formed", "its", "supply", "board", "and",
    "sent", "buildings", "discarded", "optional", "rules", "bubble", "burst", "has",
    "Blockades", "links", "Galleons", "Improved", "Cannons", "Missionaries", "Shares",
    "Investment", "Track", "Freedom", "Slavery", "Shield", "Haitian", "Republic", "Trade",
    "Governor", "industry", "wealth", "glory", "payment", "payments", "Manila",
})
#: words a summary and its French share rightly: French words spelt the same and names
SAME_IN_FRENCH = frozenset({"Pirate", "Nassau", "Fortifications", "Transit", "Financier",
                            "culture", "influence", "Culture", "Influence", "occupation", "s"})
#: the names of places, printed in English on the board: the same in every language
PLACES = frozenset(w for site in D.SITES for w in re.findall(r"[^\W\d_]+", site.name))


def _words(text: str) -> set[str]:
    """The words of a text but the codes (``AF/3``, ``EU3``, ``P1``: capitals)."""
    return {w for w in re.findall(r"[^\W\d_]+", text) if not w.isupper()}


def _no_english(english: str, fr: str) -> None:
    assert "{" not in fr, fr
    assert fr != english, fr
    words = _words(fr) & ENGLISH
    assert not words, f"{sorted(words)} in {fr!r} ({english!r})"
    kept = _words(fr) & _words(english) - PLACES - SAME_IN_FRENCH
    assert not kept, f"{sorted(kept)} kept in {fr!r} ({english!r})"


def test_the_french_summaries_keep_no_english(
        swept: dict[str, list[tuple[str, Any]]]) -> None:
    seen: set[str] = set()
    for said in swept.values():
        for _, x in said:
            fr = x.render("fr")
            if fr not in seen:
                seen.add(fr)
                _no_english(x.render(), fr)
    assert len(seen) > 300


def test_every_word_of_the_summaries_is_french() -> None:
    """Each message the summaries are made of, the rare ones too (a fortified Batavia, the
    Pirate out of the game, the bubble burst...), reads French with its fields filled."""
    ids = [i for i in MESSAGES if ".describe" in i]
    assert {i.split(".")[0] for i in ids} == {*EXPLOIT_IDS, "silent_fleet"}
    for i in ids:
        fields = {f: "X" for f in MESSAGES[i].fields}
        english, fr = msg(i, **fields).render(), msg(i, **fields).render("fr")
        assert fr.count("X") == english.count("X"), i
        if set(_words(english)) - {"X"}:
            _no_english(english, fr)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_messages_describe.py --record")
    FIXTURE.write_text(json.dumps(record(), indent=1, ensure_ascii=False) + "\n",
                       encoding="utf-8")
    print(f"wrote {FIXTURE}")
