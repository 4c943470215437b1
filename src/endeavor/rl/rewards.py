"""The rewards of the environments, chosen by name, and the score pad they report.

Every reward is paid once, when the game ends (0 after every other decision; a game
cut short by ``max_decisions`` pays nothing). Each is computed from
:func:`endeavor.final_scores` (``total`` glory and ``rank``; seats with equal glory
share a rank):

``"win"`` (the default)
    A share of 1 among the winners: ``1/k`` to each of the ``k`` seats ranked first,
    0 to the others. The seats' rewards add up to 1; its expectation is a win share
    (the tournament's measure).
``"rank"``
    The finishing place on a line from 1 (first) to 0 (last): place ``i`` of ``n``
    (0-based) is worth ``(n - 1 - i) / (n - 1)``, and seats that tie share the mean
    of the places they take together. The seats' rewards add up to ``n / 2``.
``"score"``
    The final glory, scaled: ``total / 100`` (seats end a game with about 10 to 45
    glory in random play, 35 to 65 when the ``greedy`` bot plays every seat).

A callable may be passed instead of a name: ``reward(scores)`` gets the list of
:class:`~endeavor.ScoreBreakdown` (one per seat) and returns one float per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..scoring import ScoreBreakdown

#: the reward names, the default first
REWARDS = ("win", "rank", "score")
#: glory per unit of the ``"score"`` reward
SCORE_SCALE = 100.0

RewardFn = Callable[[Sequence[ScoreBreakdown]], Sequence[float]]


def win_rewards(scores: Sequence[ScoreBreakdown]) -> list[float]:
    """``1/k`` to each of the ``k`` seats ranked first, 0 to the others."""
    k = sum(1 for s in scores if s.rank == 1)
    return [1.0 / k if s.rank == 1 else 0.0 for s in scores]


def rank_rewards(scores: Sequence[ScoreBreakdown]) -> list[float]:
    """Place ``i`` (0-based) of ``n`` is worth ``(n - 1 - i) / (n - 1)``; a tie shares the
    mean of the places it takes (ranks are shared, ``1, 1, 3``: the first two take places
    0 and 1)."""
    n = len(scores)
    if n < 2:
        return [1.0] * n
    out = []
    for s in scores:
        tied = sum(1 for o in scores if o.rank == s.rank)
        first = s.rank - 1  # the first place the tied group takes
        mean_place = first + (tied - 1) / 2.0
        out.append((n - 1 - mean_place) / (n - 1))
    return out


def score_rewards(scores: Sequence[ScoreBreakdown]) -> list[float]:
    """Each seat's final glory divided by :data:`SCORE_SCALE`."""
    return [s.total / SCORE_SCALE for s in scores]


_BY_NAME: dict[str, RewardFn] = {"win": win_rewards, "rank": rank_rewards,
                                 "score": score_rewards}


def reward_function(reward: str | RewardFn) -> RewardFn:
    """The reward function named ``reward`` (one of :data:`REWARDS`), or ``reward`` itself
    when it is callable. Raises ``ValueError`` for an unknown name."""
    if callable(reward):
        return reward
    if isinstance(reward, str) and reward.strip().lower() in _BY_NAME:
        return _BY_NAME[reward.strip().lower()]
    raise ValueError(f"unknown reward {reward!r}: choose one of {', '.join(REWARDS)} "
                     "or pass a function of the final scores")


def score_pad(scores: Sequence[ScoreBreakdown]) -> list[dict[str, Any]]:
    """The score pad as plain data, one dict per seat: ``player``, ``total``, ``rank``
    and ``lines`` (line name -> glory, in pad order). New objects on every call."""
    return [{"player": s.player, "total": s.total, "rank": s.rank, "lines": dict(s.lines)}
            for s in scores]
