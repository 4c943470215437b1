"""Discard phase (R18, P1): card limits, the free Governor slot and discarding.

At most 5 cards in normal slots, and no more than the Card Limit (Influence level) of
them once 1 Slavery card is exempted; the free Governor slot is outside both. A
Discarded Slavery card is set aside (-1 glory), a Governor leaves the game, any other
card goes to the face-up discard pile. In rounds 1-6 an empty free slot takes one of
the player's Governors at once (P1), and a player over the limits who holds Governors in
both kinds of slot first chooses which one sits there, so that any Governor can be the
card discarded (P92); in round 7 the player chooses which Governor (or none) sits
there, since that placement scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..decision import DecisionType, Frame, not_now
from ..frames import F_DISCARD, F_GOVSLOT, PH_DISCARD
from ..messages import Message, Seat, Term, define, msg
from .words import card_message

SLOT = define("event.slot", "{seat} puts {card} in the free Governor slot (P1)",
              you="You put {card} in the free Governor slot (P1)")


def _slot_message(p: int, c: int) -> Message:
    return msg(SLOT, seat=Seat(p), card=D.CARDS[c].code)

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import State

_C: Final = A.code
_CARD_DECK: Final = tuple(c.deck for c in D.CARDS)
_CARD_ICONS: Final = tuple(c.icons for c in D.CARDS)
_GOV: Final = tuple(c.governor for c in D.CARDS)
_LEVEL: Final = D.TRACK_LEVEL
#: the Slavery cards and the Governors
_SLAVERY: Final = frozenset(c for c in range(D.NCARDS) if _CARD_DECK[c] == D.SLAVERY_DECK)
_GOVERNORS: Final = frozenset(c for c in range(D.NCARDS) if _GOV[c])


def held_cards(s: State, p: int) -> list[int]:
    """Cards in normal slots plus the free Governor slot."""
    pl = s.players[p]
    return pl.cards + ([pl.gov] if pl.gov >= 0 else [])


def over_card_limit(s: State, p: int) -> bool:
    """R18: more than 5 cards in normal slots, or more than the Card Limit of them once
    1 Slavery card is exempted."""
    pl = s.players[p]
    cards = pl.cards
    n = len(cards)
    if n > s.rules.max_cards:
        return True
    a = pl.attr[D.INFLUENCE]
    limit = _LEVEL[a] if a < 16 else 5  # pl.level(INFLUENCE), inlined
    if n <= limit:
        return False
    return n - (not _SLAVERY.isdisjoint(cards)) > limit


LIMIT = define("discard.limit", "{track} {value}: limit {limit}")
LIMIT_SLAVERY = define("discard.limit.slavery",
                       "{track} {value}: limit {limit} + 1 Slavery card, at most {most} in all")
PROMPT = define("discard.prompt", "Discard: {seat} discards {k} of {n} cards ({limit})",
                you="Discard {k} of {n} cards ({limit})")
DISCARD = define("discard.discard", "Discard {card}: {where}")
TO_ASIDE = define("discard.to.aside", "set aside: -1 glory at the end (R18)")
TO_OUT = define("discard.to.out", "out of the game")
TO_PILE = define("discard.to.pile", "to the face-up discard pile")
SLOT_PROMPT = define(
    "discard.slot.prompt",
    "Over their card limit: {seat} first chooses which of their Governors sits in the free "
    "Governor slot, outside the limit; the others count against it and can be discarded "
    "({limit})",
    you="Over your card limit: first choose which of your Governors sits in the free "
    "Governor slot, outside the limit; the others count against it and can be discarded "
    "({limit})")
SLOT_PROMPT_LAST = define(
    "discard.slot.prompt.last",
    "The last Discard phase: {seat} chooses the Governor for the free Governor slot, "
    "outside their card limit, or leaves it empty for 3 glory ({limit})",
    you="The last Discard phase: choose the Governor for the free Governor slot, outside "
    "your card limit, or leave it empty for 3 glory ({limit})")
SLOT_EMPTY = define(
    "discard.slot.empty",
    "Leave the Governor slot empty: +3 glory at the end; their Governors count against the "
    "card limit",
    you="Leave the Governor slot empty: +3 glory at the end; your Governors count against "
    "the card limit")
SLOT_KEEP = define(
    "discard.slot.keep",
    "Keep {card} in the free Governor slot, outside the card limit; then discard from their "
    "normal slots",
    you="Keep {card} in the free Governor slot, outside the card limit; then discard from "
    "your normal slots")
SLOT_SWAP = define(
    "discard.slot.swap",
    "Put {card} in the free Governor slot, outside the card limit; {other} moves to a normal "
    "slot, where it can be discarded")
SLOT_PUT = define("discard.slot.put",
                  "Put {card} in the free Governor slot, outside the card limit")


def limit_message(s: State, p: int) -> Message:
    """``"Influence 9: limit 4"`` (the track, as the ruleset names it: the 2009 game's
    ``"Politics 3: limit 2"``; its value, then the limit its level gives), with the
    Slavery exemption if it applies."""
    pl = s.players[p]
    limit = pl.level(D.INFLUENCE)
    slavery = any(_CARD_DECK[c] == D.SLAVERY_DECK for c in pl.cards)
    track = Term("token", s.rules.token_names[D.INFLUENCE])
    value = s.marker(p, D.INFLUENCE)
    if slavery and limit < s.rules.max_cards:
        return msg(LIMIT_SLAVERY, track=track, value=value, limit=limit,
                   most=s.rules.max_cards)
    return msg(LIMIT, track=track, value=value, limit=limit)


def limit_words(s: State, p: int) -> str:
    """:func:`limit_message` in English."""
    return limit_message(s, p).render()


def discard(s: State, p: int, c: int) -> None:
    """R18: ``p`` discards ``c`` from a normal slot: a Slavery card is set aside, a
    Governor leaves the game, any other card goes to the face-up discard pile."""
    pl = s.players[p]
    pl.cards.remove(c)
    pl.changed()
    icons = _CARD_ICONS[c]
    a = pl.attr
    for k in range(4):
        a[k] -= icons[k]
    if _CARD_DECK[c] == D.SLAVERY_DECK:
        pl.aside.append(c)
    elif _GOV[c]:
        s.removed.append(c)
    else:
        s.rules.to_discards(s, c)


def begin(s: State, p: int) -> None:
    """``p``'s Discard step (P1, R18, P92)."""
    pl = s.players[p]
    if s.round == s.rules.rounds and any(_GOV[c] for c in held_cards(s, p)):
        s.stack.append((F_GOVSLOT, p))  # P1: only the last placement can score
        return
    if pl.gov < 0 and not _GOVERNORS.isdisjoint(pl.cards):  # P1: an empty free slot
        for c in pl.cards:  # takes a Governor, never worse
            if _GOV[c]:
                pl.cards.remove(c)
                pl.changed()
                pl.gov = c
                if s.ev is not None:
                    s.emit_later("slot", p, _slot_message, p, c)
                break
    if over_card_limit(s, p):
        if pl.gov >= 0 and not _GOVERNORS.isdisjoint(pl.cards):
            s.stack.append((F_GOVSLOT, p))  # P92: which Governor stays outside the limit
        else:
            s.stack.append((F_DISCARD, p))


