"""The words of prompts and events: ruling ids taken out (:func:`plain_words`), the
second person of a prompt for the seat to move (:func:`pronouns`) and the third person
for the others (:func:`third_person`)."""

from __future__ import annotations

import re
from typing import Final

from ...messages import Seat, define, msg
from ...rules.words import word_player as player_name

#: the web's own sentences around the engine's (their French in
#: ``endeavor/locale/fr/parts/web.po``)
CHOICE: Final = define("web.choice", "{text} ({seat}'s choice)")


def choice_words(text: str, chooser: int, locale: str) -> str:
    """A Silent Fleet's log line with who chose its reaction: ``"... (P1's choice)"``."""
    return msg(CHOICE, text=text, seat=Seat(chooser)).render(locale)


_RULE_IDS: Final = re.compile(r"\s*\((R\d+(?:\s*,\s*R\d+)*)\)")


def plain_words(text: str) -> tuple[str, list[str]]:
    """An engine text for players: one line, without the ruling ids it cites (returned
    apart, for a tooltip): ``"... the track (R16)"`` -> ``("... the track", ["R16"])``."""
    rules: list[str] = []

    def cut(m: re.Match[str]) -> str:
        rules.extend(r.strip() for r in m.group(1).split(","))
        return ""

    return " ".join(_RULE_IDS.sub(cut, text).split()), rules


_SECOND_PERSON: Final = (
    (re.compile(r"^Your turn\b"), "{p}'s turn"), (re.compile(r"^You passed\b"), "{p} passed"),
    (re.compile(r"^Your\b"), "{p}'s"), (re.compile(r"\byou have\b"), "they have"),
    (re.compile(r"\byour\b"), "their"), (re.compile(r"\bYour\b"), "Their"),
    (re.compile(r"\byou\b"), "they"), (re.compile(r"\bYou\b"), "They"),
)


_PRONOUNS: Final = (
    (re.compile(r"\byourself\b"), "themselves"), (re.compile(r"\byours\b"), "theirs"),
    (re.compile(r"\byour\b"), "their"), (re.compile(r"\bYour\b"), "Their"),
    (re.compile(r"\byou\b"), "they"), (re.compile(r"\bYou\b"), "They"),
)


def pronouns(text: str) -> str:
    """An engine text said to the player who acts, as the log says it to everyone:
    ``P2: Activate your Shipyard ...`` -> ``P2: Activate their Shipyard ...``."""
    for pattern, word in _PRONOUNS:
        text = pattern.sub(word, text)
    return text


def third_person(prompt: str, player: int) -> str:
    """A decision's prompt as those who watch read it: ``P1 to move: ...``, with its
    second person turned into the third (``Your turn in the Action phase: ... (1 Harbor
    disc; you have 7)`` -> ``P1 to move: P1's turn in the Action phase: ... (1 Harbor
    disc; they have 7)``), without ruling ids."""
    name = player_name(player)
    text, _ = plain_words(prompt)
    for pattern, words in _SECOND_PERSON:
        text = pattern.sub(words.format(p=name), text)
    return f"{name} to move: {text}"
