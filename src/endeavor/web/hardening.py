"""What keeps the server answering in words: strict JSON request bodies, the security
headers of every response, and 503 (not 500) when the database cannot serve.

:func:`install` adds to an app (``create_app`` calls it once its own middleware is in):

- :class:`StrictJSON`: a request body is refused with 400 ``{"detail": ...}`` when it is
  not UTF-8, or, for a JSON content type, when it holds what Python's ``json`` accepts but
  JSON does not (RFC 8259): ``NaN``, ``Infinity``, ``-Infinity``, a number too large for a
  float (``1e999`` would become infinity), an integer of more digits than Python parses,
  a nesting too deep to parse, or a lone UTF-16 surrogate (``"\\ud800"``) in any string
  or key. Left alone, these reach the engine, the database and the JSON encoder of the
  responses, which fail on them with a 500. Other malformed JSON is left to FastAPI
  (422, as before).
- :class:`SecurityHeaders`, the outermost layer (so the 500 of an unexpected error has
  them too): every response carries :data:`SECURITY_HEADERS`, the pages forbid being
  framed (clickjacking) and inline script, and send no referrer (a seat's token lives in
  the URL's fragment); the API's own documentation pages (``/docs``, ``/redoc``), which
  FastAPI builds with an inline script and a CDN, get :data:`DOCS_CSP`. A 500 also says
  ``Connection: close`` (Uvicorn closes the connection after an unexpected error; this
  tells the client before it reuses it).
- an exception handler turning a database error that means "unusable right now" (a full
  disk, a read-only file, a lost PostgreSQL server: :func:`endeavor.web.dbhealth.
  unavailable_reason`) into 503 with the reason and what happened to the request, e.g.
  "the database cannot be written right now (the disk is full); your move was not
  recorded — try again later". Any other database error is a bug: 500 ``internal
  error``, logged.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Callable, Collection
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import dbhealth

log = logging.getLogger("endeavor.web")

#: the Content-Security-Policy of the app's pages and of every other response: scripts
#: and styles only from the server's own files (the front end sets ``style`` attributes,
#: so inline styles are allowed; no inline script or event handler is), fetches and the
#: WebSocket to the same host (CSP3's 'self' covers ws: and wss: of the page's own
#: host and port), no plugins, no ``<base>``, never inside a frame
CSP: Final = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
              "img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
              "form-action 'self'; frame-ancestors 'none'")
#: the policy of FastAPI's documentation pages (Swagger UI and ReDoc come from a CDN and
#: start with an inline script); still never framed
DOCS_CSP: Final = ("default-src 'self'; "
                   "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
                   "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
                   "https://fonts.googleapis.com; font-src 'self' https://fonts.gstatic.com; "
                   "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
                   "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
                   "base-uri 'self'; frame-ancestors 'none'")
#: the headers of every response (lower-case names, as ASGI wants them)
SECURITY_HEADERS: Final[tuple[tuple[bytes, bytes], ...]] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
DOCS_HEADERS: Final = ((b"content-security-policy", DOCS_CSP.encode()),
                       *SECURITY_HEADERS[1:])
#: seconds a client is asked to wait before trying again after a 503
RETRY_AFTER: Final = 5


# --------------------------------------------------------------------------- headers
class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response (those of
    ``docs`` paths: :data:`DOCS_HEADERS`), unless the response set one itself;
    ``Connection: close`` on a 500."""

    def __init__(self, app: ASGIApp, docs: Collection[str] = ()) -> None:
        self.app = app
        self.docs = frozenset(docs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = DOCS_HEADERS if scope.get("path") in self.docs else SECURITY_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {name.lower() for name, _ in headers}
                headers.extend(h for h in extra if h[0] not in names)
                if message.get("status") == 500 and b"connection" not in names:
                    headers.append((b"connection", b"close"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# --------------------------------------------------------------------------- strict JSON
class _NotJSON(ValueError):
    """What Python's json accepts but JSON does not; the message says what."""


def _constant(name: str) -> Any:
    raise _NotJSON(f"{name} is not a JSON number (use a number or null)")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NotJSON(f"the number {text[:40]} is too large")
    return value


#: a \\u escape of a UTF-16 surrogate (a pair is fine, a lone one is not a character);
#: only a first filter: ``\\\\ud800`` is an escaped backslash followed by text
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def _is_json_type(content_type: str | None) -> bool:
    """Whether FastAPI parses a body of this content type as JSON."""
    if not content_type:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/")
                                          and kind.endswith("+json"))


def _lone_surrogate(value: Any) -> str | None:
    """The first string (or key) in ``value`` holding a lone surrogate, if any."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def body_problem(body: bytes, content_type: str | None) -> str | None:
    """Why ``body`` must be refused, in words (see :class:`StrictJSON`), or None. Only
    bodies of a JSON ``content_type`` are parsed; any body must be UTF-8."""
    if not body:
        return None
    json_type = _is_json_type(content_type)
    if json_type and json.detect_encoding(body) not in ("utf-8", "utf-8-sig"):
        return "the request body is not UTF-8: JSON is UTF-8 text"
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"the request body is not valid UTF-8 (at byte {e.start}): JSON is UTF-8 text"
    if not json_type:
        return None
    try:
        value = json.loads(text.removeprefix("\ufeff"), parse_constant=_constant,
                           parse_float=_finite)
    except _NotJSON as e:
        return f"the request body is not valid JSON: {e}"
    except json.JSONDecodeError:
        return None  # FastAPI's 422 says where
    except RecursionError:
        return "the request body is not accepted: its JSON is nested too deeply"
    except ValueError:  # an integer of more digits than int() takes (4300)
        return "the request body is not accepted: a number in it has too many digits"
    if _SURROGATE_ESCAPE.search(text):
        bad = _lone_surrogate(value)
        if bad is not None:
            return ("the request body is not valid JSON text: a string holds a lone UTF-16 "
                    f"surrogate, which is not a character: {ascii(bad)[:80]}")
    return None


class StrictJSON:
    """ASGI middleware: a request body that :func:`body_problem` refuses gets 400 with the
    reason before the app sees it; any other is handed on as it came (read whole: it is
    bounded by :class:`endeavor.web.app.BodyLimit`, which must wrap this)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        content_type: str | None = None
        has_body = False
        for name, value in scope.get("headers", ()):
            if name == b"content-type":
                content_type = value.decode("latin-1")
            elif name == b"content-length":
                has_body = has_body or value.strip() not in (b"0", b"")
            elif name == b"transfer-encoding":
                has_body = True
        if not has_body:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body came: nobody to answer
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        reason = body_problem(body, content_type)
        if reason is not None:
            response = JSONResponse({"detail": reason}, status_code=400)
            await response(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


# --------------------------------------------------------------------------- database
def _what_was_lost(request: Request, error: BaseException) -> str:
    """What became of a write request that failed, in words."""
    path = request.url.path.rstrip("/")
    if path.endswith("/actions"):
        what = "your move"
    elif path.endswith("/undo"):
        what = "your undo"
    elif path in ("/api/games", "/api/games/import"):
        return ("the game may have been created: look for it in the lobby" if
                dbhealth.outcome_unknown(error) else "the game was not created")
    else:
        what = "your request"
    if dbhealth.outcome_unknown(error):
        return f"{what} may have been recorded: reload the game to see"
    return f"{what} was not recorded"


def unavailable_detail(request: Request, reason: str, error: BaseException) -> str:
    """The 503's detail: what cannot be done, why, and what became of the request."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return f"the database cannot be read right now ({reason}); try again later"
    return (f"the database cannot be written right now ({reason}); "
            f"{_what_was_lost(request, error)} — try again later")


async def database_error(request: Request, error: Exception) -> JSONResponse:
    """503 with the reason for a database that cannot serve now; 500 for any other
    database error (a bug), logged with its traceback."""
    reason = dbhealth.unavailable_reason(error)
    if reason is None:
        log.error("internal error on %s %s: %s: %s", request.method, request.url.path,
                  type(error).__name__, error, exc_info=error)
        return JSONResponse({"detail": "internal error"}, status_code=500)
    cause = error.orig if isinstance(error, DBAPIError) else error
    log.warning("database unavailable on %s %s: %s (%s: %s)", request.method,
                request.url.path, reason, type(cause).__name__, " ".join(str(cause).split()))
    return JSONResponse({"detail": unavailable_detail(request, reason, error)},
                        status_code=503, headers={"Retry-After": str(RETRY_AFTER)})


# --------------------------------------------------------------------------- install
def install(app: FastAPI, engine: Engine) -> None:
    """Add :class:`StrictJSON` (innermost of the app's middleware: inside its body
    limit), the database errors' handler and :class:`SecurityHeaders` (outermost) to
    ``app``, whose database is ``engine``. Call once, after the app's own middleware is
    added."""
    dbhealth.watch(engine)
    app.user_middleware.append(Middleware(StrictJSON))
    app.add_exception_handler(SQLAlchemyError, database_error)
    app.add_exception_handler(sqlite3.Error, database_error)
    docs = [p for p in (app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url)
            if p]
    build: Callable[[], ASGIApp] = app.build_middleware_stack

    def build_with_headers() -> ASGIApp:
        return SecurityHeaders(build(), docs)

    # the headers go around Starlette's outermost layer too (ServerErrorMiddleware,
    # which answers the 500 of an unexpected error)
    app.build_middleware_stack = build_with_headers  # type: ignore[method-assign]
