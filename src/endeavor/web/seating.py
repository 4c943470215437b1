"""A seat that stays its player's, and notifications that know where the player is.

- A seat's notification settings belong to the seat: re-issuing its link moves them to
  the new link (:func:`relink_statements`); the host putting a bot in the seat and
  handing it back keeps them (no turn messages go out while the bot plays).
- The host giving a person's seat to a bot *benches* the seat: its link keeps opening the
  game, to watch ("The host gave your seat to the medium bot on ...": see
  :func:`benched_words`), and may not move; handing the seat back makes the same link
  play it again.
- Presence: the seat's page, while it is open and visible, renews ``seats.visible_until``
  (``POST /api/games/{id}/presence``, :func:`set_presence`); a notification coming due
  while its seat is visible is held back (its outbox row's ``due`` pushed to then), and
  goes out if the turn is still the seat's when the page is hidden (the page says so:
  ``visible_until`` becomes now and the held rows are due at once) or closed (it
  expires after :data:`VISIBLE_SECONDS`). The state is in the database: any worker
  sends.
- Every turn or a digest, per channel (``notify.mode``): a digest sends at most one
  message a digest period to an address (all the seats and games that use it in digest
  mode together, ``notify.last_sent``), saying what waits then; a row due sooner is
  held until the period is over (:func:`gate`).
- A webhook URL set by more than one seat (of any game) is a shared channel: its
  messages carry the game's spectator link and the seat's name, never the seat's link
  (which would let every reader play the seat). E-mail and a webhook used by one seat
  only keep the seat's link (:func:`shared_webhook`).
- A test message on one channel, sent at once and its result said in words
  (:func:`send_test`), at most one per seat and channel every :data:`TEST_GAP_SECONDS`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import and_, bindparam, delete, func, or_, select, update

from ..messages import Message as Words
from ..messages import Seat as SeatArg
from ..messages import msg
from . import db
from .view import refusals
from .view.journal import bot_level

if TYPE_CHECKING:
    from .notify import Message, Notifier
    from .store import Seat, Store, StoreError

#: how long a visible page counts as at the table after its last ping (seconds); the
#: page pings every :data:`PING_SECONDS` while visible
VISIBLE_SECONDS: Final = 45.0
PING_SECONDS: Final = 20.0
#: the default digest period (hours; ``endeavor serve --digest-hours``)
DIGEST_HOURS: Final = 12.0
DIGEST_VAR: Final = "ENDEAVOR_DIGEST_HOURS"
#: the shortest time between two test messages of one seat on one channel (seconds)
TEST_GAP_SECONDS: Final = 20.0
MODES: Final = ("turn", "digest")


# --------------------------------------------------------------------------- benched
def benched_message(seat: Seat) -> Words:
    """Why a benched seat's link may not move, as a message."""
    who, bot = SeatArg(seat.seat), bot_level(seat.bot_override or "")
    if seat.override_at is None:
        return msg(refusals.BENCHED, seat=who, bot=bot)
    return msg(refusals.BENCHED_ON, seat=who, bot=bot,
               date=seat.override_at.strftime("%Y-%m-%d"),
               time=seat.override_at.strftime("%H:%M"))


def benched_words(seat: Seat, locale: str = "en") -> str:
    """Why a benched seat's link may not move, in ``locale``'s words."""
    return benched_message(seat).render(locale)


def no_seat(benched: Sequence[Seat]) -> StoreError:
    """The 403 of a token that plays no seat: the first of the seats the host gave to a
    bot (``benched``: the token's), else a token of no seat."""
    from .store import Forbidden

    words = benched_message(benched[0]) if benched else msg(refusals.NOT_A_SEAT)
    return Forbidden(words.render("en"), words=words)


def benched_view(seats: Iterable[Seat], locale: str = "en") -> list[dict[str, Any]]:
    """A game view's ``benched``: the link's seats the host gave to a bot (``words``:
    in ``locale``)."""
    return [{"seat": s.seat, "bot": s.bot_override,
             "since": s.override_at.isoformat() if s.override_at is not None else None,
             "words": benched_words(s, locale)} for s in seats]


