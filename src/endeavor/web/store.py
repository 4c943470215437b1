"""The game store: games in the database, positions rebuilt by the engine.

A game is its config plus an append-only log (``moves``): ``action`` entries and
``undo`` entries, numbered ``seq`` = 1, 2, 3, ... The *effective* actions are the log read
in order (an undo removes the last effective action); the position is the config's new
game with the effective actions applied. ``games.seq`` is the log's length, updated in the
same transaction as each entry, so it is the game's version for optimistic concurrency:
an entry is written only as ``seq + 1`` of the version the writer validated against, and
the ``(game_id, seq)`` primary key makes two writers racing for it unable to both commit.

Each process caches the latest position of each game it served (state, events, log) and
brings it up to date by applying only the entries it has not seen; ``games.seq`` is read
on every access, so a move committed by another process is never missed (the one
exception: the snapshot :meth:`Store.append` and :meth:`Store.undo` return is taken in
the same locked section as their own commit, so it is the stored game at that seq).

Each cached position also holds a ``memo``: a dict for what depends only on the game and
its ``seq`` (the API keeps the encoded position, scores and decision there), replaced by
a new one whenever the position changes, so a snapshot's memo always belongs to its own
``(game, seq)`` and the views of every seat at one seq share the work.

Tokens are ``secrets.token_urlsafe(32)`` (256 bits), returned once at creation and
stored only as their SHA-256 hex digest.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Final, TypeVar

from sqlalchemy import Connection, Engine, and_, bindparam, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from endeavor import (
    ConfigError,
    EndeavorError,
    Event,
    GameConfig,
    IllegalActionError,
    NotationError,
    RecordError,
    State,
    new_game,
    replay,
)
from endeavor.bots import NAMES as BOT_NAMES

from . import db

log = logging.getLogger("endeavor.web")

SEAT_KINDS: Final = ("human", "hotseat", "bot")
#: lobby statuses: no entry in the log yet, being played, finished
STATUSES: Final = ("open", "running", "over")
MAX_TITLE: Final = 200
MAX_ACTION: Final = 64
#: how many times a read, or a write that failed before sending anything, is tried
#: again on a fresh connection after finding its pooled connection dead
_DISCONNECT_RETRIES: Final = 1

_T = TypeVar("_T")

# the statements of every move, built once (building one costs more than running it)
_SEQ_OF: Final = select(db.games.c.seq).where(db.games.c.id == bindparam("b_id"))
_ENTRIES: Final = (
    select(db.moves.c.seq, db.moves.c.seat, db.moves.c.kind, db.moves.c.action)
    .where(and_(db.moves.c.game_id == bindparam("b_id"),
                db.moves.c.seq > bindparam("b_since"), db.moves.c.seq <= bindparam("b_upto")))
    .order_by(db.moves.c.seq))
_INSERT_ENTRY: Final = insert(db.moves)
#: ``games.seq`` moved on by one entry, only from the version the writer validated
_MOVE_SEQ: Final = (
    update(db.games)
    .where(and_(db.games.c.id == bindparam("b_id"), db.games.c.seq == bindparam("b_prev")))
    .values(seq=bindparam("b_seq"), over=bindparam("b_over")))


# --------------------------------------------------------------------------- errors
class StoreError(Exception):
    """A request the store refuses; ``status`` is the HTTP status the API answers with
    and the message is the ``detail`` a client sees."""

    status = 400


class BadRequest(StoreError):
    """Bad config, seats, action, notation or record (the engine's reason)."""

    status = 400


class Unauthorized(StoreError):
    """A seat's token is needed and none was given."""

    status = 401


class Forbidden(StoreError):
    """The token is not a seat of this game, or not the seat to move."""

    status = 403


class NotFound(StoreError):
    """No such game (or position)."""

    status = 404


class Conflict(StoreError):
    """A stale ``seq``, a lost race for the next entry, or nothing to undo."""

    status = 409


class _NotSent(Exception):
    """A write's connection was found dead before the write reached the database."""

    def __init__(self, error: DBAPIError) -> None:
        super().__init__(str(error))
        self.error = error


# --------------------------------------------------------------------------- values
def hash_token(token: str) -> str:
    """The SHA-256 hex digest a token is stored as."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)


def utc(dt: datetime) -> datetime:
    """A timestamp read back from the database as an aware UTC datetime (SQLite returns
    naive ones)."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class SeatSpec:
    """A parsed seat of a create request: ``human``, ``hotseat`` or ``bot:<name>``."""

    kind: str
    bot: str | None = None

    @staticmethod
    def parse(text: object) -> SeatSpec:
        """Parse a seat string; :class:`BadRequest` names what is wrong."""
        if not isinstance(text, str):
            raise BadRequest(f"a seat is a string ('human', 'hotseat' or 'bot:<name>'), "
                             f"not {text!r}")
        t = text.strip().lower()
        if t in ("human", "hotseat"):
            return SeatSpec(t)
        if t.startswith("bot:"):
            name = t[4:].strip()
            if name not in BOT_NAMES:
                raise BadRequest(f"unknown bot {name!r} in seat {text!r}: choose from "
                                 f"{', '.join(BOT_NAMES)}")
            return SeatSpec("bot", name)
        raise BadRequest(f"unknown seat kind {text!r}: 'human', 'hotseat' or 'bot:<name>' "
                         f"(bots: {', '.join(BOT_NAMES)})")


@dataclass(frozen=True)
class Seat:
    """A seat of a stored game (``token_hash`` None for a bot)."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None


@dataclass(frozen=True)
class Meta:
    """What never changes about a game once created."""

    id: str
    created: datetime
    config: dict[str, Any]
    title: str
    seats: tuple[Seat, ...]

    @property
    def players(self) -> int:
        return len(self.seats)

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` plays in this game (empty for no token or a stranger's);
        compared in constant time."""
        if not token:
            return frozenset()
        h = hash_token(token)
        return frozenset(s.seat for s in self.seats
                         if s.token_hash is not None and hmac.compare_digest(s.token_hash, h))


@dataclass(frozen=True)
class Entry:
    """One log entry: who made it, an ``action`` (with its notation) or an ``undo``."""

    seq: int
    seat: int
    kind: str
    action: str | None


@dataclass(frozen=True)
class Effective:
    """An effective action: its log entry and the events applying it caused."""

    seq: int
    seat: int
    action: str
    events: tuple[Event, ...]


@dataclass(frozen=True)
class CreatedSeat:
    seat: int
    kind: str
    bot: str | None
    token: str | None


@dataclass(frozen=True)
class Created:
    """A new game's id and seats with their tokens (the only time a token is seen)."""

    id: str
    seats: tuple[CreatedSeat, ...]


@dataclass(frozen=True)
class Snapshot:
    """A game as of ``seq``: a private copy of its position (callers may read it freely,
    the cache is untouched), its effective actions with their events, and its log.

    ``memo`` is shared by every snapshot of this game at this ``seq`` in this process
    (and by nothing else): a place to keep what is computed from the position alone,
    once for every seat that asks. Store only values that are a function of the
    position (never of a seat or a token) and never mutate one read from it."""

    meta: Meta
    seq: int
    state: State
    effective: tuple[Effective, ...]
    log: tuple[Entry, ...]
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def current_player(self) -> int | None:
        return self.state.current_player

    def seat(self, p: int) -> Seat:
        return self.meta.seats[p]

    def events(self, since: int = 0) -> list[tuple[int, Event]]:
        """The events of the effective actions, each with the seq of its entry (only
        those after ``since``)."""
        return [(e.seq, ev) for e in self.effective if e.seq > since for ev in e.events]

    def undo_target(self, seats: Collection[int]) -> Effective | None:
        """The effective action ``seats`` may undo now: the last one, if one of ``seats``
        made it and every log entry after it was made by ``seats`` too (another seat,
        a bot included, acting since closes the door). None otherwise."""
        if not seats or not self.effective:
            return None
        last = self.effective[-1]
        if last.seat not in seats:
            return None
        if any(e.seat not in seats for e in self.log if e.seq > last.seq):
            return None
        return last


@dataclass
class _Cached:
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

    def apply(self, entry: Entry, after: State | None = None,
              events: Sequence[Event] = ()) -> None:
        """Bring the position forward by one stored entry. ``after``: the position the
        entry leads to, already worked out on a copy by this process's writer (with the
        ``events`` of an action), which the cache takes instead of playing it again."""
        if entry.seq != self.seq + 1:
            raise RuntimeError(f"game {self.meta.id}: log entry {entry.seq} after {self.seq}")
        if entry.kind == "action":
            if entry.action is None:
                raise RuntimeError(f"game {self.meta.id}: action entry {entry.seq} is empty")
            if after is None:
                events = self.state.apply(entry.action)
            else:
                self.state = after
            self.effective.append(Effective(entry.seq, entry.seat, entry.action,
                                            tuple(events)))
        elif entry.kind == "undo":
            if after is None:
                self.state.undo()
            else:
                self.state = after
            self.effective.pop()
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
        self.memo = {}

    def snapshot(self) -> Snapshot:
        return Snapshot(self.meta, self.seq, self.state.copy(), tuple(self.effective),
                        tuple(self.log), self.memo)


@dataclass(frozen=True)
class LobbyRow:
    """A game as the lobby lists it."""

    id: str
    title: str
    created: datetime
    config: dict[str, Any]
    seats: tuple[Seat, ...]
    seq: int
    status: str
    current_player: int | None


# --------------------------------------------------------------------------- store
class Store:
    """Games in one database, with this process's cache of their positions.

    Thread-safe: the API serves requests from a thread pool and bots play from their own
    threads. ``listeners`` are called with ``(game_id, seq)`` after every commit (the
    WebSocket announcer subscribes)."""

    def __init__(self, engine: Engine, cache_size: int = 1024) -> None:
        self.engine = engine
        self.cache_size = cache_size
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_lock = threading.Lock()
        # SQLite has one writer at a time: this process's writers queue here, woken as
        # soon as the one before commits, rather than in SQLite's busy handler, which
        # sleeps (1, 2, 5, 10, ... ms) and retries (other processes still wait there)
        self._write_lock: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext())
        self.listeners: list[Callable[[str, int], None]] = []

    # ------------------------------------------------------------------ create
    def create(self, config: object, seats: Sequence[object], title: str | None = None,
               ) -> Created:
        """A new game with no entry in its log. ``config``: the ``GameConfig`` fields
        (:class:`BadRequest` with the engine's reason when impossible); ``seats``: one
        ``human`` / ``hotseat`` / ``bot:<name>`` per player."""
        cfg = _config(config)
        specs = self._seats(cfg, seats)
        new_game(cfg)  # setup can't fail for a valid config; checked before any write
        return self._insert(cfg, specs, title, [], over=False)

    def import_record(self, record: object, seats: Sequence[object],
                      title: str | None = None) -> Created:
        """A new game from a record (as ``GET /record`` returns it): replayed by the
        engine (:class:`BadRequest` with its reason for a corrupt record), its log
        holding the record's actions, each attributed to the seat that decided it."""
        try:
            final = replay(record)
        except RecordError as e:
            raise BadRequest(str(e)) from None
        except EndeavorError as e:  # anything else the engine rejects a record for
            raise BadRequest(str(e)) from None
        cfg = final.config
        specs = self._seats(cfg, seats)
        state = new_game(cfg)
        entries: list[tuple[int, str]] = []
        for text in final.record()["actions"]:
            who = state.current_player
            if who is None:  # replay() accepted it, so this cannot happen
                raise BadRequest("the record goes on after the end of the game")
            state.apply(text)
            entries.append((who, text))
        return self._insert(cfg, specs, title, entries, over=state.is_over)

    def _seats(self, cfg: GameConfig, seats: Sequence[object]) -> list[SeatSpec]:
        if not isinstance(seats, (list, tuple)):
            raise BadRequest("seats must be a list with one seat per player")
        if len(seats) != cfg.players:
            raise BadRequest(f"the game is for {cfg.players} players but {len(seats)} "
                             f"seat{'s' if len(seats) != 1 else ''} were given")
        return [SeatSpec.parse(s) for s in seats]

    def _insert(self, cfg: GameConfig, specs: list[SeatSpec], title: str | None,
                entries: list[tuple[int, str]], over: bool) -> Created:
        game_id = secrets.token_urlsafe(9)
        hotseat_token = secrets.token_urlsafe(32) if any(
            s.kind == "hotseat" for s in specs) else None
        created_seats = []
        seat_rows = []
        for i, spec in enumerate(specs):
            token: str | None
            if spec.kind == "bot":
                token = None
            elif spec.kind == "hotseat":
                token = hotseat_token
            else:
                token = secrets.token_urlsafe(32)
            created_seats.append(CreatedSeat(i, spec.kind, spec.bot, token))
            seat_rows.append({"game_id": game_id, "seat": i, "kind": spec.kind,
                              "bot": spec.bot, "name": f"P{i}",
                              "token_hash": hash_token(token) if token else None})
        now = _now()
        name = (title or "").strip()[:MAX_TITLE] or _default_title(cfg, specs)
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(insert(db.games).values(
                id=game_id, created=now, config=cfg.to_dict(), seats=len(specs),
                seq=len(entries), over=over, title=name))
            conn.execute(insert(db.seats), seat_rows)
            if entries:
                conn.execute(insert(db.moves), [
                    {"game_id": game_id, "seq": n, "seat": who, "kind": "action",
                     "action": text, "created": now}
                    for n, (who, text) in enumerate(entries, 1)])
        self._notify(game_id, len(entries))
        return Created(game_id, tuple(created_seats))

    # ------------------------------------------------------------------ read
    def snapshot(self, game_id: str) -> Snapshot:
        """The game as it stands in the database now (:class:`NotFound` if unknown)."""
        with self._locked(game_id) as cached:
            return cached.snapshot()

    def meta(self, game_id: str) -> Meta:
        """What never changes about a game: id, config, title, seats (from the cache;
        :class:`NotFound` if unknown)."""
        return self._entry(game_id).meta

    def seq(self, game_id: str) -> int | None:
        """The game's ``seq`` as stored (None for an unknown game): one cheap SELECT."""
        value = self._read(lambda conn: conn.execute(_SEQ_OF, {"b_id": game_id}).scalar())
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

        return self._read(read)

    def position_after(self, game_id: str, n: int) -> Snapshot:
        """The game after its first ``n`` effective actions (the replay viewer): a
        snapshot whose log and effective actions stop there (:class:`NotFound` when the
        game has fewer)."""
        snap = self.snapshot(game_id)
        if n < 0 or n > len(snap.effective):
            raise NotFound(f"game {game_id} has {len(snap.effective)} actions: ask for a "
                           f"position from 0 to {len(snap.effective)}")
        state = new_game(GameConfig.from_dict(snap.meta.config))
        effective = []
        for e in snap.effective[:n]:
            effective.append(Effective(e.seq, e.seat, e.action, tuple(state.apply(e.action))))
        last = effective[-1].seq if effective else 0
        return Snapshot(snap.meta, snap.seq, state, tuple(effective),
                        tuple(x for x in snap.log if x.seq <= last))

    def lobby(self, status: str | None = None, limit: int = 50) -> list[LobbyRow]:
        """The newest games first (``status``: ``open``, ``running`` or ``over``)."""
        g = db.games
        query = select(g.c.id, g.c.title, g.c.created, g.c.config, g.c.seq, g.c.over)
        if status == "open":
            query = query.where(and_(g.c.seq == 0, g.c.over.is_(False)))
        elif status == "running":
            query = query.where(and_(g.c.seq > 0, g.c.over.is_(False)))
        elif status == "over":
            query = query.where(g.c.over.is_(True))
        elif status is not None:
            raise BadRequest(f"unknown status {status!r}: {', '.join(STATUSES)}")
        query = query.order_by(g.c.created.desc(), g.c.id).limit(limit)
        def read(conn: Connection) -> tuple[list[Any], list[Any]]:
            rows = list(conn.execute(query).all())
            ids = [r.id for r in rows]
            seat_rows = list(conn.execute(
                select(db.seats).where(db.seats.c.game_id.in_(ids))
                .order_by(db.seats.c.game_id, db.seats.c.seat)).all()) if ids else []
            return rows, seat_rows

        rows, seat_rows = self._read(read)
        by_game: dict[str, list[Seat]] = {}
        for s in seat_rows:
            by_game.setdefault(s.game_id, []).append(_seat(s))
        out = []
        for r in rows:
            current = None
            if not r.over:
                try:
                    with self._locked(r.id) as cached:
                        current = cached.state.current_player
                except StoreError:
                    current = None
            out.append(LobbyRow(
                r.id, r.title, utc(r.created), dict(r.config), tuple(by_game.get(r.id, ())),
                int(r.seq), "over" if r.over else ("open" if r.seq == 0 else "running"),
                current))
        return out

    def unfinished_with_bots(self) -> list[str]:
        """Games not over that have a bot seat (those a bot may be holding up)."""
        g, s = db.games, db.seats
        query = (select(g.c.id).where(g.c.over.is_(False))
                 .where(g.c.id.in_(select(s.c.game_id).where(s.c.kind == "bot")))
                 .order_by(g.c.created))
        return self._read(lambda conn: [r.id for r in conn.execute(query)])

    # ------------------------------------------------------------------ write
    def append(self, game_id: str, seats: Collection[int], action: str, seq: int,
               ) -> Snapshot:
        """Play ``action`` for one of ``seats`` on the game at version ``seq``.

        :class:`Conflict` when ``seq`` is not the game's (checked again by the write),
        :class:`Forbidden` when none of ``seats`` is to move, :class:`BadRequest` with
        the engine's reason for bad notation or an illegal action (nothing written).
        Returns the game after the commit."""
        if not isinstance(action, str) or len(action) > MAX_ACTION:
            raise BadRequest(f"not an action: {action[:MAX_ACTION]!r}..."
                             if isinstance(action, str) else "an action is a string")
        with self._locked(game_id) as cached:
            if seq != cached.seq:
                raise Conflict(f"stale seq {seq}: the game is at seq {cached.seq}")
            who = cached.state.current_player
            if who is None:
                raise Conflict("the game is over")
            if who not in seats:
                raise Forbidden(f"P{who} is to move, not you")
            trial = cached.state.copy()
            try:
                parsed = trial.parse_action(action)
                events = trial.apply(parsed)
            except (IllegalActionError, NotationError) as e:
                raise BadRequest(str(e)) from None
            # the log keeps the canonical notation, whatever spelling the client sent
            entry = Entry(seq + 1, who, "action", str(parsed))
            self._write(game_id, entry, over=trial.is_over)
            cached.apply(entry, trial, events)
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def undo(self, game_id: str, seats: Collection[int], seq: int | None) -> Snapshot:
        """Undo the last effective action for ``seats`` (see
        :meth:`Snapshot.undo_target`), appended as an ``undo`` entry at ``seq + 1``
        (``seq`` None: the game's seq as it stands). :class:`Conflict` when ``seq`` is
        stale or there is nothing ``seats`` may undo."""
        with self._locked(game_id) as cached:
            if seq is None:
                seq = cached.seq
            if seq != cached.seq:
                raise Conflict(f"stale seq {seq}: the game is at seq {cached.seq}")
            snap = cached.snapshot()
            target = snap.undo_target(seats)
            if target is None:
                raise Conflict("nothing to undo: " + (
                    "no action has been played yet" if not snap.effective else
                    "another player has acted since your last decision"))
            trial = snap.state  # the snapshot's own copy
            trial.undo()
            entry = Entry(seq + 1, target.seat, "undo", None)
            self._write(game_id, entry, over=trial.is_over)
            cached.apply(entry, trial)
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def _write(self, game_id: str, entry: Entry, over: bool) -> None:
        """Insert ``entry`` and move ``games.seq`` to it in one transaction; a lost race
        (the key taken, or ``games.seq`` moved) is :class:`Conflict`. A pooled
        connection found dead at the INSERT (the first statement of the transaction, so
        nothing of it can have been committed) is replaced and the write tried again."""
        for attempt in range(_DISCONNECT_RETRIES + 1):
            try:
                self._write_once(game_id, entry, over)
                return
            except _NotSent as e:
                if attempt == _DISCONNECT_RETRIES:
                    raise e.error from None
                log.warning("database connection lost (%s); retrying the write",
                            type(e.error.orig).__name__)

    def _write_once(self, game_id: str, entry: Entry, over: bool) -> None:
        try:
            with self._write_lock, self.engine.begin() as conn:
                # the INSERT first: on SQLite it takes the write lock (waiting for another
                # writer), on PostgreSQL it waits for a racing insert of the same key
                try:
                    conn.execute(_INSERT_ENTRY, {
                        "game_id": game_id, "seq": entry.seq, "seat": entry.seat,
                        "kind": entry.kind, "action": entry.action, "created": _now()})
                except DBAPIError as e:
                    if e.connection_invalidated:
                        raise _NotSent(e) from None
                    raise
                result = conn.execute(_MOVE_SEQ, {"b_id": game_id, "b_prev": entry.seq - 1,
                                                  "b_seq": entry.seq, "b_over": over})
                if result.rowcount != 1:
                    raise Conflict(f"another move was recorded first (seq {entry.seq})")
        except IntegrityError:
            raise Conflict(f"another move was recorded first (seq {entry.seq})") from None
        except DBAPIError as e:
            if "locked" in str(e.orig) or "could not serialize" in str(e.orig):
                raise Conflict(f"another move was being recorded (seq {entry.seq}); "
                               "try again") from None
            raise

    def _notify(self, game_id: str, seq: int) -> None:
        for listener in list(self.listeners):
            try:
                listener(game_id, seq)
            except Exception:  # an announcer must never undo a commit
                log.exception("listener failed for game %s seq %s", game_id, seq)

    # ------------------------------------------------------------------ cache
    @contextmanager
    def _locked(self, game_id: str) -> Iterator[_Cached]:
        """The cached game, locked and brought up to the database's ``seq`` (loaded on
        first use): what a caller checks under the lock is what it writes against."""
        cached = self._entry(game_id)
        with cached.lock:
            self._refresh(cached)
            yield cached

    def _entry(self, game_id: str) -> _Cached:
        """The cached game (loaded on first use; not refreshed)."""
        if not isinstance(game_id, str) or not game_id or len(game_id) > 32:
            raise NotFound(f"no game {game_id!r}")
        with self._cache_lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                self._cache.move_to_end(game_id)
        return cached if cached is not None else self._load(game_id)

    def _load(self, game_id: str) -> _Cached:
        def read(conn: Connection) -> tuple[Any, list[Any]] | None:
            row = conn.execute(select(db.games).where(db.games.c.id == game_id)).first()
            if row is None:
                return None
            return row, list(conn.execute(
                select(db.seats).where(db.seats.c.game_id == game_id)
                .order_by(db.seats.c.seat)).all())

        found = self._read(read)
        if found is None:
            raise NotFound(f"no game {game_id!r}")
        row, seat_rows = found
        meta = Meta(row.id, utc(row.created), dict(row.config), row.title,
                    tuple(_seat(s) for s in seat_rows))
        cached = _Cached(meta, 0, new_game(GameConfig.from_dict(meta.config)))
        with self._cache_lock:
            existing = self._cache.get(game_id)
            if existing is not None:  # another thread loaded it meanwhile
                return existing
            self._cache[game_id] = cached
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return cached

    def _refresh(self, cached: _Cached) -> None:
        """Apply the entries committed since ``cached.seq`` (by anyone, anywhere)."""
        game_id = cached.meta.id

        def read(conn: Connection) -> tuple[int, list[Any]] | None:
            stored = conn.execute(_SEQ_OF, {"b_id": game_id}).scalar()
            if stored is None or stored == cached.seq:
                return None if stored is None else (int(stored), [])
            since = cached.seq if stored > cached.seq else 0
            rows = conn.execute(_ENTRIES, {"b_id": game_id, "b_since": since,
                                           "b_upto": stored}).all()
            return int(stored), list(rows)

        found = self._read(read)
        if found is None:
            raise NotFound(f"no game {game_id!r}")
        stored, rows = found
        if stored < cached.seq:  # the database went back (restored): start afresh
            log.warning("game %s: stored seq %s < cached %s; reloading",
                        game_id, stored, cached.seq)
            cached.reset()
        for r in rows:
            cached.apply(Entry(int(r.seq), int(r.seat), r.kind, r.action))

    def _read(self, fn: Callable[[Connection], _T]) -> _T:
        """``fn`` (reads only) on a pooled connection; run once more when that
        connection turned out to be dead (the database server restarted: the pool does
        not ping a connection before each use, which would cost a round trip, so the
        first use after a restart finds out and SQLAlchemy discards the pool's stale
        connections)."""
        for attempt in range(_DISCONNECT_RETRIES + 1):
            try:
                with self.engine.connect() as conn:
                    return fn(conn)
            except DBAPIError as e:
                if not e.connection_invalidated or attempt == _DISCONNECT_RETRIES:
                    raise
                log.warning("database connection lost (%s); retrying", type(e.orig).__name__)
        raise AssertionError("unreachable")

    def count(self) -> int:
        """How many games the database holds."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(db.games)).scalar() or 0)


def _config(config: object) -> GameConfig:
    if not isinstance(config, dict):
        raise BadRequest("config must be an object of GameConfig fields")
    try:
        return GameConfig.from_dict(config)
    except ConfigError as e:
        raise BadRequest(str(e)) from None
    except (TypeError, ValueError) as e:  # a field of the wrong shape
        raise BadRequest(f"bad config: {e}") from None


def _seat(row: Any) -> Seat:
    return Seat(int(row.seat), row.kind, row.bot, row.name, row.token_hash)


def _default_title(cfg: GameConfig, specs: list[SeatSpec]) -> str:
    ruleset = "Age of Sail" if cfg.ruleset == "age_of_sail" else "2009 rules"
    bots = sum(1 for s in specs if s.kind == "bot")
    who = f", {bots} bot{'s' if bots != 1 else ''}" if bots else ""
    return f"{cfg.players} players, {ruleset}{who}"
