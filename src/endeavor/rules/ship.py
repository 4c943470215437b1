"""Ship (R10): to the farthest free space of a closed region's track (gain its token; the
disc that fills the track opens the region, R11), to a free trade route in Europe or an
open region (gain its token), or to the open sea of an open region other than Europe
(no token, any number of discs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..messages import Message, Term, define, msg
from . import board
from .kinds import (
    NO_HARBOR_DISC,
    NOT_ALLOWED,
    OCCUPIED,
    SITE_REGION,
    ActionKind,
    not_on_board,
    target_regions,
)
from .words import region_term, site_words, token_term

if TYPE_CHECKING:
    from ..state import State

_C: Final = A.code
_SHIP: Final = A.code(A.V_SHIP)
_ROUTE: Final = A.code(A.V_ROUTE)
_SEA: Final = A.code(A.V_SEA)
_REGION_NAMES: Final = D.REGION_NAMES
_SHIFT: Final = A.SHIFT
_ARG: Final = A.ARG
_V_SHIP: Final = A.V_SHIP
_V_ROUTE: Final = A.V_ROUTE
#: the message of a Ship option by its code and what the target holds (see describe)
_WORDS: Final[dict[int, Message]] = {}

TRACK = define("ship.track", "Ship to the {region} track, space {space} of {length}{gain}{opens}")
ROUTE = define("ship.route", "Ship to the trade route {site}{gain}")
SEA = define("ship.sea", "Ship to the open sea of {region} (presence there, no token)")
GAIN = define("ship.gain", ": gain {token}")
OPENS = define("ship.opens", "; fills the track and opens {region}")
NO_DISC = define("ship.unavailable", "Ship needs a disc in the Harbor")


class Ship(ActionKind):
    kind = D.SHIP
    name = "Ship"

    def possible(self, s: State, p: int, harbor: int) -> bool:
        return harbor >= 1  # a closed track always has room; else open seas exist

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        out: list[int] = []
        if harbor < 1:
            return out
        info = s.info
        owner = s.site_owner
        filled = s.filled
        trk_len = info.trk_len
        free_routes = s.free_routes
        routes_in = info.routes_in
        for r in target_regions(region, flags):
            if r and filled[r] != trk_len[r]:
                out.append(_SHIP | r)
            else:
                if free_routes[r]:
                    for x in routes_in[r]:
                        if owner[x] < 0:
                            out.append(_ROUTE | x)
                if r:
                    out.append(_SEA | r)
        return out

    def apply(self, s: State, p: int, c: int) -> tuple[int, int]:
        verb = c >> A.SHIFT
        arg = c & A.ARG
        pl = s.players[p]
        if verb == A.V_SHIP:
            board.ship_track(s, p, pl, arg)
            return arg, -1
        pl.harbor -= 1
        if verb == A.V_ROUTE:
            board.place(s, p, arg)
            return SITE_REGION[arg], -1
        board.add_sea(s, p, arg)  # V_SEA
        return arg, -1

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        verb, arg = c >> A.SHIFT, c & A.ARG
        if harbor < 1:
            return msg(NO_HARBOR_DISC)
        r = arg if verb != A.V_ROUTE else SITE_REGION[arg]
        if verb == A.V_SHIP:
            return msg(TRACK_FULL, region=Term("region", D.REGION_NAMES[r]))
        if verb == A.V_ROUTE and arg not in s.info.site_set:
            return not_on_board(s, arg)
        if not s.is_open(r):
            return msg(CLOSED, region=region_term(r, True))
        if verb == A.V_ROUTE and s.site_owner[arg] >= 0:
            return msg(OCCUPIED, site=site_words(arg))
        return msg(NOT_ALLOWED)

    def unavailable(self, s: State, p: int, harbor: int) -> str | Message:
        return self.unavailable_message(s, p, harbor)

    def unavailable_message(self, s: State, p: int, harbor: int) -> Message:
        """:meth:`unavailable` as a message."""
        return msg(NO_DISC)

    def describe(self, s: State, p: int, c: int) -> Message:
        """What legal code ``c`` does, as a message (no second person: no "your" in
        it)."""
        verb, arg = c >> _SHIFT, c & _ARG
        if verb == _V_SHIP:
            k = s.filled[arg]
            info = s.info
            length = info.trk_len[arg]
            t = s.track_token[info.trk_off[arg] + k]
            key = c << 24 | length << 16 | k << 8 | (t + 1)
        elif verb == _V_ROUTE:
            t = s.site_token[arg]
            key = c << 24 | (t + 1)
        else:
            key = c << 24
        m = _WORDS.get(key)  # the message of (target, what it holds): made once
        if m is None:
            m = _WORDS[key] = _describe(c, key)
        return m

    def describe_message(self, s: State, p: int, c: int) -> Message:
        """This kind's own :meth:`describe` (a subclass's rewording aside)."""
        return Ship.describe(self, s, p, c)


def _describe(c: int, key: int) -> Message:
    verb, arg = c >> _SHIFT, c & _ARG
    t = (key & 0xFF) - 1
    gain: Message | str = msg(GAIN, token=token_term(t)) if t >= 0 else ""
    if verb == _V_SHIP:
        k = key >> 8 & 0xFF
        length = key >> 16 & 0xFF
        opens: Message | str = msg(OPENS, region=region_term(arg)) \
            if k + 1 == length else ""
        return msg(TRACK, region=Term("region", _REGION_NAMES[arg]), space=k + 1,
                   length=length, gain=gain, opens=opens)
    if verb == _V_ROUTE:
        return msg(ROUTE, site=site_words(arg), gain=gain)
    return msg(SEA, region=region_term(arg))


# --------------------------------------------------------------------------- refusals
TRACK_FULL: Final = define(
    "ship.refused.full", "the {region} track is full: ship to a trade route or the open sea (R10)")
CLOSED: Final = define("ship.refused.closed", "{region} is not open: ship to its track (R10)")
