"""Game state: plain data with a hand-written :meth:`State.copy`, and the public API
every client uses.

A state holds the position only: the rules live in its rules object
(:attr:`State.rules`, :mod:`endeavor.rules`) and the rule modules in play. Every
decision is a frame on a decision stack (:mod:`endeavor.frames`); the rules object's
dispatch table gives each frame kind its legal actions, effect, refusal reasons and
words. After an action the phase driver (:func:`endeavor.rules.turns.advance`) runs
every automatic step until the next decision. Setup randomness comes from
``random.Random(config.seed)`` inside :func:`new_game` (R2); after setup nothing is
random.

Public surface: :attr:`current_player`, :attr:`is_over`, :meth:`legal_actions`,
:meth:`decision`, :meth:`apply` (returns the :class:`~endeavor.events.Event` list),
:meth:`undo`, :meth:`copy`, :meth:`parse_action`, :meth:`to_json`, :meth:`from_json`,
:meth:`record`, :meth:`history`, and the read-only queries below. Fields are for the
engine and the test-support module :mod:`endeavor.testing`; read them if you must,
never write them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any, Final, Protocol

from . import actions as A
from . import data as D
from . import exploits as _exploits  # noqa: F401  (registers the Exploits)
from . import variants as _variants  # noqa: F401  (registers the variants)
from .actions import Action
from .config import GameConfig
from .data import REGION_STRIDE
from .decision import Decision, Option
from .errors import IllegalActionError, UndoError
from .events import Event
from .frames import (  # noqa: F401  (re-exported for adapters and old imports)
    EXPLOIT_MODULE,
    F_ACTION,
    F_BUILD,
    F_CASUALTY,
    F_DISCARD,
    F_EFFECT,
    F_EXPLOIT,
    F_GOVSLOT,
    F_SALARY,
    F_START,
    FL_NO_PRESENCE,
    FL_NORMAL_ONLY,
    PH_ACTIONS,
    PH_CONSTRUCTION,
    PH_DISCARD,
    PH_END,
    PH_GROWTH,
    PH_SALARY,
    PH_SETUP,
    PHASE_NAMES,
    SECOND,
)
from .ids import (
    ActionCode,
    AttributeId,
    BuildingId,
    CardId,
    DeckId,
    LinkId,
    ModuleIndex,
    OwnerId,
    PlayerId,
    RegionId,
    SiteId,
    TokenType,
)
from .messages import COMMA, Items, Message, Seat, Term, define, msg
from .rules import base as RB
from .rules import board, discard, draw, turns
from .rules.attack import cost as _attack_cost
from .rules.base import BoardInfo, Rules, rules_for
from .rules.construction import build_options as _build_options
from .rules.module import RuleModule, exploit_ids
from .rules.words import region_term
from .targets import targets

_LEVEL: Final = D.TRACK_LEVEL
#: the interned action of each code (the catalogue grows in place as Exploits register)
_BY_CODE: Final[dict[int, Action]] = A.BY_CODE
_ACTION_OF: Final = _BY_CODE.__getitem__
#: this module compiled with mypyc: a few hot spots take the form fastest there
_COMPILED: Final = not __file__.endswith(".py")

#: why an action is refused (:class:`IllegalActionError`)
OVER = define("error.over", "{action} is illegal: the game is over")
ILLEGAL = define("error.illegal", "{action} is illegal: player {player} must {asks} (round "
                 "{round}, {phase}); legal: {legal}{more}")
ILLEGAL_WHY = define("error.illegal.why", "{action} is illegal: {reason}; player {player} "
                     "must {asks} (round {round}, {phase}); legal: {legal}{more}")
MORE = define("error.more", " and {n} more")
UNKNOWN_CODE = define("error.unknown_code", "unknown action code {code}")
#: an action's event: the seat, then the option's words
ACTION = define("event.action", "{seat}: {option}")


def _action_message(p: int, option: str | Message) -> Message:
    return msg(ACTION, seat=Seat(p), option=option)
EXPLOIT_ACTIVE = define("event.exploit", "{exploit} is active: {first} and {second} are open; "
                        "Shields: {holders}")
NOBODY_YET = define("event.exploit.nobody", "nobody yet")
SHIELD_GAINED = define("event.shield.gain", "{seat} gains a Shield on {exploit} (presence in "
                       "both its regions, P13)",
                       you="You gain a Shield on {exploit} (presence in both its regions, P13)")
SHIELD_LOST = define("event.shield.loss", "{seat} loses the Shield on {exploit} (no presence "
                     "left in one of its regions, P13)",
                     you="You lose the Shield on {exploit} (no presence left in one of its "
                     "regions, P13)")


def _has(codes: list[int], c: int) -> bool:
    """``c in codes`` for the compiled build: a native loop, without a rich comparison
    per code (pure Python keeps the ``in`` operator, whose loop is in C)."""
    for x in codes:
        if x == c:
            return True
    return False


#: the numbers of the mats' contents (:meth:`Player.version`): ``next`` is atomic, so
#: threads never share one
_VERSIONS: Final[Iterator[int]] = itertools.count(1)


def _sync(into: list[Any], src: list[Any]) -> None:
    """Make the list ``into`` equal to ``src``, writing it only when it differs (a
    comparison of lists whose items are mostly the very same objects costs far less
    than rewriting them: :meth:`State.copy_into` copies mostly unchanged lists)."""
    if into != src:
        into[:] = src


class Player:
    """One player's mat. ``attr`` is the four track scores (icons held); ``brown_tokens``
    the brown Trade tokens at the track bases; ``base_discs`` discs at the track bases
    (Memorial casualties, Spice Trade stock); ``blue`` the blue tokens in the Harbor
    (index = token type - 4); ``buildings`` the Seaside building types left to right with
    ``taken_circles`` a bitmask of taken activation circles; ``cards`` the cards in normal
    slots; ``gov`` the card in the free Governor slot (-1 if empty); ``aside`` the set-aside
    Slavery cards.

    Every content of a mat's lists gets a number no other content gets
    (:meth:`version`): a new mat and a copy get a new one, and so does every rule that
    writes one of the lists, through :meth:`changed` (the numbers ``supply``,
    ``harbor``, ``taken_circles`` and ``gov`` are not covered). A search whose scratch
    positions change only through :meth:`State.apply_code` trusts them
    (:meth:`State.copy_into` with ``marked=True``): two mats with the same number hold
    the same lists, which need no comparison, and a mat copied gets its source's."""

    __slots__ = ("supply", "harbor", "attr", "brown_tokens", "base_discs", "blue", "buildings",
                 "taken_circles", "cards", "gov", "aside", "_ver")

    def __init__(self, discs: int = D.DISCS_PER_PLAYER) -> None:
        self.supply = discs
        self.harbor = 0
        self.attr = [0, 0, 0, 0]
        self.brown_tokens = [0, 0, 0, 0]
        self.base_discs = [0, 0, 0, 0]
        self.blue = [0, 0, 0, 0]
        self.buildings: list[int] = []
        self.taken_circles = 0
        self.cards: list[int] = []
        self.gov = -1
        self.aside: list[int] = []
        #: the number of the lists' content (:meth:`version`)
        self._ver = next(_VERSIONS)

    def copy(self) -> Player:
        q = Player.__new__(Player)
        q.supply = self.supply
        q.harbor = self.harbor
        q.attr = self.attr.copy()
        q.brown_tokens = self.brown_tokens.copy()
        q.base_discs = self.base_discs.copy()
        q.blue = self.blue.copy()
        q.buildings = self.buildings.copy()
        q.taken_circles = self.taken_circles
        q.cards = self.cards.copy()
        q.gov = self.gov
        q.aside = self.aside.copy()
        q._ver = next(_VERSIONS)
        return q

    def changed(self) -> None:
        """The mat's lists have changed: a new :meth:`version` (every rule that writes
        one of them calls it)."""
        self._ver = next(_VERSIONS)

    def version(self) -> int:
        """The number of the content of the mat's lists: no other content has it."""
        return self._ver

    def copy_into(self, other: Player, marked: bool = False) -> None:
        """Make ``other`` an independent copy of this mat (as :meth:`copy` would),
        reusing its lists: see :meth:`State.copy_into`. ``marked``: trust
        :meth:`version` (the same number, the same lists: only the numbers are copied;
        otherwise ``other`` takes this mat's number)."""
        other.supply = self.supply
        other.harbor = self.harbor
        if marked and other._ver == self._ver:
            other.taken_circles = self.taken_circles
            other.gov = self.gov
            return
        # _sync inlined: a mat's lists are short, the call would be a good part of it
        if other.attr != self.attr:
            other.attr[:] = self.attr
        if other.brown_tokens != self.brown_tokens:
            other.brown_tokens[:] = self.brown_tokens
        if other.base_discs != self.base_discs:
            other.base_discs[:] = self.base_discs
        if other.blue != self.blue:
            other.blue[:] = self.blue
        if other.buildings != self.buildings:
            other.buildings[:] = self.buildings
        other.taken_circles = self.taken_circles
        if other.cards != self.cards:
            other.cards[:] = self.cards
        other.gov = self.gov
        if other.aside != self.aside:
            other.aside[:] = self.aside
        # the same lists now; without ``marked`` this mat's number may be out of date (a
        # change by hand): a new one
        other._ver = self._ver if marked else next(_VERSIONS)

    def level(self, attribute: AttributeId) -> int:
        """Build Level / Salary Level / Card Limit of a track."""
        s = self.attr[attribute]
        return _LEVEL[s] if s < 16 else 5


