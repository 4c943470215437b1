"""Fixtures shared by the engine's and the bots' tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from endeavor.bots import mcts


@pytest.fixture
def ticking_clock() -> Iterator[str]:
    """A clock in :data:`~endeavor.bots.mcts.CLOCKS` that moves a millisecond each time
    it is read: a time budget that is the same on every machine."""
    ticks = [0.0]

    def tick() -> float:
        ticks[0] += 0.001
        return ticks[0]
    mcts.CLOCKS["ticks"] = tick
    yield "ticks"
    del mcts.CLOCKS["ticks"]
