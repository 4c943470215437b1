"""An account's seats: claiming a seat with its link's token (the seat takes the
account's name), "Your games" (every claimed seat's game, on any device), the
account's data as JSON, and the account's deletion (its seats keep the name "deleted
player"; a bot plays those of running games)."""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, and_, delete, func, insert, select

from endeavor.bots import NAMES as BOT_NAMES

from .. import db, seating
from ..store import (
    BadRequest,
    Conflict,
    MineRow,
    NotFound,
    Snapshot,
    Store,
    StoreError,
)
from ..store.values import hash_token, utc
from ..store.values import now as _now
from ..view import accountwords as words
from . import tables
from .service import Account, Accounts

#: the bot that plays a deleted account's seats in running games (by default)
DEFAULT_HEIR: Final = "medium"


@dataclass(frozen=True)
class Claim:
    """A seat an account claimed: the game, the seat, the seat's token when claimed."""

    game_id: str
    seat: int
    token: str
    claimed: datetime


@dataclass(frozen=True)
class Held:
    """A claimed seat as "Your games" shows it: the claim, the game as the lobby sees
    it (None: no such game any more), whether the claim's token still plays the seat
    (``valid``; false: the host re-issued the link) and when the game last moved."""

    claim: Claim
    mine: MineRow
    valid: bool
    last_activity: datetime


class SeatClaims:
    """The seats of the accounts (of the store's database)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store: Store = accounts.store

    def claim(self, account: Account, game_id: str, token: str) -> tuple[Snapshot, int]:
        """The seat ``token`` plays in ``game_id`` becomes ``account``'s and takes its
        name. 403 for a token of no seat (or of a seat the host gave to a bot), 400 for a
        hot-seat link (several seats), 409 for a seat another account holds (with the
        link it has now) or a name another seat of the game has."""
        snap = self.store.snapshot(game_id)
        seats = snap.meta.seats_of(token)
        if not seats:
            raise seating.no_seat(snap.meta.benched_of(token))
        if len(seats) > 1:
            raise BadRequest.said(words.HOT_SEAT)
        seat = next(iter(seats))
        current = snap.meta.seats[seat]
        c = tables.seat_claims
        where = and_(c.c.game_id == game_id, c.c.seat == seat)
        with self.store.transaction() as conn:
            old = conn.execute(select(c).where(where)).first()
            if old is not None and old.account_id != account.id and current.token_hash \
                    and hmac.compare_digest(hash_token(old.link_token), current.token_hash):
                raise Conflict.said(words.SEAT_HELD, seat=seat)
            conn.execute(delete(c).where(where))
            conn.execute(insert(c).values(game_id=game_id, seat=seat, account_id=account.id,
                                          link_token=token, claimed=_now()))
        if current.name == account.name and current.named:
            return snap, seat
        try:
            snap = self.store.rename(game_id, seat, account.name, token=token)
        except StoreError:
            with self.store.transaction() as conn:  # the seat is not taken: no claim
                conn.execute(delete(c).where(and_(where, c.c.account_id == account.id)))
                if old is not None:
                    conn.execute(insert(c).values(
                        game_id=old.game_id, seat=old.seat, account_id=old.account_id,
                        link_token=old.link_token, claimed=old.claimed))
            raise
        return snap, seat

    def claims(self, account_id: int) -> list[Claim]:
        """The account's claims, oldest first."""
        c = tables.seat_claims
        rows = self.store.read(lambda conn: conn.execute(
            select(c).where(c.c.account_id == account_id)
            .order_by(c.c.claimed, c.c.game_id, c.c.seat)).all())
        return [Claim(r.game_id, int(r.seat), r.link_token, utc(r.claimed)) for r in rows]

    def games(self, account_id: int) -> list[Held]:
        """"Your games": each claimed seat's game, the latest activity first."""
        claims = self.claims(account_id)
        if not claims:
            return []
        rows = self.store.mine([(cl.game_id, cl.token) for cl in claims])
        latest = self.store.read(lambda conn: _last_moves(conn, [cl.game_id for cl in claims]))
        out = []
        for cl, m in zip(claims, rows, strict=True):
            when = latest.get(cl.game_id) or (m.row.created if m.row is not None
                                              else cl.claimed)
            out.append(Held(cl, m, cl.seat in m.you or cl.seat in m.benched, when))
        out.sort(key=lambda h: (-h.last_activity.timestamp(), h.claim.game_id,
                                h.claim.seat))
        return out

    def delete(self, account: Account, password: object, heir: str = DEFAULT_HEIR,
               ) -> list[tuple[str, Snapshot]]:
        """Delete the account (``password`` checked first: 401): the seats it holds keep
        the name "deleted player" and, in running games, ``heir`` plays them; its
        sessions and claims go with it. The games changed, with their snapshots (a bot
        may now be to move in them)."""
        if heir not in BOT_NAMES:
            raise BadRequest.said(words.UNKNOWN_BOT, bot=heir, bots=", ".join(BOT_NAMES))
        self.accounts.check_password(account.id, password)
        changed = []
        for h in self.games(account.id):
            if not h.valid or h.mine.row is None:
                continue  # the seat's link was re-issued: the seat is someone else's
            try:
                changed.append((h.claim.game_id,
                                self.store.leave_seat(h.claim.game_id, h.claim.seat, heir)))
            except NotFound:
                continue
        with self.store.transaction() as conn:
            conn.execute(delete(tables.seat_claims)
                         .where(tables.seat_claims.c.account_id == account.id))
            conn.execute(delete(tables.account_sessions)
                         .where(tables.account_sessions.c.account_id == account.id))
            conn.execute(delete(tables.password_resets)
                         .where(tables.password_resets.c.account_id == account.id))
            conn.execute(delete(tables.accounts).where(tables.accounts.c.id == account.id))
        return changed

    def export(self, account: Account) -> dict[str, Any]:
        """The account's own data, as JSON: the account, its sessions (no token) and its
        seats with their games (no password hash, no other player's link)."""
        games = []
        for h in self.games(account.id):
            row = h.mine.row
            games.append({
                "game_id": h.claim.game_id, "seat": h.claim.seat,
                "claimed": h.claim.claimed.isoformat(), "link_valid": h.valid,
                "title": row.title if row is not None else None,
                "status": row.status if row is not None else None,
                "seat_name": (row.seats[h.claim.seat].name if row is not None
                              and h.claim.seat < len(row.seats) else None),
                "players": ([s.name for s in row.seats] if row is not None else []),
                "last_activity": h.last_activity.isoformat()})
        return {"account": {"name": account.name, "created": account.created.isoformat(),
                            "disabled": account.disabled},
                "sessions": [{k: v.isoformat() for k, v in s.items()}
                             for s in self.accounts.sessions(account.id)],
                "games": games}


def _last_moves(conn: Connection, game_ids: Sequence[str]) -> dict[str, datetime]:
    """When each game's last entry was written."""
    m = db.moves
    ids = list(dict.fromkeys(game_ids))
    out: dict[str, datetime] = {}
    for i in range(0, len(ids), 500):
        for r in conn.execute(select(m.c.game_id, func.max(m.c.created).label("at"))
                              .where(m.c.game_id.in_(ids[i:i + 500])).group_by(m.c.game_id)):
            if r.at is not None:
                out[r.game_id] = utc(r.at)
    return out
