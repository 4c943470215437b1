"""Game state, phase flow and the base rules of Endeavor: Age of Sail.

The state is plain data (ints and lists of ints) with a hand-written :meth:`State.copy`.
Every decision is a frame on a decision stack; :meth:`State.legal_actions` lists the
atomic actions the frame on top allows and :meth:`State.apply` performs one, then the
phase driver (:meth:`State._advance`) runs every automatic step (Growth, forced
Salary, turn order, round end) until the next decision. Setup randomness comes from
``random.Random(config.seed)`` inside :func:`new_game` (R2); after setup nothing is random.

Decision frames (tuples, immutable so the stack copies shallowly)::

    (F_START, p)                        choose the start tile (R3)
    (F_BUILD, p)                        Construction
    (F_SALARY, p, payments_left)        Salary, when there are more workers than payments
    (F_ACTION, p)                       Action phase: activate a building, use a token, pass
    (F_EFFECT, p, mode, k1, k2, region, deck, flags)
                                        the action(s) of the chosen source; mode SINGLE,
                                        CHOICE ("/"), BOTH ("+", first half) or SECOND
                                        ("+", second half: same region / same deck, or done);
                                        flags FL_NO_PRESENCE / FL_NORMAL_ONLY
    (F_CASUALTY, p)                     Memorial: where a casualty goes
    (F_GOVSLOT, p)                      Discard phase: which Governor is in the free slot
    (F_DISCARD, p)                      Discard phase: discard one card
    (F_EXPLOIT, p, i, step, a, b)       a step of Exploit ``i``'s ability (its module decides)

Exploits (:mod:`endeavor.exploits`) plug in through the hooks of
:class:`endeavor.exploits.base.Exploit`; with no Exploits the hot paths skip them.
"""

from __future__ import annotations

import random
from typing import Any

from . import actions as A
from . import data as D
from . import exploits as EX
from .actions import Action
from .config import EXPLOIT_IDS, GameConfig
from .errors import IllegalActionError
from .exploits.base import L_BLOCKADE, M_FORTIFIED, M_NO_ATTACK, M_PIRATE, Exploit

(F_START, F_BUILD, F_SALARY, F_ACTION, F_EFFECT, F_CASUALTY, F_GOVSLOT, F_DISCARD,
 F_EXPLOIT) = range(9)
FRAME_NAMES = ("start tile", "construction", "salary", "action", "effect", "casualty",
               "governor slot", "discard", "exploit")
SECOND = 3  # F_EFFECT mode: second half of a "+" source, or an ability's follow-up
#: F_EFFECT flags
FL_NO_PRESENCE = 1  # Occupy without presence (The Sun Never Sets)
FL_NORMAL_ONLY = 2  # a "normal" action: no Exploit ability may replace it

PH_SETUP, PH_CONSTRUCTION, PH_GROWTH, PH_SALARY, PH_ACTIONS, PH_DISCARD, PH_END = range(7)
PHASE_NAMES = ("Setup", "Construction", "Growth", "Salary", "Actions", "Discard",
               "Game over")

_NB = len(D.BUILDINGS)
_SITE_REGION = tuple(s.region for s in D.SITES)
_SITE_CITY = tuple(s.city for s in D.SITES)
_SITE_TILE = tuple(s.code in D.TILE_SITES for s in D.SITES)
_CARD_DECK = tuple(c.deck for c in D.CARDS)
_CARD_VALUE = tuple(c.value for c in D.CARDS)
_CARD_ICONS = tuple(c.icons for c in D.CARDS)
_B_LEVEL = tuple(b.level for b in D.BUILDINGS)
_B_SPEC = tuple((b.mode, b.kind1, b.kind2) for b in D.BUILDINGS)
_B_ACT = tuple(b.activatable for b in D.BUILDINGS)
_B_NOPAY = tuple(b.no_payment for b in D.BUILDINGS)
_LEVEL = D.TRACK_LEVEL
_C = A.code


class BoardInfo:
    """Static per-side lookup tables derived once from :data:`data.BOARDS`."""

    __slots__ = ("board", "sites", "cities_in", "routes_in", "adj", "trk_off", "trk_len",
                 "ntrack", "nlinks", "circular_links")

    def __init__(self, side: str, tile_sites: bool = False) -> None:
        b = D.BOARDS[side]
        if tile_sites:  # The Dutch East India Company: Batavia and Cape Town (REC)
            b = b._replace(sites=b.sites + D.TILE_SITE_IDS,
                           links=b.links + D.TILE_LINKS,
                           link_circular=b.link_circular + (False,) * len(D.TILE_LINKS))
        self.board = b
        self.sites = b.sites
        # the map's own sites, reachable by normal Occupy / Attack / Ship
        self.cities_in = tuple(tuple(s for s in b.sites if _SITE_REGION[s] == r and
                                     _SITE_CITY[s] and not _SITE_TILE[s])
                               for r in range(D.NREGIONS))
        self.routes_in = tuple(tuple(s for s in b.sites if _SITE_REGION[s] == r and
                                     not _SITE_CITY[s]) for r in range(D.NREGIONS))
        adj: list[list[tuple[int, int]]] = [[] for _ in range(D.NSITES)]
        for li, (x, y) in enumerate(b.links):
            adj[x].append((li, y))
            adj[y].append((li, x))
        self.adj = tuple(tuple(a) for a in adj)
        off = []
        total = 0
        for r in range(D.NREGIONS):
            off.append(total)
            total += b.track_lengths[r]
        self.trk_off = tuple(off)
        self.trk_len = b.track_lengths
        self.ntrack = total
        self.nlinks = len(b.links)
        self.circular_links = tuple(i for i, c in enumerate(b.link_circular) if c)


_BOARD_INFO = {(side, t): BoardInfo(side, t) for side in D.BOARDS for t in (False, True)}

#: Exploits in play -> hook name -> (index, Exploit) of those overriding the hook; the
#: others keep the neutral default, so the hot paths skip them
_HOOKED: dict[tuple[Exploit, ...], dict[str, tuple[tuple[int, Exploit], ...]]] = {}


def _hooked(ex: tuple[Exploit, ...], hook: str) -> tuple[tuple[int, Exploit], ...]:
    """(index, Exploit) of the Exploits in ``ex`` whose class overrides ``hook``."""
    by_hook = _HOOKED.get(ex)
    if by_hook is None:
        by_hook = _HOOKED[ex] = {}
    found = by_hook.get(hook)
    if found is None:
        default = getattr(Exploit, hook)
        found = by_hook[hook] = tuple((i, e) for i, e in enumerate(ex)
                                      if getattr(type(e), hook) is not default)
    return found


