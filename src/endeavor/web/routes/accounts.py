"""The accounts' endpoints (``/api/account...``, docs/web.md "Accounts"): sign up, sign
in, sign out here or everywhere, who is signed in, claiming a seat, "Your games", the
account's data and its deletion, and a password reset with an admin's link.

The session is the ``endeavor_session`` cookie (``HttpOnly``, ``SameSite=Lax``,
``Secure`` when the request came over HTTPS, Uvicorn believing a trusted proxy's
``X-Forwarded-Proto``, or when the public URL is https), or the same token as
``Authorization: Bearer`` (an API client's). A request that changes something and says
it comes from another origin (``Origin``, else ``Referer``) is refused (403), so a page
of another site, or of another port of this host, cannot act with the cookie."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from .. import accounts as acc
from ..accounts import notifying
from ..schemas import Problem
from ..schemas import accounts as s
from ..store import Forbidden, Unauthorized
from ..view import accountwords as words
from .lobby import lobby_game
from .state import AppState, Locale, Web

#: the session cookie's name
COOKIE: Final = "endeavor_session"
_SAFE: Final = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(eq=False)
class AccountsApp:
    """The accounts of an app (``app.state.accounts``)."""

    accounts: acc.Accounts
    seats: acc.SeatClaims


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


async def same_origin(request: Request) -> None:
    """:func:`refuse_other_origin` as a dependency of the accounts' endpoints."""
    refuse_other_origin(request)


def refuse_other_origin(request: Request) -> None:
    """403 for a request that changes something and comes from another origin (by its
    ``Origin`` header, else its ``Referer``): the app's own origin is the request's
    (its scheme and ``Host``) or the public URL's."""
    if request.method in _SAFE:
        return
    claimed = request.headers.get("origin") or request.headers.get("referer")
    if not claimed:
        return  # not a browser's cross-site form or fetch (they send Origin)
    web: AppState = request.app.state.web
    own = {f"{request.url.scheme}://{request.headers.get('host', '')}".lower()}
    if web.links.public_url:
        own.add(_origin(web.links.public_url) or "")
    got = _origin(claimed) if claimed != "null" else "null"
    if got not in own:
        raise Forbidden.said(words.OTHER_ORIGIN, origin=got)


router = APIRouter(tags=["accounts"], dependencies=[Depends(same_origin)])


async def _app(conn: HTTPConnection) -> AccountsApp:
    found: AccountsApp = conn.app.state.accounts
    return found


Accounts = Annotated[AccountsApp, Depends(_app)]


def session_token(request: Request) -> str | None:
    """The request's session token: its ``Authorization: Bearer``, else its cookie."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(COOKIE) or None


def signed_in(request: Request, a: AccountsApp) -> tuple[acc.Account, str]:
    """The request's account and session token: 401 when not signed in."""
    token = session_token(request)
    account = a.accounts.session(token)
    if account is None or token is None:
        raise Unauthorized.said(words.NOT_SIGNED_IN)
    return account, token


def _secure(request: Request, web: AppState) -> bool:
    return (request.url.scheme == "https"
            or (web.links.public_url or "").startswith("https://"))


def _cookie_path(web: AppState) -> str:
    return web.links.prefix or "/"


def _signed_in_answer(request: Request, web: AppState, account: acc.Account, token: str,
                      bearer: bool, status: int) -> Response:
    body = s.AccountView(name=account.name, created=account.created,
                         token=token if bearer else None).model_dump(mode="json",
                                                                     exclude_none=True)
    response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
    response.set_cookie(COOKIE, token, max_age=acc.SESSION_DAYS * 86400,
                        path=_cookie_path(web), secure=_secure(request, web),
                        httponly=True, samesite="lax")
    return response


def _signed_out(request: Request, web: AppState) -> Response:
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path=_cookie_path(web), secure=_secure(request, web),
                           httponly=True, samesite="lax")
    return response


@router.post("/api/account/signup", response_model=s.AccountView, status_code=201)
def sign_up(body: s.SignUp, request: Request, web: Web, a: Accounts) -> Response:
    """A new account (a display name, unique case aside, and a password of at least 8
    characters), signed in at once: 400 for a bad name or password, 409 for a name
    taken."""
    account, token = a.accounts.sign_up(body.name, body.password)
    return _signed_in_answer(request, web, account, token, body.bearer, 201)


@router.post("/api/account/signin", response_model=s.AccountView,
             responses={429: {"model": Problem}})
