"""Final scoring (R19, R20): see :mod:`endeavor.rules.scoring`."""

from __future__ import annotations

from .rules.scoring import (
    LINE_NAMES,
    ScoreBreakdown,
    buildings_and_cards,
    cities_and_links,
    final_scores,
    score_lines,
)

__all__ = ["LINE_NAMES", "ScoreBreakdown", "buildings_and_cards", "cities_and_links",
           "final_scores", "score_lines"]
