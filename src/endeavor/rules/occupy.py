"""Occupy (R13): a disc from the Harbor onto an unoccupied city in Europe or in an open
region where you have presence (R12: everyone always has presence in Europe); gain the
city's token and any link token you are the first to control."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..data import REGION_STRIDE
from ..frames import FL_NO_PRESENCE
from ..messages import Count, Message, Seat, define, msg
from . import board
from .kinds import (
    NO_HARBOR_DISC,
    NO_PRESENCE,
    NOT_ALLOWED,
    NOT_OPEN,
    OCCUPIED,
    SITE_REGION,
    ActionKind,
    not_on_board,
    target_regions,
)
from .module import M_PIRATE
from .words import (
    AOS_NAMES,
    links_key,
    links_message,
    region_term,
    site_words,
    token_term,
)

if TYPE_CHECKING:
    from ..state import State

_C: Final = A.code
_OCCUPY: Final = A.code(A.V_OCCUPY)
_SITE_GLORY: Final = tuple(site.glory for site in D.SITES)

CITY = define("occupy.city", "Occupy {site}: {glory} at the end{gain}{links}")
GAIN = define("occupy.gain", ", gain {token}")
NO_DISC = define("occupy.unavailable.harbor", "Occupy needs a disc in the Harbor")
NO_CITY = define("occupy.unavailable.city",
                 "no unoccupied city in Europe or in an open region where {seat} has presence",
                 you="no unoccupied city in Europe or in an open region where you have "
                 "presence")


#: the cities' option messages made so far, by city, token and links (words.links_key)
_CITIES: dict[int, Message] = {}


class Occupy(ActionKind):
    kind = D.OCCUPY
    name = "Occupy"

    def possible(self, s: State, p: int, harbor: int) -> bool:
        if harbor < 1:
            return False
        pres = s.region_presence
        base = p * REGION_STRIDE
        fc = s.free_cities
        filled = s.filled
        trk_len = s.info.trk_len
        for r in range(7):
            if fc[r] and (r == 0 or (pres[base + r] and filled[r] == trk_len[r])):
                if not s.ex or s.site_marks.count(0) == len(s.site_marks):  # no marker anywhere
                    return True
                # a marker (the Pirate's city) may leave no free city: ask the targets
                return bool(self.codes(s, p, -1, -1, harbor))
        return False

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        out: list[int] = []
        if harbor < 1:
            return out
        info = s.info
        owner = s.site_owner
        base = p * REGION_STRIDE
        anywhere = flags & FL_NO_PRESENCE
        mark = s.site_marks
        pres = s.region_presence
        filled = s.filled
        trk_len = info.trk_len
        free_cities = s.free_cities
        cities_in = info.cities_in
        for r in target_regions(region, flags):
            if free_cities[r] and (r == 0 or (
                    (anywhere or pres[base + r]) and filled[r] == trk_len[r])):
                for x in cities_in[r]:
                    if owner[x] < 0 and not mark[x] & M_PIRATE:
                        out.append(_OCCUPY | x)
        return out

    def apply(self, s: State, p: int, c: int) -> tuple[int, int]:
        x = c & A.ARG
        s.players[p].harbor -= 1
        board.place(s, p, x)
        return SITE_REGION[x], -1

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        x = c & A.ARG
        if x not in s.info.site_set:
            return not_on_board(s, x)
        if harbor < 1:
            return msg(NO_HARBOR_DISC)
        r = SITE_REGION[x]
        if not s.is_open(r):
            return msg(NOT_OPEN, region=region_term(r, True))
        if s.site_owner[x] >= 0:
            return msg(OCCUPIED, site=site_words(x))
        if s.site_marks[x] & M_PIRATE:
            return msg(PIRATE, site=site_words(x))
        if r and not s.region_presence[p * REGION_STRIDE + r]:
            return msg(NO_PRESENCE, region=region_term(r))
        return msg(NOT_ALLOWED)

    def unavailable(self, s: State, p: int, harbor: int) -> str | Message:
        return self.unavailable_message(s, p, harbor)

    def unavailable_message(self, s: State, p: int, harbor: int) -> Message:
        """:meth:`unavailable` as a message (said to ``p``)."""
        return msg(NO_DISC) if harbor < 1 else msg(NO_CITY, seat=Seat(p))

    def describe_message(self, s: State, p: int, c: int) -> Message:
        """This kind's own :meth:`describe` (a subclass's rewording aside)."""
        return Occupy.describe(self, s, p, c)

    def describe(self, s: State, p: int, c: int) -> Message:
        """What legal code ``c`` does, as a message (no second person: no "your" in
        it)."""
        x = c & A.ARG
        t = s.site_token[x]
        names = s.rules.token_names
        # made once per (city, its token, the links it completes and their tokens), with
        # the Age of Sail's token names
        key = links_key(s, p, x, (1 << 8 | x) << 8 | (t + 1)) \
            if names is AOS_NAMES or names == AOS_NAMES else -1
        m = _CITIES.get(key)
        if m is None:
            gain: Message | str = msg(GAIN, token=token_term(t, names)) if t >= 0 else ""
            m = msg(CITY, site=site_words(x), glory=Count(_SITE_GLORY[x], "glory"),
                    gain=gain, links=links_message(s, p, x))
            if key >= 0:
                _CITIES[key] = m
        return m


# --------------------------------------------------------------------------- refusals
PIRATE: Final = define("occupy.refused.pirate",
                       "the Pirate holds {site}: it can't be Occupied")
