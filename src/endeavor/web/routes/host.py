"""The host's panel (``/api/games/{game_id}/host...``): every seat's link, who plays
it and its name, the clock, ending an abandoned game."""

from __future__ import annotations

from fastapi import APIRouter

from .. import schemas
from ..store import BadRequest
from ..view import refusals
from .encode import host_panel_view
from .state import GameId, SeatNo, Token, Web, host_token_of

router = APIRouter(tags=["host"])


@router.get("/api/games/{game_id}/host", response_model=schemas.HostPanel)
def host_get(game_id: GameId, token: Token, web: Web) -> schemas.HostPanel:
    """The host's panel: every seat with its link, who plays it, the clock."""
    host = host_token_of(token)
    snap, seats = web.store.host_panel(game_id, host)
    return host_panel_view(snap, seats, web.links, host, web.activity(game_id))


@router.post("/api/games/{game_id}/host/seats/{seat}/reissue",
             response_model=schemas.HostPanel)
def host_reissue(game_id: GameId, seat: SeatNo, token: Token, web: Web,
                 ) -> schemas.HostPanel:
    """A new link for the seat: the old one stops working at once."""
    host = host_token_of(token)
    snap, _ = web.store.reissue(game_id, host, seat)
    return web.panel(snap, host)


@router.post("/api/games/{game_id}/host/seats/{seat}/bot", response_model=schemas.HostPanel)
def host_bot(game_id: GameId, seat: SeatNo, body: schemas.BotRequest, token: Token,
             web: Web) -> schemas.HostPanel:
    """A bot of the given level plays the seat from now on (its link stops
    working; hand the seat back to a person later)."""
    host = host_token_of(token)
    snap = web.store.put_bot(game_id, host, seat, body.bot)
    web.runner.after_commit(game_id, snap)
    return web.panel(snap, host)


@router.post("/api/games/{game_id}/host/seats/{seat}/human",
             response_model=schemas.HostPanel)
def host_human(game_id: GameId, seat: SeatNo, token: Token, web: Web) -> schemas.HostPanel:
    """A person plays the seat again, with a new link (in the answer's seats)."""
    host = host_token_of(token)
    snap, _ = web.store.hand_back(game_id, host, seat)
    return web.panel(snap, host)


@router.put("/api/games/{game_id}/host/seats/{seat}/name", response_model=schemas.HostPanel)
def host_name(game_id: GameId, seat: SeatNo, body: schemas.NameRequest, token: Token,
              web: Web) -> schemas.HostPanel:
    """Give the seat a name (1-24 characters, unique in the game); shown to
    everyone at once."""
    host = host_token_of(token)
    snap = web.store.rename(game_id, seat, body.name, host_token=host)
    return web.panel(snap, host)


@router.post("/api/games/{game_id}/host/clock", response_model=schemas.HostPanel)
def host_clock(game_id: GameId, body: schemas.ClockRequest, token: Token, web: Web,
               ) -> schemas.HostPanel:
    """Extend a seat's time (or every seat's: no ``seat``), or stop
    (``paused: true``) and restart the clocks."""
    host = host_token_of(token)
    if (body.extend is None) == (body.paused is None):
        raise BadRequest.said(refusals.EXTEND_OR_PAUSE)
    if body.extend is not None:
        snap = web.store.extend(game_id, host, body.extend, body.seat)
    else:
        snap = web.store.pause(game_id, host, bool(body.paused))
    return web.panel(snap, host)


@router.post("/api/games/{game_id}/host/end", response_model=schemas.HostPanel)
def host_end(game_id: GameId, token: Token, web: Web) -> schemas.HostPanel:
    """End an abandoned game: the score pad is counted as the game stands."""
    host = host_token_of(token)
    snap = web.store.end(game_id, host)
    return web.panel(snap, host)
