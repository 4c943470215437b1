"""The web app's database: the tables (``games``, ``seats``, ``moves``, ``notify``,
``outbox``, ``reviews``, ``chat``, ``heartbeat``; the accounts' are on the same ``metadata``
in :mod:`endeavor.web.accounts.tables`), engine creation for SQLite and PostgreSQL, and
the Alembic upgrade run when the app starts.

The tables are declared here with SQLAlchemy Core so the store can query them, but the
schema is created only by the Alembic migrations in ``migrations/`` (the one source of
the schema; ``tests/web/test_persistence.py`` checks the two agree). ``upgrade(engine)``
runs ``alembic upgrade head`` under a database lock, so several Uvicorn workers starting
at once on one database migrate it exactly once.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool, StaticPool

log = logging.getLogger("endeavor.web")

#: the Alembic environment: in the package, so migrations run from any directory or wheel
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: the database used when neither ``--db`` nor ``$ENDEAVOR_DB`` names one
DEFAULT_URL = "sqlite:///endeavor.db"
ENV_VAR = "ENDEAVOR_DB"
#: how long a SQLite connection waits for another writer before giving up (seconds)
SQLITE_BUSY_SECONDS = 5.0
#: how old a pooled PostgreSQL connection may get before it is replaced (seconds)
POOL_RECYCLE_SECONDS = 1800
#: PostgreSQL connections kept open by default (the app asks for one a database thread)
POOL_SIZE = 10
#: connections opened beyond the pool in a burst (each a new login, closed once returned)
POOL_OVERFLOW = 4
#: the PostgreSQL advisory lock key that serialises migrations (any fixed 64-bit int)
_PG_MIGRATION_LOCK = 0x656E646561766F72  # "endeavor"

metadata = MetaData()

#: one row per game: its config (exactly ``record()["config"]``), the log's length, and
#: what the log's writers keep beside it in the same transaction: whose move it is, the
#: clock (its settings, the seats' banks, when the running decision started and ends,
#: which worker has claimed an expired deadline) and how the game ended
games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("config", JSON, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("seq", Integer, nullable=False, default=0),
    Column("over", Boolean, nullable=False, default=False),
    Column("title", String(200), nullable=False, default=""),
    # 0002: host, whose move, clocks, ending
    Column("host_hash", String(64), nullable=True),
    Column("current_player", Integer, nullable=True),
    Column("clock", JSON, nullable=True),
    Column("banks", JSON, nullable=True),
    Column("turn_started", DateTime(timezone=True), nullable=True),
    Column("deadline", DateTime(timezone=True), nullable=True),
    Column("claim_until", DateTime(timezone=True), nullable=True),
    Column("ended", String(16), nullable=True),
    # 0004: a rematch: the game this one is the rematch of, and this game's rematch
    Column("rematch_of", String(32), nullable=True),
    Column("rematch_id", String(32), nullable=True),
    # 0007: the game is rated (its outcome: the ``game_ratings`` table, web/ratings)
    Column("rated", Boolean, nullable=False, server_default=text("false")),
    Index("ix_games_created", "created"),
    Index("ix_games_deadline", "deadline"),
)

#: one row per seat; hot-seat seats of a game share one token (so one hash). A seat's
#: token is derived from the host's token and ``token_gen`` (see ``store.seat_token``)
seats = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("name", String(64), nullable=False),
    # 0002: re-issued links, a bot playing for a human seat (put there by the host or
    # by a clock running out) and why
    Column("token_gen", Integer, nullable=False, default=0),
    Column("bot_override", String(32), nullable=True),
    Column("override_reason", String(16), nullable=True),
    # 0004: ``named``: the name was chosen (by the host or the seat's player), not the
    # default; when the seat's page was last open (``last_seen``) and until when it is
    # open and visible (``visible_until``, renewed by the page while it is); when the
    # host gave the seat to a bot (``override_at``); the last chat message the seat has
    # seen or been told of (``chat_seen``); the seat's token in the rematch game, handed
    # to this seat's holder (``rematch_token``)
    Column("named", Boolean, nullable=False, default=False),
    Column("last_seen", DateTime(timezone=True), nullable=True),
    Column("visible_until", DateTime(timezone=True), nullable=True),
    Column("override_at", DateTime(timezone=True), nullable=True),
    Column("chat_seen", Integer, nullable=False, default=0),
    Column("rematch_token", String(64), nullable=True),
    Index("ix_seats_token_hash", "token_hash"),
)

#: the append-only log: ``(game_id, seq)`` is the primary key, so two writers racing for
#: the same ``seq`` cannot both commit. ``kind``: ``action``, ``undo`` or ``host`` (a
#: change of seats, clocks or the game's end, made by the host or a seat: ``action``
#: holds its short notation); ``note``: how an action came about when not by its seat's
#: player (``timeout:<bot>``: the clock ran out and that bot played it)
moves = Table(
    "moves", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),
    Column("action", String(64), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("note", String(64), nullable=True),
)

#: a seat's notification settings, one row per channel (``webhook``: a URL; ``email``: an
#: address); ``link_token``, the seat's token, lets a message carry the seat's link
notify = Table(
    "notify", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("channel", String(16), primary_key=True),
    Column("target", String(512), nullable=False),
    Column("link_token", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    # 0004: ``turn``: every turn; ``digest``: at most one a period (since ``last_sent``)
    Column("mode", String(8), nullable=False, default="turn"),
    Column("last_sent", DateTime(timezone=True), nullable=True),
    # 0005: its messages' language (the locale of the request that saved the settings)
    Column("lang", String(8), nullable=False, default="en", server_default="en"),
    # 0008: set by the seat's account, while the seat has none of its own (NULL: its own)
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    # 0004: the settings of one address (a shared webhook, a digest's period)
    Index("ix_notify_target", "channel", "target"),
)

#: notifications waiting to be sent: at most one row per (game, seat, channel), inserted
#: in the transaction of the move that calls for it (so a crash loses none), claimed by
#: one worker at a time (``lease_until``), deleted once sent or given up. What a message
#: says is read when it is sent, from the game as it then stands
outbox = Table(
    "outbox", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("channel", String(16), primary_key=True),
    Column("event", String(16), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("due", DateTime(timezone=True), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    Column("last_error", String(200), nullable=True),
    Index("ix_outbox_due", "due"),
)


#: a finished game's post-game review (:mod:`endeavor.web.reviews`): at most one row per
#: game, written in the transaction of the entry that ends the game (``seq``: that
#: entry; a game ended again after an undo resets its row), or on request. ``status``:
#: ``queued``, ``running`` (claimed by one worker, ``worker`` and ``lease_until``, the
#: lease renewed while it runs), ``done`` or ``failed`` (``error`` in words). While it
#: runs: ``done`` of ``total`` decisions and ``partial``, the decisions reviewed so far
#: (JSON), from which a worker taking over an interrupted review resumes. Once done:
#: ``result``, the review's JSON (``endeavor.analysis.review.Review.to_json``), and ``moves``,
#: each decision's moves in words with their click targets (JSON)
reviews = Table(
    "reviews", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("iterations", Integer, nullable=False),
    Column("done", Integer, nullable=False, default=0),
    Column("total", Integer, nullable=True),
    Column("attempts", Integer, nullable=False, default=0),
    Column("worker", String(32), nullable=True),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    Column("error", String(200), nullable=True),
    Column("partial", Text, nullable=True),
    Column("result", Text, nullable=True),
    Column("moves", Text, nullable=True),
    Column("queued", DateTime(timezone=True), nullable=False),
    Column("started", DateTime(timezone=True), nullable=True),
    Column("finished", DateTime(timezone=True), nullable=True),
    Index("ix_reviews_status", "status", "queued"),
)


#: a game's chat (0004): append-only; ``deleted``: removed by the host (kept as a row so
#: ids stay in order, its body no longer shown)
chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("body", String(2000), nullable=False),
    Column("deleted", Boolean, nullable=False, default=False),
    Index("ix_chat_game", "game_id", "id"),
)

#: when the server was last known to be up (0004): ``name`` ``server``, renewed every
#: few seconds by a running server, so a start after an outage knows how long it lasted
heartbeat = Table(
    "heartbeat", metadata,
    Column("name", String(32), primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
)


class DatabaseError(Exception):
    """The database URL is unusable or the database cannot be reached or migrated; the
    message says why in one line (``endeavor serve`` prints it)."""


def resolve_url(url: str | None) -> str:
    """The URL to use: ``url``, else ``$ENDEAVOR_DB``, else ``sqlite:///endeavor.db``. A
    relative SQLite path is made absolute (relative to the current directory), so worker
    processes and log lines name the same file."""
    import os

    raw = url or os.environ.get(ENV_VAR) or DEFAULT_URL
    try:
        parsed = make_url(raw)
    except Exception as e:  # ArgumentError, ValueError: not a URL at all
        raise DatabaseError(f"bad database URL {raw!r}: {e}") from None
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        path = Path(parsed.database)
        if not path.is_absolute() and not parsed.database.startswith("file:"):
            parsed = parsed.set(database=str(path.resolve()))
            return parsed.render_as_string(hide_password=False)
    return raw


def describe_url(url: str) -> str:
    """The URL for a log line or the console: the password hidden; a SQLite file as its
    path."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return f"SQLite {parsed.database or ':memory:'}"
    return parsed.render_as_string(hide_password=True)


