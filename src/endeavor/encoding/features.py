"""The observation encoder's core: the layout of the vector and an incremental writer.

Stdlib only (no numpy), typed for mypyc: the compiled build compiles this module with
the engine (``setup.py``), while :mod:`endeavor.encoding.observation` wraps it with numpy.

The vector is ``float32``, one layout for every game (both rulesets, 2-5 players, any
board, any Exploits, the Silent Fleet): :data:`FIELDS` lists its fields in order, each a
row-major block of ``rows x width`` floats of one of three kinds:

* ``onehot``: each row is all zeros (nothing) or has a single 1 (its value);
* ``bits``: each row is a set of flags;
* ``count``: each float is a non-negative integer divided by the field's ``scale``, at
  most the field's ``most`` (per item: what the game's components allow, or
  :data:`MAX_COUNT`, the largest count a float shows).

Every float lies between 0 and its field's bound (:meth:`Field.highs`: 1 for ``onehot``
and ``bits``, ``most / scale`` for ``count``), which the environments declare as their
observation space.

Every seat is seen from the observer: relative seat ``k`` is the seat ``k`` places after
the observer in seat order (0: the observer), rows and columns of seats 5 - n... stay
zero in a smaller game. Owners (of discs) are the 5 relative seats, then the neutral
Silent Fleet.

:class:`Encoder` keeps, per observer, the vector of the last state it encoded and a copy
of each part of that state, so that encoding the next one rewrites only the floats that
changed (an RL loop encodes one position after another, which differ in a few places).
The vector is an ``array('f')``, which numpy views without copying.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, Final

from .. import data as D
from .. import exploits as _exploits  # noqa: F401  (registers the Exploits)
from .. import variants as _variants  # noqa: F401  (registers the variants)
from ..data import REGION_STRIDE
from ..decision import Pending, pending
from ..frames import SRC_TOKEN
from ..rules.module import OBS_SEAT_LABELS, OBS_SEATS, REGISTRY, ObsWriter, RuleModule

if TYPE_CHECKING:
    from ..state import Player, State

#: seat slots (the most players of any ruleset) and disc owners (the seats, then the
#: Silent Fleet)
SEATS: Final = OBS_SEATS
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

#: the same object as the rule modules' (a seat-rowed field is told by its labels)
SEAT_LABELS: Final[tuple[object, ...]] = OBS_SEAT_LABELS
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
FRAME_LABELS: Final[tuple[object, ...]] = (
    "start_tile", "construction", "salary", "action", "effect", "casualty",
    "governor_slot", "discard", "module_step")
PHASE_LABELS: Final[tuple[object, ...]] = ("setup", "construction", "growth", "salary",
                                           "actions", "discard", "game_over")


#: the largest count a count float shows (larger ones are shown as this)
MAX_COUNT: Final = 255


class Field:
    """One block of the vector: ``rows x width`` floats from ``offset`` (in floats)."""

    __slots__ = ("name", "kind", "rows", "labels", "scale", "doc", "offset", "size", "most")

    def __init__(self, name: str, kind: str, rows: tuple[object, ...],
                 labels: tuple[object, ...], scale: int, doc: str, offset: int,
                 most: int | tuple[int, ...] = MAX_COUNT) -> None:
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
        #: a count field: the largest count of each item (one for all, or one per label;
        #: never above :data:`MAX_COUNT`, the largest a float shows)
        self.most: tuple[int, ...] = tuple(
            min(m, MAX_COUNT) for m in (most if isinstance(most, tuple)
                                        else (most,) * len(labels)))
        assert len(self.most) == len(labels), name

    @property
    def width(self) -> int:
        return len(self.labels)

    def highs(self) -> list[float]:
        """The largest value of each of the field's floats, row after row: 1 for
        ``onehot`` and ``bits``, ``most / scale`` for ``count`` (as the encoder computes
        it, so that a float showing the most equals its bound)."""
        if self.kind != "count":
            return [1.0] * self.size
        row = [m / self.scale for m in self.most]
        return row * max(1, len(self.rows))

    def __repr__(self) -> str:
        return f"<Field {self.name} {self.kind} @{self.offset}+{self.size}>"


_fields: list[Field] = []


def _field(name: str, kind: str, labels: tuple[object, ...], doc: str,
           rows: tuple[object, ...] = (), scale: int = 1,
           most: int | tuple[int, ...] = MAX_COUNT) -> int:
    """Append a field; returns its offset in floats."""
    off = _fields[-1].offset + _fields[-1].size if _fields else 0
    _fields.append(Field(name, kind, rows, labels, scale, doc, off, most))
    return off


def _rng(n: int) -> tuple[object, ...]:
    return tuple(range(n))


#: the components the counts are bounded by (the same in both rulesets: the 2009 game has
#: fewer discs, 30, and the same tokens; the consistency checks of ``invariants.py`` keep
#: them): a seat's discs (and a neutral colour's), the Trade tokens of each type, the
#: copies of each building type (a start building: one per mat), the cards
DISCS: Final = D.DISCS_PER_PLAYER
TOKENS: Final = D.TOKEN_COUNTS
COPIES: Final = tuple(max(1, b.copies) for b in D.BUILDINGS)

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
                        "Trade tokens out of the game (spent, discarded), by type", scale=10,
                        most=TOKENS)
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
                          "shipping track length (spaces)", scale=MAX_TRACK, most=MAX_TRACK)
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
O_SEA: Final = _field("sea", "count", OVERSEAS,
                      "discs in each open sea (classic: beside a full track)", rows=OWNER_LABELS,
                      scale=5, most=DISCS)
O_PRES: Final = _field("presence", "count", REGION_LABELS, "presence in each region",
                       rows=OWNER_LABELS, scale=10, most=DISCS)
O_DECK_COUNT: Final = _field("decks.count", "count", D.DECK_CODES, "cards left in each deck",
                             scale=8, most=NCARDS)
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
                          "buildings left in the supply", scale=5, most=COPIES)
O_NSUPPLY: Final = _field("fleet.supply", "count", ("supply",),
                          "the Silent Fleet's discs in its supply", scale=35, most=DISCS)
O_PRESENT: Final = _field("mats.present", "bits", ("present",), "seat in the game",
                          rows=SEAT_LABELS)
O_SUPPLY: Final = _field("mats.supply", "count", ("supply",), "discs in the supply",
                         rows=SEAT_LABELS, scale=35, most=DISCS)
O_HARBOR: Final = _field("mats.harbor", "count", ("harbor",), "discs in the Harbor",
                         rows=SEAT_LABELS, scale=10, most=DISCS)
O_MARKER: Final = _field("mats.marker", "count", ATTR_LABELS,
                         "status markers (the classic tracks stop at 15)",
                         rows=SEAT_LABELS, scale=15)
O_LEVEL: Final = _field("mats.level", "count", ATTR_LABELS,
                        "track levels (Build Level, Growth, Salary, Card Limit)",
                        rows=SEAT_LABELS, scale=5, most=max(D.TRACK_LEVEL))
O_BTOK: Final = _field("mats.brown", "count", ATTR_LABELS,
                       "brown Trade tokens at the track bases", rows=SEAT_LABELS, scale=5,
                       most=TOKENS[:4])
O_MEM: Final = _field("mats.discs_at_base", "count", ATTR_LABELS,
                      "discs at the track bases (Memorial, Spice Trade)",
                      rows=SEAT_LABELS, scale=5, most=DISCS)
O_BLUE: Final = _field("mats.blue", "count", TOKEN_LABELS[4:], "blue Trade tokens in the Harbor",
                       rows=SEAT_LABELS, scale=2, most=TOKENS[4:])
O_BLDS: Final = _field("mats.buildings", "count", BUILDING_LABELS, "buildings in the Seaside",
                       rows=SEAT_LABELS, most=COPIES)
O_WORKERS: Final = _field("mats.occupied", "count", BUILDING_LABELS,
                          "of them, with their activation circle taken", rows=SEAT_LABELS,
                          most=COPIES)
O_CARDS: Final = _field("mats.cards", "bits", CARD_LABELS, "cards in normal slots",
                        rows=SEAT_LABELS)
O_GOV: Final = _field("mats.governor", "onehot", OVERSEAS,
                      "the Governor in the free Governor slot", rows=SEAT_LABELS)
O_ASIDE: Final = _field("mats.aside", "count", ("aside",), "Slavery cards set aside",
                        rows=SEAT_LABELS, scale=3, most=NCARDS)
O_ACTIVE_EX: Final = _field("exploits.active", "bits", MODULE_IDS[:NEXPLOITS],
                            "Exploit in play and active (both regions open)")
O_SHIELD: Final = _field("exploits.shield", "bits", SEAT_LABELS,
                         "holds the Exploit's Shield", rows=MODULE_IDS[:NEXPLOITS])
# the modules' own blocks (zero when the module is not in play), by module number: each
# module declares its own (``RuleModule.observation``), named "<module id>.<field>"
def _module_fields() -> None:
    for m in MODULE_IDS:
        block = REGISTRY[str(m)].observation
        if block is not None:
            for f in block.fields:
                _field(f"{m}.{f.name}", f.kind, f.labels, f.doc, f.rows, f.scale, f.most)


_module_fields()

FIELDS: Final = tuple(_fields)
FIELD: Final = {f.name: f for f in FIELDS}
SIZE: Final = FIELDS[-1].offset + FIELDS[-1].size

# --------------------------------------------------------------------------- writing
_CARD_VALUE: Final = tuple(c.value for c in D.CARDS)
_CARD_DECK: Final = tuple(c.deck for c in D.CARDS)
_LEVEL: Final = D.TRACK_LEVEL
_MODULE_NUMBER: Final = {m: k + 1 for k, m in enumerate(MODULE_IDS)}


def _module_range(module: str) -> tuple[int, int]:
    """(offset, size) of the fields of a module (one run of the vector; (0, 0): none)."""
    fs = [f for f in FIELDS if f.name.split(".")[0] == module]
    if not fs:
        return (0, 0)
    return (fs[0].offset, fs[-1].offset + fs[-1].size - fs[0].offset)


#: (offset, size) of each module's block, by module number - 1
MODULE_RANGE: Final = tuple(_module_range(str(m)) for m in MODULE_IDS)


def shown(v: int) -> int:
    """A count as a count float shows it (0..MAX_COUNT)."""
    return 0 if v < 0 else MAX_COUNT if v > MAX_COUNT else v


def put1(a: Any, off: int, width: int, old: int, new: int) -> None:
    """A onehot row at float offset ``off`` whose 1 moves from ``old`` to ``new`` (out
    of 0..width-1: no 1)."""
    if old != new:
        if 0 <= old < width:
            a[off + old] = 0.0
        if 0 <= new < width:
            a[off + new] = 1.0


def putbits(a: Any, off: int, width: int, old: int, new: int) -> None:
    """A bits row at ``off`` showing the mask ``old``, made to show ``new``."""
    diff = (old ^ new) & ((1 << width) - 1)
    k = 0
    while diff:
        if diff & 1:
            a[off + k] = 1.0 if new >> k & 1 else 0.0
        diff >>= 1
        k += 1


def putcount(a: Any, off: int, scale: int, old: int, new: int) -> None:
    """A count float at ``off`` showing ``old``, made to show ``new``."""
    if old != new:
        a[off] = shown(new) / scale


def putcounts(a: Any, off: int, scale: int, old: list[int], new: list[int]) -> None:
    """Count floats from ``off`` showing ``old`` (``[]``: zeros), made to show ``new``."""
    full = len(old) != len(new)
    for k in range(len(new)):
        v = new[k]
        if v != (0 if full else old[k]):
            a[off + k] = shown(v) / scale


def putdense(a: Any, off: int, old: list[float], new: list[float]) -> None:
    """Floats from ``off`` showing ``old``, made to show ``new`` (same length)."""
    for k in range(len(new)):
        if new[k] != old[k]:
            a[off + k] = new[k]


def card_mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def one(idx: list[int], val: list[float], off: int, width: int, k: int) -> None:
    """In a sparse block (offsets ``idx``, values ``val``): a onehot row at ``off`` with
    its 1 at ``k``."""
    if 0 <= k < width:
        idx.append(off + k)
        val.append(1.0)


def ones(idx: list[int], val: list[float], off: int, width: int, mask: int) -> None:
    """In a sparse block: a bits row at ``off`` showing ``mask``."""
    for k in range(width):
        if mask >> k & 1:
            idx.append(off + k)
            val.append(1.0)


class _Mat:
    """What the vector shows of one seat's mat (the values last written: zeros first)."""

    def __init__(self) -> None:
        self.supply = 0
        self.harbor = 0
        self.attr: list[int] = []
        self.marker: list[int] = [0, 0, 0, 0]
        self.level: list[int] = [0, 0, 0, 0]
        self.brown_tokens: list[int] = []
        self.base_discs: list[int] = []
        self.blue: list[int] = []
        self.buildings: list[int] = []
        self.taken_circles = -1
        #: copies of each building type, and of them with their circle taken
        self.owned: list[int] = [0] * NBUILDINGS
        self.taken: list[int] = [0] * NBUILDINGS
        self.cards: list[int] = []
        self.card_mask = 0
        self.gov = -1
        self.gov_region = -1
        self.aside = 0


