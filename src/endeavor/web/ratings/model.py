"""The rating method and what it rates: the ruleset families, OpenSkill's Weng-Lin
model (its Plackett-Luce variant, ``mu`` 25 and ``sigma`` 25/3 for a newcomer) rating a
free-for-all game by its final places (ties share a place), the number shown (the
conservative ordinal ``mu - 3 sigma``, one decimal) and the bot levels' seed ratings
from the shipped calibration (``calibration.json``, made by ``endeavor ratings
calibrate``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

from openskill.models import PlackettLuce as _PL

FAMILIES: Final = ("age-of-sail", "classic", "silent-fleet")
#: the bot levels that are rated players, weakest first
LEVELS: Final = ("easy", "medium", "hard", "expert")
MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
CALIBRATION: Final = Path(__file__).resolve().parent / "calibration.json"

Rating = tuple[float, float]


def family_of(config: Mapping[str, Any]) -> str:
    """A game's ruleset family from its config (``GameConfig.to_dict()``): the 2009
    game (``classic``), the Silent Fleet (``silent-fleet``), else Age of Sail (with or
    without Exploits)."""
    if config.get("ruleset") == "classic":
        return "classic"
    options = config.get("options") or {}
    if isinstance(options, Mapping) and options.get("silent_fleet"):
        return "silent-fleet"
    return "age-of-sail"


@cache
def _model() -> Any:
    return _PL(mu=MU, sigma=SIGMA)


def rate(players: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """Each player's ``(mu, sigma)`` after a free-for-all game where player ``i``
    finished at ``places[i]`` (1 = first; equal places are ties)."""
    if len(players) != len(places) or len(players) < 2:
        raise ValueError("a rated game needs two players or more, each with a place")
    model = _model()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = model.rate(teams, ranks=[float(p) for p in places])
    return [(float(t[0].mu), float(t[0].sigma)) for t in rated]


def shown(mu: float, sigma: float) -> float:
    """The rating people see: the conservative ordinal ``mu - 3 sigma``, one decimal (a
    newcomer's is 0.0)."""
    return round(mu - 3.0 * sigma, 1) + 0.0


@cache
def _calibration() -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(CALIBRATION.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return data


def calibration() -> dict[str, Any]:
    """The shipped calibration (``calibration.json``) as JSON ({} without one)."""
    return _calibration()


def seed(level: str, family: str) -> Rating:
    """A bot level's first rating in ``family``: its calibrated ``(mu, sigma)``, else a
    newcomer's."""
    found = (_calibration().get("families", {}).get(family, {}).get(level))
    if not found:
        return MU, SIGMA
    return float(found["mu"]), float(found["sigma"])