#: every field of a State (its ``__slots__``); :meth:`State.undo` sets them all
_FIELDS: Final = (
    "config", "rules", "n", "info", "players", "site_owner", "site_token",
    "link_token", "track_owner", "track_token", "filled", "sea", "region_presence",
    "owned_sites", "occupied_sites", "free_cities", "free_routes", "decks", "pile", "removed",
    "region_governors", "building_supply", "level5", "spent", "abolished", "round", "step",
    "crown", "act_player", "passed", "phase", "turn", "stack", "hist", "nhist", "_legal",
    "ex", "module_data", "site_marks", "link_marks", "ev", "origin", "neutral_supply", "_shm",
    "_marks",
)
#: undo() keeps a copy of the position after every this many actions of the history it
#: replays, so undoing step by step costs a copy and a few replayed actions each time
_MARK_EVERY: Final = 8


class State:
    """A position in a game. Create with :func:`new_game` (or :meth:`from_json`,
    :func:`~endeavor.records.replay`); change it only with :meth:`apply` and
    :meth:`undo`."""

    __slots__ = _FIELDS

    config: GameConfig
    rules: Rules
    n: int
    info: BoardInfo
    players: list[Player]
    site_owner: list[int]
    site_token: list[int]
    link_token: list[int]
    track_owner: list[int]
    track_token: list[int]
    filled: list[int]
    sea: list[int]
    region_presence: list[int]
    owned_sites: list[int]
    occupied_sites: list[int]
    free_cities: list[int]
    free_routes: list[int]
    decks: list[list[int]]
    pile: list[int]
    removed: list[int]
    region_governors: list[int]
    building_supply: list[int]
    level5: tuple[int, ...]
    spent: list[int]
    abolished: bool
    round: int
    step: int
    crown: int
    act_player: int
    passed: int
    phase: int
    turn: int
    stack: list[tuple[int, ...]]
    hist: tuple[Any, ...] | None
    nhist: int
    _legal: list[int] | None
    ex: tuple[RuleModule, ...]
    module_data: list[list[int]]
    site_marks: list[int]
    link_marks: list[int]
    ev: list[Event] | None
    origin: State | None
    neutral_supply: list[int]
    #: (history, Shield mask) after the last apply(), so the next one need not work
    #: the mask out again before its step (None: unknown)
    _shm: tuple[Any, int] | None
    #: undo()'s checkpoints: the position after d actions, by d (a copy has none)
    _marks: dict[int, State] | None

    # ------------------------------------------------------------------ copy
    def copy(self) -> State:
        """An independent copy (no shared mutable data)."""
        s = State.__new__(State)
        s.config = self.config
        s.rules = self.rules
        s.n = self.n
        s.info = self.info
        s.players = [p.copy() for p in self.players]
        s.site_owner = self.site_owner.copy()
        s.site_token = self.site_token.copy()
        s.link_token = self.link_token.copy()
        s.track_owner = self.track_owner.copy()
        s.track_token = self.track_token.copy()
        s.filled = self.filled.copy()
        s.sea = self.sea.copy()
        s.region_presence = self.region_presence.copy()
        s.owned_sites = self.owned_sites.copy()
        s.occupied_sites = self.occupied_sites.copy()
        s.free_cities = self.free_cities.copy()
        s.free_routes = self.free_routes.copy()
        s.decks = [*map(list.copy, self.decks)]
        s.pile = self.pile.copy()
        s.removed = self.removed.copy()
        s.region_governors = self.region_governors.copy()
        s.building_supply = self.building_supply.copy()
        s.level5 = self.level5
        s.spent = self.spent.copy()
        s.abolished = self.abolished
        s.round = self.round
        s.step = self.step
        s.crown = self.crown
        s.act_player = self.act_player
        s.passed = self.passed
        s.phase = self.phase
        s.turn = self.turn
        s.stack = self.stack.copy()
        s.hist = self.hist  # immutable cons list, shared safely
        s.nhist = self.nhist
        s._legal = self._legal  # never mutated in place, shared safely
        s.ex = self.ex
        s.module_data = [*map(list.copy, self.module_data)]
        s.site_marks = self.site_marks.copy()
        s.link_marks = self.link_marks.copy()
        s.ev = None
        s.origin = self.origin  # an immutable snapshot, shared safely
        s.neutral_supply = self.neutral_supply.copy()
        s._shm = self._shm  # immutable, keyed by the history it belongs to
        s._marks = None
        return s

    def copy_into(self, other: State, marked: bool = False) -> None:
        """Make ``other`` an exact, independent copy of this state, as :meth:`copy`
        would make it, but reusing the lists ``other`` already has instead of allocating
        new ones: what it held before is overwritten, and afterwards it shares no
        mutable data with this state (changing either leaves the other as it was).
        Cheaper than :meth:`copy` for a search that scores many positions one after
        another on one scratch state; cheapest when ``other`` is a position of the same
        game (any state will do). ``other`` must not be this state.

        ``marked=True`` is for a search whose positions change only through
        :meth:`apply_code` (never by hand) since they were made by :meth:`copy`: a
        player's mat whose :meth:`Player.version` is that of ``other``'s holds the same
        lists, which are not compared again."""
        if other is self:
            raise ValueError("copy_into needs another state to copy into")
        other.config = self.config
        other.rules = self.rules
        other.n = self.n
        other.info = self.info
        mine = self.players
        theirs = other.players
        if len(theirs) == len(mine):
            for i in range(len(mine)):
                a = mine[i]
                b = theirs[i]
                if marked and b._ver == a._ver:  # Player.copy_into's first case, inlined
                    b.supply = a.supply
                    b.harbor = a.harbor
                    b.taken_circles = a.taken_circles
                    b.gov = a.gov
                else:
                    a.copy_into(b, marked)
        else:
            other.players = [p.copy() for p in mine]
        _sync(other.site_owner, self.site_owner)
        _sync(other.site_token, self.site_token)
        _sync(other.link_token, self.link_token)
        _sync(other.track_owner, self.track_owner)
        _sync(other.track_token, self.track_token)
        _sync(other.filled, self.filled)
        _sync(other.sea, self.sea)
        _sync(other.region_presence, self.region_presence)
        _sync(other.owned_sites, self.owned_sites)
        _sync(other.occupied_sites, self.occupied_sites)
        _sync(other.free_cities, self.free_cities)
        _sync(other.free_routes, self.free_routes)
        decks = self.decks
        into = other.decks
        if len(into) == len(decks):
            if into != decks:  # one comparison for all (mostly equal), then each deck
                for i in range(len(decks)):
                    _sync(into[i], decks[i])
        else:
            other.decks = [*map(list.copy, decks)]
        _sync(other.pile, self.pile)
        _sync(other.removed, self.removed)
        _sync(other.region_governors, self.region_governors)
        _sync(other.building_supply, self.building_supply)
        other.level5 = self.level5
        _sync(other.spent, self.spent)
        other.abolished = self.abolished
        other.round = self.round
        other.step = self.step
        other.crown = self.crown
        other.act_player = self.act_player
        other.passed = self.passed
        other.phase = self.phase
        other.turn = self.turn
        _sync(other.stack, self.stack)
        other.hist = self.hist  # immutable cons list, shared safely
        other.nhist = self.nhist
        other._legal = self._legal  # never mutated in place, shared safely
        other.ex = self.ex
        data = self.module_data
        into = other.module_data
        if len(into) == len(data):
            for i in range(len(data)):
                _sync(into[i], data[i])
        else:
            other.module_data = [*map(list.copy, data)]
        _sync(other.site_marks, self.site_marks)
        _sync(other.link_marks, self.link_marks)
        other.ev = None
        other.origin = self.origin  # an immutable snapshot, shared safely
        _sync(other.neutral_supply, self.neutral_supply)
        other._shm = self._shm  # immutable, keyed by the history it belongs to
        other._marks = None

    def __copy__(self) -> State:
        """``copy.copy(state)`` is :meth:`copy`."""
        return self.copy()

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> PlayerId | None:
        """The player who must decide now, or None when the game is over."""
        return self.stack[-1][1] if self.stack else None

    @property
    def is_over(self) -> bool:
        return self.phase == PH_END

    @property
    def phase_name(self) -> str:
        """``"Setup"``, ``"Construction"``, ``"Growth"``, ``"Salary"``, ``"Actions"``,
        ``"Discard"`` or ``"Game over"``, as the ruleset names them (the 2009 game:
        ``"Build"`` for Construction); a rule module's step outside the phases names
        its own step of the round (the Silent Fleet's ``"Building shortage"`` at the
        start of a round, P90)."""
        stack = self.stack
        if stack and stack[-1][0] == F_EXPLOIT:
            f = stack[-1]
            i = f[EXPLOIT_MODULE]
            name = self.ex[i].step_phase(self, i, f)
            if name:
                return name
        return self.rules.phase_names[self.phase]

    @property
    def frame(self) -> tuple[int, ...] | None:
        """The raw decision frame on top of the stack (engine internal: clients read
        :meth:`decision`)."""
        return self.stack[-1] if self.stack else None

    @property
    def modules(self) -> tuple[RuleModule, ...]:
        """The rule modules in play (the Exploits, in the order drawn or named)."""
        return self.ex

    @property
    def exploits(self) -> tuple[tuple[int, RuleModule], ...]:
        """(index, module) of the Exploits in play (the modules with two regions and
        Shields; a variant such as the Silent Fleet is a module but no Exploit)."""
        return self.rules.exploits

    @property
    def owners(self) -> int:
        """Disc owners on the board: the seats 0..n-1, then any neutral colours (the Silent
        Fleet is owner ``n``). Neutral discs are never a seat's: they score nothing,
        take no token and control no link."""
        return self.n + self.rules.neutrals

    @property
    def num_actions(self) -> int:
        """Number of actions applied since setup (the length of :meth:`history`)."""
        return self.nhist

    def marker(self, player: PlayerId, attribute: AttributeId) -> int:
        """Where ``player``'s status marker stands on a track: the icons held, at most
        the ruleset's cap (the 2009 tracks stop at 15, P75; Age of Sail's go on)."""
        return min(self.players[player].attr[attribute], self.rules.track_cap)

    def presence(self, player: PlayerId, region: RegionId) -> int:
        """Discs of ``player`` in ``region`` (cities, trade routes, track, open sea)."""
        return self.region_presence[player * REGION_STRIDE + region]

    def is_open(self, region: RegionId) -> bool:
        """Europe is always open; a region opens when its track is full."""
        return region == D.EUROPE or self.filled[region] == self.info.trk_len[region]

    def track(self, region: RegionId) -> list[OwnerId]:
        """Owners of the region's shipping track spaces, farthest from the deck first."""
        o = self.info.trk_off[region]
        return self.track_owner[o:o + self.info.trk_len[region]]

    def track_tokens(self, region: RegionId) -> list[TokenType]:
        """Trade tokens still on the region's track spaces (-1 where claimed)."""
        o = self.info.trk_off[region]
        return self.track_token[o:o + self.info.trk_len[region]]

    def sea_discs(self, player: PlayerId, region: RegionId) -> int:
        """Discs of ``player`` in the open sea of ``region``."""
        return self.sea[player * REGION_STRIDE + region]

    def has_passed(self, player: PlayerId) -> bool:
        """Whether ``player`` has passed in this round's Action phase."""
        return bool(self.passed >> player & 1)

    def controls_link(self, player: PlayerId, link: LinkId) -> bool:
        """Both ends held by ``player`` and the link not Blockaded (Imperialism)."""
        return board.controls_link(self, player, link)

    def held_cards(self, player: PlayerId) -> list[CardId]:
        """Cards in normal slots plus the free Governor slot."""
        return discard.held_cards(self, player)

    def over_card_limit(self, player: PlayerId) -> bool:
        """R18: over the card limits (see :mod:`endeavor.rules.discard`)."""
        return discard.over_card_limit(self, player)

    def draw_presence(self, player: PlayerId, deck: DeckId) -> int:
        """Presence ``player`` counts to Draw from ``deck`` (R14, P14)."""
        return draw.presence(self, player, deck)

    def attack_cost(self, player: PlayerId, site: SiteId) -> int:
        """Casualties ``player`` suffers attacking ``site``."""
        return _attack_cost(self, player, site)

    def build_options(self, player: PlayerId) -> list[BuildingId]:
        """Building types ``player`` may construct now (RB, P3)."""
        return _build_options(self, player)

    def governor_winner(self, region: RegionId) -> PlayerId:
        """R11: who wins the region's Governor if it opens now (-1: nobody)."""
        return board.governor_winner(self, region)

    def exploit_active(self, i: ModuleIndex) -> bool:
        """Exploit ``i`` (index in :attr:`modules`) is active once both its regions are
        open (its Keys placed)."""
        e = self.ex[i]
        r1, r2 = e.regions
        return e.is_exploit and self.is_open(r1) and self.is_open(r2)

    def has_shield(self, player: PlayerId, i: ModuleIndex) -> bool:
        """P13: a Shield while Exploit ``i`` is active and ``player`` has presence in
        both of its regions; only Shield holders may use or score it."""
        e = self.ex[i]
        if not e.is_exploit or player >= self.n:
            return False
        r1, r2 = e.regions
        filled = self.filled  # is_open(r1) and is_open(r2), inlined (Europe is open)
        length = self.info.trk_len
        if (r1 and filled[r1] != length[r1]) or (r2 and filled[r2] != length[r2]):
            return False
        base = player * REGION_STRIDE
        return self.region_presence[base + r1] > 0 and self.region_presence[base + r2] > 0

    def exploit_index(self, exploit_id: str) -> ModuleIndex:
        """Index in :attr:`modules` of a module in play, or -1."""
        for i, e in enumerate(self.ex):
            if e.id == exploit_id:
                return i
        return -1

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """The legal actions now, sorted by code, unique; empty only when the game is over."""
        codes = self._legal
        if codes is None:
            codes = self._legal = self._gen()
        if _COMPILED:  # a native loop (twice the speed of map there)
            by = _BY_CODE
            boxed: list[Any] = codes  # the codes as the list holds them (no unboxing)
            return [by[c] for c in boxed]
        return list(map(_ACTION_OF, codes))  # a loop in C, not in bytecode

    def legal_codes(self) -> list[ActionCode]:
        """Like :meth:`legal_actions` but as int codes (do not mutate the list)."""
        codes = self._legal
        if codes is None:
            stack = self.stack  # the body of _gen, inlined: every search asks this
            if not stack:
                codes = self._legal = []
                return codes
            f = stack[-1]
            t = self.rules.decisions[f[0]]
            codes = t.codes(self, f)
            if t.sort:
                codes = sorted(set(codes))
            self._legal = codes
        return codes

    def _gen(self) -> list[int]:
        if not self.stack:
            return []
        f = self.stack[-1]
        t = self.rules.decisions[f[0]]
        if t.sort:
            return sorted(set(t.codes(self, f)))
        return t.codes(self, f)

    def decision(self) -> Decision | None:
        """The pending decision in words (None when the game is over): who decides, its
        kind, a prompt with what the choice costs, and one option per legal action
        (exactly :meth:`legal_actions`, same order) describing its effect."""
        if not self.stack:
            return None
        f = self.stack[-1]
        t = self.rules.decisions[f[0]]
        p = f[1]
        options = [Option(a, t.option(self, f, a), targets(self, a, p), p)
                   for a in self.legal_actions()]
        return Decision(f[1], t.kind_of(self, f), t.prompt(self, f), options)

    # ------------------------------------------------------------------ apply, undo
    def parse_action(self, text: object) -> Action:
        """Parse notation (raises :class:`NotationError`, also for a non-string);
        legality is checked by apply."""
        return A.parse(text)

    def apply(self, action: Action | str | object) -> list[Event]:
        """Perform one legal action (an :class:`Action` or its notation) and return the
        events it caused: the action itself, then every automatic step (growth, salary,
        Governors, region openings, Abolition, Exploit activation and Shields, phases,
        rounds, game end). Raises :class:`IllegalActionError` (reason included) or
        :class:`NotationError` (also for anything but an Action or a string) and leaves
        the state untouched. (Typed ``object`` too: a compiled build would otherwise
        reject a wrong type with a ``TypeError`` before this check.)"""
        if not isinstance(action, Action):
            action = A.parse(action)  # NotationError for bad text or a non-string
        c = action.code
        codes = self._legal
        if codes is None:
            codes = self.legal_codes()
        if not (_has(codes, c) if _COMPILED else c in codes):  # the one legality check
            raise IllegalActionError(self._why_illegal(action, codes), self._refused_to())
        f = self.stack[-1]
        t = self.rules.decisions[f[0]]
        # the action's own words describe the position before it (what it costs, what it
        # gains, what is left): made now, while that position exists
        p = f[1]
        # (an action event's English words are said to the seat acting: "your")
        events = [Event("action", p, None, None, _action_message, (p, t.option(self, f, action)))]
        exploits = self.rules.exploits
        shields = 0
        filled = self.filled
        if exploits:  # the Shield mask before: known from the last apply() if it led here
            known = self._shm
            shields = known[1] if known is not None and known[0] is self.hist else \
                self._shields()
            if not shields:  # no Exploit active: only a track filling up can change that
                filled = filled.copy()
        self.ev = events
        try:  # the body of apply_code, inlined (legality checked above)
            self._legal = None
            stack = self.stack
            stack.pop()
            t.apply(self, f, c)
            self.hist = (c, self.hist)
            self.nhist += 1
            if not stack:
                turns.advance(self)
            if exploits:
                after = self._shields() if shields or self.filled != filled else 0
                self._shm = (self.hist, after)
                if after != shields:  # a Shield or an Exploit changed
                    self._shield_events(shields, after)
        finally:
            self.ev = None
        return events

    def apply_code(self, c: ActionCode) -> None:
        """Fast path for bots: apply an action code taken from :meth:`legal_codes`
        (checked, no events)."""
        codes = self._legal
        if codes is None:
            codes = self._gen()
        if not (_has(codes, c) if _COMPILED else c in codes):
            if c not in A.BY_CODE:
                raise IllegalActionError(msg(UNKNOWN_CODE, code=repr(c)))
            raise IllegalActionError(self._why_illegal(A.BY_CODE[c], codes), self._refused_to())
        # the phase driver inlined: this is the hot path of every search
        self._legal = None
        stack = self.stack
        f = stack.pop()
        self.rules.decisions[f[0]].apply(self, f, c)
        self.hist = (c, self.hist)
        self.nhist += 1
        if not stack:  # the phase driver has work only when no decision is pending
            turns.advance(self)

    def undo(self) -> None:
        """Restore the state before the last decision, exactly (its JSON included). Can
        be repeated back to setup; raises :class:`UndoError` when there is nothing to
        undo (a new game, or a position built by hand that no action led to)."""
        origin = self.origin
        base_n = origin.nhist if origin is not None else 0
        if self.nhist <= base_n:
            raise UndoError("nothing to undo: " + ("this is the start of the game"
                                                  if origin is None else
                                                  "this position was built by hand"))
        target = self.nhist - 1
        # walk the history back from here to the nearest checkpoint of this very history
        # (checkpoints are keyed by its cons cells, so another line of play never
        # matches), keeping the codes and cells passed on the way
        marks = self._marks
        if marks is None:
            marks = self._marks = {}
        cells: list[Any] = []
        cell: Any = self.hist
        depth = self.nhist
        start: State | None = None
        while depth > base_n:
            if depth <= target and not depth % _MARK_EVERY:
                snap = marks.get(depth)
                if snap is not None and snap.hist is cell:
                    start = snap
                    break
            cells.append(cell)
            cell = cell[1]
            depth -= 1
        if start is None:  # from setup, or from the position built by hand
            s = new_game(self.config) if origin is None else origin.copy()
        else:
            s = start.copy()
        s.origin = origin
        cells.reverse()  # cells[k] is the history after action depth + k + 1
        for k in range(target - depth):
            s.apply_code(cells[k][0])
            s.hist = cell = cells[k]  # this history's own cells: its checkpoints match
            d = depth + k + 1
            if not d % _MARK_EVERY and (
                    (mark := marks.get(d)) is None or mark.hist is not cell):
                snap = s.copy()  # (another line of play's checkpoint is replaced)
                snap.origin = origin
                marks[d] = snap
        s._marks = marks
        for name in _FIELDS:
            setattr(self, name, getattr(s, name))

    # ------------------------------------------------------------------ events
    def emit(self, kind: str, player: PlayerId | None, what: str | Message,
             data: dict[str, Any] | None = None, reader: PlayerId | None = None) -> None:
        """Record an event while :meth:`apply` collects them (rule code checks
        ``state.ev is not None`` first, so bots pay nothing): ``what`` happened is a
        structured message (:mod:`endeavor.messages`) or, from an older rule module,
        words; ``reader`` is whom its English ``text`` speaks to, for the few that say
        "your"."""
        if self.ev is not None:
            if isinstance(what, Message):
                self.ev.append(Event(kind, player, None, data, message=what, reader=reader))
            else:
                self.ev.append(Event(kind, player, what, data))

    def emit_later(self, kind: str, player: PlayerId | None,
                   make: Callable[..., str | Message], *args: Any) -> None:
        """Record an event whose message (or words) is ``make(*args)``, made only when a
        client reads it (:class:`~endeavor.events.Event`); ``args`` are values captured
        now (numbers, ids, strings), never the live state. Nothing while no client
        collects events."""
        if self.ev is not None:
            self.ev.append(Event(kind, player, None, None, make, args))

    def _shields(self) -> int:
        """Bitmask of (Exploit active) and (player holds its Shield), for events:
        :meth:`exploit_active` and :meth:`has_shield` inlined (a dormant Exploit costs
        two comparisons)."""
        m = 0
        filled = self.filled
        length = self.info.trk_len
        pres = self.region_presence
        for i, _, r1, r2 in self.rules.exploit_keys:  # Europe (0) is always open
            if (r1 and filled[r1] != length[r1]) or (r2 and filled[r2] != length[r2]):
                continue
            base = i * 8
            m |= 1 << base
            for p in range(self.n):
                if pres[p * REGION_STRIDE + r1] > 0 and pres[p * REGION_STRIDE + r2] > 0:
                    m |= 1 << (base + 1 + p)
        return m

    def _shield_events(self, before: int, after: int) -> None:
        for i, e in self.rules.exploits:
            bit = 1 << (i * 8)
            if after & bit and not before & bit:
                holders = tuple(Seat(p) for p in range(self.n) if after >> (i * 8 + 1 + p) & 1)
                r1, r2 = e.regions
                self.emit("exploit", None, msg(
                    EXPLOIT_ACTIVE, exploit=Term("exploit", e.name), first=region_term(r1, True),
                    second=region_term(r2), holders=Items(holders, COMMA, NOBODY_YET)))
                continue
            for p in range(self.n):
                b = 1 << (i * 8 + 1 + p)
                if after & b and not before & b:
                    self.emit("shield", p, msg(SHIELD_GAINED, seat=Seat(p),
                                               exploit=Term("exploit", e.name)))
                elif before & b and not after & b:
                    self.emit("shield", p, msg(SHIELD_LOST, seat=Seat(p),
                                               exploit=Term("exploit", e.name)))

    # ------------------------------------------------------------------ errors
    def _why_illegal(self, action: Action, codes: list[int]) -> Message:
        if self.is_over:
            return msg(OVER, action=action.text)
        f = self.stack[-1]
        t = self.rules.decisions[f[0]]
        sample = ", ".join(A.BY_CODE[c].text for c in codes[:12])
        more = msg(MORE, n=len(codes) - 12) if len(codes) > 12 else ""
        reason = t.why_not(self, f, action)
        return msg(ILLEGAL_WHY if reason else ILLEGAL, action=action.text, reason=reason,
                   player=f[1], asks=t.asks(self, f), round=self.round,
                   phase=Term("phase", self.phase_name), legal=sample, more=more)

    def _refused_to(self) -> int | None:
        """The seat a refusal is said to: the seat deciding (None once the game is
        over)."""
        return None if self.is_over else self.stack[-1][1]

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
        return _records().make_record(self)

    def to_json(self) -> str:
        """The whole state as versioned JSON; :meth:`from_json` restores it exactly."""
        return _records().state_to_json(self)

    @staticmethod
    def from_json(text: object, *, trusted: bool = False) -> State:
        """Rebuild a state from :meth:`to_json` output (``str`` or ``bytes``, or an older
        version's, migrated); raises :class:`RecordError` naming the problem (also for
        anything but text).

        The state is checked: its position must be the one its history leads to from
        setup (the history is replayed) and pass the consistency checks. ``trusted=True``
        skips those two checks, for text this program wrote itself and kept where nobody
        else could change it (a server's own database, a pickle): never for text a user
        or another program could have touched, as a position no game can reach would
        then be accepted. The shape and ranges of every field are checked either way,
        and a version-1 state is always replayed (its migration needs the history)."""
        return _records().state_from_json(text, trusted=trusted)

    # pickle and copy: a state travels as its JSON (:meth:`to_json`, which keeps the
    # history, the generator and a built position's origin) and comes back equal, with
    # the same legal actions, playing on identically; copy.copy and copy.deepcopy are
    # :meth:`copy` (independent, nothing mutable shared)
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_state_from_json, (self.to_json(),))

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.copy()

    def __repr__(self) -> str:
        cp = self.current_player
        return (f"<State round {self.round} {self.phase_name} "
                f"player {cp} decides; {self.nhist} actions>")