def relink_statements(game_id: str, seats: Mapping[int, Seat] | Collection[int],
                      token: str) -> list[tuple[Any, dict[str, Any]]]:
    """The UPDATE moving ``seats``' notification settings to their new link ``token``
    (in the transaction that re-issues it); the settings their accounts gave them are
    deleted (the new link is no longer the account's)."""
    n = db.notify
    which = and_(n.c.game_id == game_id, n.c.seat.in_(list(seats)))
    return [(delete(n).where(and_(which, n.c.account_id.is_not(None))), {}),
            (update(n).where(which).values(link_token=token), {})]


# --------------------------------------------------------------------------- presence
def set_presence(store: Store, game_id: str, seats: Collection[int], visible: bool,
                 now: datetime | None = None) -> datetime:
    """The page of ``seats`` is open and visible (until now + :data:`VISIBLE_SECONDS`),
    or hidden (until now: the notifications held for it are due at once); returns
    ``visible_until``."""
    from .store import utcnow

    now = now or utcnow()
    until = now + timedelta(seconds=VISIBLE_SECONDS) if visible else now
    s, o = db.seats, db.outbox
    with store.transaction() as conn:
        conn.execute(update(s).where(and_(s.c.game_id == game_id, s.c.seat.in_(list(seats))))
                     .values(visible_until=until))
        if not visible:
            conn.execute(update(o).where(and_(o.c.game_id == game_id,
                                              o.c.seat.in_(list(seats)), o.c.due > now,
                                              o.c.attempts == 0))
                         .values(due=now))
    return until


def _gate_query(webhook: bool) -> Any:
    """The query of :func:`gate` (built once: it runs for every message)."""
    s, n = db.seats, db.notify
    other = n.alias("other")
    columns: list[Any] = [s.c.visible_until, n.c.mode, n.c.account_id]
    if webhook:  # the seats with this address, but the setting's own account's
        others = select(func.count()).select_from(other).where(and_(
            other.c.channel == "webhook", other.c.target == bindparam("b_target"),
            or_(n.c.account_id.is_(None), other.c.account_id.is_(None),
                other.c.account_id != n.c.account_id)))
        columns.append(others.scalar_subquery().label("users"))
    return (select(*columns).select_from(
        s.outerjoin(n, and_(n.c.game_id == s.c.game_id, n.c.seat == s.c.seat,
                            n.c.channel == bindparam("b_channel"))))
        .where(and_(s.c.game_id == bindparam("b_game"), s.c.seat == bindparam("b_seat"))))


_GATE: Final = {True: _gate_query(True), False: _gate_query(False)}
_LAST_SENT: Final = select(func.max(db.notify.c.last_sent)).where(and_(
    db.notify.c.channel == bindparam("b_channel"), db.notify.c.target == bindparam("b_target"),
    db.notify.c.mode == "digest"))


def gate(store: Store, game_id: str, seat: int, channel: str, target: str,
         digest_seconds: float, now: datetime) -> tuple[datetime | None, str | None, bool]:
    """When a notification of ``seat`` on ``channel`` (to ``target``) due now may go out
    (None: now; later while the seat's page is visible, or while the address's digest
    period runs), the channel's mode (``turn``, ``digest``; None: no longer set)
    and whether ``target`` is a shared webhook (:func:`shared_webhook`), read in one
    query (two for a digest; the sender asks this of every message)."""
    from .store import utc

    webhook = channel == "webhook"
    params = {"b_game": game_id, "b_seat": seat, "b_channel": channel, "b_target": target}

    def read(conn: Any) -> tuple[Any, Any]:
        row = conn.execute(_GATE[webhook], params).first()
        last = None
        if row is not None and row.mode == "digest":
            last = conn.execute(_LAST_SENT, params).scalar()
        return row, last

    row, last = store.read(read)
    if row is None:
        return None, None, False
    visible, mode = row.visible_until, row.mode
    # shared: another seat uses the address (an account's seats are its one player's)
    shared = webhook and int(row.users or 0) > (1 if row.account_id is None else 0)
    later: list[datetime] = []
    if visible is not None and utc(visible) > now:
        later.append(utc(visible))
    if last is not None and utc(last) + timedelta(seconds=digest_seconds) > now:
        later.append(utc(last) + timedelta(seconds=digest_seconds))
    return (max(later) if later else None), mode, shared


