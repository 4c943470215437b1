"""A rated game's creation: who may create one and what it records (the ``rated`` flag
of the game, its ``game_ratings`` row, ``playing`` until its end)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlalchemy import Connection, insert, update

from endeavor import GameConfig

from ...messages import msg
from .. import db
from ..store import BadRequest, Created, Unauthorized
from ..view import ratings as words
from . import model
from .tables import game_ratings


def _refuse(error: type[BadRequest] | type[Unauthorized], id: str) -> None:
    m = msg(id)
    raise error(m.render("en"), words=m)


def check(account_id: int | None, seats: Sequence[object]) -> None:
    """A rated game may be created: by a signed-in account (401), with no hot-seat seat,
    at least one person's seat and bots that are levels (400)."""
    if account_id is None:
        _refuse(Unauthorized, words.NEEDS_ACCOUNT)
    kinds = [s.strip().lower() if isinstance(s, str) else "" for s in seats]
    if "hotseat" in kinds:
        _refuse(BadRequest, words.NO_HOTSEAT)
    if "human" not in kinds:
        _refuse(BadRequest, words.NEEDS_PERSON)
    if any(k.startswith("bot:") and k[4:] not in model.LEVELS for k in kinds):
        _refuse(BadRequest, words.LEVELS_ONLY)


def marker(account_id: int, config: object) -> Callable[[Connection, Created], None]:
    """The writes making a new game rated, in the game's own transaction (``then`` of
    :meth:`endeavor.web.store.Store.create`); ``config``: the request's."""
    try:
        cfg = GameConfig.from_dict(config).to_dict()  # type: ignore[arg-type,unused-ignore]
    except Exception:  # refused by the creation itself, with the engine's reason
        cfg = {}
    family = model.family_of(cfg)

    def mark(conn: Connection, created: Created) -> None:
        conn.execute(update(db.games).where(db.games.c.id == created.id).values(rated=True))
        conn.execute(insert(game_ratings).values(
            game_id=created.id, family=family, creator_id=account_id, status="playing",
            queued=None, rated=None, reason=None))
    return mark
