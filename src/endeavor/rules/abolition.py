"""Abolition of Slavery (R17): the first time the Europe 5 card comes into a hand (or an
Exploit says so), every held Slavery card is set aside (its icons lost, -1 glory each at
the end) and the Slavery deck leaves the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import data as D
from ..messages import SEMICOLON, Count, Items, Message, Seat, define, msg

if TYPE_CHECKING:
    from ..state import State

_CARD_DECK: Final = tuple(c.deck for c in D.CARDS)
_CARD_ICONS: Final = tuple(c.icons for c in D.CARDS)


ABOLISHED = define("event.abolition",
                   "Slavery is abolished: {lost} (-1 glory each at the end); the Slavery deck "
                   "({cards}) leaves the game (R17)")
ABOLISHED_NONE = define("event.abolition.none",
                        "Slavery is abolished: no Slavery card was held; the Slavery deck "
                        "({cards}) leaves the game (R17)")
ASIDE = define("event.abolition.aside", "{seat} sets aside {card}")


def _abolition_message(lost: list[tuple[int, int]], left: int) -> Message:
    cards = Count(left, "card")
    if not lost:
        return msg(ABOLISHED_NONE, cards=cards)
    return msg(ABOLISHED, cards=cards, lost=Items(tuple(
        msg(ASIDE, seat=Seat(p), card=D.CARDS[c].code) for p, c in lost), SEMICOLON))


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
        pl.changed()
    deck = s.decks[D.SLAVERY_DECK]
    left = len(deck)
    s.removed.extend(deck)
    s.decks[D.SLAVERY_DECK] = []
    if s.ev is not None:
        s.emit("abolition", None, _abolition_message(lost, left))
    for i, e in s.rules.h_abolish:
        e.on_abolish(s, i)
