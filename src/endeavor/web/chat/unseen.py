"""What a notification carries of the chat: the messages a seat has not seen
(:func:`unseen`), and the statement that records them as told (:func:`told_statement`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, and_, bindparam, func, select, update

from .. import db
from ..store import (
    Snapshot,
    Store,
)
from .room import _name
from .words import NOTIFY_CHARS, NOTIFY_LINES, mentions


# --------------------------------------------------------------------------- notifications
@dataclass(frozen=True)
class Unseen:
    """The chat lines a seat's next notification carries: ``lines`` ("Ann wrote:
    ..."), ``more`` further messages not shown, ``upto`` the last message id they
    cover (0: none); ``said``: the same as ``(name, text)``, for a message that puts
    them in its own language's words."""

    lines: tuple[str, ...] = ()
    more: int = 0
    upto: int = 0
    said: tuple[tuple[str, str], ...] = ()


def _said(name: str, body: str) -> tuple[str, str]:
    text = " ".join(body.split())
    if len(text) > NOTIFY_CHARS:
        text = text[:NOTIFY_CHARS - 1] + "…"
    return name, text


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
    said = tuple(_said(_name(names, int(r.seat)), r.body) for r in chosen)
    return Unseen(tuple(f"{name} wrote: {text}" for name, text in said),
                  total - len(chosen), int(rows[0].id), said)


def told_statement(game_id: str, seat: int, upto: int) -> tuple[Any, dict[str, Any]]:
    """The UPDATE noting that a notification told ``seat`` of the chat up to message
    ``upto``: written by the sender with what became of its messages, in one transaction
    (if that write fails, the next message repeats the lines rather than being sent
    again)."""
    s = db.seats.c
    return (update(db.seats).where(and_(s.game_id == game_id, s.seat == seat,
                                        s.chat_seen < upto)).values(chat_seen=upto), {})