class Serializer(Protocol):
    """What :meth:`State.record`, :meth:`State.to_json` and :meth:`State.from_json`
    call: the module :mod:`endeavor.records`. It sits a layer above state (it builds
    states), so state does not import it; the package hands it over when imported
    (:func:`serialize_with`)."""

    def make_record(self, state: State) -> dict[str, Any]: ...

    def state_to_json(self, s: State) -> str: ...

    def state_from_json(self, text: object, trusted: bool = False) -> State: ...


_serializer: Serializer | None = None


def serialize_with(records: Serializer) -> None:
    """Hook, called once when ``endeavor`` is imported: the module that serializes
    states (:mod:`endeavor.records`)."""
    global _serializer
    _serializer = records


def _records() -> Serializer:
    if _serializer is None:
        raise RuntimeError("endeavor.records is not imported: import endeavor")
    return _serializer


def _state_from_json(text: str) -> State:
    """Unpickle a :class:`State` (its :meth:`State.to_json`, written by this program:
    unpickling is for trusted data only, as with any pickle)."""
    return State.from_json(text, trusted=True)


def new_game(config: GameConfig | None = None) -> State:
    """Set up a game (R2): deal the tokens, order the decks, draw the level-5 pool, pick
    the first player, draw or place the Exploits; the first decision is the Crown
    holder's start tile."""
    if config is None:
        config = GameConfig()
    if not isinstance(config, GameConfig):
        raise TypeError("new_game expects a GameConfig")
    rng = random.Random(config.seed)
    cls = RB.RULESETS[config.ruleset]
    s = State.__new__(State)
    s.config = config
    n = s.n = config.players
    s.players = [Player(cls.discs) for _ in range(n)]
    cls.deal(s, config, rng)
    ids = config.exploits
    if isinstance(ids, str):  # "random" (R4): drawn last, so the deal matches other games
        ids = tuple(rng.sample(exploit_ids(), 3))
    rules = s.rules = rules_for(config, cls.module_ids(config, ids))
    info = s.info = rules.board
    s.ex = rules.modules
    s.link_token += [-1] * (info.nlinks - len(s.link_token))
    s.site_owner = [-1] * D.NSITES
    s.filled = [0] * 7
    owners = n + rules.neutrals
    s.neutral_supply = [rules.discs] * rules.neutrals
    s._shm = None
    s._marks = None
    s.sea = [0] * (REGION_STRIDE * owners)
    s.region_presence = [0] * (REGION_STRIDE * owners)
    s.owned_sites = [0] * (REGION_STRIDE * owners)
    s.occupied_sites = [0] * 7
    s.free_cities = [len(info.cities_in[r]) for r in range(7)]
    s.free_routes = [len(info.routes_in[r]) for r in range(7)]
    s.pile = []
    s.removed = []
    s.spent = [0] * 8
    s.abolished = False
    s.round = 0
    s.step = 0
    s.act_player = -1
    s.passed = 0
    s.phase = PH_SETUP
    s.turn = 0
    s.stack = []
    s.hist = None
    s.nhist = 0
    s._legal = None
    s.site_marks = [0] * D.NSITES
    s.link_marks = [0] * info.nlinks
    s.ev = None
    s.origin = None
    s.module_data = []
    for i, e in enumerate(s.ex):  # module setup, before the start tiles
        s.module_data.append(e.setup(s, i))
    turns.advance(s)
    return s


__all__ = ["Player", "State", "new_game"]