def sent_statement(channel: str, target: str, now: datetime) -> tuple[Any, dict[str, Any]]:
    """The UPDATE noting a message sent to ``target`` (starts its digest period: only the
    settings in digest mode read it, so only they are written)."""
    n = db.notify
    return (update(n).where(and_(n.c.channel == channel, n.c.target == target,
                                 n.c.mode == "digest"))
            .values(last_sent=now), {})


def hold_statement(game_id: str, seat: int, channel: str, lease: datetime,
                   until: datetime) -> tuple[Any, dict[str, Any]]:
    """The UPDATE handing back a claimed outbox row unsent, due at ``until``: not an
    attempt (the claim counted one: given back)."""
    o = db.outbox
    return (update(o).where(and_(o.c.game_id == game_id, o.c.seat == seat,
                                 o.c.channel == channel, o.c.lease_until == lease))
            .values(lease_until=None, due=until, attempts=o.c.attempts - 1), {})


# --------------------------------------------------------------------------- messages
def shared_webhook(store: Store, url: str) -> bool:
    """Whether ``url`` is the webhook of more than one seat (of any game)."""
    n = db.notify
    two = select(n.c.game_id).where(and_(n.c.channel == "webhook", n.c.target == url)
                                    ).limit(2).subquery()
    count = store.read(lambda conn: conn.execute(
        select(func.count()).select_from(two)).scalar())
    return int(count or 0) > 1


def waiting_elsewhere(notifier: Notifier, game_id: str, seat: int, channel: str,
                      target: str, shared: bool, lang: str = "en") -> tuple[str, ...]:
    """The other games waiting for a move of a seat whose ``channel`` in digest mode goes
    to ``target``, as lines of a digest ("Also your move: title (P2): link") in
    ``lang``'s words."""
    from .view.notice import ALSO, say, title_words

    n, g = db.notify, db.games
    query = (select(g.c.id, g.c.title, n.c.seat, n.c.link_token)
             .select_from(n.join(g, g.c.id == n.c.game_id))
             .where(and_(n.c.channel == channel, n.c.target == target, n.c.mode == "digest",
                         g.c.over.is_(False), g.c.current_player == n.c.seat))
             .order_by(g.c.created).limit(20))
    rows = notifier.store.read(lambda conn: list(conn.execute(query)))
    out = []
    links = notifier.links
    for r in rows:
        if r.id == game_id and int(r.seat) == seat:
            continue
        link = (links.spectate(r.id, absolute=True) if shared
                else links.seat(r.id, r.link_token, absolute=True))
        out.append(say(ALSO, lang, title=title_words(r.title, r.id, lang),
                       seat=f"P{int(r.seat)}", link=link))
    return tuple(out)


def for_channel(notifier: Notifier, message: Message, channel: str, target: str,
                mode: str | None = None, shared: bool | None = None) -> Message:
    """``message`` as it goes to ``target``: a shared webhook gets the spectator link and
    the seat's name instead of the seat's link; a digest lists the other games waiting.
    (``shared``: whether ``target`` is a shared webhook, if known: see :func:`gate`.)"""
    if shared is None:
        shared = channel == "webhook" and shared_webhook(notifier.store, target)
    if shared:
        name = message.name or notifier.store.peek(
            message.game_id, lambda snap: snap.meta.seats[message.seat].name)
        message = replace(message, link=message.game_url, shared=True,
                          name=name if name != f"P{message.seat}" else "")
    if mode == "digest" and message.event == "turn":
        message = replace(message, also=waiting_elsewhere(
            notifier, message.game_id, message.seat, channel, target, shared,
            message.lang))
    return message


