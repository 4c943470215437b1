"""When each seat last opened the game and last moved, for the host panel.

``seats.last_seen`` is written when a seat's token reads the game (the game page opening
it, and its refreshes while it is open), at most once every :data:`EVERY_SECONDS` per
seat and process (a dictionary look-up on the hot path otherwise: a page refreshed at
every move costs one small ``UPDATE`` a minute). When a seat last moved is read from the
log: its player's last action or undo (not a bot's or a clock's move for them).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from sqlalchemy import Engine, and_, func, select, update

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
    """Writes ``seats.last_seen`` (see the module's doc)."""

    def __init__(self, engine: Engine, every: float = EVERY_SECONDS) -> None:
        self.engine = engine
        self.every = every
        self._written: dict[tuple[str, int], float] = {}
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
        st = db.seats
        try:
            with self.engine.begin() as conn:
                conn.execute(update(st).where(and_(st.c.game_id == game_id,
                                                   st.c.seat.in_(due)))
                             .values(last_seen=utcnow()))
        except Exception as e:
            with self._lock:  # try again next time
                for s in due:
                    self._written.pop((game_id, s), None)
            log.warning("cannot record that game %s was opened (%s: %s)", game_id,
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