#: the discard options' messages made so far, by card
_DISCARDS: dict[int, Message] = {}


class Discard(DecisionType):
    frame = F_DISCARD
    kind = "discard"
    phases = (PH_DISCARD,)

    def codes(self, s: State, f: Frame) -> list[int]:
        return [_C(A.V_DISCARD, c) for c in sorted(s.players[f[1]].cards)]

    def apply(self, s: State, f: Frame, c: int) -> None:
        p = f[1]
        discard(s, p, c & A.ARG)
        if over_card_limit(s, p):
            s.stack.append((F_DISCARD, p))

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        if action.verb != A.V_DISCARD:
            return not_now(action)
        return msg(NOT_HELD, card=D.CARDS[action.arg].code)

    def prompt(self, s: State, f: Frame) -> Message:
        p = f[1]
        pl = s.players[p]
        n = len(pl.cards)
        limit = pl.level(D.INFLUENCE)
        slavery = any(_CARD_DECK[c] == D.SLAVERY_DECK for c in pl.cards)
        keep = min(limit + slavery, s.rules.max_cards)
        return msg(PROMPT, seat=Seat(p), k=n - keep, n=n, limit=limit_message(s, p))

    def option(self, s: State, f: Frame, action: Action) -> Message:
        c = action.arg
        m = _DISCARDS.get(c)  # a card's discard never reads otherwise: made once
        if m is None:
            card = D.CARDS[c]
            if card.deck == D.SLAVERY_DECK:
                where = TO_ASIDE
            elif card.governor:
                where = TO_OUT
            else:
                where = TO_PILE
            m = _DISCARDS[c] = msg(DISCARD, card=card_message(c), where=msg(where))
        return m