class Player:
    """One player's mat. ``attr`` is the four track scores (icons held); ``btok`` the
    brown Trade tokens at the track bases; ``mem`` Memorial casualties at the track
    bases; ``blue`` the blue tokens in the Harbor (index = token type - 4); ``blds`` the
    Seaside building types left to right with ``occ`` a bitmask of staffed activation
    circles; ``cards`` the cards in normal slots; ``gov`` the card in the free Governor
    slot (-1 if empty); ``aside`` the set-aside Slavery cards."""

    __slots__ = ("supply", "harbor", "attr", "btok", "mem", "blue", "blds", "occ",
                 "cards", "gov", "aside")

    def __init__(self) -> None:
        self.supply = D.DISCS_PER_PLAYER
        self.harbor = 0
        self.attr = [0, 0, 0, 0]
        self.btok = [0, 0, 0, 0]
        self.mem = [0, 0, 0, 0]
        self.blue = [0, 0, 0, 0]
        self.blds: list[int] = []
        self.occ = 0
        self.cards: list[int] = []
        self.gov = -1
        self.aside: list[int] = []

    def copy(self) -> Player:
        q = Player.__new__(Player)
        q.supply = self.supply
        q.harbor = self.harbor
        q.attr = self.attr[:]
        q.btok = self.btok[:]
        q.mem = self.mem[:]
        q.blue = self.blue[:]
        q.blds = self.blds[:]
        q.occ = self.occ
        q.cards = self.cards[:]
        q.gov = self.gov
        q.aside = self.aside[:]
        return q

    def level(self, attribute: int) -> int:
        """Build Level / Salary Level / Card Limit of a track."""
        s = self.attr[attribute]
        return _LEVEL[s] if s < 16 else 5


