"""The language of a seat's notifications: ``notify.lang`` (``en`` for the settings
saved before it; docs/web.md, "Notifications").

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN (see 0002: a batch copy of a table would cascade deletes)
    op.add_column("notify", sa.Column("lang", sa.String(8), nullable=False,
                                      server_default="en"))


def downgrade() -> None:
    with op.batch_alter_table("notify") as batch:
        batch.drop_column("lang")
