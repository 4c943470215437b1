"""When each seat last opened the game and last moved, for the host panel.

``seats.last_seen`` is written when a seat's token reads the game (the game page opening
it, and its refreshes while it is open), at most once every :data:`EVERY_SECONDS` per
seat and process (a dictionary look-up on the hot path otherwise: a page refreshed at
every move costs one small ``UPDATE`` a minute). When a seat last moved is read from the
log: its player's last action or undo (not a bot's or a clock's move for them).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Engine, and_, func, select, tuple_, update

from . import db
from .store import utc, utcnow

log = logging.getLogger("endeavor.web")

#: a seat's ``last_seen`` is written at most this often by one process (seconds)
EVERY_SECONDS: Final = 60.0
#: how many (game, seat) pairs one process remembers before forgetting the oldest half
_REMEMBER: Final = 20_000


@dataclass(frozen=True)
class Activity:
    """A seat's last move by its player and the last time its page opened the game
    (None: never, or not since this was recorded)."""

    moved: datetime | None = None
    seen: datetime | None = None


class SeenRecorder:
    """Writes ``seats.last_seen`` (see the module's doc). ``write_lock``: the store's
    (this process's SQLite writers queue there, not in SQLite's busy handler, which
    sleeps). ``deferred``: :meth:`saw` only notes the seats, and :meth:`flush` writes them
    all in one transaction (the server flushes with its heartbeat, every few seconds, and
    before the host panel reads them): a view never waits for a write."""

    def __init__(self, engine: Engine, every: float = EVERY_SECONDS,
                 write_lock: AbstractContextManager[Any] | None = None,
                 deferred: bool = False) -> None:
        self.engine = engine
        self.every = every
        self.write_lock: AbstractContextManager[Any] = write_lock or contextlib.nullcontext()
        self.deferred = deferred
        self._written: dict[tuple[str, int], float] = {}
        self._pending: dict[str, set[int]] = {}
        self._lock = threading.Lock()

    def saw(self, game_id: str, seats: Collection[int]) -> None:
        """``seats`` of ``game_id`` have the game open now. Never raises (a failure is
        logged: it must not cost the page its view)."""
        if not seats:
            return
        now = time.monotonic()
        with self._lock:
            due = [s for s in seats
                   if now - self._written.get((game_id, s), -self.every) >= self.every]
            if not due:
                return
            for s in due:
                self._written[(game_id, s)] = now
            if len(self._written) > _REMEMBER:
                oldest = sorted(self._written.items(), key=lambda kv: kv[1])
                for key, _ in oldest[:len(oldest) // 2]:
                    del self._written[key]
            self._pending.setdefault(game_id, set()).update(due)
        if not self.deferred:
            self.flush()

    def flush(self) -> None:
        """Write the seats noted since the last flush, in one transaction. Never raises
        (a failure is logged, and those seats are written when next seen)."""
        with self._lock:
            pending, self._pending = self._pending, {}
        if not pending:
            return
        st = db.seats
        now = utcnow()
        try:
            pairs = sorted((g, p) for g, seats in pending.items() for p in seats)
            with self.write_lock, self.engine.begin() as conn:
                # one statement per 500 seats, whatever their games (a flush after a
                # busy minute holds the write lock for one short statement, not one a game)
                for i in range(0, len(pairs), 500):
                    conn.execute(update(st).where(tuple_(st.c.game_id, st.c.seat)
                                                  .in_(pairs[i:i + 500]))
                                 .values(last_seen=now))
        except Exception as e:
            with self._lock:  # try again when next seen
                for game_id, seats in pending.items():
                    for s in seats:
                        self._written.pop((game_id, s), None)
            log.warning("cannot record that %d game(s) were opened (%s: %s)", len(pending),
                        type(e).__name__, e)


def activity(engine: Engine, game_id: str) -> dict[int, Activity]:
    """Each seat's :class:`Activity` (seats never seen nor moved are left out)."""
    m, st = db.moves, db.seats
    with engine.connect() as conn:
        moved = {int(r.seat): utc(r.at) for r in conn.execute(
            select(m.c.seat, func.max(m.c.created).label("at"))
            .where(and_(m.c.game_id == game_id, m.c.kind.in_(("action", "undo")),
                        m.c.note.is_(None)))
            .group_by(m.c.seat))}
        seen = {int(r.seat): utc(r.last_seen) for r in conn.execute(
            select(st.c.seat, st.c.last_seen)
            .where(and_(st.c.game_id == game_id, st.c.last_seen.is_not(None))))}
    return {s: Activity(moved.get(s), seen.get(s)) for s in sorted(set(moved) | set(seen))}
