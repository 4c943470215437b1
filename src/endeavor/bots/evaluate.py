"""Position evaluation shared by the bots.

``evaluate(state)`` estimates each seat's final glory (index = seat). This first
version is the position scored as if the game ended now; the greedy bot's work
replaces it with an estimate of the end-of-game score.
"""

from __future__ import annotations

from ..scoring import final_scores
from ..state import State


def evaluate(state: State) -> list[float]:
    """Estimated final glory per seat (index = seat)."""
    return [float(s.total) for s in final_scores(state)]
