"""A seat's notification settings (a webhook and/or an e-mail; sent by
:mod:`endeavor.web.notify`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from sqlalchemy import and_, delete, insert, select, update

from endeavor.messages import DEFAULT_LOCALE, LOCALES

from .. import db
from ..view import checkwords as words
from .errors import BadRequest
from .records import Notification
from .repository import Repository
from .values import now as _now

#: notification channels a seat may set
CHANNELS: Final = ("webhook", "email")


class Notifications(Repository):
    """The seats' notification settings."""

    def notifications(self, game_id: str, seats: Collection[int]) -> list[Notification]:
        """The notification settings of ``seats``."""
        n = db.notify
        rows = self.read(lambda conn: list(conn.execute(
            select(n.c.seat, n.c.channel, n.c.target, n.c.lang)
            .where(and_(n.c.game_id == game_id, n.c.seat.in_(list(seats))))
            .order_by(n.c.seat, n.c.channel))))
        return [Notification(int(r.seat), r.channel, r.target, r.lang or DEFAULT_LOCALE)
                for r in rows]

    def set_notification(self, game_id: str, seat: int, channel: str, target: str | None,
                         token: str, lang: str = DEFAULT_LOCALE) -> None:
        """Set (``target``) or remove (None) ``seat``'s notification on ``channel``;
        ``token`` is the seat's, kept for the link a message carries; ``lang`` the
        language of its messages (see :meth:`set_notify_lang`). (The target is checked
        by the caller.)"""
        if channel not in CHANNELS:
            raise BadRequest.said(words.CHANNEL, value=repr(channel),
                                  channels=", ".join(CHANNELS))
        if lang not in LOCALES:
            raise BadRequest.said(words.LANGUAGE, value=repr(lang),
                                  languages=", ".join(LOCALES))
        n = db.notify
        key = and_(n.c.game_id == game_id, n.c.seat == seat, n.c.channel == channel)
        with self.write_lock, self.engine.begin() as conn:
            mode = conn.execute(select(n.c.mode).where(key)).scalar() or "turn"
            conn.execute(delete(n).where(key))
            conn.execute(delete(db.outbox).where(and_(
                db.outbox.c.game_id == game_id, db.outbox.c.seat == seat,
                db.outbox.c.channel == channel)))
            if target is not None:  # a new address keeps the channel's mode
                conn.execute(insert(n).values(game_id=game_id, seat=seat, channel=channel,
                                              target=target, link_token=token,
                                              created=_now(), mode=mode, lang=lang))

    def set_notify_lang(self, game_id: str, seat: int, lang: str) -> None:
        """The language of ``seat``'s messages on every channel it set (``en``, ``fr``:
        the language its player used the app in when they saved the settings)."""
        if lang not in LOCALES:
            raise BadRequest.said(words.LANGUAGE, value=repr(lang),
                                  languages=", ".join(LOCALES))
        n = db.notify
        with self.transaction() as conn:
            conn.execute(update(n).where(and_(n.c.game_id == game_id, n.c.seat == seat))
                         .values(lang=lang))