def modes(store: Store, game_id: str, seats: Collection[int]) -> dict[tuple[int, str], str]:
    """``{(seat, channel): mode}`` of ``seats``' notification settings."""
    n = db.notify
    return store.read(lambda conn: {
        (int(r.seat), r.channel): r.mode for r in conn.execute(
            select(n.c.seat, n.c.channel, n.c.mode).where(and_(
                n.c.game_id == game_id, n.c.seat.in_(sorted(seats)))))})


def set_modes(store: Store, game_id: str, seat: int, modes: Mapping[str, str]) -> None:
    """Set ``seat``'s ``{channel: mode}``; a channel with no address is :class:`Conflict`
    (nothing changed)."""
    from .store import BadRequest, Conflict

    n = db.notify
    with store.transaction() as conn:
        for channel, mode in modes.items():
            if mode not in MODES:
                raise BadRequest.said(refusals.UNKNOWN_MODE, mode=repr(mode))
            done = conn.execute(update(n).where(and_(
                n.c.game_id == game_id, n.c.seat == seat, n.c.channel == channel))
                .values(mode=mode))
            if done.rowcount != 1:
                raise Conflict.said(refusals.NO_ADDRESS[channel][0], seat=SeatArg(seat))


# --------------------------------------------------------------------------- test
class TestSender:
    """Test messages sent at once (``POST /api/games/{id}/notify/test``), at most one per
    seat and channel every :data:`TEST_GAP_SECONDS` in this process."""

    __test__ = False  # not a pytest class

    def __init__(self, gap: float = TEST_GAP_SECONDS) -> None:
        self.gap = gap
        self._last: dict[tuple[str, int, str], float] = {}
        self._lock = threading.Lock()

    def send(self, notifier: Notifier, game_id: str, seat: int, channel: str,
             locale: str = "en") -> str:
        """Send a test message to ``seat``'s ``channel``: what happened, in words (why
        it failed in ``locale``; :class:`Conflict` when the channel has no address, or a
        test went out too recently)."""
        from .notify import Message, SendError
        from .store import Conflict, hash_token
        from .view.notice import title_words

        n = db.notify
        query = select(n.c.target, n.c.link_token, n.c.lang).where(and_(
            n.c.game_id == game_id, n.c.seat == seat, n.c.channel == channel))
        row = notifier.store.read(lambda conn: conn.execute(query).first())
        if row is None:
            raise Conflict.said(refusals.NO_ADDRESS[channel][1], seat=SeatArg(seat))
        key = (game_id, seat, channel)
        now = time.monotonic()
        with self._lock:
            last = self._last.get(key)
            if last is not None and now - last < self.gap:
                raise Conflict.said(refusals.TEST_WAIT, ago=f"{now - last:.0f}",
                                    wait=f"{self.gap - (now - last):.0f}")
            self._last[key] = now
            if len(self._last) > 10000:
                self._last.clear()
        snap = notifier.store.snapshot(game_id)
        meta = snap.meta
        token = row.link_token
        if meta.seats[seat].token_hash != hash_token(token):
            raise Conflict.said(refusals.RELINKED)
        lang = row.lang or "en"
        message = Message("test", meta.id, title_words(meta.title, meta.id, lang),
                          notifier.links.spectate(meta.id, absolute=True), seat,
                          int(snap.state.round), int(snap.state.rules.rounds),
                          notifier.links.seat(meta.id, token, absolute=True),
                          name=meta.seats[seat].name, lang=lang)
        message = for_channel(notifier, message, channel, row.target)
        try:
            if channel == "webhook":
                notifier.send_webhook(row.target, message)
            else:
                notifier.send_email(row.target, message)
        except SendError as e:
            return f"failed: {e.reason(locale)}"
        return "sent"