class Encoder:
    """The observation of one observer (a seat), kept up to date: :meth:`update` brings
    :attr:`vec` (``SIZE`` float32 values, an ``array('f')``) to the encoding of a state,
    rewriting only the floats that differ from the last state it was given (any state:
    of any game, in any order). Every attribute below ``vec`` is what the vector shows
    now (or the part of the state it was made from). Not thread-safe: one encoder per
    thread."""

    def __init__(self, player: int) -> None:
        if not 0 <= player < SEATS:
            raise ValueError(f"player must be a seat 0..{SEATS - 1}, got {player}")
        self.player = player
        self.vec: array[float] = array("f", bytes(4 * SIZE))
        #: what the writes go through: the vector as a memoryview of float32 (its item
        #: assignment is cheaper than the array's)
        self.out: Any = memoryview(self.vec)
        self.rules: object = None
        self.n = 0
        self.reset()

    def reset(self) -> None:
        """Forget the last state: the vector is all zeros again."""
        self.vec[:] = array("f", bytes(4 * SIZE))
        self.rules = None
        self.n = 0
        self.level5: tuple[int, ...] = ()
        self.level5_mask = 0
        self.round = -1
        self.phase = -1
        self.crown = -1
        self.current = -1
        self.active = -1
        self.passed = 0
        self.kinds = 0
        self.abolished = 0
        self.pending = 0
        self.spent: list[int] = []
        #: the decision the decision block shows (None: none yet)
        self.pend: Pending | None = None
        #: the decision block's non-zero floats: their offsets and values
        self.dec_idx: list[int] = []
        self.dec_val: list[float] = []
        self.track_owner: list[int] = []
        self.track_token: list[int] = []
        self.filled: list[int] = []
        self.open = 0
        self.site_owner: list[int] = []
        self.site_token: list[int] = []
        self.site_marks: list[int] = []
        self.link_token: list[int] = []
        self.link_marks: list[int] = []
        self.link_ctl: list[int] = [-1] * MAX_LINKS
        self.sea: list[int] = []
        self.region_presence: list[int] = []
        self.decks: list[list[int]] = [[] for _ in range(8)]
        self.deck_top: list[int] = [-1] * 8
        self.in_deck = 0
        self.pile: list[int] = []
        self.pile_mask = 0
        self.removed: list[int] = []
        self.removed_mask = 0
        self.region_governors: list[int] = []
        self.gov_mask = 0
        self.building_supply: list[int] = []
        self.neutral_supply = 0
        self.mats: list[_Mat] = [_Mat() for _ in range(SEATS)]
        self.shields: list[int] = [0] * NEXPLOITS
        self.module_data: list[list[int]] = [[] for _ in range(NMODULES)]
        self.mod: list[list[float]] = [[0.0] * size for _, size in MODULE_RANGE]
        #: the round each module's block was written in (for ``observe_round`` ones)
        self.exd_round: list[int] = [-1] * NMODULES
        #: the game's modules (``State.modules``): each one's number (0: no block) and
        #: whether its block shows the round
        self.mod_num: list[int] = []
        self.mod_round: list[bool] = []
        self.writer = ObsWriter(self.player, 0)

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
    def update(self, s: State) -> array[float]:
        """Encode ``s`` (as seen by :attr:`player`, a seat of its game) into :attr:`vec`
        and return it."""
        rules = s.rules
        if rules is not self.rules:
            if self.player >= s.n:
                raise ValueError(f"player {self.player} is not a seat of a "
                                 f"{s.n}-player game")
            self.reset()
            self.rules = rules
            self.n = s.n
            self.static(s)
        d = pending(s)
        self.turn_fields(s, d)
        self.decision(s, d)
        shields = self.tracks(s)
        self.sites_links(s)
        if s.sea != self.sea or s.region_presence != self.region_presence:
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
        module_data = s.module_data
        nums = self.mod_num
        for i in range(len(nums)):
            m = nums[i]
            if m and (module_data[i] != self.module_data[m - 1]
                      or (self.mod_round[i] and s.round != self.exd_round[m - 1])):
                self.module(s, i, m)
        return self.vec

    def static(self, s: State) -> None:
        """What a game's setting (its rules object) fixes: its config, modules, board
        (the vector is all zeros)."""
        a = self.out
        cfg = s.config
        n = self.n
        put1(a, O_RULESET, 2, -1, 0 if cfg.ruleset == "age_of_sail" else 1)
        board = s.rules.board.side
        put1(a, O_BOARD, 3, -1, 0 if board == "A" else 1 if board == "B" else 2)
        put1(a, O_PLAYERS, 4, -1, n - 2)
        opts = cfg.options
        mask = 0
        for k in range(len(OPTION_NAMES)):
            v = opts.get(OPTION_NAMES[k])
            if v is True or v == "by_player":
                mask |= 1 << k
        putbits(a, O_OPTIONS, len(OPTION_NAMES), 0, mask)
        mask = 0
        for m in s.modules:
            num = _MODULE_NUMBER.get(m.id, 0)
            if num:
                mask |= 1 << (num - 1)
            self.mod_num.append(num if num and MODULE_RANGE[num - 1][1] else 0)
            self.mod_round.append(m.observe_round)
        putbits(a, O_MODULES, NMODULES, 0, mask)
        self.writer = ObsWriter(self.player, n)
        lengths = s.rules.board.trk_len
        for r in range(1, D.NREGIONS):
            putcount(a, O_TRK_LEN + r - 1, MAX_TRACK, 0, lengths[r])
        for k in range(n):
            a[O_PRESENT + k] = 1.0

    def turn_fields(self, s: State, d: Pending) -> None:
        a = self.out
        level5 = s.level5  # drawn at setup: games of one setting differ
        if level5 != self.level5:
            mask = 0
            for b in level5:
                if b in D.LEVEL5_POOL:
                    mask |= 1 << D.LEVEL5_POOL.index(b)
            putbits(a, O_LEVEL5, len(D.LEVEL5_POOL), self.level5_mask, mask)
            self.level5_mask = mask
            self.level5 = level5
        v = s.round
        if v != self.round:
            put1(a, O_ROUND, 8, self.round, v)
            self.round = v
        v = s.phase
        if v != self.phase:
            put1(a, O_PHASE, 7, self.phase, v)
            self.phase = v
        v = self.rel(s.crown)
        if v != self.crown:
            put1(a, O_CROWN, SEATS, self.crown, v)
            self.crown = v
        v = self.rel(d.player)
        if v != self.current:
            put1(a, O_CURRENT, SEATS, self.current, v)
            self.current = v
        v = len(s.stack) - 1
        if v < 0:
            v = 0
        if v != self.pending:
            putcount(a, O_PENDING, 4, self.pending, v)
            self.pending = v
        v = self.rel(s.act_player)
        if v != self.active:
            put1(a, O_ACTIVE, SEATS, self.active, v)
            self.active = v
        v = self.rel_mask(s.passed)
        if v != self.passed:
            putbits(a, O_PASSED, SEATS, self.passed, v)
            self.passed = v
        t = s.turn
        v = (1 if t >> 8 & 1 else 0) | (t & 31) << 1
        if v != self.kinds:
            putbits(a, O_TURN, 6, self.kinds, v)
            self.kinds = v
        v = 1 if s.abolished else 0
        if v != self.abolished:
            putbits(a, O_ABOLISHED, 1, self.abolished, v)
            self.abolished = v
        spent = s.spent
        if spent != self.spent:
            putcounts(a, O_SPENT, 10, self.spent, spent)
            self.spent = spent.copy()

    def decision(self, s: State, d: Pending) -> None:
        if d is self.pend:  # the same decision (an equal one is merely rewritten alike)
            return
        self.pend = d
        idx: list[int] = []  # the decision block's non-zero floats: where, and what
        val: list[float] = []
        # a field that does not apply to the decision's kind is -1 or 0: nothing shown
        one(idx, val, O_FRAME, 9, d.kind)
        if d.payments > 0:  # salary
            idx.append(O_PAYMENTS)
            val.append(shown(d.payments) / 5)
        if d.mode >= 0:  # an effect
            one(idx, val, O_MODE, 4, d.mode)
            one(idx, val, O_KIND1, 5, d.kind1)
            one(idx, val, O_KIND2, 5, d.kind2)
            one(idx, val, O_REGION, 7, d.region)
            one(idx, val, O_DECK, 9, d.deck)
            ones(idx, val, O_FLAGS, 3, d.flags)
            src = d.source
            if 1 <= src <= NBUILDINGS:
                one(idx, val, O_SOURCE, NBUILDINGS + 4, src - 1)
            elif src >= SRC_TOKEN + 4:
                one(idx, val, O_SOURCE, NBUILDINGS + 4, NBUILDINGS + src - SRC_TOKEN - 4)
        if d.module >= 0:  # a rule module's own step
            mod: RuleModule = s.modules[d.module]
            one(idx, val, O_MODULE, NMODULES, _MODULE_NUMBER.get(mod.id, 0) - 1)
            step = d.step
            one(idx, val, O_STEP, 8, step)
            step_a = d.a
            if step >= 0 and mod.observe_seat_steps >> step & 1:
                step_a = self.rel(step_a)
            ones(idx, val, O_STEP_A, 8, step_a)
            ones(idx, val, O_STEP_B, 8, d.b)
        a = self.out
        old_idx = self.dec_idx
        old_val = self.dec_val
        for i in old_idx:
            if i not in idx:
                a[i] = 0.0
        for j in range(len(idx)):
            i = idx[j]
            if i not in old_idx or old_val[old_idx.index(i)] != val[j]:
                a[i] = val[j]
        self.dec_idx = idx
        self.dec_val = val

    def tracks(self, s: State) -> bool:
        """The shipping tracks; whether a region opened or closed (Shields change)."""
        owner = s.track_owner
        tok = s.track_token
        old_o = self.track_owner
        old_t = self.track_token
        if owner != old_o or tok != old_t:
            a = self.out
            info = s.rules.board
            full = len(old_o) != len(owner)
            for r in range(1, D.NREGIONS):
                o = info.trk_off[r]
                row = (r - 1) * MAX_TRACK
                for k in range(info.trk_len[r]):
                    x = o + k
                    was = -1 if full else old_o[x]
                    if owner[x] != was:
                        put1(a, O_TRK_OWNER + (row + k) * OWNERS, OWNERS, self.rel(was),
                             self.rel(owner[x]))
                    was = -1 if full else old_t[x]
                    if tok[x] != was:
                        put1(a, O_TRK_TOKEN + (row + k) * 8, 8, was, tok[x])
            self.track_owner = owner.copy()
            self.track_token = tok.copy()
        filled = s.filled
        if filled == self.filled:
            return False
        info = s.rules.board
        mask = 0
        for r in range(1, D.NREGIONS):
            if filled[r] == info.trk_len[r]:
                mask |= 1 << (r - 1)
        putbits(self.out, O_TRK_OPEN, 6, self.open, mask)
        self.open = mask
        self.filled = filled.copy()
        return True

    def sites_links(self, s: State) -> None:
        a = self.out
        owner = s.site_owner
        owners_changed = owner != self.site_owner
        if owners_changed:
            old = self.site_owner
            full = len(old) != len(owner)
            for x in range(NSITES):
                was = -1 if full else old[x]
                if owner[x] != was:
                    put1(a, O_SITE_OWNER + x * OWNERS, OWNERS, self.rel(was),
                         self.rel(owner[x]))
            self.site_owner = owner.copy()
        tok = s.site_token
        if tok != self.site_token:
            old = self.site_token
            full = len(old) != len(tok)
            for x in range(NSITES):
                was = -1 if full else old[x]
                if tok[x] != was:
                    put1(a, O_SITE_TOKEN + x * 8, 8, was, tok[x])
            self.site_token = tok.copy()
        mark = s.site_marks
        if mark != self.site_marks:
            old = self.site_marks
            full = len(old) != len(mark)
            for x in range(NSITES):
                was = 0 if full else old[x]
                if mark[x] != was:
                    putbits(a, O_SITE_MARK + x * 4, 4, was, mark[x])
            self.site_marks = mark.copy()
        ltok = s.link_token
        if ltok != self.link_token:
            old = self.link_token
            full = len(old) != len(ltok)
            for li in range(min(len(ltok), MAX_LINKS)):
                was = -1 if full else old[li]
                if ltok[li] != was:
                    put1(a, O_LINK_TOKEN + li * 8, 8, was, ltok[li])
            self.link_token = ltok.copy()
        lmark = s.link_marks
        lmark_changed = lmark != self.link_marks
        if lmark_changed:
            old = self.link_marks
            full = len(old) != len(lmark)
            for li in range(min(len(lmark), MAX_LINKS)):
                was = 0 if full else old[li]
                if lmark[li] != was:
                    putbits(a, O_LINK_BLOCK + li, 1, was, lmark[li])
            self.link_marks = lmark.copy()
        if owners_changed or lmark_changed:
            links = s.rules.board.board.links
            n = self.n
            ctl = self.link_ctl
            for li in range(min(len(links), MAX_LINKS)):
                x, y = links[li]
                o = owner[x]
                c = self.rel(o) if 0 <= o < n and owner[y] == o and not lmark[li] & 1 else -1
                if c != ctl[li]:
                    put1(a, O_LINK_CTL + li * SEATS, SEATS, ctl[li], c)
                    ctl[li] = c

    def seas(self, s: State) -> None:
        a = self.out
        sea = s.sea
        pres = s.region_presence
        old_s = self.sea
        old_p = self.region_presence
        full = len(old_s) != len(sea)
        for o in range(len(sea) // 7):
            row = self.rel(o)
            base = o * REGION_STRIDE
            for r in range(D.NREGIONS):
                x = base + r
                if r and sea[x] != (0 if full else old_s[x]):
                    a[O_SEA + row * 6 + r - 1] = shown(sea[x]) / 5
                if pres[x] != (0 if full else old_p[x]):
                    a[O_PRES + row * REGION_STRIDE + r] = shown(pres[x]) / 10
        self.sea = sea.copy()
        self.region_presence = pres.copy()

    def exploit_shields(self, s: State) -> None:
        a = self.out
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
            old = self.shields[m - 1]
            if v != old:
                self.shields[m - 1] = v
                putbits(a, O_ACTIVE_EX + m - 1, 1, old & 1, v & 1)
                putbits(a, O_SHIELD + (m - 1) * SEATS, SEATS, old >> 1, v >> 1)

    def cards(self, s: State) -> None:
        a = self.out
        decks = s.decks
        old = self.decks
        any_deck = False
        for d in range(8):
            dk = decks[d]
            was = old[d]
            if dk != was:
                any_deck = True
                putcount(a, O_DECK_COUNT + d, 8, len(was), len(dk))
                top = dk[-1] if dk else -1
                old_top = self.deck_top[d]
                if top != old_top:
                    put1(a, O_DECK_VALUE + d * 6, 6,
                         _CARD_VALUE[old_top] if old_top >= 0 else -1,
                         _CARD_VALUE[top] if top >= 0 else -1)
                    put1(a, O_DECK_ORIGIN + d * 8, 8,
                         _CARD_DECK[old_top] if old_top >= 0 else -1,
                         _CARD_DECK[top] if top >= 0 else -1)
                    self.deck_top[d] = top
                old[d] = dk.copy()
        if any_deck:
            m = 0
            for d in range(8):
                m |= card_mask(decks[d])
            putbits(a, O_IN_DECK, NCARDS, self.in_deck, m)
            self.in_deck = m
        pile = s.pile
        if pile != self.pile:
            m = card_mask(pile)
            putbits(a, O_PILE, NCARDS, self.pile_mask, m)
            self.pile_mask = m
            self.pile = pile.copy()
        removed = s.removed
        if removed != self.removed:
            m = card_mask(removed)
            putbits(a, O_REMOVED, NCARDS, self.removed_mask, m)
            self.removed_mask = m
            self.removed = removed.copy()
        gov = s.region_governors
        if gov != self.region_governors:
            m = 0
            for r in range(1, D.NREGIONS):
                if gov[r] >= 0:
                    m |= 1 << (r - 1)
            putbits(a, O_GOV_AVAIL, 6, self.gov_mask, m)
            self.gov_mask = m
            self.region_governors = gov.copy()

    def supplies(self, s: State) -> None:
        a = self.out
        sup = s.building_supply
        if sup != self.building_supply:
            putcounts(a, O_BSUPPLY, 5, self.building_supply, sup)
            self.building_supply = sup.copy()
        ns = s.neutral_supply
        v = ns[0] if ns else 0
        if v != self.neutral_supply:
            putcount(a, O_NSUPPLY, 35, self.neutral_supply, v)
            self.neutral_supply = v

    def mat(self, s: State, k: int, pl: Player) -> None:
        """The mat of relative seat ``k``."""
        a = self.out
        old = self.mats[k]
        v = pl.supply
        if v != old.supply:
            putcount(a, O_SUPPLY + k, 35, old.supply, v)
            old.supply = v
        v = pl.harbor
        if v != old.harbor:
            putcount(a, O_HARBOR + k, 10, old.harbor, v)
            old.harbor = v
        attr = pl.attr
        if attr != old.attr:
            cap = s.rules.track_cap
            marker = old.marker
            level = old.level
            for t in range(4):
                v = attr[t]
                m = v if v < cap else cap
                if m != marker[t]:
                    putcount(a, O_MARKER + k * 4 + t, 15, marker[t], m)
                    marker[t] = m
                lv = _LEVEL[v] if v < 16 else 5
                if lv != level[t]:
                    putcount(a, O_LEVEL + k * 4 + t, 5, level[t], lv)
                    level[t] = lv
            old.attr = attr.copy()
        v4 = pl.brown_tokens
        if v4 != old.brown_tokens:
            putcounts(a, O_BTOK + k * 4, 5, old.brown_tokens, v4)
            old.brown_tokens = v4.copy()
        v4 = pl.base_discs
        if v4 != old.base_discs:
            putcounts(a, O_MEM + k * 4, 5, old.base_discs, v4)
            old.base_discs = v4.copy()
        v4 = pl.blue
        if v4 != old.blue:
            putcounts(a, O_BLUE + k * 4, 2, old.blue, v4)
            old.blue = v4.copy()
        blds = pl.buildings
        occ = pl.taken_circles
        if blds != old.buildings or occ != old.taken_circles:
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
                    putcount(a, O_BLDS + k * NBUILDINGS + b, 1, was_owned[b], owned[b])
                if taken[b] != was_taken[b]:
                    putcount(a, O_WORKERS + k * NBUILDINGS + b, 1, was_taken[b], taken[b])
            old.buildings = blds.copy()
            old.taken_circles = occ
            old.owned = owned
            old.taken = taken
        cards = pl.cards
        if cards != old.cards:
            m = card_mask(cards)
            putbits(a, O_CARDS + k * NCARDS, NCARDS, old.card_mask, m)
            old.card_mask = m
            old.cards = cards.copy()
        gov = pl.gov
        if gov != old.gov:
            r = _CARD_DECK[gov] - 1 if gov >= 0 else -1
            put1(a, O_GOV + k * 6, 6, old.gov_region, r)
            old.gov_region = r
            old.gov = gov
        v = len(pl.aside)
        if v != old.aside:
            putcount(a, O_ASIDE + k, 3, old.aside, v)
            old.aside = v

    def module(self, s: State, i: int, m: int) -> None:
        """The block of module ``i`` of the game (module number ``m``), written by the
        module's hook, rewritten where it changed."""
        off, size = MODULE_RANGE[m - 1]
        w = self.writer
        v = [0.0] * size
        w.v = v
        s.modules[i].observe(s, i, w)
        w.v = []
        putdense(self.out, off, self.mod[m - 1], v)
        self.mod[m - 1] = v
        self.module_data[m - 1] = s.module_data[i].copy()
        self.exd_round[m - 1] = s.round


__all__ = ["Encoder", "FIELD", "FIELDS", "Field", "SIZE"]
