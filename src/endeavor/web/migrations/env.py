"""Alembic environment of the web app's database.

The app runs migrations with ``endeavor.web.db.upgrade``, which passes an open connection
(already in a transaction holding the migration lock) in ``config.attributes``. Run by the
``alembic`` command instead (``alembic -c src/endeavor/web/alembic.ini ...``), the URL
comes from ``$ENDEAVOR_DB`` or the ini's ``sqlalchemy.url``. No logging configuration is
loaded here: the server's logging is Uvicorn's.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine, pool

from endeavor.web.db import metadata

config = context.config
target_metadata = metadata


def _url() -> str:
    """The database to migrate: the app's own (``db.alembic_config`` names it, whatever
    the environment says), else, for a developer's ``alembic`` command, ``$ENDEAVOR_DB``
    or ``alembic.ini``'s URL."""
    given = config.attributes.get("endeavor_url")
    if given:
        return str(given)
    return os.environ.get("ENDEAVOR_DB") or config.get_main_option("sqlalchemy.url") or ""


def run_migrations_offline() -> None:
    """``alembic upgrade --sql``: emit the SQL without a database."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(_url(), poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            context.configure(connection=conn, target_metadata=target_metadata,
                              render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
