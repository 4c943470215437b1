"""The lobby: the newest games, a browser's own games ("Your games"), the games a bot
may be holding up, how many games there are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import Connection, and_, func, or_, select

from .. import db
from ..view import refusals
from .errors import BadRequest, StoreError
from .records import LobbyRow, Meta, MineRow, Seat, seat_from_row
from .repository import Repository
from .values import utc

#: lobby statuses: no entry in the log yet, being played, finished
STATUSES: Final = ("open", "running", "over")


class Lobby(Repository):
    """The lobby's lists."""

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
            raise BadRequest.said(refusals.UNKNOWN_STATUS, status=repr(status),
                                  statuses=", ".join(STATUSES))
        rows, by_game = self.read(lambda conn: self._lobby_rows(conn, where, limit))
        return [self._lobby_row(r, by_game.get(r.id, ())) for r in rows]

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
                by_game.setdefault(s.game_id, []).append(seat_from_row(s))
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

    def mine(self, held: Sequence[tuple[str, str]]) -> list[MineRow]:
        """The games of ``held`` ``(game id, token)`` pairs (a browser's seats), in that
        order: each with the seats its token plays now (empty: the link was re-issued
        or is not a seat's) and its lobby row (None: no such game)."""
        ids = list(dict.fromkeys(gid for gid, _ in held if isinstance(gid, str)
                                 and 0 < len(gid) <= 32))
        if not ids:
            return [MineRow(gid, False, frozenset(), None) for gid, _ in held]
        rows, by_game = self.read(
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
        return self.read(lambda conn: [r.id for r in conn.execute(query)])

    def count(self) -> int:
        """How many games the database holds."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(db.games)).scalar() or 0)
