"""The ratings' tables (migration 0007), on :data:`endeavor.web.db.metadata` beside the
games' (tests/web/test_persistence.py checks they agree with the migrations):
``game_ratings`` (each rated game's outcome), ``ratings`` (an account's or a bot
level's rating per ruleset family) and ``rating_history`` (each rated game's changes,
one row per seat). The ``rated`` flag itself is a column of ``games``."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Float, ForeignKey, Index, Integer, String, Table

from .. import db
from ..accounts import tables as _accounts  # noqa: F401  (the accounts' table first)

metadata = db.metadata

#: a rated game's outcome: ``status`` ``playing`` (not over yet), ``pending`` (over,
#: waiting for the rating job), ``done`` or ``unrated`` (``reason``: why, as a code: ``host_ended``,
#: ``too_few`` or ``unclaimed:<seats>``, said in words by the game view);
#: ``creator_id`` the account that created it (None once that account is deleted)
game_ratings = Table(
    "game_ratings", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("family", String(16), nullable=False),
    Column("creator_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL"),
           nullable=True),
    Column("status", String(16), nullable=False),
    Column("reason", String(64), nullable=True),
    Column("queued", DateTime(timezone=True), nullable=True),
    Column("rated", DateTime(timezone=True), nullable=True),
    Index("ix_game_ratings_status", "status"),
)

#: a player's rating in a ruleset family: an account's (``account_id``) or a bot
#: level's (``bot``), OpenSkill's ``mu`` and ``sigma``, the rated games it counts
ratings = Table(
    "ratings", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=True),
    Column("bot", String(16), nullable=True),
    Column("family", String(16), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Index("ux_ratings_account", "account_id", "family", unique=True),
    Index("ux_ratings_bot", "bot", "family", unique=True),
)

#: one seat of a rated game: who played it (an account or a bot level), its final place
#: and the rating before and after the game
rating_history = Table(
    "rating_history", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=True),
    Column("bot", String(16), nullable=True),
    Column("family", String(16), nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_account", "account_id", "at"),
)
