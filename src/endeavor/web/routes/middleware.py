"""The app's ASGI middleware: the request-size limit (:class:`BodyLimit`) and the
path prefix of an app served under a public URL's path (:class:`PathPrefix`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from urllib.parse import quote, unquote

from fastapi.exceptions import HTTPException
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the largest request body accepted (a record of a whole game is ~10 KB)
MAX_BODY: Final = 1 << 20


class BodyLimit:
    """ASGI middleware: 413 for a request body over ``limit`` bytes, judged by its
    Content-Length and again while it is read (a chunked or lying client).

    The rest of a refused body, up to ``drain`` bytes in all, is read and dropped before
    the 413 is sent: a server closing a connection with unread data resets it, and a
    reverse proxy still sending the body (nginx sends all it buffered) then answers 502
    instead of the app's 413. A bigger body is refused without being read."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, drain: int | None = None
                 ) -> None:
        self.app = app
        self.limit = limit
        self.drain = 8 * limit if drain is None else drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = 0
                if length > self.limit:
                    if length <= self.drain:
                        await self._drain(receive, 0)
                    await self._reject(send)
                    return
        received = 0
        complete = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, complete
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received > self.limit:
                    # an HTTPException passes FastAPI's body parsing untouched
                    raise HTTPException(413, self._detail())
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except HTTPException as e:
            if e.status_code != 413 or started:
                raise
            if not complete:
                await self._drain(receive, received)
            await self._reject(send)

    async def _drain(self, receive: Receive, received: int) -> None:
        """Read and drop the body's remaining messages, up to :attr:`drain` bytes."""
        while received <= self.drain:
            message = await receive()
            if message["type"] != "http.request":
                return
            received += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    def _detail(self) -> str:
        return f"request body too large: at most {self.limit:,} bytes"

    async def _reject(self, send: Send) -> None:
        response = JSONResponse({"detail": self._detail()}, status_code=413)
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


# --------------------------------------------------------------------------- path prefix
class PathPrefix:
    """ASGI middleware for an app served under a path prefix (``--public-url
    https://example.org/endeavor``) by a reverse proxy, which may strip the prefix
    (nginx's ``location /endeavor/ { proxy_pass http://127.0.0.1:8000/; }``) or pass it
    on (``proxy_pass http://127.0.0.1:8000;``): each request's ``root_path`` is the
    prefix and its ``path`` begins with it, as ASGI wants (a path without it gets it,
    as ``uvicorn --root-path`` does). Routes match without the prefix, while what is
    built from the request carries it: redirects (a trailing slash), ``/docs``'s
    address of the OpenAPI schema, the error messages' paths.

    A path is taken as already prefixed when it is the prefix or starts with it and a
    ``/``, unless the prefix's first segment is one of the app's own (``own``: ``api``,
    ``play``...; ``--public-url https://example.org/play``), where that would be
    ambiguous: then the proxy must strip the prefix."""

    def __init__(self, app: ASGIApp, prefix: str, own: Iterable[str] = ()) -> None:
        self.app = app
        # as a URL writes it (percent-encoded) and as ASGI's paths are (decoded)
        self.path = unquote(prefix.rstrip("/"))
        self.raw = quote(self.path).encode("ascii")
        first = self.path.lstrip("/").split("/", 1)[0]
        self.passed_on = first not in set(own)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.path:
            scope = dict(scope)
            path: str = scope["path"]
            scope["root_path"] = self.path
            if not (self.passed_on and (path == self.path
                                        or path.startswith(self.path + "/"))):
                scope["path"] = self.path + path
                raw = scope.get("raw_path")
                if raw is not None:
                    scope["raw_path"] = self.raw + raw
        await self.app(scope, receive, send)


def route_path(scope: Scope) -> str:
    """The request's path inside the app (without its ``root_path``: the prefix)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return (path[len(root):] or "/") if root and path.startswith(root) else path
