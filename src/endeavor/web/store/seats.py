"""Seats, links and names: a seat's link re-issued, a bot put in a seat and the seat
handed back, a seat renamed or taken back from the bot its clock gave it to. Each is a
``host`` entry (see :mod:`endeavor.web.store.host`)."""

from __future__ import annotations

import hmac
from collections.abc import Collection, Iterable, Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import and_, delete, update

from endeavor.bots import NAMES as BOT_NAMES

from ...messages import Seat as SeatArg
from .. import db, seating
from .. import names as seat_names
from ..view import refusals
from ..view.journal import bot_level
from .errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized
from .gamelog import KEEP, not_over
from .host import HostPanel
from .records import HOST_SEAT, Meta, Seat, Snapshot
from .repository import CachedGame
from .values import hash_token, seat_token
from .values import now as _now


def seat_of(meta: Meta, seat: int) -> Seat:
    if not isinstance(seat, int) or not 0 <= seat < len(meta.seats):
        raise NotFound.said(refusals.NO_SEAT, seat=repr(seat), last=len(meta.seats) - 1)
    return meta.seats[seat]


def with_seats(meta: Meta, new: Mapping[int, Seat]) -> Meta:
    return replace(meta, seats=tuple(new.get(s.seat, s) for s in meta.seats))


