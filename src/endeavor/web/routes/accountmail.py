"""Accounts by e-mail (docs/web.md, "Accounts by e-mail"): the account's address and
notification setting (``/api/account/notifications``: used for every seat the account
claimed unless the seat's game has its own), a one-time sign-in link and a
password-reset link mailed to the address (answered the same whatever the name, and
limited per name and per client address), and the sign-in with such a link."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ..accounts import maillinks
from ..accounts.maillinks import MailLinks, TooManyLinks
from ..accounts.notifying import AccountNotify, Setting
from ..schemas import Problem
from ..schemas import accountmail as s
from ..schemas.accounts import AccountView
from ..store import Conflict
from ..view import mailwords
from ..view.notice import say
from .accounts import Accounts, _signed_in_answer, same_origin, signed_in
from .notifications import checked_addresses
from .state import AppState, Locale, Web


@dataclass(eq=False)
class AccountMailApp:
    """An app's accounts by e-mail (``app.state.account_mail``)."""

    notify: AccountNotify
    links: MailLinks


router = APIRouter(tags=["accounts"], dependencies=[Depends(same_origin)])


async def _app(conn: HTTPConnection) -> AccountMailApp:
    found: AccountMailApp = conn.app.state.account_mail
    return found


Mail = Annotated[AccountMailApp, Depends(_app)]


def _view(web: AppState, m: AccountMailApp, account_id: int, setting: Setting,
          ) -> dict[str, Any]:
    return {"email": setting.email, "notify_email": setting.notify_email,
            "webhook": setting.webhook, "email_mode": setting.email_mode,
            "webhook_mode": setting.webhook_mode, "lang": setting.lang,
            "seats": m.notify.seats_using(account_id),
            "email_available": web.notifier.email_available,
            "digest_hours": web.notifier.settings.digest_seconds / 3600.0}


@router.get("/api/account/notifications", response_model=s.AccountNotifyView)
def get_notifications(request: Request, web: Web, a: Accounts, m: Mail) -> dict[str, Any]:
    """The account's address and notification setting (401 when not signed in)."""
    account, _ = signed_in(request, a)
    return _view(web, m, account.id, m.notify.setting(account.id))


@router.put("/api/account/notifications", response_model=s.AccountNotifyView)
async def put_notifications(body: s.AccountNotifyRequest, request: Request, web: Web,
                            a: Accounts, m: Mail, locale: Locale) -> dict[str, Any]:
    """Set the account's address and notification setting (a field left out stays;
    null removes), used for every seat it claimed unless that seat's game has its own
    setting; checked as a seat's (a webhook on a private address refused, an address
    that cannot be read refused, e-mail only on a server with SMTP); its messages in
    ``lang``, else the request's language."""
    account, _ = await run_in_threadpool(signed_in, request, a)
    fields = body.model_dump(exclude_unset=True)
    changes: dict[str, Any] = {k: v for k, v in fields.items() if k != "lang"}
    changes.update(await checked_addresses(web, fields))  # as a seat's (empty: removed)
    lang = body.lang or locale

    def save() -> dict[str, Any]:
        return _view(web, m, account.id, m.notify.save(account.id, changes, lang))
    return await run_in_threadpool(save)


def _ask(kind: str, body: s.MailRequest, request: Request, web: AppState,
         m: AccountMailApp, locale: str) -> Response:
    if not web.notifier.email_available:
        raise Conflict.said(mailwords.NO_SMTP)
    address = request.client.host if request.client is not None else None
    try:
        if m.links.ask(kind, body.name, address, locale):
            web.notifier.wake("", 0)
    except TooManyLinks as e:
        raise HTTPException(429, e.words.render(locale),
                            headers={"Retry-After": str(e.retry_after)}) from None
    words = say(mailwords.MAILED, locale, minutes=maillinks.minutes(kind))
    return JSONResponse({"detail": words}, status_code=202,
                        headers={"Cache-Control": "no-store"})


@router.post("/api/account/email-link", status_code=202, response_model=s.Mailed,
             responses={409: {"model": Problem}, 429: {"model": Problem}})
def email_link(body: s.MailRequest, request: Request, web: Web, m: Mail,
               locale: Locale) -> Response:
    """Mail a one-time sign-in link (valid 15 minutes) to the address of the account
    ``name``: 202 with the same words whether or not the name is an account's or has
    an address; 429 (``Retry-After``) past 3 a name or 10 an address in 15 minutes;
    409 on a server without SMTP."""
    return _ask("signin", body, request, web, m, locale)


@router.post("/api/account/email-reset", status_code=202, response_model=s.Mailed,
             responses={409: {"model": Problem}, 429: {"model": Problem}})
def email_reset(body: s.MailRequest, request: Request, web: Web, m: Mail,
                locale: Locale) -> Response:
    """Mail a password-reset link (valid one hour; ``POST /api/account/reset`` takes
    it) to the address of the account ``name``: answered and limited as
    ``email-link``."""
    return _ask("reset", body, request, web, m, locale)


@router.post("/api/account/link-signin", response_model=AccountView,
             responses={400: {"model": Problem}})
def link_sign_in(body: s.LinkSignIn, request: Request, web: Web, m: Mail) -> Response:
    """Sign in with a mailed sign-in link's token (the session cookie, as a sign-in
    with the password): 400 for a link unknown, used or expired; 403 for a disabled
    account."""
    account, token = m.links.sign_in(body.token)
    return _signed_in_answer(request, web, account, token, body.bearer, 200)
