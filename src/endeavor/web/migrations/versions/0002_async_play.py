"""Asynchronous play: the host's token, whose move it is, clocks and their deadlines, how
a game ended, re-issued links, bots playing for human seats, notification settings and
the outbox of notifications (docs/web.md).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN, which SQLite does in place (a batch copy of ``games`` would drop
    # the old table, and its ON DELETE CASCADE would empty seats and moves)
    for column in (sa.Column("host_hash", sa.String(64), nullable=True),
                   sa.Column("current_player", sa.Integer, nullable=True),
                   sa.Column("clock", sa.JSON, nullable=True),
                   sa.Column("banks", sa.JSON, nullable=True),
                   sa.Column("turn_started", sa.DateTime(timezone=True), nullable=True),
                   sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
                   sa.Column("claim_until", sa.DateTime(timezone=True), nullable=True),
                   sa.Column("ended", sa.String(16), nullable=True)):
        op.add_column("games", column)
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.add_column("seats", sa.Column("token_gen", sa.Integer, nullable=False,
                                     server_default="0"))
    op.add_column("seats", sa.Column("bot_override", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("override_reason", sa.String(16), nullable=True))
    op.add_column("moves", sa.Column("note", sa.String(64), nullable=True))
    op.create_table(
        "notify",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("channel", sa.String(16), primary_key=True),
        sa.Column("target", sa.String(512), nullable=False),
        sa.Column("link_token", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "outbox",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("channel", sa.String(16), primary_key=True),
        sa.Column("event", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
    )
    op.create_index("ix_outbox_due", "outbox", ["due"])


def downgrade() -> None:
    # (on SQLite, drop_column copies the table in batch mode: run a downgrade with
    # foreign keys off, or the copy of ``games`` cascades into seats and moves)
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.drop_table("outbox")
    op.drop_table("notify")
    with op.batch_alter_table("moves") as b:
        b.drop_column("note")
    with op.batch_alter_table("seats") as b:
        b.drop_column("override_reason")
        b.drop_column("bot_override")
        b.drop_column("token_gen")
    op.drop_index("ix_games_deadline", table_name="games")
    with op.batch_alter_table("games") as b:
        for name in ("ended", "claim_until", "deadline", "turn_started", "banks", "clock",
                     "current_player", "host_hash"):
            b.drop_column(name)
