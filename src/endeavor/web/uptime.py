"""Server downtime is not charged to the player to move.

A running server renews a heartbeat (the ``heartbeat`` table's row ``server``: when the
server was last known to be up) every :data:`HEARTBEAT_SECONDS`. When an app starts and
finds the last heartbeat older than :data:`OUTAGE_SECONDS`, the server was down for
that long: every running decision's deadline that had not yet passed when the server
went down, and the time that decision started, are moved later by the outage's length,
so the player to move has exactly the time they had left when the server stopped (a
deadline that passed while the server was still up is left as it is). Then the
heartbeat is written, in the same transaction, which holds the database's lock (SQLite:
the write lock; PostgreSQL: an advisory lock), like the migrations: several workers
starting at once shift the deadlines exactly once, the later ones finding a fresh
heartbeat. An outage shorter than :data:`OUTAGE_SECONDS` (a quick restart) is not
counted: it is within the heartbeat's own jitter.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import Engine, and_, insert, select, text, update

from . import db
from .store import utc, utcnow

log = logging.getLogger("endeavor.web")

#: how often a running server renews its heartbeat (seconds)
HEARTBEAT_SECONDS: Final = 5.0
#: a heartbeat older than this at start means the server was down (seconds)
OUTAGE_SECONDS: Final = 30.0
#: the heartbeat row's name
NAME: Final = "server"
#: the PostgreSQL advisory lock key of the start's shift (any fixed 64-bit int, not the
#: migrations')
_PG_LOCK: Final = 0x656E646561766F73


def _beat(conn: Any, now: datetime, exists: bool) -> None:
    hb = db.heartbeat
    if exists:
        conn.execute(update(hb).where(hb.c.name == NAME).values(at=now))
    else:
        conn.execute(insert(hb).values(name=NAME, at=now))


def shift_after_outage(engine: Engine, now: datetime | None = None,
                       threshold: float = OUTAGE_SECONDS) -> float:
    """At an app's start: when the last heartbeat is older than ``threshold`` seconds,
    move the running deadlines later by the outage (see the module's doc); write the
    heartbeat. Returns the outage's length in seconds (0.0: none counted)."""
    now = now or utcnow()
    lock_engine = db._migration_engine(engine)  # SQLite: BEGIN IMMEDIATE
    try:
        with lock_engine.connect() as conn, conn.begin():
            if engine.url.get_backend_name() == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK})
            row = conn.execute(select(db.heartbeat.c.at)
                               .where(db.heartbeat.c.name == NAME)).first()
            if row is None:  # a new database: nothing was running
                _beat(conn, now, exists=False)
                return 0.0
            last = utc(row.at)
            gap = (now - last).total_seconds()
            if gap < threshold:
                _beat(conn, now, exists=True)
                return 0.0
            shift = timedelta(seconds=gap)
            g = db.games
            running = conn.execute(
                select(g.c.id, g.c.deadline, g.c.turn_started)
                .where(and_(g.c.deadline.is_not(None), g.c.over.is_(False)))).all()
            moved = 0
            for r in running:
                if utc(r.deadline) <= last:
                    continue  # it ran out while the server was up: acted on as it is
                values: dict[str, Any] = {"deadline": utc(r.deadline) + shift,
                                          "claim_until": None}
                if r.turn_started is not None:
                    values["turn_started"] = utc(r.turn_started) + shift
                conn.execute(update(g).where(g.c.id == r.id).values(**values))
                moved += 1
            _beat(conn, now, exists=True)
    finally:
        if lock_engine is not engine:
            lock_engine.dispose()
    log.warning("the server was down for %.0f s (since %s): %d running deadline(s) moved "
                "later by that much", gap, last.isoformat(timespec="seconds"), moved)
    return gap


class Heartbeat:
    """Renews the heartbeat row every ``interval`` seconds in a thread of its own (a
    failure, the database away, is logged once and tried again)."""

    def __init__(self, engine: Engine, interval: float = HEARTBEAT_SECONDS,
                 write_lock: AbstractContextManager[Any] | None = None,
                 also: Callable[[], None] | None = None) -> None:
        self.engine = engine
        self.interval = interval
        #: the store's: this process's SQLite writers queue there (see SeenRecorder)
        self.write_lock: AbstractContextManager[Any] = write_lock or contextlib.nullcontext()
        #: more to do at each beat (the server writes the seats' last-seen times)
        self.also = also
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def beat(self, now: datetime | None = None) -> None:
        """Write the heartbeat now."""
        hb = db.heartbeat
        with self.write_lock, self.engine.begin() as conn:
            done = conn.execute(update(hb).where(hb.c.name == NAME)
                                .values(at=now or utcnow())).rowcount
            if not done:
                conn.execute(insert(hb).values(name=NAME, at=now or utcnow()))

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="endeavor-heartbeat",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread; a last heartbeat says when this server stopped."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
            try:
                self.beat()
            except Exception as e:  # the database is away: the last beat stands
                log.debug("heartbeat: cannot write the last beat (%s)", e)

    def _loop(self) -> None:
        failing = False
        while not self._stop.wait(self.interval):
            try:
                self.beat()
                if self.also is not None:
                    self.also()
                failing = False
            except Exception as e:
                if not failing:
                    log.warning("heartbeat: cannot write (%s: %s); trying again",
                                type(e).__name__, e)
                failing = True
