"""The observation encoder's core: the layout of the vector and an incremental writer.

Stdlib only (no numpy), typed for mypyc: the compiled build compiles this module with
the engine (``setup.py``), while :mod:`endeavor.rl.observation` wraps it with numpy.

The vector is ``float32``, one layout for every game (both rulesets, 2-5 players, any
board, any Exploits, the Silent Fleet): :data:`FIELDS` lists its fields in order, each a
row-major block of ``rows x width`` floats of one of three kinds:

* ``onehot``: each row is all zeros (nothing) or has a single 1 (its value);
* ``bits``: each row is a set of flags;
* ``count``: each float is a non-negative integer divided by the field's ``scale``.

Every seat is seen from the observer: relative seat ``k`` is the seat ``k`` places after
the observer in seat order (0: the observer), rows and columns of seats 5 - n... stay
zero in a smaller game. Owners (of discs) are the 5 relative seats, then the neutral
Silent Fleet.

:class:`Encoder` keeps, per observer, the vector of the last state it encoded and a copy
of each part of that state, so that encoding the next one rewrites only what changed
(the RL loop encodes one position after another, which differ in a few places). Every
write is a bytes-slice assignment of ready-made float32 patterns into a ``bytearray``
that numpy views without copying.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Final

from .. import data as D
from ..frames import F_EFFECT, F_EXPLOIT, F_SALARY, SRC_SHIFT, SRC_TOKEN

if TYPE_CHECKING:
    from ..state import Player, State

#: seat slots (the most players of any ruleset) and disc owners (the seats, then the
#: Silent Fleet)
SEATS: Final = 5
OWNERS: Final = SEATS + 1
FLEET: Final = SEATS
#: the longest shipping track of any board (the classic Far East: 8), the most links of
#: any board (side B: 39, plus the Dutch East India Company's tile link)
MAX_TRACK: Final = 8
MAX_LINKS: Final = 40
NMODULES: Final = 16  # module numbers 1-15: the Exploits; 16: the Silent Fleet
NSITES: Final = D.NSITES
NCARDS: Final = D.NCARDS
NBUILDINGS: Final = len(D.BUILDINGS)

SEAT_LABELS: Final[tuple[object, ...]] = tuple(range(SEATS))
OWNER_LABELS: Final[tuple[object, ...]] = (*range(SEATS), "fleet")
TOKEN_LABELS: Final[tuple[object, ...]] = D.TOKEN_CODES
REGION_LABELS: Final[tuple[object, ...]] = D.REGION_CODES
OVERSEAS: Final[tuple[object, ...]] = D.REGION_CODES[1:]
CARD_LABELS: Final[tuple[object, ...]] = tuple(c.code for c in D.CARDS)
BUILDING_LABELS: Final[tuple[object, ...]] = tuple(b.code for b in D.BUILDINGS)
SITE_LABELS: Final[tuple[object, ...]] = tuple(x.code for x in D.SITES)
ATTR_LABELS: Final[tuple[object, ...]] = D.ATTRIBUTES
KIND_LABELS: Final[tuple[object, ...]] = tuple(k.lower() for k in D.KIND_NAMES)
#: the options, as flags (phase_order: by_player)
OPTION_NAMES: Final = ("phase_order", "discard_pile_bonus", "plus_same_region",
                       "silent_fleet", "limited_occupation", "no_token_reaction",
                       "building_shortage")
OPTION_LABELS: Final[tuple[object, ...]] = ("by_player",) + OPTION_NAMES[1:]
MODULE_IDS: Final[tuple[object, ...]] = (
    "saltpeter_stockpiles", "republic_of_pirates", "imperialism", "spanish_main",
    "dutch_east_india_company", "jesuit_missionaries", "south_sea_company",
    "manila_galleons", "underground_railroad", "transit_of_venus", "sun_never_sets",
    "spice_trade", "globalisation", "letters_of_marque", "haitian_revolution",
    "silent_fleet")
NEXPLOITS: Final = 15
LEVEL5_LABELS: Final[tuple[object, ...]] = tuple(D.BUILDINGS[b].code for b in D.LEVEL5_POOL)
#: the Pirate's cities (The Republic of Pirates: North America and the Caribbean, either
#: board side, not the tile cities)
PIRATE_CITIES: Final = tuple(x for x, site in enumerate(D.SITES)
                             if site.city and site.region in (D.CARIBBEAN, D.NORTH_AMERICA)
                             and site.code not in D.TILE_SITES)
FRAME_LABELS: Final[tuple[object, ...]] = (
    "start_tile", "construction", "salary", "action", "effect", "casualty",
    "governor_slot", "discard", "module_step")
PHASE_LABELS: Final[tuple[object, ...]] = ("setup", "construction", "growth", "salary",
                                           "actions", "discard", "game_over")


class Field:
    """One block of the vector: ``rows x width`` floats from ``offset`` (in floats)."""

    __slots__ = ("name", "kind", "rows", "labels", "scale", "doc", "offset", "size")

    def __init__(self, name: str, kind: str, rows: tuple[object, ...],
                 labels: tuple[object, ...], scale: int, doc: str, offset: int) -> None:
        self.name = name
        self.kind = kind
        #: row labels (``()``: a single row)
        self.rows = rows
        #: column labels: the values of a onehot row, the flags of a bits row, the
        #: items of a count row
        self.labels = labels
        self.scale = scale
        self.doc = doc
        self.offset = offset
        self.size = max(1, len(rows)) * len(labels)

    @property
    def width(self) -> int:
        return len(self.labels)

    def __repr__(self) -> str:
        return f"<Field {self.name} {self.kind} @{self.offset}+{self.size}>"


_fields: list[Field] = []


def _field(name: str, kind: str, labels: tuple[object, ...], doc: str,
           rows: tuple[object, ...] = (), scale: int = 1) -> int:
    """Append a field; returns its offset in floats."""
    off = _fields[-1].offset + _fields[-1].size if _fields else 0
    _fields.append(Field(name, kind, rows, labels, scale, doc, off))
    return off


def _rng(n: int) -> tuple[object, ...]:
    return tuple(range(n))


_TRACK_ROWS: Final = tuple(f"{D.REGION_CODES[r]}{k + 1}" for r in range(1, D.NREGIONS)
                           for k in range(MAX_TRACK))

# --------------------------------------------------------------------------- the layout
O_RULESET: Final = _field("game.ruleset", "onehot", ("age_of_sail", "classic"), "ruleset")
O_BOARD: Final = _field("game.board", "onehot", ("A", "B", "classic"), "board side")
O_PLAYERS: Final = _field("game.players", "onehot", (2, 3, 4, 5), "number of players")
O_OPTIONS: Final = _field("game.options", "bits", OPTION_LABELS,
                          "options on (phase_order: by_player)")
O_MODULES: Final = _field("game.modules", "bits", MODULE_IDS,
                          "rule modules in play, by number (1-15 Exploits, 16 Silent Fleet)")
O_LEVEL5: Final = _field("game.level5", "bits", LEVEL5_LABELS,
                         "level-5 building types in this game")
O_ROUND: Final = _field("turn.round", "onehot", _rng(8), "round (0: setup)")
O_PHASE: Final = _field("turn.phase", "onehot", PHASE_LABELS, "phase")
O_CROWN: Final = _field("turn.crown", "onehot", SEAT_LABELS, "Crown holder (first player)")
O_CURRENT: Final = _field("turn.current", "onehot", SEAT_LABELS,
                          "who decides now (none when the game is over)")
O_ACTIVE: Final = _field("turn.active", "onehot", SEAT_LABELS,
                         "whose Action-phase turn it is (none outside one)")
O_PASSED: Final = _field("turn.passed", "bits", SEAT_LABELS,
                         "has passed in this Action phase")
O_TURN: Final = _field("turn.kinds", "bits", ("open", *KIND_LABELS),
                       "a turn is under way; action kinds it carried out so far")
O_ABOLISHED: Final = _field("turn.abolished", "bits", ("abolished",), "Slavery abolished")
O_SPENT: Final = _field("turn.spent", "count", TOKEN_LABELS,
                        "Trade tokens out of the game (spent, discarded), by type", scale=10)
O_PENDING: Final = _field("turn.pending", "count", ("pending",),
                          "decisions waiting below the current one", scale=4)
O_FRAME: Final = _field("decision.frame", "onehot", FRAME_LABELS, "kind of decision pending")
O_PAYMENTS: Final = _field("decision.payments", "count", ("payments",),
                           "salary: payments left", scale=5)
O_MODE: Final = _field("decision.mode", "onehot", ("single", "choice", "both", "second"),
                       "effect: single action, a '/' choice, a '+' pair, a second half "
                       "or follow-up")
O_KIND1: Final = _field("decision.kind1", "onehot", KIND_LABELS, "effect: first action kind")
O_KIND2: Final = _field("decision.kind2", "onehot", KIND_LABELS, "effect: second action kind")
O_REGION: Final = _field("decision.region", "onehot", REGION_LABELS,
                         "effect: region it is restricted to")
O_DECK: Final = _field("decision.deck", "onehot", (*D.DECK_CODES, "pile"),
                       "effect: deck it is restricted to")
O_FLAGS: Final = _field("decision.flags", "bits", ("no_presence", "normal_only", "no_europe"),
                        "effect: flags")
O_SOURCE: Final = _field("decision.source", "onehot", BUILDING_LABELS + TOKEN_LABELS[4:],
                         "effect: the building or blue token activated")
O_MODULE: Final = _field("decision.module", "onehot", MODULE_IDS,
                         "module step: the module asking")
O_STEP: Final = _field("decision.step", "onehot", _rng(8), "module step: the step")
O_STEP_A: Final = _field("decision.a", "bits", _rng(8),
                         "module step: its first int, in binary (a seat: relative)")
O_STEP_B: Final = _field("decision.b", "bits", _rng(8), "module step: its second int, in binary")
O_TRK_OPEN: Final = _field("tracks.open", "bits", OVERSEAS, "region open (track full)")
O_TRK_LEN: Final = _field("tracks.length", "count", OVERSEAS,
                          "shipping track length (spaces)", scale=MAX_TRACK)
O_TRK_OWNER: Final = _field("tracks.owner", "onehot", OWNER_LABELS,
                            "disc on each track space, farthest from the deck first",
                            rows=_TRACK_ROWS)
O_TRK_TOKEN: Final = _field("tracks.token", "onehot", TOKEN_LABELS,
                            "Trade token still on each track space", rows=_TRACK_ROWS)
O_SITE_OWNER: Final = _field("sites.owner", "onehot", OWNER_LABELS,
                             "disc on each city / trade route", rows=SITE_LABELS)
O_SITE_TOKEN: Final = _field("sites.token", "onehot", TOKEN_LABELS,
                             "Trade token on each city / trade route", rows=SITE_LABELS)
O_SITE_MARK: Final = _field("sites.marks", "bits",
                            ("fortified", "fortified_deic", "missionary", "pirate"),
                            "markers on each site (Exploits)", rows=SITE_LABELS)
O_LINK_TOKEN: Final = _field("links.token", "onehot", TOKEN_LABELS,
                             "Trade token on each link (the board's link order)",
                             rows=_rng(MAX_LINKS))
O_LINK_BLOCK: Final = _field("links.blockade", "bits", ("blockade",),
                             "Blockade on each link (Imperialism)", rows=_rng(MAX_LINKS))
O_LINK_CTL: Final = _field("links.control", "onehot", SEAT_LABELS,
                           "who controls each link", rows=_rng(MAX_LINKS))
O_SEA: Final = _field("sea", "count", OVERSEAS, "discs in each open sea", rows=OWNER_LABELS,
                      scale=5)
O_PRES: Final = _field("presence", "count", REGION_LABELS, "presence in each region",
                       rows=OWNER_LABELS, scale=10)
O_DECK_COUNT: Final = _field("decks.count", "count", D.DECK_CODES, "cards left in each deck",
                             scale=8)
O_DECK_VALUE: Final = _field("decks.top_value", "onehot", _rng(6),
                             "Draw Value of each deck's top card", rows=D.DECK_CODES)
O_DECK_ORIGIN: Final = _field("decks.top_deck", "onehot", D.DECK_CODES,
                              "the deck printed on each deck's top card", rows=D.DECK_CODES)
O_IN_DECK: Final = _field("cards.in_deck", "bits", CARD_LABELS, "cards in a deck")
O_PILE: Final = _field("cards.pile", "bits", CARD_LABELS, "cards in the discard pile")
O_REMOVED: Final = _field("cards.removed", "bits", CARD_LABELS, "cards out of the game")
O_GOV_AVAIL: Final = _field("cards.governors", "bits", OVERSEAS,
                            "Governor still beside its deck")
O_BSUPPLY: Final = _field("buildings.supply", "count", BUILDING_LABELS,
                          "buildings left in the supply", scale=5)
O_NSUPPLY: Final = _field("fleet.supply", "count", ("supply",),
                          "the Silent Fleet's discs in its supply", scale=35)
O_PRESENT: Final = _field("mats.present", "bits", ("present",), "seat in the game",
                          rows=SEAT_LABELS)
O_SUPPLY: Final = _field("mats.supply", "count", ("supply",), "discs in the supply",
                         rows=SEAT_LABELS, scale=35)
O_HARBOR: Final = _field("mats.harbor", "count", ("harbor",), "discs in the Harbor",
                         rows=SEAT_LABELS, scale=10)
O_MARKER: Final = _field("mats.marker", "count", ATTR_LABELS,
                         "status markers (the classic tracks stop at 15)",
                         rows=SEAT_LABELS, scale=15)
O_LEVEL: Final = _field("mats.level", "count", ATTR_LABELS,
                        "track levels (Build Level, Growth, Salary, Card Limit)",
                        rows=SEAT_LABELS, scale=5)
O_BTOK: Final = _field("mats.brown", "count", ATTR_LABELS,
                       "brown Trade tokens at the track bases", rows=SEAT_LABELS, scale=5)
O_MEM: Final = _field("mats.discs_at_base", "count", ATTR_LABELS,
                      "discs at the track bases (Memorial, Spice Trade)",
                      rows=SEAT_LABELS, scale=5)
O_BLUE: Final = _field("mats.blue", "count", TOKEN_LABELS[4:], "blue Trade tokens in the Harbor",
                       rows=SEAT_LABELS, scale=2)
O_BLDS: Final = _field("mats.buildings", "count", BUILDING_LABELS, "buildings in the Seaside",
                       rows=SEAT_LABELS)
O_WORKERS: Final = _field("mats.occupied", "count", BUILDING_LABELS,
                          "of them, with their activation circle taken", rows=SEAT_LABELS)
O_CARDS: Final = _field("mats.cards", "bits", CARD_LABELS, "cards in normal slots",
                        rows=SEAT_LABELS)
O_GOV: Final = _field("mats.governor", "onehot", OVERSEAS,
                      "the Governor in the free Governor slot", rows=SEAT_LABELS)
O_ASIDE: Final = _field("mats.aside", "count", ("aside",), "Slavery cards set aside",
                        rows=SEAT_LABELS, scale=3)
O_ACTIVE_EX: Final = _field("exploits.active", "bits", MODULE_IDS[:NEXPLOITS],
                            "Exploit in play and active (both regions open)")
O_SHIELD: Final = _field("exploits.shield", "bits", SEAT_LABELS,
                         "holds the Exploit's Shield", rows=MODULE_IDS[:NEXPLOITS])
# the modules' own data (zero when the module is not in play), by module number
O_SP_TILE: Final = _field("saltpeter_stockpiles.tile", "count", ("cannons",),
                          "Improved Cannons on the tile", scale=6)
O_SP_HELD: Final = _field("saltpeter_stockpiles.held", "count", SEAT_LABELS,
                          "Improved Cannons in the Harbor", scale=6)
O_SP_ON: Final = _field("saltpeter_stockpiles.on_buildings", "count", SEAT_LABELS,
                        "Improved Cannons on buildings", scale=6)
O_SP_DISC: Final = _field("saltpeter_stockpiles.disc", "bits", SEAT_LABELS,
                          "a disc on the tile")
O_RP_PIRATE: Final = _field("republic_of_pirates.pirate", "onehot",
                            ("tile", "gone") + tuple(D.SITES[x].code for x in PIRATE_CITIES),
                            "where the Pirate is")
O_RP_NASSAU: Final = _field("republic_of_pirates.nassau", "onehot", SEAT_LABELS,
                            "disc in Nassau")
O_RP_GOV: Final = _field("republic_of_pirates.governor", "onehot", SEAT_LABELS,
                         "disc on the Nassau Governor space")
O_IM_HELD: Final = _field("imperialism.held", "count", SEAT_LABELS, "Blockades held", scale=9)
O_SM_TILE: Final = _field("spanish_main.tile", "count", ("fortifications",),
                          "Fortifications on the tile", scale=8)
O_SM_USED: Final = _field("spanish_main.used", "bits", SEAT_LABELS,
                          "used the Payments ability this round")
O_DE_TILE: Final = _field("dutch_east_india_company.tile", "count", ("fortifications",),
                          "Fortifications on the tile", scale=2)
O_JM_TILE: Final = _field("jesuit_missionaries.tile", "count", ("missionaries",),
                          "Missionaries on the tile", scale=5)
O_JM_SITES: Final = _field("jesuit_missionaries.sites", "count", SITE_LABELS,
                           "Missionaries in each city", scale=5)
O_SS_TRACK: Final = _field("south_sea_company.track", "onehot", SEAT_LABELS,
                           "disc on each Investment Track space", rows=_rng(7))
O_SS_SHARES: Final = _field("south_sea_company.shares", "onehot",
                            ("tile", "gone", *SEAT_LABELS),
                            "where each Share is (0-1 disc, 2-3 payment, 4 2discs)",
                            rows=_rng(5))
O_SS_BURST: Final = _field("south_sea_company.burst", "bits", ("burst",), "the bubble burst")
O_MG_TILE: Final = _field("manila_galleons.tile", "count", ("galleons",),
                          "Galleons on the tile", scale=8)
O_MG_MANILA: Final = _field("manila_galleons.manila", "count", SEAT_LABELS, "discs in Manila")
O_MG_HELD: Final = _field("manila_galleons.held", "count", SEAT_LABELS, "Galleons held", scale=8)
O_UR_SPACES: Final = _field("underground_railroad.spaces", "onehot", SEAT_LABELS,
                            "disc on each map space", rows=_rng(5))
O_UR_HELD: Final = _field("underground_railroad.freedom", "count", ATTR_LABELS,
                          "Freedom tokens held", rows=SEAT_LABELS, scale=2)
_VENUS_TYPES: Final[tuple[object, ...]] = (*ATTR_LABELS, "glory")
O_TV_SPACES: Final = _field("transit_of_venus.spaces", "onehot", SEAT_LABELS,
                            "disc on each South Pacific space", rows=_rng(8))
O_TV_TILE: Final = _field("transit_of_venus.tile", "count", _VENUS_TYPES,
                          "Transit tokens on the tile", scale=2)
O_TV_HELD: Final = _field("transit_of_venus.held", "count", _VENUS_TYPES,
                          "Transit tokens held", rows=SEAT_LABELS, scale=2)
O_TV_FIN: Final = _field("transit_of_venus.financier", "onehot", SEAT_LABELS,
                         "who claimed each Financier spot", rows=("3-discs", "2-discs",
                                                                  "2-payments"))
O_SN_DISCS: Final = _field("sun_never_sets.discs", "count", SEAT_LABELS, "discs on the tile",
                           scale=8)
O_HR_CARDS: Final = _field("haitian_revolution.cards", "bits", CARD_LABELS,
                           "cards stacked on the tile")
O_SF_OCC: Final = _field("silent_fleet.occupied", "bits", REGION_LABELS,
                         "regions where the acting player occupied a city this turn")
O_SF_TOKEN: Final = _field("silent_fleet.token_turn", "bits", ("token",),
                           "the turn was started with a blue token")
O_SF_OUT: Final = _field("silent_fleet.out", "count", ("tokens", "cards"),
                         "Trade tokens and cards the fleet sent out of the game", scale=10)
O_SF_SHORT: Final = _field("silent_fleet.shortage", "count", BUILDING_LABELS,
                           "buildings discarded by the building shortage")
O_SF_CITIES: Final = _field("silent_fleet.cities", "count", REGION_LABELS,
                            "cities held per region as of the last action (limited "
                            "occupation)", rows=SEAT_LABELS, scale=5)

FIELDS: Final = tuple(_fields)
FIELD: Final = {f.name: f for f in FIELDS}
SIZE: Final = FIELDS[-1].offset + FIELDS[-1].size

# --------------------------------------------------------------------------- patterns
_F32: Final = struct.Struct("=f")


def _f32(x: float) -> bytes:
    return _F32.pack(x)


ONE: Final = _f32(1.0)
#: ONEHOT[w][v + 1]: a row of width w with a 1 at v (v = -1: all zeros)
ONEHOT: Final = tuple(tuple(b"".join(ONE if k == v else bytes(4) for k in range(w))
                            for v in range(-1, w))
                      for w in range(max(f.width for f in FIELDS if f.kind == "onehot") + 1))
#: BITS[w][mask]: a row of w <= 8 flags
BITS: Final = tuple(tuple(b"".join(ONE if m >> k & 1 else bytes(4) for k in range(w))
                          for m in range(1 << w))
                    for w in range(9))
#: the largest count a count float shows (larger ones are shown as this)
MAX_COUNT: Final = 255
#: COUNT[scale][v]: v / scale
COUNT: Final = tuple(tuple(_f32(v / s) for v in range(MAX_COUNT + 1)) if s else ()
                     for s in range(max(f.scale for f in FIELDS) + 1))

_CARD_VALUE: Final = tuple(c.value for c in D.CARDS)
_CARD_DECK: Final = tuple(c.deck for c in D.CARDS)
_SLAVERY_CARDS: Final = tuple(c for c in range(NCARDS) if _CARD_DECK[c] == D.SLAVERY_DECK)
_LEVEL: Final = D.TRACK_LEVEL
_PIRATE_SLOT: Final = {x: 2 + k for k, x in enumerate(PIRATE_CITIES)}
_MODULE_NUMBER: Final = {m: k + 1 for k, m in enumerate(MODULE_IDS)}
_LETTERS: Final = 14  # Letters of Marque: its step 0 (steal) names the pushed player
_SPANISH: Final = 4  # The Spanish Main: whether Payments were used depends on the round


def onehot(buf: bytearray, off: int, width: int, v: int) -> None:
    """Row of ``width`` floats at float offset ``off``: a 1 at ``v`` (nothing if out of
    range)."""
    if v < 0 or v >= width:
        v = -1
    b = off * 4
    buf[b:b + 4 * width] = ONEHOT[width][v + 1]


def bits(buf: bytearray, off: int, width: int, mask: int) -> None:
    """Row of ``width`` flags at ``off``: bit k of ``mask`` -> float k."""
    k = 0
    while k < width:
        w = width - k if width - k < 8 else 8
        b = (off + k) * 4
        buf[b:b + 4 * w] = BITS[w][(mask >> k) & ((1 << w) - 1)]
        k += 8


def count(buf: bytearray, off: int, scale: int, v: int) -> None:
    """One float at ``off``: ``v / scale`` (v clamped to 0..MAX_COUNT)."""
    if v < 0:
        v = 0
    elif v > MAX_COUNT:
        v = MAX_COUNT
    b = off * 4
    buf[b:b + 4] = COUNT[scale][v]


def counts(buf: bytearray, off: int, scale: int, new: list[int], old: list[int]) -> None:
    """Floats from ``off``: ``new[k] / scale``, written where ``new`` differs from
    ``old`` (what they show now; everywhere when the lengths differ)."""
    full = len(new) != len(old)
    for k in range(len(new)):
        if full or new[k] != old[k]:
            count(buf, off + k, scale, new[k])


def zero(buf: bytearray, off: int, size: int) -> None:
    b = off * 4
    buf[b:b + 4 * size] = bytes(4 * size)


def card_mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class _Mat:
    """What the vector shows of one seat's mat (the last values written)."""

    def __init__(self) -> None:
        self.supply = -1
        self.harbor = -1
        self.attr: list[int] = []
        self.btok: list[int] = []
        self.mem: list[int] = []
        self.blue: list[int] = []
        self.blds: list[int] = []
        self.occ = -1
        #: copies of each building type, and of them with their circle taken
        self.owned: list[int] = [0] * NBUILDINGS
        self.taken: list[int] = [0] * NBUILDINGS
        self.cards: list[int] = []
        self.gov = -2
        self.aside = -1


class Encoder:
    """The observation of one observer (a seat), kept up to date: :meth:`update` brings
    :attr:`buf` (``SIZE`` float32 values) to the encoding of a state, rewriting only the
    parts that differ from the last state it was given (any state: of any game, in any
    order). Not thread-safe: one encoder per thread."""

    def __init__(self, player: int) -> None:
        if not 0 <= player < SEATS:
            raise ValueError(f"player must be a seat 0..{SEATS - 1}, got {player}")
        self.player = player
        self.buf = bytearray(4 * SIZE)
        self.rules: object = None
        self.n = 0
        self.reset()

    def reset(self) -> None:
        """Forget the last state: the next :meth:`update` writes everything."""
        self.rules = None
        self.n = 0
        self.buf[:] = bytes(4 * SIZE)
        self.round = -1
        self.phase = -1
        self.crown = -2
        self.current = -2
        self.active = -2
        self.passed = -1
        self.turn = -1
        self.abolished = -1
        self.pending = -1
        self.frame: tuple[int, ...] = (-1,)
        self.trk_owner: list[int] = []
        self.trk_tok: list[int] = []
        self.filled: list[int] = []
        self.site_owner: list[int] = []
        self.site_token: list[int] = []
        self.smark: list[int] = []
        self.link_token: list[int] = []
        self.lmark: list[int] = []
        self.link_ctl: list[int] = [-1] * MAX_LINKS
        self.sea: list[int] = []
        self.pres: list[int] = []
        self.decks: list[list[int]] = [[] for _ in range(8)]
        self.in_deck = 0
        self.pile: list[int] = []
        self.removed: list[int] = []
        self.gov_avail: list[int] = []
        self.bsupply: list[int] = []
        self.spent: list[int] = []
        self.nsupply: list[int] = []
        self.mats: list[_Mat] = [_Mat() for _ in range(SEATS)]
        self.shields: list[int] = [0] * NEXPLOITS
        self.exd: list[list[int]] = [[] for _ in range(NMODULES)]
        self.exd_round = -1

    # ------------------------------------------------------------------ helpers
    def rel(self, seat: int) -> int:
        """A seat (or owner) as seen by the observer: -1 none, 0..4 seats, FLEET."""
        if seat < 0:
            return -1
        n = self.n
        if seat >= n:
            return FLEET
        return (seat - self.player) % n

    def rel_mask(self, mask: int) -> int:
        """A bitmask over seats, rotated to relative seats."""
        n = self.n
        p = self.player
        out = 0
        for k in range(n):
            if mask >> ((p + k) % n) & 1:
                out |= 1 << k
        return out

    # ------------------------------------------------------------------ update
    def update(self, s: State) -> bytearray:
        """Encode ``s`` (as seen by :attr:`player`, a seat of its game) into :attr:`buf`
        and return it."""
        rules = s.rules
        if rules is not self.rules:
            self.reset()
            if self.player >= s.n:
                raise ValueError(f"player {self.player} is not a seat of a "
                                 f"{s.n}-player game")
            self.rules = rules
            self.n = s.n
            self.static(s)
        self.turn_fields(s)
        self.decision(s)
        shields = self.tracks(s)
        self.sites_links(s)
        if s.sea != self.sea or s.pres != self.pres:
            self.seas(s)
            shields = True
        if shields:
            self.exploit_shields(s)
        self.cards(s)
        self.supplies(s)
        players = s.players
        n = self.n
        for k in range(n):
            self.mat(s, k, players[(self.player + k) % n])
        exd = s.exd
        mods = s.modules
        for i in range(len(mods)):
            m = _MODULE_NUMBER.get(mods[i].id, 0)
            if m and (exd[i] != self.exd[m - 1] or (m == _SPANISH and s.round != self.exd_round)):
                self.module(s, m, exd[i])
                self.exd[m - 1] = exd[i].copy()
        return self.buf

    def static(self, s: State) -> None:
        """What a game's setting fixes: its config, modules, level-5 types, board."""
        buf = self.buf
        cfg = s.config
        n = self.n
        onehot(buf, O_RULESET, 2, 0 if cfg.ruleset == "age_of_sail" else 1)
        board = s.rules.board.side
        onehot(buf, O_BOARD, 3, 0 if board == "A" else 1 if board == "B" else 2)
        onehot(buf, O_PLAYERS, 4, n - 2)
        opts = cfg.options
        mask = 0
        for k in range(len(OPTION_NAMES)):
            v = opts.get(OPTION_NAMES[k])
            if v is True or v == "by_player":
                mask |= 1 << k
        bits(buf, O_OPTIONS, len(OPTION_NAMES), mask)
        mask = 0
        for m in s.modules:
            num = _MODULE_NUMBER.get(m.id, 0)
            if num:
                mask |= 1 << (num - 1)
        bits(buf, O_MODULES, NMODULES, mask)
        mask = 0
        for b in s.level5:
            if b in D.LEVEL5_POOL:
                mask |= 1 << D.LEVEL5_POOL.index(b)
        bits(buf, O_LEVEL5, len(D.LEVEL5_POOL), mask)
        lengths = s.rules.board.trk_len
        for r in range(1, D.NREGIONS):
            count(buf, O_TRK_LEN + r - 1, MAX_TRACK, lengths[r])
        for k in range(n):
            bits(buf, O_PRESENT + k, 1, 1)

    def turn_fields(self, s: State) -> None:
        buf = self.buf
        v = s.round
        if v != self.round:
            onehot(buf, O_ROUND, 8, v)
            self.round = v
        v = s.phase
        if v != self.phase:
            onehot(buf, O_PHASE, 7, v)
            self.phase = v
        v = s.crown
        if v != self.crown:
            onehot(buf, O_CROWN, SEATS, self.rel(v))
            self.crown = v
        stack = s.stack
        v = stack[-1][1] if stack else -1
        if v != self.current:
            onehot(buf, O_CURRENT, SEATS, self.rel(v))
            self.current = v
        v = len(stack) - 1 if stack else 0
        if v != self.pending:
            count(buf, O_PENDING, 4, v)
            self.pending = v
        v = s.act_player
        if v != self.active:
            onehot(buf, O_ACTIVE, SEATS, self.rel(v))
            self.active = v
        v = s.passed
        if v != self.passed:
            bits(buf, O_PASSED, SEATS, self.rel_mask(v))
            self.passed = v
        v = s.turn
        if v != self.turn:
            bits(buf, O_TURN, 6, (1 if v >> 8 & 1 else 0) | (v & 31) << 1)
            self.turn = v
        v = 1 if s.abolished else 0
        if v != self.abolished:
            bits(buf, O_ABOLISHED, 1, v)
            self.abolished = v
        spent = s.spent
        if spent != self.spent:
            counts(buf, O_SPENT, 10, spent, self.spent)
            self.spent = spent.copy()

    def decision(self, s: State) -> None:
        stack = s.stack
        f: tuple[int, ...] = stack[-1] if stack else (-1,)
        if f == self.frame:
            return
        self.frame = f
        buf = self.buf
        zero(buf, O_FRAME, O_STEP_B + 8 - O_FRAME)
        kind = f[0]
        if kind < 0:
            return
        onehot(buf, O_FRAME, 9, kind)
        if kind == F_SALARY:
            count(buf, O_PAYMENTS, 5, f[2])
        elif kind == F_EFFECT:
            onehot(buf, O_MODE, 4, f[2])
            onehot(buf, O_KIND1, 5, f[3])
            onehot(buf, O_KIND2, 5, f[4])
            onehot(buf, O_REGION, 7, f[5])
            onehot(buf, O_DECK, 9, f[6])
            bits(buf, O_FLAGS, 3, f[7])
            src = f[7] >> SRC_SHIFT
            if 1 <= src <= NBUILDINGS:
                onehot(buf, O_SOURCE, NBUILDINGS + 4, src - 1)
            elif src >= SRC_TOKEN + 4:
                onehot(buf, O_SOURCE, NBUILDINGS + 4, NBUILDINGS + src - SRC_TOKEN - 4)
        elif kind == F_EXPLOIT:
            m = _MODULE_NUMBER.get(s.modules[f[2]].id, 0)
            onehot(buf, O_MODULE, NMODULES, m - 1)
            onehot(buf, O_STEP, 8, f[3])
            a = f[4]
            if m == _LETTERS and f[3] == 0:
                a = self.rel(a)
            bits(buf, O_STEP_A, 8, a)
            bits(buf, O_STEP_B, 8, f[5])

    def tracks(self, s: State) -> bool:
        """The shipping tracks; whether a region opened or closed (Shields change)."""
        owner = s.trk_owner
        tok = s.trk_tok
        old_o = self.trk_owner
        old_t = self.trk_tok
        changed = False
        if owner != old_o or tok != old_t:
            buf = self.buf
            info = s.rules.board
            full = len(old_o) != len(owner)
            for r in range(1, D.NREGIONS):
                o = info.trk_off[r]
                row = (r - 1) * MAX_TRACK
                for k in range(info.trk_len[r]):
                    x = o + k
                    if full or owner[x] != old_o[x]:
                        onehot(buf, O_TRK_OWNER + (row + k) * OWNERS, OWNERS, self.rel(owner[x]))
                    if full or tok[x] != old_t[x]:
                        onehot(buf, O_TRK_TOKEN + (row + k) * 8, 8, tok[x])
            self.trk_owner = owner.copy()
            self.trk_tok = tok.copy()
        filled = s.filled
        if filled != self.filled:
            info = s.rules.board
            mask = 0
            for r in range(1, D.NREGIONS):
                if filled[r] == info.trk_len[r]:
                    mask |= 1 << (r - 1)
            bits(self.buf, O_TRK_OPEN, 6, mask)
            self.filled = filled.copy()
            changed = True
        return changed

    def sites_links(self, s: State) -> None:
        owner = s.site_owner
        buf = self.buf
        owners_changed = owner != self.site_owner
        if owners_changed:
            old = self.site_owner
            full = len(old) != len(owner)
            for x in range(NSITES):
                if full or owner[x] != old[x]:
                    onehot(buf, O_SITE_OWNER + x * OWNERS, OWNERS, self.rel(owner[x]))
            self.site_owner = owner.copy()
        tok = s.site_token
        if tok != self.site_token:
            old = self.site_token
            full = len(old) != len(tok)
            for x in range(NSITES):
                if full or tok[x] != old[x]:
                    onehot(buf, O_SITE_TOKEN + x * 8, 8, tok[x])
            self.site_token = tok.copy()
        mark = s.smark
        if mark != self.smark:
            old = self.smark
            full = len(old) != len(mark)
            for x in range(NSITES):
                if full or mark[x] != old[x]:
                    bits(buf, O_SITE_MARK + x * 4, 4, mark[x])
            self.smark = mark.copy()
        ltok = s.link_token
        if ltok != self.link_token:
            old = self.link_token
            full = len(old) != len(ltok)
            for li in range(min(len(ltok), MAX_LINKS)):
                if full or ltok[li] != old[li]:
                    onehot(buf, O_LINK_TOKEN + li * 8, 8, ltok[li])
            self.link_token = ltok.copy()
        lmark = s.lmark
        lmark_changed = lmark != self.lmark
        if lmark_changed:
            old = self.lmark
            full = len(old) != len(lmark)
            for li in range(min(len(lmark), MAX_LINKS)):
                if full or lmark[li] != old[li]:
                    bits(buf, O_LINK_BLOCK + li, 1, lmark[li] & 1)
            self.lmark = lmark.copy()
        if owners_changed or lmark_changed:
            links = s.rules.board.board.links
            n = self.n
            ctl = self.link_ctl
            for li in range(min(len(links), MAX_LINKS)):
                x, y = links[li]
                o = owner[x]
                c = self.rel(o) if 0 <= o < n and owner[y] == o and not lmark[li] & 1 else -1
                if c != ctl[li]:
                    onehot(buf, O_LINK_CTL + li * SEATS, SEATS, c)
                    ctl[li] = c

    def seas(self, s: State) -> None:
        buf = self.buf
        owners = len(s.sea) // 7
        sea = s.sea
        pres = s.pres
        old_s = self.sea
        old_p = self.pres
        full = len(old_s) != len(sea)
        for o in range(owners):
            row = self.rel(o)
            base = o * 7
            for r in range(D.NREGIONS):
                x = base + r
                if r and (full or sea[x] != old_s[x]):
                    count(buf, O_SEA + row * 6 + r - 1, 5, sea[x])
                if full or pres[x] != old_p[x]:
                    count(buf, O_PRES + row * 7 + r, 10, pres[x])
        self.sea = sea.copy()
        self.pres = pres.copy()

    def exploit_shields(self, s: State) -> None:
        buf = self.buf
        n = self.n
        mods = s.modules
        for i in range(len(mods)):
            e = mods[i]
            if not e.is_exploit:
                continue
            m = _MODULE_NUMBER.get(e.id, 0)
            if not m or m > NEXPLOITS:
                continue
            v = 0
            if s.exploit_active(i):
                v = 1
                for k in range(n):
                    if s.has_shield((self.player + k) % n, i):
                        v |= 2 << k
            if v != self.shields[m - 1]:
                self.shields[m - 1] = v
                bits(buf, O_ACTIVE_EX + m - 1, 1, v & 1)
                bits(buf, O_SHIELD + (m - 1) * SEATS, SEATS, v >> 1)

    def cards(self, s: State) -> None:
        buf = self.buf
        decks = s.decks
        old = self.decks
        any_deck = False
        for d in range(8):
            dk = decks[d]
            if dk != old[d]:
                any_deck = True
                count(buf, O_DECK_COUNT + d, 8, len(dk))
                if dk:
                    top = dk[-1]
                    onehot(buf, O_DECK_VALUE + d * 6, 6, _CARD_VALUE[top])
                    onehot(buf, O_DECK_ORIGIN + d * 8, 8, _CARD_DECK[top])
                else:
                    onehot(buf, O_DECK_VALUE + d * 6, 6, -1)
                    onehot(buf, O_DECK_ORIGIN + d * 8, 8, -1)
                old[d] = dk.copy()
        if any_deck:
            m = 0
            for d in range(8):
                m |= card_mask(decks[d])
            if m != self.in_deck:
                bits(buf, O_IN_DECK, NCARDS, m)
                self.in_deck = m
        pile = s.pile
        if pile != self.pile:
            bits(buf, O_PILE, NCARDS, card_mask(pile))
            self.pile = pile.copy()
        removed = s.removed
        if removed != self.removed:
            bits(buf, O_REMOVED, NCARDS, card_mask(removed))
            self.removed = removed.copy()
        gov = s.gov_avail
        if gov != self.gov_avail:
            m = 0
            for r in range(1, D.NREGIONS):
                if gov[r] >= 0:
                    m |= 1 << (r - 1)
            bits(buf, O_GOV_AVAIL, 6, m)
            self.gov_avail = gov.copy()

    def supplies(self, s: State) -> None:
        buf = self.buf
        sup = s.bsupply
        if sup != self.bsupply:
            counts(buf, O_BSUPPLY, 5, sup, self.bsupply)
            self.bsupply = sup.copy()
        ns = s.nsupply
        if ns != self.nsupply:
            count(buf, O_NSUPPLY, 35, ns[0] if ns else 0)
            self.nsupply = ns.copy()

    def mat(self, s: State, k: int, pl: Player) -> None:
        """The mat of relative seat ``k``."""
        buf = self.buf
        old = self.mats[k]
        if pl.supply != old.supply:
            count(buf, O_SUPPLY + k, 35, pl.supply)
            old.supply = pl.supply
        if pl.harbor != old.harbor:
            count(buf, O_HARBOR + k, 10, pl.harbor)
            old.harbor = pl.harbor
        attr = pl.attr
        if attr != old.attr:
            cap = s.rules.track_cap
            was = old.attr
            full = len(was) != 4
            for a in range(4):
                v = attr[a]
                if full or v != was[a]:
                    count(buf, O_MARKER + k * 4 + a, 15, v if v < cap else cap)
                    count(buf, O_LEVEL + k * 4 + a, 5, _LEVEL[v] if v < 16 else 5)
            old.attr = attr.copy()
        v4 = pl.btok
        if v4 != old.btok:
            counts(buf, O_BTOK + k * 4, 5, v4, old.btok)
            old.btok = v4.copy()
        v4 = pl.mem
        if v4 != old.mem:
            counts(buf, O_MEM + k * 4, 5, v4, old.mem)
            old.mem = v4.copy()
        v4 = pl.blue
        if v4 != old.blue:
            counts(buf, O_BLUE + k * 4, 2, v4, old.blue)
            old.blue = v4.copy()
        blds = pl.blds
        occ = pl.occ
        if blds != old.blds or occ != old.occ:
            owned = [0] * NBUILDINGS
            taken = [0] * NBUILDINGS
            for j in range(len(blds)):
                b = blds[j]
                owned[b] += 1
                if occ >> j & 1:
                    taken[b] += 1
            was_owned = old.owned
            was_taken = old.taken
            for b in range(NBUILDINGS):
                if owned[b] != was_owned[b]:
                    count(buf, O_BLDS + k * NBUILDINGS + b, 1, owned[b])
                if taken[b] != was_taken[b]:
                    count(buf, O_WORKERS + k * NBUILDINGS + b, 1, taken[b])
            old.blds = blds.copy()
            old.occ = occ
            old.owned = owned
            old.taken = taken
        cards = pl.cards
        if cards != old.cards:
            bits(buf, O_CARDS + k * NCARDS, NCARDS, card_mask(cards))
            old.cards = cards.copy()
        gov = pl.gov
        if gov != old.gov:
            onehot(buf, O_GOV + k * 6, 6, _CARD_DECK[gov] - 1 if gov >= 0 else -1)
            old.gov = gov
        aside = len(pl.aside)
        if aside != old.aside:
            count(buf, O_ASIDE + k, 3, aside)
            old.aside = aside

    def module(self, s: State, m: int, d: list[int]) -> None:
        """The data of module number ``m`` (``d``: its ``exd`` list)."""
        buf = self.buf
        n = self.n
        p = self.player
        if m == 1:  # Saltpeter Stockpiles: [tile, held x n, cannon mask x n, disc x n]
            count(buf, O_SP_TILE, 6, d[0])
            disc = 0
            for k in range(n):
                q = (p + k) % n
                count(buf, O_SP_HELD + k, 6, d[1 + q])
                count(buf, O_SP_ON + k, 6, bin(d[1 + n + q]).count("1"))
                if d[1 + 2 * n + q]:
                    disc |= 1 << k
            bits(buf, O_SP_DISC, SEATS, disc)
        elif m == 2:  # The Republic of Pirates: [location, Nassau owner, Governor owner]
            loc = d[0]
            onehot(buf, O_RP_PIRATE, 2 + len(PIRATE_CITIES),
                   0 if loc == -1 else 1 if loc == -2 else _PIRATE_SLOT.get(loc, -1))
            onehot(buf, O_RP_NASSAU, SEATS, self.rel(d[1]))
            onehot(buf, O_RP_GOV, SEATS, self.rel(d[2]))
        elif m == 3:  # Imperialism: [placed at setup, held x n]
            for k in range(n):
                count(buf, O_IM_HELD + k, 9, d[1 + (p + k) % n])
        elif m == 4:  # The Spanish Main: [tile, round of the last use, mask of users]
            count(buf, O_SM_TILE, 8, d[0])
            bits(buf, O_SM_USED, SEATS, self.rel_mask(d[2]) if d[1] == s.round else 0)
            self.exd_round = s.round
        elif m == 5:  # The Dutch East India Company: [tile]
            count(buf, O_DE_TILE, 2, d[0])
        elif m == 6:  # Jesuit Missionaries: [tile] + sorted sites (one per Missionary)
            count(buf, O_JM_TILE, 5, d[0])
            per = [0] * NSITES
            for j in range(1, len(d)):
                if 0 <= d[j] < NSITES:
                    per[d[j]] += 1
            for x in range(NSITES):
                count(buf, O_JM_SITES + x, 5, per[x])
        elif m == 7:  # The South Sea Company: [owner x7, Share state x5, burst]
            for j in range(7):
                onehot(buf, O_SS_TRACK + j * SEATS, SEATS, self.rel(d[j]))
            for j in range(5):
                v = d[7 + j]
                onehot(buf, O_SS_SHARES + j * 7, 7,
                       0 if v == -1 else 1 if v == -2 else 2 + self.rel(v))
            bits(buf, O_SS_BURST, 1, d[12])
        elif m == 8:  # Manila Galleons: [tile, Manila x5, held x5] (5 seat slots)
            count(buf, O_MG_TILE, 8, d[0])
            for k in range(n):
                q = (p + k) % n
                count(buf, O_MG_MANILA + k, 1, d[1 + q])
                count(buf, O_MG_HELD + k, 8, d[6 + q])
        elif m == 9:  # The Underground Railroad: [owner x5, Freedom tokens 4 x n]
            for j in range(5):
                onehot(buf, O_UR_SPACES + j * SEATS, SEATS, self.rel(d[j]))
            for k in range(n):
                q = (p + k) % n
                for t in range(4):
                    count(buf, O_UR_HELD + k * 4 + t, 2, d[5 + 4 * q + t])
        elif m == 10:  # The Transit of Venus: [owner x8, tile x5, held 5 x 5, Financier x3]
            for j in range(8):
                onehot(buf, O_TV_SPACES + j * SEATS, SEATS, self.rel(d[j]))
            for t in range(5):
                count(buf, O_TV_TILE + t, 2, d[8 + t])
            for k in range(n):
                q = (p + k) % n
                for t in range(5):
                    count(buf, O_TV_HELD + k * 5 + t, 2, d[13 + 5 * q + t])
            for j in range(3):
                onehot(buf, O_TV_FIN + j * SEATS, SEATS, self.rel(d[38 + j]))
        elif m == 11:  # The Sun Never Sets: [discs x n]
            for k in range(n):
                count(buf, O_SN_DISCS + k, 8, d[(p + k) % n])
        elif m == 15:  # The Haitian Revolution: the cards stacked on the tile
            bits(buf, O_HR_CARDS, NCARDS, card_mask(d))
        elif m == 16:  # The Silent Fleet
            bits(buf, O_SF_OCC, 7, d[0])
            bits(buf, O_SF_TOKEN, 1, d[1])
            count(buf, O_SF_OUT, 10, d[2])
            count(buf, O_SF_OUT + 1, 10, d[3])
            for b in range(NBUILDINGS):
                count(buf, O_SF_SHORT + b, 1, d[4 + b])
            base = 4 + NBUILDINGS
            for k in range(n):
                q = (p + k) % n
                for r in range(7):
                    count(buf, O_SF_CITIES + k * 7 + r, 5, d[base + 7 * q + r])


__all__ = ["Encoder", "FIELD", "FIELDS", "Field", "SIZE"]
