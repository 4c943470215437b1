"""A game's endpoints: its view, playing (a move, an undo, taking a seat back from the
clock's bot, a seat's name), its record and its replay's positions."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query
from fastapi import Path as PathParam
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.types import Scope

from ...messages import locale_of
from .. import schemas
from ..fastroute import FastRoute
from .encode import view_response
from .state import (
    GAME_ID_MAX,
    GameId,
    Locale,
    Since,
    Token,
    Web,
    one_seat,
    seats_for,
    seats_of,
    secret_of,
    token_of,
)

router = APIRouter()


@router.get("/api/games/{game_id}", response_model=schemas.GameView, tags=["games"])
def get_game(game_id: GameId, token: Token, web: Web, locale: Locale, since: Since = 0
             ) -> Response:
    """The game as the token's seat(s) see it (no token: a spectator)."""
    secret = secret_of(token)
    snap = web.store.snapshot(game_id)
    you = seats_for(snap, secret, required=False)
    web.seen.saw(game_id, you)  # the host panel's "opened 5 min ago"
    return web.answer(game_id, snap, you, since,
                      snap.meta.benched_of(secret) if secret else (), locale)


@router.post("/api/games/{game_id}/actions", response_model=schemas.GameView,
             tags=["play"])
def play(game_id: GameId, body: schemas.ActionRequest, token: Token, web: Web,
         locale: Locale, since: Since = 0) -> Response:
    """Play an action for the token's seat, at the ``seq`` the client saw. The bots
    that are then to move and play quickly have moved when this returns. The view
    is the game right after the last of these commits (its seq may be past
    ``seq + 1``: the bots' moves)."""
    secret = token_of(token)
    snap = web.store.append(game_id, None, body.action, body.seq, token=secret)
    you = snap.meta.seats_of(secret)
    return web.answer(game_id, web.runner.after_commit(game_id, snap), you, since,
                      locale=locale)


@router.post("/api/games/{game_id}/undo", response_model=schemas.GameView, tags=["play"])
def undo(game_id: GameId, token: Token, web: Web, locale: Locale,
         body: schemas.UndoRequest | None = None, since: Since = 0) -> Response:
    """Take back the token's last decision, if no other seat has acted since."""
    secret = token_of(token)
    snap = web.store.undo(game_id, None, body.seq if body is not None else None,
                          token=secret)
    you = snap.meta.seats_of(secret)
    return web.answer(game_id, web.runner.after_commit(game_id, snap), you, since,
                      locale=locale)


@router.post("/api/games/{game_id}/reclaim", response_model=schemas.GameView,
             tags=["play"])
def reclaim(game_id: GameId, token: Token, web: Web, locale: Locale,
            body: schemas.SeatRequest | None = None, since: Since = 0) -> Response:
    """Take your seat back from the bot that took it over when your time ran out
    (when the game's clock allows it)."""
    secret = token_of(token)
    snap = web.store.snapshot(game_id)
    you = seats_of(snap, token, required=True)
    seat = one_seat(you, body.seat if body is not None else None)
    snap = web.store.reclaim(game_id, snap.meta.seats_of(secret), seat)
    return web.answer(game_id, snap, snap.meta.seats_of(secret), since, locale=locale)


@router.put("/api/games/{game_id}/name", response_model=schemas.GameView, tags=["play"])
def name_seat(game_id: GameId, body: schemas.NameRequest, token: Token, web: Web,
              locale: Locale, since: Since = 0) -> Response:
    """Your seat's name (1-24 characters, no control characters, unique in the
    game): shown to everyone at once, in messages too."""
    secret = token_of(token)
    snap = web.store.snapshot(game_id)
    seat = one_seat(seats_of(snap, token, required=True), body.seat)
    snap = web.store.rename(game_id, seat, body.name, token=secret)
    return web.answer(game_id, snap, snap.meta.seats_of(secret), since, locale=locale)


@router.get("/api/games/{game_id}/record", tags=["games"])
def record(game_id: GameId, web: Web, with_chat: Annotated[
        bool, Query(alias="chat", description="with the game's chat messages")] = False,
           ) -> dict[str, Any]:
    """The engine's record of the game: ``replay`` rebuilds the same position;
    ``?chat=1``: with the chat's messages (``chat``: those not deleted)."""
    result: dict[str, Any] = web.store.snapshot(game_id).state.record()
    if with_chat:
        result["chat"] = web.chat.export(game_id)
    return result


@router.get("/api/games/{game_id}/replay/{n}", response_model=schemas.GameView,
            tags=["games"])
def replay_position(game_id: GameId, n: Annotated[int, PathParam(ge=0)], web: Web,
                    locale: Locale) -> Response:
    """The spectator's view of the position after the first ``n`` effective actions
    (its ``events``: those of these actions)."""
    return view_response(web.store.position_after(game_id, n), frozenset(), locale=locale)


# ------------------------------------------------------------------ the hot path
def _web_of(scope: Scope) -> dict[str, Any]:
    """The fast routes' other arguments: the app's state and the request's locale (its
    ``Accept-Language``; a ``?lang=`` query goes to the FastAPI route)."""
    accept = None
    for name, value in scope["headers"]:
        if name == b"accept-language":
            accept = value.decode("latin-1")
            break
    return {"web": scope["app"].state.web, "locale": locale_of(accept)}


def install_fast_routes(app: FastAPI) -> None:
    """The hot path (a move's POST, the views' GET) first in ``app``'s routes: a fast
    route in front of each endpoint above reads the plain requests itself and calls the
    endpoint (the FastAPI route reads the others: see fastroute.py)."""
    id_limit = {"game_id": GAME_ID_MAX}
    app.router.routes[:0] = [
        FastRoute(_route(play), body=schemas.ActionRequest, context=_web_of,
                  max_lengths=id_limit),
        FastRoute(_route(get_game), context=_web_of, max_lengths=id_limit)]


def _route(endpoint: Any) -> APIRoute:
    return next(r for r in router.routes if isinstance(r, APIRoute) and r.endpoint is endpoint)
