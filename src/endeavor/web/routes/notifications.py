"""A seat's notification settings (``/api/games/{game_id}/notify``: webhook, e-mail,
their modes, a test message) and its page's presence (no notifications while the seat
is looking at the game)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from .. import schemas, seating
from ..accounts import notifying
from ..store import CHANNELS
from .state import AppState, GameId, Locale, Token, Web, one_seat, seats_of, token_of

router = APIRouter(tags=["notifications"])


def notify_view(web: AppState, game_id: str, you: frozenset[int]) -> dict[str, Any]:
    """The notification settings of the seats ``you`` (``schemas.NotifyView``)."""
    settings = web.store.notifications(game_id, you)
    modes = seating.modes(web.store, game_id, you)
    accounts = notifying.from_account(web.store, game_id, you)
    return {"seats": [{"seat": p, **{c: next((n.target for n in settings
                                              if n.seat == p and n.channel == c), None)
                                     for c in CHANNELS},
                       **{f"{c}_mode": modes.get((p, c), "turn") for c in CHANNELS},
                       "from_account": p in accounts}
                      for p in sorted(you)],
            "email_available": web.notifier.email_available,
            "digest_hours": web.notifier.settings.digest_seconds / 3600.0}


async def checked_addresses(web: AppState, fields: dict[str, Any]) -> dict[str, str | None]:
    """The ``webhook`` and ``email`` among a request's ``fields``, checked (400 in words:
    see :meth:`~endeavor.web.notify.Notifier.check_webhook`, ``check_email``); an empty
    one, or null, removes it (None)."""
    changes: dict[str, str | None] = {}
    webhook, email = fields.get("webhook"), fields.get("email")
    if "webhook" in fields:
        changes["webhook"] = await web.notifier.check_webhook_async(webhook) if webhook else None
    if "email" in fields:
        changes["email"] = web.notifier.check_email(email) if email else None
    return changes


@router.get("/api/games/{game_id}/notify", response_model=schemas.NotifyView)
def get_notify(game_id: GameId, token: Token, web: Web) -> dict[str, Any]:
    """Your seat's notification settings (webhook URL, e-mail address)."""
    snap = web.store.snapshot(game_id)
    return notify_view(web, game_id, seats_of(snap, token, required=True))


@router.put("/api/games/{game_id}/notify", response_model=schemas.NotifyView)
async def put_notify(game_id: GameId, body: schemas.NotifyRequest, token: Token, web: Web,
                     locale: Locale) -> dict[str, Any]:
    """Set or remove (``null``) your seat's webhook and/or e-mail; a field left out
    stays as it is. The seat's messages are written in ``lang``, else in the
    language of the request (``?lang=``, else its Accept-Language header, else
    English). A webhook on a loopback or private address is refused unless the
    server allows it (its host is looked up on a thread of its own, awaited here:
    a name server that does not answer within a few seconds is a 400, and holds
    none of the threads that serve moves); an e-mail needs the server's SMTP
    settings."""
    secret = token_of(token)
    snap = await run_in_threadpool(web.store.snapshot, game_id)
    you = seats_of(snap, token, required=True)
    seat = one_seat(you, body.seat)
    fields = body.model_dump(exclude_unset=True)
    changes = await checked_addresses(web, fields)
    lang = body.lang or locale

    def save() -> dict[str, Any]:
        for channel, target in changes.items():
            web.store.set_notification(game_id, seat, channel, target, secret, lang)
        modes = {c: m for c in CHANNELS if (m := fields.get(f"{c}_mode")) is not None}
        if modes:
            seating.set_modes(web.store, game_id, seat, modes)
        web.store.set_notify_lang(game_id, seat, lang)
        notifying.refresh(web.store, game_id, seat)  # its own setting, else its account's
        return notify_view(web, game_id, you)
    return await run_in_threadpool(save)


@router.post("/api/games/{game_id}/notify/test", response_model=schemas.NotifyTestResult)
def test_notify(game_id: GameId, body: schemas.NotifyTestRequest, token: Token,
                web: Web, locale: Locale) -> dict[str, Any]:
    """Send a test message to your seat's webhook or e-mail now, and say how it
    went (``sent``, or ``failed: ...`` with why in the request's language). 409 for a
    channel with no address, or a test of the same channel less than 20 s ago."""
    snap = web.store.snapshot(game_id)
    seat = one_seat(seats_of(snap, token, required=True), body.seat)
    result = web.tests.send(web.notifier, game_id, seat, body.channel, locale)
    return {"seat": seat, "channel": body.channel, "result": result,
            "ok": result == "sent"}


@router.post("/api/games/{game_id}/presence", response_model=schemas.PresenceView)
def presence(game_id: GameId, body: schemas.PresenceRequest, token: Token,
             web: Web) -> dict[str, Any]:
    """The seat's page is open and visible (``visible: true``, every 20 s or so:
    no notifications while it is, for 45 s after the last) or hidden
    (``false``: those held back go out now if the turn is still the seat's)."""
    snap = web.store.snapshot(game_id)
    you = seats_of(snap, token, required=True)
    until = seating.set_presence(web.store, game_id, you, body.visible)
    if not body.visible:
        web.notifier.wake(game_id, snap.seq)
    return {"seats": sorted(you), "visible_until": until}


@router.delete("/api/games/{game_id}/notify", response_model=schemas.NotifyView)
def delete_notify(game_id: GameId, token: Token, web: Web,
                  seat: Annotated[int | None, Query(ge=0, le=7)] = None,
                  ) -> dict[str, Any]:
    """Remove your seat's notifications (all channels)."""
    secret = token_of(token)
    snap = web.store.snapshot(game_id)
    you = seats_of(snap, token, required=True)
    p = one_seat(you, seat)
    for channel in CHANNELS:
        web.store.set_notification(game_id, p, channel, None, secret)
    notifying.refresh(web.store, game_id, p)  # the account's setting comes back, if any
    return notify_view(web, game_id, you)