def sign_in(body: s.SignUp, request: Request, web: Web, a: Accounts, locale: Locale,
            ) -> Response:
    """Sign in: 401 ``wrong name or password`` whether the name is unknown or the
    password wrong; 429 (``Retry-After``) after 5 failures of the name, or from the
    address, in 15 minutes; 403 for a disabled account."""
    address = request.client.host if request.client is not None else None
    try:
        account, token = a.accounts.sign_in(body.name, body.password, address)
    except acc.TooManyAttempts as e:
        raise HTTPException(429, e.words.render(locale),
                            headers={"Retry-After": str(e.retry_after)}) from None
    return _signed_in_answer(request, web, account, token, body.bearer, 200)


@router.post("/api/account/signout", status_code=204)
def sign_out(request: Request, web: Web, a: Accounts) -> Response:
    """End this session (the cookie is cleared); nothing to end is no error."""
    token = session_token(request)
    if token:
        a.accounts.sign_out(token)
    return _signed_out(request, web)


@router.post("/api/account/signout-everywhere", status_code=204)
def sign_out_everywhere(request: Request, web: Web, a: Accounts) -> Response:
    """End every session of the account, on every device (401 when not signed in)."""
    account, _ = signed_in(request, a)
    a.accounts.sign_out_everywhere(account.id)
    return _signed_out(request, web)


@router.get("/api/account", response_model=s.AccountView, response_model_exclude_none=True)
def who_am_i(request: Request, a: Accounts) -> dict[str, Any]:
    """Who is signed in (401: nobody)."""
    account, _ = signed_in(request, a)
    return {"name": account.name, "created": account.created}


@router.post("/api/account/claim", response_model=s.Claimed)
def claim(body: s.ClaimRequest, request: Request, web: Web, a: Accounts) -> dict[str, Any]:
    """The seat of a link (its game and token) becomes the account's and takes its
    name: 403 for a token of no seat, 400 for a hot-seat link, 409 for a seat another
    account holds or a name another seat of the game has."""
    account, _ = signed_in(request, a)
    snap, seat = a.seats.claim(account, body.game_id, body.token)
    notifying.refresh(web.store, body.game_id, seat)  # the account's setting, unless its own
    return {"game_id": body.game_id, "seat": seat, "name": snap.meta.seats[seat].name,
            "link": web.links.seat(body.game_id, body.token)}


@router.get("/api/account/games", response_model=s.AccountGames)
def games(request: Request, web: Web, a: Accounts) -> dict[str, Any]:
    """"Your games" of the account, on any device: each claimed seat's game with
    whose move it is and the seat's link, the latest activity first."""
    account, _ = signed_in(request, a)
    out = []
    for h in a.seats.games(account.id):
        row, seat = h.mine.row, h.claim.seat
        to_move = row.current_player if row is not None else None
        mover = row.seats[to_move] if row is not None and to_move is not None else None
        out.append({
            "id": h.claim.game_id, "seat": seat, "valid": h.valid,
            "benched": seat in h.mine.benched,
            "your_move": (seat in h.mine.you and to_move == seat
                          and mover is not None and mover.played_by is None),
            "to_move": to_move, "to_move_name": mover.name if mover is not None else None,
            "link": web.links.seat(h.claim.game_id, h.claim.token) if h.valid else None,
            "last_activity": h.last_activity,
            "game": lobby_game(web, row, more=True) if row is not None else None})
    return {"games": out, "your_move": sum(1 for g in out if g["your_move"])}


@router.get("/api/account/export", response_model=s.AccountExport)
def export(request: Request, a: Accounts) -> Response:
    """The account's own data as JSON (a file to keep): the account, its sessions and
    its seats with their games; no password hash, no token."""
    account, _ = signed_in(request, a)
    return JSONResponse(a.seats.export(account), headers={
        "Content-Disposition": 'attachment; filename="endeavor-account.json"',
        "Cache-Control": "no-store"})


@router.delete("/api/account", status_code=204)
def delete_account(body: s.Password, request: Request, web: Web, a: Accounts) -> Response:
    """Delete the account (its password asked again: 401 when wrong): its seats in
    finished games keep the name "deleted player"; in running games they get that name
    and the medium bot plays them (the host may put another bot there, hand the seat to
    a person or end the game). Every session ends."""
    account, _ = signed_in(request, a)
    for game_id, snap in a.seats.delete(account, body.password):
        web.runner.after_commit(game_id, snap)
    return _signed_out(request, web)


@router.post("/api/account/reset", status_code=204)
def reset_password(body: s.ResetRequest, request: Request, web: Web, a: Accounts,
                   ) -> Response:
    """Set a new password with the token of a reset link (``endeavor admin
    reset-link``; valid one hour, once): 400 for a token unknown, used or expired, or
    a bad password. Every session of the account ends."""
    a.accounts.reset_password(body.token, body.password)
    return _signed_out(request, web)