class GovernorSlot(DecisionType):
    """P1, round 7: which Governor (or none) sits in the free Governor slot. P92, rounds
    1-6: a player over the card limit who holds Governors in both kinds of slot chooses
    which one sits in the free slot, so that any of them can be discarded (an empty
    slot is not offered: it would only mean one more card to discard, P1)."""

    frame = F_GOVSLOT
    kind = "governor_slot"
    phases = (PH_DISCARD,)

    def codes(self, s: State, f: Frame) -> list[int]:
        govs = sorted(c for c in held_cards(s, f[1]) if _GOV[c])
        if s.round < s.rules.rounds:  # P92
            return [_C(A.V_SLOT, c) for c in govs]
        return [_C(A.V_SLOT, c) for c in govs] + [_C(A.V_SLOT, A.NONE_ARG)]

    def apply(self, s: State, f: Frame, c: int) -> None:
        p = f[1]
        pl = s.players[p]
        arg = c & A.ARG
        if pl.gov >= 0:
            pl.cards.append(pl.gov)
            pl.gov = -1
        if arg != A.NONE_ARG:
            pl.cards.remove(arg)
            pl.gov = arg
        pl.changed()
        if over_card_limit(s, p):
            s.stack.append((F_DISCARD, p))

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        if action.verb != A.V_SLOT:
            return not_now(action)
        if action.arg == A.NONE_ARG:
            return msg(SLOT_STAYS)
        return msg(NO_GOVERNOR, card=D.CARDS[action.arg].code)

    def prompt(self, s: State, f: Frame) -> Message:
        p = f[1]
        if s.round < s.rules.rounds:
            return over_limit_slot_prompt(s, p)
        return msg(SLOT_PROMPT_LAST, seat=Seat(p), limit=limit_message(s, p))

    def option(self, s: State, f: Frame, action: Action) -> Message:
        p = f[1]
        if action.arg == A.NONE_ARG:
            return msg(SLOT_EMPTY, seat=Seat(p))
        card = card_message(action.arg, s.rules.token_names)
        if s.round < s.rules.rounds:  # P92
            gov = s.players[p].gov
            if action.arg == gov:
                return msg(SLOT_KEEP, seat=Seat(p), card=card)
            return msg(SLOT_SWAP, card=card, other=D.CARDS[gov].code)
        return msg(SLOT_PUT, card=card)


def over_limit_slot_prompt(s: State, p: int, id: str = SLOT_PROMPT) -> Message:
    """P92: the question before discarding over the limit with several Governors
    (``id``: its message, which names ``seat`` and ``limit``)."""
    return msg(id, seat=Seat(p), limit=limit_message(s, p))


# --------------------------------------------------------------------------- refusals
NOT_HELD: Final = define("discard.refused.card", "you hold no {card} in a normal card slot")
SLOT_STAYS: Final = define(
    "discard.refused.slot",
    "before the last round the free Governor slot stays filled: emptying it would only mean "
    "one more card to discard (P1, P92)")
NO_GOVERNOR: Final = define("discard.refused.governor", "you hold no Governor {card}")
