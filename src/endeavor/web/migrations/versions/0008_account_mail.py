"""Accounts by e-mail: an account's address and notification setting
(``account_settings``), the seats' settings it gives (``notify.account_id``), one-time
sign-in links (``signin_links``) and the account mails waiting to be sent
(``account_mail``) (docs/web.md, "Accounts by e-mail").

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "account_settings",
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                  autoincrement=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify_email", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("webhook", sa.String(512), nullable=True),
        sa.Column("email_mode", sa.String(8), nullable=False, server_default="turn"),
        sa.Column("webhook_mode", sa.String(8), nullable=False, server_default="turn"),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    # a seat's setting given by its account (NULL: the seat's own); the account's
    # deletion removes them
    with op.batch_alter_table("notify") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_notify_account", "accounts", ["account_id"], ["id"],
                                 ondelete="CASCADE")
        batch.create_index("ix_notify_account", ["account_id"])
    op.create_table(
        "signin_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "account_mail",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
    )
    op.create_index("ix_account_mail_due", "account_mail", ["due"])


def downgrade() -> None:
    op.drop_index("ix_account_mail_due", table_name="account_mail")
    op.drop_table("account_mail")
    op.drop_table("signin_links")
    with op.batch_alter_table("notify") as batch:
        batch.drop_index("ix_notify_account")
        batch.drop_constraint("fk_notify_account", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_table("account_settings")
