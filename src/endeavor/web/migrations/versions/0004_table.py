"""A table for a group: seats' names and presence, the chat, rematches, notification
choices (every turn or a digest) and the server's heartbeat (docs/web.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN (see 0002: a batch copy of a table would cascade deletes)
    # -- names and presence
    op.add_column("seats", sa.Column("named", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("seats", sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    op.add_column("seats", sa.Column("visible_until", sa.DateTime(timezone=True),
                                     nullable=True))
    # -- a seat given to a bot by the host: when
    op.add_column("seats", sa.Column("override_at", sa.DateTime(timezone=True),
                                     nullable=True))
    # -- chat: the last message a seat has seen or been told of
    op.add_column("seats", sa.Column("chat_seen", sa.Integer, nullable=False,
                                     server_default="0"))
    # -- rematch: this seat's token in the rematch game, handed to its holder
    op.add_column("seats", sa.Column("rematch_token", sa.String(64), nullable=True))
    op.add_column("games", sa.Column("rematch_of", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("rematch_id", sa.String(32), nullable=True))
    # -- notification choices
    op.add_column("notify", sa.Column("mode", sa.String(8), nullable=False,
                                      server_default="turn"))
    op.add_column("notify", sa.Column("last_sent", sa.DateTime(timezone=True),
                                      nullable=True))
    op.create_index("ix_notify_target", "notify", ["channel", "target"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("body", sa.String(2000), nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_chat_game", "chat", ["game_id", "id"])
    op.create_table(
        "heartbeat",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_index("ix_notify_target", table_name="notify")
    op.drop_table("heartbeat")
    op.drop_index("ix_chat_game", table_name="chat")
    op.drop_table("chat")
    for table, column in (("notify", "last_sent"), ("notify", "mode"),
                          ("games", "rematch_id"), ("games", "rematch_of"),
                          ("seats", "rematch_token"), ("seats", "chat_seen"),
                          ("seats", "override_at"), ("seats", "visible_until"),
                          ("seats", "last_seen"), ("seats", "named")):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
