"""The store's repository: the database (an engine, its write lock, reads retried on a
dead pooled connection) and this process's cache of the games' positions, each brought
up to the database's ``seq`` on every access (see :mod:`endeavor.web.store`).

:class:`Repository` is the base of the store's concerns (the classes that
:class:`endeavor.web.store.Store` is made of): what they all read and write through.
Other web modules use its public part too: :meth:`Repository.read` for a read,
:meth:`Repository.transaction` (or :attr:`Repository.write_lock` around a connection
of ``engine.begin()``) for a write.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from sqlalchemy import Connection, Engine, and_, bindparam, select
from sqlalchemy.exc import DBAPIError

from endeavor import Event, GameConfig, State, new_game

from .. import db
from ..view import refusals
from .clockstate import ClockConfig, ClockState
from .errors import NotFound
from .records import Effective, Entry, LogLine, Meta, Snapshot, journal_line, seat_from_row
from .values import utc, utc_or_none
from .words import host_message, is_rename, timeout_message, undo_message

log = logging.getLogger("endeavor.web")

#: how many times a read, or a write that failed before sending anything, is tried
#: again on a fresh connection after finding its pooled connection dead
DISCONNECT_RETRIES: Final = 1

_T = TypeVar("_T")

# the statements of every move, built once (building one costs more than running it)
_SEQ_OF: Final = select(db.games.c.seq).where(db.games.c.id == bindparam("b_id"))
_ENTRIES: Final = (
    select(db.moves.c.seq, db.moves.c.seat, db.moves.c.kind, db.moves.c.action,
           db.moves.c.note)
    .where(and_(db.moves.c.game_id == bindparam("b_id"),
                db.moves.c.seq > bindparam("b_since"), db.moves.c.seq <= bindparam("b_upto")))
    .order_by(db.moves.c.seq))
_GAME_STATE: Final = (
    select(db.games.c.clock, db.games.c.banks, db.games.c.turn_started,
           db.games.c.deadline, db.games.c.ended)
    .where(db.games.c.id == bindparam("b_id")))


@dataclass
class CachedGame:
    """A game's latest position in this process (guarded by ``lock``)."""

    meta: Meta
    seq: int
    state: State
    effective: list[Effective] = field(default_factory=list)
    log: list[Entry] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: what depends only on this position (see :class:`Snapshot`): a new dict at
    #: every change of position, never cleared in place (snapshots hold the old one)
    memo: dict[Any, Any] = field(default_factory=dict)
    journal: list[LogLine] = field(default_factory=list)
    clock: ClockState | None = None
    ended: str | None = None

    def apply(self, entry: Entry, after: State | None = None,
              events: Sequence[Event] = ()) -> None:
        """Bring the position forward by one stored entry. ``after``: the position the
        entry leads to, already worked out on a copy by this process's writer (with the
        ``events`` of an action), which the cache takes instead of playing it again.
        (The seats, clock and ending that go with a ``host`` entry are set by the
        caller, which read or wrote them.)"""
        if entry.seq != self.seq + 1:
            raise RuntimeError(f"game {self.meta.id}: log entry {entry.seq} after {self.seq}")
        if entry.kind == "action":
            if entry.action is None:
                raise RuntimeError(f"game {self.meta.id}: action entry {entry.seq} is empty")
            if after is None:
                events = self.state.apply(entry.action)
            else:
                self.state = after
            if entry.note is not None and entry.note.startswith("timeout:"):
                self.journal.append(journal_line(entry.seq, "timeout", entry.seat,
                                                 timeout_message(entry.seat, entry.note)))
            self.effective.append(Effective(entry.seq, entry.seat, entry.action,
                                            tuple(events), entry.note))
        elif entry.kind == "undo":
            if after is None:
                self.state.undo()
            else:
                self.state = after
            gone = self.effective.pop()
            self.journal.append(journal_line(entry.seq, "undo", gone.seat,
                                             undo_message(gone)))
        elif entry.kind == "host":
            if not is_rename(entry):  # a new name shows everywhere at once: no line
                self.journal.append(journal_line(entry.seq, "host",
                                                 entry.seat if entry.seat >= 0 else None,
                                                 host_message(entry)))
        else:
            raise RuntimeError(f"game {self.meta.id}: unknown log entry kind {entry.kind!r}")
        self.log.append(entry)
        self.seq = entry.seq
        self.memo = {}

    def reset(self) -> None:
        """Back to the game's start (before re-applying the stored log)."""
        self.seq = 0
        self.state = new_game(GameConfig.from_dict(self.meta.config))
        self.effective.clear()
        self.log.clear()
        self.journal.clear()
        self.memo = {}

    def snapshot(self) -> Snapshot:
        return Snapshot(self.meta, self.seq, self.state.copy(), tuple(self.effective),
                        tuple(self.log), self.memo, tuple(self.journal), self.clock,
                        self.ended)

    @property
    def current_player(self) -> int | None:
        return None if self.ended is not None else self.state.current_player

    @property
    def over(self) -> bool:
        return self.ended is not None or self.state.is_over


