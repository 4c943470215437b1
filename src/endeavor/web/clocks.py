"""Clocks: the server plays for a player whose time has run out.

A game's deadline (``games.deadline``: when the running decision's time and the seat's
bank are both spent) is written with every entry of its log (see
:mod:`endeavor.web.store`), so it lives in the database and survives restarts. Each
server process runs one :class:`ClockKeeper` thread, which looks for expired deadlines
every ``interval`` seconds; a worker acts on one only after claiming it
(:meth:`Store.claim`: one ``UPDATE`` that exactly one of the racing workers wins), and
the ``(game, seq)`` key of the log makes a second move at that seq impossible anyway.
A claim is short (:data:`CLAIM_SECONDS`) and renewed while the worker acts (a bot may
think for a while): one held by a worker that died (``kill -9``, a lost machine) lapses
within seconds, and another worker, or the same server restarted, acts then.

What happens is the host's choice at creation (:class:`~endeavor.web.store.ClockConfig`):
the clock's bot plays the decision (and the seat's decisions right after it, until
another seat is to move), each logged in words ("P2's time ran out: the medium bot
played for them"); or a ``takeover`` entry gives the seat to the bot for the rest of the
game (the player may take it back if the host allowed it), and the bot runner plays it.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta
from typing import Final

from .bots import BotRunner
from .store import Conflict, Snapshot, Store, StoreError, utcnow
from .view import refusals
from .view.journal import bot_level

log = logging.getLogger("endeavor.web")

#: how often a worker looks for expired deadlines (seconds)
INTERVAL_SECONDS: Final = 0.5
#: how long a claim of an expired deadline holds (seconds): renewed every third of it
#: while the worker acts, so only a dead worker's lapses, this soon
CLAIM_SECONDS: Final = 10.0


class ClockKeeper:
    """Acts on the expired deadlines of ``store``'s games (see the module's doc)."""

    def __init__(self, store: Store, runner: BotRunner,
                 interval: float = INTERVAL_SECONDS,
                 claim_seconds: float = CLAIM_SECONDS) -> None:
        self.store = store
        self.runner = runner
        self.interval = interval
        self.claim_seconds = claim_seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the keeper's thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="endeavor-clock",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the thread (after the game it is playing, if any)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _loop(self) -> None:
        failing = False
        while not self._stop.wait(self.interval):
            try:
                self.tick()
                failing = False
            except Exception as e:  # the database is away: say so once, keep trying
                if not failing:
                    log.warning("clocks: cannot look for expired deadlines (%s: %s); "
                                "trying again", type(e).__name__, e)
                failing = True

    def tick(self, now: datetime | None = None) -> int:
        """Act on every expired deadline this worker claims; how many it acted on."""
        acted = 0
        for game_id, seq in self.store.expired(now):
            if self._stop.is_set():
                break
            at = now or utcnow()
            if not self.store.claim(game_id, seq, at, self.claim_seconds):
                continue  # another worker has it
            renewing = self._renew(game_id, seq, at + timedelta(seconds=self.claim_seconds))
            try:
                if self.expire(game_id, seq):
                    acted += 1
            except Exception:
                log.exception("clocks: game %s at move %d", game_id, seq)
            finally:
                renewing.set()
        return acted

    def _renew(self, game_id: str, seq: int, until: datetime) -> threading.Event:
        """Renew this worker's claim of ``game_id`` at ``seq`` (held until ``until``)
        every third of :attr:`claim_seconds` until the event returned is set (or the
        claim is no longer this worker's: the game moved on)."""
        done = threading.Event()

        def run() -> None:
            held: datetime | None = until
            while held is not None and not done.wait(self.claim_seconds / 3):
                try:
                    held = self.store.renew_claim(game_id, seq, held, self.claim_seconds)
                except Exception as e:  # the database is away: the next try may do
                    log.warning("clocks: cannot renew the claim of game %s (%s)", game_id,
                                type(e).__name__)

        threading.Thread(target=run, name="endeavor-clock-claim", daemon=True).start()
        return done

    def expire(self, game_id: str, seq: int) -> bool:
        """The running decision of ``game_id`` at version ``seq`` ran out (claimed by
        this worker): play it as the game's clock says. False when the game moved on
        meanwhile (nothing done)."""
        snap = self.store.snapshot(game_id)
        clock = snap.clock
        if (snap.seq != seq or snap.over or clock is None or clock.deadline is None
                or clock.running is None or clock.running != snap.current_player):
            return False
        p = clock.running
        bot = clock.config.bot
        try:
            if clock.config.on_timeout == "game":
                snap = self.store.take_over(game_id, p, bot, seq)
            else:
                snap = self._play_for(snap, p, bot)
        except Conflict:
            return False  # the player (or the host) got there first
        self.runner.after_commit(game_id, snap)
        return True

    def _play_for(self, snap: Snapshot, p: int, bot: str) -> Snapshot:
        """``bot`` plays ``p``'s decisions while ``p`` is to move."""
        note = f"timeout:{bot}"
        started = time.monotonic()
        while snap.current_player == p and not snap.over and not self._stop.is_set():
            if snap.seat(p).played_by is not None:
                break  # the host gave the seat to a bot meanwhile: the runner plays it
            action = self.runner.choose(snap, bot)
            if action is None:
                raise StoreError.said(refusals.BOT_STUCK, bot=bot_level(bot))
            snap = self.store.append(snap.meta.id, {p}, action, snap.seq, note=note)
            note = f"bot:{bot}"
            if time.monotonic() - started > 300:  # a runaway: leave the rest for later
                break
        return snap
