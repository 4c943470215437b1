"""Endeavor: Age of Sail (2018), the default ruleset (R1): 2-5 players, board side A or
B, 35 discs, a start tile choice, 95 Trade tokens, 3 level-5 buildings drawn from the
pool, value-1 region cards give a disc (R16), up to 3 Exploits."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any, ClassVar

from .. import data as D
from ..frames import PH_CONSTRUCTION, PH_DISCARD, PH_GROWTH, PH_SALARY, PH_SETUP
from . import construction, discard, growth, salary, scoring, turns
from .attack import Attack, Casualty
from .base import BoardInfo, Rules, Step, register_ruleset
from .construction import Build, StartTile
from .discard import Discard, GovernorSlot
from .draw import Draw
from .occupy import Occupy
from .payment import Payment
from .salary import Salary
from .ship import Ship
from .sources import ActionChoice, Effect, ModuleStep

if TYPE_CHECKING:
    from ..config import GameConfig
    from ..state import State

_BOARD_INFO: dict[tuple[str, bool], BoardInfo] = {}


def board_info(board: D.Board, tile_sites: bool) -> BoardInfo:
    """The shared lookup tables of a board (with the Exploit tile cities or not)."""
    key = (board.side, tile_sites)
    info = _BOARD_INFO.get(key)
    if info is None:
        info = _BOARD_INFO[key] = BoardInfo(board, tile_sites)
    return info


class AgeOfSail(Rules):
    name = "age_of_sail"
    title = "Endeavor: Age of Sail"
    player_counts = (2, 3, 4, 5)
    discs = D.DISCS_PER_PLAYER  # 35 (RB)
    token_counts = D.TOKEN_COUNTS
    boards = D.BOARDS
    start_buildings = D.START_BUILDINGS
    level5_pool = D.LEVEL5_POOL
    level5_available = D.LEVEL5_AVAILABLE
    options = {
        "phase_order": (("by_phase", "by_player"), "by_phase"),  # R6
        "discard_pile_bonus": ((True, False), True),  # R16
        "plus_same_region": ((True, False), False),  # R23 (True: the classic house rule)
        # the Silent Fleet 2-player variant (R21) and its three optional rules (R22)
        "silent_fleet": ((True, False), False),
        "limited_occupation": ((True, False), False),
        "no_token_reaction": ((True, False), False),
        "building_shortage": ((True, False), False),
    }
    #: the Silent Fleet's optional rules (R22): each needs ``silent_fleet``
    fleet_options: ClassVar[tuple[str, ...]] = (
        "limited_occupation", "no_token_reaction", "building_shortage")

    def __init__(self, config: GameConfig, module_ids: tuple[str, ...]) -> None:
        super().__init__(config, module_ids)
        self.board = board_info(self.boards[str(config.board)],
                                any(m.tile_cities for m in self.modules))
        self.phase_order = config.options["phase_order"]
        self.discard_pile_bonus = bool(config.options["discard_pile_bonus"])
        self.plus_same_region = bool(config.options["plus_same_region"])
        self.kinds = (Ship(), Occupy(), Attack(), Payment(), Draw())
        decisions: list[Any] = [None] * 9
        for t in (StartTile(), Build(), Salary(), ActionChoice(), Effect(), Casualty(),
                  GovernorSlot(), Discard(), ModuleStep()):
            decisions[t.frame] = t
        self.decisions = tuple(decisions)
        steps: list[Step | None] = [None] * 7
        steps[PH_SETUP] = construction.begin_setup
        steps[PH_CONSTRUCTION] = construction.begin
        steps[PH_GROWTH] = growth.grow
        steps[PH_SALARY] = salary.begin
        steps[PH_DISCARD] = discard.begin
        self.phase_steps = tuple(steps)
        n = config.players
        self._sched0 = turns.schedule(n, 0, self.phase_order)
        self._sched1 = turns.schedule(n, 1, self.phase_order)

    def to_discards(self, s: State, c: int) -> None:
        """R18 (Age of Sail): the face-up discard pile, drawable by anyone (R14)."""
        s.pile.append(c)

    def score_lines(self, s: State, p: int) -> dict[str, int]:
        """R19: the Age of Sail score pad (Exploits first)."""
        return scoring.score_lines(s, p)

    @classmethod
    def default_board(cls, players: int) -> str:
        """R1: side A suits 2 and 3 players, side B 4 (loose) and 5."""
        return "A" if players <= 3 else "B"

    @classmethod
    def config_problem(cls, config: GameConfig) -> str:
        """R1, R21, R22: the Silent Fleet is a 2-player variant (either board side, with
        or without Exploits); its optional rules need it."""
        fleet = config.options["silent_fleet"]
        if fleet and config.players != 2:
            return (f"the Silent Fleet is a 2-player variant (R21): a neutral fleet stands "
                    f"in for the missing players; this game has {config.players} players")
        extra = [o for o in cls.fleet_options if config.options[o]]
        if extra and not fleet:
            what = (f"options {', '.join(extra)} are optional rules" if len(extra) > 1
                    else f"option {extra[0]} is an optional rule")
            return f"{what} of the Silent Fleet (R22): turn on silent_fleet too"
        return ""

    @classmethod
    def module_ids(cls, config: GameConfig, exploit_ids: tuple[str, ...]) -> tuple[str, ...]:
        """The Exploits, then the Silent Fleet when its option is on (R21)."""
        if config.options["silent_fleet"]:
            return (*exploit_ids, "silent_fleet")
        return exploit_ids

    def schedule(self, rnd: int) -> tuple[tuple[int, int], ...]:
        return self._sched1 if rnd else self._sched0

    @classmethod
    def deal(cls, s: State, config: GameConfig, rng: Any) -> None:
        """Deal the 95 tokens onto the printed map (tracks, sites, circular links), order
        the decks, draw the level-5 pool, pick the first player (R2)."""
        info = board_info(cls.boards[str(config.board)], False)
        tokens: list[int] = []
        for t, k in enumerate(cls.token_counts):
            tokens += [t] * k
        rng.shuffle(tokens)
        it = iter(tokens)
        s.track_owner = [-1] * info.ntrack
        s.track_token = list(islice(it, info.ntrack))
        s.site_token = [-1] * D.NSITES
        for site in info.token_sites:  # the printed map only: tile cities carry no token
            s.site_token[site] = next(it)
        s.link_token = [-1] * info.nlinks
        for li in info.circular_links:
            s.link_token[li] = next(it)
        s.decks = [list(d) for d in cls.initial_decks]
        s.region_governors = list(cls.governors)
        s.building_supply = [0] * len(cls.buildings)
        for b in cls.base_supply:
            s.building_supply[b] = cls.buildings[b].copies
        s.level5 = tuple(sorted(rng.sample(cls.level5_pool, cls.level5_available)))
        for b in s.level5:
            s.building_supply[b] = 1
        s.crown = rng.randrange(config.players)


# registered by a call: with a class decorator (other than a dataclass), mypyc would not
# compile the class to a native class
register_ruleset(AgeOfSail)
