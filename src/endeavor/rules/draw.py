"""Draw (R14, R16): the top card of a deck, or any card of the face-up discard pile,
when your presence meets its Draw Value. :func:`presence` is the one place presence for
a Draw is counted; :func:`gain_card` the one place a card joins a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..data import REGION_STRIDE
from ..messages import Message, Seat, Term, define, msg
from .abolition import abolish
from .kinds import ActionKind
from .words import AOS_NAMES, card_message, left_message, region_term

if TYPE_CHECKING:
    from ..state import State

_C: Final = A.code
_CARD_VALUE: Final = tuple(c.value for c in D.CARDS)
_CARD_ICONS: Final = tuple(c.icons for c in D.CARDS)
_EU: Final = D.EU_DECK
_SL: Final = D.SLAVERY_DECK
_PILE: Final = D.PILE
_DECK_NAMES: Final = D.DECK_NAMES
#: the message of a Draw option by (code << 8 | top card) << 8 | deck size (Age of Sail)
_WORDS: Final[dict[int, Message]] = {}
_DRAW: Final = A.code(A.V_DRAW)
_DRAWP: Final = A.code(A.V_DRAWP)
#: the decks 0-7; the region decks 1-6, whose Draws count the region's discs and the
#: modules' Draw bonuses (the Europe and Slavery decks count Europe's discs, P14)
_ALL_DECKS: Final = tuple(range(8))
_REGION_DECKS: Final = tuple(d for d in _ALL_DECKS if d not in (_EU, _SL))
_DECK_BONUS: Final = tuple(d in _REGION_DECKS for d in _ALL_DECKS)


def draw_bonus(s: State, p: int) -> int:
    """Extra presence for Draws in every region from the rule modules (P14)."""
    n = 0
    for i, e in s.rules.h_draw_bonus:
        n += e.draw_bonus(s, i, p)
    return n


def presence(s: State, p: int, deck: int, bonus: int = -1) -> int:
    """Presence ``p`` counts to Draw from ``deck`` (R14): discs in that region with the
    modules' Draw bonuses (``bonus``, computed if < 0); the Europe and Slavery decks and
    the discard pile count Europe's discs alone (P14)."""
    if deck == _EU or deck == _SL or deck == _PILE:
        return s.region_presence[p * REGION_STRIDE]
    if bonus < 0:
        bonus = draw_bonus(s, p)
    return s.region_presence[p * REGION_STRIDE + deck] + bonus


BONUS = define("event.bonus",
               "{seat} gains 1 disc from the supply for the value-1 card {card} (R16)",
               you="You gain 1 disc from the supply for the value-1 card {card} (R16)")
DECK = define("draw.deck", "Draw {card} from the {deck} deck ({left})")
PILE = define("draw.pile", "Draw {card} from the discard pile")
NO_CARD = define("draw.unavailable",
                 "no card within {seat}'s presence (Draw Value above their discs there)",
                 you="no card within your presence (Draw Value above your discs there)")


def _bonus_message(p: int, c: int) -> Message:
    return msg(BONUS, seat=Seat(p), card=D.CARDS[c].code)


def gain_card(s: State, p: int, c: int, bonus_ok: bool) -> None:
    """Card ``c`` joins ``p``'s normal slots: its icons raise the tracks; a region
    value-1 card gives a disc from the supply (R16) when ``bonus_ok``; the Europe 5 card
    abolishes Slavery the first time it comes into a hand (R17)."""
    pl = s.players[p]
    pl.cards.append(c)
    pl.changed()
    icons = _CARD_ICONS[c]
    a = pl.attr
    for k in range(4):
        if icons[k]:
            a[k] += icons[k]
    card = D.CARDS[c]
    if bonus_ok and pl.supply and s.rules.card_bonus[c]:  # R16
        pl.supply -= 1
        pl.harbor += 1
        if s.ev is not None:
            s.emit_later("bonus", p, _bonus_message, p, c)
    if card.abolition and not s.abolished:
        abolish(s)


