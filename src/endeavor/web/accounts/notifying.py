"""An account's e-mail address and its notification setting, and the seats it applies
to: every seat the account claimed that has no setting of its own in its game. The
setting is written into those seats' ``notify`` rows (marked with the ``account_id``),
so the sender, the digests and the outbox read one table whatever the setting's origin;
a seat's own setting replaces them (:func:`refresh_seat`), and removing it brings the
account's back."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, and_, delete, insert, select, update

from endeavor.messages import DEFAULT_LOCALE, LOCALES

from .. import db
from ..store import BadRequest, Conflict, Store
from ..store.values import now as _now
from ..view import checkwords, mailwords
from . import mailtables, tables

#: the choices of a channel's mode (as a seat's: :data:`endeavor.web.seating.MODES`)
MODES: Final = ("turn", "digest")


@dataclass(frozen=True)
class Setting:
    """An account's address and notification setting (none saved yet: all empty)."""

    email: str | None = None
    notify_email: bool = True
    webhook: str | None = None
    email_mode: str = "turn"
    webhook_mode: str = "turn"
    lang: str = DEFAULT_LOCALE

    def channels(self) -> list[tuple[str, str, str]]:
        """``(channel, target, mode)`` of each channel it asks for."""
        out = []
        if self.email and self.notify_email:
            out.append(("email", self.email, self.email_mode))
        if self.webhook:
            out.append(("webhook", self.webhook, self.webhook_mode))
        return out


def _setting(row: Any) -> Setting:
    if row is None:
        return Setting()
    return Setting(row.email, bool(row.notify_email), row.webhook, row.email_mode,
                   row.webhook_mode, row.lang or DEFAULT_LOCALE)


def read_setting(conn: Connection, account_id: int) -> Setting:
    """The account's setting as stored (an empty one when none was saved)."""
    t = mailtables.account_settings
    return _setting(conn.execute(select(t).where(t.c.account_id == account_id)).first())


def refresh_seat(conn: Connection, game_id: str, seat: int,
                 now: datetime | None = None) -> None:
    """Make ``seat``'s notification rows follow the rule: a seat with a setting of its
    own keeps only that; else, when an account claimed it, the account's setting (with
    the claim's link token: a link re-issued since makes the sender drop it)."""
    n, c = db.notify, tables.seat_claims
    key = and_(n.c.game_id == game_id, n.c.seat == seat)
    conn.execute(delete(n).where(and_(key, n.c.account_id.is_not(None))))
    own = conn.execute(select(n.c.channel).where(key).limit(1)).first()
    if own is not None:
        return
    claim = conn.execute(select(c.c.account_id, c.c.link_token).where(and_(
        c.c.game_id == game_id, c.c.seat == seat))).first()
    if claim is None:
        return
    setting = read_setting(conn, int(claim.account_id))
    when = now or _now()
    for channel, target, mode in setting.channels():
        conn.execute(insert(n).values(
            game_id=game_id, seat=seat, channel=channel, target=target,
            link_token=claim.link_token, created=when, mode=mode, lang=setting.lang,
            account_id=int(claim.account_id)))


def refresh_account(conn: Connection, account_id: int) -> int:
    """Every seat the account claimed follows its setting (see :func:`refresh_seat`);
    how many seats it claimed."""
    c = tables.seat_claims
    seats = conn.execute(select(c.c.game_id, c.c.seat)
                         .where(c.c.account_id == account_id)).all()
    now = _now()
    for r in seats:
        refresh_seat(conn, r.game_id, int(r.seat), now)
    return len(seats)


def from_account(store: Store, game_id: str, seats: Collection[int]) -> set[int]:
    """Which of ``seats`` use their account's setting (having none of their own)."""
    n = db.notify
    return store.read(lambda conn: {int(r.seat) for r in conn.execute(
        select(n.c.seat).where(and_(n.c.game_id == game_id, n.c.seat.in_(sorted(seats)),
                                    n.c.account_id.is_not(None))))})


def refresh(store: Store, game_id: str, seat: int) -> None:
    """The seat's notification rows follow the rule again (after its own setting or
    its claim changed), in a transaction of their own."""
    with store.transaction() as conn:
        refresh_seat(conn, game_id, seat)


class AccountNotify:
    """The accounts' addresses and notification settings (of the store's database)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def setting(self, account_id: int) -> Setting:
        """The account's setting."""
        return self.store.read(lambda conn: read_setting(conn, account_id))

    def save(self, account_id: int, changes: Mapping[str, Any], lang: str) -> Setting:
        """Change the account's setting (``changes``: the fields given, already checked;
        a field left out stays) and apply it to every seat it claimed, in one
        transaction; its messages' language becomes ``lang``. 400 for an unknown mode,
        409 for turns e-mailed without an address (nothing changed)."""
        if lang not in LOCALES:
            raise BadRequest.said(checkwords.LANGUAGE, value=repr(lang),
                                  languages=", ".join(LOCALES))
        for field in ("email_mode", "webhook_mode"):
            mode = changes.get(field)
            if mode is not None and mode not in MODES:
                raise BadRequest.said(mailwords.BAD_MODE, mode=repr(mode))
        t = mailtables.account_settings
        with self.store.transaction() as conn:
            old = read_setting(conn, account_id)
            values = {**{f: getattr(old, f) for f in ("email", "notify_email", "webhook",
                                                       "email_mode", "webhook_mode")},
                      **{k: v for k, v in changes.items() if v is not None
                         or k in ("email", "webhook")}, "lang": lang, "updated": _now()}
            if values["notify_email"] and "notify_email" in changes and not values["email"]:
                raise Conflict.said(mailwords.NO_ADDRESS)
            done = conn.execute(update(t).where(t.c.account_id == account_id).values(**values))
            if done.rowcount != 1:
                conn.execute(insert(t).values(account_id=account_id, **values))
            refresh_account(conn, account_id)
            return read_setting(conn, account_id)

    def seats_using(self, account_id: int) -> int:
        """How many of the account's claimed seats its setting notifies for now (the
        others have a setting of their own in their game)."""
        n = db.notify
        rows = self.store.read(lambda conn: conn.execute(
            select(n.c.game_id, n.c.seat).where(n.c.account_id == account_id)
            .distinct()).all())
        return len(rows)
