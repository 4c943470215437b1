"""The rules object: one per game setting, between the config and every state.

In the manner of OpenSpiel's ``Game`` and python-chess's variant classes, a
:class:`Rules` object owns a ruleset's tables (boards, buildings, cards, token mix,
discs, start tiles, level-5 pool, card bonuses, player counts) and its rule areas, and
builds the dispatch tables the state uses: one :class:`~endeavor.rules.kinds.ActionKind`
per action kind (Ship, Occupy, Attack, Payment, Draw), one
:class:`~endeavor.decision.DecisionType` per decision kind, one handler per phase step,
and the rule modules in play with the hooks each overrides.

A ruleset is a subclass that sets the tables and picks its rule-area classes
(:class:`~endeavor.rules.age_of_sail.AgeOfSail` is the first). A rules object is built
once per (ruleset, players, board, Exploits, options) by :func:`rules_for` and shared by
every state of that setting; it is immutable after construction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final

from .. import data as D
from ..decision import DecisionType
from ..frames import PHASE_NAMES
from .module import REGISTRY, RuleModule

if TYPE_CHECKING:
    from ..config import GameConfig
    from ..state import State
    from .kinds import ActionKind

_SITE_REGION: Final = tuple(s.region for s in D.SITES)
_SITE_CITY: Final = tuple(s.city for s in D.SITES)
_SITE_TILE: Final = tuple(s.code in D.TILE_SITES for s in D.SITES)


class BoardInfo:
    """Static lookup tables of one board side (optionally with the Exploit tile cities)."""

    __slots__ = ("board", "side", "sites", "site_set", "cities_in", "routes_in", "sites_in",
                 "adj", "trk_off", "trk_len", "ntrack", "nlinks", "circular_links",
                 "token_sites")

    def __init__(self, board: D.Board, tile_sites: bool = False) -> None:
        b = board
        if tile_sites:  # The Dutch East India Company: Batavia and Cape Town (REC)
            b = b._replace(sites=b.sites + D.TILE_SITE_IDS,
                           links=b.links + D.TILE_LINKS,
                           link_circular=b.link_circular + (False,) * len(D.TILE_LINKS))
        self.board = b
        self.side = b.side
        self.sites = b.sites
        self.site_set = frozenset(b.sites)
        #: the map's own sites, reachable by normal Occupy / Attack / Ship
        self.cities_in = tuple(tuple(s for s in b.sites if _SITE_REGION[s] == r and
                                     _SITE_CITY[s] and not _SITE_TILE[s])
                               for r in range(D.NREGIONS))
        self.routes_in = tuple(tuple(s for s in b.sites if _SITE_REGION[s] == r and
                                     not _SITE_CITY[s]) for r in range(D.NREGIONS))
        #: per region: its cities, then its trade routes (what an Attack may target)
        self.sites_in = tuple(c + t for c, t in zip(self.cities_in, self.routes_in, strict=True))
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
        #: sites carrying a Trade token at setup (the printed map; tile cities have none)
        self.token_sites = board.sites


Step = Callable[["State", int], None]


class Rules:
    """A ruleset for one game setting. Subclasses set the class-level tables and the
    rule-area classes; :meth:`__init__` builds the per-setting dispatch tables.

    Public attributes: ``config`` (the :class:`GameConfig` it was built from, seed
    aside), ``n`` (players), ``board`` (:class:`BoardInfo`), ``modules`` (the rule
    modules in play, Exploits first), ``kinds`` (the five action kinds),
    ``decisions`` (decision type per frame kind) and the option values."""

    #: ruleset id (``GameConfig.ruleset``) and title
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    player_counts: ClassVar[tuple[int, ...]] = ()
    rounds: ClassVar[int] = D.ROUNDS
    discs: ClassVar[int] = D.DISCS_PER_PLAYER
    max_cards: ClassVar[int] = D.MAX_CARDS
    token_counts: ClassVar[tuple[int, ...]] = D.TOKEN_COUNTS
    boards: ClassVar[dict[str, D.Board]] = {}
    buildings: ClassVar[tuple[D.Building, ...]] = D.BUILDINGS
    cards: ClassVar[tuple[D.Card, ...]] = D.CARDS
    base_supply: ClassVar[tuple[int, ...]] = D.BASE_SUPPLY
    start_buildings: ClassVar[tuple[int, ...]] = ()
    level5_pool: ClassVar[tuple[int, ...]] = ()
    level5_available: ClassVar[int] = 0
    initial_decks: ClassVar[tuple[tuple[int, ...], ...]] = D.INITIAL_DECKS
    #: per card: gaining it gives a disc from the supply (Age of Sail's value-1 region
    #: cards, R16)
    card_bonus: ClassVar[tuple[bool, ...]] = tuple(c.bonus_disc for c in D.CARDS)
    governors: ClassVar[tuple[int, ...]] = D.GOVERNORS
    #: the words of the ruleset: the eight Trade token names, the first four being the
    #: attribute names (Age of Sail: Wealth, Influence; the 2009 game: Finance,
    #: Politics), and the phase names (:data:`~endeavor.frames.PHASE_NAMES` by index)
    token_names: ClassVar[tuple[str, ...]] = D.TOKEN_NAMES
    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES
    #: the words of the event a new phase raises ("Growth phase"), by phase index
    phase_events: ClassVar[tuple[str, ...]] = tuple(f"{name} phase" for name in PHASE_NAMES)
    #: the highest space of a status track (Age of Sail: no cap, its extenders go on)
    track_cap: ClassVar[int] = 1 << 30
    #: the options this ruleset reads, name -> (allowed values, default)
    options: ClassVar[dict[str, tuple[tuple[Any, ...], Any]]] = {}

    config: GameConfig
    n: int
    #: neutral disc colours the modules in play bring (owners n .. n + neutrals - 1)
    neutrals: int
    board: BoardInfo
    #: option values every ruleset answers (a ruleset sets them from its options)
    plus_same_region: bool = False
    discard_pile_bonus: bool = True
    phase_order: str = "by_phase"
    modules: tuple[RuleModule, ...]
    exploits: tuple[tuple[int, RuleModule], ...]
    exploit_keys: tuple[tuple[int, RuleModule, int, int], ...]
    kinds: tuple[ActionKind, ...]
    decisions: tuple[DecisionType, ...]
    phase_steps: tuple[Step | None, ...]

    def __init__(self, config: GameConfig, module_ids: tuple[str, ...]) -> None:
        self.config = config
        self.n = config.players
        self.modules = tuple(REGISTRY[m] for m in module_ids)
        self.exploits = tuple((i, m) for i, m in enumerate(self.modules) if m.is_exploit)
        #: (index, module, region 1, region 2) of each Exploit in play, for the hot loops
        #: that skip a dormant one before asking for Shields
        self.exploit_keys = tuple((i, m, m.regions[0], m.regions[1]) for i, m in self.exploits)
        self._hooks: dict[str, tuple[tuple[int, RuleModule], ...]] = {}
        self.neutrals = sum(m.neutral_colours for m in self.modules)
        for name in ("draw_bonus", "build_bonus", "unpayable", "extra_sources",
                     "attack_cost", "salary", "on_turn_end", "on_round_end",
                     "on_site_attacked", "on_abolish", "on_action", "on_round_start"):
            self._hooks[name] = self.hooked(name)
        self.h_draw_bonus = self._hooks["draw_bonus"]
        self.h_build_bonus = self._hooks["build_bonus"]
        self.h_unpayable = self._hooks["unpayable"]
        self.h_extra_sources = self._hooks["extra_sources"]
        self.h_attack_cost = self._hooks["attack_cost"]
        self.h_salary = self._hooks["salary"]
        self.h_turn_end = self._hooks["on_turn_end"]
        self.h_round_end = self._hooks["on_round_end"]
        self.h_site_attacked = self._hooks["on_site_attacked"]
        self.h_abolish = self._hooks["on_abolish"]
        self.h_action = self._hooks["on_action"]
        self.h_round_start = self._hooks["on_round_start"]
        self._schedules: dict[int, tuple[tuple[int, int], ...]] = {}

    def hooked(self, hook: str) -> tuple[tuple[int, RuleModule], ...]:
        """(index, module) of the modules in play whose class overrides ``hook``."""
        default = getattr(RuleModule, hook)
        return tuple((i, m) for i, m in enumerate(self.modules)
                     if getattr(type(m), hook) is not default)

    # ------------------------------------------------------------------ to override
    def schedule(self, rnd: int) -> tuple[tuple[int, int], ...]:
        """Round ``rnd``'s automatic steps as (phase, offset from the Crown) pairs."""
        raise NotImplementedError

    @classmethod
    def deal(cls, s: State, config: GameConfig, rng: Any) -> None:
        """Setup randomness (R2): fill a new state's tracks, sites, links, decks, building
        supply and Crown from the game's generator, before any module is chosen."""
        raise NotImplementedError

    @classmethod
    def default_board(cls, players: int) -> str:
        """The board (side) for ``players`` when the config names none."""
        return next(iter(cls.boards))

    @classmethod
    def config_problem(cls, config: GameConfig) -> str:
        """Why a config (each field already valid on its own) is impossible for this
        ruleset as a whole ("" if it is fine); raised as a ConfigError."""
        return ""

    @classmethod
    def module_ids(cls, config: GameConfig, exploit_ids: tuple[str, ...]) -> tuple[str, ...]:
        """The rule modules in play: the Exploits (drawn or named) and any module an
        option switches on."""
        return exploit_ids

    # ------------------------------------------------------------------ rule seams
    def after_pass(self, s: State, p: int) -> None:
        """``p`` just passed in the Action phase (may ask decisions of ``p``)."""

    def to_discards(self, s: State, c: int) -> None:
        """Where a discarded card goes (not a Slavery card, not a Governor: R18)."""
        raise NotImplementedError

    def score_lines(self, s: State, p: int) -> dict[str, int]:
        """``p``'s final score, line by line in the ruleset's score-pad order (R19)."""
        raise NotImplementedError

    def governor_to_free_slot(self, s: State, p: int) -> bool:
        """Whether a Governor ``p`` wins goes into the free Governor slot (else into a
        normal slot). Default: when the slot is empty (P1)."""
        return s.players[p].gov < 0

    def problems(self, s: State) -> list[str]:
        """Facts of this ruleset that a consistent position must show beyond the shared
        conservation checks (:func:`~endeavor.invariants.check_invariants`); empty when
        there is nothing wrong."""
        return []

    def __repr__(self) -> str:
        ids = ",".join(m.id for m in self.modules) or "-"
        return f"<{type(self).__name__} {self.n}p board {self.board.side} modules {ids}>"


RULESETS: dict[str, type[Rules]] = {}
_CACHE: dict[tuple[Any, ...], Rules] = {}


def register_ruleset(cls: type[Rules]) -> type[Rules]:
    RULESETS[cls.name] = cls
    return cls


def rules_for(config: GameConfig, module_ids: tuple[str, ...]) -> Rules:
    """The shared rules object of ``config`` with the modules ``module_ids`` in play
    (the Exploits drawn at setup when ``config.exploits == "random"``)."""
    key = (config.ruleset, config.players, config.board, module_ids,
           tuple(sorted(config.options.items())))
    r = _CACHE.get(key)
    if r is None:
        r = _CACHE[key] = RULESETS[config.ruleset](config, module_ids)
    return r
