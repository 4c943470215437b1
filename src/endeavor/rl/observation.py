"""The observation encoder: ``encode(state, player)`` -> ``numpy.float32`` vector,
seat-rotated so that the observer is always seat 0.

PLACEHOLDER (to be replaced by the full encoder, documented in docs/rl.md): the
signatures below are the contract the environments use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..config import GameConfig
from ..state import State

OBSERVATION_VERSION = 0
_SEATS = 5


def observation_size(config: GameConfig) -> int:
    """The length of every observation vector of games with this config (the same for
    every seat and every position of such a game)."""
    return 2 + _SEATS + 4 * _SEATS


def encode(state: State, player: int, out: Any = None) -> Any:
    """The observation of ``player`` (a seat): a ``float32`` vector of
    :func:`observation_size` (``out``: a vector to fill instead of a new one)."""
    size = observation_size(state.config)
    if out is None:
        out = np.zeros(size, dtype=np.float32)
    else:
        out.fill(0.0)
    n = state.config.players
    out[0] = state.round / 8.0
    out[1] = 1.0 if state.is_over else 0.0
    cp = state.current_player
    if cp is not None:
        out[2 + (cp - player) % n] = 1.0
    for k in range(n):
        seat = (player + k) % n
        for a in range(4):
            out[2 + _SEATS + 4 * k + a] = state.marker(seat, a) / 15.0
    return out


def describe(vector: Any, config: GameConfig) -> dict[str, Any]:
    """The vector back as named fields, for debugging."""
    return {"round": float(vector[0]) * 8.0, "over": bool(vector[1])}