def _is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Each new SQLite connection: WAL (readers never block the writer), a busy timeout
    (a writer waits for another instead of failing at once), foreign keys enforced."""
    cur = dbapi_connection.cursor()
    try:
        cur.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_SECONDS * 1000)}")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA synchronous = NORMAL")
        mode = cur.execute("PRAGMA journal_mode").fetchone()
        if not mode or str(mode[0]).lower() != "wal":
            _retry_locked(lambda: cur.execute("PRAGMA journal_mode = WAL"))
    finally:
        cur.close()


def _retry_locked(fn: Any, attempts: int = 50) -> None:
    """Run ``fn``, retrying while SQLite says the database is locked (switching to WAL
    needs a moment alone with the file when several processes start at once)."""
    import sqlite3

    for i in range(attempts):
        try:
            fn()
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or i == attempts - 1:
                raise
            time.sleep(0.1)


def make_engine(url: str | None = None, *, pool_size: int = POOL_SIZE) -> Engine:
    """A SQLAlchemy engine for ``url`` (see :func:`resolve_url`). SQLite: WAL mode, a
    busy timeout and foreign keys on every connection, usable from any thread (the app
    serves requests from a thread pool); an in-memory database shares one connection.
    PostgreSQL: ``postgresql+psycopg://...`` with ``pool_size`` connections kept open
    (size it to the threads that use the database at once, so connections are reused:
    an overflow connection is a new login each time) and :data:`POOL_OVERFLOW` more in a
    burst, not pinged before each use (see :meth:`endeavor.web.store.Store.read`).
    Raises :class:`DatabaseError` for a URL that names no usable driver."""
    resolved = resolve_url(url)
    parsed = make_url(resolved)
    kwargs: dict[str, Any] = {}
    if _is_sqlite(parsed):
        kwargs["connect_args"] = {"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS}
        if parsed.database in (None, "", ":memory:"):
            kwargs["poolclass"] = StaticPool
    else:
        # no pre-ping (a round trip at every checkout): connections are recycled after
        # POOL_RECYCLE_SECONDS, and the store retries a read, or a write whose first
        # statement found its connection dead, once on a fresh connection
        kwargs.update(pool_size=max(1, int(pool_size)), max_overflow=POOL_OVERFLOW,
                      pool_recycle=POOL_RECYCLE_SECONDS)
    try:
        engine = create_engine(parsed, **kwargs)
    except Exception as e:  # NoSuchModuleError, ArgumentError, a missing driver
        raise DatabaseError(f"cannot use database {describe_url(resolved)}: {e}") from None
    if _is_sqlite(parsed):
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config(url: str) -> Config:
    """An Alembic configuration for ``url`` (even where ``$ENDEAVOR_DB`` names another),
    its migrations inside the package (the ``alembic.ini`` beside it is for developers)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # '%' is ConfigParser's interpolation character: a password may contain one
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["endeavor_url"] = url
    return cfg


def _migration_engine(engine: Engine) -> Engine:
    """A one-connection engine for migrating: on SQLite its transaction is
    ``BEGIN IMMEDIATE`` (the write lock, taken before Alembic reads the version table)
    and covers the DDL too (pysqlite otherwise runs DDL outside any transaction)."""
    url = engine.url
    if not _is_sqlite(url):
        return create_engine(url, poolclass=NullPool)
    if url.database in (None, "", ":memory:"):
        return engine  # one shared connection: nobody else can migrate it
    eng = create_engine(url, poolclass=NullPool,
                        connect_args={"check_same_thread": False, "timeout": 60.0})

    @event.listens_for(eng, "connect")
    def _connect(dbapi_connection: Any, record: Any) -> None:
        _sqlite_pragmas(dbapi_connection, record)
        dbapi_connection.isolation_level = None  # we say BEGIN ourselves

    @event.listens_for(eng, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return eng


def upgrade(engine: Engine, attempts: int = 5) -> None:
    """``alembic upgrade head`` on ``engine``'s database, in one transaction holding a
    lock (SQLite: the write lock; PostgreSQL: an advisory lock), so concurrent starts
    serialise and the later ones find the schema at head. A failure that looks like a
    lost race ("already exists", "locked") is retried. Raises :class:`DatabaseError`."""
    url = engine.url
    cfg = alembic_config(url.render_as_string(hide_password=False))
    for attempt in range(attempts):
        mig = _migration_engine(engine)
        try:
            with mig.connect() as conn, conn.begin():
                if url.get_backend_name() == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                                 {"k": _PG_MIGRATION_LOCK})
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
            return
        except DBAPIError as e:
            message = " ".join(str(e.orig).split())
            racy = "already exists" in message or "locked" in message
            if racy and attempt < attempts - 1:
                log.info("migration raced another process (%s); retrying", message)
                time.sleep(0.2 * (attempt + 1))
                continue
            raise DatabaseError(
                f"cannot open database {describe_url(str(url))}: {message}") from None
        finally:
            cfg.attributes.pop("connection", None)
            if mig is not engine:
                mig.dispose()
