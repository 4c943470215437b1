"""Endeavor as a PettingZoo AEC environment: ``endeavor.rl.env(players=4, ...)``.

Agents are ``player_0`` … ``player_{n-1}`` (the seats; the Silent Fleet is no agent: its
choices are made by the seat that acted, as in the engine). ``agent_selection`` is the
seat that decides now, which is not always the next in turn order: a discard, a
casualty, a Governor slot or a Silent Fleet choice is asked of the seat the rules name.
Each agent observes ``{"observation": float32 vector, "action_mask": int8 vector}``
(:mod:`endeavor.encoding.observation`, :mod:`endeavor.encoding.actions`); the mask is all zeros but
for the agent to move. Every agent is terminated when the game ends, with its reward
(:mod:`endeavor.rl.rewards`) and the score pad in ``infos``; ``max_decisions`` truncates
an episode after that many decisions.

``env(...)`` behaves as PettingZoo's classic games do (an illegal action ends the game
with ``illegal_reward``, -1, for its agent; calls out of order raise); ``raw_env(...)``
raises :class:`~endeavor.IllegalActionError` for an illegal action instead (unless given
``illegal_reward``). Either raises ``ValueError`` for an action outside the action
space.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .common import missing

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv  # type: ignore[import-untyped]  # no type hints
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
except ImportError as _error:  # pragma: no cover - the rl extra installs both
    raise missing("PettingZoo and Gymnasium", _error) from _error

from ..actions import BY_CODE
from ..encoding.actions import CODES, NUM_ACTIONS
from ..encoding.actions import mask as legal_mask
from ..encoding.observation import observation_bounds, observation_size
from ..errors import IllegalActionError
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

NAME = "endeavor_v0"


def env(illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """The environment as PettingZoo's classic games come: an illegal action ends the
    game with ``illegal_reward`` for the agent that chose it (0 for the others), and
    calls out of order (``step``, ``observe``, ``render`` before ``reset``) raise.
    ``kwargs`` are :class:`raw_env`'s."""
    return OrderEnforcing(raw_env(illegal_reward=illegal_reward, **kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's :class:`OrderEnforcingWrapper`, with what every loop calls
    (``agent_iter()``, ``last()``, ``step()``, ``agent_selection``, ``agents``) passed to
    the environment directly instead of through ``__getattr__`` and PettingZoo's chain of
    iterators: the same checks, a few microseconds less a step.
    (The illegal-action and out-of-range checks of PettingZoo's other two usual
    wrappers are :class:`raw_env`'s own: see ``illegal_reward``.)"""

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:  # the usual case, without the detour
            self._has_updated = True
            self.env.step(action)
        else:  # PettingZoo's error before reset, its warning after the end
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterator:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before agent_iter().")
        return AgentIterator(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class AgentIterator:
    """What :meth:`OrderEnforcing.agent_iter` returns: the agent to act, as long as there
    are agents (at most ``max_iter`` times), with PettingZoo's check that ``step()`` (or
    ``reset()``) was called between two agents; one call a step instead of PettingZoo's
    chain of iterator classes and properties."""

    __slots__ = ("left", "raw", "wrapper")

    def __init__(self, wrapper: OrderEnforcing, max_iter: int) -> None:
        self.wrapper = wrapper
        self.raw = wrapper.env
        self.left = max_iter

    def __iter__(self) -> AgentIterator:
        return self

    def __next__(self) -> str:
        raw = self.raw
        if not raw.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        wrapper = self.wrapper
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection  # type: ignore[no-any-return]


class raw_env(ScreenLog, AECEnv):  # type: ignore[misc]  # PettingZoo has no type hints
    """Endeavor for ``players`` seats, one agent each.

    Game settings are :class:`~endeavor.GameConfig`'s fields: ``players``, ``ruleset``,
    ``board``, ``exploits`` and ``options``; ``seed`` seeds the first :meth:`reset`
    without a seed (default: fresh entropy). ``reward``: ``"win"``, ``"rank"``,
    ``"score"`` or a function of the final scores (:mod:`endeavor.rl.rewards`).
    ``max_decisions``: truncate every agent after that many decisions (default: play to
    the end). ``illegal_reward``: None (default) raises
    :class:`~endeavor.IllegalActionError` for an illegal action, the game unchanged; a
    number ends the game instead (every agent terminated, that reward for the agent that
    chose it, 0 for the others, ``infos[agent]["illegal_action"] = True``), as
    PettingZoo's ``TerminateIllegalWrapper`` does (:func:`env` passes -1).
    ``render_mode="ansi"``: :meth:`render` returns the terminal screen; ``"human"``
    prints it after every step.

    ``reset(seed=S)`` deals the game of ``GameConfig(seed=S)`` (the deal of ``endeavor
    play --seed S``); a reset without a seed deals from a generator seeded by the last
    seed given, so a seeded run of episodes is the same run every time.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": NAME,
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, players: int = 4, render_mode: str | None = None, *,
                 ruleset: str = "age_of_sail", board: str | None = None,
                 exploits: tuple[str, ...] | str = (), seed: int | None = None,
                 options: Mapping[str, Any] | None = None, reward: str | RewardFn = "win",
                 max_decisions: int | None = None, illegal_reward: float | None = None
                 ) -> None:
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.config = game_config(players, ruleset, board, exploits, options,
                                  0 if seed is None else seed)
        self._first_seed = seed
        self.reward_name = reward if isinstance(reward, str) else "custom"
        self._reward = reward_function(reward)
        self.max_decisions = positive_or_none("max_decisions", max_decisions)
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        n = self.config.players
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = observation_bounds()
        assert low.shape == (observation_size(self.config),)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        #: the global state (:meth:`state`): the game has no hidden information, so it is
        #: seat 0's observation
        self.state_space = spaces.Box(low, high, dtype=np.float32)
        self.game: State | None = None
        self.decisions = 0
        self._encode = Observers()
        self._np_random: np.random.Generator | None = None
        self._log: list[Event] | None = None
        self._rendered = 0

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None and self._np_random is None:
            seed = self._first_seed
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            deal = int(seed)
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random()
            deal = int(self._np_random.integers(SEED_BOUND))
        game = self.game = new_game(with_seed(self.config, deal))
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        assert game.current_player is not None
        self.agent_selection = self.possible_agents[game.current_player]
        if self.render_mode is not None:
            self._log = [new_game_event(game)]
            self._rendered = 0
            if self.render_mode == "human":
                self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if action is None:
            raise ValueError(f"{agent} must choose an action index, not None")
        index = int(action)
        if not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action {action!r} is outside 0..{NUM_ACTIONS - 1}")
        try:
            if self._log is None:
                game.apply_code(CODES[index])  # IllegalActionError, the game unchanged
            else:
                self._log += game.apply(BY_CODE[CODES[index]])
        except IllegalActionError:
            if self.illegal_reward is None:
                raise
            self._illegal(agent, self.illegal_reward)
            return
        self._cumulative_rewards[agent] = 0.0
        self.decisions += 1
        if game.is_over:
            self._end(True)
        elif self.max_decisions is not None and self.decisions >= self.max_decisions:
            self._end(False)
        else:
            self.agent_selection = self.possible_agents[game.current_player]  # type: ignore[index]
        if self.render_mode == "human":
            self.render()

    def _end(self, over: bool) -> None:
        """Terminate every agent (``over``: the game ended) with its reward, or truncate
        them all; either way each agent's info gets the score pad (as it stands when
        truncated)."""
        assert self.game is not None
        scores = final_scores(self.game)
        if over:
            values = self._reward(scores)
            for a, v in zip(self.agents, values, strict=True):
                self.rewards[a] = float(v)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.truncations = dict.fromkeys(self.agents, True)
        for a in self.agents:
            s = scores[self._seat[a]]
            self.infos[a] = {"final_scores": score_pad(scores), "score": s.total,
                             "rank": s.rank, "game_over": over}
        self._accumulate_rewards()

    def _illegal(self, agent: str, reward: float) -> None:
        """End the game after ``agent``'s illegal action: every agent terminated,
        ``reward`` for ``agent``."""
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
            self.infos[a] = {"illegal_action": True, "agent": agent}
        self.rewards[agent] = reward
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    # ------------------------------------------------------------------ observations
    def observe(self, agent: str) -> dict[str, Any]:
        game = self.game
        assert game is not None, "call reset() first"
        if (agent == self.agent_selection and not self.terminations.get(agent, True)
                and not self.truncations.get(agent, True)):
            mask = legal_mask(game)
        else:
            mask = empty_mask()
        return {"observation": self._encode(game, self._seat[agent]), "action_mask": mask}

    def state(self) -> Any:
        """The whole position as one vector (seat 0's observation: nothing is hidden)."""
        assert self.game is not None, "call reset() first"
        return self._encode(self.game, 0)

    # ------------------------------------------------------------------ render
    def _screen_title(self) -> str:
        return f"{NAME} · decision {self.decisions}"

    def _screen_names(self) -> dict[int, str]:
        return dict(enumerate(self.possible_agents))

    def close(self) -> None:
        """Nothing to release (the screen is text)."""
