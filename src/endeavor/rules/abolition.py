"""Abolition of Slavery (R17): the first time the Europe 5 card comes into a hand (or an
Exploit says so), every held Slavery card is set aside (its icons lost, -1 glory each at
the end) and the Slavery deck leaves the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import data as D
from .words import word_player

if TYPE_CHECKING:
    from ..state import State

_CARD_DECK: Final = tuple(c.deck for c in D.CARDS)
_CARD_ICONS: Final = tuple(c.icons for c in D.CARDS)


def _abolition_words(lost: tuple[tuple[int, int], ...], left: int) -> str:
    detail = "; ".join(f"{word_player(p)} sets aside {D.CARDS[c].code}" for p, c in lost)
    detail = detail + " (-1 glory each at the end)" if lost else "no Slavery card was held"
    return (f"Slavery is abolished: {detail}; the Slavery deck "
            f"({left} card{'s' if left != 1 else ''}) leaves the game (R17)")


def abolish(s: State) -> None:
    """R17, once: held Slavery cards set aside, the Slavery deck out of the game, then
    the rule modules' ``on_abolish`` hooks."""
    if s.abolished:
        return
    s.abolished = True
    lost: list[tuple[int, int]] = []
    for p, pl in enumerate(s.players):
        keep = []
        for c in pl.cards:
            if _CARD_DECK[c] == D.SLAVERY_DECK:
                pl.aside.append(c)
                icons = _CARD_ICONS[c]
                a = pl.attr
                for k in range(4):
                    a[k] -= icons[k]
                lost.append((p, c))
            else:
                keep.append(c)
        pl.cards = keep
    deck = s.decks[D.SLAVERY_DECK]
    left = len(deck)
    s.removed.extend(deck)
    s.decks[D.SLAVERY_DECK] = []
    s.emit_later("abolition", None, _abolition_words, tuple(lost), left)
    for i, e in s.rules.h_abolish:
        e.on_abolish(s, i)
