"""Where games begin and are found: a new game (``POST /api/games``, or from a record),
the lobby (``GET /api/games``) and "Your games" (``POST /api/games/mine``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request

from .. import rematch, schemas
from ..ratings import games as rated_games
from .encode import created_view
from .state import AppState, Locale, Web

router = APIRouter()


def _clock(spec: schemas.ClockSpec | None) -> dict[str, Any] | None:
    return spec.model_dump() if spec is not None else None


@router.post("/api/games", status_code=201, response_model=schemas.Created, tags=["games"])
def create_game(body: schemas.CreateGame, web: Web, locale: Locale, request: Request,
                ) -> schemas.Created:
    """A new game: one seat per player (``human``: its own link; ``hotseat``: one
    link shared by the hot-seat seats; ``bot:<name>``: played by the server), an
    optional clock, and the host's link for the creator; a game without a title gets
    one in the request's language. ``rated``: a rated game, created by a signed-in
    account (its session cookie or bearer token)."""
    then = None
    if body.rated:
        from .accounts import refuse_other_origin, session_token  # (it imports this one)

        refuse_other_origin(request)  # the account's cookie: only from this site's pages
        account = request.app.state.accounts.accounts.session(session_token(request))
        rated_games.check(account.id if account is not None else None, body.seats)
        assert account is not None  # (check refused a request without one)
        then = rated_games.marker(account.id, body.config)
    created = web.store.create(body.config, body.seats, body.title, _clock(body.clock),
                               names=body.names, locale=locale, then=then)
    web.runner.after_commit(created.id)
    return created_view(created, web.links)


@router.post("/api/games/import", status_code=201, response_model=schemas.Created,
             tags=["games"])
def import_game(body: schemas.ImportGame, web: Web, locale: Locale) -> schemas.Created:
    """A new game continuing a record (as ``GET /api/games/{id}/record`` returns)."""
    created = web.store.import_record(body.record, body.seats, body.title,
                                      _clock(body.clock), names=body.names, locale=locale)
    web.runner.after_commit(created.id)
    return created_view(created, web.links)


def lobby_game(web: AppState, r: Any, more: bool = False) -> dict[str, Any]:
    """A lobby row (``more``: with who plays each seat now and how it ended, as
    "Your games" shows it)."""
    out = {"id": r.id, "title": r.title, "created": r.created,
           "ruleset": r.config.get("ruleset", ""), "players": len(r.seats),
           "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                      "named": s.named, **({"played_by": s.played_by} if more else {})}
                     for s in r.seats],
           "seq": r.seq, "status": r.status, "current_player": r.current_player,
           "spectate_url": web.links.spectate(r.id)}
    if more:
        out["ended"] = r.ended
    result = rematch.result_of(web.store, r)
    if result is not None:
        out["result"] = result
    return out


@router.get("/api/games", response_model=schemas.Lobby, tags=["games"],
            response_model_exclude_unset=True)
def lobby(web: Web, status: Literal["open", "running", "over"] | None = None,
          limit: Annotated[int, Query(ge=1, le=500)] = 50) -> dict[str, Any]:
    """The lobby, newest first: ``open`` (nothing played yet), ``running``, ``over``."""
    return {"games": [lobby_game(web, r) for r in web.store.lobby(status, limit)]}


@router.post("/api/games/mine", response_model=schemas.MyGames, tags=["games"])
def my_games(body: schemas.MyGamesRequest, web: Web) -> dict[str, Any]:
    """"Your games": the games of the seat tokens a browser keeps, each with the
    seats its token plays now (``valid`` false: the link was re-issued, or never was
    a seat's; ``found`` false: no such game) and whether one of them is to move;
    the games where it is your move first, then the newest."""
    rows = web.store.mine([(g.id, g.token) for g in body.games])
    if body.status is not None:  # running: not over (open or running); over
        rows = [m for m in rows if m.row is None
                or (m.row.status == "over") == (body.status == "over")]
    out = []
    for i, m in enumerate(rows):
        item: dict[str, Any] = {"id": m.id, "found": m.found,
                                "valid": bool(m.you or m.benched),
                                "you": sorted(m.you), "your_move": False, "game": None}
        if m.benched:  # the host gave the seat to a bot: the link watches it
            item["benched"] = sorted(m.benched)
        if m.row is not None:
            item["game"] = lobby_game(web, m.row, more=True)
            item["your_move"] = (m.row.current_player is not None
                                 and m.row.current_player in m.you
                                 and m.row.seats[m.row.current_player].played_by is None)
        out.append((not item["your_move"], -(m.row.created.timestamp() if m.row else 0),
                    i, item))
    out.sort(key=lambda t: t[:3])
    return {"games": [t[3] for t in out],
            "your_move": sum(1 for t in out if t[3]["your_move"])}