class State:
    """A position in a game. Create with :func:`new_game`; never mutate fields directly.

    Public surface: :attr:`current_player`, :attr:`is_over`, :meth:`legal_actions`,
    :meth:`apply`, :meth:`copy`, :meth:`parse_action`, :meth:`to_json`,
    :meth:`from_json`, :meth:`record`."""

    __slots__ = (
        "config", "n", "info", "players", "site_owner", "site_token", "link_token",
        "trk_owner", "trk_tok", "filled", "sea", "pres", "own", "occ_sites",
        "free_cities", "free_routes", "decks", "pile", "removed", "gov_avail",
        "bsupply", "level5", "spent", "abolished", "round", "step", "crown",
        "act_player", "passed", "phase", "stack", "hist", "nhist", "_legal",
        "ex", "exd", "smark", "lmark",
    )

    config: GameConfig
    n: int
    info: BoardInfo
    players: list[Player]
    site_owner: list[int]
    site_token: list[int]
    link_token: list[int]
    trk_owner: list[int]
    trk_tok: list[int]
    filled: list[int]
    sea: list[int]
    pres: list[int]
    own: list[int]
    occ_sites: list[int]
    free_cities: list[int]
    free_routes: list[int]
    decks: list[list[int]]
    pile: list[int]
    removed: list[int]
    gov_avail: list[int]
    bsupply: list[int]
    level5: tuple[int, ...]
    spent: list[int]
    abolished: bool
    round: int
    step: int
    crown: int
    act_player: int
    passed: int
    phase: int
    stack: list[tuple[int, ...]]
    hist: tuple[Any, ...] | None
    nhist: int
    _legal: list[int] | None
    ex: tuple[Exploit, ...]
    exd: list[list[int]]
    smark: list[int]
    lmark: list[int]

    # ------------------------------------------------------------------ construction
    def copy(self) -> State:
        """An independent copy (no shared mutable data)."""
        s = State.__new__(State)
        s.config = self.config
        s.n = self.n
        s.info = self.info
        s.players = [p.copy() for p in self.players]
        s.site_owner = self.site_owner[:]
        s.site_token = self.site_token[:]
        s.link_token = self.link_token[:]
        s.trk_owner = self.trk_owner[:]
        s.trk_tok = self.trk_tok[:]
        s.filled = self.filled[:]
        s.sea = self.sea[:]
        s.pres = self.pres[:]
        s.own = self.own[:]
        s.occ_sites = self.occ_sites[:]
        s.free_cities = self.free_cities[:]
        s.free_routes = self.free_routes[:]
        s.decks = [d[:] for d in self.decks]
        s.pile = self.pile[:]
        s.removed = self.removed[:]
        s.gov_avail = self.gov_avail[:]
        s.bsupply = self.bsupply[:]
        s.level5 = self.level5
        s.spent = self.spent[:]
        s.abolished = self.abolished
        s.round = self.round
        s.step = self.step
        s.crown = self.crown
        s.act_player = self.act_player
        s.passed = self.passed
        s.phase = self.phase
        s.stack = self.stack[:]
        s.hist = self.hist  # immutable cons list, shared safely
        s.nhist = self.nhist
        s._legal = self._legal  # never mutated in place, shared safely
        s.ex = self.ex
        s.exd = [d[:] for d in self.exd]
        s.smark = self.smark[:]
        s.lmark = self.lmark[:]
        return s

    __copy__ = copy

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> int | None:
        """The player who must decide now, or None when the game is over."""
        return self.stack[-1][1] if self.stack else None

    @property
    def is_over(self) -> bool:
        return self.phase == PH_END

    @property
    def frame(self) -> tuple[int, ...] | None:
        """The decision frame on top of the stack (see module doc), or None at the end."""
        return self.stack[-1] if self.stack else None

    def presence(self, player: int, region: int) -> int:
        """Discs of ``player`` in ``region`` (cities, trade routes, track, open sea)."""
        return self.pres[player * 7 + region]

    def is_open(self, region: int) -> bool:
        """Europe is always open; a region opens when its track is full."""
        return region == D.EUROPE or self.filled[region] == self.info.trk_len[region]

    def track(self, region: int) -> list[int]:
        """Owners of the region's shipping track spaces, farthest from the deck first."""
        o = self.info.trk_off[region]
        return self.trk_owner[o:o + self.info.trk_len[region]]

    def track_tokens(self, region: int) -> list[int]:
        """Trade tokens still on the region's track spaces (-1 where claimed)."""
        o = self.info.trk_off[region]
        return self.trk_tok[o:o + self.info.trk_len[region]]

    def sea_discs(self, player: int, region: int) -> int:
        """Discs of ``player`` in the open sea of ``region``."""
        return self.sea[player * 7 + region]

    def has_passed(self, player: int) -> bool:
        """Whether ``player`` has passed in this round's Action phase."""
        return bool(self.passed >> player & 1)

    @property
    def num_actions(self) -> int:
        """Number of actions applied since setup (the length of :meth:`history`)."""
        return self.nhist

    def controls_link(self, player: int, link: int) -> bool:
        """Both ends held by ``player`` and the link not Blockaded (Imperialism)."""
        x, y = self.info.board.links[link]
        return (self.site_owner[x] == player and self.site_owner[y] == player
                and not self.lmark[link] & L_BLOCKADE)

    # ------------------------------------------------------------------ Exploits
    def exploit_active(self, i: int) -> bool:
        """Exploit ``i`` is active once both its regions are open (its Keys placed)."""
        r1, r2 = self.ex[i].regions
        return self.is_open(r1) and self.is_open(r2)

    def has_shield(self, player: int, i: int) -> bool:
        """P13: a Shield while the Exploit is active and ``player`` has presence in both
        of its regions; only Shield holders may use or score it."""
        r1, r2 = self.ex[i].regions
        base = player * 7
        return (self.pres[base + r1] > 0 and self.pres[base + r2] > 0
                and self.is_open(r1) and self.is_open(r2))

    def exploit_index(self, exploit_id: str) -> int:
        """Index in :attr:`ex` of an Exploit in play, or -1."""
        for i, e in enumerate(self.ex):
            if e.id == exploit_id:
                return i
        return -1

    def spend_token(self, player: int, t: int) -> None:
        """Spend a real brown Trade token of type ``t`` from the mat (it leaves the game
        and the track drops). The caller checks ``players[player].btok[t] > 0``."""
        pl = self.players[player]
        pl.btok[t] -= 1
        pl.attr[t] -= 1
        self.spent[t] += 1

    def draw_presence(self, player: int, deck: int) -> int:
        """Presence counted to Draw from ``deck`` (R14; the pile uses Europe's), with
        Exploit bonuses for region decks (Europe is not a region: P14)."""
        if deck == D.SLAVERY_DECK or deck == D.PILE or deck == D.EU_DECK:
            return self.pres[player * 7]
        n = self.pres[player * 7 + deck]
        for i, e in _hooked(self.ex, "draw_bonus"):
            n += e.draw_bonus(self, i, player)
        return n

    def attack_cost(self, player: int, site: int) -> int:
        """Casualties ``player`` suffers attacking ``site`` (1; 2 if fortified; Exploit
        rules may lower it, never raise it: legality tests rely on that)."""
        cost = 2 if self.smark[site] & M_FORTIFIED else 1
        for i, e in enumerate(self.ex):
            cost = e.attack_cost(self, i, player, site, cost)
        return cost

    def _unpayable(self, p: int) -> int:
        m = 0
        for i, e in _hooked(self.ex, "unpayable"):
            m |= e.unpayable(self, i, p)
        return m

    def held_cards(self, player: int) -> list[int]:
        """Cards in normal slots plus the free Governor slot."""
        pl = self.players[player]
        return pl.cards + ([pl.gov] if pl.gov >= 0 else [])

    def over_card_limit(self, player: int) -> bool:
        """R18: at most 5 cards in normal slots, Card Limit of them counted after 1
        Slavery card exemption; the free Governor slot is outside both limits."""
        pl = self.players[player]
        n = len(pl.cards)
        if n > D.MAX_CARDS:
            return True
        slavery = any(_CARD_DECK[c] == D.SLAVERY_DECK for c in pl.cards)
        return n - slavery > pl.level(D.INFLUENCE)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """The legal actions now, sorted by code, unique; empty only when the game is over."""
        codes = self._legal
        if codes is None:
            codes = self._legal = self._gen()
        by = A.BY_CODE
        return [by[c] for c in codes]

    def legal_codes(self) -> list[int]:
        """Like :meth:`legal_actions` but as int codes (do not mutate the list)."""
        codes = self._legal
        if codes is None:
            codes = self._legal = self._gen()
        return codes

    def _gen(self) -> list[int]:
        if not self.stack:
            return []
        f = self.stack[-1]
        kind = f[0]
        p = f[1]
        if kind == F_ACTION:
            return self._gen_sources(p)
        if kind == F_EFFECT:
            return self._gen_effects(f)
        if kind == F_BUILD:
            return [_C(A.V_BUILD, b) for b in self.build_options(p)]
        if kind == F_SALARY:
            return self._gen_pay(p, False)
        if kind == F_START:
            return [_C(A.V_START, b) for b in D.START_BUILDINGS]
        if kind == F_CASUALTY:
            return [_C(A.V_CASUALTY, k) for k in range(5)]
        if kind == F_GOVSLOT:
            pl = self.players[p]
            govs = sorted(c for c in self.held_cards(p) if D.CARDS[c].governor)
            return [_C(A.V_SLOT, c) for c in govs] + [_C(A.V_SLOT, A.NONE_ARG)]
        if kind == F_DISCARD:
            pl = self.players[p]
            return [_C(A.V_DISCARD, c) for c in sorted(pl.cards)]
        if kind == F_EXPLOIT:
            return sorted(set(self.ex[f[2]].frame_codes(self, f[2], f)))
        raise AssertionError(f"unknown frame {f}")

    def build_options(self, p: int) -> list[int]:
        """Building types ``p`` may construct: Build Level or lower; if none remains, the
        next level up; never a second level-5 building (RB)."""
        pl = self.players[p]
        bl = pl.level(D.INDUSTRY)
        for i, e in _hooked(self.ex, "build_bonus"):
            bl += e.build_bonus(self, i, p)
        bl = min(bl, 5)
        has5 = any(_B_LEVEL[b] == 5 for b in pl.blds)
        sup = self.bsupply
        opts = [b for b in range(_NB) if sup[b] and _B_LEVEL[b] <= bl
                and not (has5 and _B_LEVEL[b] == 5)]
        if not opts and bl < 5:
            opts = [b for b in range(_NB) if sup[b] and _B_LEVEL[b] == bl + 1
                    and not (has5 and bl + 1 == 5)]
        return opts

    def _gen_pay(self, p: int, action_phase: bool) -> list[int]:
        pl = self.players[p]
        occ = pl.occ
        if self.ex:
            occ &= ~self._unpayable(p)
        seen = 0
        out = []
        for i, b in enumerate(pl.blds):
            if occ >> i & 1 and not (seen >> b & 1):
                if action_phase and _B_NOPAY[b]:  # R15
                    continue
                seen |= 1 << b
                out.append(_C(A.V_PAY, b))
        out.sort()
        return out

    def _gen_sources(self, p: int) -> list[int]:
        pl = self.players[p]
        h = pl.harbor
        out = []
        if h >= 1:
            occ = pl.occ
            seen = 0
            for i, b in enumerate(pl.blds):
                if not (occ >> i & 1) and _B_ACT[b] and not (seen >> b & 1):
                    seen |= 1 << b
                    _, k1, k2 = _B_SPEC[b]
                    if self.source_possible(p, k1, k2, h - 1):
                        out.append(_C(A.V_ACT, b))
            out.sort()
        for t in range(4):
            if pl.blue[t]:
                _, k1, k2 = D.TOKEN_ACTIONS[t]
                if self.source_possible(p, k1, k2, h):
                    out.append(_C(A.V_USE, t + 4))
        if self.ex:
            extra = False
            for i, e in _hooked(self.ex, "extra_sources"):
                more = e.extra_sources(self, i, p)
                if more:
                    out += more
                    extra = True
            if extra:
                out.sort()
        out.append(_C(A.V_PASS))
        return out

    def source_possible(self, p: int, k1: int, k2: int, harbor: int) -> bool:
        """R8: can a source of these kinds do anything with ``harbor`` discs left?"""
        return self._kind_possible(p, k1, harbor) or (
            k2 >= 0 and self._kind_possible(p, k2, harbor))

    def _kind_possible(self, p: int, kind: int, harbor: int) -> bool:
        """R8: can ``p`` carry out an action of ``kind`` with ``harbor`` discs left?"""
        if self.ex:
            # the fast test is exact for Ship, Payment and Draw, and for Occupy / Attack
            # while no site carries an Exploit marker (cost hooks only lower the cost)
            if self._base_possible(p, kind, harbor) and (
                    kind == D.SHIP or kind == D.PAYMENT or kind == D.DRAW
                    or not any(self.smark) or self._kind_codes(p, kind, -1, -1, harbor)):
                return True
            for i, e in enumerate(self.ex):
                if self.has_shield(p, i) and e.abilities(self, i, p, kind, harbor):
                    return True
            return False
        return self._base_possible(p, kind, harbor)

    def _base_possible(self, p: int, kind: int, harbor: int) -> bool:
        """Fast necessary (and, without Exploits, sufficient) test for a normal action."""
        if kind == D.SHIP:
            return harbor >= 1  # a closed track always has room; else open seas exist
        if kind == D.OCCUPY:
            if harbor < 1:
                return False
            pres = self.pres
            base = p * 7
            fc = self.free_cities
            for r in range(7):
                if fc[r] and (r == 0 or (pres[base + r] and self.is_open(r))):
                    return True
            return False
        if kind == D.ATTACK:
            if harbor < 2:  # 1 disc is enough only if an Exploit waives the casualty (P29)
                return (harbor == 1 and bool(self.ex)
                        and bool(_hooked(self.ex, "attack_cost"))
                        and bool(self._kind_codes(p, kind, -1, -1, 1)))
            pres = self.pres
            own = self.own
            occs = self.occ_sites
            base = p * 7
            for r in range(7):
                if occs[r] > own[base + r] and (r == 0 or (pres[base + r] and self.is_open(r))):
                    return True
            return False
        if kind == D.PAYMENT:
            pl = self.players[p]
            occ = pl.occ
            if self.ex:
                occ &= ~self._unpayable(p)
            for i, b in enumerate(pl.blds):
                if occ >> i & 1 and not _B_NOPAY[b]:
                    return True
            return False
        # DRAW (region decks count Exploit draw bonuses, P14; as in _kind_codes)
        bonus = 0
        if self.ex:
            for i, e in _hooked(self.ex, "draw_bonus"):
                bonus += e.draw_bonus(self, i, p)
        pres = self.pres
        base = p * 7
        for d, deck in enumerate(self.decks):
            if deck and _CARD_VALUE[deck[-1]] <= (
                    pres[base] if d == 0 or d == 7 else pres[base + d] + bonus):
                return True
        eu = pres[base]
        for c in self.pile:
            if _CARD_VALUE[c] <= eu:
                return True
        return False

    def _gen_effects(self, f: tuple[int, ...]) -> list[int]:
        _, p, mode, k1, k2, region, deck, flags = f
        h = self.players[p].harbor
        out = self._kind_codes(p, k1, region, deck, h, flags)
        if k2 >= 0 and k2 != k1:
            out += self._kind_codes(p, k2, region, deck, h, flags)
        if self.ex and not flags & FL_NORMAL_ONLY:
            for i, e in enumerate(self.ex):
                if self.has_shield(p, i):
                    out += e.abilities(self, i, p, k1, h)
                    if k2 >= 0 and k2 != k1:
                        out += e.abilities(self, i, p, k2, h)
        if mode == SECOND:
            out.append(_C(A.V_DONE))
        out.sort()
        return out

    def _kind_codes(self, p: int, kind: int, region: int, deck: int, h: int,
                    flags: int = 0) -> list[int]:
        """Every concrete target of a normal action of ``kind`` with ``h`` Harbor discs;
        ``region``/``deck`` >= 0 restrict a "+" second half to the first half's region or
        deck. Exploit markers (Pirate, Missionaries, fortifications) are respected."""
        info = self.info
        out: list[int] = []
        regions = range(7) if region < 0 else (region,)
        if kind == D.SHIP:
            if h < 1:
                return out
            owner = self.site_owner
            for r in regions:
                if r and not self.is_open(r):
                    out.append(_C(A.V_SHIP, r))
                elif r == 0 or self.is_open(r):
                    if self.free_routes[r]:
                        for s in info.routes_in[r]:
                            if owner[s] < 0:
                                out.append(_C(A.V_ROUTE, s))
                    if r:
                        out.append(_C(A.V_SEA, r))
            return out
        if kind == D.OCCUPY:
            if h < 1:
                return out
            owner = self.site_owner
            base = p * 7
            anywhere = flags & FL_NO_PRESENCE
            mark = self.smark
            for r in regions:
                if self.free_cities[r] and (r == 0 or (
                        (anywhere or self.pres[base + r]) and self.is_open(r))):
                    for s in info.cities_in[r]:
                        if owner[s] < 0 and not mark[s] & M_PIRATE:
                            out.append(_C(A.V_OCCUPY, s))
            return out
        if kind == D.ATTACK:
            if h < 2 and not (h == 1 and self.ex and _hooked(self.ex, "attack_cost")):
                return out
            owner = self.site_owner
            base = p * 7
            ex = self.ex
            mark = self.smark
            for r in regions:
                if self.occ_sites[r] > self.own[base + r] and (
                        r == 0 or (self.pres[base + r] and self.is_open(r))):
                    for s in info.cities_in[r] + info.routes_in[r]:
                        o = owner[s]
                        if o >= 0 and o != p:
                            # cost hooks only lower the cost (1, or 2 if fortified)
                            if ex and (mark[s] or h < 2) and (mark[s] & M_NO_ATTACK or (
                                    (h < 2 or mark[s] & M_FORTIFIED and h < 3)
                                    and h < 1 + self.attack_cost(p, s))):
                                continue
                            out.append(_C(A.V_ATTACK, s))
            return out
        if kind == D.PAYMENT:
            return self._gen_pay(p, True)
        # DRAW
        bonus = 0
        if self.ex:
            for i, e in _hooked(self.ex, "draw_bonus"):
                bonus += e.draw_bonus(self, i, p)
        base = p * 7
        pres = self.pres
        if deck != D.PILE:
            for d, dk in enumerate(self.decks):
                if (deck < 0 or deck == d) and dk and _CARD_VALUE[dk[-1]] <= (
                        pres[base] if d == 0 or d == 7 else pres[base + d] + bonus):
                    out.append(_C(A.V_DRAW, d))
        if deck < 0 or deck == D.PILE:
            eu = pres[base]
            for c in self.pile:
                if _CARD_VALUE[c] <= eu:
                    out.append(_C(A.V_DRAWP, c))
        return out

    # ------------------------------------------------------------------ apply
    def parse_action(self, text: str) -> Action:
        """Parse notation (raises :class:`NotationError`); legality is checked by apply."""
        return A.parse(text)

    def apply(self, action: Action | str) -> None:
        """Perform one legal action. Raises :class:`IllegalActionError` (state untouched)
        if it is not in :meth:`legal_actions`; accepts notation text too."""
        if not isinstance(action, Action):
            action = A.parse(action)  # NotationError for bad text or a non-string
        self.apply_code(action.code)

    def apply_code(self, c: int) -> None:
        """Fast path for bots: apply an action code taken from :meth:`legal_codes`."""
        codes = self._legal
        if codes is None:
            codes = self._gen()
        if c not in codes:
            if c not in A.BY_CODE:
                raise IllegalActionError(f"unknown action code {c!r}")
            raise IllegalActionError(self._why_illegal(A.BY_CODE[c], codes))
        self._legal = None
        self._do(c)
        self.hist = (c, self.hist)
        self.nhist += 1
        self._advance()

    def _why_illegal(self, action: Action, codes: list[int]) -> str:
        if self.is_over:
            return f"{action} is illegal: the game is over"
        f = self.stack[-1]
        who = f"player {f[1]}"
        what = FRAME_NAMES[f[0]]
        sample = ", ".join(A.BY_CODE[c].text for c in codes[:12])
        more = f" and {len(codes) - 12} more" if len(codes) > 12 else ""
        reason = self._illegal_reason(action, f)
        reason = f"{reason}; " if reason else ""
        art = "an" if what[0] in "aeiou" else "a"
        return (f"{action} is illegal: {reason}{who} must make {art} {what} decision "
                f"(round {self.round}, {PHASE_NAMES[self.phase]}); legal: {sample}{more}")

    def _exploit_reason(self, action: Action, f: tuple[int, ...]) -> str:
        """Why an Exploit action is not legal now (error messages only)."""
        n = ((action.verb - A.V_EXPLOIT) // A.EXPLOIT_VERBS) + 1
        i = next((j for j, e in enumerate(self.ex) if e.number == n), -1)
        if i < 0:
            return "that Exploit is not in this game"
        e = self.ex[i]
        if not self.exploit_active(i):
            r1, r2 = e.regions
            return (f"{e.name} is dormant until {D.REGION_NAMES[r1]} and "
                    f"{D.REGION_NAMES[r2]} are both open")
        if f[0] == F_EFFECT and not self.has_shield(f[1], i):
            return f"you hold no Shield on {e.name} (presence in both its regions, P13)"
        return (f"{e.name} does not offer it now (it answers another action type, or it "
                f"could not do anything, R8)")

    def _illegal_reason(self, action: Action, f: tuple[int, ...]) -> str:
        """The specific reason, for error messages only (legality is :meth:`_gen`'s)."""
        kind, p = f[0], f[1]
        if kind == F_EXPLOIT:  # the Exploit's own step: the legal list says it all
            return ""
        verb, arg = action.verb, action.arg
        if A.V_EXPLOIT <= verb < A.V_DONE:
            return self._exploit_reason(action, f)
        pl = self.players[p]
        frame_verbs = {F_START: (A.V_START,), F_BUILD: (A.V_BUILD,), F_SALARY: (A.V_PAY,),
                       F_ACTION: (A.V_ACT, A.V_USE, A.V_PASS),
                       F_CASUALTY: (A.V_CASUALTY,), F_GOVSLOT: (A.V_SLOT,),
                       F_DISCARD: (A.V_DISCARD,)}
        effect_kind = {A.V_SHIP: D.SHIP, A.V_ROUTE: D.SHIP, A.V_SEA: D.SHIP,
                       A.V_OCCUPY: D.OCCUPY, A.V_ATTACK: D.ATTACK, A.V_PAY: D.PAYMENT,
                       A.V_DRAW: D.DRAW, A.V_DRAWP: D.DRAW}
        if kind != F_EFFECT:
            if verb not in frame_verbs[kind]:
                return f"this is not the time for {A.VERB_NAMES[verb]!r}"
        elif verb == A.V_DONE:
            return "only the second action of a '+' source may be declined"
        elif verb not in effect_kind:
            return f"this is not the time for {A.VERB_NAMES[verb]!r}"
        if kind == F_BUILD:
            bd = D.BUILDINGS[arg]
            if not self.bsupply[arg]:
                return f"no {bd.name} is left in the supply"
            if bd.level == 5 and any(_B_LEVEL[b] == 5 for b in pl.blds):
                return "you already have a level-5 building"
            return (f"{bd.name} is level {bd.level}, above your Build Level "
                    f"{pl.level(D.INDUSTRY)}")
        if kind == F_SALARY:
            return f"you have no worker on a {D.BUILDINGS[arg].name}"
        if kind == F_ACTION:
            if verb == A.V_ACT:
                name = D.BUILDINGS[arg].name
                if arg not in pl.blds:
                    return f"you have no {name}"
                if all(pl.occ >> i & 1 for i, b in enumerate(pl.blds) if b == arg):
                    return f"your {name} is already staffed"
                if pl.harbor < 1:
                    return "you have no disc in your Harbor"
            elif verb == A.V_USE and not pl.blue[arg - 4]:
                return f"you hold no {D.TOKEN_NAMES[arg]} token"
            return "none of its actions can be carried out now (R8)"
        if kind == F_GOVSLOT:
            return f"you hold no Governor {D.CARDS[arg].code}"
        if kind == F_DISCARD:
            return f"you hold no {D.CARDS[arg].code} in a normal card slot"
        if kind != F_EFFECT:
            return "not allowed now"
        ek = effect_kind[verb]
        k1, k2, region, deck = f[3], f[4], f[5], f[6]
        if ek not in (k1, k2):
            allowed = "/".join(D.KIND_NAMES[k] for k in (k1, k2) if k >= 0)
            return f"this source allows {allowed}, not {D.KIND_NAMES[ek]}"
        if ek == D.PAYMENT:
            bd = D.BUILDINGS[arg]
            if bd.no_payment:
                return f"workers on your {bd.name} cannot be paid in the Action phase (R15)"
            return f"you have no worker on a {bd.name}"
        if ek == D.DRAW:
            d = arg if verb == A.V_DRAW else D.PILE
            if deck >= 0 and d != deck:
                return "the second Draw must be from the same deck"
            if verb == A.V_DRAWP:
                code = D.CARDS[arg].code
                if arg not in self.pile:
                    return f"{code} is not in the discard pile"
                return (f"your presence in Europe is {self.pres[p * 7]}, below the Draw "
                        f"Value {_CARD_VALUE[arg]} of {code} (R14)")
            dk = self.decks[d]
            if not dk:
                return f"the {D.DECK_NAMES[d]} deck is empty"
            r = 0 if d == D.SLAVERY_DECK else d
            return (f"your presence in {D.REGION_NAMES[r]} is {self.pres[p * 7 + r]}, below "
                    f"the Draw Value {_CARD_VALUE[dk[-1]]} of the top card (R14)")
        if verb in (A.V_SHIP, A.V_SEA):
            r = arg
        else:
            if arg not in self.info.sites:
                return f"{D.SITES[arg].code} is not on board side {self.config.board}"
            r = _SITE_REGION[arg]
        rname = D.REGION_NAMES[r]
        if region >= 0 and r != region:
            return f"the second action must be in {D.REGION_NAMES[region]}"
        need = 2 if ek == D.ATTACK else 1
        if pl.harbor < need:
            return f"you need {need} disc(s) in your Harbor"
        if verb == A.V_SHIP:
            return f"the {rname} track is full: ship to a trade route or the open sea (R10)"
        if not self.is_open(r):
            return f"{rname} is not open"
        if verb == A.V_SEA:
            return "not allowed now"
        code = f"{D.SITES[arg].code} ({D.SITES[arg].name})"
        owner = self.site_owner[arg]
        if ek == D.ATTACK:
            if owner < 0:
                return f"{code} is unoccupied: nothing to attack"
            if owner == p:
                return f"{code} is yours"
        elif owner >= 0:
            return f"{code} is already occupied"
        if r and not self.pres[p * 7 + r]:
            return f"you have no presence in {rname} (R12)"
        return "not allowed now"

    def _do(self, c: int) -> None:
        stack = self.stack
        f = stack[-1]
        kind = f[0]
        p = f[1]
        verb = c >> A.SHIFT
        arg = c & A.ARG
        pl = self.players[p]
        if kind == F_EFFECT:
            stack.pop()
            if verb == A.V_DONE:
                return
            if verb >= A.V_EXPLOIT:
                self._ability(f, p, c)
                return
            self._effect(f, p, verb, arg)
        elif kind == F_ACTION:
            stack.pop()
            if verb == A.V_PASS:
                self.passed |= 1 << p
                return
            if verb >= A.V_EXPLOIT:  # an Exploit's own source (e.g. Improved Cannon)
                i = self._exploit_of(c)
                self.ex[i].apply(self, i, p, c)
                return
            if verb == A.V_ACT:
                occ = pl.occ
                for i, b in enumerate(pl.blds):
                    if b == arg and not (occ >> i & 1):
                        pl.occ = occ | (1 << i)
                        break
                pl.harbor -= 1
                mode, k1, k2 = _B_SPEC[arg]
            else:  # V_USE
                pl.blue[arg - 4] -= 1
                self.spent[arg] += 1
                mode, k1, k2 = D.TOKEN_ACTIONS[arg - 4]
            stack.append((F_EFFECT, p, mode, k1, k2, -1, -1, 0))
        elif kind == F_EXPLOIT:
            stack.pop()
            self.ex[f[2]].frame_apply(self, f[2], f, c)
        elif kind == F_BUILD:
            stack.pop()
            self._build(p, arg)
        elif kind == F_SALARY:
            stack.pop()
            self._pay(p, arg)
            left = f[2] - 1
            workers = bin(pl.occ & ~self._unpayable(p)).count("1")
            if left > 0 and left < workers:
                stack.append((F_SALARY, p, left))
            else:
                if left >= workers:
                    self._pay_all(p)
                self._salary_done(p)
        elif kind == F_START:
            stack.pop()
            pl.blds.append(arg)
            pl.occ = 1
            pl.supply -= 1
            self._gain_icons(pl, D.BUILDINGS[arg].icons, 1)
        elif kind == F_CASUALTY:
            stack.pop()
            if arg < 4:  # Memorial: the casualty becomes a Trade token of that attribute
                pl.supply -= 1
                pl.mem[arg] += 1
                pl.attr[arg] += 1
        elif kind == F_GOVSLOT:
            stack.pop()
            if pl.gov >= 0:
                pl.cards.append(pl.gov)
                pl.gov = -1
            if arg != A.NONE_ARG:
                pl.cards.remove(arg)
                pl.gov = arg
            if self.over_card_limit(p):
                stack.append((F_DISCARD, p))
        elif kind == F_DISCARD:
            stack.pop()
            self._discard(p, arg)
            if self.over_card_limit(p):
                stack.append((F_DISCARD, p))
        else:  # pragma: no cover
            raise AssertionError(f)

    # ------------------------------------------------------------------ rules
    def _effect(self, f: tuple[int, ...], p: int, verb: int, arg: int) -> None:
        """Carry out one Ship / Occupy / Attack / Payment / Draw and, for the first half
        of a "+" source, queue the second half (same region or same deck)."""
        mode = f[2]
        base = len(self.stack)
        pl = self.players[p]
        region = -1
        deck = -1
        if verb == A.V_SHIP:
            kind = D.SHIP
            region = arg
            self._ship_track(p, pl, arg)
        elif verb == A.V_ROUTE or verb == A.V_OCCUPY:
            kind = D.SHIP if verb == A.V_ROUTE else D.OCCUPY
            region = _SITE_REGION[arg]
            pl.harbor -= 1
            self._place(p, arg)
        elif verb == A.V_SEA:
            kind = D.SHIP
            region = arg
            pl.harbor -= 1
            self.sea[p * 7 + arg] += 1
            self.pres[p * 7 + arg] += 1
        elif verb == A.V_ATTACK:
            kind = D.ATTACK
            region = _SITE_REGION[arg]
            self._attack(p, pl, arg)
        elif verb == A.V_PAY:
            kind = D.PAYMENT
            self._pay(p, arg)
        elif verb == A.V_DRAW:
            kind = D.DRAW
            deck = arg
            self._gain_card(p, self.decks[arg].pop(), True)
        else:  # V_DRAWP
            kind = D.DRAW
            deck = D.PILE
            self.pile.remove(arg)
            self._gain_card(p, arg, self.config.options["discard_pile_bonus"])  # R16
        if mode == D.BOTH:
            self._second_half(f, p, kind, region, deck, base)

    def _second_half(self, f: tuple[int, ...], p: int, kind: int, region: int, deck: int,
                     base: int) -> None:
        """Queue the other half of a "+" source (P5) below any frames the first pushed."""
        rest = f[4] if kind == f[3] else f[3]
        frame = (F_EFFECT, p, SECOND, rest, -1, region, deck, 0)
        if self._gen_effects(frame) != [_C(A.V_DONE)]:
            self.stack.insert(base, frame)

    def push_followup(self, p: int, kind: int, region: int = -1, deck: int = -1,
                      flags: int = FL_NORMAL_ONLY, kind2: int = -1) -> bool:
        """P16: offer ``p`` a follow-up normal action of ``kind`` (or, if ``kind2`` >= 0,
        of either kind), declinable with ``done``, restricted to ``region`` / ``deck`` if
        >= 0; skipped (False) when it has no possible target."""
        frame = (F_EFFECT, p, SECOND, kind, kind2, region, deck, flags)
        if self._gen_effects(frame) == [_C(A.V_DONE)]:
            return False
        self.stack.append(frame)
        return True

    def _exploit_of(self, c: int) -> int:
        n = ((c >> A.SHIFT) - A.V_EXPLOIT) // A.EXPLOIT_VERBS + 1
        for i, e in enumerate(self.ex):
            if e.number == n:
                return i
        raise AssertionError(f"no Exploit in play owns action {c}")  # pragma: no cover

    def _ability(self, f: tuple[int, ...], p: int, c: int) -> None:
        """An Exploit ability replaces the normal action; as one half of a "+" source it
        imposes no region or deck on the other half (P15)."""
        i = self._exploit_of(c)
        base = len(self.stack)
        e = self.ex[i]
        e.apply(self, i, p, c)
        if f[2] == D.BOTH:
            kind = e.ability_kind(c)
            self._second_half(f, p, kind, -1, -1, base)

    def _gain_token(self, pl: Player, t: int) -> None:
        if t < 4:
            pl.btok[t] += 1
            pl.attr[t] += 1
        else:
            pl.blue[t - 4] += 1

    def _gain_icons(self, pl: Player, icons: tuple[int, int, int, int], sign: int) -> None:
        a = pl.attr
        for k in range(4):
            if icons[k]:
                a[k] += sign * icons[k]

    def _ship_track(self, p: int, pl: Player, r: int) -> None:
        """R10: the free space farthest from the deck; filling the last space opens the
        region and awards its Governor (R11)."""
        pl.harbor -= 1
        i = self.info.trk_off[r] + self.filled[r]
        self.trk_owner[i] = p
        t = self.trk_tok[i]
        self.trk_tok[i] = -1
        self.filled[r] += 1
        self.pres[p * 7 + r] += 1
        if t >= 0:
            self._gain_token(pl, t)
        if self.filled[r] == self.info.trk_len[r]:
            self._open_region(r)

    def governor_winner(self, region: int) -> int:
        """R11: most discs on the track; ties go to the tied player whose disc is
        closest to the deck. -1 if the track is empty."""
        track = self.track(region)
        counts = [0] * self.n
        for o in track:
            if o >= 0:
                counts[o] += 1
        best = max(counts)
        if best == 0:
            return -1
        for o in reversed(track):
            if o >= 0 and counts[o] == best:
                return o
        return -1  # pragma: no cover

    def _open_region(self, r: int) -> None:
        g = self.gov_avail[r]
        if g < 0:
            return
        w = self.governor_winner(r)
        if w < 0:
            return
        self.gov_avail[r] = -1
        pl = self.players[w]
        if pl.gov < 0:
            pl.gov = g
        else:
            pl.cards.append(g)
        self._gain_icons(pl, _CARD_ICONS[g], 1)

    def _place(self, p: int, s: int) -> None:
        """Put a disc (already taken from the Harbor) of ``p`` on free site ``s``."""
        r = _SITE_REGION[s]
        self.site_owner[s] = p
        self.pres[p * 7 + r] += 1
        if not _SITE_TILE[s]:
            self.own[p * 7 + r] += 1
            self.occ_sites[r] += 1
            if _SITE_CITY[s]:
                self.free_cities[r] -= 1
            else:
                self.free_routes[r] -= 1
        pl = self.players[p]
        t = self.site_token[s]
        if t >= 0:
            self.site_token[s] = -1
            self._gain_token(pl, t)
        self._claim_links(p, pl, s)

    def _claim_links(self, p: int, pl: Player, s: int) -> None:
        """R13: the first player ever to control a circular link takes its token."""
        lt = self.link_token
        owner = self.site_owner
        lmark = self.lmark
        for li, other in self.info.adj[s]:
            if lt[li] >= 0 and owner[other] == p and not lmark[li]:
                t = lt[li]
                lt[li] = -1
                self._gain_token(pl, t)

    def _attack(self, p: int, pl: Player, s: int, cost: int = -1) -> None:
        """Casualties to supply, the defender's disc to its supply, then occupy (R9, R13).
        ``cost`` casualties come from the Harbor (default: :meth:`attack_cost`). A
        Memorial owner chooses where each of its casualties goes (RB fr)."""
        if cost < 0:
            cost = self.attack_cost(p, s) if self.ex else 1
        pl.harbor -= cost + 1
        pl.supply += cost
        if self.ex:
            for i, e in enumerate(self.ex):
                e.on_site_attacked(self, i, s)
        q = self._remove_disc(s)
        d = self.players[q]
        self._place(p, s)
        if D.B_MEMORIAL in d.blds:
            self.stack.append((F_CASUALTY, q))
        if D.B_MEMORIAL in pl.blds:
            self.stack.extend([(F_CASUALTY, p)] * cost)

    def _remove_disc(self, s: int) -> int:
        """Take the disc off site ``s`` back to its owner's supply; returns the owner."""
        q = self.site_owner[s]
        r = _SITE_REGION[s]
        self.players[q].supply += 1
        self.pres[q * 7 + r] -= 1
        self.site_owner[s] = -1
        if not _SITE_TILE[s]:
            self.own[q * 7 + r] -= 1
            self.occ_sites[r] -= 1
            if _SITE_CITY[s]:
                self.free_cities[r] += 1
            else:
                self.free_routes[r] += 1
        return q

    def _pay(self, p: int, b: int) -> None:
        """Pay the worker on ``p``'s leftmost staffed building of type ``b``."""
        pl = self.players[p]
        occ = pl.occ
        if self.ex:
            occ &= ~self._unpayable(p)
        for i, x in enumerate(pl.blds):
            if x == b and occ >> i & 1:
                pl.occ &= ~(1 << i)
                pl.harbor += 1
                return
        raise AssertionError("no worker to pay")  # pragma: no cover

    def _pay_all(self, p: int) -> None:
        """Pay every worker of ``p`` (components that are not workers stay)."""
        pl = self.players[p]
        workers = pl.occ & ~self._unpayable(p) if self.ex else pl.occ
        pl.harbor += bin(workers).count("1")
        pl.occ &= ~workers

    def _salary_done(self, p: int) -> None:
        """After ``p``'s workers are paid: Exploit Salary effects (R7)."""
        for i, e in enumerate(self.ex):
            e.salary(self, i, p)

    def _gain_card(self, p: int, c: int, bonus_ok: bool) -> None:
        pl = self.players[p]
        pl.cards.append(c)
        self._gain_icons(pl, _CARD_ICONS[c], 1)
        card = D.CARDS[c]
        if card.bonus_disc and bonus_ok and pl.supply:  # R16
            pl.supply -= 1
            pl.harbor += 1
        if card.abolition and not self.abolished:
            self._abolish()

    def _abolish(self) -> None:
        """R17: every held Slavery card is set aside (icons lost); the deck leaves play."""
        self.abolished = True
        for pl in self.players:
            keep = []
            for c in pl.cards:
                if _CARD_DECK[c] == D.SLAVERY_DECK:
                    pl.aside.append(c)
                    self._gain_icons(pl, _CARD_ICONS[c], -1)
                else:
                    keep.append(c)
            pl.cards = keep
        self.removed.extend(self.decks[D.SLAVERY_DECK])
        self.decks[D.SLAVERY_DECK] = []
        for i, e in enumerate(self.ex):
            e.on_abolish(self, i)

    def _discard(self, p: int, c: int) -> None:
        """R18: Slavery cards are set aside, Governors leave the game, others go to the
        face-up discard pile."""
        pl = self.players[p]
        pl.cards.remove(c)
        self._gain_icons(pl, _CARD_ICONS[c], -1)
        card = D.CARDS[c]
        if card.deck == D.SLAVERY_DECK:
            pl.aside.append(c)
        elif card.governor:
            self.removed.append(c)
        else:
            self.pile.append(c)

    def _build(self, p: int, b: int) -> None:
        pl = self.players[p]
        self.bsupply[b] -= 1
        pl.blds.append(b)
        self._gain_icons(pl, D.BUILDINGS[b].icons, 1)

    # ------------------------------------------------------------------ phase driver
    def _schedule(self) -> tuple[tuple[int, int], ...]:
        return _schedule(self.n, self.round, self.config.options["phase_order"])

    def _advance(self) -> None:
        """Run automatic steps until a decision is needed or the game ends (R5, R6)."""
        stack = self.stack
        n = self.n
        while not stack:
            if self.phase == PH_END:
                return
            sched = self._schedule()
            if self.step >= len(sched):
                self._end_round()
                continue
            ph, off = sched[self.step]
            self.phase = ph
            if ph == PH_ACTIONS:
                if self._next_turn():
                    return
                self.step += 1
                continue
            self.step += 1
            p = (self.crown + off) % n
            if ph == PH_SETUP:
                stack.append((F_START, p))
            elif ph == PH_CONSTRUCTION:
                if self.build_options(p):
                    stack.append((F_BUILD, p))
            elif ph == PH_GROWTH:
                pl = self.players[p]
                g = min(pl.supply, D.growth_level(pl.attr[D.CULTURE]))
                pl.supply -= g
                pl.harbor += g
            elif ph == PH_SALARY:
                pl = self.players[p]
                level = pl.level(D.WEALTH)
                workers = pl.occ & ~self._unpayable(p) if self.ex else pl.occ
                if bin(workers).count("1") <= level:  # R7: everyone can be paid (P2)
                    self._pay_all(p)
                    self._salary_done(p)
                else:
                    stack.append((F_SALARY, p, level))
            elif ph == PH_DISCARD:
                pl = self.players[p]
                if self.round == D.ROUNDS and any(
                        D.CARDS[c].governor for c in self.held_cards(p)):
                    stack.append((F_GOVSLOT, p))  # P1: only the last placement can score
                    continue
                if pl.gov < 0:  # P1: an empty free slot takes a Governor, never worse
                    for c in pl.cards:
                        if D.CARDS[c].governor:
                            pl.cards.remove(c)
                            pl.gov = c
                            break
                if self.over_card_limit(p):
                    stack.append((F_DISCARD, p))

    def _next_turn(self) -> bool:
        """R8: push the next non-passed player's action decision; False when all passed."""
        n = self.n
        full = (1 << n) - 1
        if self.passed == full:
            self.act_player = -1
            return False
        if self.act_player < 0:
            p = self.crown
        else:
            p = self.act_player
            for k in range(1, n + 1):
                p = (self.act_player + k) % n
                if not (self.passed >> p & 1):
                    break
        self.act_player = p
        self.stack.append((F_ACTION, p))
        return True

    def _end_round(self) -> None:
        self.step = 0
        self.passed = 0
        self.act_player = -1
        if self.round >= D.ROUNDS:
            self.phase = PH_END
            return
        if self.round >= 1:  # the Crown passes left (R5)
            self.crown = (self.crown + 1) % self.n
        self.round += 1

    # ------------------------------------------------------------------ records
    def history(self) -> list[Action]:
        """Every action applied since setup, in order."""
        out = []
        h = self.hist
        while h is not None:
            out.append(A.BY_CODE[h[0]])
            h = h[1]
        out.reverse()
        return out

    def record(self) -> dict[str, Any]:
        """A JSON-serializable record: the config and the action notations (R2)."""
        from .records import make_record
        return make_record(self)

    def to_json(self) -> str:
        """The whole state as versioned JSON; :meth:`from_json` restores it exactly."""
        from .records import state_to_json
        return state_to_json(self)

    @staticmethod
    def from_json(text: str) -> State:
        """Rebuild a state from :meth:`to_json` output; raises :class:`RecordError`."""
        from .records import state_from_json
        return state_from_json(text)

    def __repr__(self) -> str:
        cp = self.current_player
        return (f"<State round {self.round} {PHASE_NAMES[self.phase]} "
                f"player {cp} decides; {self.nhist} actions>")


_SCHED_CACHE: dict[tuple[int, int, str], tuple[tuple[int, int], ...]] = {}


def _schedule(n: int, rnd: int, order: str) -> tuple[tuple[int, int], ...]:
    """The round's steps as (phase, offset from the Crown) pairs (R5, R6)."""
    key = (n, rnd if rnd == 0 else 1, order)
    s = _SCHED_CACHE.get(key)
    if s is None:
        steps: list[tuple[int, int]] = []
        if rnd == 0:
            steps = [(PH_SETUP, i) for i in range(n)]
        else:
            early = (PH_CONSTRUCTION, PH_GROWTH, PH_SALARY)
            if order == "by_player":
                steps = [(ph, i) for i in range(n) for ph in early]
            else:
                steps = [(ph, i) for ph in early for i in range(n)]
            steps.append((PH_ACTIONS, 0))
            steps += [(PH_DISCARD, i) for i in range(n)]
        s = _SCHED_CACHE[key] = tuple(steps)
    return s


def new_game(config: GameConfig | None = None) -> State:
    """Set up a game (R2): deal the 95 tokens, order the decks, draw the level-5 pool,
    pick the first player; the first decision is the Crown holder's start tile."""
    if config is None:
        config = GameConfig()
    if not isinstance(config, GameConfig):
        raise TypeError("new_game expects a GameConfig")
    rng = random.Random(config.seed)
    map_info = _BOARD_INFO[(str(config.board), False)]
    n = config.players
    s = State.__new__(State)
    s.config = config
    s.n = n
    s.players = [Player() for _ in range(n)]
    tokens = [t for t, k in enumerate(D.TOKEN_COUNTS) for _ in range(k)]
    rng.shuffle(tokens)
    it = iter(tokens)
    s.trk_owner = [-1] * map_info.ntrack
    s.trk_tok = [next(it) for _ in range(map_info.ntrack)]
    s.site_token = [-1] * D.NSITES
    for site in map_info.sites:  # the printed map only: tile cities carry no token
        s.site_token[site] = next(it)
    s.link_token = [-1] * map_info.nlinks
    for li in map_info.circular_links:
        s.link_token[li] = next(it)
    s.site_owner = [-1] * D.NSITES
    s.filled = [0] * 7
    s.sea = [0] * (7 * n)
    s.pres = [0] * (7 * n)
    s.own = [0] * (7 * n)
    s.occ_sites = [0] * 7
    s.decks = [list(d) for d in D.INITIAL_DECKS]
    s.pile = []
    s.removed = []
    s.gov_avail = list(D.GOVERNORS)
    s.bsupply = [0] * _NB
    for b in D.BASE_SUPPLY:
        s.bsupply[b] = D.BUILDINGS[b].copies
    s.level5 = tuple(sorted(rng.sample(D.LEVEL5_POOL, D.LEVEL5_AVAILABLE)))
    for b in s.level5:
        s.bsupply[b] = 1
    s.spent = [0] * 8
    s.abolished = False
    s.crown = rng.randrange(n)
    ids = config.exploits
    if isinstance(ids, str):  # "random" (R4): drawn last, so the deal matches other games
        ids = tuple(rng.sample(EXPLOIT_IDS, 3))
    s.ex = tuple(EX.REGISTRY[e] for e in ids)
    info = _BOARD_INFO[(str(config.board), "dutch_east_india_company" in ids)]
    s.info = info
    s.link_token += [-1] * (info.nlinks - map_info.nlinks)
    s.free_cities = [len(info.cities_in[r]) for r in range(7)]
    s.free_routes = [len(info.routes_in[r]) for r in range(7)]
    s.round = 0
    s.step = 0
    s.act_player = -1
    s.passed = 0
    s.phase = PH_SETUP
    s.stack = []
    s.hist = None
    s.nhist = 0
    s._legal = None
    s.smark = [0] * D.NSITES
    s.lmark = [0] * info.nlinks
    s.exd = []
    for i, e in enumerate(s.ex):  # Exploit setup, before the start tiles
        s.exd.append(e.setup(s, i))
    s._advance()
    return s
