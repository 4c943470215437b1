"""Ratings: a game marked rated at its creation (``games.rated``), each rated game's
outcome (``game_ratings``), the players' and bot levels' ratings per ruleset family
(``ratings``) and each rated game's changes (``rating_history``); docs/web.md,
"Ratings".

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.create_table(
        "game_ratings",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("creator_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.String(64), nullable=True),
        sa.Column("queued", sa.DateTime(timezone=True), nullable=True),
        sa.Column("rated", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_game_ratings_status", "game_ratings", ["status"])
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ux_ratings_account", "ratings", ["account_id", "family"], unique=True)
    op.create_index("ux_ratings_bot", "ratings", ["bot", "family"], unique=True)
    op.create_table(
        "rating_history",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_account", "rating_history", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_account", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ux_ratings_bot", table_name="ratings")
    op.drop_index("ux_ratings_account", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_game_ratings_status", table_name="game_ratings")
    op.drop_table("game_ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
