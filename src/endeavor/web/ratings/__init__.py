"""Ratings of people and bots (docs/web.md, "Ratings"): one rating per account and per
bot level in each ruleset family, OpenSkill's Weng-Lin model (:mod:`.model`) applied
when a rated game ends, by a job of the database's queue (:mod:`.service`); the bot
levels seeded by a calibration of bot tournaments (:mod:`.calibrate`,
``calibration.json``); rated games' creation (:mod:`.games`); the leaderboard, the
players' profiles and a game's rating changes as the API gives them (:mod:`.board`)."""

from __future__ import annotations

from . import tables
from .model import FAMILIES, LEVELS, family_of, rate, shown
from .service import Rater

__all__ = ["FAMILIES", "LEVELS", "Rater", "family_of", "rate", "shown", "tables"]
