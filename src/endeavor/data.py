"""Component data: status tracks, buildings, Asset cards, Trade tokens and boards.

Every number printed on a component lives here, once, with its provenance code from
the project's component listing (kept outside this repository):

* ``RB``  stated in a rulebook;
* ``FI``  from a public fan implementation of the 2009 game, cross-checked by examples;
* ``INF`` inferred from counts and rule text;
* ``REC`` reconstructed: the printed value is unknown and was designed to fit the rules.

Tables are plain tuples built once at import; the engine indexes them by small ints.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# --------------------------------------------------------------------------- attributes
INDUSTRY: Final = 0
CULTURE: Final = 1
WEALTH: Final = 2
INFLUENCE: Final = 3
ATTRIBUTES: Final = ("industry", "culture", "wealth", "influence")

#: level (Build Level, Salary payments, Card Limit) for a track score 0..15 (FI)
TRACK_LEVEL: Final = (1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 5, 5)
#: glory printed on track spaces 0..15 (FI); spaces without a symbol slide down
TRACK_GLORY: Final = (0, 0, 2, 2, 4, 4, 4, 7, 7, 7, 10, 11, 12, 13, 14, 15)
TRACK_PROVENANCE: Final = "FI (levels and symbols); extender spaces past 15: REC"


def track_level(score: int) -> int:
    """Build Level / Salary / Card Limit for a track score (levels stay 5 past 15)."""
    return TRACK_LEVEL[score] if score < 16 else 5


def track_glory(score: int) -> int:
    """End-game glory of a track marker, after sliding down to the nearest symbol.

    Past 15 the Age of Sail track extenders are used; each extender space is taken to
    carry a glory symbol equal to its number (REC)."""
    return TRACK_GLORY[score] if score < 16 else score


def growth_level(score: int) -> int:
    """Discs gained in the Growth phase for a Culture score (level + 1, FI)."""
    return track_level(score) + 1


DISCS_PER_PLAYER: Final = 35  # RB (Age of Sail)
ROUNDS: Final = 7  # RB
MAX_CARDS: Final = 5  # RB: card slots on a mat

# --------------------------------------------------------------------------- regions
EUROPE: Final = 0
AFRICA: Final = 1
SOUTH_AMERICA: Final = 2
CARIBBEAN: Final = 3
NORTH_AMERICA: Final = 4
INDIA: Final = 5
FAR_EAST: Final = 6
REGION_CODES: Final = ("EU", "AF", "SA", "CA", "NA", "IN", "FE")
REGION_NAMES: Final = ("Europe", "Africa", "South America", "Caribbean", "North America",
                       "India", "Far East")
#: the regions' names where one stands alone in a sentence ("opens the Caribbean"); the
#: bare names serve before a noun ("the Caribbean track")
REGION_NOUNS: Final = ("Europe", "Africa", "South America", "the Caribbean", "North America",
                       "India", "the Far East")
NREGIONS: Final = 7
#: the stride of the lists per player and region (``State.region_presence``, ``own``, ``sea``...):
#: player ``p``'s entry for region ``r`` is at ``p * REGION_STRIDE + r`` (a literal, so
#: that mypyc inlines it; it equals NREGIONS)
REGION_STRIDE: Final = 7

# --------------------------------------------------------------------------- action kinds
SHIP: Final = 0
OCCUPY: Final = 1
ATTACK: Final = 2
PAYMENT: Final = 3
DRAW: Final = 4
KIND_NAMES: Final = ("Ship", "Occupy", "Attack", "Payment", "Draw")

# Source modes: a single action, a choice "/" or a "+" pair (one or both, either order,
# same region; Draw + Draw from the same deck).
SINGLE: Final = 0
CHOICE: Final = 1
BOTH: Final = 2

# --------------------------------------------------------------------------- trade tokens
# 0-3 brown (attribute) tokens, 4-7 blue (action) tokens.
T_INDUSTRY: Final = 0
T_CULTURE: Final = 1
T_WEALTH: Final = 2
T_INFLUENCE: Final = 3
T_SHIP_DRAW: Final = 4
T_OCCUPY_DRAW: Final = 5
T_PAYMENT: Final = 6
T_ATTACK: Final = 7
TOKEN_CODES: Final = ("industry", "culture", "wealth", "influence",
                      "ship-draw", "occupy-draw", "payment", "attack")
TOKEN_NAMES: Final = ("Industry", "Culture", "Wealth", "Influence",
                      "Ship/Draw", "Occupy/Draw", "Payment", "Attack")
#: copies of each token type (FI; 95 in all, RB)
TOKEN_COUNTS: Final = (17, 20, 17, 25, 6, 6, 2, 2)
TOKEN_PROVENANCE: Final = "FI (counts), RB (total 95)"
#: (mode, kind1, kind2) of each blue token, indexed by token type - 4
TOKEN_ACTIONS: Final = ((CHOICE, SHIP, DRAW), (CHOICE, OCCUPY, DRAW),
                        (SINGLE, PAYMENT, -1), (SINGLE, ATTACK, -1))
NTOKENS: Final = 95


# --------------------------------------------------------------------------- buildings
class Building(NamedTuple):
    code: str
    name: str
    level: int  # 0 for the start buildings
    copies: int
    icons: tuple[int, int, int, int]  # Industry, Culture, Wealth, Influence
    glory: int
    activatable: bool
    mode: int  # SINGLE / CHOICE / BOTH
    kind1: int  # -1 when the building has no action
    kind2: int
    no_payment: bool  # workers here cannot be paid in the Action phase (RB fr)
    draw_symbols: int
    provenance: str


def _b(code: str, name: str, level: int, copies: int, icons: tuple[int, int, int, int],
       glory: int, mode: int, k1: int, k2: int, prov: str) -> Building:
    act = k1 >= 0
    draws = (k1 == DRAW) + (k2 == DRAW)
    return Building(code, name, level, copies, icons, glory, act, mode, k1, k2,
                    k1 == PAYMENT, draws, prov)


_N: Final = (0, 0, 0, 0)
BUILDINGS: tuple[Building, ...] = (
    _b("market", "Market", 1, 5, _N, 0, SINGLE, DRAW, -1, "FI"),
    _b("shipyard", "Shipyard", 1, 5, (0, 1, 0, 0), 0, SINGLE, SHIP, -1, "FI"),
    _b("workshop", "Workshop", 1, 5, (2, 0, 0, 0), 0, SINGLE, -1, -1, "FI"),
    _b("bank", "Bank", 2, 4, (0, 0, 2, 0), 0, SINGLE, -1, -1, "FI"),
    _b("barracks", "Barracks", 2, 4, _N, 0, SINGLE, ATTACK, -1, "FI"),
    _b("guild-hall", "Guild Hall", 2, 4, _N, 0, CHOICE, SHIP, DRAW, "FI, RB"),
    _b("docks", "Docks", 3, 3, _N, 0, BOTH, SHIP, OCCUPY, "FI, RB"),
    _b("fortress", "Fortress", 3, 3, (0, 0, 0, 1), 0, CHOICE, OCCUPY, ATTACK, "FI, RB"),
    _b("theater", "Theater", 3, 3, (0, 2, 0, 0), 0, SINGLE, -1, -1, "FI, RB"),
    _b("cartographer", "Cartographer", 4, 2, _N, 0, BOTH, SHIP, SHIP, "FI, RB"),
    _b("trade-office", "Trade Office", 4, 2, _N, 0, BOTH, DRAW, DRAW, "FI, RB"),
    _b("university", "University", 4, 2, _N, 3, SINGLE, -1, -1, "FI, RB"),
    _b("exchange", "Exchange", 5, 1, (0, 0, 2, 0), 0, SINGLE, PAYMENT, -1, "FI, RB"),
    _b("museum", "Museum", 5, 1, (0, 2, 0, 0), 0, SINGLE, PAYMENT, -1, "FI, RB"),
    _b("parliament", "Parliament", 5, 1, (0, 0, 0, 2), 0, SINGLE, PAYMENT, -1, "FI, RB"),
    _b("memorial", "Memorial", 5, 1, _N, 0, SINGLE, ATTACK, -1,
       "RB fr (power); REC (activation, Attack action, no icons)"),
    _b("town-hall", "Town Hall", 5, 1, _N, 0, SINGLE, DRAW, -1,
       "RB fr (power); REC (activation, Draw action, no icons)"),
    _b("colonial-house", "Colonial House", 0, 0, _N, 0, SINGLE, OCCUPY, -1, "FI, RB"),
    _b("merchant-dock", "Merchant Dock", 0, 0, (0, 0, 1, 0), 0, SINGLE, SHIP, -1,
       "RB fr (+1 Wealth); REC (Ship action)"),
)
BUILDING_INDEX: Final = {b.code: i for i, b in enumerate(BUILDINGS)}
B_MEMORIAL: Final = BUILDING_INDEX["memorial"]
B_TOWN_HALL: Final = BUILDING_INDEX["town-hall"]
START_BUILDINGS: Final = (BUILDING_INDEX["colonial-house"], BUILDING_INDEX["merchant-dock"])
#: the level-5 tile types whose faces are known; 3 are drawn for each game (RB fr).
#: Two more printed types are unknown and left out (the component listing, buildings).
LEVEL5_POOL: Final = tuple(BUILDING_INDEX[c] for c in
                           ("exchange", "museum", "parliament", "memorial", "town-hall"))
LEVEL5_AVAILABLE: Final = 3
#: buildings always in the supply (levels 1-4)
BASE_SUPPLY: Final = tuple(i for i, b in enumerate(BUILDINGS) if 1 <= b.level <= 4)

# --------------------------------------------------------------------------- asset cards
EU_DECK: Final = 0  # deck ids: 0 Europe, 1-6 regions, 7 Slavery
SLAVERY_DECK: Final = 7
PILE: Final = 8
DECK_CODES: Final = ("EU", "AF", "SA", "CA", "NA", "IN", "FE", "SL")
DECK_NAMES: Final = ("Europe", "Africa", "South America", "Caribbean", "North America", "India",
                     "Far East", "Slavery")
GOVERNOR_VALUE: Final = 9  # sentinel: Governors are never drawn in Age of Sail


class Card(NamedTuple):
    code: str  # e.g. "AF/3", "EU/0", "FE/G"
    deck: int
    value: int  # Draw Value; GOVERNOR_VALUE for Governors
    icons: tuple[int, int, int, int]
    glory: int
    governor: bool
    abolition: bool
    bonus_disc: bool  # region value-1 cards give +1 disc when gained (RB, Age of Sail)


_Row = tuple[int, int, int, int, int]
# I/C/W/N/G per value (FI); deck code -> (Governor, cards of value 0..5)
_CARD_TABLE: dict[str, tuple[_Row | None, list[_Row | None]]] = {
    "EU": (None, [(0, 1, 1, 0, 0), (0, 2, 0, 1, 0), (0, 0, 0, 3, 0), (1, 1, 1, 1, 0),
                  (0, 0, 0, 0, 5), (0, 3, 0, 0, 3)]),
    "SL": (None, [(2, 0, 0, 0, 0), (0, 0, 2, 0, 0), (1, 0, 2, 0, 0), (3, 0, 0, 0, 0),
                  (2, 0, 2, 0, 0), (3, 0, 2, 0, 0)]),
    "AF": ((0, 0, 2, 1, 1), [None, (1, 0, 0, 1, 0), (1, 0, 1, 1, 0), (0, 0, 2, 2, 0),
                             (2, 0, 1, 1, 1), (2, 0, 2, 0, 2)]),
    "SA": ((0, 0, 0, 3, 1), [None, (0, 2, 0, 0, 0), (0, 3, 0, 0, 0), (0, 4, 0, 0, 0),
                             (0, 0, 3, 0, 2), (0, 0, 3, 0, 3)]),
    "CA": ((0, 2, 0, 1, 1), [None, (0, 0, 0, 2, 0), (0, 0, 1, 2, 0), (0, 0, 4, 0, 0),
                             (0, 0, 0, 3, 2), (3, 0, 0, 0, 3)]),
    "NA": ((0, 0, 1, 2, 1), [None, (2, 0, 0, 0, 0), (0, 0, 3, 0, 0), (2, 2, 0, 0, 0),
                             (0, 2, 0, 2, 1), (0, 0, 0, 0, 6)]),
    "IN": ((0, 1, 1, 1, 1), [None, (0, 1, 0, 1, 0), (0, 1, 1, 1, 0), (0, 1, 2, 1, 0),
                             (0, 0, 2, 1, 2), (0, 0, 2, 2, 2)]),
    "FE": ((2, 1, 0, 0, 1), [None, (1, 0, 1, 0, 0), (2, 0, 1, 0, 0), (2, 0, 2, 0, 0),
                             (1, 1, 1, 1, 1), (0, 0, 0, 3, 3)]),
}
CARD_PROVENANCE: Final = "FI (icons and glory; same in both editions, INF)"


def _build_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    for deck, code in enumerate(DECK_CODES):
        gov, values = _CARD_TABLE[code]
        for value, row in enumerate(values):
            if row is None:
                continue
            is_region = deck not in (EU_DECK, SLAVERY_DECK)
            cards.append(Card(f"{code}/{value}", deck, value, row[:4], row[4], False,
                              code == "EU" and value == 5, is_region and value == 1))
        if gov is not None:
            cards.append(Card(f"{code}/G", deck, GOVERNOR_VALUE, gov[:4], gov[4], True,
                              False, False))
    return tuple(cards)


CARDS: tuple[Card, ...] = _build_cards()
CARD_INDEX: Final = {c.code: i for i, c in enumerate(CARDS)}
NCARDS: Final = len(CARDS)  # 42 Asset cards + 6 Governors
#: initial deck contents, bottom first (top = last element): 5-4-3-2-1(-0)
INITIAL_DECKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((i for i, c in enumerate(CARDS) if c.deck == d and not c.governor),
                 key=lambda i: -CARDS[i].value))
    for d in range(8))
#: Governor card of each region (index 0 = Europe has none: -1)
GOVERNORS: tuple[int, ...] = tuple(
    next((i for i, c in enumerate(CARDS) if c.deck == r and c.governor), -1)
    for r in range(NREGIONS))
ABOLITION_CARD: Final = CARD_INDEX["EU/5"]


# --------------------------------------------------------------------------- boards
class Site(NamedTuple):
    code: str  # e.g. "EU3" (city) or "EUT1" (trade route)
    name: str
    region: int
    glory: int  # cities 1 or 2; trade routes 0
    city: bool


_CITY_NAMES: Final = {
    "EU1": "London", "EU2": "Lisbon", "EU3": "Cadiz", "EU4": "Bordeaux",
    "EU5": "Amsterdam", "EU6": "Hamburg", "EU7": "Venice", "EU8": "Nantes",
    "EU9": "Genoa", "EU10": "Marseille", "AF1": "Elmina", "AF2": "Algiers",
    "AF3": "Mombasa", "SA1": "Rio de Janeiro", "SA2": "Cartagena", "SA3": "Salvador",
    "CA1": "Havana", "CA2": "Portobelo", "CA3": "Santo Domingo", "NA1": "Charleston",
    "NA2": "New Amsterdam", "NA3": "Boston", "NA4": "Quebec", "IN1": "Bombay",
    "IN2": "Goa", "IN3": "Calcutta", "IN4": "Madras", "FE1": "Malacca", "FE2": "Canton",
    "FE3": "Nagasaki", "FE4": "Macau", "FE5": "Edo",
}
_TWO_GLORY: Final = {"SA1", "FE4"}
_ROUTE_NAMES: Final = {
    "EUT1": "English Channel", "EUT2": "Strait of Gibraltar", "EUT3": "Baltic Sea",
    "AFT1": "Gulf of Guinea", "SAT1": "River Plate", "CAT1": "Windward Passage",
    "NAT1": "Grand Banks", "INT1": "Bay of Bengal", "FET1": "Strait of Malacca",
}


def _region_of(code: str) -> int:
    return REGION_CODES.index(code[:2])


#: cities printed on Exploit tiles, in play only with their Exploit (The Dutch East India
#: Company: Batavia, Far East, 2 glory; Cape Town, Africa, 1 glory; REC)
TILE_SITES: Final = {"BAT": ("Batavia", FAR_EAST, 2), "CPT": ("Cape Town", AFRICA, 1)}

#: every site of every board (one global numbering, so action codes are board-free)
SITES: tuple[Site, ...] = tuple(
    [Site(c, n, _region_of(c), 2 if c in _TWO_GLORY else 1, True)
     for c, n in _CITY_NAMES.items()]
    + [Site(c, n, _region_of(c), 0, False) for c, n in _ROUTE_NAMES.items()]
    + [Site(c, n, r, g, True) for c, (n, r, g) in TILE_SITES.items()])
SITE_INDEX: Final = {s.code: i for i, s in enumerate(SITES)}
NSITES: Final = len(SITES)
TILE_SITE_IDS: Final = tuple(SITE_INDEX[c] for c in TILE_SITES)
#: Batavia - Cape Town: a square link worth 1 glory (REC)
TILE_LINKS: Final = ((SITE_INDEX["BAT"], SITE_INDEX["CPT"]),)


class Board(NamedTuple):
    side: str
    track_lengths: tuple[int, ...]  # per region; Europe 0
    sites: tuple[int, ...]  # site ids used on this side
    links: tuple[tuple[int, int], ...]  # (site, site)
    link_circular: tuple[bool, ...]  # circular links carry a Trade token at setup
    provenance: str


_CLASSIC_LINKS: Final = ("FE3-FE5 IN3-FE2 IN3-FE1 EU2-FE1 EU7-FE2 EU2-IN2 IN1-IN2 EU1-IN1 NA2-NA3 "
                         "EU1-NA3 EU5-NA2 CA1-NA1 EU8-NA1 EU4-CA1 CA1-CA3 EU3-CA3 SA2-CA2 EU3-SA2 "
                         "EU4-SA3 EU8-AF1 AF1-AF2 EU10-AF2 EU9-EU10 EU7-EU10 EU6-EU7 EU5-EU6")


def _links(text: str) -> list[tuple[int, int]]:
    out = []
    for pair in text.split():
        a, b = pair.split("-")
        out.append((SITE_INDEX[a], SITE_INDEX[b]))
    return out


def _board(side: str, tracks: tuple[int, ...], extra_cities: str, routes: str,
           circular: str, square: str) -> Board:
    base = [c for c in _CITY_NAMES if c not in ("AF3", "NA4", "IN4")]
    cities = base + extra_cities.split()
    sites = tuple(sorted(SITE_INDEX[c] for c in cities + routes.split()))
    circ, sq = _links(circular), _links(square)
    return Board(side, (0,) + tracks, sites, tuple(circ + sq),
                 tuple([True] * len(circ) + [False] * len(sq)),
                 "REC (the printed Age of Sail maps are unknown; the component listing, boards)")


BOARDS: Final = {
    "A": _board("A", (5, 6, 6, 6, 6, 7), "", "EUT1 EUT2 CAT1 FET1", _CLASSIC_LINKS,
                "EUT1-EU1 EUT1-EU5 EUT2-EU3 EUT2-EU10 CAT1-CA1 CAT1-CA3 FET1-FE1"),
    "B": _board("B", (6, 6, 6, 6, 6, 6), "AF3 NA4 IN4",
                "EUT1 EUT2 EUT3 AFT1 SAT1 NAT1 INT1",
                "FE3-FE5 IN3-FE2 IN3-FE1 EU2-FE1 EU7-FE2 EU2-IN2 EU1-IN1 IN3-IN4 EU1-NA3 "
                "EU5-NA2 NA3-NA4 EU8-NA1 EU4-CA1 EU3-CA3 EU3-SA2 EU4-SA3 EU8-AF1 EU10-AF2 "
                "AF1-AF3 EU9-EU10",
                "IN1-IN2 NA2-NA3 CA1-NA1 CA1-CA3 SA2-CA2 AF1-AF2 EU7-EU10 EU6-EU7 EU5-EU6 "
                "EUT1-EU1 EUT1-EU5 EUT2-EU3 EUT2-EU10 EUT3-EU6 AFT1-AF1 SAT1-SA1 SAT1-SA3 "
                "NAT1-NA3 NAT1-NA4"),
}


# --------------------------------------------------------------------------- classic 2009
# The 2009 Endeavor (RB classic; the component listing). Cards, buildings of levels 1-5,
# the status-track table and the token mix are the tables above; what differs is here.

#: discs per player (RB classic: "all 30 Population Markers")
CLASSIC_DISCS: Final = 30
#: the attributes as the 2009 game names them (RB classic): Finance for Wealth, Politics
#: for Influence
CLASSIC_ATTRIBUTE_NAMES: Final = ("Industry", "Culture", "Finance", "Politics")
CLASSIC_TOKEN_NAMES: Final = CLASSIC_ATTRIBUTE_NAMES + TOKEN_NAMES[4:]
#: the score a status marker shows and every effect reads: it never passes 15 (RB
#: classic, "Track limit"); the score itself stays the icons held
CLASSIC_TRACK_CAP: Final = 15
#: the Colonial House is printed on every mat, with no disc on it (RB classic, R3)
CLASSIC_START_BUILDING: Final = BUILDING_INDEX["colonial-house"]
#: all three level-5 types, 1 copy each (RB classic, "Preparation" 4)
CLASSIC_LEVEL5: Final = tuple(BUILDING_INDEX[c] for c in ("exchange", "museum", "parliament"))
#: no card gives a disc when gained (the value-1 bonus is Age of Sail's, R16)
CLASSIC_CARD_BONUS: tuple[bool, ...] = (False,) * NCARDS
#: the decks are the tables above, with each region's Governor on top of its deck (RB
#: classic, "Preparation" 3); it is awarded when the region opens (R11), never drawn, so
#: the engine keeps it beside the deck (``State.region_governors``) as in Age of Sail
CLASSIC_DECK_PROVENANCE: Final = "FI (cards); RB classic (order 5-4-3-2-1-Governor from the bottom)"


def _classic_board() -> Board:
    """The 2009 board (FI; totals RB): tracks AF 6, SA 6, CA 6, NA 7, IN 7, FE 8; the 29
    cities (SA1 and FE4 worth 2 glory); the 26 links, each with a Trade token; no trade
    routes, no open sea (a Ship to a full track goes beside it)."""
    base = [c for c in _CITY_NAMES if c not in ("AF3", "NA4", "IN4")]
    sites = tuple(sorted(SITE_INDEX[c] for c in base))
    links = _links(_CLASSIC_LINKS)
    return Board("classic", (0, 6, 6, 6, 7, 7, 8), sites, tuple(links),
                 (True,) * len(links),
                 "FI (tracks, cities, links; the component listing, 2009 board); RB (95 spaces)")


CLASSIC_BOARD: Final = _classic_board()
CLASSIC_BOARDS: Final = {"classic": CLASSIC_BOARD}


def _check_boards() -> None:
    for b in (*BOARDS.values(), CLASSIC_BOARD):
        circ = sum(b.link_circular)
        spaces = sum(b.track_lengths) + len(b.sites) + circ
        assert spaces == NTOKENS, (b.side, spaces)
        for x, y in b.links:
            assert x in b.sites and y in b.sites, (b.side, SITES[x], SITES[y])


_check_boards()
assert sum(TOKEN_COUNTS) == NTOKENS
assert len(CARDS) == 48
