"""The app's answers to errors: a store's error as its status and words, an unknown
page as the front end's page (404), an unknown API address in words, anything else a
logged 500 without a traceback."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ...messages import LOCALES, locale_of
from ..store import StoreError, Unauthorized
from .middleware import route_path
from .pages import index

log = logging.getLogger("endeavor.web")


async def store_error(request: Request, e: Exception) -> Response:
    """A :class:`StoreError`: its status and words (401s ask for a bearer token). The
    engine's reason for refusing an action is said in the request's language
    (``?lang=``, else ``Accept-Language``), and given as its message too (``message``:
    id and arguments, the same in every language)."""
    assert isinstance(e, StoreError)
    headers = {"WWW-Authenticate": "Bearer"} if isinstance(e, Unauthorized) else None
    if e.words is None:
        return JSONResponse({"detail": str(e)}, status_code=e.status, headers=headers)
    lang = request.query_params.get("lang")
    locale = lang if lang in LOCALES else locale_of(request.headers.get("accept-language"))
    return JSONResponse({"detail": e.words.render(locale, viewer=e.viewer),
                         "message": e.words.to_dict()},
                        status_code=e.status, headers=headers)


async def http_error(request: Request, e: Exception) -> Response:
    """An unknown page gets the app's own page (which says so in words), with 404;
    the API answers in JSON."""
    assert isinstance(e, StarletteHTTPException)
    path = route_path(request.scope)
    if (e.status_code == 404 and request.method in ("GET", "HEAD")
            and not path.startswith("/api/") and not path.startswith("/static/")):
        return index(request, status_code=404)
    detail = e.detail if e.status_code != 404 or e.detail != "Not Found" else (
        f"no such address: {request.method} {request.url.path}")
    return JSONResponse({"detail": detail}, status_code=e.status_code,
                        headers=getattr(e, "headers", None))


async def internal_error(request: Request, e: Exception) -> Response:
    """Anything else: logged, and a 500 that says no more."""
    log.error("internal error on %s %s: %s: %s", request.method, request.url.path,
              type(e).__name__, e, exc_info=e)
    return JSONResponse({"detail": "internal error"}, status_code=500)


def install(app: FastAPI) -> None:
    """The handlers above on ``app``."""
    app.add_exception_handler(StoreError, store_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, internal_error)
