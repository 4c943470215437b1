"""The game store: games in the database, positions rebuilt by the engine.

A game is its config plus an append-only log (``moves``): ``action`` entries, ``undo``
entries and ``host`` entries (a change of seats, clocks or the game's end), numbered
``seq`` = 1, 2, 3, ... The *effective* actions are the log read in order (an undo removes
the last effective action); the position is the config's new game with the effective
actions applied. ``games.seq`` is the log's length, updated in the same transaction as
each entry, so it is the game's version for optimistic concurrency: an entry is written
only as ``seq + 1`` of the version the writer validated against, and the
``(game_id, seq)`` primary key makes two writers racing for it unable to both commit.

Everything else that changes during a game changes with an entry, in its transaction:
whose move it is (``games.current_player``, read by the lobby), the clock (the seats'
banks, when the running decision started and when it runs out), the seats (a re-issued
link, a bot playing for a human seat), how the game ended, and the notifications the
entry calls for (a row in ``outbox`` per seat and channel, sent later by
:mod:`endeavor.web.notify`). So ``games.seq`` is the version of all of it, and a process
that has seen a seq has seen everything that goes with it.

Each process caches the latest position of each game it served (state, events, log,
seats, clock) and brings it up to date by applying only the entries it has not seen;
``games.seq`` is read on every access, so a move committed by another process is never
missed (the one exception: the snapshot a write returns is taken in the same locked
section as its own commit, so it is the stored game at that seq).

Each cached position also holds a ``memo``: a dict for what depends only on the game and
its ``seq`` (the API keeps the encoded position, scores and decision there), replaced by
a new one whenever the position changes, so a snapshot's memo always belongs to its own
``(game, seq)`` and the views of every seat at one seq share the work.

Tokens: the host's is ``secrets.token_urlsafe(32)`` (256 bits); a seat's is derived from
it (an HMAC of the game, the seat and the seat's link generation), so the host can see
every seat's link again and re-issue one (a new generation: the old token stops working
at once), while the database holds only SHA-256 digests of both. The one exception is a
seat's notification settings, which keep that seat's token so that a message can carry
its link (deleted with the settings, and when the link is re-issued).

How the package is laid out: :class:`Store` is one object made of concern classes over
one repository base, each in a module of its own (mixins: every concern is a subclass
of :class:`~endeavor.web.store.repository.Repository`, so a method of one reaches the
others' through ``self`` at no cost, and the store has one engine, one write lock and
one cache):

* :mod:`.repository`: the engine, the write lock (:attr:`Store.write_lock`,
  :meth:`Store.transaction`), reads retried on a dead connection (:meth:`Store.read`),
  the listeners and the cache of positions (:meth:`Store.snapshot`, :meth:`Store.peek`);
* :mod:`.gamelog`: actions and undos, and the commit of every entry;
* :mod:`.newgames`: new and imported games;
* :mod:`.host`: ``host`` entries and the host panel; :mod:`.seats`: seats, links and
  names; :mod:`.clocks`: the clock keeper's claims and the clocks' entries;
  :mod:`.accounts`: the seats of a deleted account;
* :mod:`.notifications`: the seats' notification settings; :mod:`.lobby`: the lobby;
* :mod:`.records`, :mod:`.clockstate`: the plain records (seats, snapshots, clocks...);
  :mod:`.errors`: the errors; :mod:`.words`: the log's words; :mod:`.values`: tokens
  and times.

Everything is imported from this package (``from endeavor.web.store import Store,
NotFound``); the modules are its inside. The store's clock is :data:`clock` here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from .accounts import DELETED_NAME, AccountSeats
from .clocks import CLAIM_SECONDS, Clocks
from .clockstate import (
    CLOCK_KINDS,
    DEFAULT_TIMEOUT_BOT,
    MAX_CLOCK_SECONDS,
    ON_TIMEOUT,
    ClockConfig,
    ClockState,
    resumed,
)
from .errors import (
    NOT_A_SEAT,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    StoreError,
    Unauthorized,
)
from .gamelog import MAX_ACTION, GameLog
from .host import HostPanel
from .lobby import STATUSES, Lobby
from .newgames import NewGames
from .notifications import CHANNELS, Notifications
from .records import (
    HOST_SEAT,
    SEAT_KINDS,
    Created,
    CreatedSeat,
    Effective,
    Entry,
    HostSeat,
    LobbyRow,
    LogLine,
    Meta,
    MineRow,
    Notification,
    Seat,
    SeatSpec,
    Snapshot,
)
from .repository import Repository, log
from .seats import Seats
from .values import hash_token, seat_token, utc, utcnow
from .words import MAX_TITLE, host_words, is_rename, timeout_words, undo_words

__all__ = [
    "CHANNELS", "CLAIM_SECONDS", "CLOCK_KINDS", "DEFAULT_TIMEOUT_BOT", "DELETED_NAME",
    "HOST_SEAT",
    "MAX_ACTION", "MAX_CLOCK_SECONDS", "MAX_TITLE", "NOT_A_SEAT", "ON_TIMEOUT",
    "SEAT_KINDS", "STATUSES", "BadRequest", "ClockConfig", "ClockState", "Conflict",
    "Created", "CreatedSeat", "Effective", "Entry", "Forbidden", "HostSeat", "LobbyRow",
    "LogLine", "Meta", "MineRow", "NotFound", "Notification", "Seat", "SeatSpec",
    "Snapshot", "Store", "StoreError", "Unauthorized", "clock", "hash_token",
    "host_words", "is_rename", "log", "resumed", "seat_token", "timeout_words",
    "undo_words", "utc", "utcnow"]

#: the store's clock: when a decision starts and ends, a seat is given to a bot, ... (a
#: test of the clocks sets it: ``monkeypatch.setattr(endeavor.web.store, "clock", f)``;
#: the store reads it at each use, see :func:`endeavor.web.store.values.now`)
clock: Callable[[], datetime] = utcnow


class Store(NewGames, Lobby, Notifications, Clocks, AccountSeats, Seats, HostPanel, GameLog,
            Repository):
    """Games in one database, with this process's cache of their positions.

    Thread-safe: the API serves requests from a thread pool and bots and clocks play
    from their own threads. ``listeners`` are called with ``(game_id, seq)`` after every
    commit (the WebSocket announcer and the notifier subscribe). ``review_iterations``:
    the budget of the post-game review queued, in the same transaction, by the entry
    that ends a game (and by the import of a finished record); 0: none.

    Made of one repository (:class:`~endeavor.web.store.repository.Repository`) and the
    concerns built on it (see the package's doc); the constructor is the repository's:
    ``Store(engine, cache_size=1024, review_iterations=0)``."""
