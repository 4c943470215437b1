"""The chat of each game (:class:`Chat`): listing, posting, deleting, marking read,
its version for the WebSocket."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, and_, case, func, select, update
from sqlalchemy import insert as sa_insert

from ...messages import Seat as SeatArg
from .. import db
from ..store import (
    BadRequest,
    Forbidden,
    NotFound,
    Snapshot,
    Store,
    Unauthorized,
    utc,
    utcnow,
)
from ..view import refusals
from .words import (
    PAGE,
    RATE_COUNT,
    RATE_SECONDS,
    TooMany,
    Version,
    clean_body,
)


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
            raise Forbidden.said(refusals.NOT_A_SEAT)
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
            raise Unauthorized.said(refusals.CHAT_TOKEN)
        game = self._game(game_id, token)
        if not game.you:
            if game.host:
                raise Forbidden.said(refusals.CHAT_HOST)
            raise Forbidden.said(refusals.NOT_A_SEAT)
        if seat is not None:
            if seat not in game.you:
                raise Forbidden.said(refusals.NOT_YOURS, seat=SeatArg(seat))
        elif len(game.you) == 1:
            seat = next(iter(game.you))
        else:
            raise BadRequest.said(refusals.WHICH_SEAT)
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
                raise TooMany.said(refusals.CHAT_RATE, count=self.rate_count,
                                   seconds=f"{self.rate_seconds:g}", wait=wait)
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
            raise Unauthorized.said(refusals.DELETE_TOKEN)
        game = self._game(game_id, token)
        if not game.host:
            raise Forbidden.said(refusals.DELETE_HOST)
        c = db.chat.c
        where = and_(c.game_id == game_id, c.id == message_id)
        with self.store.transaction() as conn:
            # the write first (SQLite's write lock taken before anything is read)
            changed = conn.execute(update(db.chat).where(and_(where, c.deleted.is_(False)))
                                   .values(deleted=True)).rowcount == 1
            row = conn.execute(select(c.id, c.seat, c.created, c.body, c.deleted)
                               .where(where)).first()
            if row is None:
                raise NotFound.said(refusals.NO_CHAT_MESSAGE, number=message_id, game=game_id)
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
            raise Unauthorized.said(refusals.SEAT_TOKEN)
        game = self._game(game_id, token)
        if not game.you:
            raise Forbidden.said(refusals.NOT_A_SEAT)
        if seat is not None and seat not in game.you:
            raise Forbidden.said(refusals.NOT_YOURS, seat=SeatArg(seat))
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
