"""Attack (R9, R13): an opponent's disc on a city (or, Age of Sail, a trade route) in
Europe or an open region where you have presence. The attacker loses casualties from
the Harbor to the supply (:func:`cost`: 1, 2 if fortified, fewer under Exploit rules),
the defender's disc returns to its supply, then a Harbor disc occupies the site.

A Memorial owner decides where each of its casualties goes (P7): the
:class:`Casualty` decision, the attacker's first, then the defender's (out of turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..data import REGION_STRIDE
from ..decision import DecisionType, Frame, not_now
from ..frames import F_CASUALTY, PH_ACTIONS
from ..messages import Count, Message, Seat, Term, define, msg, noun
from . import board
from .kinds import (
    NO_PRESENCE,
    NOT_ALLOWED,
    NOT_OPEN,
    SITE_REGION,
    ActionKind,
    not_on_board,
    target_regions,
)
from .module import M_FORTIFIED, M_NO_ATTACK, M_PIRATE
from .words import (
    AOS_NAMES,
    links_key,
    links_message,
    owner_arg,
    region_term,
    site_words,
)

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import State

_C: Final = A.code
_ATTACK: Final = A.code(A.V_ATTACK)
_SITE_GLORY: Final = tuple(site.glory for site in D.SITES)
_SITE_CITY: Final = tuple(site.city for site in D.SITES)
#: the Attack options' messages made so far (see Attack.describe)
_ATTACKS: Final[dict[int, Message]] = {}

CITY = define("attack.city",
              "Attack the {site} held by {owner}: {lost} + 1 disc to occupy, {glory} at the "
              "end{links}")
ROUTE = define("attack.route",
               "Attack the trade route {site} held by {owner}: {lost} + 1 disc to occupy, "
               "{glory} at the end{links}")
NO_CASUALTY = define("attack.casualties.none", "no casualty")
ONE_CASUALTY = define("attack.casualties.one", "{n} casualty")
CASUALTIES = define("attack.casualties.many", "{n} casualties")
NO_DISCS = define("attack.unavailable.harbor",
                  "Attack needs 2 Harbor discs (1 casualty + 1 to occupy)")
NO_TARGET = define("attack.unavailable.target",
                   "no opponent disc to attack in Europe or in an open region where {seat} "
                   "has presence",
                   you="no opponent disc to attack in Europe or in an open region where you "
                   "have presence")
MEMORIAL = define(
    "attack.memorial.prompt",
    "Memorial: {seat} places a casualty in their supply or at the base of a track, where it "
    "counts as a Trade token of that attribute",
    you="Your Memorial: place a casualty in your supply or at the base of a track, where it "
    "counts as a Trade token of that attribute")
MEMORIAL_SUPPLY = define("attack.memorial.supply", "Back to their supply",
                         you="Back to your supply")
MEMORIAL_TRACK = define("attack.memorial.track",
                        "At the base of their {attribute} track: {attribute} {before} -> {after}",
                        you="At the base of your {attribute} track: {attribute} {before} -> "
                        "{after}")


def cost(s: State, p: int, x: int) -> int:
    """The casualties ``p`` suffers attacking site ``x``: 1, 2 if fortified; Exploit
    rules may lower it, never raise it (legality tests rely on that). The one place
    the Attack cost is computed."""
    c = 2 if s.site_marks[x] & M_FORTIFIED else 1
    for i, e in s.rules.h_attack_cost:
        c = e.attack_cost(s, i, p, x, c)
    return c


def attack(s: State, p: int, x: int, casualties: int = -1) -> None:
    """Resolve an Attack of ``p`` on site ``x``: ``casualties`` Harbor discs (default
    :func:`cost`) to the supply, the defender's disc to its supply, then a Harbor disc
    occupies ``x``. Memorial owners then place their casualties (P7)."""
    if casualties < 0:
        casualties = cost(s, p, x) if s.rules.h_attack_cost or s.site_marks[x] else 1
    pl = s.players[p]
    pl.harbor -= casualties + 1
    pl.supply += casualties
    for i, e in s.rules.h_site_attacked:
        e.on_site_attacked(s, i, x)
    q = board.remove(s, x)
    board.place(s, p, x)
    stack = s.stack
    if q < s.n and D.B_MEMORIAL in s.players[q].buildings:
        stack.append((F_CASUALTY, q))
    if D.B_MEMORIAL in pl.buildings:
        stack.extend([(F_CASUALTY, p)] * casualties)


def casualty(s: State, p: int) -> None:
    """A disc of ``p`` (already taken from where it was) is lost as a casualty: it goes
    to the supply, and a Memorial owner then decides where it goes (P7)."""
    s.players[p].supply += 1
    if D.B_MEMORIAL in s.players[p].buildings:
        s.stack.append((F_CASUALTY, p))


class Attack(ActionKind):
    kind = D.ATTACK
    name = "Attack"

    def possible(self, s: State, p: int, harbor: int) -> bool:
        if harbor < 2:  # 1 disc is enough only if an Exploit waives the casualty (P29)
            return (harbor == 1 and bool(s.rules.h_attack_cost)
                    and bool(self.codes(s, p, -1, -1, 1)))
        pres = s.region_presence
        own = s.owned_sites
        occs = s.occupied_sites
        base = p * REGION_STRIDE
        filled = s.filled
        trk_len = s.info.trk_len
        for r in range(7):
            if occs[r] > own[base + r] and (
                    r == 0 or (pres[base + r] and filled[r] == trk_len[r])):
                if not s.ex or s.site_marks.count(0) == len(s.site_marks):  # no marker anywhere
                    return True
                # markers (Missionaries, the Pirate, fortifications): ask the targets
                return bool(self.codes(s, p, -1, -1, harbor))
        return False

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        out: list[int] = []
        h = harbor
        if h < 2 and not (h == 1 and s.rules.h_attack_cost):
            return out
        info = s.info
        owner = s.site_owner
        base = p * REGION_STRIDE
        ex = s.ex
        mark = s.site_marks
        pres = s.region_presence
        filled = s.filled
        trk_len = info.trk_len
        occ_sites = s.occupied_sites
        own = s.owned_sites
        sites_in = info.sites_in
        for r in target_regions(region, flags):
            if occ_sites[r] > own[base + r] and (
                    r == 0 or (pres[base + r] and filled[r] == trk_len[r])):
                for x in sites_in[r]:
                    o = owner[x]
                    if o >= 0 and o != p:
                        # cost hooks only lower the cost (1, or 2 if fortified)
                        if ex and (mark[x] or h < 2) and (mark[x] & M_NO_ATTACK or (
                                (h < 2 or mark[x] & M_FORTIFIED and h < 3)
                                and h < 1 + cost(s, p, x))):
                            continue
                        out.append(_ATTACK | x)
        return out

    def apply(self, s: State, p: int, c: int) -> tuple[int, int]:
        x = c & A.ARG
        attack(s, p, x)
        return SITE_REGION[x], -1

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        x = c & A.ARG
        if x not in s.info.site_set:
            return not_on_board(s, x)
        r = SITE_REGION[x]
        where = site_words(x)
        owner = s.site_owner[x]
        if owner < 0:
            if s.site_marks[x] & M_PIRATE:
                return msg(PIRATE, site=where)
            return msg(UNOCCUPIED, site=where)
        if owner == p:
            return msg(YOURS, site=where)
        if not s.is_open(r):
            return msg(NOT_OPEN, region=region_term(r, True))
        if r and not s.region_presence[p * REGION_STRIDE + r]:
            return msg(NO_PRESENCE, region=region_term(r))
        if s.site_marks[x] & M_NO_ATTACK:
            return msg(MISSIONARY, site=where)
        need = 1 + cost(s, p, x)
        if harbor < need:
            return msg(NEEDS, site=where, discs=Count(need, "disc"),
                       casualties=Count(need - 1, CASUALTY))
        return msg(NOT_ALLOWED)

    def unavailable(self, s: State, p: int, harbor: int) -> str | Message:
        return self.unavailable_message(s, p, harbor)

    def unavailable_message(self, s: State, p: int, harbor: int) -> Message:
        """:meth:`unavailable` as a message (said to ``p``)."""
        return msg(NO_DISCS) if harbor < 2 else msg(NO_TARGET, seat=Seat(p))

    def describe_message(self, s: State, p: int, c: int) -> Message:
        """This kind's own :meth:`describe` (a subclass's rewording aside)."""
        return Attack.describe(self, s, p, c)

    def describe(self, s: State, p: int, c: int) -> Message:
        """What legal code ``c`` does, as a message (no second person: no "your" in
        it)."""
        x = c & A.ARG
        k = cost(s, p, x)
        q = s.site_owner[x]
        names = s.rules.token_names
        # made once per (site, its owner, the casualties, the links completed) where a
        # seat holds it and the token names are the Age of Sail's
        key = links_key(s, p, x, ((1 << 8 | x) << 8 | q) << 8 | k) \
            if q < s.n and (names is AOS_NAMES or names == AOS_NAMES) else -1
        m = _ATTACKS.get(key)
        if m is None:
            lost = msg(NO_CASUALTY) if k == 0 else \
                msg(ONE_CASUALTY if k == 1 else CASUALTIES, n=k)
            m = msg(CITY if _SITE_CITY[x] else ROUTE, site=site_words(x),
                    owner=owner_arg(s, q), lost=lost,
                    glory=Count(_SITE_GLORY[x], "glory"), links=links_message(s, p, x))
            if key >= 0:
                _ATTACKS[key] = m
        return m


class Casualty(DecisionType):
    """P7: a Memorial owner places one casualty: on the supply or at the base of a
    track as a token of that attribute."""

    frame = F_CASUALTY
    kind = "casualty"
    phases = (PH_ACTIONS,)

    def codes(self, s: State, f: Frame) -> list[int]:
        return [_C(A.V_CASUALTY, k) for k in range(5)]

    def apply(self, s: State, f: Frame, c: int) -> None:
        arg = c & A.ARG
        if arg < 4:  # the casualty becomes a Trade token of that attribute (RB fr)
            pl = s.players[f[1]]
            pl.supply -= 1
            pl.base_discs[arg] += 1
            pl.attr[arg] += 1
            pl.changed()

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        return not_now(action)

    def prompt(self, s: State, f: Frame) -> Message:
        return msg(MEMORIAL, seat=Seat(f[1]))

    def option(self, s: State, f: Frame, action: Action) -> Message:
        p = f[1]
        if action.arg == A.SUPPLY_ARG:
            return msg(MEMORIAL_SUPPLY, seat=Seat(p))
        k = action.arg
        a = s.players[p].attr[k]
        return msg(MEMORIAL_TRACK, seat=Seat(p),
                   attribute=Term("token", D.ATTRIBUTES[k].capitalize()), before=a, after=a + 1)


# --------------------------------------------------------------------------- refusals
PIRATE: Final = define("attack.refused.pirate", "the Pirate holds {site}: it can't be Attacked")
UNOCCUPIED: Final = define("attack.refused.unoccupied", "{site} is unoccupied: nothing to attack")
YOURS: Final = define("attack.refused.yours", "{site} is yours")
MISSIONARY: Final = define("attack.refused.missionary",
                           "a Missionary protects {site}: it may never be Attacked")
NEEDS: Final = define("attack.refused.harbor",
                      "attacking {site} needs {discs} in your Harbor ({casualties} + 1 to "
                      "occupy)")
CASUALTY: Final = noun("casualty", "casualties")
