"""Server-side bots: the bot seats' decisions, each committed as its own log entry
exactly like a human's move (same seq check, same announcement).

After any commit the API calls :meth:`BotRunner.after_commit`: quick bots (one-ply,
milliseconds a move) play right away in the request's thread until a human is to move,
the game ends, or a small time budget is spent, so the response already shows the
human's next decision; a search bot (``mcts``, ``hard``: a second or more a move), and
whatever is left over the budget, plays in a background thread so no request waits for
it. A bot move that loses the race for its ``seq`` (a human undid, another worker
committed first) is dropped and the bot looks again at the fresh position.

Bot seeds derive from the game id and the seq the bot moves at, so a bot's choice
depends only on the position and the game; the game is reproducible from its log in any
case. The search bots' moves are computed by an engine worker, on the compiled engine
when one can be had (:mod:`endeavor.web.compute`), or else here, with the same result.
A bot that raises is logged and the game is left waiting (restart resumes it):
no bot failure reaches a client or stops the server. A bot move the database cannot take
right now (a full disk, a lost PostgreSQL server: ``dbhealth.unavailable_reason``) is
logged in one line and tried again :data:`RETRY_SECONDS` later, until it is recorded.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, overload

from endeavor.bots import make

from . import dbhealth
from .compute import Engines
from .store import Conflict, NotFound, Snapshot, Store, StoreError

log = logging.getLogger("endeavor.web")

#: bots that move in milliseconds: played before the response returns
QUICK_BOTS: Final = frozenset({"random", "greedy", "easy", "medium"})
#: how long one request may spend playing quick bots before the rest goes to the
#: background (a game of bots only would otherwise hold its creator for its whole length)
QUICK_BUDGET_SECONDS: Final = 2.0
#: how many times in a row a bot may lose the race for a seq before giving up for now
MAX_CONFLICTS: Final = 20
#: seconds before a bot tries again when the database could not take its move
RETRY_SECONDS: Final = 5.0


def bot_seed(game_id: str, seq: int) -> int:
    """A bot's seed for its move at ``seq`` of ``game_id`` (63 bits)."""
    digest = hashlib.sha256(f"{game_id}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class BotRunner:
    """Plays the bot seats of the games in ``store``.

    ``budgets`` overrides a bot's budget by name (e.g. ``{"hard": {"iterations": 200}}``,
    used by tests to keep search bots quick and deterministic). ``threads`` background
    threads play search bots, one game at a time each. ``engines``: where the search
    bots' moves are computed (None: in this process)."""

    def __init__(self, store: Store, budgets: Mapping[str, Mapping[str, Any]] | None = None,
                 quick_budget: float = QUICK_BUDGET_SECONDS, threads: int = 2,
                 retry_seconds: float = RETRY_SECONDS, engines: Engines | None = None) -> None:
        self.store = store
        self.engines = engines
        self.retry_seconds = retry_seconds
        #: the games (None: resume_all) to look at again when ``_retry_timer`` fires
        self._retries: set[str | None] = set()
        self._retry_timer: threading.Timer | None = None
        self.budgets = {k: dict(v) for k, v in (budgets or {}).items()}
        self.quick_budget = quick_budget
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        #: games a background job is working on -> whether to look again when it ends
        self._busy: dict[str, bool] = {}
        self._stop = threading.Event()

    # ------------------------------------------------------------------ entry points
    @overload
    def after_commit(self, game_id: str, snap: Snapshot) -> Snapshot: ...

    @overload
    def after_commit(self, game_id: str, snap: None = None) -> Snapshot | None: ...

    def after_commit(self, game_id: str, snap: Snapshot | None = None) -> Snapshot | None:
        """Play the bots the latest commit of ``game_id`` left to move: quick ones now
        (within the time budget), anything else in the background.

        ``snap``: the game as the store returned it right after that commit (then read
        as is, without asking the database again; None: read it). Returns the game
        right after the last commit made here (``snap`` when the bots made none), or as
        last read (None when it could not be read)."""
        if self._stop.is_set():
            return snap
        deadline = time.monotonic() + self.quick_budget
        outcome, last = self._play(game_id, quick_only=True, deadline=deadline, start=snap)
        if outcome == "bot":
            self.schedule(game_id)
        elif outcome == "retry":
            self._retry_later(game_id)
        return last if last is not None else snap

    def schedule(self, game_id: str) -> None:
        """Have a background thread play ``game_id``'s bots (once: a game already being
        played is looked at again when its job ends)."""
        with self._lock:
            if self._stop.is_set():
                return
            if game_id in self._busy:
                self._busy[game_id] = True
                return
            self._busy[game_id] = False
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._threads,
                                                thread_name_prefix="endeavor-bot")
            self._pool.submit(self._job, game_id)

    def resume_all(self) -> None:
        """Every unfinished game that has a bot seat gets a background look (on start:
        bots waiting when the server stopped move again)."""
        try:
            games = self.store.unfinished_with_bots()
        except Exception as e:
            reason = dbhealth.unavailable_reason(e)
            if reason is None:
                log.exception("could not list the games waiting for a bot")
            else:
                log.warning("bots: cannot list the games waiting for a bot (%s); trying "
                            "again in %g s", reason, self.retry_seconds)
                self._retry_later(None)
            return
        for game_id in games:
            self.schedule(game_id)

    def stop(self, wait: bool = True) -> None:
        """Stop playing: jobs end after their current move; nothing new starts."""
        with self._lock:
            self._stop.set()
            pool, self._pool = self._pool, None
            timer, self._retry_timer = self._retry_timer, None
            self._retries.clear()
        if timer is not None:
            timer.cancel()
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=True)
        if self.engines is not None:
            self.engines.close()

    def thinking(self, game_id: str) -> bool:
        """Whether a background job is playing ``game_id``'s bots now."""
        with self._lock:
            return game_id in self._busy

    def idle(self, timeout: float = 10.0) -> bool:
        """Wait until no background job is running (tests); whether that happened."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if not self._busy:
                    return True
            time.sleep(0.01)
        return False

    # ------------------------------------------------------------------ playing
    def _retry_later(self, game_id: str | None) -> None:
        """Look at ``game_id`` again (None: :meth:`resume_all`) in ``retry_seconds``: one
        timer thread for all the games waiting."""
        with self._lock:
            if self._stop.is_set():
                return
            self._retries.add(game_id)
            if self._retry_timer is not None:
                return
            timer = self._retry_timer = threading.Timer(self.retry_seconds, self._retry)
            timer.daemon = True
        timer.start()

    def _retry(self) -> None:
        with self._lock:
            games, self._retries = self._retries, set()
            self._retry_timer = None
        for game_id in games:
            if game_id is None:
                self.resume_all()
            else:
                self.schedule(game_id)

    def _job(self, game_id: str) -> None:
        try:
            while True:
                outcome, _ = self._play(game_id, quick_only=False, deadline=None)
                with self._lock:
                    if self._busy.get(game_id) and not self._stop.is_set():
                        self._busy[game_id] = False  # asked again meanwhile: look again
                        continue
                    self._busy.pop(game_id, None)
                if outcome == "retry":
                    self._retry_later(game_id)
                return
        except BaseException:  # never let a bot thread die silently
            log.exception("bot job for game %s failed", game_id)
            with self._lock:
                self._busy.pop(game_id, None)

    def _play(self, game_id: str, quick_only: bool, deadline: float | None,
              start: Snapshot | None = None) -> tuple[str, Snapshot | None]:
        """Play bot moves of ``game_id`` one by one, from ``start`` (the game right
        after a commit of this process) or else the game as stored. Returns why it
        stopped: ``human`` (a person is to move), ``over``, ``bot`` (a bot is to move
        but not here: a search bot with ``quick_only``, or the deadline passed),
        ``retry`` (the database cannot be used right now), ``error`` or ``stopped``; and
        the game as last seen (None if never read)."""
        conflicts = 0
        snap: Snapshot | None = start
        last: Snapshot | None = start
        while not self._stop.is_set():
            if snap is None:
                try:
                    snap = last = self.store.snapshot(game_id)
                except NotFound:
                    return "error", last
                except Exception as e:
                    if self._unavailable(e, game_id):
                        return "retry", last
                    log.exception("bot: could not load game %s", game_id)
                    return "error", last
            p = snap.current_player
            if p is None:
                return "over", last
            bot = snap.seat(p).played_by
            if bot is None:
                return "human", last
            if quick_only and (bot not in QUICK_BOTS or (
                    deadline is not None and time.monotonic() > deadline)):
                return "bot", last
            action = self.choose(snap, bot)
            if action is None:
                return "error", last
            try:
                # the game right after this commit: the next bot looks at it as is
                # a person's seat played by a bot is marked so (its player cannot undo it)
                note = f"bot:{bot}" if snap.seat(p).kind != "bot" else None
                snap = last = self.store.append(game_id, {p}, action, snap.seq, note=note,
                                                by_bot=True)
                conflicts = 0
            except Conflict:
                snap = None  # someone else moved first: look at the fresh position
                conflicts += 1
                if conflicts >= MAX_CONFLICTS:
                    log.warning("bot in game %s lost %d races in a row; leaving it",
                                game_id, conflicts)
                    return "error", last
            except StoreError as e:
                log.error("bot %s in game %s chose %r, refused: %s", bot, game_id,
                          action, e)
                return "error", last
            except Exception as e:
                if self._unavailable(e, game_id):
                    return "retry", last
                log.exception("bot move in game %s could not be recorded", game_id)
                return "error", last
        return "stopped", last

    def _unavailable(self, error: Exception, game_id: str) -> bool:
        """Whether ``error`` says the database cannot be used right now (logged in one
        line: the bot tries again later)."""
        reason = dbhealth.unavailable_reason(error)
        if reason is None:
            return False
        log.warning("bot in game %s waits: the database cannot be used (%s); trying again "
                    "in %g s", game_id, reason, self.retry_seconds)
        return True

    def choose(self, snap: Snapshot, name: str) -> str | None:
        """The bot's action at ``snap`` (None, logged, if the bot failed): a search
        bot's from an engine worker when there is one (the same action: the seed is the
        game's and the seq's), else computed here."""
        try:
            seed = bot_seed(snap.meta.id, snap.seq)
            budget = self.budgets.get(name, {})
            if self.engines is not None and name not in QUICK_BOTS:
                action = self.engines.choose(snap.state.record(), name, seed, budget)
                if action is not None:
                    return action
            bot = make(name, seed=seed, **budget)
            return str(bot.choose(snap.state))
        except Exception:
            log.exception("bot %s failed in game %s at seq %d", name, snap.meta.id,
                          snap.seq)
            return None