def set_game_state(cached: CachedGame, row: Any) -> None:
    """The clock and ending of a ``games`` row, on the cache (whose position is at the
    row's seq)."""
    cached.ended = row.ended
    if row.clock is None:
        cached.clock = None
        return
    settings = dict(row.clock)
    n = len(cached.meta.seats)
    banks = tuple(float(b) for b in (row.banks or [settings.get("bank", 0.0)] * n))
    deadline = utc_or_none(row.deadline)
    held = settings.get("held")
    cached.clock = ClockState(ClockConfig.from_dict(settings), bool(settings.get("paused")),
                              banks, utc_or_none(row.turn_started), deadline,
                              cached.current_player if deadline is not None else None,
                              (int(held[0]), float(held[1])) if held else None)


class Repository:
    """Games in one database, with this process's cache of their positions (see
    :class:`endeavor.web.store.Store`, made of this and the concerns built on it).

    ``listeners`` are called with ``(game_id, seq)`` after every commit of an entry."""

    def __init__(self, engine: Engine, cache_size: int = 1024,
                 review_iterations: int = 0) -> None:
        self.engine = engine
        self.cache_size = cache_size
        #: the search budget of the review queued when a game ends (0: none is queued)
        self.review_iterations = review_iterations
        self._cache: OrderedDict[str, CachedGame] = OrderedDict()
        self._cache_lock = threading.Lock()
        #: taken around every write transaction of this process (see :meth:`transaction`).
        #: SQLite has one writer at a time: this process's writers queue here, woken as
        #: soon as the one before commits, rather than in SQLite's busy handler, which
        #: sleeps (1, 2, 5, 10, ... ms) and retries (other processes still wait there);
        #: on PostgreSQL it takes nothing
        self.write_lock: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext())
        self.listeners: list[Callable[[str, int], None]] = []

    def read(self, fn: Callable[[Connection], _T]) -> _T:
        """``fn`` (reads only) on a pooled connection; run once more when that
        connection turned out to be dead (the database server restarted: the pool does
        not ping a connection before each use, which would cost a round trip, so the
        first use after a restart finds out and SQLAlchemy discards the pool's stale
        connections)."""
        for attempt in range(DISCONNECT_RETRIES + 1):
            try:
                with self.engine.connect() as conn:
                    return fn(conn)
            except DBAPIError as e:
                if not e.connection_invalidated or attempt == DISCONNECT_RETRIES:
                    raise
                log.warning("database connection lost (%s); retrying", type(e.orig).__name__)
        raise AssertionError("unreachable")

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A write transaction of its own (``with store.transaction() as conn:``): this
        process's write lock held and a connection begun, committed at the end of the
        block (rolled back if it raises)."""
        with self.write_lock, self.engine.begin() as conn:
            yield conn

    def _notify(self, game_id: str, seq: int) -> None:
        for listener in list(self.listeners):
            try:
                listener(game_id, seq)
            except Exception:  # an announcer must never undo a commit
                log.exception("listener failed for game %s seq %s", game_id, seq)

    def snapshot(self, game_id: str) -> Snapshot:
        """The game as it stands in the database now (:class:`NotFound` if unknown)."""
        with self._locked(game_id) as cached:
            return cached.snapshot()

    def peek(self, game_id: str, fn: Callable[[Snapshot], _T]) -> _T:
        """``fn`` of the game as it stands in the database now, without copying its
        position: ``fn`` runs under the game's lock (keep it short, and keep nothing of
        the snapshot it is given: its ``state`` is the cache's own)."""
        with self._locked(game_id) as cached:
            return fn(Snapshot(cached.meta, cached.seq, cached.state,
                               tuple(cached.effective), tuple(cached.log), cached.memo,
                               tuple(cached.journal), cached.clock, cached.ended))

    def meta(self, game_id: str) -> Meta:
        """What the game is: id, config, title, seats, as this process last saw it (no
        database read; :class:`NotFound` if unknown). Seats change with the host's
        entries: a check that must be exact is made on a snapshot, or under the
        write's lock (``token=`` of :meth:`append` and :meth:`undo`)."""
        return self._entry(game_id).meta

    def seq(self, game_id: str) -> int | None:
        """The game's ``seq`` as stored (None for an unknown game): one cheap SELECT."""
        value = self.read(lambda conn: conn.execute(_SEQ_OF, {"b_id": game_id}).scalar())
        return int(value) if value is not None else None

    def seqs(self, game_ids: Iterable[str]) -> dict[str, int]:
        """The stored ``seq`` of several games at once (unknown ids left out)."""
        ids = list(set(game_ids))

        def read(conn: Connection) -> dict[str, int]:
            out: dict[str, int] = {}
            for i in range(0, len(ids), 500):
                rows = conn.execute(select(db.games.c.id, db.games.c.seq)
                                    .where(db.games.c.id.in_(ids[i:i + 500])))
                out.update({r.id: int(r.seq) for r in rows})
            return out

        return self.read(read)

    @contextmanager
    def _locked(self, game_id: str) -> Iterator[CachedGame]:
        """The cached game, locked and brought up to the database's ``seq`` (loaded on
        first use): what a caller checks under the lock is what it writes against."""
        cached = self._entry(game_id)
        with cached.lock:
            self._refresh(cached)
            yield cached

    def _entry(self, game_id: str) -> CachedGame:
        """The cached game (loaded on first use; not refreshed)."""
        if not isinstance(game_id, str) or not game_id or len(game_id) > 32:
            raise NotFound.said(refusals.NO_GAME, game=repr(game_id))
        with self._cache_lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                self._cache.move_to_end(game_id)
        return cached if cached is not None else self._load(game_id)

    def _read_meta(self, conn: Connection, game_id: str) -> tuple[Any, Meta] | None:
        row = conn.execute(select(db.games).where(db.games.c.id == game_id)).first()
        if row is None:
            return None
        seat_rows = conn.execute(select(db.seats).where(db.seats.c.game_id == game_id)
                                 .order_by(db.seats.c.seat)).all()
        return row, Meta(row.id, utc(row.created), dict(row.config), row.title,
                         tuple(seat_from_row(s) for s in seat_rows), row.host_hash,
                         bool(row.rated))

    def _load(self, game_id: str) -> CachedGame:
        found = self.read(lambda conn: self._read_meta(conn, game_id))
        if found is None:
            raise NotFound.said(refusals.NO_GAME, game=repr(game_id))
        row, meta = found
        cached = CachedGame(meta, 0, new_game(GameConfig.from_dict(meta.config)))
        set_game_state(cached, row)  # at seq 0; the refresh reads it again if it moved
        with self._cache_lock:
            existing = self._cache.get(game_id)
            if existing is not None:  # another thread loaded it meanwhile
                return existing
            self._cache[game_id] = cached
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return cached

    def _refresh(self, cached: CachedGame) -> None:
        """Apply the entries committed since ``cached.seq`` (by anyone, anywhere), with
        the seats, clock and ending that go with them."""
        game_id = cached.meta.id

        def read(conn: Connection) -> tuple[int, list[Any], Any, Meta | None] | None:
            stored = conn.execute(_SEQ_OF, {"b_id": game_id}).scalar()
            if stored is None or stored == cached.seq:
                return None if stored is None else (int(stored), [], None, None)
            since = cached.seq if stored > cached.seq else 0
            rows = list(conn.execute(_ENTRIES, {"b_id": game_id, "b_since": since,
                                                "b_upto": stored}).all())
            game = conn.execute(_GAME_STATE, {"b_id": game_id}).first()
            meta = None
            if stored < cached.seq or any(r.kind == "host" for r in rows):
                found = self._read_meta(conn, game_id)
                meta = found[1] if found is not None else None
            return int(stored), rows, game, meta

        found = self.read(read)
        if found is None:
            raise NotFound.said(refusals.NO_GAME, game=repr(game_id))
        stored, rows, game, meta = found
        if stored == cached.seq:
            return
        if stored < cached.seq:  # the database went back (restored): start afresh
            log.warning("game %s: stored seq %s < cached %s; reloading",
                        game_id, stored, cached.seq)
            if meta is not None:
                cached.meta = meta
            cached.reset()
        for r in rows:
            cached.apply(Entry(int(r.seq), int(r.seat), r.kind, r.action, r.note))
        if meta is not None:
            cached.meta = meta
        if game is not None:
            set_game_state(cached, game)
