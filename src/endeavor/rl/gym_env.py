"""Endeavor as a single-agent Gymnasium environment: one seat against the project's bots.

``gymnasium.make("endeavor/Endeavor-v0", players=4, opponents="greedy", seat=0)``
(registered when :mod:`endeavor.rl` is imported). The agent's observation is the
``float32`` vector of :mod:`endeavor.encoding.observation` for its seat; actions are the
``Discrete(NUM_ACTIONS)`` index of :mod:`endeavor.encoding.actions`. The opponents' decisions
(and the agent's out-of-turn ones, which come to it like any other) are played between
steps, so every step is one decision of the agent's seat.

For masked algorithms, :meth:`EndeavorEnv.action_masks` (sb3-contrib's name) and
``info["action_mask"]`` give the legal actions as an ``int8`` vector. An illegal
action never raises: it ends the episode (``terminated``) with ``illegal_penalty`` and
``info["illegal_action"] = True``, the game unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .common import missing

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as _error:  # pragma: no cover - the rl extra installs it
    raise missing("Gymnasium", _error) from _error

from ..actions import BY_CODE
from ..bots import Bot, make, resolve_bots
from ..encoding.actions import CODES, NUM_ACTIONS
from ..encoding.actions import mask as legal_mask
from ..encoding.observation import observation_bounds, observation_size
from ..events import Event
from ..scoring import final_scores
from ..state import State, new_game
from .common import (
    SEED_BOUND,
    Observers,
    ScreenLog,
    check_render_mode,
    empty_mask,
    game_config,
    new_game_event,
    positive_or_none,
    with_seed,
)
from .rewards import RewardFn, reward_function, score_pad

ENV_ID = "endeavor/Endeavor-v0"

#: an opponent: a bot spec (``"greedy"``, ``"mcts:800"``, ``"mcts:0.5s"``) or a bot
Opponent = str | Bot


def bot_seed(deal: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of the game dealt from ``deal``."""
    return random.Random(f"endeavor-gym/{deal}/{seat}").getrandbits(63)


