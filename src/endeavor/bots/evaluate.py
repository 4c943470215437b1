"""Position evaluation shared by the bots: each seat's estimated glory at the END of the
game, from the current position (:func:`evaluate`), per-seat win-share estimates in
[0, 1] (:func:`values`) and what a search backs up (:func:`search_values`).

The estimate is the glory a seat holds now, exactly as the ruleset's score pad counts it
(:func:`glory_now` equals the ``final_scores(state)`` totals, computed fast: about 5 µs
for 4 players), plus what the position is expected to be worth by the end, which
shrinks as the game runs out (it is zero on a finished game):

* **tracks**: a marker between two glory symbols is worth part of the way to the next
  symbol while there is time to climb (at the end it slides down);
* **the engine**, simulated round by round to the end: Construction adds a building,
  Growth brings Culture level + 1 discs from the supply, Salary pays Wealth level
  workers back, and the Action phase takes as many actions as there are free
  activation circles and Harbor discs for them (a worker plus the disc the action
  places); each action is worth a glory value (a ``+`` building more than one, a
  Payment or an Attack less), more for the actions still open in the current round;
  the levels climb between their steps over the rounds to come; the Harbor left at
  the end counts toward extra population. During an Action phase its remaining
  actions are counted source by source: each free building costs its worker and the
  discs its actions place (a Shipyard 2, the Docks 3 for both halves or 2 for one), an
  action token the discs of its action, the most action per disc first; discs too few
  for the next source wait for the rounds to come;
* **time**: a player who has passed in the last round has nothing left to use (no track
  to climb, no presence, no Shield);
* **the Build Level**, while Construction phases remain (falling with their square);
* **regions**: the Governor of each closed region to whoever would win it if it opened
  now, weighted by how full its track is; presence in each region (Draws, Occupy once
  it opens);
* **cards**: cards over the card limit go at the Discard phase (the cheapest ones are
  taken off); held Slavery cards risk Abolition until it happens;
* **Exploits**: scored exactly for Shield holders (in the glory now), plus a little for
  presence in both regions of an Exploit in play while there is time to use it; the
  Silent Fleet's neutral discs score nothing and take cities, links and Governors from
  the seats.

:func:`search_values` is what the tree search backs up: each seat's win share (from
:func:`values`) plus a term for its glory margin over the best other seat (see there),
with the win shares and the glory themselves.

The weights (:class:`Weights`) were tuned by playing greedy bots with different weights
against each other (two against two in 4-player games, both rulesets); the 2009 game has
its own (:data:`CLASSIC`, :func:`weights_for`). Speed: about 17 µs for a 4-player
mid-game position (30 µs with three active Exploits), on one core of the CI machine
class.
"""

from __future__ import annotations

import math
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final

from .. import data as D
from ..data import REGION_STRIDE
from ..frames import PH_ACTIONS, PH_CONSTRUCTION, PH_END, PH_GROWTH, PH_SALARY

if TYPE_CHECKING:
    from ..rules.base import Rules
    from ..state import Player, State

_TRACK_GLORY: Final = D.TRACK_GLORY
_TRACK_LEVEL: Final = D.TRACK_LEVEL
_CARD_GLORY: Final = tuple(c.glory for c in D.CARDS)
_CARD_ICONS: Final = tuple(sum(c.icons) for c in D.CARDS)
_CARD_SLAVE: Final = tuple(c.deck == D.SLAVERY_DECK for c in D.CARDS)
_B_GLORY: Final = tuple(b.glory for b in D.BUILDINGS)
_B_DRAWS: Final = tuple(b.draw_symbols for b in D.BUILDINGS)
_B_TOWN_HALL: Final = D.B_TOWN_HALL
#: actions an activation of each building type is worth (a "+" pair is more than one;
#: Payment only frees a worker; Attack costs casualties); 0: not activatable
_B_ACTIONS: Final = tuple(
    0.0 if not b.activatable else
    (1.7 if b.mode == D.BOTH else 1.15 if b.mode == D.CHOICE else
     0.6 if b.kind1 == D.PAYMENT else 0.8 if b.kind1 == D.ATTACK else 1.0)
    for b in D.BUILDINGS)
_B_ACTIVE: Final = tuple(b.activatable for b in D.BUILDINGS)
#: discs each action kind places (Ship, Occupy, Attack with its casualty, Payment, Draw)
_KIND_DISCS: Final = {D.SHIP: 1.0, D.OCCUPY: 1.0, D.ATTACK: 2.0, D.PAYMENT: 0.0, D.DRAW: 0.0}


def _source(mode: int, kind1: int, kind2: int, worker: float,
            worth: float) -> tuple[float, float, float, float, float, float]:
    """(worth per disc, worth, discs, worth of one action alone, its discs, workers) of
    an action source: a building (``worker`` 1: the disc on its circle) or a token (0);
    a "+" pair may be used for one action only, a choice "/" costs the mean of its
    two."""
    c1 = _KIND_DISCS[kind1]
    c2 = _KIND_DISCS[kind2] if kind2 >= 0 else c1
    if mode == D.BOTH:
        cost = worker + c1 + c2
        part = (1.0, worker + min(c1, c2))
    elif mode == D.CHOICE:
        cost = worker + (c1 + c2) / 2
        part = (0.0, 0.0)
    else:
        cost = worker + c1
        part = (0.0, 0.0)
    return (worth / cost if cost else 1e9), worth, cost, part[0], part[1], worker


