"""A game's chat: short plain-text messages written by its seats, read by everyone who
can see the game (seats and spectators), deleted by its host (docs/web.md, "Chat").

Messages are rows of the ``chat`` table, numbered by its ``id`` (one sequence for all
games, so a game's ids grow but have gaps). A deleted message keeps its row with
``deleted`` true: its body is no longer served, and the ids stay in order.

What the game's WebSocket announces about a chat is its *version*: the highest message
id and how many of its messages are deleted, two numbers that only grow (a post raises
the first, a deletion the second), read for all the games a process follows in one
query (:meth:`Chat.versions`), so a message posted through another worker process is
announced too. A page that sees a version change asks for the messages after the last
it has (or for all of them again after a deletion).

Each seat keeps the last message it has seen or been told of (``seats.chat_seen``): the
page advances it as its player reads the chat (:meth:`Chat.mark_seen`), and so does a
notification that carries the messages the player has not seen (:func:`unseen`,
:func:`told_statement`): a message is never a notification of its own, it waits for the
seat's next one ("Ann wrote: ...").

Limits: a message is 1 to :data:`MAX_CHARS` characters of plain text (no control
characters but the newline), a seat writes at most :data:`RATE_COUNT` messages in
:data:`RATE_SECONDS` seconds (429 beyond), checked in the transaction that writes it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr
from sqlalchemy import Connection, and_, bindparam, case, func, select, update
from sqlalchemy import insert as sa_insert

from . import db
from .store import (
    NOT_A_SEAT,
    BadRequest,
    Forbidden,
    NotFound,
    Snapshot,
    Store,
    StoreError,
    Unauthorized,
    utc,
    utcnow,
)

#: the longest message, in characters (after trimming the spaces around it)
MAX_CHARS: Final = 500
#: the most lines a message may have
MAX_LINES: Final = 12
#: a seat writes at most RATE_COUNT messages in any RATE_SECONDS seconds
RATE_COUNT: Final = 5
RATE_SECONDS: Final = 10.0
#: the most messages one answer lists (the latest ones)
PAGE: Final = 200
#: the most chat lines a notification carries ("and N more" beyond)
NOTIFY_LINES: Final = 3
#: a chat line in a notification is cut at this many characters
NOTIFY_CHARS: Final = 160

#: a chat's version: (the highest message id, how many messages are deleted)
Version = tuple[int, int]


class TooMany(StoreError):
    """A seat wrote too many messages too quickly."""

    status = 429


# --------------------------------------------------------------------------- the API's shapes
class ChatPost(BaseModel):
    """``POST /api/games/{id}/chat``: the message, and which seat writes it (needed only
    for a hot-seat link, which plays several)."""

    model_config = ConfigDict(extra="forbid")

    body: StrictStr = Field(max_length=20 * MAX_CHARS,
                            description=f"plain text, 1 to {MAX_CHARS} characters")
    seat: StrictInt | None = Field(default=None, ge=0, le=7)


class ChatSeen(BaseModel):
    """``POST /api/games/{id}/chat/seen``: the page's player has read the chat up to
    message ``upto``."""

    model_config = ConfigDict(extra="forbid")

    upto: StrictInt = Field(ge=0)
    seat: StrictInt | None = Field(default=None, ge=0, le=7)


class ChatSeenView(BaseModel):
    """The answer to ``POST /chat/seen``: the last message the seat has now seen."""

    seen: int


class ChatMessage(BaseModel):
    """One message: ``body`` is null once the host deleted it (``deleted`` true)."""

    id: int
    seat: int
    name: str
    created: datetime
    body: str | None
    deleted: bool


class ChatView(BaseModel):
    """A chat's messages (the latest :data:`PAGE` after ``after``, oldest first), its
    version (``last``, ``deleted``: see the module's doc), ``more``: older messages
    after ``after`` were left out; ``seen``: the last message the token's seat has seen
    (null for a spectator)."""

    messages: list[ChatMessage]
    last: int
    deleted: int
    more: bool
    seen: int | None


# --------------------------------------------------------------------------- checking a message
def clean_body(text: str) -> str:
    """The message as stored: line ends made ``\\n``, the spaces around it trimmed;
    :class:`BadRequest` in words when it is empty, too long, or holds a control
    character (other than the newline) or an unpaired surrogate."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise BadRequest("the message is empty: write something")
    if len(text) > MAX_CHARS:
        raise BadRequest(f"the message is too long: {len(text)} characters, at most "
                         f"{MAX_CHARS}")
    for ch in text:
        if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cs"):
            raise BadRequest(f"the message holds a control character (U+{ord(ch):04X}): "
                             f"plain text only")
    if text.count("\n") >= MAX_LINES:
        raise BadRequest(f"the message has {text.count(chr(10)) + 1} lines: at most "
                         f"{MAX_LINES}")
    return text


def mentions(body: str, name: str) -> bool:
    """Whether ``body`` names ``name``: ``@name`` or the name as a word of its own, in
    any case."""
    name = name.strip()
    if not name:
        return False
    pattern = r"(?<![\w@])@?" + re.escape(name) + r"(?!\w)"
    return re.search(pattern, body, flags=re.IGNORECASE) is not None


# --------------------------------------------------------------------------- the chat
@dataclass(frozen=True)
class _Seats:
    """What a chat request needs of the game: each seat's name, the token's seats, and
    whether the token is the host's."""

    names: tuple[str, ...]
    you: frozenset[int]
    host: bool


def _seats(snap: Snapshot, token: str | None) -> _Seats:
    meta = snap.meta
    return _Seats(tuple(s.name for s in meta.seats), meta.seats_of(token),
                  meta.is_host(token))


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"P{seat}"


def _message(r: Any, names: Sequence[str]) -> dict[str, Any]:
    return {"id": int(r.id), "seat": int(r.seat), "name": _name(names, int(r.seat)),
            "created": utc(r.created), "body": None if r.deleted else r.body,
            "deleted": bool(r.deleted)}


def _version(conn: Connection, game_id: str) -> Version:
    c = db.chat.c
    row = conn.execute(select(func.max(c.id), func.sum(case((c.deleted, 1), else_=0)))
                       .where(c.game_id == game_id)).first()
    if row is None:
        return (0, 0)
    return (int(row[0] or 0), int(row[1] or 0))


class Chat:
    """The chats of the games in ``store``'s database. ``listeners`` are called with
    ``(game_id, version)`` after each post or deletion commits (the WebSocket's
    announcer subscribes)."""

    def __init__(self, store: Store, rate_count: int = RATE_COUNT,
                 rate_seconds: float = RATE_SECONDS) -> None:
        self.store = store
        self.rate_count = rate_count
        self.rate_seconds = rate_seconds
        self.listeners: list[Callable[[str, Version], None]] = []

    def _game(self, game_id: str, token: str | None) -> _Seats:
        """The game's seats as they stand (:class:`NotFound` for no such game)."""
        return self.store.peek(game_id, lambda snap: _seats(snap, token))

    def _announce(self, game_id: str, version: Version) -> None:
        for listener in list(self.listeners):
            listener(game_id, version)

    # ------------------------------------------------------------------ reading
    def listing(self, game_id: str, token: str | None = None, after: int = 0,
                limit: int = PAGE) -> dict[str, Any]:
        """The messages after id ``after`` (the latest ``limit`` of them), as
        :class:`ChatView`. A token that is given must be one of the game's seats'
        (:class:`Forbidden`); no token: a spectator."""
        game = self._game(game_id, token)
        if token is not None and not game.you:
            raise Forbidden(NOT_A_SEAT)
        c = db.chat.c

        def read(conn: Connection) -> dict[str, Any]:
            rows = list(conn.execute(
                select(c.id, c.seat, c.created, c.body, c.deleted)
                .where(and_(c.game_id == game_id, c.id > after))
                .order_by(c.id.desc()).limit(limit + 1)))
            more = len(rows) > limit
            last, deleted = _version(conn, game_id)
            seen = None
            if game.you:
                s = db.seats.c
                seen = conn.execute(select(func.min(s.chat_seen)).where(and_(
                    s.game_id == game_id, s.seat.in_(sorted(game.you))))).scalar()
            return {"messages": [_message(r, game.names) for r in reversed(rows[:limit])],
                    "last": last, "deleted": deleted, "more": more,
                    "seen": int(seen) if seen is not None else None}

        return self.store.read(read)

    def versions(self, game_ids: Iterable[str]) -> dict[str, Version]:
        """The chat version of several games at once (games without messages left
        out): one query, for the WebSocket's poll."""
        ids = list(set(game_ids))
        c = db.chat.c

        def read(conn: Connection) -> dict[str, Version]:
            out: dict[str, Version] = {}
            for i in range(0, len(ids), 500):
                rows = conn.execute(
                    select(c.game_id, func.max(c.id), func.sum(case((c.deleted, 1), else_=0)))
                    .where(c.game_id.in_(ids[i:i + 500])).group_by(c.game_id))
                out.update({r[0]: (int(r[1] or 0), int(r[2] or 0)) for r in rows})
            return out

        return self.store.read(read) if ids else {}

    def version(self, game_id: str) -> Version:
        """One game's chat version ((0, 0) for none)."""
        return self.store.read(lambda conn: _version(conn, game_id))

    def export(self, game_id: str) -> list[dict[str, Any]]:
        """The game's messages for its record: every message not deleted, oldest first,
        with its seat, the seat's name and when it was written."""
        names = self._game(game_id, None).names
        c = db.chat.c
        rows = self.store.read(lambda conn: list(conn.execute(
            select(c.id, c.seat, c.created, c.body, c.deleted)
            .where(and_(c.game_id == game_id, c.deleted.is_(False))).order_by(c.id))))
        return [{"seat": int(r.seat), "name": _name(names, int(r.seat)),
                 "created": utc(r.created).isoformat(), "body": r.body} for r in rows]

    # ------------------------------------------------------------------ writing
    def post(self, game_id: str, token: str | None, body: str,
             seat: int | None = None) -> dict[str, Any]:
        """Write ``body`` for the token's seat (``seat``: which, for a hot-seat link);
        the new message as :class:`ChatMessage`. Refused: no token (401), a token of no
        seat or of another seat (403), a bad message (400), too many messages (429)."""
        if token is None:
            raise Unauthorized("a seat's token is needed to write in the chat: "
                               "Authorization: Bearer <token>")
        game = self._game(game_id, token)
        if not game.you:
            if game.host:
                raise Forbidden("the host's link cannot write in the chat: write from "
                                "a seat's link")
            raise Forbidden(NOT_A_SEAT)
        if seat is not None:
            if seat not in game.you:
                raise Forbidden(f"this link is not P{seat}'s")
        elif len(game.you) == 1:
            seat = next(iter(game.you))
        else:
            raise BadRequest("this link plays several seats: say which (seat)")
        text = clean_body(body)
        now = utcnow()
        c, s = db.chat.c, db.seats.c
        with self.store.transaction() as conn:
            # a write first, of the seat's row (changing nothing): it takes SQLite's write
            # lock and locks the row on PostgreSQL, so two posts of one seat queue here
            # and the second sees the first when it counts
            conn.execute(update(db.seats).where(and_(s.game_id == game_id, s.seat == seat))
                         .values(chat_seen=s.chat_seen))
            recent = list(conn.execute(
                select(c.created).where(and_(
                    c.game_id == game_id, c.seat == seat,
                    c.created > now - timedelta(seconds=self.rate_seconds)))
                .order_by(c.created)))
            if len(recent) >= self.rate_count:
                oldest = utc(recent[-self.rate_count].created)
                wait = max(1, int((oldest - now).total_seconds() + self.rate_seconds + 0.999))
                raise TooMany(f"too many messages: at most {self.rate_count} in "
                              f"{self.rate_seconds:g} seconds; wait {wait} s")
            key = conn.execute(sa_insert(db.chat).values(
                game_id=game_id, seat=seat, created=now, body=text, deleted=False)
                ).inserted_primary_key
            assert key is not None
            new_id = int(key[0])
            conn.execute(update(db.seats).where(and_(
                s.game_id == game_id, s.seat == seat, s.chat_seen < new_id))
                .values(chat_seen=new_id))
            version = _version(conn, game_id)
        self._announce(game_id, version)
        return {"id": int(new_id), "seat": seat, "name": _name(game.names, seat),
                "created": now, "body": text, "deleted": False}

    def delete(self, game_id: str, token: str | None, message_id: int) -> dict[str, Any]:
        """The host deletes a message (its row stays, its body is no longer served);
        the message as it now is. Refused: no token (401), not the host's (403), no
        such message in this game (404). Deleting it again changes nothing."""
        if token is None:
            raise Unauthorized("the host's token is needed to delete a message: "
                               "Authorization: Bearer <token>")
        game = self._game(game_id, token)
        if not game.host:
            raise Forbidden("only the host can delete a chat message")
        c = db.chat.c
        where = and_(c.game_id == game_id, c.id == message_id)
        with self.store.transaction() as conn:
            # the write first (SQLite's write lock taken before anything is read)
            changed = conn.execute(update(db.chat).where(and_(where, c.deleted.is_(False)))
                                   .values(deleted=True)).rowcount == 1
            row = conn.execute(select(c.id, c.seat, c.created, c.body, c.deleted)
                               .where(where)).first()
            if row is None:
                raise NotFound(f"no chat message {message_id} in game {game_id}")
            version = _version(conn, game_id)
        if changed:
            self._announce(game_id, version)
        return {**_message(row, game.names), "body": None, "deleted": True}

    def mark_seen(self, game_id: str, token: str | None, upto: int,
                  seat: int | None = None) -> int:
        """The token's seats (or ``seat`` of them) have read the chat up to message
        ``upto`` (at most the game's last): their ``chat_seen`` moves there if it was
        before. Returns the seat's (the first's) ``chat_seen`` now."""
        if token is None:
            raise Unauthorized("a seat's token is needed: Authorization: Bearer <token>")
        game = self._game(game_id, token)
        if not game.you:
            raise Forbidden(NOT_A_SEAT)
        if seat is not None and seat not in game.you:
            raise Forbidden(f"this link is not P{seat}'s")
        chosen = sorted(game.you) if seat is None else [seat]
        s = db.seats.c
        last, _ = self.version(game_id)
        upto = min(upto, last)
        with self.store.transaction() as conn:
            conn.execute(update(db.seats).where(and_(
                s.game_id == game_id, s.seat.in_(chosen), s.chat_seen < upto))
                .values(chat_seen=upto))
            seen = conn.execute(select(s.chat_seen).where(and_(
                s.game_id == game_id, s.seat == chosen[0]))).scalar()
        return int(seen or 0)


# --------------------------------------------------------------------------- notifications
@dataclass(frozen=True)
class Unseen:
    """The chat lines a seat's next notification carries: ``lines`` ("Ann wrote:
    ..."), ``more`` further messages not shown, ``upto`` the last message id they
    cover (0: none)."""

    lines: tuple[str, ...] = ()
    more: int = 0
    upto: int = 0


def _line(name: str, body: str) -> str:
    text = " ".join(body.split())
    if len(text) > NOTIFY_CHARS:
        text = text[:NOTIFY_CHARS - 1] + "…"
    return f"{name} wrote: {text}"


#: the unseen messages a notification reads at most (it counts the others)
UNSEEN_ROWS: Final = 100
# the queries of :func:`unseen`, built once (the sender asks them of every message)
_SEEN = (select(db.seats.c.chat_seen)
         .where(and_(db.seats.c.game_id == bindparam("b_game"),
                     db.seats.c.seat == bindparam("b_seat"))).scalar_subquery())
_UNSEEN_WHERE = and_(db.chat.c.game_id == bindparam("b_game"),
                     db.chat.c.id > func.coalesce(_SEEN, 0),
                     db.chat.c.seat != bindparam("b_seat"), db.chat.c.deleted.is_(False))
_UNSEEN: Final = (select(db.chat.c.id, db.chat.c.seat, db.chat.c.body).where(_UNSEEN_WHERE)
                  .order_by(db.chat.c.id.desc()).limit(UNSEEN_ROWS))
_UNSEEN_COUNT: Final = select(func.count()).select_from(db.chat).where(_UNSEEN_WHERE)


def unseen(store: Store, snap: Snapshot, seat: int) -> Unseen:
    """The messages ``seat`` has neither seen nor been told of (after its
    ``chat_seen``, by other seats, not deleted): at most :data:`NOTIFY_LINES` of them,
    those that name the seat's player first, then the latest, in the order written."""
    names = [s.name for s in snap.meta.seats]
    if not 0 <= seat < len(names):
        return Unseen()
    params = {"b_game": snap.meta.id, "b_seat": seat}

    def read(conn: Connection) -> tuple[list[Any], int]:
        rows = list(conn.execute(_UNSEEN, params))
        if len(rows) < UNSEEN_ROWS:  # all of them
            return rows, len(rows)
        return rows, int(conn.execute(_UNSEEN_COUNT, params).scalar() or 0)

    rows, total = store.read(read)
    if not rows:
        return Unseen()
    name = names[seat]
    named = [r for r in rows if mentions(r.body, name)]
    chosen = named[:NOTIFY_LINES]
    chosen += [r for r in rows if r not in chosen][:NOTIFY_LINES - len(chosen)]
    chosen.sort(key=lambda r: r.id)
    return Unseen(tuple(_line(_name(names, int(r.seat)), r.body) for r in chosen),
                  total - len(chosen), int(rows[0].id))


def told_statement(game_id: str, seat: int, upto: int) -> tuple[Any, dict[str, Any]]:
    """The UPDATE noting that a notification told ``seat`` of the chat up to message
    ``upto``: written by the sender with what became of its messages, in one transaction
    (if that write fails, the next message repeats the lines rather than being sent
    again)."""
    s = db.seats.c
    return (update(db.seats).where(and_(s.game_id == game_id, s.seat == seat,
                                        s.chat_seen < upto)).values(chat_seen=upto), {})
