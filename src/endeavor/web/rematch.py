"""Rematches and results: **Play again** at the end of a game, and what the lobby says of
a finished game.

A rematch is a new game with the old one's ruleset, board, Exploits and options (a new
seed), its clock settings and its title, and the same people and bots: each old seat
moves one seat on (``rotate``) or stays where it was (``keep``), as the proposer (a
seat's holder or the host of the finished game) chooses. The proposer becomes the
rematch's host. Everything is written in the new game's own transaction: the new game
names the old one (``games.rematch_of``), the old one names the new one
(``games.rematch_id``, set only where it is still empty, so of two proposals racing
exactly one makes a game and the other is told of it), each old seat row keeps the token
of its holder's new seat (``seats.rematch_token``: hot-seat seats share one, bots have
none), chosen names carry over (``seats.name`` and ``named``) and so do the seats'
notification settings (``notify`` rows, with the new seat's token for the link a message
carries).

Each old seat's holder then exchanges the old seat's token for the new one
(:func:`join`), so nobody has to send anyone a new link.

Results: the final score pad of a finished game as the lobby shows it (each seat's name,
total and rank from the engine's :func:`endeavor.final_scores`, the winners), kept per
``(game, seq)`` in a small cache of this process, since a finished game does not change.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from fastapi import Depends, FastAPI
from fastapi import Path as PathParam
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import Connection, and_, insert, select, update

from endeavor import final_scores

from . import db, schemas
from .links import Links
from .store import (
    BadRequest,
    Conflict,
    Created,
    Forbidden,
    LobbyRow,
    Meta,
    NotFound,
    Store,
    Unauthorized,
    utcnow,
)
from .view import refusals

#: how the seats of a rematch are given: each person (and bot) one seat on, or the same
ORDERS: Final = ("rotate", "keep")
#: what a rematch's title ends with
SUFFIX: Final = " (rematch)"
#: finished games whose results this process keeps
RESULTS_CACHE: Final = 4096
GameId = Annotated[str, PathParam(min_length=1, max_length=32)]
#: the request's bearer token, as the app's other endpoints read it
Token = Annotated[HTTPAuthorizationCredentials | None,
                  Depends(HTTPBearer(auto_error=False,
                                     description="a seat's token (from its link)"))]


@dataclass(frozen=True)
class Proposed:
    """A rematch just made: the new game (its host token is the proposer's), the game it
    is the rematch of, and the proposer's seats in it with their token (none: the
    proposer held no seat, only the host's link)."""

    created: Created
    of: str
    you: tuple[int, ...]
    token: str | None


@dataclass(frozen=True)
class Joined:
    """An old seat's holder's seat(s) in the rematch, and its token."""

    id: str
    of: str
    token: str
    you: tuple[int, ...]


def seat_map(players: int, order: str) -> dict[int, int]:
    """Old seat -> new seat: ``rotate``: each one seat on (the last to the first);
    ``keep``: the same."""
    if order not in ORDERS:
        raise BadRequest.said(refusals.REMATCH_ORDER, order=repr(order))
    return {p: (p + 1) % players if order == "rotate" else p for p in range(players)}


def _spec(kind: str, bot: str | None) -> str:
    return f"bot:{bot}" if kind == "bot" else kind


def _title(title: str) -> str:
    base = title[:-len(SUFFIX)] if title.endswith(SUFFIX) else title
    return base[:200 - len(SUFFIX)] + SUFFIX


def _links_of(store: Store, game_id: str) -> tuple[str | None, str | None]:
    """``(rematch_of, rematch_id)`` of a game (:class:`NotFound` if there is none)."""
    g = db.games
    row = store.read(lambda conn: conn.execute(
        select(g.c.rematch_of, g.c.rematch_id).where(g.c.id == game_id)).first())
    if row is None:
        raise NotFound.said(refusals.NO_GAME, game=repr(game_id))
    return row.rematch_of, row.rematch_id


def _exists(rematch_id: str) -> Conflict:
    return Conflict.said(refusals.REMATCH_EXISTS, game=rematch_id)


def propose(store: Store, game_id: str, token: str | None, order: str) -> Proposed:
    """Play again: a rematch of the finished game ``game_id``, proposed by the holder of
    ``token`` (a seat's or the host's), its seats given by ``order`` (``rotate`` or
    ``keep``). 401 without a token, 403 for a token of neither, 409 while the game is not
    over or when it has a rematch already (naming it)."""
    if not token:
        raise Unauthorized.said(refusals.REMATCH_TOKEN)
    snap = store.snapshot(game_id)
    meta = snap.meta
    mine = _held(meta, token)
    if not mine and not meta.is_host(token):
        raise Forbidden.said(refusals.REMATCH_NOT_SEAT)
    where = seat_map(meta.players, order)
    if not snap.over:
        raise Conflict.said(refusals.REMATCH_NOT_OVER)
    _, existing = _links_of(store, game_id)
    if existing is not None:
        raise _exists(existing)
    specs = [""] * meta.players
    for s in meta.seats:
        specs[where[s.seat]] = _spec(s.kind, s.bot)
    config = dict(meta.config)
    old_seed = config.get("seed")
    seed = secrets.randbelow(1 << 31)
    while seed == old_seed:
        seed = secrets.randbelow(1 << 31)
    config["seed"] = seed
    clock = None
    if snap.clock is not None:
        clock = {k: v for k, v in snap.clock.config.to_dict().items() if k != "paused"}

    def link(conn: Connection, created: Created) -> None:
        g, s, n = db.games, db.seats, db.notify
        taken = conn.execute(update(g).where(and_(g.c.id == game_id,
                                                  g.c.rematch_id.is_(None)))
                             .values(rematch_id=created.id))
        if taken.rowcount != 1:
            other = conn.execute(select(g.c.rematch_id).where(g.c.id == game_id)).scalar()
            raise _exists(str(other))
        conn.execute(update(g).where(g.c.id == created.id).values(rematch_of=game_id))
        new_token = {c.seat: c.token for c in created.seats}
        old_rows = conn.execute(select(s.c.seat, s.c.name, s.c.named)
                                .where(s.c.game_id == game_id)).all()
        for r in old_rows:
            new = where[int(r.seat)]
            conn.execute(update(s).where(and_(s.c.game_id == game_id, s.c.seat == r.seat))
                         .values(rematch_token=new_token.get(new)))
            if r.named:
                conn.execute(update(s).where(and_(s.c.game_id == created.id,
                                                  s.c.seat == new))
                             .values(name=r.name, named=True))
        now = utcnow()
        own = and_(n.c.game_id == game_id, n.c.account_id.is_(None))  # not an account's
        for r in conn.execute(select(n).where(own)).all():
            new = where[int(r.seat)]
            if new_token.get(new) is None:
                continue
            conn.execute(insert(n).values(
                game_id=created.id, seat=new, channel=r.channel, target=r.target,
                link_token=new_token[new], created=now, mode=r.mode))

    created = store.create(config, specs, _title(meta.title), clock, then=link)
    you = tuple(sorted(where[p] for p in mine))
    token_new = next((c.token for c in created.seats if c.seat in you and c.token), None)
    return Proposed(created, game_id, you, token_new)


def _held(meta: Meta, token: str) -> frozenset[int]:
    """The seats ``token`` is the link of, those the host gave to a bot included (their
    player is still one of the people at the table: the rematch is theirs too)."""
    return meta.seats_of(token) | frozenset(s.seat for s in meta.benched_of(token))


def join(store: Store, game_id: str, token: str | None) -> Joined:
    """Join the rematch: the new seat of the old seat whose token is ``token``. 401
    without a token, 403 for a token of no seat of the game, 404 when there is no
    rematch (yet, or any more), 409 when the seat has none in it or its link there was
    re-issued by the rematch's host."""
    if not token:
        raise Unauthorized.said(refusals.SEAT_TOKEN)
    snap = store.snapshot(game_id)
    mine = _held(snap.meta, token)
    if not mine:
        raise Forbidden.said(refusals.NOT_A_SEAT)
    _, rematch_id = _links_of(store, game_id)
    if rematch_id is None:
        raise NotFound.said(refusals.REMATCH_NONE)
    s = db.seats
    rows = store.read(lambda conn: conn.execute(
        select(s.c.seat, s.c.rematch_token).where(and_(
            s.c.game_id == game_id, s.c.seat.in_(sorted(mine))))).all())
    new_token = next((r.rematch_token for r in rows if r.rematch_token), None)
    if new_token is None:
        raise Conflict.said(refusals.REMATCH_NO_SEAT)
    try:
        new = store.snapshot(rematch_id)
    except NotFound:
        raise NotFound.said(refusals.REMATCH_GONE, game=rematch_id) from None
    you = new.meta.seats_of(new_token)
    if not you:
        raise Conflict.said(refusals.REMATCH_RELINKED)
    return Joined(rematch_id, game_id, new_token, tuple(sorted(you)))


# --------------------------------------------------------------------------- results
_results: OrderedDict[tuple[str, int], list[tuple[int, int, int]]] = OrderedDict()
_results_lock = threading.Lock()


def _scores(store: Store, row: LobbyRow) -> list[tuple[int, int, int]] | None:
    """``(seat, total, rank)`` of each seat of a finished game (cached per seq)."""
    key = (row.id, row.seq)
    with _results_lock:
        got = _results.get(key)
        if got is not None:
            _results.move_to_end(key)
            return got
    try:
        got = store.peek(row.id, lambda snap: [(s.player, s.total, s.rank)
                                               for s in final_scores(snap.state)])
    except NotFound:
        return None
    with _results_lock:
        _results[key] = got
        while len(_results) > RESULTS_CACHE:
            _results.popitem(last=False)
    return got


def result_of(store: Store, row: LobbyRow) -> dict[str, Any] | None:
    """A finished game's result as the lobby shows it (None for one not over): each seat
    with its name, total and rank, best first, and the winners' seats."""
    if row.status != "over":
        return None
    scores = _scores(store, row)
    if scores is None:
        return None
    names = {s.seat: s.name for s in row.seats}
    ordered = sorted(scores, key=lambda t: (t[2], t[0]))
    return {"scores": [{"seat": p, "name": names.get(p, f"P{p}"), "total": total,
                        "rank": rank} for p, total, rank in ordered],
            "winners": [p for p, _, rank in ordered if rank == 1]}


# --------------------------------------------------------------------------- HTTP
def _created_view(made: Proposed, links: Links) -> schemas.RematchCreated:
    c = made.created
    return schemas.RematchCreated(
        id=c.id, of=made.of, spectate_url=links.spectate(c.id), host_token=c.host_token,
        host_url=links.host(c.id, c.host_token) if c.host_token else None,
        seats=[schemas.CreatedSeat(
            seat=s.seat, kind=s.kind,  # type: ignore[arg-type]
            bot=s.bot, token=s.token,
            url=links.seat(c.id, s.token) if s.token else None) for s in c.seats],
        you=list(made.you), token=made.token,
        url=links.seat(c.id, made.token) if made.token else None)


def install(app: FastAPI, store: Store, links: Links,
            after_commit: Callable[[str], Any]) -> None:
    """The rematch endpoints of docs/web.md ("Rematch and results") on ``app``;
    ``after_commit(game_id)``: the bot runner's look at a new game (a bot may have the
    first move)."""

    def secret(creds: HTTPAuthorizationCredentials | None) -> str | None:
        return creds.credentials if creds is not None else None

    @app.post("/api/games/{game_id}/rematch", status_code=201,
              response_model=schemas.RematchCreated, tags=["rematch"])
    def propose_rematch(game_id: GameId, token: Token,
                        body: schemas.RematchRequest | None = None,
                        ) -> schemas.RematchCreated:
        """Play again: a new game with the same ruleset, options, clock, people and
        bots (a new seed), the seats rotated or kept; you become its host. Each old
        seat's holder joins it with ``POST .../rematch/join``."""
        order: Literal["rotate", "keep"] = body.seats if body is not None else "rotate"
        made = propose(store, game_id, secret(token), order)
        after_commit(made.created.id)
        return _created_view(made, links)

    @app.get("/api/games/{game_id}/rematch", response_model=schemas.RematchView,
             tags=["rematch"])
    def get_rematch(game_id: GameId) -> schemas.RematchView:
        """Whether the game has a rematch (and is one): anyone may ask."""
        of, rid = _links_of(store, game_id)
        return schemas.RematchView(
            id=game_id, rematch_of=of, rematch_id=rid,
            rematch_spectate_url=links.spectate(rid) if rid else None)

    @app.post("/api/games/{game_id}/rematch/join", response_model=schemas.RematchJoined,
              tags=["rematch"])
    def join_rematch(game_id: GameId,
                     token: Token,
                     ) -> schemas.RematchJoined:
        """Your seat in the rematch, for your seat's token of this game: its token and
        link (no new link to send)."""
        got = join(store, game_id, secret(token))
        return schemas.RematchJoined(id=got.id, rematch_of=got.of, token=got.token,
                                     you=list(got.you), url=links.seat(got.id, got.token))