def seat_statements(game_id: str, seats: Iterable[Seat], drop_notify: bool = False,
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


class Seats(HostPanel):
    """What the host and the players change about the seats."""

    def reissue(self, game_id: str, host_token: str | None, seat: int,
                ) -> tuple[Snapshot, str]:
        """A new link for ``seat`` (the hot-seat seats share theirs): the old token
        stops working at once; the seat's notification settings are kept and carry the
        new link. Returns the game and the new token."""
        out: dict[str, str] = {}

        def change(cached: CachedGame) -> tuple[Meta, Any, None, list[Any]]:
            s = seat_of(cached.meta, seat)
            if s.token_hash is None:
                raise Conflict.said(refusals.NO_LINK_BOT if s.played_by else refusals.NO_LINK,
                                    seat=SeatArg(seat))
            assert host_token is not None
            group = [x for x in cached.meta.seats
                     if x.token_key == s.token_key and x.token_hash is not None]
            gen = max(x.token_gen for x in group) + 1
            token = seat_token(host_token, game_id, s.token_key, gen)
            out["token"] = token
            new = {x.seat: replace(x, token_gen=gen, token_hash=hash_token(token))
                   for x in group}
            return (with_seats(cached.meta, new), KEEP, None,
                    seat_statements(game_id, new.values())
                    + seating.relink_statements(game_id, new, token))

        snap = self._host_entry(game_id, host_token, f"reissue {seat}", change)
        return snap, out["token"]

    def put_bot(self, game_id: str, host_token: str | None, seat: int, bot: str,
                ) -> Snapshot:
        """The host puts ``bot`` in ``seat``: until the host hands the seat back, the
        seat's link opens the game to watch, not to move, and no turn messages go to
        its notification settings (which are kept)."""
        if bot not in BOT_NAMES:
            raise BadRequest.said(refusals.UNKNOWN_BOT, bot=repr(bot),
                                  bots=", ".join(BOT_NAMES))

        def change(cached: CachedGame) -> tuple[Meta, Any, None, list[Any]]:
            not_over(cached)
            s = seat_of(cached.meta, seat)
            if s.played_by == bot and s.override_reason != "timeout":
                raise Conflict.said(refusals.BOT_PLAYS, bot=bot_level(bot), seat=SeatArg(seat))
            if s.kind == "bot":
                new = replace(s, bot=bot)
            else:
                new = replace(s, bot_override=bot, override_reason="host",
                              override_at=s.override_at if s.benched else _now())
            if s.kind == "bot" and not s.named:  # a bot's seat is named by its level
                new = replace(new, name=seat_names.bot_name(
                    bot, [x.name for x in cached.meta.seats if x.seat != seat]))
            return (with_seats(cached.meta, {seat: new}), KEEP, None,
                    seat_statements(game_id, [new]))

        return self._host_entry(game_id, host_token, f"bot {seat} {bot}", change)

    def hand_back(self, game_id: str, host_token: str | None, seat: int,
                  ) -> tuple[Snapshot, str | None]:
        """The host gives ``seat`` (played by a bot) to a person: the person the host
        took it from plays it again on their link (and their notification settings),
        else it gets a new link of its own (returned with the game; None: the seat's
        link is one the host panel cannot show)."""
        out: dict[str, str | None] = {}

        def change(cached: CachedGame) -> tuple[Meta, Any, None, list[Any]]:
            not_over(cached)
            s = seat_of(cached.meta, seat)
            if s.played_by is None:
                raise Conflict.said(refusals.PERSON_PLAYS, seat=SeatArg(seat))
            assert host_token is not None
            if s.benched and s.token_hash is not None:  # the same link plays it again
                token = seat_token(host_token, game_id, s.token_key, s.token_gen)
                out["token"] = token if hmac.compare_digest(
                    hash_token(token), s.token_hash) else None
                new = replace(s, bot_override=None, override_reason=None, override_at=None)
                return (with_seats(cached.meta, {seat: new}), KEEP, None,
                        seat_statements(game_id, [new]))
            gen = s.token_gen + 1
            token = seat_token(host_token, game_id, str(seat), gen)
            out["token"] = token
            new = replace(s, kind="human", bot=None, bot_override=None,
                          override_reason=None, override_at=None, token_gen=gen,
                          token_hash=hash_token(token))
            return (with_seats(cached.meta, {seat: new}), KEEP, None,
                    seat_statements(game_id, [new], drop_notify=True))

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

        def check(cached: CachedGame) -> None:
            s = seat_of(cached.meta, seat)
            if host_token is None and seat not in cached.meta.seats_of(token):
                raise Forbidden.said(refusals.NAME_OWN, seat=SeatArg(seat))
            seat_names.check_unique(clean, seat, [x.name for x in cached.meta.seats])
            if s.name == clean and s.named:
                raise Conflict.said(refusals.CALLED, seat=SeatArg(seat), name=repr(clean))

        def change(cached: CachedGame) -> tuple[Meta, Any, None, list[Any]]:
            new = replace(seat_of(cached.meta, seat), name=clean, named=True)
            return (with_seats(cached.meta, {seat: new}), KEEP, None,
                    seat_statements(game_id, [new]))

        if host_token is None and not token:
            raise Unauthorized.said(refusals.SEAT_TOKEN)
        return self._host_entry(game_id, host_token, f"name {seat} {clean}", change,
                                seat=HOST_SEAT if host_token is not None else seat,
                                check=check)

    def reclaim(self, game_id: str, seats: Collection[int], seat: int) -> Snapshot:
        """``seat``'s player takes the seat back from the bot that took it over when
        their time ran out (if the game's clock allows it)."""
        if seat not in seats:
            raise Forbidden.said(refusals.NOT_YOURS, seat=SeatArg(seat))

        def change(cached: CachedGame) -> tuple[Meta, Any, None, list[Any]]:
            not_over(cached)
            s = seat_of(cached.meta, seat)
            if s.override_reason != "timeout":
                raise Conflict.said(refusals.NO_TAKEOVER if s.override_reason is None
                                    else refusals.HOST_BOT, seat=SeatArg(seat))
            if cached.clock is None or not cached.clock.config.reclaim:
                raise Conflict.said(refusals.NO_RECLAIM)
            new = replace(s, bot_override=None, override_reason=None)
            return (with_seats(cached.meta, {seat: new}), KEEP, None,
                    seat_statements(game_id, [new]))

        return self._host_entry(game_id, None, f"reclaim {seat}", change, seat=seat)