class EndeavorEnv(ScreenLog, gymnasium.Env[np.ndarray, np.int64]):
    """Seat ``seat`` of an Endeavor game for ``players``, the other seats played by bots.

    ``opponents``: one bot for every other seat, or one per other seat in seat order
    after the agent's (like ``endeavor play --opponents``): a name from
    :data:`endeavor.bots.NAMES`, a name with its budget (``"mcts:800"``, ``"mcts:0.5s"``)
    or a bot object (with ``choose(state)``, used as it is); ``opponent_budget`` is the
    budget of the named bots that take one. Named bots are made again at every reset,
    seeded from the deal, so a seeded reset replays the same episode (with iteration
    budgets: a budget in seconds depends on the machine). ``seat``: the agent's seat,
    or ``None`` for a seat drawn at every reset.

    Game settings are :class:`~endeavor.GameConfig`'s fields (``players``, ``ruleset``,
    ``board``, ``exploits``, ``options``; ``seed`` seeds the first reset without a
    seed). ``reward``: ``"win"``, ``"rank"``, ``"score"`` or a function
    (:mod:`endeavor.rl.rewards`), paid when the game ends. ``max_decisions``: truncate
    after that many steps. ``illegal_penalty``: the reward of an illegal action, which
    ends the episode. ``render_mode="ansi"``: :meth:`render` returns the terminal screen;
    ``"human"`` prints it after every step.

    ``reset(seed=S)`` deals the game of ``GameConfig(seed=S)``; a reset without a seed
    deals from ``np_random``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, players: int = 4, opponents: Opponent | Sequence[Opponent] = "greedy",
                 seat: int | None = 0, render_mode: str | None = None, *,
                 ruleset: str = "age_of_sail", board: str | None = None,
                 exploits: tuple[str, ...] | str = (), seed: int | None = None,
                 options: Mapping[str, Any] | None = None, reward: str | RewardFn = "win",
                 max_decisions: int | None = None, illegal_penalty: float = -1.0,
                 opponent_budget: str | Mapping[str, Any] | None = None) -> None:
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.config = game_config(players, ruleset, board, exploits, options,
                                  0 if seed is None else seed)
        n = self.config.players
        self._first_seed = seed
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or None (a seat drawn at every "
                             f"reset), not {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self._opponents = self._resolve(opponents, opponent_budget, n)
        self.reward_name = reward if isinstance(reward, str) else "custom"
        self._reward = reward_function(reward)
        self.max_decisions = positive_or_none("max_decisions", max_decisions)
        self.illegal_penalty = float(illegal_penalty)
        low, high = observation_bounds()
        assert low.shape == (observation_size(self.config),)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: State | None = None
        self.bots: dict[int, Bot] = {}
        self.decisions = 0
        self.done = False
        self._encode = Observers()
        self._log: list[Event] | None = None
        self._rendered = 0

    @staticmethod
    def _resolve(opponents: Opponent | Sequence[Opponent],
                 budget: str | Mapping[str, Any] | None, n: int
                 ) -> list[tuple[str, dict[str, Any]] | Bot]:
        """The opponents of the seats after the agent's, in order: (name, budget) to
        make at each reset, or a bot object."""
        given: list[Opponent]
        if isinstance(opponents, str) or hasattr(opponents, "choose"):
            given = [opponents] * (n - 1)  # type: ignore[list-item]
        else:
            given = list(opponents)
            if len(given) == 1:
                given = given * (n - 1)
            if len(given) != n - 1:
                raise ValueError(f"opponents: give one bot for all, or {n - 1} (one per "
                                 f"other seat), not {len(given)}")
        out: list[tuple[str, dict[str, Any]] | Bot] = []
        for o in given:
            if isinstance(o, str):
                entrant = resolve_bots([o], budget)[0]  # ValueError for a bad name
                out.append((entrant.name, dict(entrant.budget)))
            elif hasattr(o, "choose"):
                out.append(o)
            else:
                raise ValueError(f"an opponent is a bot name or an object with "
                                 f"choose(state), not {o!r}")
        return out

    # ------------------------------------------------------------------ episode
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None and self._np_random is None:
            seed = self._first_seed
        super().reset(seed=seed)
        deal = int(seed) if seed is not None else int(self.np_random.integers(SEED_BOUND))
        n = self.config.players
        self.seat = (self.fixed_seat if self.fixed_seat is not None
                     else int(self.np_random.integers(n)))
        self.bots = {}
        for k, o in enumerate(self._opponents, 1):
            other = (self.seat + k) % n
            if isinstance(o, tuple):
                name, budget = o
                self.bots[other] = make(name, seed=bot_seed(deal, other), **budget)
            else:
                self.bots[other] = o
        game = self.game = new_game(with_seed(self.config, deal))
        self.decisions = 0
        self.done = False
        if self.render_mode is not None:
            self._log = [new_game_event(game)]
            self._rendered = 0
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._encode(game, self.seat), self._info()

    def _play_opponents(self) -> None:
        """The bots' decisions until the agent's seat decides or the game ends."""
        game = self.game
        assert game is not None
        bots, seat, log = self.bots, self.seat, self._log
        while not game.is_over:
            p = game.current_player
            if p == seat:
                return
            bot = bots[p]  # type: ignore[index]
            if log is not None:
                log += game.apply(bot.choose(game))
            else:
                choose_code = getattr(bot, "choose_code", None)  # the bots' fast path
                game.apply_code(choose_code(game) if choose_code is not None
                                else bot.choose(game).code)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        assert game is not None, "call reset() first"
        if self.done:
            gymnasium.logger.warn("step() after the episode ended: call reset()")
            return self._encode(game, self.seat), 0.0, True, False, self._info()
        code = self._code(action)
        if code is None:
            self.done = True
            info = self._info()
            info["illegal_action"] = True
            return self._encode(game, self.seat), self.illegal_penalty, True, False, info
        if self._log is None:
            game.apply_code(code)
        else:
            self._log += game.apply(BY_CODE[code])
        self.decisions += 1
        self._play_opponents()
        reward = 0.0
        terminated = truncated = False
        if game.is_over:
            terminated = self.done = True
            reward = float(self._reward(final_scores(game))[self.seat])
        elif self.max_decisions is not None and self.decisions >= self.max_decisions:
            truncated = self.done = True
        if self.render_mode == "human":
            self.render()
        return self._encode(game, self.seat), reward, terminated, truncated, self._info()

    def _code(self, action: Any) -> int | None:
        """The engine code of ``action`` if it is a legal action index, else None."""
        try:
            index = int(action)
        except (TypeError, ValueError):
            return None
        if not 0 <= index < NUM_ACTIONS:
            return None
        code = CODES[index]
        assert self.game is not None
        return code if code in self.game.legal_codes() else None

    def _info(self) -> dict[str, Any]:
        """A new info dict: the action mask; when the episode ends, the score pad."""
        game = self.game
        assert game is not None
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seat": self.seat}
        if self.done or game.is_over or (
                self.max_decisions is not None and self.decisions >= self.max_decisions):
            scores = final_scores(game)
            s = scores[self.seat]
            info.update(final_scores=score_pad(scores), score=s.total, rank=s.rank,
                        game_over=game.is_over)
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now: an ``int8`` vector of length
        ``NUM_ACTIONS`` (1: legal), all zeros once the episode is over. A new array on
        every call."""
        game = self.game
        if game is not None and not self.done and game.current_player == self.seat:
            return legal_mask(game)
        return empty_mask()

    # ------------------------------------------------------------------ render
    def _screen_title(self) -> str:
        return f"Endeavor-v0 · step {self.decisions}"

    def _screen_names(self) -> dict[int, str]:
        names = {p: getattr(b, "name", "bot") for p, b in self.bots.items()}
        names[self.seat] = "agent"
        return names

    def close(self) -> None:
        """Nothing to release (the screen is text)."""
