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
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import logging
import math
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Final, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
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

from .. import db, seating
from .. import names as seat_names
from ..view import plain_words, pronouns

log = logging.getLogger("endeavor.web")

SEAT_KINDS: Final = ("human", "hotseat", "bot")
#: lobby statuses: no entry in the log yet, being played, finished
STATUSES: Final = ("open", "running", "over")
MAX_TITLE: Final = 200
MAX_ACTION: Final = 64
#: the 403 of a token that is no seat's of the game (never was, or re-issued since)
NOT_A_SEAT: Final = "this link is not a seat of this game (any more)"
#: the seat number of log entries made by the host (not by a seat)
HOST_SEAT: Final = -1
#: notification channels a seat may set
CHANNELS: Final = ("webhook", "email")
#: what a clock does when a player's time runs out: a bot plays that decision (the
#: seat's consecutive decisions), or the rest of the game
ON_TIMEOUT: Final = ("decision", "game")
CLOCK_KINDS: Final = ("live", "turn")
#: the longest a clock may give (a bank, a decision, an extension): 60 days
MAX_CLOCK_SECONDS: Final = 60 * 24 * 3600.0
#: the bot that plays for a player whose time ran out, unless the host chose another
DEFAULT_TIMEOUT_BOT: Final = "medium"
#: how long a worker keeps an expired deadline it claimed before another may take it
#: (the clock keeper renews it while it acts: only a dead worker's lapses)
CLAIM_SECONDS: Final = 10.0
#: how many times a read, or a write that failed before sending anything, is tried
#: again on a fresh connection after finding its pooled connection dead
_DISCONNECT_RETRIES: Final = 1

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
_INSERT_ENTRY: Final = insert(db.moves)
#: ``games.seq`` moved on by one entry, only from the version the writer validated
_MOVE_SEQ: Final = (
    update(db.games)
    .where(and_(db.games.c.id == bindparam("b_id"), db.games.c.seq == bindparam("b_prev")))
    .values(seq=bindparam("b_seq"), over=bindparam("b_over"),
            current_player=bindparam("b_player")))
#: the same for a game with a clock: its running decision and banks too
_MOVE_SEQ_CLOCK: Final = (
    update(db.games)
    .where(and_(db.games.c.id == bindparam("b_id"), db.games.c.seq == bindparam("b_prev")))
    .values(seq=bindparam("b_seq"), over=bindparam("b_over"),
            current_player=bindparam("b_player"), clock=bindparam("b_clock"),
            banks=bindparam("b_banks"), turn_started=bindparam("b_started"),
            deadline=bindparam("b_deadline"), claim_until=None))
#: a seat's notifications asked for by an entry (one row per channel it set; a row
#: already waiting for that seat and channel keeps its due time, attempts and lease:
#: what a message says is read when it is sent, but its event and seq become this
#: entry's, so a sender that read the game before this commit sees the row moved on
#: and sends again rather than deleting it). The WHERE clause also keeps SQLite's
#: parser from reading ``ON CONFLICT`` as part of a join
_OUTBOX_UPSERT: Final = (" ON CONFLICT (game_id, seat, channel) DO UPDATE "
                         "SET event = excluded.event, seq = excluded.seq")
_OUTBOX_SEAT: Final = text(
    "INSERT INTO outbox (game_id, seat, channel, event, seq, due, attempts) "
    "SELECT game_id, seat, channel, :event, :seq, :due, 0 FROM notify "
    "WHERE game_id = :game AND seat = :seat" + _OUTBOX_UPSERT)
_OUTBOX_ALL: Final = text(
    "INSERT INTO outbox (game_id, seat, channel, event, seq, due, attempts) "
    "SELECT game_id, seat, channel, :event, :seq, :due, 0 FROM notify "
    "WHERE game_id = :game" + _OUTBOX_UPSERT)
#: a finished game's review queued (:mod:`endeavor.web.reviews`): a new row, or the
#: game's row reset (a game ended again after an undo, or a failed review asked for
#: again: ``b_only`` names the status a row must have to be reset, ``'*'`` any)
_REVIEW_QUEUE: Final = text(
    "INSERT INTO reviews (game_id, seq, status, iterations, done, attempts, queued) "
    "VALUES (:b_game, :b_seq, 'queued', :b_iterations, 0, 0, :b_now) "
    "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, status = 'queued', "
    "iterations = excluded.iterations, done = 0, total = NULL, attempts = 0, "
    "worker = NULL, lease_until = NULL, error = NULL, partial = NULL, result = NULL, "
    "moves = NULL, queued = excluded.queued, started = NULL, finished = NULL "
    "WHERE :b_only = '*' OR reviews.status = :b_only"
).bindparams(bindparam("b_now", type_=db.reviews.c.queued.type))


# --------------------------------------------------------------------------- errors
class StoreError(Exception):
    """A request the store refuses; ``status`` is the HTTP status the API answers with
    and the message is the ``detail`` a client sees."""

    status = 400


class BadRequest(StoreError):
    """Bad config, seats, action, notation or record (the engine's reason)."""

    status = 400


class Unauthorized(StoreError):
    """A seat's (or the host's) token is needed and none was given."""

    status = 401


class Forbidden(StoreError):
    """The token is not a seat (or the host) of this game, or not the seat to move."""

    status = 403


class NotFound(StoreError):
    """No such game (or position)."""

    status = 404


class Conflict(StoreError):
    """A stale ``seq``, a lost race for the next entry, nothing to undo, a game over."""

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