class Draw(ActionKind):
    kind = D.DRAW
    name = "Draw"

    def possible(self, s: State, p: int, harbor: int) -> bool:
        pres = s.region_presence
        base = p * REGION_STRIDE
        value = _CARD_VALUE
        decks = s.decks
        eu = pres[base]  # presence(s, p, d, bonus) for each deck, inlined (R14, P14)
        dk = decks[_EU]
        if dk and value[dk[-1]] <= eu:
            return True
        bonus = draw_bonus(s, p) if s.rules.h_draw_bonus else 0
        for d in _REGION_DECKS:
            dk = decks[d]
            if dk and value[dk[-1]] <= pres[base + d] + bonus:
                return True
        dk = decks[_SL]
        if dk and value[dk[-1]] <= eu:
            return True
        for c in s.pile:
            if value[c] <= eu:
                return True
        return False

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        out: list[int] = []
        pres = s.region_presence
        base = p * REGION_STRIDE
        value = _CARD_VALUE
        eu = pres[base]
        if deck != _PILE:
            decks = s.decks
            bonus = draw_bonus(s, p) if s.rules.h_draw_bonus else 0
            # presence(s, p, d, bonus) for each deck, inlined (R14, P14), in deck order
            for d in (_ALL_DECKS if deck < 0 else (deck,)):
                dk = decks[d]
                if dk and value[dk[-1]] <= (pres[base + d] + bonus if _DECK_BONUS[d] else eu):
                    out.append(_DRAW | d)
        if deck < 0 or deck == _PILE:
            for c in s.pile:
                if value[c] <= eu:
                    out.append(_DRAWP | c)
        return out

    def apply(self, s: State, p: int, c: int) -> tuple[int, int]:
        arg = c & A.ARG
        if c >> A.SHIFT == A.V_DRAW:
            gain_card(s, p, s.decks[arg].pop(), True)
            return -1, arg
        s.pile.remove(arg)
        gain_card(s, p, arg, s.rules.discard_pile_bonus)  # R16
        return -1, _PILE

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        arg = c & A.ARG
        if c >> A.SHIFT == A.V_DRAWP:
            code = D.CARDS[arg].code
            if arg not in s.pile:
                return msg(NOT_IN_PILE, card=code)
            return msg(PILE_PRESENCE, presence=presence(s, p, _PILE),
                       value=_CARD_VALUE[arg], card=code)
        dk = s.decks[arg]
        if not dk:
            return msg(EMPTY, deck=Term("deck", D.DECK_NAMES[arg]))
        r = 0 if arg == _SL else arg
        return msg(DECK_PRESENCE, region=region_term(r), presence=presence(s, p, arg),
                   value=_CARD_VALUE[dk[-1]])

    def unavailable(self, s: State, p: int, harbor: int) -> str | Message:
        return self.unavailable_message(s, p, harbor)

    def unavailable_message(self, s: State, p: int, harbor: int) -> Message:
        """:meth:`unavailable` as a message (said to ``p``)."""
        return msg(NO_CARD, seat=Seat(p))

    def describe_message(self, s: State, p: int, c: int) -> Message:
        """This kind's own :meth:`describe` (a subclass's rewording aside)."""
        return Draw.describe(self, s, p, c)

    def describe(self, s: State, p: int, c: int) -> Message:
        """What legal code ``c`` does, as a message (no second person: no "your" in
        it)."""
        arg = c & A.ARG
        if c >> A.SHIFT == A.V_DRAW:
            deck = s.decks[arg]
            names = s.rules.token_names
            key = (c << 8 | deck[-1]) << 8 | len(deck)
            aos = names is AOS_NAMES or names == AOS_NAMES
            m = _WORDS.get(key) if aos else None
            if m is None:
                m = msg(DECK, card=card_message(deck[-1], names),
                        deck=Term("deck", _DECK_NAMES[arg]), left=left_message(len(deck)))
                if aos:  # made once for (deck, top card, size)
                    _WORDS[key] = m
            return m
        return msg(PILE, card=card_message(arg, s.rules.token_names))


# --------------------------------------------------------------------------- refusals
NOT_IN_PILE: Final = define("draw.refused.pile", "{card} is not in the discard pile")
PILE_PRESENCE: Final = define(
    "draw.refused.pile.presence",
    "your presence in Europe is {presence}, below the Draw Value {value} of {card} (R14)")
EMPTY: Final = define("draw.refused.empty", "the {deck} deck is empty")
DECK_PRESENCE: Final = define(
    "draw.refused.presence",
    "your presence in {region} is {presence}, below the Draw Value {value} of the top card "
    "(R14)")
