"""Seats' names: the rules a name follows, the names bots get, a seat in words with its
number ("Anna (P1)"), and the line that says who won.

A seat's name is kept in ``seats.name``; ``seats.named`` says it was chosen (by the host
on the New-game form or later, or by the seat's player) rather than given by default:
``P0`` .. ``P4`` for a person's seat, the bot's level for a bot's ("Medium bot", "Medium
bot 2" for a second one). The browser asks the player of a seat not yet named for a
name when they first open its link.

The engine's words name seats ``P0`` .. ``P4``; the web layer shows the names beside
those numbers (the browser draws each as a chip with the seat's colour and shape, the
messages say "Anna (P1)"). Nothing here reads or changes the engine.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final

#: the longest name, in characters (after trimming)
MAX_NAME: Final = 24

#: what a seat's number looks like: reserved, so a name never reads as another seat
_SEAT_NUMBER: Final = re.compile(r"^p\d+$", re.IGNORECASE)

#: the seats' colours and shapes in words, by seat (as the board draws them)
COLOURS: Final = ("red", "blue", "yellow", "green", "purple")
SHAPES: Final = ("circle", "square", "diamond", "hexagon", "pentagon")


def default_name(seat: int) -> str:
    """The name of a seat nobody named: ``P1``."""
    return f"P{seat}"


def bot_name(bot: str, taken: Iterable[str] = ()) -> str:
    """A bot's name by its level, ``Medium bot``, or ``Medium bot 2`` (3, ...) when a
    name in ``taken`` already has it (compared without regard to case)."""
    base = f"{bot[:1].upper()}{bot[1:]} bot"
    used = {t.casefold() for t in taken}
    if base.casefold() not in used:
        return base
    n = 2
    while f"{base} {n}".casefold() in used:
        n += 1
    return f"{base} {n}"


def clean_name(value: object) -> str:
    """A name as typed, checked and trimmed (runs of spaces made one):
    :class:`~endeavor.web.store.BadRequest` in words when it is not a string, empty, longer
    than :data:`MAX_NAME` characters, holds a control character or reads as a seat's
    number (``P2``)."""
    from endeavor.messages import Count

    from .store import BadRequest
    from .view import accountwords as words

    if not isinstance(value, str):
        raise BadRequest.said(words.NAME_TYPE)
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise BadRequest.said(words.NAME_CONTROL, code=f"U+{ord(ch):04X}")
    name = " ".join(value.split())
    if not name:
        raise BadRequest.said(words.NAME_EMPTY)
    if len(name) > MAX_NAME:
        raise BadRequest.said(words.NAME_LONG, most=Count(MAX_NAME, words.CHARACTER),
                              given=len(name))
    if _SEAT_NUMBER.match(name):
        raise BadRequest.said(words.NAME_SEAT, name=name)
    return name


def check_unique(name: str, seat: int, names: Sequence[str]) -> None:
    """:class:`~endeavor.web.store.Conflict` when another seat than ``seat`` already has
    ``name`` (``names``: every seat's name, by seat; compared without regard to case)."""
    from .store import Conflict
    from .view import accountwords as words

    key = name.casefold()
    for other, taken in enumerate(names):
        if other != seat and taken.casefold() == key:
            raise Conflict.said(words.NAME_USED, seat=other, name=taken)


def seat_words(name: str, seat: int) -> str:
    """A seat in words for a message: ``Anna (P1)``, or ``P1`` for a seat not named."""
    return name if name == default_name(seat) else f"{name} ({default_name(seat)})"


def seat_look(seat: int) -> str:
    """A seat's number, colour and shape: ``P1, blue square``."""
    i = seat % len(COLOURS)
    return f"P{seat}, {COLOURS[i]} {SHAPES[i]}"


def result_line(scores: Iterable[tuple[int, int, int]], names: Sequence[str]) -> str:
    """Who won, in one line: ``Anna wins with 71 — Bea 67, Medium bot 62, Cy 51``.
    ``scores``: ``(seat, total, rank)`` (ranks as the rules give them: equal totals
    share a rank); seats that share the first rank share the win (``Anna and Bea share
    the win with 71 — ...``). ``names``: by seat."""
    ordered = sorted(scores, key=lambda x: (x[2], -x[1], x[0]))
    if not ordered:
        return "No scores."

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else default_name(seat)

    best = ordered[0][2]
    winners = [s for s in ordered if s[2] == best]
    rest = [s for s in ordered if s[2] != best]
    if len(winners) == 1:
        head = f"{name(winners[0][0])} wins with {winners[0][1]}"
    else:
        who = [name(s[0]) for s in winners]
        head = f"{', '.join(who[:-1])} and {who[-1]} share the win with {winners[0][1]}"
    if not rest:
        return head
    return f"{head} — " + ", ".join(f"{name(s)} {total}" for s, total, _rank in rest)


__all__ = ["COLOURS", "MAX_NAME", "SHAPES", "bot_name", "check_unique", "clean_name",
           "default_name", "result_line", "seat_look", "seat_words"]
