"""The public API for rule modules: the Exploits, the Silent Fleet, and any rule a ruleset
adds. A module imports only this module (a test checks it).

A module subclasses :class:`RuleModule` (or :class:`Exploit`), overrides the hooks it
needs (see :mod:`endeavor.rules.module` for each hook's contract) and registers an
instance with :func:`register`. Hooks receive the state ``s`` and the module's index
``i``; the module's own data is the int list ``s.module_data[i]``, which it reads and writes
freely. The rest of the state is **read** through its public fields and queries
(``s.players[p].harbor``, ``s.site_owner[x]``, ``s.is_open(r)``, ``s.presence(p, r)``,
``s.has_shield(p, i)``...) and **changed only through the functions below**, which keep
every derived counter right (presence, occupancy, tracks) and raise the events clients
see. A module never builds decision frames: it asks for its own decisions with
:func:`push_step`, for a follow-up normal action with :func:`push_followup`, for a
building's actions with :func:`push_building`.

A module with data of its own declares its block of the RL observation: an
:class:`ObsBlock` (its fields) as :attr:`RuleModule.observation`, and the hook
:meth:`RuleModule.observe`, which writes it through an :class:`ObsWriter` (seats turned
to the observer's view). The observation encoder calls it; the engine never does.

Component tables and ids (regions, action kinds, tokens, sites, cards, buildings,
boards) are re-exported here from :mod:`endeavor.data` and :mod:`endeavor.actions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import actions as _A
from . import data as _D
from .actions import (
    ARG,
    BY_CODE,
    DONE,
    SHIFT,
    V_DONE,
    V_OCCUPY,
    V_PAY,
    V_ROUTE,
    V_SEA,
    V_SHIP,
    Action,
    code,
)
from .data import (
    AFRICA,
    ATTACK,
    ATTRIBUTES,
    B_MEMORIAL,
    BOARDS,
    BUILDING_INDEX,
    BUILDINGS,
    CARD_INDEX,
    CARDS,
    CARIBBEAN,
    CULTURE,
    DECK_CODES,
    DECK_NAMES,
    DRAW,
    EU_DECK,
    EUROPE,
    FAR_EAST,
    INDIA,
    INDUSTRY,
    INFLUENCE,
    KIND_NAMES,
    NCARDS,
    NORTH_AMERICA,
    NREGIONS,
    NSITES,
    OCCUPY,
    PAYMENT,
    PILE,
    REGION_CODES,
    REGION_NAMES,
    REGION_NOUNS,
    REGION_STRIDE,
    SHIP,
    SITE_INDEX,
    SITES,
    SLAVERY_DECK,
    SOUTH_AMERICA,
    T_ATTACK,
    T_CULTURE,
    T_INDUSTRY,
    T_INFLUENCE,
    T_WEALTH,
    TILE_SITE_IDS,
    TILE_SITES,
    TOKEN_ACTIONS,
    TOKEN_CODES,
    TOKEN_NAMES,
    WEALTH,
)
from .frames import (
    EXPLOIT_A,
    EXPLOIT_B,
    EXPLOIT_MODULE,
    EXPLOIT_STEP,
    F_EXPLOIT,
    FL_NO_EUROPE,
    FL_NO_PRESENCE,
    FL_NORMAL_ONLY,
    SRC_TOKEN,
)
from .ids import (
    ActionCode,
    AttributeId,
    BuildingId,
    CardId,
    DeckId,
    KindId,
    LinkId,
    ModuleIndex,
    OwnerId,
    PlayerId,
    RegionId,
    SiteId,
    TokenType,
)
from .messages import AND, COMMA, OR, SEMICOLON, Count, Items, Message, Seat, Term, msg
from .messages import define as define_message
from .messages import noun as define_noun
from .messages import term as define_term
from .rules import abolition as _abolition
from .rules import attack as _attack
from .rules import board as _board
from .rules import construction as _construction
from .rules import draw as _draw
from .rules import salary as _salary
from .rules import sources as _sources
from .rules.module import (
    L_BLOCKADE,
    M_FORT,
    M_FORT_DEIC,
    M_FORTIFIED,
    M_MISSIONARY,
    M_NO_ATTACK,
    M_PIRATE,
    OBS_FLEET,
    OBS_SEAT_LABELS,
    OBS_SEATS,
    REGISTRY,
    Exploit,
    ObsBlock,
    ObsField,
    ObsWriter,
    RuleModule,
    register,
)
from .rules.words import (
    card_message,
    card_words,
    icons_message,
    icons_words,
    left_message,
    links_message,
    links_words,
    owner_arg,
    owner_words,
    plural,
    region_term,
    region_words,
    site_words,
    token_term,
    token_words,
    word_player,
)

if TYPE_CHECKING:
    from .state import State

Frame = tuple[int, ...]

#: where a disc comes from or goes to
HARBOR: Final = 0
SUPPLY: Final = 1
NOWHERE: Final = 2
#: the code of ``done`` (decline a follow-up, stop a multi-step ability)
DONE_CODE: Final = DONE.code


# =========================================================================== decisions
def push_step(s: State, i: ModuleIndex, p: PlayerId, step: int, a: int = 0, b: int = 0) -> None:
    """Ask ``p`` for module ``i``'s own decision ``step`` next (with two ints ``a`` and
    ``b`` the module reads back as ``f[EXPLOIT_A]`` and ``f[EXPLOIT_B]``); the module's
    :meth:`~RuleModule.step_codes` / :meth:`~RuleModule.step_apply` handle it. Steps
    pushed in one call are asked last-pushed first."""
    s.stack.append((F_EXPLOIT, p, i, step, a, b))


def pending_steps(s: State, i: ModuleIndex, step: int) -> int:
    """How many decisions ``step`` of module ``i`` are waiting (for accounting)."""
    return sum(1 for f in s.stack if f[0] == F_EXPLOIT and f[EXPLOIT_MODULE] == i
               and f[EXPLOIT_STEP] == step)


def push_followup(s: State, p: PlayerId, kind: KindId, region: RegionId = -1, deck: DeckId = -1,
                  flags: int = FL_NORMAL_ONLY, kind2: KindId = -1) -> bool:
    """P16: offer ``p`` a declinable follow-up normal action of ``kind`` (or either of
    ``kind`` and ``kind2``), restricted to ``region`` / ``deck`` when >= 0; ``flags``:
    ``FL_NORMAL_ONLY`` (no ability may replace it), ``FL_NO_PRESENCE`` (Occupy without
    presence), ``FL_NO_EUROPE`` ("any region" leaves Europe out). Skipped (False) when
    it has no possible target."""
    return _sources.push_followup(s, p, kind, region, deck, flags, kind2)


def push_building(s: State, p: PlayerId, b: BuildingId) -> None:
    """Resolve the action(s) of ``p``'s building type ``b`` next, exactly as if it had
    been activated (its circle must already be taken, see :func:`take_circle`)."""
    _sources.push_building(s, p, b)


def building_possible(s: State, p: PlayerId, b: BuildingId, harbor: int) -> bool:
    """R8: can building type ``b`` do anything for ``p`` with ``harbor`` Harbor discs?"""
    return _sources.building_possible(s, p, b, harbor)


def targets(s: State, p: PlayerId, kind: KindId, harbor: int, region: RegionId = -1,
            flags: int = 0) -> list[ActionCode]:
    """The codes of every target of a normal action of ``kind`` for ``p`` with
    ``harbor`` Harbor discs (optionally in ``region``), as the base rules offer them.
    For Ship and Occupy ``p`` may be a neutral owner (:func:`neutral_owner`): its
    presence counts as a player's would, so a neutral colour follows the normal rules
    for its targets (markers such as the Pirate's city included)."""
    return s.rules.kinds[kind].codes(s, p, region, -1, harbor, flags)


def payment_codes(s: State, p: PlayerId, action_phase: bool = True) -> list[ActionCode]:
    """``pay <building>`` codes of ``p``'s payable workers (never a no-payment building
    in the Action phase, R15)."""
    return _salary.payment_codes(s, p, action_phase)


def module_index(s: State, module_id: str) -> ModuleIndex:
    """Index of a module in play, or -1."""
    return s.exploit_index(module_id)


def emit(s: State, kind: str, player: PlayerId | None, what: str | Message,
         reader: PlayerId | None = None) -> None:
    """Raise an event for clients (``kind`` a short word, ``player`` the seat concerned
    or None for the table, ``what`` a message declared with :func:`define_message`, or
    words); nothing while no client collects them (bots, replays), so it costs them
    nothing. ``reader``: the seat an English text in the second person ("your") speaks
    to. Build the message only when :func:`collecting` says a client listens."""
    if s.ev is not None:
        s.emit(kind, player, what, reader=reader)


def collecting(s: State) -> bool:
    """Whether a client collects this action's events (see :func:`emit`)."""
    return s.ev is not None


def build_level(s: State, p: PlayerId) -> int:
    """``p``'s Build Level as the Construction phase counts it (Industry level plus the
    modules' bonuses, at most 5)."""
    return _construction.build_level(s, p)


# =========================================================================== discs
def take_discs(s: State, p: PlayerId, k: int = 1, source: int = HARBOR) -> None:
    """``k`` discs of ``p`` leave the Harbor (or the supply) for a place the module
    keeps in its own data (its tile)."""
    pl = s.players[p]
    if source == HARBOR:
        pl.harbor -= k
    else:
        pl.supply -= k


def gain_discs(s: State, p: PlayerId, k: int) -> int:
    """Up to ``k`` discs from ``p``'s supply to the Harbor (fewer if it runs out);
    returns how many."""
    pl = s.players[p]
    g = min(k, pl.supply)
    pl.supply -= g
    pl.harbor += g
    return g


def return_discs(s: State, p: PlayerId, k: int = 1, to: int = SUPPLY) -> None:
    """``k`` discs of ``p`` kept on a module's tile go back to the supply (or Harbor)."""
    pl = s.players[p]
    if to == SUPPLY:
        pl.supply += k
    else:
        pl.harbor += k


def place_disc(s: State, p: PlayerId, x: SiteId, source: int = HARBOR) -> None:
    """A disc of ``p`` from the Harbor (``source``; ``NOWHERE``: from a module's tile)
    onto free site ``x``: its token is gained and links are claimed (R13)."""
    if source != NOWHERE:
        take_discs(s, p, 1, source)
    _board.place(s, p, x)


def remove_disc(s: State, x: SiteId) -> OwnerId:
    """The disc on site ``x`` returns to its owner's supply; returns the owner."""
    return _board.remove(s, x)


def add_sea_disc(s: State, p: PlayerId, r: RegionId, source: int = HARBOR) -> None:
    """A disc of ``p`` into the open sea of region ``r`` (presence there)."""
    if source != NOWHERE:
        take_discs(s, p, 1, source)
    _board.add_sea(s, p, r)


def remove_sea_disc(s: State, p: PlayerId, r: RegionId, to: int = HARBOR) -> None:
    """A disc of ``p`` leaves ``r``'s open sea for the Harbor, the supply or nowhere
    (the module keeps it)."""
    _board.remove_sea(s, p, r)
    if to != NOWHERE:
        return_discs(s, p, 1, to)


def push_track_disc(s: State, r: RegionId, k: int, p: PlayerId) -> OwnerId:
    """Space ``k`` of ``r``'s track: its disc goes to ``r``'s open sea and a Harbor disc
    of ``p`` takes the space (no token, no Governor award). Returns the pushed owner."""
    take_discs(s, p, 1, HARBOR)
    return _board.replace_track_disc(s, r, k, p)


def attack(s: State, p: PlayerId, x: SiteId, casualties: int = -1) -> None:
    """Resolve an Attack of ``p`` on site ``x`` with ``casualties`` Harbor discs lost
    (default: the Attack cost), then a Harbor disc occupies ``x`` (R9, R13, P7)."""
    _attack.attack(s, p, x, casualties)


def attack_cost(s: State, p: PlayerId, x: SiteId) -> int:
    """Casualties ``p`` suffers attacking site ``x`` (the one Attack cost)."""
    return _attack.cost(s, p, x)


def casualty(s: State, p: PlayerId) -> None:
    """A disc of ``p`` (already taken from where it was) is lost as a casualty: to the
    supply, then its Memorial owner decides where it goes (P7)."""
    _attack.casualty(s, p)


def stock_disc(s: State, p: PlayerId, t: TokenType) -> None:
    """A disc of ``p`` (already taken) goes to the base of attribute track ``t``, where
    it counts as an icon of that attribute and never leaves (Spice Trade, P56)."""
    pl = s.players[p]
    pl.base_discs[t] += 1
    pl.attr[t] += 1
    pl.changed()


# =========================================================================== neutral colours
def neutral_owner(s: State, i: ModuleIndex, k: int = 0) -> OwnerId:
    """The disc owner of module ``i``'s neutral colour ``k`` (its ``neutral_colours``):
    owners ``0 .. n-1`` are the seats, the neutral colours follow in module order
    (:attr:`State.owners`). Its discs sit in the usual board arrays."""
    q = s.n
    for m in s.rules.modules[:i]:
        q += m.neutral_colours
    assert 0 <= k < s.rules.modules[i].neutral_colours, (i, k)
    return q + k


def is_neutral(s: State, q: OwnerId) -> bool:
    """Whether disc owner ``q`` is a neutral colour, not a seat (it has no mat: no
    Harbor, tokens or cards; it never scores, holds a Shield or controls a link)."""
    return q >= s.n


def neutral_supply(s: State, q: OwnerId) -> int:
    """Discs left in neutral colour ``q``'s supply."""
    return s.neutral_supply[q - s.n]


def place_neutral_disc(s: State, q: OwnerId, x: SiteId) -> None:
    """A disc of neutral colour ``q`` from its supply onto free site ``x``: the site's
    Trade token leaves the game, no link is claimed (R21). The caller checks the supply."""
    s.neutral_supply[q - s.n] -= 1
    _board.place(s, q, x)


def ship_neutral_disc(s: State, q: OwnerId, r: RegionId) -> None:
    """A disc of neutral colour ``q`` from its supply onto the next free space of closed
    region ``r``'s track (the one farthest from the deck, R10): the space's Trade token
    leaves the game; filling the last space opens the region, and a Governor the
    neutral colour wins there leaves the game (R11, R21)."""
    s.neutral_supply[q - s.n] -= 1
    _board.ship_track(s, q, None, r)


# =========================================================================== buildings
def take_circle(s: State, p: PlayerId, b: BuildingId) -> int:
    """Mark the leftmost free circle of ``p``'s building type ``b`` taken (by a module's
    component, not a disc); returns its slot."""
    pl = s.players[p]
    for k, x in enumerate(pl.buildings):
        if x == b and not pl.taken_circles >> k & 1:
            pl.taken_circles |= 1 << k
            return k
    raise ValueError(f"player {p} has no free {BUILDINGS[b].name}")


def free_circles(s: State, p: PlayerId, mask: int) -> None:
    """Clear the circles of ``p``'s building slots in ``mask`` (components leaving)."""
    s.players[p].taken_circles &= ~mask


def pay_worker(s: State, p: PlayerId, b: BuildingId) -> None:
    """Pay ``p``'s worker on building type ``b`` back to the Harbor (P4)."""
    _salary.pay_worker(s, p, b)


def workers(s: State, p: PlayerId) -> int:
    """Bitmask of ``p``'s building slots holding a worker (a disc)."""
    return _salary.workers(s, p)


def discard_building(s: State, b: BuildingId) -> None:
    """A copy of building type ``b`` leaves the supply; the module keeps count of it
    (:meth:`RuleModule.tile_buildings`) so conservation still holds."""
    s.building_supply[b] -= 1


def replace_building(s: State, p: PlayerId, old: BuildingId, new: BuildingId) -> None:
    """``p``'s leftmost unstaffed ``old`` returns to the supply and ``new`` from the
    supply takes its place in the Seaside; icons follow."""
    pl = s.players[p]
    k = next(k for k, b in enumerate(pl.buildings) if b == old and not pl.taken_circles >> k & 1)
    pl.buildings[k] = new
    pl.changed()
    s.building_supply[old] += 1
    s.building_supply[new] -= 1
    _board.gain_icons(pl, BUILDINGS[old].icons, -1)
    _board.gain_icons(pl, BUILDINGS[new].icons, 1)


# =========================================================================== tokens, icons
def gain_token(s: State, p: PlayerId, t: TokenType) -> None:
    """Trade token ``t`` (taken from wherever it was) joins ``p``'s mat."""
    _board.gain_token(s, s.players[p], t)


def spend_token(s: State, p: PlayerId, t: TokenType) -> None:
    """``p`` spends a real brown Trade token of type ``t``: it leaves the game and the
    track drops. The caller checks ``s.players[p].brown_tokens[t] > 0``."""
    pl = s.players[p]
    pl.brown_tokens[t] -= 1
    pl.attr[t] -= 1
    pl.changed()
    s.spent[t] += 1


def lose_token(s: State, p: PlayerId, t: TokenType) -> None:
    """A token of ``p``'s mat (brown ``t < 4``, blue otherwise) leaves it for a place the
    caller decides (a module's tile, the board, another mat)."""
    pl = s.players[p]
    pl.changed()
    if t < 4:
        pl.brown_tokens[t] -= 1
        pl.attr[t] -= 1
    else:
        pl.blue[t - 4] -= 1


def transfer_token(s: State, frm: PlayerId, to: PlayerId, t: TokenType) -> None:
    """Move a Trade token of type ``t`` from ``frm``'s mat to ``to``'s."""
    lose_token(s, frm, t)
    gain_token(s, to, t)


def discard_token(s: State, t: TokenType) -> None:
    """A Trade token (already taken from where it was) leaves the game."""
    s.spent[t] += 1


def add_icons(s: State, p: PlayerId, icons: tuple[int, int, int, int], sign: int = 1) -> None:
    """``p`` gains (``sign`` 1) or loses (-1) attribute icons of a module's component."""
    _board.gain_icons(s.players[p], icons, sign)


def take_site_token(s: State, x: SiteId) -> TokenType:
    """Take the Trade token off site ``x`` (-1 if none); the caller puts it somewhere."""
    t = s.site_token[x]
    s.site_token[x] = -1
    return t


def take_link_token(s: State, li: LinkId) -> TokenType:
    """Take the Trade token off link ``li`` (-1 if none)."""
    t = s.link_token[li]
    s.link_token[li] = -1
    return t


def swap_track_token(s: State, r: RegionId, k: int, t: TokenType) -> TokenType:
    """Put token ``t`` on free space ``k`` of ``r``'s track; return the one taken there."""
    x = s.info.trk_off[r] + k
    old, s.track_token[x] = s.track_token[x], t
    return old


def swap_site_token(s: State, x: SiteId, t: TokenType) -> TokenType:
    """Put token ``t`` on unoccupied site ``x``; return the one taken there."""
    old, s.site_token[x] = s.site_token[x], t
    return old


def swap_link_token(s: State, li: LinkId, t: TokenType) -> TokenType:
    """Put token ``t`` on link ``li``; return the one taken there."""
    old, s.link_token[li] = s.link_token[li], t
    return old


# =========================================================================== cards
def draw_presence(s: State, p: PlayerId, deck: DeckId) -> int:
    """Presence ``p`` counts to Draw from ``deck`` (R14, with Draw bonuses, P14)."""
    return _draw.presence(s, p, deck)


CARD_GAINED = define_message("event.card", "{seat} gains {card}", you="You gain {card}")
GOVERNOR_GAINED = define_message("event.card.governor", "{seat} gains {card} from the {deck} deck",
                                 you="You gain {card} from the {deck} deck")


def _card_gained(p: PlayerId, c: CardId) -> Message:
    card = CARDS[c]
    return msg(GOVERNOR_GAINED if card.governor else CARD_GAINED, seat=Seat(p),
               card=card_message(c), deck=Term("deck", DECK_NAMES[card.deck]))


def gain_card(s: State, p: PlayerId, c: CardId, bonus: bool = True) -> None:
    """Card ``c`` (already taken from where it was) joins ``p``'s hand: icons, a region
    value-1 card's bonus disc when ``bonus`` (R16), Abolition for Europe 5 (R17)."""
    if s.ev is not None:
        s.emit_later("card", p, _card_gained, p, c)
    _draw.gain_card(s, p, c, bonus)


def take_top_card(s: State, deck: DeckId) -> CardId:
    """Take the top card off ``deck`` (which must not be empty)."""
    return s.decks[deck].pop()


def lose_card(s: State, p: PlayerId, c: CardId) -> None:
    """Card ``c`` leaves ``p``'s hand (normal slots or the free Governor slot) with its
    icons, for a place the caller decides."""
    pl = s.players[p]
    if pl.gov == c:
        pl.gov = -1
    else:
        pl.cards.remove(c)
    _board.gain_icons(pl, CARDS[c].icons, -1)  # (which counts the mat changed)


def remove_card(s: State, c: CardId) -> None:
    """Card ``c`` (already taken from where it was) leaves the game."""
    s.removed.append(c)


def discard_top_card(s: State, deck: DeckId) -> CardId:
    """The top card of ``deck`` (which must not be empty) leaves the game, as the Silent
    Fleet's Draw discards it; if it is the Europe 5 card, Slavery is abolished (R17).
    Returns the card."""
    c = s.decks[deck].pop()
    s.removed.append(c)
    if CARDS[c].abolition:
        _abolition.abolish(s)
    return c


def replace_in_deck(s: State, old: CardId, new: CardId) -> DeckId:
    """Put card ``new`` at the exact position of ``old`` in a region deck; returns the
    deck (``old`` is then nowhere: the caller takes it)."""
    for d in range(1, 7):
        deck = s.decks[d]
        if old in deck:
            deck[deck.index(old)] = new
            return d
    raise ValueError(f"{CARDS[old].code} is in no region deck")


def remove_from_deck(s: State, d: DeckId, c: CardId) -> None:
    """Card ``c`` leaves deck ``d`` (the caller puts it somewhere)."""
    s.decks[d].remove(c)


def abolish(s: State) -> None:
    """Abolish Slavery now (R17), if it was not already."""
    _abolition.abolish(s)


# =========================================================================== board markers
def mark_site(s: State, x: SiteId, bit: int, on: bool = True) -> None:
    """Set (or clear) a marker bit (``M_FORT``, ``M_MISSIONARY``...) on site ``x``."""
    if on:
        s.site_marks[x] |= bit
    else:
        s.site_marks[x] &= ~bit


def mark_link(s: State, li: LinkId, bit: int, on: bool = True) -> None:
    """Set (or clear) a marker bit (``L_BLOCKADE``) on link ``li``."""
    if on:
        s.link_marks[li] |= bit
    else:
        s.link_marks[li] &= ~bit


def links(s: State) -> tuple[tuple[SiteId, SiteId], ...]:
    """The links in play as (site, site) pairs, by link index."""
    return s.info.board.links


def neighbours(s: State, x: SiteId) -> tuple[tuple[LinkId, SiteId], ...]:
    """(link index, other end) of every link at site ``x``."""
    return s.info.adj[x]


def sites_in_play(s: State) -> tuple[SiteId, ...]:
    """Every site in play on this board (Exploit tile cities included when in play)."""
    return s.info.sites


def track_offset(s: State, r: RegionId) -> int:
    """Index of region ``r``'s first track space in ``s.track_owner`` / ``s.track_token``."""
    return s.info.trk_off[r]


def track_length(s: State, r: RegionId) -> int:
    """Spaces on region ``r``'s track."""
    return s.info.trk_len[r]


def controls_link(s: State, p: PlayerId, li: LinkId) -> bool:
    """Both ends held by ``p`` and the link not Blockaded."""
    return _board.controls_link(s, p, li)


def verb_of(c: ActionCode) -> int:
    """The verb of an action code."""
    return c >> SHIFT


def arg_of(c: ActionCode) -> int:
    """The argument of an action code."""
    return c & ARG


__all__ = [
    "ActionCode", "AttributeId", "BuildingId", "CardId", "DeckId", "KindId", "LinkId",
    "ModuleIndex", "OwnerId", "PlayerId", "RegionId", "SiteId", "TokenType",
    "AFRICA", "ARG", "ATTACK", "ATTRIBUTES", "BOARDS", "BUILDINGS", "BUILDING_INDEX",
    "BY_CODE", "B_MEMORIAL", "CARDS", "CARD_INDEX", "CARIBBEAN", "CULTURE", "DECK_CODES",
    "DECK_NAMES", "DONE", "DONE_CODE", "DRAW", "EUROPE", "EU_DECK", "EXPLOIT_A", "EXPLOIT_B",
    "EXPLOIT_MODULE", "EXPLOIT_STEP", "Exploit", "FAR_EAST",
    "FL_NORMAL_ONLY", "FL_NO_EUROPE", "FL_NO_PRESENCE", "Frame", "HARBOR", "INDIA",
    "INDUSTRY", "INFLUENCE", "KIND_NAMES", "L_BLOCKADE", "M_FORT", "M_FORTIFIED",
    "M_FORT_DEIC", "M_MISSIONARY", "M_NO_ATTACK", "M_PIRATE", "NCARDS", "NORTH_AMERICA",
    "NOWHERE", "NREGIONS", "NSITES", "OBS_FLEET", "OBS_SEATS", "OBS_SEAT_LABELS", "OCCUPY",
    "ObsBlock", "ObsField", "ObsWriter", "PAYMENT", "PILE", "REGION_CODES",
    "REGION_NAMES", "REGION_NOUNS", "REGION_STRIDE", "REGISTRY", "RuleModule", "SHIFT", "SHIP",
    "SITES", "SITE_INDEX",
    "SLAVERY_DECK", "SOUTH_AMERICA", "SRC_TOKEN", "SUPPLY", "TILE_SITES", "TILE_SITE_IDS",
    "TOKEN_ACTIONS", "TOKEN_CODES", "TOKEN_NAMES", "T_ATTACK", "T_CULTURE", "T_INDUSTRY",
    "T_INFLUENCE", "T_WEALTH", "V_DONE", "V_OCCUPY", "V_PAY", "V_ROUTE", "V_SEA", "V_SHIP",
    "WEALTH", "Action", "abolish", "add_icons", "add_sea_disc", "arg_of", "attack",
    "attack_cost", "build_level", "building_possible", "card_words", "casualty", "code",
    "controls_link", "discard_building", "discard_token", "discard_top_card",
    "draw_presence", "emit", "free_circles", "gain_card", "gain_discs", "gain_token",
    "icons_words", "is_neutral", "links", "links_words", "lose_card", "lose_token", "mark_link",
    "mark_site", "module_index", "neighbours", "neutral_owner", "neutral_supply",
    "owner_words", "pay_worker", "payment_codes", "pending_steps", "place_disc",
    "place_neutral_disc", "plural", "region_words", "push_building", "push_followup", "push_step",
    "push_track_disc", "register", "remove_card", "remove_disc", "remove_from_deck",
    "remove_sea_disc", "replace_building", "replace_in_deck", "return_discs",
    "ship_neutral_disc", "site_words", "sites_in_play", "spend_token", "stock_disc",
    "swap_link_token", "swap_site_token", "swap_track_token", "take_circle", "take_discs",
    "take_link_token", "take_site_token", "take_top_card", "targets", "token_words",
    "track_length", "track_offset", "transfer_token", "verb_of", "word_player", "workers",
    # structured messages (endeavor.messages): declare, build and raise them
    "AND", "COMMA", "OR", "SEMICOLON", "Count", "Items", "Message", "Seat", "Term", "card_message",
    "collecting", "define_message", "define_noun", "define_term", "icons_message", "left_message",
    "links_message", "msg", "owner_arg", "region_term", "token_term",
]

#: the whole component and action tables, for modules that need more than the names above
data = _D
actions = _A