#: per building type, then per action token (type - 4): its :func:`_source`
_B_SOURCE: Final = tuple(_source(b.mode, b.kind1, b.kind2, 1.0, _B_ACTIONS[i])
                  if b.activatable else (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
                  for i, b in enumerate(D.BUILDINGS))
_T_SOURCE: Final = tuple(_source(m, k1, k2, 0.0,
                          1.15 if m == D.CHOICE else 0.6 if k1 == D.PAYMENT else
                          0.8 if k1 == D.ATTACK else 1.0)
                  for m, k1, k2 in D.TOKEN_ACTIONS)
#: every distinct source, the most action per disc first (as sorting the sources'
#: tuples in reverse orders them), and each building type's and token's place in it:
#: the sources of a turn are sorted by these ranks, a sort of small ints
_SOURCES: Final = tuple(sorted(set(_B_SOURCE) | set(_T_SOURCE), reverse=True))
_B_RANK: Final = tuple(_SOURCES.index(x) for x in _B_SOURCE)
_T_RANK: Final = tuple(_SOURCES.index(x) for x in _T_SOURCE)
_B_LEVEL: Final = tuple(b.level for b in D.BUILDINGS)
_ABOLITION: Final = D.ABOLITION_CARD


#: the names of the evaluation's weights (the attributes of :class:`Weights`)
WEIGHT_NAMES: Final = ("action", "now", "now_last", "smooth", "build", "harbor", "gov",
                       "pres", "pres_cap", "card_icon", "slavery", "discs_per_action",
                       "shield", "build_decay")


class Weights:
    """The evaluation's weights, in glory. ``Weights(**changes)`` copies the defaults
    with some changed (for tuning). Not to be changed once made: :func:`evaluate`
    reuses its estimates by weights object."""

    __slots__ = ("action", "now", "now_last", "smooth", "build", "harbor", "gov", "pres",
                 "pres_cap", "card_icon", "slavery", "discs_per_action", "shield", "build_decay")

    def __init__(self, **changes: float) -> None:
        #: glory an action of a later round brings (a Ship, Occupy, Draw with what
        #: follows from it)
        self.action = 1.6
        #: glory an action still open in the current round's Action phase is worth (it
        #: is this round's: more than a later one), and in the last round (only the
        #: immediate gains are left then)
        self.now = 3.0
        self.now_last = 0.3
        #: share of the way to the next track symbol a marker is worth with time left
        self.smooth = 0.6
        #: glory per Build Level per Construction phase left
        self.build = 1.8
        #: glory per disc the Harbor is expected to hold at the end beyond today's
        #: (toward extra population, 1 per 3)
        self.harbor = 0.34
        #: glory a Governor is worth to whoever wins it (its glory, icons, the slot)
        self.gov = 1.0
        #: glory per disc of presence in a region (Draws, Occupy, Shields), up to pres_cap
        self.pres = 0.15
        self.pres_cap = 3.0
        #: glory per icon of a card (for choosing which cards the Discard phase takes)
        self.card_icon = 0.8
        #: expected loss per Slavery card held while Abolition may still come
        self.slavery = 1.0
        #: discs an action uses on average (its worker aside)
        self.discs_per_action = 0.6
        #: how the Build Level's worth falls with the Construction phases left ``rc``:
        #: ``build * level * rc * (1 - build_decay + build_decay * rc / rounds)``
        self.build_decay = 1.0
        #: glory for presence in both regions of an Exploit in play (its Shield: the
        #: abilities, and its score at the end), while there is time to use it
        self.shield = 1.0
        for k, v in changes.items():
            if k not in WEIGHT_NAMES:
                raise ValueError(f"unknown weight {k!r}")
            setattr(self, k, float(v))

    def as_dict(self) -> dict[str, float]:
        """The weights by name."""
        return {k: getattr(self, k) for k in WEIGHT_NAMES}


#: the weights of the Age of Sail games (tuned in 4-player games, both sides, with and
#: without Exploits) and of the 2009 game (tuned in its own 4-player games: a cheaper
#: Build Level, a Harbor worth less, more for the actions of the current round)
DEFAULT: Final = Weights()
CLASSIC: Final = Weights(build=0.5, harbor=0.1, now=3.0, now_last=0.8)
_BY_RULESET: Final = {"age_of_sail": DEFAULT, "classic": CLASSIC}


def weights_for(state: State) -> Weights:
    """The default weights of ``state``'s ruleset."""
    return _BY_RULESET.get(state.rules.name, DEFAULT)


_MAXT: Final = 128  # track scores beyond this are looked up the slow way (never in practice)


class _Tables:
    """Per rules object: the board's glory sites, links and tracks as flat tuples, and
    per track score its glory, the glory it may still climb to, its level and its level
    between steps."""

    __slots__ = ("cities", "links", "tracks", "cap", "glory", "gap", "level", "level_f",
                 "weights", "rounds", "max_cards")

    def __init__(self, rules: Rules) -> None:
        info = rules.board
        #: the ruleset's default weights
        self.weights = _BY_RULESET.get(rules.name, DEFAULT)
        self.rounds: int = rules.rounds
        self.max_cards: int = rules.max_cards
        self.cities = tuple((x, D.SITES[x].glory) for x in info.sites if D.SITES[x].glory)
        self.links = tuple(info.board.links)
        self.tracks = tuple((r, info.trk_off[r], info.trk_len[r])
                            for r in range(1, D.NREGIONS) if info.trk_len[r])
        cap = self.cap = min(rules.track_cap, _MAXT)
        self.glory = tuple(_track_glory(t, cap) for t in range(_MAXT))
        self.gap = tuple(min(t, cap) - self.glory[t] if t < 15 else 0 for t in range(_MAXT))
        self.level = tuple(D.track_level(t) for t in range(_MAXT))
        #: 1 at 0, 2 at 2, 3 at 4, 4 at 7, 5 at 10, linear in between (the marker will
        #: climb: a point toward the next step is worth part of it in the rounds to come)
        self.level_f = tuple(1 + t / 2 if t <= 4 else 3 + (t - 4) / 3 if t <= 10 else 5.0
                             for t in range(_MAXT))


_TABLES: Final[dict[int, tuple[Rules, _Tables]]] = {}
#: the last rules object asked for and its tables (a search asks for one again and again)
_LAST: Final[list[tuple[Rules, _Tables]]] = []


def _tables(rules: Rules) -> _Tables:
    if _LAST:
        last = _LAST[0]
        if last[0] is rules:
            return last[1]
    got = _TABLES.get(id(rules))
    if got is None or got[0] is not rules:
        got = _TABLES[id(rules)] = (rules, _Tables(rules))
    if _LAST:
        _LAST[0] = got
    else:
        _LAST.append(got)
    return got[1]


def _track_glory(t: int, cap: int) -> int:
    if t > cap:
        t = cap
    return _TRACK_GLORY[t] if t < 16 else t


def _clip(a: list[int]) -> list[int]:
    """A mat's track scores, within the tables (a score past them counts as the last)."""
    return [t if t < _MAXT else _MAXT - 1 for t in a]


#: the last two boards scored and their glory per seat, the latest first: a search
#: scores position after position that differ by one action, most of which leave the
#: board as it was (a sibling that changes it is followed by one like their parent:
#: hence two). Each entry is one tuple, replaced whole, so threads never see half of one.
_BOARD_MEMO: Final[list[tuple[_Tables, int, list[int], list[int], list[int]]]] = []


def _board_glory(s: State, tab: _Tables, n: int) -> list[int]:
    """Cities and links per seat (a list not to be changed: the memo's own)."""
    owner = s.site_owner
    lmark = s.link_marks
    for memo in _BOARD_MEMO:
        if memo[0] is tab and memo[1] == n and memo[2] == owner and memo[3] == lmark:
            return memo[4]
    g = _board_glory_of(owner, lmark, tab, n)
    _remember(_BOARD_MEMO, (tab, n, owner.copy(), lmark.copy(), g))
    return g


def _remember(memos: list[Any], memo: Any) -> None:
    """Put ``memo`` first in ``memos``, keeping the one that was first as the second."""
    if not memos:
        memos.append(memo)
        return
    if len(memos) < 2:
        memos.append(memos[0])
    else:
        memos[1] = memos[0]
    memos[0] = memo


def _board_glory_of(owner: list[int], lmark: list[int], tab: _Tables, n: int) -> list[int]:
    g = [0] * n
    for x, gl in tab.cities:
        o = owner[x]
        if 0 <= o < n:
            g[o] = g[o] + gl  # (not +=: compiled, that is a generic add)
    li = 0
    for x, y in tab.links:
        o = owner[x]
        if 0 <= o < n and owner[y] == o and not lmark[li] & 1:
            g[o] = g[o] + 1
        li += 1
    return g


def _module_glory(s: State, g: list[int], n: int) -> None:
    """Adds the rule modules' scores: each Exploit for its Shield holders."""
    for i, e in enumerate(s.ex):
        if e.is_exploit:
            for p in range(n):
                if s.has_shield(p, i):
                    g[p] += e.score(s, i, p)
        else:
            for p in range(n):
                g[p] += e.score(s, i, p)


def _mat_glory(pl: Player, tg: tuple[int, ...], a: list[int]) -> int:
    """A mat's glory: tracks, buildings, cards, the Governor slot, extra population and
    Slavery."""
    tot = tg[a[0]] + tg[a[1]] + tg[a[2]] + tg[a[3]]
    blds = pl.buildings
    for b in blds:
        tot += _B_GLORY[b]
    if _B_TOWN_HALL in blds:
        for b in blds:
            tot += _B_DRAWS[b]
    for c in pl.cards:
        tot += _CARD_GLORY[c]
    gov = pl.gov
    return tot + (_CARD_GLORY[gov] if gov >= 0 else 3) + pl.harbor // 3 - len(pl.aside)


def glory_now(state: State) -> list[int]:
    """Each seat's glory if the game ended now: the ruleset's score pad (the totals of
    ``final_scores(state)``), computed fast."""
    s = state
    n = s.n
    tab = _tables(s.rules)
    g = _board_glory(s, tab, n).copy()
    tg = tab.glory
    players = s.players
    for p in range(n):
        pl = players[p]
        a = pl.attr
        if a[0] >= _MAXT or a[1] >= _MAXT or a[2] >= _MAXT or a[3] >= _MAXT:
            a = _clip(a)
        g[p] += _mat_glory(pl, tg, a)
    if s.ex:
        _module_glory(s, g, n)
    return g


def _add_governors(est: list[float], s: State, tab: _Tables, wg: float) -> None:
    """Adds to each seat's estimate ``est`` the Governors of the closed regions it
    leads: ``wg * (0.35 + 0.65 * share)``, ``share`` the part of the region's track
    filled. Counted afresh for every position (a few dozen spaces: cheaper than
    comparing the tracks with those of the last positions scored)."""
    trk = s.track_owner
    filled = s.filled
    gov = s.region_governors
    n = s.n
    for r, off, length in tab.tracks:
        k = filled[r]
        if k == 0 or k == length or gov[r] < 0:
            continue
        who = _leader(trk, off, k, n) if n <= 5 else _leader_of_many(trk, off, k, n)
        if who < n:
            share = k / length
            est[who] = est[who] + wg * (0.35 + 0.65 * share)


def _leader(trk: list[int], off: int, k: int, n: int) -> int:
    """The owner with the most of the ``k`` discs from ``trk[off]`` on (a neutral one:
    ``n``), ties to the one whose count reached the most last (the disc closest to the
    deck), for at most 5 seats: the counts in six plain variables, no list."""
    c0 = c1 = c2 = c3 = c4 = c5 = 0
    best = 0
    who = -1
    for j in range(off, off + k):  # spaces filled from the far end toward the deck
        q = trk[j]
        if q >= n:
            q = n
        slot = q if q >= 0 else n
        if slot == 0:
            c0 += 1
            c = c0
        elif slot == 1:
            c1 += 1
            c = c1
        elif slot == 2:
            c2 += 1
            c = c2
        elif slot == 3:
            c3 += 1
            c = c3
        elif slot == 4:
            c4 += 1
            c = c4
        else:
            c5 += 1
            c = c5
        if c >= best:  # ties go to the disc closest to the deck: the later one
            best = c
            who = q
    return who


def _leader_of_many(trk: list[int], off: int, k: int, n: int) -> int:
    """:func:`_leader` for any number of seats."""
    counts = [0] * (n + 1)
    best = 0
    who = -1
    for j in range(off, off + k):
        q = trk[j]
        if q >= n:
            q = n
        c = counts[q] = counts[q] + 1
        if c >= best:
            best = c
            who = q
    return who


class _SeatMemo:
    """One seat's estimate in :func:`evaluate` with everything it was made from: the
    tables and weights, the player count, phase and round, whether the seat has passed,
    Abolition, its board glory, its mat (what the estimate reads of it) and its
    presence in the regions. The mat's four track scores and four blue tokens and the
    six regions' presence are kept as numbers of their own, not lists (nothing to
    allocate, compared without a list comparison). ``pver`` is the
    :meth:`~endeavor.state.Player.version` of the mat it read: a search whose positions
    change only through ``apply_code`` (``marked``) trusts it alone, and keeps no copy
    of the mat's lists (``lists`` False: a plain call then finds no match). Rewritten
    in place (:meth:`set`) by the thread that owns it."""

    __slots__ = ("tab", "w", "n", "ph", "rnd", "passed", "abolished", "gp", "supply",
                 "harbor", "taken", "gov", "a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3",
                 "buildings", "cards", "aside", "p1", "p2", "p3", "p4", "p5", "p6", "value",
                 "pver", "lists")

    def __init__(self, tab: _Tables, w: Weights, n: int, ph: int, rnd: int, passed: int,
                 abolished: bool, gp: int, pl: Player, pres: list[int], base: int,
                 value: float) -> None:
        self.buildings = pl.buildings.copy()
        self.cards = pl.cards.copy()
        self.aside = pl.aside.copy()
        self.lists = True
        self._take(tab, w, n, ph, rnd, passed, abolished, gp, pl, pres, base, value)

    def set(self, tab: _Tables, w: Weights, n: int, ph: int, rnd: int, passed: int,
            abolished: bool, gp: int, pl: Player, pres: list[int], base: int,
            value: float, marked: bool) -> None:
        """Make this the memo of another estimate (as a new one would be), reusing its
        lists (each written only where it differs: cheaper than rewriting it); with
        ``marked``, the mat's version stands for them (see the class)."""
        if marked:
            self.lists = False
        else:
            if self.buildings != pl.buildings:
                self.buildings[:] = pl.buildings
            if self.cards != pl.cards:
                self.cards[:] = pl.cards
            if self.aside != pl.aside:
                self.aside[:] = pl.aside
            self.lists = True
        self._take(tab, w, n, ph, rnd, passed, abolished, gp, pl, pres, base, value)

    def _take(self, tab: _Tables, w: Weights, n: int, ph: int, rnd: int, passed: int,
              abolished: bool, gp: int, pl: Player, pres: list[int], base: int,
              value: float) -> None:
        """The numbers of the memo (all but its lists), as :meth:`set` takes them."""
        self.tab = tab
        self.w = w
        self.n = n
        self.ph = ph
        self.rnd = rnd
        self.passed = passed
        self.abolished = abolished
        self.gp = gp
        self.supply = pl.supply
        self.harbor = pl.harbor
        self.taken = pl.taken_circles
        self.gov = pl.gov
        self.pver = pl.version()
        a = pl.attr
        self.a0 = a[0]
        self.a1 = a[1]
        self.a2 = a[2]
        self.a3 = a[3]
        b = pl.blue
        self.b0 = b[0]
        self.b1 = b[1]
        self.b2 = b[2]
        self.b3 = b[3]
        self.p1 = pres[base + 1]
        self.p2 = pres[base + 2]
        self.p3 = pres[base + 3]
        self.p4 = pres[base + 4]
        self.p5 = pres[base + 5]
        self.p6 = pres[base + 6]
        self.value = value

    def matches(self, tab: _Tables, w: Weights, n: int, ph: int, rnd: int, passed: int,
                abolished: bool, gp: int, pl: Player, pres: list[int], base: int,
                marked: bool) -> bool:
        if not (self.tab is tab and self.w is w and self.n == n and self.ph == ph
                and self.rnd == rnd and self.passed == passed
                and self.abolished == abolished and self.gp == gp
                and self.supply == pl.supply and self.harbor == pl.harbor
                and self.taken == pl.taken_circles and self.gov == pl.gov
                and self.p1 == pres[base + 1] and self.p2 == pres[base + 2]
                and self.p3 == pres[base + 3] and self.p4 == pres[base + 4]
                and self.p5 == pres[base + 5] and self.p6 == pres[base + 6]):
            return False
        if marked:  # the same version, the same lists (and track scores, blue tokens)
            return self.pver == pl.version()
        if not self.lists:
            return False
        a = pl.attr
        b = pl.blue
        return (self.a0 == a[0] and self.a1 == a[1] and self.a2 == a[2]
                and self.a3 == a[3] and self.b0 == b[0] and self.b1 == b[1]
                and self.b2 == b[2] and self.b3 == b[3]
                and self.buildings == pl.buildings and self.cards == pl.cards
                and self.aside == pl.aside)


#: per thread, per seat, the last estimate :func:`evaluate` made there (each thread
#: rewrites its own memos in place: no other thread sees them). A context variable: a
#: thread starts with a context of its own, and reading one costs less than a
#: ``threading.local``'s attribute
_SEATS: Final[ContextVar[list[_SeatMemo | None] | None]] = ContextVar("endeavor_seat_memos",
                                                                     default=None)


def _seat_memos(n: int) -> list[_SeatMemo | None]:
    """This thread's seat memos (at least ``n``; None: nothing yet)."""
    seen = _SEATS.get()
    if seen is None:
        seen = []
        _SEATS.set(seen)
    while len(seen) < n:
        seen.append(None)
    return seen


def evaluate(state: State, w: Weights | None = None, marked: bool = False) -> list[float]:
    """Estimated final glory per seat (index = seat): the glory now plus the expected
    value of the position by the end (see the module docstring), with the weights ``w``
    (default: the ruleset's, :func:`weights_for`). On a finished game it is exactly the
    final scores. ``marked``: the state changes only through ``apply_code`` (a search's
    scratch position), so the players' mats may be told unchanged by their
    :meth:`~endeavor.state.Player.version` (the same numbers, fewer comparisons)."""
    s = state
    n = s.n
    rules = s.rules
    tab = _tables(rules)
    if w is None:
        w = tab.weights
    ph = s.phase
    if ph == PH_END:
        return [float(x) for x in glory_now(s)]
    g = _board_glory(s, tab, n)
    if s.ex:
        g = g.copy()
        _module_glory(s, g, n)
    total = tab.rounds
    rnd = s.round
    if rnd == 0:  # setup: all of round 1 to come
        later = total - 1
        c0 = g0 = s0 = a0 = True
    else:
        later = total - rnd  # whole rounds after this one
        c0 = ph <= PH_CONSTRUCTION
        g0 = ph <= PH_GROWTH
        s0 = ph <= PH_SALARY
        a0 = ph <= PH_ACTIONS
    rc = later + c0
    passed = s.passed
    time_left = later + a0
    smooth = w.smooth * min(1.0, time_left / 2.0)
    wa = w.action
    wn = (w.now if later else w.now_last) if ph == PH_ACTIONS else wa
    dpa = 1.0 + w.discs_per_action
    last = time_left == 0
    pres_w = 0.0 if last else w.pres * min(1.0, time_left / 3.0)
    pc = w.pres_cap
    wh = w.harbor
    build = w.build * rc * (1.0 - w.build_decay + w.build_decay * rc / total)
    icon = w.card_icon
    slavery = 0.0 if s.abolished else w.slavery
    max_cards = tab.max_cards
    tg = tab.glory
    gap = tab.gap
    lvl = tab.level
    lvl_f = tab.level_f
    pres = s.region_presence
    est = [0.0] * n
    abolished = s.abolished
    seen = _seat_memos(n)
    players = s.players
    for p in range(n):
        pl = players[p]
        gp = g[p]
        base = p * REGION_STRIDE
        # a seat whose mat, board glory, presence and game clock are those of the last
        # position scored has the same estimate (siblings in a search differ mostly in
        # the mover's seat)
        memo = seen[p]
        if memo is not None and memo.matches(tab, w, n, ph, rnd, passed >> p & 1, abolished,
                                             gp, pl, pres, base, marked):
            est[p] = memo.value
            continue
        a = pl.attr
        if a[0] >= _MAXT or a[1] >= _MAXT or a[2] >= _MAXT or a[3] >= _MAXT:
            a = _clip(a)
        a0_, a1, a2, a3 = a
        v = float(gp + _mat_glory(pl, tg, a))
        # a player who has passed in the last round has no time left: no track to climb,
        # no presence to use
        over = not later and passed >> p & 1
        # tracks: part of the way to the next glory symbol while there is time
        if smooth and not over:
            v += smooth * (gap[a0_] + gap[a1] + gap[a2] + gap[a3])
        # the engine: the actions still to take, round by round
        occ = pl.taken_circles
        nb = 0
        vsum = 0.0
        free = 0
        i = 0
        for b in pl.buildings:
            x = _B_ACTIONS[b]
            if x:
                nb += 1
                vsum += x
                if not occ >> i & 1:
                    free += 1
            i += 1
        avg = vsum / nb if nb else 1.0
        work = float(nb - free)
        harbor0 = pl.harbor
        harbor = float(harbor0)
        supply = float(pl.supply)
        acts = 0.0
        if a0 and not passed >> p & 1:
            if c0:
                free += 1
                nb += 1
            if g0:
                grow = float(lvl[a1] + 1)
                if grow > supply:
                    grow = supply
                supply -= grow
                harbor += grow
            if s0:
                pay = lvl[a2]
                if pay > work:
                    pay = int(work)
                work -= pay
                harbor += pay
                free += pay
            blue = pl.blue
            if ph == PH_ACTIONS:
                # this round's Action phase, disc by disc: the free buildings (their
                # worker and the discs their actions place) and the action tokens, the
                # most action per disc first; Harbor discs too few for the next source
                # are left to the rounds to come
                srcs = []  # the sources' ranks (see _SOURCES)
                i = 0
                for b in pl.buildings:
                    if _B_ACTIVE[b] and not occ >> i & 1:
                        srcs.append(_B_RANK[b])
                    i += 1
                for k in range(4):
                    rank = _T_RANK[k]
                    for _ in range(blue[k]):
                        srcs.append(rank)
                srcs.sort()
                gain = 0.0
                for rank in srcs:
                    _, full, cost, part, pcost, worker = _SOURCES[rank]
                    if cost <= harbor:
                        gain += full
                        harbor -= cost
                    elif part and pcost <= harbor:
                        gain += part
                        harbor -= pcost
                    else:
                        continue
                    work += worker
                acts = gain * wn
            else:
                x = harbor / dpa
                y = float(free + blue[0] + blue[1] + blue[2] + blue[3])
                if y < x:
                    x = y
                acts = x * avg * wn
                harbor -= x * dpa
                work += x
        if later:
            gr = lvl_f[a1] + 1
            lw = lvl_f[a2]
            step = avg * wa
            for _ in range(later):
                nb += 1
                if gr < supply:
                    supply -= gr
                    harbor += gr
                else:
                    harbor += supply
                    supply = 0.0
                if lw < work:
                    work -= lw
                    harbor += lw
                else:
                    harbor += work
                    work = 0.0
                x = harbor / dpa
                y = nb - work
                if y < x:
                    x = y
                acts += x * step
                harbor -= x * dpa
                work += x
        v += acts + wh * (harbor - harbor0)
        # Build Level while Construction phases remain
        if build:
            v += build * lvl[a0_]
        # cards over the limit go at the Discard phase: the cheapest ones
        cards = pl.cards
        if cards:
            slaves = 0
            for c in cards:
                slaves += _CARD_SLAVE[c]
            keep = lvl[a3] + (slaves > 0)
            if keep > max_cards:
                keep = max_cards
            extra = len(cards) - keep
            if extra > 0:
                worth = sorted(_CARD_GLORY[c] + icon * _CARD_ICONS[c] for c in cards)
                v -= sum(worth[:extra])
            if slaves:
                v -= slavery * slaves
        # presence in the regions
        if pres_w and not over:
            pr = 0.0
            for r in range(base + 1, base + 7):
                here = pres[r]
                if here:
                    pr += float(here) if here < pc else pc
            v += pres_w * pr
        est[p] = v
        if memo is None:
            seen[p] = _SeatMemo(tab, w, n, ph, rnd, passed >> p & 1, abolished, gp, pl,
                                pres, base, v)
        else:
            memo.set(tab, w, n, ph, rnd, passed >> p & 1, abolished, gp, pl, pres, base, v,
                     marked)
    if not last:
        _add_governors(est, s, tab, w.gov)
        if s.ex:
            ws = w.shield * min(1.0, time_left / 2.0)
            for _, e in rules.exploits:
                r1, r2 = e.regions
                for p in range(n):
                    at = p * REGION_STRIDE
                    if pres[at + r1] and pres[at + r2] and (later or not passed >> p & 1):
                        est[p] = est[p] + ws
    return est


def _win_shares(totals: list[float]) -> list[float]:
    best = max(totals)
    k = sum(1 for t in totals if t == best)
    return [1.0 / k if t == best else 0.0 for t in totals]


#: :func:`values` temperature (glory): ``T_END + T_SPAN * left ** 2``, ``left`` the share
#: of the game still to play; fitted to who won greedy self-play games from the
#: estimates along the way (maximum likelihood per round)
T_END: Final = 4.0
T_SPAN: Final = 12.0


def time_left(state: State) -> float:
    """The share of the game still to play, 1 at setup to 0 at the end: whole rounds
    left, plus 1 for the current one before its Action phase, 0.5 during it, 0.1 in its
    Discard phase."""
    total = state.rules.rounds
    if state.round == 0:
        return 1.0
    ph = state.phase
    if ph == PH_END:
        return 0.0
    part = 1.0 if ph < PH_ACTIONS else 0.5 if ph == PH_ACTIONS else 0.1
    return (total - state.round + part) / total


def _win_estimates(state: State, est: list[float]) -> list[float]:
    """The softmax win-share estimates of :func:`values` from the estimates ``est``."""
    left = time_left(state)
    temp = T_END + T_SPAN * left * left
    best = max(est)
    ex = [math.exp((e - best) / temp) for e in est]
    z = sum(ex)
    return [x / z for x in ex]


def win_chances(state: State, glory: list[float]) -> list[float]:
    """Each seat's chance of winning from the glory estimates ``glory`` at ``state``, as
    :func:`values` turns its estimates into win shares; on a finished game the result
    (``glory`` then the final scores)."""
    if state.phase == PH_END:
        return _win_shares(glory)
    return _win_estimates(state, glory)


def values(state: State, w: Weights | None = None) -> list[float]:
    """Per-seat values in [0, 1] for max-n search backups: each seat's chance of winning
    estimated as a softmax of the :func:`evaluate` estimates, ``exp(e_p / T) / sum_q
    exp(e_q / T)``. The temperature ``T`` (in glory) shrinks as the game runs out, from
    16 at setup to 4 at the end (:data:`T_END`, :data:`T_SPAN`, :func:`time_left`):
    a lead of a few glory early says little about the winner, the same lead in the last
    round a lot. The values sum to 1. On a finished game they are the real result: 1
    for the sole winner, a shared win split equally, 0 for the others."""
    if state.phase == PH_END:
        return _win_shares([float(x) for x in glory_now(state)])
    return _win_estimates(state, evaluate(state, w))


#: the glory-margin term of :func:`search_values`: its weight (the win share has the
#: rest) for a seat whose result is open, for one whose win or loss is settled, and the
#: margin change, in glory, at which it reaches its bounds
MARGIN_WEIGHT: Final = 0.3
MARGIN_WEIGHT_SETTLED: Final = 0.9
MARGIN_SCALE: Final = 20.0


def margins(glory: list[float]) -> list[float]:
    """Each seat's glory minus the best of the other seats' (0 for a lone seat)."""
    n = len(glory)
    if n < 2:
        return [0.0] * n
    first = max(glory)
    k = glory.index(first)
    second = max(g for q, g in enumerate(glory) if q != k)
    return [g - (second if q == k else first) for q, g in enumerate(glory)]


def margin_weights(wins: list[float]) -> list[float]:
    """The weight of each seat's margin term for win shares ``wins``: from
    :data:`MARGIN_WEIGHT` for a seat with even chances to :data:`MARGIN_WEIGHT_SETTLED`
    for one whose win share is 0 or 1 (``4 w (1 - w)`` of the way)."""
    lo = MARGIN_WEIGHT
    span = MARGIN_WEIGHT_SETTLED - MARGIN_WEIGHT
    return [lo + span * (1.0 - 4.0 * x * (1.0 - x)) for x in wins]


def blend(wins: list[float], glory: list[float], center: list[float] | None = None,
          weight: list[float] | None = None) -> list[float]:
    """The search values of seats with win shares ``wins`` and (expected) final glory
    ``glory``, their margins measured from ``center`` (default 0) with the margin
    weights ``weight`` (default :data:`MARGIN_WEIGHT`), followed by ``wins`` and
    ``glory``: ``3 n`` numbers (see :func:`search_values`)."""
    scale = MARGIN_SCALE
    out = []
    q = 0
    for m in margins(glory):
        if center is not None:
            m -= center[q]
        if m > scale:
            m = scale
        elif m < -scale:
            m = -scale
        kw = MARGIN_WEIGHT if weight is None else weight[q]
        out.append((1.0 - kw) * wins[q] + 0.5 * kw * (1.0 + m / scale))
        q += 1
    return out + wins + glory


def search_values(state: State, w: Weights | None = None,
                  center: list[float] | None = None,
                  weight: list[float] | None = None, marked: bool = False) -> list[float]:
    """What a search backs up from ``state``: ``3 n`` numbers, the seats' search values
    (``v[p]``, ``0 <= p < n``), their win shares (``v[n + p]``) and their expected final
    glory (``v[2 n + p]``).

    A seat's search value, in [0, 1], is its win share plus a term for its glory margin
    over the best other seat ``m`` (its own glory minus the best other's), measured
    from ``center``, with the weight ``k`` (``weight``, default
    :data:`MARGIN_WEIGHT`)::

        v[p] = (1 - k[p]) * win[p]
               + k[p] * (1 + clip((m[p] - center[p]) / MARGIN_SCALE, -1, 1)) / 2

    so that a game whose winner is settled is still played for points: every move
    would otherwise have the same win share. A search passes each seat's margin at the
    position it searches from as ``center``, so that the term tells the glory gained or
    lost from there however far ahead or behind the seat is, and weights the term by
    how settled the seat's result is there (:func:`margin_weights`): for an open result
    winning stays worth far more (with 0.3 and 20 glory, a glory point of margin is
    worth 0.0075, while the win share's softmax moves about 0.04 a point between two
    close seats in the last round); for a settled one (0.9) the glory is nearly all
    that is left to play for. Every seat's value is on the same scale (max-n compares a
    seat's values only with its own, but a shared scale keeps the UCT exploration
    alike for every seat). On a finished game the win shares are the real result
    (:func:`values`) and the glory the final scores; before, the win shares are
    :func:`values`' estimates and the glory :func:`evaluate`'s (``marked``: as
    :func:`evaluate`'s)."""
    if state.phase == PH_END:
        glory = [float(x) for x in glory_now(state)]
        return blend(_win_shares(glory), glory, center, weight)
    return _search_estimates(state, evaluate(state, w, marked), center, weight)


def _search_estimates(state: State, est: list[float], center: list[float] | None,
                      weight: list[float] | None) -> list[float]:
    """``blend(_win_estimates(state, est), est, center, weight)`` in one pass, with the
    same arithmetic in the same order (so exactly the same numbers) and fewer lists:
    every search scores each child position with it."""
    n = len(est)
    # time_left(state), inlined: the state is not over here
    total = state.rules.rounds
    if state.round == 0:
        left = 1.0
    else:
        ph = state.phase
        part = 1.0 if ph < PH_ACTIONS else 0.5 if ph == PH_ACTIONS else 0.1
        left = (total - state.round + part) / total
    temp = T_END + T_SPAN * left * left
    # max(est), its first seat and the best of the others, in one pass, without the
    # generic calls
    best = est[0]
    k = 0
    second = -math.inf
    for q in range(1, n):
        e = est[q]
        if e > best:
            second = best
            best = e
            k = q
        elif e > second:
            second = e
    first = best
    if n < 2:
        first = second = 0.0
        k = -1
    z = 0.0  # sum(), as it adds floats (in order, from 0)
    for q in range(n):
        z += math.exp((est[q] - best) / temp)
    # one list of 3 n: the search values, then the win shares (each exp computed again
    # rather than kept: cheaper than a float object), then ``est``
    out = [0.0] * (2 * n)
    for q in range(n):
        out[n + q] = math.exp((est[q] - best) / temp) / z
    out.extend(est)
    scale = MARGIN_SCALE
    for q in range(n):
        if k < 0:
            m = 0.0
        else:
            m = est[q] - (second if q == k else first)
        if center is not None:
            m -= center[q]
        if m > scale:
            m = scale
        elif m < -scale:
            m = -scale
        kw = MARGIN_WEIGHT if weight is None else weight[q]
        out[q] = (1.0 - kw) * out[n + q] + 0.5 * kw * (1.0 + m / scale)
    return out


__all__ = ["CLASSIC", "DEFAULT", "MARGIN_SCALE", "MARGIN_WEIGHT", "MARGIN_WEIGHT_SETTLED", "T_END",
           "T_SPAN", "Weights", "blend", "evaluate", "glory_now", "margin_weights", "margins",
           "search_values", "time_left", "values", "weights_for", "win_chances"]
