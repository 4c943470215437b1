"""What the routes share: the app's parts (:class:`AppState`, one per app, in
``app.state.web``) and the request's parts every route reads (the game id, the bearer
token, ``since``), as FastAPI dependencies.

The dependencies are ``async`` and only read the request, so an endpoint that touches
the database (a plain ``def``, run in FastAPI's thread pool) still costs one trip to the
thread pool."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Final

from fastapi import Depends, Header, Query
from fastapi import Path as PathParam
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import Engine
from starlette.requests import HTTPConnection
from starlette.responses import Response

from ...messages import LOCALES, locale_of
from ...messages import Seat as SeatArg
from .. import schemas, seating, uptime
from ..bots import BotRunner
from ..chat import Chat
from ..clocks import ClockKeeper
from ..lastseen import Activity, SeenRecorder, activity
from ..links import Links
from ..notify import Notifier
from ..ratings import Rater, board
from ..reviews import Reviewer, ReviewSettings
from ..store import BadRequest, Forbidden, Seat, Snapshot, Store, Unauthorized
from ..view import refusals
from .announce import Announcer
from .encode import host_panel_view, view_response

#: the longest game id a path may hold
GAME_ID_MAX: Final = 32
GameId = Annotated[str, PathParam(min_length=1, max_length=GAME_ID_MAX)]
SeatNo = Annotated[int, PathParam(ge=0, le=7, description="the seat's number")]

_bearer = HTTPBearer(auto_error=False, description="a seat's token (from its link)")

#: the request's bearer token (None without one): the endpoints read ``.credentials``.
#: HTTPBearer is an ``async`` dependency, so it costs no trip to the thread pool
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
Since = Annotated[int, Query(ge=0, description="only the events of entries after this seq "
                                               "(default: all)")]


def _locale(lang: Annotated[str | None, Query(
        description="the language of the engine's words (the decision, the log): "
                    f"{', '.join(LOCALES)}; default: the Accept-Language header's, else "
                    "English")] = None,
            accept_language: Annotated[str | None, Header(include_in_schema=False)] = None,
            ) -> str:
    return locale_for(lang, accept_language)


def locale_for(lang: str | None, accept_language: str | None) -> str:
    """The locale of a request: ``?lang=`` (400 when the server does not speak it),
    else the best of its ``Accept-Language`` header, else English."""
    if lang is not None:
        if lang not in LOCALES:
            raise BadRequest.said(refusals.LANGUAGE, value=repr(lang),
                                  languages=", ".join(LOCALES))
        return lang
    return locale_of(accept_language)


#: the locale of the engine's words in a game view (see :func:`locale_for`)
Locale = Annotated[str, Depends(_locale)]


@dataclass(eq=False)
class AppState:
    """One app's parts, built by :func:`endeavor.web.app.create_app`."""

    store: Store
    engine: Engine
    runner: BotRunner
    chat: Chat
    announcer: Announcer
    clocks: ClockKeeper
    notifier: Notifier
    reviewer: Reviewer | None
    review: ReviewSettings
    seen: SeenRecorder
    links: Links
    threads: int
    max_body: int
    send_notifications: bool
    heartbeat: uptime.Heartbeat
    #: the notification tests' rate limit (one per channel and seat every 20 s)
    tests: seating.TestSender = field(default_factory=seating.TestSender)
    #: rates the rated games once over (web/ratings; None: another process does)
    rater: Rater | None = None

    def answer(self, game_id: str, snap: Snapshot, you: frozenset[int], since: int,
               benched: Sequence[Seat] = (), locale: str = "en") -> Response:
        """The game view for ``you`` (with whether a bot is thinking on the game), the
        engine's words in ``locale``."""
        rated = board.game_ratings_view(self.store, snap, locale) if snap.meta.rated else None
        return view_response(snap, you, since, self.runner.thinking(game_id), benched,
                             locale, rated)

    def activity(self, game_id: str) -> dict[int, Activity]:
        """When each seat of the game last moved and opened it."""
        self.seen.flush()  # the seats seen since the last heartbeat, before they are read
        return activity(self.engine, game_id)

    def panel(self, snap: Snapshot, host_token: str) -> schemas.HostPanel:
        """The host's panel after a change the host made."""
        snap, seats = self.store.host_panel(snap.meta.id, host_token)
        return host_panel_view(snap, seats, self.links, host_token,
                               self.activity(snap.meta.id))


def state_of(conn: HTTPConnection) -> AppState:
    """The app's :class:`AppState` (for a request or a WebSocket)."""
    web: AppState = conn.app.state.web
    return web


async def _web(conn: HTTPConnection) -> AppState:
    return state_of(conn)


#: the app's parts, for an endpoint (an ``async`` dependency: no trip to the thread pool)
Web = Annotated[AppState, Depends(_web)]


def secret_of(creds: HTTPAuthorizationCredentials | None) -> str | None:
    """The bearer token itself (None without one)."""
    return creds.credentials if creds is not None else None


def seats_of(snap: Snapshot, creds: HTTPAuthorizationCredentials | None,
             required: bool) -> frozenset[int]:
    """The seats the token plays in the game: 401 for no token when ``required``,
    403 for a token of no seat of this game."""
    return seats_for(snap, secret_of(creds), required)


def seats_for(snap: Snapshot, token: str | None, required: bool) -> frozenset[int]:
    """:func:`seats_of` for the token itself (None: no token)."""
    if token is None:
        if required:
            raise Unauthorized.said(refusals.SEAT_TOKEN)
        return frozenset()
    seats = snap.meta.seats_of(token)
    if not seats:
        benched = snap.meta.benched_of(token)
        if benched and not required:
            return frozenset()  # the host gave the seat to a bot: the link watches
        raise seating.no_seat(benched)
    return seats


def token_of(creds: HTTPAuthorizationCredentials | None) -> str:
    """The seat's bearer token: 401 without one."""
    return token_of_text(secret_of(creds))


def host_token_of(creds: HTTPAuthorizationCredentials | None) -> str:
    """The host's bearer token: 401 without one (the refusal names the host's link)."""
    return token_of_text(secret_of(creds), host=True)


def token_of_text(token: str | None, host: bool = False) -> str:
    """:func:`token_of` for the token itself (None: no token); ``host``: the host's."""
    if token is None:
        raise Unauthorized.said(refusals.HOST_TOKEN if host else refusals.SEAT_TOKEN)
    return token


def one_seat(you: frozenset[int], seat: int | None) -> int:
    """The seat a request is about: ``seat`` if the token plays it, else the token's
    only seat (a hot-seat token must say which)."""
    if seat is not None:
        if seat not in you:
            raise Forbidden.said(refusals.NOT_YOURS, seat=SeatArg(seat))
        return seat
    if len(you) != 1:
        raise BadRequest.said(refusals.WHICH_SEAT)
    return next(iter(you))
