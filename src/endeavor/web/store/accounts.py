"""What an account's deletion does to its seats (see :mod:`endeavor.web.accounts`): a
seat of a finished game keeps the name "deleted player"; a seat of a running game gets
that name too and a bot plays it, as if the host had put the bot there (so the host
can put another bot there, hand the seat to a person or end the game). Each is a
``host`` entry made by the server itself."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from endeavor.bots import NAMES as BOT_NAMES

from ..view.accountwords import UNKNOWN_BOT
from .errors import BadRequest
from .gamelog import KEEP
from .host import HostPanel
from .records import Meta, Snapshot
from .repository import CachedGame
from .seats import seat_of, seat_statements, with_seats
from .values import now as _now

#: the name a deleted account's seats keep (numbered when a game has several)
DELETED_NAME: Final = "deleted player"


def deleted_name(meta: Meta, seat: int) -> str:
    """``deleted player``, or ``deleted player 2`` (3, ...) when another seat of the
    game already has that name (names are unique in a game, case aside)."""
    used = {s.name.casefold() for s in meta.seats if s.seat != seat}
    if DELETED_NAME not in used:
        return DELETED_NAME
    n = 2
    while f"{DELETED_NAME} {n}" in used:
        n += 1
    return f"{DELETED_NAME} {n}"


class AccountSeats(HostPanel):
    """The seats of a deleted account."""

    def leave_seat(self, game_id: str, seat: int, bot: str) -> Snapshot:
        """The player of ``seat`` deleted their account: the seat is renamed "deleted
        player" and, while the game runs, ``bot`` plays it (``left <seat> <bot>``); in
        a finished game only the name changes (``name <seat> deleted player``)."""
        if bot not in BOT_NAMES:
            raise BadRequest.said(UNKNOWN_BOT, bot=bot, bots=", ".join(BOT_NAMES))
        over = self.peek(game_id, lambda snap: snap.ended is not None or snap.state.is_over)

        def change(cached: CachedGame) -> tuple[Meta, Any, None, list[Any]]:
            s = seat_of(cached.meta, seat)
            new = replace(s, name=deleted_name(cached.meta, seat), named=True)
            if not cached.over and new.kind != "bot" and new.played_by is None:
                new = replace(new, bot_override=bot, override_reason="host",
                              override_at=_now())
            return (with_seats(cached.meta, {seat: new}), KEEP, None,
                    seat_statements(game_id, [new]))

        notation = (f"name {seat} {DELETED_NAME}" if over else f"left {seat} {bot}")
        return self._host_entry(game_id, None, notation, change, trusted=True)
