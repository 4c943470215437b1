"""Endeavor as an OpenSpiel game: importing this module registers ``python_endeavor``.

::

    import pyspiel
    import endeavor.rl.openspiel  # registers the game

    game = pyspiel.load_game("python_endeavor", {"players": 4, "exploits": "random"})
    state = game.new_initial_state()        # a chance node: the deal
    state.apply_action(17)                  # deal number 17 (seed first_seed + 17)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

The game (docs/rl.md, "OpenSpiel" has the whole description):

- **The deal is a chance node.** The first node of every game is a chance node with
  ``deals`` equally likely outcomes; outcome ``i`` sets the game up with
  ``new_game(GameConfig(seed=first_seed + i, ...))`` (token deal, decks, level-5
  buildings, first player and, with ``exploits="random"``, the three Exploits). From
  there the game is deterministic: sequential, perfect information.
- **Actions** are the indices of :mod:`endeavor.encoding.actions` (``num_distinct_actions`` =
  :data:`~endeavor.encoding.actions.NUM_ACTIONS`); ``legal_actions(p)`` is sorted and empty for
  every seat but the one to decide (the engine names it, out-of-turn discards included).
- **Rewards** come at the end only (general-sum), by the ``reward`` parameter:
  :data:`REWARDS`.
- **Length**: a game ends after at most ``max_game_length`` decisions (the chance node
  not counted, as OpenSpiel counts): by default :data:`MAX_GAME_LENGTH` for the player
  count, about twice the longest game measured. A game cut off there is terminal and
  scored as the position stands (:func:`endeavor.final_scores` scores an unfinished game
  as if it ended now); ``state.truncated`` tells it apart.
- **Observations**: ``observation_tensor(p)`` is :func:`endeavor.encoding.observation.encode`
  (all zeros at the chance node); ``observation_string(p)`` the position in short text;
  ``information_state_string(p)`` the history of actions (perfect recall).
- ``clone()`` copies the engine's state (:meth:`endeavor.State.copy`); serialization
  (``pyspiel.serialize_game_and_state``, pickle) carries the state as its JSON.

An adapter over the engine's public API, imported by nothing in ``endeavor`` (OpenSpiel is
the optional ``openspiel`` extra).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from .. import config as _config
from ..config import GameConfig
from ..encoding.actions import ACTIONS, CODES, NUM_ACTIONS, legal_indices
from ..encoding.observation import encode, observation_size
from ..scoring import final_scores
from ..state import State, new_game

#: the name ``pyspiel.load_game`` knows the game by
GAME_NAME = "python_endeavor"

#: the reward schemes (parameter ``reward``), each with its range
REWARDS: dict[str, str] = {
    "win": "a share of 1 among the seats ranked first (1 to a sole winner, 1/k to each of "
           "k tied); 0 to the others. Range [0, 1]; the returns sum to 1",
    "rank": "(seats with a lower total - seats with a higher total) / (players - 1): 1 to "
            "a sole winner, -1 to a sole last, 0 for a tie of all. Range [-1, 1]; the "
            "returns sum to 0",
    "score": "the final glory / 100 (SCORE_SCALE), kept within [-1, 2] (glory -100..200; "
             "real totals lie well inside). General-sum",
}
#: the utility range of each reward scheme
UTILITY_RANGE: dict[str, tuple[float, float]] = {
    "win": (0.0, 1.0), "rank": (-1.0, 1.0), "score": (-1.0, 2.0)}
#: glory per 1.0 of the "score" reward
SCORE_SCALE = 100.0

#: the default ``max_game_length`` by player count: decisions per game (the chance node
#: not counted), about twice the longest game measured (random play with rare passes
#: and greedy self-play, every ruleset and option; docs/rl.md, "OpenSpiel" has the table)
MAX_GAME_LENGTH: dict[int, int] = {2: 500, 3: 550, 4: 650, 5: 800}

#: the default number of deals (chance outcomes), and the most a game may have (its
#: outcome list, built once per game, is ~110 bytes a deal)
DEFAULT_DEALS = 10_000
MAX_DEALS = 1_000_000

# The game's parameters and their defaults: the engine's options come from the Age of
# Sail ruleset's table (endeavor.config.OPTIONS: name -> (allowed values, default)), so
# a new option is a parameter at once.
_OPTIONS: dict[str, tuple[tuple[Any, ...], Any]] = dict(_config.OPTIONS)
_PARAMETERS: dict[str, Any] = {
    "players": 4,
    "ruleset": "age_of_sail",
    # "auto": the side the rules recommend for the player count (GameConfig board=None)
    "board": "auto",
    # "none", "random" or Exploit ids joined by "+" ("," is accepted and turned into
    # "+": OpenSpiel's game strings separate parameters with commas)
    "exploits": "none",
    **{name: default for name, (_, default) in _OPTIONS.items()},
    "reward": "win",
    "deals": DEFAULT_DEALS,
    "first_seed": 0,
    # 0: MAX_GAME_LENGTH[players]
    "max_game_length": 0,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Endeavor: Age of Sail",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def game_config(params: Mapping[str, Any], seed: int = 0) -> GameConfig:
    """The engine's :class:`~endeavor.GameConfig` of a game with these parameters (the
    game's parameter names; missing ones take their defaults) and deal ``seed``. Raises
    :class:`~endeavor.ConfigError` (a ``ValueError``) for an impossible setting, and
    ``ValueError`` for a parameter this game does not know."""
    unknown = sorted(set(params) - set(_PARAMETERS))
    if unknown:
        raise ValueError(f"unknown parameter(s) {', '.join(unknown)}; known: "
                         f"{', '.join(_PARAMETERS)}")
    p = {**_PARAMETERS, **params}
    exploits = str(p["exploits"]).replace(",", "+")
    ex: str | tuple[str, ...]
    if exploits in ("none", ""):
        ex = ()
    elif exploits == "random":
        ex = "random"
    else:
        ex = tuple(e.strip() for e in exploits.split("+"))
    board = p["board"]
    # only the options that differ from their defaults: the 2009 ruleset knows fewer
    options = {name: p[name] for name, (_, default) in _OPTIONS.items() if p[name] != default}
    return GameConfig(players=p["players"], ruleset=p["ruleset"],
                      board=None if board == "auto" else board, exploits=ex, seed=seed,
                      options=options)


class EndeavorGame(pyspiel.Game):  # type: ignore[misc]
    """``python_endeavor``: made by ``pyspiel.load_game`` (or ``EndeavorGame(params)``)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = {**_PARAMETERS, **(params or {})}
        params["exploits"] = str(params["exploits"]).replace(",", "+")
        reward = params["reward"]
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        deals, first = params["deals"], params["first_seed"]
        if not 1 <= deals <= MAX_DEALS:
            raise ValueError(f"deals must be between 1 and {MAX_DEALS:,}, not {deals}")
        if first < 0:
            raise ValueError(f"first_seed must be >= 0, not {first}")
        #: the engine config of deal 0 (every deal differs from it only in its seed);
        #: validates every setting (ConfigError, a ValueError, otherwise)
        self.config = game_config(params, first)
        length = params["max_game_length"] or MAX_GAME_LENGTH[self.config.players]
        if length < 1:
            raise ValueError(f"max_game_length must be >= 1 (0: the default), not {length}")
        lo, hi = UTILITY_RANGE[reward]
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=deals,
            num_players=self.config.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=None,
            max_game_length=length,
        ), params)
        #: the reward scheme (a key of :data:`REWARDS`)
        self.reward: str = reward
        #: the number of deals, and the seed of deal 0
        self.deals: int = deals
        self.first_seed: int = first
        #: decisions after which a game ends (the chance node not counted)
        self.length: int = length
        self._outcomes: list[tuple[int, float]] | None = None  # built when first asked
        self._size = observation_size(self.config)

    def new_initial_state(self, state: Any = None) -> EndeavorState:
        """The chance node before the deal (``state``: not supported, None)."""
        if state is not None:
            raise ValueError("python_endeavor starts from its chance node only; replay "
                             "a history (or deserialize a state) to reach a position")
        return EndeavorState(self)

    def max_chance_nodes_in_history(self) -> int:
        """One: the deal."""
        return 1

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> Any:
        """The observer: for observations (``iig_obs_type`` None, or public information
        without perfect recall) the encoder's tensor and the position's text; for the
        perfect-recall information state, the history (a string, no tensor)."""
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return EndeavorObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals and their probability (equal)."""
        if self._outcomes is None:
            p = 1.0 / self.deals
            self._outcomes = [(i, p) for i in range(self.deals)]
        return self._outcomes

    def deal_config(self, outcome: int) -> GameConfig:
        """The engine config of chance outcome ``outcome`` (seed ``first_seed + outcome``)."""
        return GameConfig(players=self.config.players, ruleset=self.config.ruleset,
                          board=self.config.board, exploits=self.config.exploits,
                          seed=self.first_seed + outcome, options=self.config.options)


class EndeavorState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_endeavor``: the chance node of the deal, then an engine
    :class:`~endeavor.State` (``engine``)."""

    # Only these attributes are kept (OpenSpiel clones a Python state by deep-copying
    # its __dict__, and serializes it by pickling that dict): the engine state copies
    # with State.copy() and pickles as its JSON.
    def __init__(self, game: EndeavorGame) -> None:
        super().__init__(game)
        self._engine: State | None = None
        self._truncated = False

    # ------------------------------------------------------------------ extras
    @property
    def engine(self) -> State | None:
        """The engine's state (None before the deal). Read it; do not apply actions
        to it (the OpenSpiel history would no longer lead to it): use apply_action."""
        return self._engine

    @property
    def truncated(self) -> bool:
        """Whether the game was cut off at ``max_game_length`` before its end."""
        return self._truncated

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        engine = self._engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._truncated or engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return engine.current_player  # type: ignore[return-value]

    def is_terminal(self) -> bool:
        engine = self._engine
        return engine is not None and (self._truncated or engine.is_over)

    def _legal_actions(self, player: int) -> list[int]:
        """Sorted action indices of ``player`` (OpenSpiel asks only for the seat to
        decide; the others have none)."""
        engine = self._engine
        if engine is None or player != engine.current_player or self.is_terminal():
            return []
        legal = legal_indices(engine)
        if not legal:  # OpenSpiel's contract: a seat to decide has an action
            raise RuntimeError(
                f"the engine offers P{player} no legal action before the end of the game "
                f"(an engine bug): {engine!r}; its record: {json.dumps(engine.record())}")
        legal.sort()
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, equally likely."""
        return self.get_game().chance_outcomes()  # type: ignore[no-any-return]

    def _apply_action(self, action: int) -> None:
        engine = self._engine
        if engine is None:
            game = self.get_game()
            if not 0 <= action < game.deals:
                raise ValueError(f"deal {action} is outside 0..{game.deals - 1}")
            self._engine = new_game(game.deal_config(action))
            return
        engine.apply_code(CODES[action])  # IllegalActionError with the reason
        if not engine.is_over and engine.num_actions >= self.get_game().length:
            self._truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {self.get_game().first_seed + action}"
        return ACTIONS[action]

    def returns(self) -> list[float]:
        """The rewards of the game's scheme at the end; zeros before."""
        engine = self._engine
        game = self.get_game()
        if engine is None or not self.is_terminal():
            return [0.0] * game.config.players
        return rewards(engine, game.reward)

    def __str__(self) -> str:
        return position_text(self._engine)


class EndeavorObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``,
    ``string_from``) over the encoder and the position's text."""

    def __init__(self, game: EndeavorGame, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(game._size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: EndeavorState, player: int) -> None:
        engine = state.engine
        if engine is None:
            self.tensor.fill(0.0)
        else:
            encode(engine, player, out=self.tensor)

    def string_from(self, state: EndeavorState, player: int) -> str:
        return f"P{player} observes\n{position_text(state.engine)}"


# ---------------------------------------------------------------------- rewards, text
def rewards(engine: State, scheme: str) -> list[float]:
    """Every seat's reward under ``scheme`` (:data:`REWARDS`) for the position as it
    stands (the end, or a game cut off: scored as if it ended now)."""
    return rewards_of([s.total for s in final_scores(engine)], scheme)


def rewards_of(totals: list[int], scheme: str) -> list[float]:
    """The rewards of ``scheme`` (:data:`REWARDS`) for these final totals (by seat)."""
    n = len(totals)
    if scheme == "win":
        best = max(totals)
        k = totals.count(best)
        return [1.0 / k if t == best else 0.0 for t in totals]
    if scheme == "rank":
        return [sum((t > u) - (t < u) for u in totals) / (n - 1) for t in totals]
    if scheme == "score":
        lo, hi = UTILITY_RANGE["score"]
        return [min(hi, max(lo, t / SCORE_SCALE)) for t in totals]
    raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {scheme!r}")


def position_text(engine: State | None) -> str:
    """The position in a few lines: the deal, round, phase and who decides, then each
    seat's track markers (Industry, Culture, Wealth, Influence) and glory if the game
    ended now."""
    if engine is None:
        return "chance node: the deal"
    cp = engine.current_player
    who = "game over" if cp is None else f"P{cp} decides"
    lines = [f"seed {engine.config.seed}, round {engine.round}, {engine.phase_name}, "
             f"{who}, {engine.num_actions} actions"]
    for s in final_scores(engine):
        markers = "/".join(str(engine.marker(s.player, a)) for a in range(4))
        lines.append(f"P{s.player}: tracks {markers}, glory {s.total}")
    return "\n".join(lines)


pyspiel.register_game(_GAME_TYPE, EndeavorGame)
