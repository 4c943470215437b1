"""Optional accounts: accounts, their sessions, the seats they claimed, failed
sign-ins (the limiter) and password-reset links (docs/web.md, "Accounts").

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "seat_claims",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("link_token", sa.String(64), nullable=False),
        sa.Column("claimed", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seat_claims_account", "seat_claims", ["account_id"])
    op.create_table(
        "signin_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_signin_failures_key", "signin_failures", ["key", "at"])
    op.create_index("ix_signin_failures_at", "signin_failures", ["at"])
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("password_resets")
    op.drop_index("ix_signin_failures_at", table_name="signin_failures")
    op.drop_index("ix_signin_failures_key", table_name="signin_failures")
    op.drop_table("signin_failures")
    op.drop_index("ix_seat_claims_account", table_name="seat_claims")
    op.drop_table("seat_claims")
    op.drop_index("ix_account_sessions_account", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
