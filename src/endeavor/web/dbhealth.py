"""The database's health in words: which errors mean "the database cannot serve right now"
(a full disk, a read-only file, a lost or refusing PostgreSQL server) rather than a bug,
and the write check ``endeavor serve`` makes before it starts.

:func:`unavailable_reason` classifies an exception raised while using the database: a
short reason in words (``"the disk is full"``) when the database is unusable for now, or
None for an error that is a bug (a bad statement, a broken constraint). The API answers
the former with 503 and the reason (``endeavor.web.hardening``), the bots retry later, and
only the latter is a 500.

:func:`check_writable` proves at start that the server can write: on SQLite it rewrites
the database header's ``user_version`` with its own value in a ``BEGIN IMMEDIATE``
transaction and commits (a real write through the journal, refused on a read-only file
or directory and on a disk with no room for the journal, with no change to the schema or
the data); on PostgreSQL it inserts a scratch game row and rolls it back (which proves
the connection, the privileges and that the server is not read-only or a standby, but not
that its disk has room: PostgreSQL may buffer a rolled-back row without writing it, and a
full disk there is met at run time, as a 503).
"""

from __future__ import annotations

import secrets
import shutil
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Final

from sqlalchemy import Engine, event, insert
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from . import db

#: what a lost or refusing PostgreSQL server is called in the reasons
UNREACHABLE: Final = "the database server cannot be reached"

#: SQLite result codes (``sqlite3.Error.sqlite_errorname``, Python 3.11+, extended codes
#: reduced to their primary name) -> the reason in words
_SQLITE_CODES: Final = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_READONLY": "the database file is read-only",
    "SQLITE_PERM": "the database file is read-only",
    "SQLITE_CANTOPEN": "the database file cannot be opened",
    "SQLITE_IOERR": "the disk reports an I/O error (is it full, or the file gone?)",
    "SQLITE_BUSY": "the database is busy",
    "SQLITE_LOCKED": "the database is busy",
    "SQLITE_PROTOCOL": "the database is busy",
    "SQLITE_CORRUPT": "the database file is damaged",
    "SQLITE_NOTADB": "the database file is damaged",
    "SQLITE_NOLFS": "the database file is too large for this system",
}
#: the same by message, for Pythons whose sqlite3 errors carry no code (3.10)
_SQLITE_MESSAGES: Final = (
    ("disk is full", "SQLITE_FULL"),
    ("readonly", "SQLITE_READONLY"),
    ("read-only", "SQLITE_READONLY"),
    ("unable to open", "SQLITE_CANTOPEN"),
    ("disk i/o error", "SQLITE_IOERR"),
    ("database is locked", "SQLITE_BUSY"),
    ("database table is locked", "SQLITE_LOCKED"),
    ("malformed", "SQLITE_CORRUPT"),
    ("not a database", "SQLITE_NOTADB"),
)

#: PostgreSQL SQLSTATEs (exact, then by class: their first two characters) -> the reason
_PG_STATES: Final = {
    "53100": "the database server's disk is full",
    "53200": "the database server is out of memory",
    "53300": "the database server has too many connections",
    "25006": "the database is read-only",
    "42501": "the database refuses this server's writes (permission denied)",
    "3D000": "the database does not exist",
    "57014": "the database took too long",
    "40001": "the database is busy",
    "40P01": "the database is busy",
    "55P03": "the database is busy",
    "58030": "the database server reports an I/O error",
}
_PG_CLASSES: Final = {
    "08": UNREACHABLE,  # connection exception
    "28": "the database server refuses this server's login",
    "53": "the database server is out of resources",
    "57": UNREACHABLE,  # operator intervention: shutdown, terminated, starting up
    "58": "the database server reports a system error",
}


def _sqlite_reason(error: sqlite3.Error) -> str | None:
    name = getattr(error, "sqlite_errorname", None)
    if isinstance(name, str):
        for primary, reason in _SQLITE_CODES.items():
            if name == primary or name.startswith(primary + "_"):
                return reason
    message = str(error).lower()
    for needle, code in _SQLITE_MESSAGES:
        if needle in message:
            return _SQLITE_CODES[code]
    if isinstance(error, sqlite3.OperationalError):
        return "the database is unavailable"
    return None


def _pg_reason(error: BaseException) -> str | None:
    """The reason for a psycopg error (duck-typed: psycopg may not be installed)."""
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str) and state:
        return _PG_STATES.get(state) or _PG_CLASSES.get(state[:2])
    return None