def seat_token(host_token: str, game_id: str, key: str, gen: int) -> str:
    """The token of a seat: an HMAC-SHA256 of the game id, the seat's ``key`` (its
    number, or ``hotseat`` for the hot-seat seats, which share one) and its link
    generation ``gen``, keyed by the host's token (43 URL-safe characters, 256 bits)."""
    mac = hmac.new(host_token.encode("utf-8"), f"endeavor-seat:{game_id}:{key}:{gen}"
                   .encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def utcnow() -> datetime:
    """Now, as an aware UTC datetime."""
    return datetime.now(timezone.utc)


#: the store's clock: when a decision starts and ends, a seat is given to a bot, ... (a
#: test of the clocks sets it: ``monkeypatch.setattr(endeavor.web.store, "clock", f)``)
clock: Callable[[], datetime] = utcnow


def _now() -> datetime:
    return clock()


def utc(dt: datetime) -> datetime:
    """A timestamp read back from the database as an aware UTC datetime (SQLite returns
    naive ones)."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=timezone.utc)


def _utc_or_none(dt: datetime | None) -> datetime | None:
    return utc(dt) if dt is not None else None


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
    """A seat of a stored game (``token_hash`` None for a bot, or a human seat the host
    gave to a bot). ``bot_override``: the bot playing for a human seat (``reason``
    ``host``: the host put it there; ``timeout``: the seat's clock ran out).
    ``override_at``: when the host put the bot there; while it plays, the seat's player
    keeps ``token_hash`` (the link opens the game to watch, not to move), and the host
    handing the seat back makes that link the seat's again (see :attr:`benched`)."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    token_gen: int = 0
    bot_override: str | None = None
    override_reason: str | None = None
    override_at: datetime | None = None
    #: the name was chosen (by the host or the seat's player), not given by default
    named: bool = False

    @property
    def benched(self) -> bool:
        """The host gave this person's seat to a bot: its link only watches."""
        return self.override_reason == "host" and self.kind != "bot"

    @property
    def played_by(self) -> str | None:
        """The bot that plays this seat now (None: a person)."""
        if self.bot_override is not None:
            return self.bot_override
        return self.bot if self.kind == "bot" else None

    @property
    def token_key(self) -> str:
        """What the seat's token is derived from beside its generation."""
        return "hotseat" if self.kind == "hotseat" else str(self.seat)


@dataclass(frozen=True)
class ClockConfig:
    """A game's clock, chosen at creation: each decision gets ``per_decision`` seconds of
    its own, and time beyond that comes out of the seat's ``bank`` (seconds, for the
    whole game); when both are spent the player's time has run out and ``bot`` plays:
    that decision (with the seat's decisions right after it, until another seat is to
    move) or, ``on_timeout="game"``, the rest of the game, unless the player takes the
    seat back (``reclaim``). ``kind`` (``live`` or ``turn``) is how it is presented."""

    kind: str = "turn"
    bank: float = 0.0
    per_decision: float = 86_400.0
    on_timeout: str = "decision"
    bot: str = DEFAULT_TIMEOUT_BOT
    reclaim: bool = True

    @staticmethod
    def parse(obj: object) -> ClockConfig | None:
        """A clock from the JSON of a create request (None or ``{}``: no clock);
        :class:`BadRequest` says what is wrong."""
        if obj is None:
            return None
        if not isinstance(obj, Mapping):
            raise BadRequest("clock must be an object: {kind, bank, per_decision, "
                             "on_timeout, bot, reclaim}")
        if not obj:
            return None
        known = {"kind", "bank", "per_decision", "on_timeout", "bot", "reclaim"}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise BadRequest(f"unknown clock field {unknown[0]!r}: the fields are "
                             f"{', '.join(sorted(known))}")
        kind = obj.get("kind", "turn")
        if kind not in CLOCK_KINDS:
            raise BadRequest(f"clock kind {kind!r}: 'live' or 'turn'")
        bank = _seconds(obj.get("bank", 0), "clock bank")
        per = _seconds(obj.get("per_decision", 0), "clock per_decision")
        if bank + per < 1:
            raise BadRequest("a clock needs at least 1 second: set per_decision and/or "
                             "bank (seconds)")
        on_timeout = obj.get("on_timeout", "decision")
        if on_timeout not in ON_TIMEOUT:
            raise BadRequest(f"clock on_timeout {on_timeout!r}: 'decision' (a bot plays "
                             "that decision) or 'game' (a bot plays the rest of the game)")
        bot = obj.get("bot", DEFAULT_TIMEOUT_BOT)
        if not isinstance(bot, str) or bot not in BOT_NAMES:
            raise BadRequest(f"clock bot {bot!r}: choose from {', '.join(BOT_NAMES)}")
        reclaim = obj.get("reclaim", True)
        if not isinstance(reclaim, bool):
            raise BadRequest("clock reclaim is true or false")
        return ClockConfig(kind, bank, per, on_timeout, bot, reclaim)

    def to_dict(self, paused: bool = False) -> dict[str, Any]:
        return {"kind": self.kind, "bank": self.bank, "per_decision": self.per_decision,
                "on_timeout": self.on_timeout, "bot": self.bot, "reclaim": self.reclaim,
                "paused": paused}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ClockConfig:
        return ClockConfig(str(d.get("kind", "turn")), float(d.get("bank", 0.0)),
                           float(d.get("per_decision", 0.0)),
                           str(d.get("on_timeout", "decision")),
                           str(d.get("bot", DEFAULT_TIMEOUT_BOT)),
                           bool(d.get("reclaim", True)))


def _seconds(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRequest(f"{what} is a number of seconds, not {value!r}")
    if not math.isfinite(value) or value < 0 or value > MAX_CLOCK_SECONDS:
        raise BadRequest(f"{what} must be from 0 to {int(MAX_CLOCK_SECONDS):,} seconds "
                         f"(60 days)")
    return float(value)


@dataclass(frozen=True)
class ClockState:
    """A game's clock as it stands: its settings, whether the host stopped it, each
    seat's bank (seconds), and the running decision: whose (``running``), since when
    and until when (all None when no time runs: a bot or nobody to move, stopped, over).
    ``held``: while the host has stopped the clocks, the seat whose decision was running
    and what was left of that decision's own time (seconds), given back on restart.
    """

    config: ClockConfig
    paused: bool
    banks: tuple[float, ...]
    turn_started: datetime | None = None
    deadline: datetime | None = None
    running: int | None = None
    held: tuple[int, float] | None = None

    def left(self, seat: int, now: datetime) -> float:
        """Seconds ``seat`` has left now: its bank, plus what is left of the running
        decision's own time when it is that seat's (never below 0); while the clocks
        are stopped, plus what the stopped decision kept."""
        bank = self.banks[seat]
        if self.held is not None and self.held[0] == seat and self.running is None:
            return bank + self.held[1]
        if self.running != seat or self.turn_started is None:
            return bank
        spent = (now - self.turn_started).total_seconds()
        return max(0.0, bank + self.config.per_decision - spent)

    def charged(self, now: datetime, *, all_spent: bool = False) -> tuple[float, ...]:
        """The banks once the running decision's time is counted: what it took beyond
        its own time comes out of the running seat's bank (all of it: ``all_spent``)."""
        r = self.running
        if r is None or self.turn_started is None:
            return self.banks
        banks = list(self.banks)
        if all_spent:
            banks[r] = 0.0
        else:
            spent = (now - self.turn_started).total_seconds()
            banks[r] = max(0.0, banks[r] - max(0.0, spent - self.config.per_decision))
        return tuple(banks)

    def settings(self) -> dict[str, Any]:
        """The ``games.clock`` column: the settings, whether stopped, what a stopped
        decision kept."""
        out = self.config.to_dict(self.paused)
        if self.held is not None:
            out["held"] = [self.held[0], self.held[1]]
        return out

    def to_json(self, now: datetime) -> dict[str, Any]:
        """For a client: the settings, the seats' banks and time left, the running
        decision's seat, start and deadline, and the server's time."""
        return {**self.config.to_dict(self.paused),
                "banks": list(self.banks),
                "left": [self.left(s, now) for s in range(len(self.banks))],
                "running": self.running,
                "turn_started": self.turn_started.isoformat() if self.turn_started else None,
                "deadline": self.deadline.isoformat() if self.deadline else None,
                "now": now.isoformat()}


def _reclock(clock: ClockState | None, seats: Sequence[Seat], player: int | None,
             now: datetime, *, stopped: bool, restart: bool, all_spent: bool = False,
             ) -> ClockState | None:
    """The clock after an entry: ``player`` is then to move (None: nobody), ``stopped``
    the game is over. ``restart``: a decision was made, so the running one is counted
    and a new one starts; else a running decision that goes on (same seat, still a
    person's, clock not stopped) keeps its start and deadline. ``all_spent``: the
    running seat's time ran out (its bank is spent)."""
    if clock is None:
        return None
    runs = not (stopped or clock.paused or player is None
                or seats[player].played_by is not None)
    if runs and not restart and clock.running == player and clock.deadline is not None:
        return clock
    if restart and clock.held is not None:  # a decision made: the stopped one is gone
        clock = replace(clock, held=None)
    banks = clock.charged(now, all_spent=all_spent)
    if not runs or player is None:
        return replace(clock, banks=banks, turn_started=None, deadline=None, running=None)
    deadline = now + timedelta(seconds=clock.config.per_decision + banks[player])
    return replace(clock, banks=banks, turn_started=now, deadline=deadline, running=player)


def resumed(clock: ClockState, seats: Sequence[Seat], player: int | None,
            now: datetime) -> ClockState | None:
    """The clock restarted by the host: the decision that was running when it stopped
    (still ``player``'s, a person's) goes on with the time it had left; otherwise a new
    decision's time starts (see :func:`_reclock`)."""
    held = clock.held
    if (held is None or player is None or held[0] != player
            or seats[player].played_by is not None):
        return _reclock(replace(clock, held=None), seats, player, now, stopped=False,
                        restart=True)
    own = min(held[1], clock.config.per_decision)
    started = now - timedelta(seconds=clock.config.per_decision - own)
    deadline = now + timedelta(seconds=own + clock.banks[player])
    return replace(clock, held=None, turn_started=started, deadline=deadline,
                   running=player)


@dataclass(frozen=True)
class Meta:
    """What a game is: id, config, title, its host's token digest and its seats. Seats
    change only through ``host`` entries of the log (a new :class:`Meta` each time)."""

    id: str
    created: datetime
    config: dict[str, Any]
    title: str
    seats: tuple[Seat, ...]
    host_hash: str | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` plays in this game (empty for no token or a stranger's);
        compared in constant time. A seat the host gave to a bot is not played by its
        link meanwhile (see :meth:`benched_of`)."""
        return frozenset(s.seat for s in self._held(token) if not s.benched)

    def benched_of(self, token: str | None) -> tuple[Seat, ...]:
        """The seats of ``token`` that the host gave to a bot: the link watches them
        until the host hands them back."""
        return tuple(s for s in self._held(token) if s.benched)

    def _held(self, token: str | None) -> list[Seat]:
        if not token:
            return []
        h = hash_token(token)
        return [s for s in self.seats
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, h)]

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is this game's host token."""
        return bool(token) and self.host_hash is not None and hmac.compare_digest(
            self.host_hash, hash_token(token or ""))


@dataclass(frozen=True)
class Entry:
    """One log entry: who made it (:data:`HOST_SEAT` for the host), an ``action`` (with
    its notation), an ``undo`` or a ``host`` entry (its short notation in ``action``);
    ``note``: how an action came about when not by its player (``timeout:<bot>``)."""

    seq: int
    seat: int
    kind: str
    action: str | None
    note: str | None = None


@dataclass(frozen=True)
class Effective:
    """An effective action: its log entry and the events applying it caused."""

    seq: int
    seat: int
    action: str
    events: tuple[Event, ...]
    note: str | None = None


@dataclass(frozen=True)
class LogLine:
    """A line of the game's log that is not an engine event: an undo (``undo``), a change
    made by the host or a seat (``host``), a clock running out (``timeout``)."""

    seq: int
    kind: str
    player: int | None
    text: str


@dataclass(frozen=True)
class CreatedSeat:
    seat: int
    kind: str
    bot: str | None
    token: str | None


@dataclass(frozen=True)
class Created:
    """A new game's id, seats with their tokens, and the host's token."""

    id: str
    seats: tuple[CreatedSeat, ...]
    host_token: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """A game as of ``seq``: a private copy of its position (callers may read it freely,
    the cache is untouched), its effective actions with their events, its log, the log
    lines that are not engine events (``journal``), the clock and how it ended.

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
    journal: tuple[LogLine, ...] = ()
    clock: ClockState | None = None
    ended: str | None = None

    @property
    def over(self) -> bool:
        """The game has ended: played to its end, or ended by the host."""
        return self.ended is not None or self.state.is_over

    @property
    def current_player(self) -> int | None:
        return None if self.ended is not None else self.state.current_player

    def seat(self, p: int) -> Seat:
        return self.meta.seats[p]

    def events(self, since: int = 0) -> list[tuple[int, Event]]:
        """The events of the effective actions, each with the seq of its entry (only
        those after ``since``)."""
        return [(e.seq, ev) for e in self.effective if e.seq > since for ev in e.events]

    def lines(self, since: int = 0) -> list[LogLine]:
        """The journal's lines after ``since``."""
        return [line for line in self.journal if line.seq > since]

    def undo_target(self, seats: Collection[int]) -> Effective | None:
        """The effective action ``seats`` may undo now: the last one, if one of ``seats``
        made it (not a bot playing for it) and every log entry after it was made by
        ``seats`` too (another seat, a bot or the host acting since closes the door).
        None otherwise, and once the game has ended."""
        if not seats or not self.effective or self.ended is not None:
            return None
        last = self.effective[-1]
        if last.seat not in seats or last.note is not None:
            return None
        if any(e.seat not in seats and not is_rename(e) for e in self.log
               if e.seq > last.seq):
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
                self.journal.append(LogLine(entry.seq, "timeout", entry.seat,
                                            timeout_words(entry.seat, entry.note)))
            self.effective.append(Effective(entry.seq, entry.seat, entry.action,
                                            tuple(events), entry.note))
        elif entry.kind == "undo":
            if after is None:
                self.state.undo()
            else:
                self.state = after
            gone = self.effective.pop()
            self.journal.append(LogLine(entry.seq, "undo", gone.seat, undo_words(gone)))
        elif entry.kind == "host":
            if not is_rename(entry):  # a new name shows everywhere at once: no line
                self.journal.append(LogLine(entry.seq, "host",
                                            entry.seat if entry.seat >= 0 else None,
                                            host_words(entry)))
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


# --------------------------------------------------------------------------- words
_PLAYER_PREFIX: Final = re.compile(r"^P\d+:\s*")


def undo_words(gone: Effective) -> str:
    """``P0 took back: Build the Shipyard`` (the undone action's own words)."""
    first = next((ev.text for ev in gone.events if ev.kind == "action"), gone.action)
    what = _PLAYER_PREFIX.sub("", pronouns(plain_words(first)[0]))
    return f"P{gone.seat} took back: {what}"


def timeout_words(seat: int, note: str) -> str:
    """``P2's time ran out: the medium bot played for them``."""
    bot = note.split(":", 1)[1] if ":" in note else "a"
    return f"P{seat}'s time ran out: the {bot} bot played for them"


def _duration_words(seconds: float) -> str:
    s = int(round(seconds))
    if s % 86400 == 0 and s >= 86400:
        n = s // 86400
        return f"{n} day{'s' if n != 1 else ''}"
    if s % 3600 == 0 and s >= 3600:
        n = s // 3600
        return f"{n} hour{'s' if n != 1 else ''}"
    if s % 60 == 0 and s >= 60:
        n = s // 60
        return f"{n} minute{'s' if n != 1 else ''}"
    return f"{s} second{'s' if s != 1 else ''}"


def is_rename(entry: Entry) -> bool:
    """A ``host`` entry that only gives a seat a new name (``name <seat> <name>``)."""
    return entry.kind == "host" and (entry.action or "").startswith("name ")


def host_words(entry: Entry) -> str:
    """A ``host`` entry in words (its notation: ``reissue 2``, ``bot 2 medium``,
    ``human 2`` / ``human 2 same`` (on the player's link), ``extend 2 3600`` /
    ``extend all 3600``, ``pause``, ``resume``, ``end``, ``reclaim 2``, ``takeover 2
    medium`` (a clock ran out for the rest of the game))."""
    words = (entry.action or "").split()
    op = words[0] if words else ""
    arg = words[1] if len(words) > 1 else ""
    who = f"P{arg}" if arg.isdigit() else "every seat"
    if op == "reissue":
        return f"The host issued a new link for {who} (the old one no longer works)"
    if op == "bot":
        bot = words[2] if len(words) > 2 else "a"
        return f"The host put the {bot} bot in {who}'s seat"
    if op == "human":
        if words[2:3] == ["same"]:
            return f"The host handed {who}'s seat back to its player (on their link)"
        return f"The host handed {who}'s seat back to a player (with a new link)"
    if op == "extend":
        secs = float(words[2]) if len(words) > 2 else 0.0
        return f"The host gave {who} {_duration_words(secs)} more"
    if op == "pause":
        return "The host stopped the clocks"
    if op == "resume":
        return "The host restarted the clocks"
    if op == "end":
        return "The host ended the game: the scores are counted as they stand"
    if op == "reclaim":
        return f"{who} took their seat back from the bot"
    if op == "name":
        return f"{who} has a new name: {' '.join(words[2:])}"
    if op == "takeover":
        bot = words[2] if len(words) > 2 else "a"
        return (f"{who}'s time ran out: the {bot} bot plays for them for the rest of the "
                "game")
    return f"The host changed the game ({entry.action})"


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
    ended: str | None = None


@dataclass(frozen=True)
class MineRow:
    """A game this browser holds a token of, as "Your games" lists it: the seats the
    token plays (empty: it no longer works) and whether one of them is to move;
    ``benched``: the token's seats the host gave to a bot (the link watches them)."""

    id: str
    found: bool
    you: frozenset[int]
    row: LobbyRow | None
    benched: frozenset[int] = frozenset()


@dataclass(frozen=True)
class HostSeat:
    """A seat as the host panel shows it: who plays it and its link's token (None for
    a seat no person holds, or a game created before links were derived)."""

    seat: Seat
    token: str | None


@dataclass(frozen=True)
class Notification:
    """A seat's notification setting on one channel (``target``: URL or address)."""

    seat: int
    channel: str
    target: str


# --------------------------------------------------------------------------- store
class _Keep:
    """Marks an argument left as the cache has it."""


_KEEP: Final = _Keep()


class Store:
    """Games in one database, with this process's cache of their positions.

    Thread-safe: the API serves requests from a thread pool and bots and clocks play
    from their own threads. ``listeners`` are called with ``(game_id, seq)`` after every
    commit (the WebSocket announcer and the notifier subscribe). ``review_iterations``:
    the budget of the post-game review queued, in the same transaction, by the entry
    that ends a game (and by the import of a finished record); 0: none."""

    def __init__(self, engine: Engine, cache_size: int = 1024,
                 review_iterations: int = 0) -> None:
        self.engine = engine
        self.cache_size = cache_size
        #: the search budget of the review queued when a game ends (0: none is queued)
        self.review_iterations = review_iterations
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
               clock: object = None, names: Sequence[object] | None = None,
               then: Callable[[Connection, Created], None] | None = None) -> Created:
        """A new game with no entry in its log. ``config``: the ``GameConfig`` fields
        (:class:`BadRequest` with the engine's reason when impossible); ``seats``: one
        ``human`` / ``hotseat`` / ``bot:<name>`` per player; ``clock``: the
        :class:`ClockConfig` fields, or None for no clock; ``names``: the seats' names
        (see :func:`_seat_names`). ``then``: more writes in the game's own transaction,
        given the new game (a rematch links the two games there; a :class:`StoreError`
        it raises creates nothing)."""
        cfg = _config(config)
        specs = self._seats(cfg, seats)
        chosen = _seat_names(specs, names)
        clock_cfg = ClockConfig.parse(clock)
        start = new_game(cfg)  # setup can't fail for a valid config; checked before writing
        return self._insert(cfg, specs, title, [], over=False,
                            player=start.current_player, clock=clock_cfg, names=chosen,
                            then=then)

    def import_record(self, record: object, seats: Sequence[object],
                      title: str | None = None, clock: object = None,
                      names: Sequence[object] | None = None) -> Created:
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
        chosen = _seat_names(specs, names)
        clock_cfg = ClockConfig.parse(clock)
        state = new_game(cfg)
        entries: list[tuple[int, str]] = []
        for text_ in final.record()["actions"]:
            who = state.current_player
            if who is None:  # replay() accepted it, so this cannot happen
                raise BadRequest("the record goes on after the end of the game")
            state.apply(text_)
            entries.append((who, text_))
        return self._insert(cfg, specs, title, entries, over=state.is_over,
                            player=state.current_player, clock=clock_cfg, names=chosen)

    def _seats(self, cfg: GameConfig, seats: Sequence[object]) -> list[SeatSpec]:
        if not isinstance(seats, (list, tuple)):
            raise BadRequest("seats must be a list with one seat per player")
        if len(seats) != cfg.players:
            raise BadRequest(f"the game is for {cfg.players} players but {len(seats)} "
                             f"seat{'s' if len(seats) != 1 else ''} were given")
        return [SeatSpec.parse(s) for s in seats]

    def _insert(self, cfg: GameConfig, specs: list[SeatSpec], title: str | None,
                entries: list[tuple[int, str]], over: bool, player: int | None,
                clock: ClockConfig | None,
                names: Sequence[tuple[str, bool]] | None = None,
                then: Callable[[Connection, Created], None] | None = None) -> Created:
        game_id = secrets.token_urlsafe(9)
        host_token = secrets.token_urlsafe(32)
        created_seats = []
        seat_rows = []
        seat_values = []
        for i, spec in enumerate(specs):
            token: str | None = None
            if spec.kind != "bot":
                key = "hotseat" if spec.kind == "hotseat" else str(i)
                token = seat_token(host_token, game_id, key, 0)
            created_seats.append(CreatedSeat(i, spec.kind, spec.bot, token))
            seat_name, named = names[i] if names else (f"P{i}", False)
            seat_values.append(Seat(i, spec.kind, spec.bot, seat_name,
                                    hash_token(token) if token else None, named=named))
            seat_rows.append({"game_id": game_id, "seat": i, "kind": spec.kind,
                              "bot": spec.bot, "name": seat_name, "named": named,
                              "token_gen": 0,
                              "token_hash": hash_token(token) if token else None})
        now = _now()
        name = _clean_title(title) or _default_title(cfg, specs)
        values: dict[str, Any] = {
            "id": game_id, "created": now, "config": cfg.to_dict(), "seats": len(specs),
            "seq": len(entries), "over": over, "title": name,
            "host_hash": hash_token(host_token), "current_player": player}
        if clock is not None:
            state = ClockState(clock, False, tuple(clock.bank for _ in specs))
            state = _reclock(state, seat_values, player, now, stopped=over,
                             restart=True) or state
            values.update(clock=clock.to_dict(False), banks=list(state.banks),
                          turn_started=state.turn_started, deadline=state.deadline)
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(insert(db.games).values(**values))
            conn.execute(insert(db.seats), seat_rows)
            if entries:
                conn.execute(insert(db.moves), [
                    {"game_id": game_id, "seq": n, "seat": who, "kind": "action",
                     "action": text_, "created": now}
                    for n, (who, text_) in enumerate(entries, 1)])
            if over and self.review_iterations > 0:
                conn.execute(*self.review_statement(game_id, len(entries)))
            created = Created(game_id, tuple(created_seats), host_token)
            if then is not None:
                then(conn, created)
        self._notify(game_id, len(entries))
        return created

    # ------------------------------------------------------------------ read
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
            effective.append(Effective(e.seq, e.seat, e.action, tuple(state.apply(e.action)),
                                       e.note))
        last = effective[-1].seq if effective else 0
        return Snapshot(snap.meta, snap.seq, state, tuple(effective),
                        tuple(x for x in snap.log if x.seq <= last))

    def _lobby_rows(self, conn: Connection, where: Any, limit: int | None,
                    ) -> tuple[list[Any], dict[str, list[Seat]]]:
        g = db.games
        query = select(g.c.id, g.c.title, g.c.created, g.c.config, g.c.seq, g.c.over,
                       g.c.current_player, g.c.ended)
        if where is not None:
            query = query.where(where)
        query = query.order_by(g.c.created.desc(), g.c.id)
        if limit is not None:
            query = query.limit(limit)
        rows = list(conn.execute(query).all())
        ids = [r.id for r in rows]
        by_game: dict[str, list[Seat]] = {}
        for i in range(0, len(ids), 500):
            for s in conn.execute(select(db.seats).where(db.seats.c.game_id.in_(ids[i:i + 500]))
                                  .order_by(db.seats.c.game_id, db.seats.c.seat)):
                by_game.setdefault(s.game_id, []).append(_seat(s))
        return rows, by_game

    def _lobby_row(self, r: Any, seats: Sequence[Seat]) -> LobbyRow:
        current = r.current_player
        if current is None and not r.over:
            # a game written before whose move it is was kept with it: ask its position
            try:
                with self._locked(r.id) as cached:
                    current = cached.current_player
            except StoreError:
                current = None
        return LobbyRow(
            r.id, r.title, utc(r.created), dict(r.config), tuple(seats), int(r.seq),
            "over" if r.over else ("open" if r.seq == 0 else "running"),
            None if r.over else current, r.ended)

    def lobby(self, status: str | None = None, limit: int = 50) -> list[LobbyRow]:
        """The newest games first (``status``: ``open``, ``running`` or ``over``)."""
        g = db.games
        where: Any = None
        if status == "open":
            where = and_(g.c.seq == 0, g.c.over.is_(False))
        elif status == "running":
            where = and_(g.c.seq > 0, g.c.over.is_(False))
        elif status == "over":
            where = g.c.over.is_(True)
        elif status is not None:
            raise BadRequest(f"unknown status {status!r}: {', '.join(STATUSES)}")
        rows, by_game = self._read(lambda conn: self._lobby_rows(conn, where, limit))
        return [self._lobby_row(r, by_game.get(r.id, ())) for r in rows]

    def mine(self, held: Sequence[tuple[str, str]]) -> list[MineRow]:
        """The games of ``held`` ``(game id, token)`` pairs (a browser's seats), in that
        order: each with the seats its token plays now (empty: the link was re-issued
        or is not a seat's) and its lobby row (None: no such game)."""
        ids = list(dict.fromkeys(gid for gid, _ in held if isinstance(gid, str)
                                 and 0 < len(gid) <= 32))
        if not ids:
            return [MineRow(gid, False, frozenset(), None) for gid, _ in held]
        rows, by_game = self._read(
            lambda conn: self._lobby_rows(conn, db.games.c.id.in_(ids), None))
        found = {r.id: r for r in rows}
        out = []
        for gid, token in held:
            r = found.get(gid)
            if r is None:
                out.append(MineRow(gid, False, frozenset(), None))
                continue
            seats = by_game.get(gid, [])
            meta = Meta(gid, utc(r.created), {}, r.title, tuple(seats))
            out.append(MineRow(gid, True, meta.seats_of(token), self._lobby_row(r, seats),
                               frozenset(s.seat for s in meta.benched_of(token))))
        return out

    def unfinished_with_bots(self) -> list[str]:
        """Games not over that have a seat a bot plays (those a bot may be holding up)."""
        g, s = db.games, db.seats
        query = (select(g.c.id).where(g.c.over.is_(False))
                 .where(g.c.id.in_(select(s.c.game_id).where(
                     or_(s.c.kind == "bot", s.c.bot_override.is_not(None)))))
                 .order_by(g.c.created))
        return self._read(lambda conn: [r.id for r in conn.execute(query)])

    # ------------------------------------------------------------------ write
    def append(self, game_id: str, seats: Collection[int] | None, action: str, seq: int,
               note: str | None = None, token: str | None = None,
               by_bot: bool = False) -> Snapshot:
        """Play ``action`` for one of ``seats`` on the game at version ``seq``.

        :class:`Conflict` when ``seq`` is not the game's (checked again by the write)
        or the game is over, :class:`Forbidden` when none of ``seats`` is to move,
        :class:`BadRequest` with the engine's reason for bad notation or an illegal
        action (nothing written). ``note``: how the action came about when not by its
        player (``timeout:<bot>``: the clock ran out; ``bot:<bot>``: that bot went on
        playing the seat's decisions). ``token``: the seats are the token's, as the
        game stands (``seats`` is then ignored; :class:`Forbidden` for a token of no
        seat). ``by_bot``: a move of the bot that plays the seat (:class:`Conflict`
        when a person plays it now). Returns the game after the commit."""
        if not isinstance(action, str) or len(action) > MAX_ACTION:
            raise BadRequest(f"not an action: {action[:MAX_ACTION]!r}..."
                             if isinstance(action, str) else "an action is a string")
        with self._locked(game_id) as cached:
            seats = _token_seats(cached.meta, token, seats)
            _check_seq(cached, seq)
            who = cached.current_player
            if who is None:
                raise Conflict(_over_words(cached))
            if who not in seats:
                raise Forbidden(f"P{who} is to move, not you")
            if by_bot and cached.meta.seats[who].played_by is None:
                raise Conflict(f"P{who} is played by a person now")
            trial = cached.state.copy()
            try:
                parsed = trial.parse_action(action)
                events = trial.apply(parsed)
            except (IllegalActionError, NotationError) as e:
                raise BadRequest(str(e)) from None
            # the log keeps the canonical notation, whatever spelling the client sent
            entry = Entry(seq + 1, who, "action", str(parsed), note)
            self._commit(cached, entry, trial, events,
                         all_spent=note is not None and note.startswith("timeout:"))
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def undo(self, game_id: str, seats: Collection[int] | None, seq: int | None,
             token: str | None = None) -> Snapshot:
        """Undo the last effective action for ``seats`` (see
        :meth:`Snapshot.undo_target`), appended as an ``undo`` entry at ``seq + 1``
        (``seq`` None: the game's seq as it stands). :class:`Conflict` when ``seq`` is
        stale or there is nothing ``seats`` may undo. ``token``: as :meth:`append`."""
        with self._locked(game_id) as cached:
            seats = _token_seats(cached.meta, token, seats)
            if seq is None:
                seq = cached.seq
            _check_seq(cached, seq)
            snap = cached.snapshot()
            target = snap.undo_target(seats)
            if target is None:
                raise Conflict("nothing to undo: " + (
                    "the game has ended" if snap.ended is not None else
                    "no action has been played yet" if not snap.effective else
                    "a bot played your last decision" if snap.effective[-1].note else
                    "another player has acted since your last decision"))
            trial = snap.state  # the snapshot's own copy
            trial.undo()
            entry = Entry(seq + 1, target.seat, "undo", None)
            self._commit(cached, entry, trial)
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def _commit(self, cached: _Cached, entry: Entry, after: State | None,
                events: Sequence[Event] = (), *, meta: Meta | None = None,
                restart: bool = True, all_spent: bool = False,
                clock: ClockState | None | _Keep = _KEEP, ended: str | None = None,
                extra: Sequence[tuple[Any, dict[str, Any]]] = ()) -> None:
        """Write ``entry`` with everything that goes with it, then bring the cache to
        it (under the cache's lock). ``after``: the position it leads to (None: the
        same); ``meta``: the seats it leads to; ``clock``: the clock it leads to
        (default: worked out by :func:`_reclock`, ``restart`` and ``all_spent`` as
        there); ``ended``: how it ends the game; ``extra``: more statements for its
        transaction."""
        now = _now()
        state = after if after is not None else cached.state
        new_meta = meta if meta is not None else cached.meta
        new_ended = ended if ended is not None else cached.ended
        over = new_ended is not None or state.is_over
        player = None if new_ended is not None else state.current_player
        if isinstance(clock, _Keep):
            new_clock = _reclock(cached.clock, new_meta.seats, player, now, stopped=over,
                                 restart=restart, all_spent=all_spent)
        else:
            new_clock = clock
        statements = list(extra)
        if over and not cached.over:
            statements.append((_OUTBOX_ALL, {"event": "over", "seq": entry.seq, "due": now,
                                             "game": new_meta.id}))
            if self.review_iterations > 0:
                statements.append(self.review_statement(new_meta.id, entry.seq, now=now))
        elif (player is not None and player != cached.current_player
              and new_meta.seats[player].played_by is None):
            statements.append((_OUTBOX_SEAT, {"event": "turn", "seq": entry.seq, "due": now,
                                              "game": new_meta.id, "seat": player}))
        if new_ended is not None and cached.ended is None:
            statements.append((update(db.games).where(db.games.c.id == new_meta.id)
                               .values(ended=new_ended), {}))
        self._write(new_meta.id, entry, over, player, new_clock, statements)
        cached.apply(entry, after if entry.kind != "host" else None, events)
        cached.meta = new_meta
        cached.clock = new_clock
        cached.ended = new_ended

    def _write(self, game_id: str, entry: Entry, over: bool, player: int | None = None,
               clock: ClockState | None = None,
               extra: Sequence[tuple[Any, dict[str, Any]]] = ()) -> None:
        """Insert ``entry``, move ``games.seq`` to it (with whose move it is and the
        clock) and run ``extra``, in one transaction; a lost race (the key taken, or
        ``games.seq`` moved) is :class:`Conflict`. A pooled connection found dead at the
        INSERT (the first statement of the transaction, so nothing of it can have been
        committed) is replaced and the write tried again."""
        for attempt in range(_DISCONNECT_RETRIES + 1):
            try:
                self._write_once(game_id, entry, over, player, clock, extra)
                return
            except _NotSent as e:
                if attempt == _DISCONNECT_RETRIES:
                    raise e.error from None
                log.warning("database connection lost (%s); retrying the write",
                            type(e.error.orig).__name__)

    def _write_once(self, game_id: str, entry: Entry, over: bool, player: int | None,
                    clock: ClockState | None,
                    extra: Sequence[tuple[Any, dict[str, Any]]]) -> None:
        try:
            with self._write_lock, self.engine.begin() as conn:
                # the INSERT first: on SQLite it takes the write lock (waiting for another
                # writer), on PostgreSQL it waits for a racing insert of the same key
                try:
                    conn.execute(_INSERT_ENTRY, {
                        "game_id": game_id, "seq": entry.seq, "seat": entry.seat,
                        "kind": entry.kind, "action": entry.action, "note": entry.note,
                        "created": _now()})
                except DBAPIError as e:
                    if e.connection_invalidated:
                        raise _NotSent(e) from None
                    raise
                params: dict[str, Any] = {"b_id": game_id, "b_prev": entry.seq - 1,
                                          "b_seq": entry.seq, "b_over": over,
                                          "b_player": player}
                if clock is None:
                    result = conn.execute(_MOVE_SEQ, params)
                else:
                    params.update(b_clock=clock.settings(),
                                  b_banks=list(clock.banks), b_started=clock.turn_started,
                                  b_deadline=clock.deadline)
                    result = conn.execute(_MOVE_SEQ_CLOCK, params)
                if result.rowcount != 1:
                    raise Conflict(f"another move was recorded first (move {entry.seq})")
                for statement, values in extra:
                    conn.execute(statement, values)
        except IntegrityError:
            raise Conflict(f"another move was recorded first (move {entry.seq})") from None
        except DBAPIError as e:
            if "locked" in str(e.orig) or "could not serialize" in str(e.orig):
                raise Conflict(f"another move was being recorded (move {entry.seq}); "
                               "try again") from None
            raise

    def review_statement(self, game_id: str, seq: int, iterations: int | None = None,
                         only: str = "*", now: datetime | None = None,
                         ) -> tuple[Any, dict[str, Any]]:
        """The statement queueing ``game_id``'s review at ``seq`` (a new row, or its row
        reset when its status is ``only``; ``'*'``: whatever it is) with ``iterations``
        (default: :attr:`review_iterations`)."""
        return _REVIEW_QUEUE, {
            "b_game": game_id, "b_seq": seq, "b_only": only, "b_now": now or _now(),
            "b_iterations": self.review_iterations if iterations is None else iterations}

    def _notify(self, game_id: str, seq: int) -> None:
        for listener in list(self.listeners):
            try:
                listener(game_id, seq)
            except Exception:  # an announcer must never undo a commit
                log.exception("listener failed for game %s seq %s", game_id, seq)

    # ------------------------------------------------------------------ host
    def _host_entry(self, game_id: str, host_token: str | None, notation: str,
                    change: Callable[[_Cached], tuple[Meta | None, Any, str | None, list[
                        tuple[Any, dict[str, Any]]]]],
                    seat: int = HOST_SEAT, seq: int | None = None,
                    check: Callable[[_Cached], None] | None = None,
                    trusted: bool = False) -> Snapshot:
        """Append a ``host`` entry: ``change(cached)`` (under the lock, after the host
        check and ``check``) returns the new meta (or None), the new clock (or
        :data:`_KEEP`), an ending (or None) and the statements that go with it.
        ``host_token`` None: made by ``seat`` itself (checked by the caller), or by the
        server itself when ``trusted`` (a clock)."""
        with self._locked(game_id) as cached:
            if seat == HOST_SEAT and not trusted:
                _check_host(cached.meta, host_token)
            if seq is not None:
                _check_seq(cached, seq)
            if check is not None:
                check(cached)
            meta, clock, ended, extra = change(cached)
            entry = Entry(cached.seq + 1, seat, "host", notation)
            self._commit(cached, entry, None, meta=meta, restart=False, clock=clock,
                         ended=ended, extra=extra)
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def host_panel(self, game_id: str, host_token: str | None,
                   ) -> tuple[Snapshot, list[HostSeat]]:
        """The game and each seat with its link's token, for the host (401 without a
        token, 403 for a token that is not the host's)."""
        snap = self.snapshot(game_id)
        _check_host(snap.meta, host_token)
        assert host_token is not None
        out = []
        for s in snap.meta.seats:
            token = None
            if s.token_hash is not None:
                t = seat_token(host_token, game_id, s.token_key, s.token_gen)
                if hmac.compare_digest(hash_token(t), s.token_hash):
                    token = t
            out.append(HostSeat(s, token))
        return snap, out

    def reissue(self, game_id: str, host_token: str | None, seat: int,
                ) -> tuple[Snapshot, str]:
        """A new link for ``seat`` (the hot-seat seats share theirs): the old token
        stops working at once; the seat's notification settings are kept and carry the
        new link. Returns the game and the new token."""
        out: dict[str, str] = {}

        def change(cached: _Cached) -> tuple[Meta, Any, None, list[Any]]:
            s = _seat_of(cached.meta, seat)
            if s.token_hash is None:
                raise Conflict(f"P{seat} has no link to re-issue: "
                               + ("a bot plays it; hand it back to a player instead"
                                  if s.played_by else "it is not a person's seat"))
            assert host_token is not None
            group = [x for x in cached.meta.seats
                     if x.token_key == s.token_key and x.token_hash is not None]
            gen = max(x.token_gen for x in group) + 1
            token = seat_token(host_token, game_id, s.token_key, gen)
            out["token"] = token
            new = {x.seat: replace(x, token_gen=gen, token_hash=hash_token(token))
                   for x in group}
            return (_with_seats(cached.meta, new), _KEEP, None,
                    _seat_statements(game_id, new.values())
                    + seating.relink_statements(game_id, new, token))

        snap = self._host_entry(game_id, host_token, f"reissue {seat}", change)
        return snap, out["token"]

    def put_bot(self, game_id: str, host_token: str | None, seat: int, bot: str,
                ) -> Snapshot:
        """The host puts ``bot`` in ``seat``: until the host hands the seat back, the
        seat's link opens the game to watch, not to move, and no turn messages go to
        its notification settings (which are kept)."""
        if bot not in BOT_NAMES:
            raise BadRequest(f"unknown bot {bot!r}: choose from {', '.join(BOT_NAMES)}")

        def change(cached: _Cached) -> tuple[Meta, Any, None, list[Any]]:
            _not_over(cached)
            s = _seat_of(cached.meta, seat)
            if s.played_by == bot and s.override_reason != "timeout":
                raise Conflict(f"the {bot} bot already plays P{seat}")
            if s.kind == "bot":
                new = replace(s, bot=bot)
            else:
                new = replace(s, bot_override=bot, override_reason="host",
                              override_at=s.override_at if s.benched else _now())
            if s.kind == "bot" and not s.named:  # a bot's seat is named by its level
                new = replace(new, name=seat_names.bot_name(
                    bot, [x.name for x in cached.meta.seats if x.seat != seat]))
            return (_with_seats(cached.meta, {seat: new}), _KEEP, None,
                    _seat_statements(game_id, [new]))

        return self._host_entry(game_id, host_token, f"bot {seat} {bot}", change)

    def hand_back(self, game_id: str, host_token: str | None, seat: int,
                  ) -> tuple[Snapshot, str | None]:
        """The host gives ``seat`` (played by a bot) to a person: the person the host
        took it from plays it again on their link (and their notification settings),
        else it gets a new link of its own (returned with the game; None: the seat's
        link is one the host panel cannot show)."""
        out: dict[str, str | None] = {}

        def change(cached: _Cached) -> tuple[Meta, Any, None, list[Any]]:
            _not_over(cached)
            s = _seat_of(cached.meta, seat)
            if s.played_by is None:
                raise Conflict(f"P{seat} is already played by a person: re-issue its link "
                               "if it was lost")
            assert host_token is not None
            if s.benched and s.token_hash is not None:  # the same link plays it again
                token = seat_token(host_token, game_id, s.token_key, s.token_gen)
                out["token"] = token if hmac.compare_digest(
                    hash_token(token), s.token_hash) else None
                new = replace(s, bot_override=None, override_reason=None, override_at=None)
                return (_with_seats(cached.meta, {seat: new}), _KEEP, None,
                        _seat_statements(game_id, [new]))
            gen = s.token_gen + 1
            token = seat_token(host_token, game_id, str(seat), gen)
            out["token"] = token
            new = replace(s, kind="human", bot=None, bot_override=None,
                          override_reason=None, override_at=None, token_gen=gen,
                          token_hash=hash_token(token))
            return (_with_seats(cached.meta, {seat: new}), _KEEP, None,
                    _seat_statements(game_id, [new], drop_notify=True))

        # the words of the log: the seat's player plays again on their link, or a new one
        before = self.peek(game_id, lambda snap: snap.meta.seats[seat]
                           if isinstance(seat, int) and 0 <= seat < len(snap.meta.seats)
                           else None)
        same = before is not None and before.benched and before.token_hash is not None
        snap = self._host_entry(game_id, host_token, f"human {seat}{' same' if same else ''}",
                                change)
        return snap, out["token"]

    def rename(self, game_id: str, seat: int, name: object, *,
               token: str | None = None, host_token: str | None = None) -> Snapshot:
        """Give ``seat`` a new ``name`` (:func:`endeavor.web.names.clean_name`, unique in
        the game): by the seat's player (``token``, one of the seat's) or the host
        (``host_token``). Written as a ``host`` entry ``name <seat> <name>`` made by the
        seat or the host, so every page and every process sees it at once; the log
        shows no line for it. Allowed once the game is over too."""
        clean = seat_names.clean_name(name)

        def check(cached: _Cached) -> None:
            s = _seat_of(cached.meta, seat)
            if host_token is None and seat not in cached.meta.seats_of(token):
                raise Forbidden(f"this link is not P{seat}'s: a player names their own "
                                "seat (the host may name any)")
            seat_names.check_unique(clean, seat, [x.name for x in cached.meta.seats])
            if s.name == clean and s.named:
                raise Conflict(f"P{seat} is already called {clean!r}")

        def change(cached: _Cached) -> tuple[Meta, Any, None, list[Any]]:
            new = replace(_seat_of(cached.meta, seat), name=clean, named=True)
            return (_with_seats(cached.meta, {seat: new}), _KEEP, None,
                    _seat_statements(game_id, [new]))

        if host_token is None and not token:
            raise Unauthorized("a seat's token is needed: Authorization: Bearer <token>")
        return self._host_entry(game_id, host_token, f"name {seat} {clean}", change,
                                seat=HOST_SEAT if host_token is not None else seat,
                                check=check)

    def reclaim(self, game_id: str, seats: Collection[int], seat: int) -> Snapshot:
        """``seat``'s player takes the seat back from the bot that took it over when
        their time ran out (if the game's clock allows it)."""
        if seat not in seats:
            raise Forbidden(f"this link is not P{seat}'s")

        def change(cached: _Cached) -> tuple[Meta, Any, None, list[Any]]:
            _not_over(cached)
            s = _seat_of(cached.meta, seat)
            if s.override_reason != "timeout":
                raise Conflict(f"no bot has taken P{seat}'s seat over"
                               if s.override_reason is None else
                               f"the host put a bot in P{seat}'s seat: ask the host for it")
            if cached.clock is None or not cached.clock.config.reclaim:
                raise Conflict("the host did not allow taking a seat back in this game")
            new = replace(s, bot_override=None, override_reason=None)
            return (_with_seats(cached.meta, {seat: new}), _KEEP, None,
                    _seat_statements(game_id, [new]))

        return self._host_entry(game_id, None, f"reclaim {seat}", change, seat=seat)

    def take_over(self, game_id: str, seat: int, bot: str, seq: int) -> Snapshot:
        """A clock ran out for ``seat`` and the game's choice is that ``bot`` plays the
        rest of its game (at version ``seq``; the seat's link keeps working)."""

        def change(cached: _Cached) -> tuple[Meta, Any, None, list[Any]]:
            _not_over(cached)
            s = _seat_of(cached.meta, seat)
            new = replace(s, bot_override=bot, override_reason="timeout")
            meta = _with_seats(cached.meta, {seat: new})
            clock = _reclock(cached.clock, meta.seats, cached.current_player, _now(),
                             stopped=False, restart=True, all_spent=True)
            return meta, clock, None, _seat_statements(game_id, [new])

        return self._system_entry(game_id, f"takeover {seat} {bot}", change, seq)

    def _system_entry(self, game_id: str, notation: str,
                      change: Callable[[_Cached], tuple[Meta | None, Any, str | None,
                                                        list[Any]]],
                      seq: int) -> Snapshot:
        """A ``host`` entry made by the server itself (a clock), at version ``seq``."""
        return self._host_entry(game_id, None, notation, change, seq=seq, trusted=True)

    def extend(self, game_id: str, host_token: str | None, seconds: float,
               seat: int | None = None) -> Snapshot:
        """The host gives ``seat`` (None: every seat) ``seconds`` more on its bank; a
        running decision of that seat ends that much later."""
        secs = _seconds(seconds, "extend")
        if secs < 1:
            raise BadRequest("extend by at least 1 second")

        def change(cached: _Cached) -> tuple[None, Any, None, list[Any]]:
            _not_over(cached)
            clock = cached.clock
            if clock is None:
                raise Conflict("this game has no clock")
            if seat is not None:
                _seat_of(cached.meta, seat)
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

        def change(cached: _Cached) -> tuple[None, Any, None, list[Any]]:
            _not_over(cached)
            clock = cached.clock
            if clock is None:
                raise Conflict("this game has no clock")
            if clock.paused == paused:
                raise Conflict("the clocks are already " + ("stopped" if paused else
                                                            "running"))
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

    def end(self, game_id: str, host_token: str | None) -> Snapshot:
        """The host ends the game: no more moves; the score pad is counted as the game
        stands."""

        def change(cached: _Cached) -> tuple[None, Any, str, list[Any]]:
            _not_over(cached)
            return None, _KEEP, "host", []

        return self._host_entry(game_id, host_token, "end", change)

    # ------------------------------------------------------------------ notifications
    def notifications(self, game_id: str, seats: Collection[int]) -> list[Notification]:
        """The notification settings of ``seats``."""
        n = db.notify
        rows = self._read(lambda conn: list(conn.execute(
            select(n.c.seat, n.c.channel, n.c.target)
            .where(and_(n.c.game_id == game_id, n.c.seat.in_(list(seats))))
            .order_by(n.c.seat, n.c.channel))))
        return [Notification(int(r.seat), r.channel, r.target) for r in rows]

    def set_notification(self, game_id: str, seat: int, channel: str, target: str | None,
                         token: str) -> None:
        """Set (``target``) or remove (None) ``seat``'s notification on ``channel``;
        ``token`` is the seat's, kept for the link a message carries. (The target is
        checked by the caller.)"""
        if channel not in CHANNELS:
            raise BadRequest(f"unknown channel {channel!r}: {', '.join(CHANNELS)}")
        n = db.notify
        key = and_(n.c.game_id == game_id, n.c.seat == seat, n.c.channel == channel)
        with self._write_lock, self.engine.begin() as conn:
            mode = conn.execute(select(n.c.mode).where(key)).scalar() or "turn"
            conn.execute(delete(n).where(key))
            conn.execute(delete(db.outbox).where(and_(
                db.outbox.c.game_id == game_id, db.outbox.c.seat == seat,
                db.outbox.c.channel == channel)))
            if target is not None:  # a new address keeps the channel's mode
                conn.execute(insert(n).values(game_id=game_id, seat=seat, channel=channel,
                                              target=target, link_token=token,
                                              created=_now(), mode=mode))

    # ------------------------------------------------------------------ clocks
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
        return self._read(lambda conn: [(r.id, int(r.seq)) for r in conn.execute(query)])

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
        with self._write_lock, self.engine.begin() as conn:
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
        with self._write_lock, self.engine.begin() as conn:
            return later if conn.execute(statement).rowcount == 1 else None

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

    def _read_meta(self, conn: Connection, game_id: str) -> tuple[Any, Meta] | None:
        row = conn.execute(select(db.games).where(db.games.c.id == game_id)).first()
        if row is None:
            return None
        seat_rows = conn.execute(select(db.seats).where(db.seats.c.game_id == game_id)
                                 .order_by(db.seats.c.seat)).all()
        return row, Meta(row.id, utc(row.created), dict(row.config), row.title,
                         tuple(_seat(s) for s in seat_rows), row.host_hash)

    def _load(self, game_id: str) -> _Cached:
        found = self._read(lambda conn: self._read_meta(conn, game_id))
        if found is None:
            raise NotFound(f"no game {game_id!r}")
        row, meta = found
        cached = _Cached(meta, 0, new_game(GameConfig.from_dict(meta.config)))
        _set_game_state(cached, row)  # at seq 0; the refresh reads it again if it moved
        with self._cache_lock:
            existing = self._cache.get(game_id)
            if existing is not None:  # another thread loaded it meanwhile
                return existing
            self._cache[game_id] = cached
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return cached

    def _refresh(self, cached: _Cached) -> None:
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

        found = self._read(read)
        if found is None:
            raise NotFound(f"no game {game_id!r}")
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
            _set_game_state(cached, game)

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


# --------------------------------------------------------------------------- helpers
def _check_seq(cached: _Cached, seq: int) -> None:
    if seq != cached.seq:
        raise Conflict(f"the game has moved on since this page was drawn (it is at move "
                       f"{cached.seq}, you saw move {seq}): look again")


def _over_words(cached: _Cached) -> str:
    return ("the game was ended by the host" if cached.ended == "host"
            else "the game is over")


def _not_over(cached: _Cached) -> None:
    if cached.over:
        raise Conflict(_over_words(cached))


def _token_seats(meta: Meta, token: str | None, seats: Collection[int] | None,
                 ) -> Collection[int]:
    """The seats a write acts for: the token's as the game stands, else ``seats``."""
    if token is not None:
        mine = meta.seats_of(token)
        if not mine:
            benched = meta.benched_of(token)
            raise Forbidden(seating.benched_words(benched[0]) if benched else NOT_A_SEAT)
        return mine
    if seats is None:
        raise Unauthorized("a seat's token is needed: Authorization: Bearer <token>")
    return seats


def _check_host(meta: Meta, token: str | None) -> None:
    if not token:
        raise Unauthorized("the host's token is needed: Authorization: Bearer <token>")
    if meta.host_hash is None:
        raise Forbidden("this game has no host link (it was created before host links)")
    if not meta.is_host(token):
        raise Forbidden("this is not the host's link of this game")


def _seat_of(meta: Meta, seat: int) -> Seat:
    if not isinstance(seat, int) or not 0 <= seat < len(meta.seats):
        raise NotFound(f"the game has no seat {seat!r}: its seats are 0 to "
                       f"{len(meta.seats) - 1}")
    return meta.seats[seat]


def _with_seats(meta: Meta, new: Mapping[int, Seat]) -> Meta:
    return replace(meta, seats=tuple(new.get(s.seat, s) for s in meta.seats))


def _seat_statements(game_id: str, seats: Iterable[Seat], drop_notify: bool = False,
                     ) -> list[tuple[Any, dict[str, Any]]]:
    """The UPDATEs writing ``seats`` (and, ``drop_notify``, deleting their notification
    settings and waiting messages, which hold their old token)."""
    out: list[tuple[Any, dict[str, Any]]] = []
    for s in seats:
        out.append((update(db.seats).where(and_(db.seats.c.game_id == game_id,
                                                db.seats.c.seat == s.seat))
                    .values(kind=s.kind, bot=s.bot, token_hash=s.token_hash,
                            token_gen=s.token_gen, bot_override=s.bot_override,
                            override_reason=s.override_reason,
                            override_at=s.override_at, name=s.name,
                            named=s.named), {}))
        if drop_notify:
            out.append((delete(db.notify).where(and_(db.notify.c.game_id == game_id,
                                                     db.notify.c.seat == s.seat)), {}))
            out.append((delete(db.outbox).where(and_(db.outbox.c.game_id == game_id,
                                                     db.outbox.c.seat == s.seat)), {}))
    return out


def _set_game_state(cached: _Cached, row: Any) -> None:
    """The clock and ending of a ``games`` row, on the cache (whose position is at the
    row's seq)."""
    cached.ended = row.ended
    if row.clock is None:
        cached.clock = None
        return
    settings = dict(row.clock)
    n = len(cached.meta.seats)
    banks = tuple(float(b) for b in (row.banks or [settings.get("bank", 0.0)] * n))
    deadline = _utc_or_none(row.deadline)
    held = settings.get("held")
    cached.clock = ClockState(ClockConfig.from_dict(settings), bool(settings.get("paused")),
                              banks, _utc_or_none(row.turn_started), deadline,
                              cached.current_player if deadline is not None else None,
                              (int(held[0]), float(held[1])) if held else None)


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
    return Seat(int(row.seat), row.kind, row.bot, row.name, row.token_hash,
                int(row.token_gen or 0), row.bot_override, row.override_reason,
                override_at=_utc_or_none(row.override_at), named=bool(row.named))


def _seat_names(specs: Sequence[SeatSpec], names: Sequence[object] | None,
                ) -> list[tuple[str, bool]]:
    """Each seat's name and whether it was chosen, for a new game: ``names`` (one per
    seat; None or an empty string: the default) checked by
    :func:`endeavor.web.names.clean_name` and unique in the game; a seat left unnamed is
    ``P<seat>``, or a bot's seat its level ("Medium bot", "Medium bot 2")."""
    if names is not None and (not isinstance(names, (list, tuple))
                              or len(names) != len(specs)):
        raise BadRequest(f"names must be a list with one name (or null) per seat: "
                         f"{len(specs)} of them")
    out: list[tuple[str, bool] | None] = []
    for i, spec in enumerate(specs):
        given = names[i] if names is not None else None
        if given is None or (isinstance(given, str) and not given.strip()):
            out.append(None if spec.kind == "bot" else (seat_names.default_name(i), False))
            continue
        try:
            name = seat_names.clean_name(given)
        except BadRequest as e:
            raise BadRequest(f"P{i}'s name: {e}") from None
        try:
            seat_names.check_unique(name, i, [x[0] if x else "" for x in out])
        except Conflict as e:
            raise BadRequest(str(e)) from None
        out.append((name, True))
    taken = [x[0] for x in out if x is not None]
    done: list[tuple[str, bool]] = []
    for i, spec in enumerate(specs):
        x = out[i]
        if x is None:
            x = (seat_names.bot_name(spec.bot or "a", taken), False)
            taken.append(x[0])
        done.append(x)
    return done


def _clean_title(title: str | None) -> str:
    """A title as kept: control characters and runs of white space made one space,
    at most :data:`MAX_TITLE` characters."""
    if not title:
        return ""
    cleaned = " ".join("".join(" " if ch < " " or ch == "\x7f" else ch for ch in title)
                       .split())
    return cleaned[:MAX_TITLE]


def _default_title(cfg: GameConfig, specs: list[SeatSpec]) -> str:
    ruleset = "Age of Sail" if cfg.ruleset == "age_of_sail" else "2009 rules"
    bots = sum(1 for s in specs if s.kind == "bot")
    who = f", {bots} bot{'s' if bots != 1 else ''}" if bots else ""
    return f"{cfg.players} players, {ruleset}{who}"
