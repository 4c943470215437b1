"""The clocks: the games whose running decision ran out (claimed by one worker at a
time, see :mod:`endeavor.web.clocks`), a bot taking a seat over for the rest of the
game, and the host's extensions, stops and restarts."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import and_, or_, select, update

from .. import db
from ..view import refusals
from .clockstate import MAX_CLOCK_SECONDS, clock_seconds, reclock, resumed
from .errors import BadRequest, Conflict
from .gamelog import not_over
from .host import HostPanel
from .records import Meta, Snapshot
from .repository import CachedGame
from .seats import seat_of, seat_statements, with_seats
from .values import now as _now

#: how long a worker keeps an expired deadline it claimed before another may take it
#: (the clock keeper renews it while it acts: only a dead worker's lapses)
CLAIM_SECONDS: Final = 10.0


class Clocks(HostPanel):
    """The clock keeper's claims of expired deadlines, and the entries of the clocks."""

    def expired(self, now: datetime | None = None, limit: int = 50) -> list[tuple[str, int]]:
        """Games whose running decision has run out and that no worker holds: ``(id,
        seq)``, the oldest deadline first."""
        now = now or _now()
        g = db.games
        query = (select(g.c.id, g.c.seq)
                 .where(and_(g.c.deadline.is_not(None), g.c.deadline <= now,
                             g.c.over.is_(False),
                             or_(g.c.claim_until.is_(None), g.c.claim_until < now)))
                 .order_by(g.c.deadline).limit(limit))
        return self.read(lambda conn: [(r.id, int(r.seq)) for r in conn.execute(query)])

    def claim(self, game_id: str, seq: int, now: datetime | None = None,
              seconds: float = CLAIM_SECONDS) -> bool:
        """Claim ``game_id``'s expired deadline at version ``seq`` for this worker for
        ``seconds``: True for exactly one of the workers that try (the next entry of
        the game releases it)."""
        now = now or _now()
        g = db.games
        statement = (update(g).where(and_(
            g.c.id == game_id, g.c.seq == seq, g.c.deadline.is_not(None),
            g.c.deadline <= now, g.c.over.is_(False),
            or_(g.c.claim_until.is_(None), g.c.claim_until < now)))
            .values(claim_until=now + timedelta(seconds=seconds)))
        with self.write_lock, self.engine.begin() as conn:
            return conn.execute(statement).rowcount == 1

    def renew_claim(self, game_id: str, seq: int, until: datetime,
                    seconds: float = CLAIM_SECONDS) -> datetime | None:
        """Hold this worker's claim of ``game_id`` at ``seq`` (the one it made, until
        ``until``) for ``seconds`` from now: the new end, or None when it is not held so
        any more (the game moved on, or another worker claimed it after it lapsed)."""
        g = db.games
        later = _now() + timedelta(seconds=seconds)
        statement = (update(g).where(and_(g.c.id == game_id, g.c.seq == seq,
                                          g.c.claim_until == until))
                     .values(claim_until=later))
        with self.write_lock, self.engine.begin() as conn:
            return later if conn.execute(statement).rowcount == 1 else None

    def take_over(self, game_id: str, seat: int, bot: str, seq: int) -> Snapshot:
        """A clock ran out for ``seat`` and the game's choice is that ``bot`` plays the
        rest of its game (at version ``seq``; the seat's link keeps working)."""

        def change(cached: CachedGame) -> tuple[Meta, Any, None, list[Any]]:
            not_over(cached)
            s = seat_of(cached.meta, seat)
            new = replace(s, bot_override=bot, override_reason="timeout")
            meta = with_seats(cached.meta, {seat: new})
            clock = reclock(cached.clock, meta.seats, cached.current_player, _now(),
                            stopped=False, restart=True, all_spent=True)
            return meta, clock, None, seat_statements(game_id, [new])

        return self._system_entry(game_id, f"takeover {seat} {bot}", change, seq)

    def extend(self, game_id: str, host_token: str | None, seconds: float,
               seat: int | None = None) -> Snapshot:
        """The host gives ``seat`` (None: every seat) ``seconds`` more on its bank; a
        running decision of that seat ends that much later."""
        secs = clock_seconds(seconds, "extend")
        if secs < 1:
            raise BadRequest.said(refusals.EXTEND_LEAST)

        def change(cached: CachedGame) -> tuple[None, Any, None, list[Any]]:
            not_over(cached)
            clock = cached.clock
            if clock is None:
                raise Conflict.said(refusals.NO_CLOCK)
            if seat is not None:
                seat_of(cached.meta, seat)
            targets = range(len(clock.banks)) if seat is None else (seat,)
            banks = list(clock.banks)
            for s in targets:
                banks[s] = min(MAX_CLOCK_SECONDS, banks[s] + secs)
            deadline = clock.deadline
            if deadline is not None and clock.running in targets:
                deadline = deadline + timedelta(seconds=secs)
            return None, replace(clock, banks=tuple(banks), deadline=deadline), None, []

        who = "all" if seat is None else str(seat)
        return self._host_entry(game_id, host_token, f"extend {who} {int(secs)}", change)

    def pause(self, game_id: str, host_token: str | None, paused: bool) -> Snapshot:
        """The host stops (``paused``) or restarts the clocks. Stopping counts the
        running decision's time so far and keeps what is left of it (``held``);
        restarting gives that back to the same decision (the seat to move has exactly
        the time it had when the clocks stopped), or a new decision's time when a
        decision was made meanwhile."""

        def change(cached: CachedGame) -> tuple[None, Any, None, list[Any]]:
            not_over(cached)
            clock = cached.clock
            if clock is None:
                raise Conflict.said(refusals.NO_CLOCK)
            if clock.paused == paused:
                raise Conflict.said(refusals.STOPPED if paused else refusals.RUNNING)
            now = _now()
            toggled = replace(clock, paused=paused)
            if paused:
                held = None
                if clock.running is not None and clock.turn_started is not None:
                    spent = (now - clock.turn_started).total_seconds()
                    held = (clock.running, max(0.0, clock.config.per_decision - spent))
                return None, replace(toggled, banks=clock.charged(now), turn_started=None,
                                     deadline=None, running=None, held=held), None, []
            return None, resumed(toggled, cached.meta.seats, cached.current_player,
                                 now), None, []

        return self._host_entry(game_id, host_token, "pause" if paused else "resume",
                                change)