def unavailable_reason(error: BaseException) -> str | None:
    """Why the database cannot serve right now, in a few words, when ``error`` (raised by
    SQLAlchemy or a driver) says so: the disk is full, the file is read-only, the server
    cannot be reached or refuses writes, ... None when ``error`` is not about the
    database being unusable (a bug: a bad statement, a broken constraint, anything
    else)."""
    if isinstance(error, PoolTimeoutError):
        return "the server is too busy (no database connection is free)"
    if isinstance(error, DisconnectionError):
        return UNREACHABLE
    orig: BaseException | None = error
    invalidated = False
    if isinstance(error, DBAPIError):
        orig = error.orig
        invalidated = bool(error.connection_invalidated)
    elif isinstance(error, SQLAlchemyError):
        return None
    if isinstance(orig, sqlite3.Error):
        return _sqlite_reason(orig)
    if orig is not None:
        reason = _pg_reason(orig)
        if reason is not None:
            return reason
    if invalidated:
        return UNREACHABLE
    # a driver's connection-level error without a SQLSTATE (psycopg's "connection failed",
    # "server closed the connection unexpectedly", ...): DB-API's OperationalError and
    # InterfaceError are about the database's operation, not the statement
    kinds = {k.__name__ for k in type(orig).__mro__} if orig is not None else set()
    if isinstance(error, DBAPIError) and (
            "OperationalError" in kinds or "InterfaceError" in kinds):
        return UNREACHABLE if _is_pg(orig) else "the database is unavailable"
    return None


def _is_pg(error: BaseException | None) -> bool:
    return error is not None and type(error).__module__.startswith("psycopg")


#: the attribute :func:`watch` sets on an error raised while opening a connection
_CONNECTING: Final = "endeavor_while_connecting"


def watch(engine: Engine) -> None:
    """Mark the errors ``engine`` raises while opening a connection (nothing can have been
    written then), for :func:`outcome_unknown`."""

    @event.listens_for(engine, "handle_error")
    def _mark(context: ExceptionContext) -> None:
        if context.connection is None and context.sqlalchemy_exception is not None:
            setattr(context.sqlalchemy_exception, _CONNECTING, True)


def outcome_unknown(error: BaseException) -> bool:
    """Whether a write that failed with ``error`` may nevertheless have been committed:
    the connection was lost while the COMMIT itself was under way (SQLAlchemy reports no
    statement then, as it does for a failure to connect, which :func:`watch` marks). A
    failure at a statement of the transaction, or to connect, or any failure that is not
    a lost connection, left nothing committed."""
    if not isinstance(error, DBAPIError) or error.statement is not None:
        return False
    if getattr(error, _CONNECTING, False):
        return False
    return unavailable_reason(error) == UNREACHABLE


def full_disk_hint(url: str, message: str) -> str:
    """``"; the disk holding it is full"`` when ``url`` is a SQLite file on a disk with no
    room left and ``message`` does not say so already; else ``""``."""
    if "full" in message:
        return ""
    try:
        parsed = make_url(url)
    except Exception:
        return ""
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return ""
    try:
        free = shutil.disk_usage(Path(parsed.database).parent).free
    except OSError:
        return ""
    return "; the disk holding it is full" if free < _NEARLY_FULL else ""


#: free bytes below which a disk counts as full (a commit needs a few pages of journal)
_NEARLY_FULL: Final = 64 * 1024


# --------------------------------------------------------------------------- start
def check_writable(engine: Engine) -> None:
    """Prove that the server can write to ``engine``'s database, changing nothing (see
    the module's docstring). Raises :class:`endeavor.web.db.DatabaseError` with the
    reason in one line."""
    where = db.describe_url(engine.url.render_as_string(hide_password=False))
    try:
        if engine.dialect.name == "sqlite":
            _check_sqlite(engine)
        else:
            _check_by_rollback(engine)
    except (SQLAlchemyError, sqlite3.Error) as e:
        reason = unavailable_reason(e)
        if reason is None:
            detail = e.orig if isinstance(e, DBAPIError) else e
            reason = " ".join(str(detail).split())
        raise db.DatabaseError(f"cannot write to database {where}: {reason}") from None


def _check_sqlite(engine: Engine) -> None:
    if engine.url.database in (None, "", ":memory:"):
        return  # nothing on disk to check
    raw = engine.raw_connection()
    try:
        conn = raw.driver_connection
        if not isinstance(conn, sqlite3.Connection):
            return
        level = conn.isolation_level
        conn.isolation_level = None  # we say BEGIN and COMMIT ourselves
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("PRAGMA user_version").fetchone()
                version = int(row[0]) if row else 0
                # the header's user_version set to its own value: page 1 is written
                # through the journal and the database, as any commit would be
                conn.execute(f"PRAGMA user_version = {version}")
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        finally:
            conn.isolation_level = level
    finally:
        raw.close()


def _check_by_rollback(engine: Engine) -> None:
    scratch = "~write-check-" + secrets.token_hex(9)  # 31 characters: fits games.id
    with engine.connect() as conn:
        tx = conn.begin()
        try:
            conn.execute(insert(db.games).values(
                id=scratch, created=datetime.now(timezone.utc), config={}, seats=0, seq=0,
                over=False, title="write check (rolled back)"))
        finally:
            tx.rollback()
