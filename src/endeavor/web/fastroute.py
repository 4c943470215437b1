"""The hot path's request parser: the requests of every move (``POST
/api/games/{id}/actions`` and the ``GET /api/games/{id}`` of each refresh) read without
FastAPI's request machinery (dependency solving, body parsing and validation, the route
table's scan), which costs about 15% of the CPU of such a request (docs/web.md, "Serving
under load").

A :class:`FastRoute` stands first in the app's routes, before the FastAPI route of the
same method and path, and calls that route's endpoint function itself: the endpoint is
one function, which FastAPI documents and calls for every request the fast route does
not take. It takes only requests whose every part it reads exactly as FastAPI would: no
query string or only ``since=N``, no ``Authorization`` header or one ``Bearer TOKEN``,
and for a body a single ``Content-Type: application/json`` whose JSON the request's
model accepts. Anything else (a malformed token, another query parameter, a body the
model refuses, a path parameter out of bounds) is handed to the FastAPI route as it
came, which answers it as before (422, 401...). The endpoint runs inside the app's
middleware and exception handlers, like any route: the security headers, the body
limit, the strict JSON check, the answers to a store's or the database's errors are
those of every other request, and an error raised by the endpoint becomes the same
answer.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from typing import Any, Final

from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, ValidationError
from starlette._utils import get_route_path
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, compile_path
from starlette.types import Message, Receive, Scope, Send

#: ``since=N`` as the whole query string: a plain non-negative integer (no sign, no
#: leading zero, no blank), what FastAPI's ``int`` query parameter reads as N
_SINCE: Final = re.compile(rb"since=(0|[1-9][0-9]{0,17})")
#: ``Bearer TOKEN`` as FastAPI's ``HTTPBearer`` reads it when the token is one run of
#: visible ASCII (its scheme is case-insensitive)
_BEARER: Final = re.compile(rb"[Bb][Ee][Aa][Rr][Ee][Rr] ([!-~]+)")
#: the largest body a fast route reads itself (an action is ~50 bytes); a longer one
#: goes to the FastAPI route
MAX_FAST_BODY: Final = 4096


class Fallback(Exception):
    """The request is not one a fast route reads exactly as FastAPI does: hand it to
    the FastAPI route."""


#: what a fast route adds to the endpoint's arguments from the request's scope (what
#: the endpoint's other dependencies give it, e.g. the app's state)
Context = Callable[[Scope], dict[str, Any]]


def since_of(query: bytes) -> int:
    """The query string's ``since`` (0 without one); :class:`Fallback` for any other
    query."""
    if not query:
        return 0
    m = _SINCE.fullmatch(query)
    if m is None:
        raise Fallback
    return int(m[1])


def bearer_of(headers: list[tuple[bytes, bytes]]) -> tuple[str | None, bytes | None]:
    """The ``Authorization`` header's bearer token (None without the header) and the
    ``Content-Type`` header; :class:`Fallback` for a header given twice or an
    ``Authorization`` that is not one ``Bearer TOKEN``."""
    auth: bytes | None = None
    content_type: bytes | None = None
    for name, value in headers:
        if name == b"authorization":
            if auth is not None:
                raise Fallback
            auth = value
        elif name == b"content-type":
            if content_type is not None:
                raise Fallback
            content_type = value
    if auth is None:
        return None, content_type
    m = _BEARER.fullmatch(auth)
    if m is None:
        raise Fallback
    return m[1].decode("ascii"), content_type


class FastRoute(BaseRoute):
    """The one method of ``fallback`` (a FastAPI route) on its path, its endpoint called
    here for the requests read here (see the module's doc) with the path parameters, the
    query's ``since``, the bearer ``token`` (as FastAPI's ``HTTPBearer`` gives it) and,
    for a route with a ``body`` model, the request's ``body``; ``context(scope)`` adds
    the endpoint's other arguments. ``max_lengths``: path parameters' longest values
    (longer: the FastAPI route answers)."""

    def __init__(self, fallback: APIRoute, *, body: type[BaseModel] | None = None,
                 context: Context | None = None,
                 max_lengths: dict[str, int] | None = None) -> None:
        methods = sorted(fallback.methods or ())
        if len(methods) != 1:
            raise ValueError(f"{fallback.path}: a fast route serves one method, not {methods}")
        self.fallback = fallback
        self.method = methods[0]
        self.path = fallback.path
        self.endpoint = fallback.endpoint
        self.threaded = not inspect.iscoroutinefunction(fallback.endpoint)
        self.body = body
        self.context = context
        self.max_lengths = dict(max_lengths or {})
        self.path_regex, self.path_format, self.param_convertors = compile_path(self.path)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        # only the exact method: any other (HEAD, a 405) is the FastAPI route's to answer
        if scope["type"] != "http" or scope["method"] != self.method:
            return Match.NONE, {}
        m = self.path_regex.match(get_route_path(scope))
        if m is None:
            return Match.NONE, {}
        params = dict(scope.get("path_params", {}))
        for key, value in m.groupdict().items():
            params[key] = self.param_convertors[key].convert(value)
        return Match.FULL, {"path_params": params}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        more: Message | None = None
        if self.body is not None:
            body, more = await _read_body(receive)
        try:
            if more is not None:
                raise Fallback
            kwargs = self._arguments(scope, body)
        except Fallback:
            await self._fall_back(scope, _replay(body, more, receive) if self.body
                                  else receive, send)
            return
        response: Response = (await run_in_threadpool(self.endpoint, **kwargs)
                              if self.threaded else await self.endpoint(**kwargs))
        await response(scope, receive, send)

    def _arguments(self, scope: Scope, body: bytes) -> dict[str, Any]:
        """The endpoint's arguments for the request; :class:`Fallback` for a request
        not read here."""
        params: dict[str, Any] = scope["path_params"]
        for key, limit in self.max_lengths.items():
            if len(params[key]) > limit:
                raise Fallback
        token, content_type = bearer_of(scope["headers"])
        kwargs = {**params, "since": since_of(scope.get("query_string", b"")),
                  "token": None if token is None else HTTPAuthorizationCredentials(
                      scheme="Bearer", credentials=token)}
        if self.body is not None:
            if content_type != b"application/json" or not body:
                raise Fallback
            try:
                kwargs["body"] = self.body.model_validate(json.loads(body))
            except (ValueError, ValidationError):  # not JSON, or the model refuses it
                raise Fallback from None
        if self.context is not None:
            kwargs.update(self.context(scope))
        return kwargs

    async def _fall_back(self, scope: Scope, receive: Receive, send: Send) -> None:
        match, child = self.fallback.matches(scope)
        if match != Match.FULL:  # cannot happen: same method and path
            raise RuntimeError(f"{self.method} {self.path}: the FastAPI route refused it")
        scope.update(child)
        await self.fallback.handle(scope, receive, send)

    def __repr__(self) -> str:
        return f"FastRoute({self.method} {self.path})"


async def _read_body(receive: Receive) -> tuple[bytes, Message | None]:
    """The request's body, up to :data:`MAX_FAST_BODY` bytes; the message that went
    past that (or was no body: the client left), if any, is returned to be replayed."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), message
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_FAST_BODY and message.get("more_body", False):
            chunks.append(chunk)
            return b"".join(chunks), {**message, "body": b""}
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks), None


def _replay(body: bytes, more: Message | None, receive: Receive) -> Receive:
    """A ``receive`` giving ``body`` again (then ``more``, then the rest)."""
    pending: list[Message] = [{"type": "http.request", "body": body,
                               "more_body": more is not None and more["type"] ==
                               "http.request"}]
    if more is not None and more["type"] != "http.request":
        pending.append(more)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay
