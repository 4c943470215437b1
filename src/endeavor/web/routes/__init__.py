"""The web app's HTTP side, by concern: each module holds one :class:`fastapi.APIRouter`
(:data:`ROUTERS`, in the order the app includes them), and what they share is in
:mod:`.state` (the app's parts, as FastAPI dependencies), :mod:`.encode` (the game views
as JSON), :mod:`.announce` (the WebSockets' news), :mod:`.middleware` and :mod:`.errors`.
:func:`endeavor.web.app.create_app` assembles them."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter

from . import (
    accountmail,
    accounts,
    chat,
    follow,
    games,
    host,
    lobby,
    notifications,
    pages,
    ratings,
    reviews,
)

#: the routers of the app, in order (the front end's pages last)
ROUTERS: Final[tuple[APIRouter, ...]] = (
    lobby.router, games.router, reviews.router, notifications.router, chat.router,
    host.router, accounts.router, accountmail.router, ratings.router, pages.router,
    follow.router)
