"""The FastAPI application: the HTTP API of docs/web.md, the WebSocket announcing each
game's ``seq``, the front end's static files, the error handlers and the request-size
limit.

``create_app(db_url)`` builds one app on one database (migrated to head first);
``app_from_env()`` is the factory Uvicorn's workers call (``uvicorn --factory
endeavor.web.app:app_from_env``), reading the URL from ``$ENDEAVOR_DB``.

Endpoints that touch the database are plain ``def`` functions (FastAPI runs them in its
thread pool); their dependencies only parse headers and are ``async``, so a request takes
one trip to the thread pool. The WebSocket is ``async`` and waits on an in-process
announcement after each commit, with a shared poll of the database (one ``SELECT`` for all
the games this process's sockets follow) so moves committed by another worker process are
announced too.

The game views (the hot path: every move and every refresh) are encoded here, once: an
endpoint returns the JSON bytes in a :class:`Response` (``schemas.GameView`` documents
them, tests check they match it), and what depends only on the game and its seq (the
position, the scores, the decision, the legal actions) is encoded once per seq and kept
in the snapshot's ``memo``, so the views of the other seats at that seq reuse it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final, Literal
from urllib.parse import quote, unquote

from anyio import to_thread
from fastapi import Depends, FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import HTTPException
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import endeavor
from endeavor.bots import NAMES as BOT_NAMES
from endeavor.config import RULESETS as RULESET_IDS
from endeavor.rules import RULESETS

from . import db, guide, hardening, rematch, reviews, schemas, seating, uptime, view
from .bots import QUICK_BOTS, BotRunner
from .chat import Chat, ChatMessage, ChatPost, ChatSeen, ChatSeenView, ChatView
from .clocks import INTERVAL_SECONDS as CLOCK_SECONDS
from .clocks import ClockKeeper
from .fastroute import Fallback, FastRoute
from .jobs import SENDER_VAR
from .lastseen import Activity, SeenRecorder, activity
from .links import Links
from .notify import Notifier, NotifySettings
from .reviews import Reviewer, ReviewSettings
from .store import (
    CHANNELS,
    CLOCK_KINDS,
    DEFAULT_TIMEOUT_BOT,
    NOT_A_SEAT,
    ON_TIMEOUT,
    BadRequest,
    Created,
    Forbidden,
    HostSeat,
    Seat,
    Snapshot,
    Store,
    StoreError,
    Unauthorized,
    utcnow,
)

log = logging.getLogger("endeavor.web")

STATIC: Final = Path(__file__).resolve().parent / "static"
#: the largest request body accepted (a record of a whole game is ~10 KB)
MAX_BODY: Final = 1 << 20
#: how often the WebSocket side polls the database for moves of other processes
POLL_SECONDS: Final = 0.5
#: threads serving the endpoints that touch the database (anyio's default is 40). They
#: share one GIL: a few keep the database busy (a PostgreSQL round trip releases the
#: GIL), while 40 requests in flight each run in 5 ms slices of the GIL, so a 1 ms
#: request waits tens of ms, and the event loop waits too; ``$ENDEAVOR_THREADS`` overrides
THREADS: Final = 4
THREADS_VAR: Final = "ENDEAVOR_THREADS"
#: the server's collection thresholds (CPython's are 700, 10, 10): the games' positions
#: make a large long-lived heap, and a full collection of it stops the process for
#: ~100-200 ms every few seconds under load; young objects are collected 30 times less
#: often (a few ms each) and a full collection waits for 100 times more of them
GC_THRESHOLDS: Final = (20_000, 50, 100)
#: paths the front end routes by itself: each serves index.html
PAGES: Final = ("/", "/new", "/rules", "/play/{game_id}", "/game/{game_id}", "/host/{game_id}",
                "/replay/{game_id}", "/replay/{game_id}/{n}")
#: the longest game id a path may hold
GAME_ID_MAX: Final = 32
GameId = Annotated[str, PathParam(min_length=1, max_length=GAME_ID_MAX)]
SeatNo = Annotated[int, PathParam(ge=0, le=7, description="the seat's number")]

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Endeavor</title></head>
<body><h1>Endeavor</h1><p>The front end is not installed (no
<code>endeavor/web/static/index.html</code>). The HTTP API is at
<a href="/docs">/docs</a>.</p></body></html>
"""


# --------------------------------------------------------------------------- the views
def _dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (what Starlette's ``JSONResponse`` sends)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode("utf-8")


def _memo(snap: Snapshot, key: Any, make: Callable[[], Any]) -> bytes:
    """``make()`` encoded, computed once per (game, seq) in this process: kept in the
    snapshot's memo (which belongs to its position alone; see :class:`Snapshot`)."""
    value: bytes | None = snap.memo.get(key)
    if value is None:
        value = _dumps(make())
        snap.memo[key] = value
    return value


class PositionEncoder:
    """Encodes :func:`view.position` dicts as JSON, reusing the bytes of each part equal
    to the same part of the game's previous position (a move changes a region or two, a
    mat, a few links: the rest of the board is encoded once, not at every seq).

    The parts are the items of the position's lists (regions, links, supply, players,
    ...) and its other values; a part is reused only when it compares equal (``==``) to
    the previous one, so the result is always the JSON of ``pos`` (view.py's values keep
    their JSON type at every path: no ``1`` where a ``true`` was). The previous parts of
    the ``size`` games encoded last are kept."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._last: OrderedDict[str, dict[str, Any]] = OrderedDict()  # game id -> parts
        self._lock = threading.Lock()

    def encode(self, game_id: str, pos: Mapping[str, Any]) -> bytes:
        with self._lock:
            prev = self._last.get(game_id)
        # key -> (value, its JSON, the (item, JSON) of each item of a list value)
        parts: dict[str, tuple[Any, bytes, list[tuple[Any, bytes]] | None]] = {}
        out = []
        for key, value in pos.items():
            old = prev.get(key) if prev is not None else None
            if old is not None and old[0] == value:
                parts[key] = old
            elif isinstance(value, list):
                olds = old[2] if old is not None and old[2] is not None else []
                items = [olds[i] if i < len(olds) and olds[i][0] == item
                         else (item, _dumps(item)) for i, item in enumerate(value)]
                parts[key] = (value, b"[" + b",".join(b for _, b in items) + b"]", items)
            else:
                parts[key] = (value, _dumps(value), None)
            prefix = _KEYS.get(key)
            if prefix is None:
                prefix = _KEYS.setdefault(key, _dumps(key) + b":")
            out.append(prefix + parts[key][1])
        with self._lock:
            self._last[game_id] = parts
            self._last.move_to_end(game_id)
            while len(self._last) > self.size:
                self._last.popitem(last=False)
        return b"{" + b",".join(out) + b"}"


#: a position's keys encoded, with their colon
_KEYS: dict[str, bytes] = {}

#: the position encoder of the game views (shared: parts are checked by equality, so
#: sharing across apps and databases is safe)
POSITIONS: Final = PositionEncoder()


def _seat_json(s: Seat) -> dict[str, Any]:
    return {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
            "named": s.named, "played_by": s.played_by, "replaced": s.override_reason}


def _events_json(snap: Snapshot, since: int) -> bytes:
    """The log after entry ``since``: the events of the effective actions
    (:func:`view.action_view`) and the journal's lines (undos, the host's changes,
    clocks running out), in log order (a clock's line before the move its bot made)."""
    return _dumps(log_view(snap, since))


def log_view(snap: Snapshot, since: int = 0) -> list[dict[str, Any]]:
    """The game's log after entry ``since`` as the view's ``events`` (see
    :func:`_events_json`)."""
    out: list[dict[str, Any]] = []
    lines = snap.lines(since)
    i = 0
    for e in snap.effective:
        if e.seq <= since:
            continue
        while i < len(lines) and lines[i].seq <= e.seq:
            out.append(view.line_view(lines[i]))
            i += 1
        out.extend(view.action_view(e.seq, e.action, e.events))
    out.extend(view.line_view(line) for line in lines[i:])
    return out


def game_view_json(snap: Snapshot, you: frozenset[int], since: int = 0,
                   thinking: bool = False, benched: Sequence[Seat] = ()) -> bytes:
    """The game view of docs/web.md (``schemas.GameView``) for a token playing ``you``
    (empty: a spectator), encoded as JSON from parts cached per (game, seq): only
    ``you``, ``events``, the clock's times and ``can_undo`` are encoded for each
    request. ``legal_actions`` and the decision's options only for the seat to move;
    the events of the entries after ``since``; ``thinking``: a bot is working on the
    game's next move; ``benched``: the token's seats the host gave to a bot (the token
    watches them)."""
    state = snap.state
    current = snap.current_player
    mine = current is not None and current in you
    over = snap.over
    reclaim = [p for p in sorted(you) if snap.meta.seats[p].override_reason == "timeout"
               and snap.clock is not None and snap.clock.config.reclaim and not over]
    head = _dumps({"id": snap.meta.id, "title": snap.meta.title, "seq": snap.seq,
                   "over": over, "ended": snap.ended, "current_player": current,
                   "you": sorted(you), "thinking": thinking and not over,
                   "can_reclaim": reclaim,
                   **({"benched": seating.benched_view(benched)} if benched else {}),
                   "clock": snap.clock.to_json(utcnow()) if snap.clock is not None else None})
    seats = _memo(snap, "seats", lambda: [_seat_json(s) for s in snap.meta.seats])
    config = _memo(snap, "config", lambda: snap.meta.config)
    legal = _memo(snap, "legal_actions",
                  lambda: [str(a) for a in state.legal_actions()]) if mine else b"[]"
    # decision_view shows the options exactly when the seat to move is one of ``you``
    decision = b"null" if current is None else _memo(
        snap, ("decision", mine), lambda: view.decision_view(
            state, [current] if mine and current is not None else []))
    events = _events_json(snap, since)
    position: bytes | None = snap.memo.get("state")
    if position is None:
        position = snap.memo["state"] = POSITIONS.encode(snap.meta.id, view.position(state))
    scores = _memo(snap, "scores", lambda: view.scores_view(state, force=over))
    can_undo = b"true" if snap.undo_target(you) is not None else b"false"
    return b"".join((
        head[:-1], b',"seats":', seats, b',"config":', config,
        b',"actions":', str(len(snap.effective)).encode(), b',"legal_actions":', legal,
        b',"decision":', decision, b',"events":', events, b',"state":', position,
        b',"scores":', scores, b',"can_undo":', can_undo, b"}"))


def view_response(snap: Snapshot, you: frozenset[int], since: int = 0,
                  thinking: bool = False, benched: Sequence[Seat] = ()) -> Response:
    """The 200 of a game view: :func:`game_view_json` as ``application/json``."""
    return Response(game_view_json(snap, you, since, thinking, benched),
                    media_type="application/json")


def _created(created: Created, links: Links) -> schemas.Created:
    return schemas.Created(
        id=created.id, spectate_url=links.spectate(created.id),
        host_token=created.host_token,
        host_url=links.host(created.id, created.host_token) if created.host_token else None,
        seats=[schemas.CreatedSeat(
            seat=s.seat, kind=s.kind,  # type: ignore[arg-type]
            bot=s.bot, token=s.token,
            url=links.seat(created.id, s.token) if s.token else None)
            for s in created.seats])


def host_panel_view(snap: Snapshot, seats: list[HostSeat], links: Links,
                    host_token: str, active: Mapping[int, Activity] | None = None,
                    ) -> schemas.HostPanel:
    """What the host sees: every seat with its link, the clock, how the game stands,
    when each seat last moved and opened the game (``active``)."""
    active = active or {}
    return schemas.HostPanel(
        now=utcnow(),
        id=snap.meta.id, title=snap.meta.title, seq=snap.seq, over=snap.over,
        ended=snap.ended, current_player=snap.current_player,
        host_url=links.host(snap.meta.id, host_token),
        spectate_url=links.spectate(snap.meta.id),
        clock=snap.clock.to_json(utcnow()) if snap.clock is not None else None,
        seats=[schemas.HostSeatView(
            seat=h.seat.seat, kind=h.seat.kind,  # type: ignore[arg-type]
            bot=h.seat.bot, name=h.seat.name, named=h.seat.named,
            played_by=h.seat.played_by,
            replaced=h.seat.override_reason,  # type: ignore[arg-type]
            token=h.token,
            url=links.seat(snap.meta.id, h.token) if h.token else None,
            last_moved=active.get(h.seat.seat, Activity()).moved,
            last_seen=active.get(h.seat.seat, Activity()).seen)
            for h in seats])


def meta_view(max_body: int = MAX_BODY, email: bool = False) -> schemas.Meta:
    """What the new-game form offers: rulesets with their player counts, boards and
    options, the Exploits, the bots, the phase orders."""
    rulesets = []
    for rid in RULESET_IDS:
        cls = RULESETS.get(rid)
        if cls is None:
            continue
        options = {name: {"values": list(values), "default": default}
                   for name, (values, default) in cls.options.items()}
        rulesets.append(schemas.RulesetMeta(
            id=rid, title=cls.title, players=list(cls.player_counts), boards=list(cls.boards),
            default_board={str(n): cls.default_board(n) for n in cls.player_counts},
            options=options,
            phase_orders=list(cls.options.get("phase_order", (("by_phase",), ""))[0])))
    boards = list(dict.fromkeys(b for r in rulesets for b in r.boards))
    orders = list(dict.fromkeys(o for r in rulesets for o in r.phase_orders))
    return schemas.Meta(
        rulesets=rulesets, boards=boards,
        exploits=[schemas.ExploitMeta(**e) for e in guide.exploits()],
        bots=list(BOT_NAMES), quick_bots=[b for b in BOT_NAMES if b in QUICK_BOTS],
        phase_orders=orders, seat_kinds=["human", "hotseat", "bot"], max_body=max_body,
        clock_kinds=list(CLOCK_KINDS), on_timeout=list(ON_TIMEOUT),
        default_timeout_bot=DEFAULT_TIMEOUT_BOT, email_notifications=email)


# --------------------------------------------------------------------------- announcing
class _Subscriber:
    """One WebSocket's interest in one game, living on its event loop."""

    def __init__(self, game_id: str, loop: asyncio.AbstractEventLoop) -> None:
        self.game_id = game_id
        self.loop = loop
        self.latest = -1
        self.chat: tuple[int, int] = (0, 0)  # the game's chat version (see chat.py)
        self.changed = asyncio.Event()

    def offer(self, seq: int) -> None:
        """Called on the subscriber's loop: remember a seq if it is new."""
        if seq > self.latest:
            self.latest = seq
            self.changed.set()

    def offer_threadsafe(self, seq: int) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody listens
            self.loop.call_soon_threadsafe(self.offer, seq)

    def offer_chat(self, version: tuple[int, int]) -> None:
        """Called on the subscriber's loop: remember a chat version if it is newer
        (either of its numbers grew)."""
        new = (max(self.chat[0], version[0]), max(self.chat[1], version[1]))
        if new != self.chat:
            self.chat = new
            self.changed.set()

    def offer_chat_threadsafe(self, version: tuple[int, int]) -> None:
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.offer_chat, version)


class Announcer:
    """Tells the WebSockets of this process about new seqs: at once for commits made
    in this process (:meth:`publish`, called by the store after each commit, from any
    thread), and by polling the database for the others' (one query per loop and
    interval for every game followed)."""

    def __init__(self, read_seqs: Callable[[Iterable[str]], Mapping[str, int]],
                 interval: float = POLL_SECONDS,
                 read_chats: Callable[[Iterable[str]], Mapping[str, tuple[int, int]]]
                 | None = None) -> None:
        self.read_seqs = read_seqs
        self.read_chats = read_chats
        self.interval = interval
        self._lock = threading.Lock()
        self._subs: dict[str, set[_Subscriber]] = {}
        self._pollers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}

    def publish(self, game_id: str, seq: int) -> None:
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            sub.offer_threadsafe(seq)

    def publish_chat(self, game_id: str, version: tuple[int, int]) -> None:
        """A chat message was posted or deleted in this process (see chat.py)."""
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            sub.offer_chat_threadsafe(version)

    def _read(self, game_ids: list[str]) -> tuple[Mapping[str, int],
                                                  Mapping[str, tuple[int, int]]]:
        chats = self.read_chats(game_ids) if self.read_chats is not None else {}
        return self.read_seqs(game_ids), chats

    def subscribe(self, game_id: str) -> _Subscriber:
        """A subscriber on the running loop (and that loop's poller, if not yet)."""
        loop = asyncio.get_running_loop()
        sub = _Subscriber(game_id, loop)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        task = self._pollers.get(loop)
        if task is None or task.done():
            self._pollers[loop] = loop.create_task(self._poll(loop))
        return sub

    def unsubscribe(self, sub: _Subscriber) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]

    def _followed(self, loop: asyncio.AbstractEventLoop) -> dict[str, list[_Subscriber]]:
        with self._lock:
            out: dict[str, list[_Subscriber]] = {}
            for game_id, subs in self._subs.items():
                mine = [s for s in subs if s.loop is loop]
                if mine:
                    out[game_id] = mine
            return out

    async def _poll(self, loop: asyncio.AbstractEventLoop) -> None:
        failing = False
        while True:
            await asyncio.sleep(self.interval)
            followed = self._followed(loop)
            if not followed:  # nobody left on this loop: stop (a new socket restarts it)
                if self._pollers.get(loop) is asyncio.current_task():
                    del self._pollers[loop]
                return
            try:
                seqs, chats = await run_in_threadpool(self._read, list(followed))
            except Exception as e:  # the database is away: said once, tried again
                if not failing:
                    log.warning("polling the games' seq failed (%s: %s); trying again",
                                type(e).__name__, e)
                failing = True
                continue
            failing = False
            for game_id, seq in seqs.items():
                for sub in followed.get(game_id, ()):
                    sub.offer(seq)
            for game_id, version in chats.items():
                for sub in followed.get(game_id, ()):
                    sub.offer_chat(version)

    async def close(self) -> None:
        for task in list(self._pollers.values()):
            task.cancel()
        self._pollers.clear()


# --------------------------------------------------------------------------- body limit
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


# --------------------------------------------------------------------------- the app
_bearer = HTTPBearer(auto_error=False, description="a seat's token (from its link)")


#: the request's bearer token (None without one): the endpoints read ``.credentials``.
#: HTTPBearer is an ``async`` dependency, so it costs no trip to the thread pool
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
Since = Annotated[int, Query(ge=0, description="only the events of entries after this seq "
                                               "(default: all)")]


def create_app(db_url: str | None = None, *,
               bot_budgets: Mapping[str, Mapping[str, Any]] | None = None,
               quick_budget: float | None = None, max_body: int = MAX_BODY,
               poll_seconds: float = POLL_SECONDS, bot_threads: int = 2,
               threads: int = THREADS, links: Links | None = None,
               clock_seconds: float = CLOCK_SECONDS,
               notify: NotifySettings | None = None,
               send_notifications: bool = True,
               review: ReviewSettings | None = None,
               run_reviews: bool = True) -> FastAPI:
    """The web app on the database at ``db_url`` (default ``$ENDEAVOR_DB``, else
    ``sqlite:///endeavor.db``), migrated to the latest schema before this returns.

    ``bot_budgets`` overrides bots' budgets by name (``{"hard": {"iterations": 100}}``);
    ``quick_budget`` is how long a request may spend playing quick bots (seconds);
    ``max_body`` the largest request body (bytes); ``poll_seconds`` the WebSocket's
    database poll; ``threads`` how many requests use the database at once (the thread
    pool's size; the PostgreSQL pool holds a connection for each of them and each bot
    thread); ``links`` the public address of links (default: paths, see
    :mod:`endeavor.web.links`); ``clock_seconds`` how often expired deadlines are looked
    for; ``notify`` the notifications' settings (SMTP, private webhooks);
    ``send_notifications`` False leaves sending them to another process
    (:mod:`endeavor.web.jobs`, which ``endeavor serve`` runs); ``review`` the post-game
    reviews' settings (default: none, ``iterations=0``: no review is queued) and
    ``run_reviews`` False leaves running them to another process (the background
    process of ``endeavor serve``; True: a thread of this app runs them, one at a time).
    Raises :class:`endeavor.web.db.DatabaseError` for an unusable database."""
    threads = max(1, int(threads))
    links = links or Links()
    engine = db.make_engine(db_url, pool_size=threads + bot_threads + 3)
    db.upgrade(engine)
    uptime.shift_after_outage(engine)  # before anything reads a deadline
    review_settings = review if review is not None else ReviewSettings(iterations=0)
    store = Store(engine, review_iterations=review_settings.iterations)
    # the seats' last-seen times are written with the heartbeat, every few seconds
    seen = SeenRecorder(engine, write_lock=store._write_lock, deferred=True)
    heartbeat = uptime.Heartbeat(engine, write_lock=store._write_lock, also=seen.flush)
    reviewer = (Reviewer(store, review_settings)
                if run_reviews and review_settings.enabled else None)
    runner_kw: dict[str, Any] = {"budgets": bot_budgets, "threads": bot_threads}
    if quick_budget is not None:
        runner_kw["quick_budget"] = quick_budget
    runner = BotRunner(store, **runner_kw)
    chat = Chat(store)
    announcer = Announcer(store.seqs, poll_seconds, read_chats=chat.versions)
    store.listeners.append(announcer.publish)
    chat.listeners.append(announcer.publish_chat)
    clocks = ClockKeeper(store, runner, clock_seconds)
    notifier = Notifier(store, links, notify or NotifySettings())
    if send_notifications:
        store.listeners.append(notifier.wake)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # the limiter of this event loop's thread pool (the sync endpoints, the poll)
        to_thread.current_default_thread_limiter().total_tokens = threads
        await run_in_threadpool(runner.resume_all)
        clocks.start()
        heartbeat.start()
        if send_notifications:
            notifier.start()
        if reviewer is not None:
            reviewer.start()
        try:
            yield
        finally:
            if reviewer is not None:
                await run_in_threadpool(reviewer.stop)
            await announcer.close()
            await run_in_threadpool(clocks.stop)
            await run_in_threadpool(heartbeat.stop)
            await run_in_threadpool(notifier.stop)
            await run_in_threadpool(runner.stop)
            engine.dispose()

    app = FastAPI(
        title="Endeavor", version=endeavor.__version__, lifespan=lifespan,
        description="Play Endeavor: Age of Sail in the browser. Design and contract: "
                    "docs/web.md. A seat's token (or the host's, for /host endpoints) "
                    "goes in `Authorization: Bearer`.",
        responses={400: {"model": schemas.Problem}, 401: {"model": schemas.Problem},
                   403: {"model": schemas.Problem}, 404: {"model": schemas.Problem},
                   409: {"model": schemas.Problem}, 413: {"model": schemas.Problem}})
    app.state.store = store
    app.state.runner = runner
    app.state.announcer = announcer
    app.state.chat = chat
    app.state.engine = engine
    app.state.threads = threads
    app.state.clocks = clocks
    app.state.notifier = notifier
    app.state.reviewer = reviewer
    app.state.links = links
    app.add_middleware(BodyLimit, limit=max_body)
    hardening.install(app, engine)  # strict JSON, security headers, 503 for the database

    @app.exception_handler(StoreError)
    async def _store_error(_request: Request, e: StoreError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if isinstance(e, Unauthorized) else None
        return JSONResponse({"detail": str(e)}, status_code=e.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException) -> Response:
        # an unknown page gets the app's own page (which says so in words), with 404;
        # the API answers in JSON
        path = route_path(request.scope)
        if (e.status_code == 404 and request.method in ("GET", "HEAD")
                and not path.startswith("/api/") and not path.startswith("/static/")):
            return index(status_code=404)
        detail = e.detail if e.status_code != 404 or e.detail != "Not Found" else (
            f"no such address: {request.method} {request.url.path}")
        return JSONResponse({"detail": detail}, status_code=e.status_code,
                            headers=getattr(e, "headers", None))

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, e: Exception) -> JSONResponse:
        log.error("internal error on %s %s: %s: %s", request.method, request.url.path,
                  type(e).__name__, e, exc_info=e)
        return JSONResponse({"detail": "internal error"}, status_code=500)

    # ------------------------------------------------------------------ helpers
    def seats_of(snap: Snapshot, creds: HTTPAuthorizationCredentials | None,
                 required: bool) -> frozenset[int]:
        """The seats the token plays in the game: 401 for no token when ``required``,
        403 for a token of no seat of this game."""
        return seats_for(snap, creds.credentials if creds is not None else None, required)

    def seats_for(snap: Snapshot, token: str | None, required: bool) -> frozenset[int]:
        """:func:`seats_of` for the token itself (None: no token)."""
        if token is None:
            if required:
                raise Unauthorized("a seat's token is needed: Authorization: Bearer <token>")
            return frozenset()
        seats = snap.meta.seats_of(token)
        if not seats:
            benched = snap.meta.benched_of(token)
            if benched and not required:
                return frozenset()  # the host gave the seat to a bot: the link watches
            raise Forbidden(seating.benched_words(benched[0]) if benched else NOT_A_SEAT)
        return seats

    def token_of(creds: HTTPAuthorizationCredentials | None, what: str = "seat's") -> str:
        return token_of_text(creds.credentials if creds is not None else None, what)

    def token_of_text(token: str | None, what: str = "seat's") -> str:
        if token is None:
            raise Unauthorized(f"a {what} token is needed: Authorization: Bearer <token>")
        return token

    def answer(game_id: str, snap: Snapshot, you: frozenset[int], since: int,
               benched: Sequence[Seat] = ()) -> Response:
        return view_response(snap, you, since, runner.thinking(game_id), benched)

    def _activity(game_id: str) -> dict[int, Activity]:
        seen.flush()  # the seats seen since the last heartbeat, before they are read
        return activity(engine, game_id)

    def panel(snap: Snapshot, host_token: str) -> schemas.HostPanel:
        snap, seats = store.host_panel(snap.meta.id, host_token)
        return host_panel_view(snap, seats, links, host_token,
                               _activity(snap.meta.id))

    # ------------------------------------------------------------------ games
    @app.post("/api/games", status_code=201, response_model=schemas.Created,
              tags=["games"])
    def create_game(body: schemas.CreateGame) -> schemas.Created:
        """A new game: one seat per player (``human``: its own link; ``hotseat``: one
        link shared by the hot-seat seats; ``bot:<name>``: played by the server), an
        optional clock, and the host's link for the creator."""
        created = store.create(body.config, body.seats, body.title, _clock(body.clock),
                               names=body.names)
        runner.after_commit(created.id)
        return _created(created, links)

    @app.post("/api/games/import", status_code=201, response_model=schemas.Created,
              tags=["games"])
    def import_game(body: schemas.ImportGame) -> schemas.Created:
        """A new game continuing a record (as ``GET /api/games/{id}/record`` returns)."""
        created = store.import_record(body.record, body.seats, body.title,
                                     _clock(body.clock), names=body.names)
        runner.after_commit(created.id)
        return _created(created, links)

    def lobby_game(r: Any, more: bool = False) -> dict[str, Any]:
        """A lobby row (``more``: with who plays each seat now and how it ended, as
        "Your games" shows it)."""
        out = {"id": r.id, "title": r.title, "created": r.created,
               "ruleset": r.config.get("ruleset", ""), "players": len(r.seats),
               "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                          **({"played_by": s.played_by} if more else {})}
                         for s in r.seats],
               "seq": r.seq, "status": r.status, "current_player": r.current_player,
               "spectate_url": links.spectate(r.id)}
        if more:
            out["ended"] = r.ended
        result = rematch.result_of(store, r)
        if result is not None:
            out["result"] = result
        return out

    @app.get("/api/games", response_model=schemas.Lobby, tags=["games"],
             response_model_exclude_unset=True)
    def lobby(status: Literal["open", "running", "over"] | None = None,
              limit: Annotated[int, Query(ge=1, le=500)] = 50) -> dict[str, Any]:
        """The lobby, newest first: ``open`` (nothing played yet), ``running``, ``over``."""
        return {"games": [lobby_game(r) for r in store.lobby(status, limit)]}

    @app.post("/api/games/mine", response_model=schemas.MyGames, tags=["games"])
    def my_games(body: schemas.MyGamesRequest) -> dict[str, Any]:
        """"Your games": the games of the seat tokens a browser keeps, each with the
        seats its token plays now (``valid`` false: the link was re-issued, or never was
        a seat's; ``found`` false: no such game) and whether one of them is to move;
        the games where it is your move first, then the newest."""
        rows = store.mine([(g.id, g.token) for g in body.games])
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
                item["game"] = lobby_game(m.row, more=True)
                item["your_move"] = (m.row.current_player is not None
                                     and m.row.current_player in m.you
                                     and m.row.seats[m.row.current_player].played_by is None)
            out.append((not item["your_move"], -(m.row.created.timestamp() if m.row else 0),
                        i, item))
        out.sort(key=lambda t: t[:3])
        return {"games": [t[3] for t in out],
                "your_move": sum(1 for t in out if t[3]["your_move"])}

    def game_for(game_id: str, token: str | None, since: int) -> Response:
        snap = store.snapshot(game_id)
        you = seats_for(snap, token, required=False)
        seen.saw(game_id, you)  # the host panel's "opened 5 min ago"
        return answer(game_id, snap, you, since, snap.meta.benched_of(token) if token else ())

    @app.get("/api/games/{game_id}", response_model=schemas.GameView, tags=["games"])
    def get_game(game_id: GameId, token: Token, since: Since = 0) -> Response:
        """The game as the token's seat(s) see it (no token: a spectator)."""
        return game_for(game_id, token.credentials if token is not None else None, since)

    @app.post("/api/games/{game_id}/actions", response_model=schemas.GameView,
              tags=["play"])
    def play(game_id: GameId, body: schemas.ActionRequest, token: Token,
             since: Since = 0) -> Response:
        """Play an action for the token's seat, at the ``seq`` the client saw. The bots
        that are then to move and play quickly have moved when this returns. The view
        is the game right after the last of these commits (its seq may be past
        ``seq + 1``: the bots' moves)."""
        return play_for(game_id, token.credentials if token is not None else None,
                        body.action, body.seq, since)

    def play_for(game_id: str, token: str | None, action: str, seq: int,
                 since: int) -> Response:
        secret = token_of_text(token)
        snap = store.append(game_id, None, action, seq, token=secret)
        you = snap.meta.seats_of(secret)
        return answer(game_id, runner.after_commit(game_id, snap), you, since)

    @app.post("/api/games/{game_id}/undo", response_model=schemas.GameView, tags=["play"])
    def undo(game_id: GameId, token: Token, body: schemas.UndoRequest | None = None,
             since: Since = 0) -> Response:
        """Take back the token's last decision, if no other seat has acted since."""
        secret = token_of(token)
        snap = store.undo(game_id, None, body.seq if body is not None else None,
                          token=secret)
        you = snap.meta.seats_of(secret)
        return answer(game_id, runner.after_commit(game_id, snap), you, since)

    @app.post("/api/games/{game_id}/reclaim", response_model=schemas.GameView,
              tags=["play"])
    def reclaim(game_id: GameId, token: Token, body: schemas.SeatRequest | None = None,
                since: Since = 0) -> Response:
        """Take your seat back from the bot that took it over when your time ran out
        (when the game's clock allows it)."""
        secret = token_of(token)
        snap = store.snapshot(game_id)
        you = seats_of(snap, token, required=True)
        seat = _one_seat(you, body.seat if body is not None else None)
        snap = store.reclaim(game_id, snap.meta.seats_of(secret), seat)
        return answer(game_id, snap, snap.meta.seats_of(secret), since)

    @app.put("/api/games/{game_id}/name", response_model=schemas.GameView, tags=["play"])
    def name_seat(game_id: GameId, body: schemas.NameRequest, token: Token,
                  since: Since = 0) -> Response:
        """Your seat's name (1-24 characters, no control characters, unique in the
        game): shown to everyone at once, in messages too."""
        secret = token_of(token)
        snap = store.snapshot(game_id)
        seat = _one_seat(seats_of(snap, token, required=True), body.seat)
        snap = store.rename(game_id, seat, body.name, token=secret)
        return answer(game_id, snap, snap.meta.seats_of(secret), since)

    @app.get("/api/games/{game_id}/record", tags=["games"])
    def record(game_id: GameId, with_chat: Annotated[
            bool, Query(alias="chat", description="with the game's chat messages")] = False,
               ) -> dict[str, Any]:
        """The engine's record of the game: ``replay`` rebuilds the same position;
        ``?chat=1``: with the chat's messages (``chat``: those not deleted)."""
        result: dict[str, Any] = store.snapshot(game_id).state.record()
        if with_chat:
            result["chat"] = chat.export(game_id)
        return result

    @app.get("/api/games/{game_id}/replay/{n}", response_model=schemas.GameView,
             tags=["games"])
    def replay_position(game_id: GameId, n: Annotated[int, PathParam(ge=0)],
                        ) -> Response:
        """The spectator's view of the position after the first ``n`` effective actions
        (its ``events``: those of these actions)."""
        return view_response(store.position_after(game_id, n), frozenset())

    # ------------------------------------------------------------------ reviews
    def review_answer(game_id: str) -> Response:
        return Response(reviews.status_json(store, game_id, review_settings.enabled),
                        media_type="application/json")

    @app.get("/api/games/{game_id}/review", response_model=schemas.ReviewView,
             tags=["games"])
    def get_review(game_id: GameId) -> Response:
        """The post-game review of a finished game (for everyone, as its replay): its
        status (``none``, ``queued``, ``running``, ``done``, ``failed``), its progress
        (decisions done of the total) and, once done, the review and each decision's
        moves in words. 409 for a game not over."""
        return review_answer(game_id)

    @app.post("/api/games/{game_id}/review", response_model=schemas.ReviewView,
              tags=["games"])
    def request_review(game_id: GameId) -> Response:
        """Ask for the review of a finished game that has none (one that ended before
        reviews, or whose review failed): queued, then as ``GET``. A game that has one
        (queued, running or done) keeps it. 409 for a game not over, or a server that
        does not review games."""
        reviews.request(store, game_id, review_settings.iterations)
        if reviewer is not None:
            reviewer.wake()
        return review_answer(game_id)

    # ------------------------------------------------------------------ notifications
    def notify_view(game_id: str, you: frozenset[int]) -> dict[str, Any]:
        settings = store.notifications(game_id, you)
        modes = seating.modes(store, game_id, you)
        return {"seats": [{"seat": p, **{c: next((n.target for n in settings
                                                  if n.seat == p and n.channel == c), None)
                                         for c in CHANNELS},
                           **{f"{c}_mode": modes.get((p, c), "turn") for c in CHANNELS}}
                          for p in sorted(you)],
                "email_available": notifier.email_available,
                "digest_hours": notifier.settings.digest_seconds / 3600.0}

    @app.get("/api/games/{game_id}/notify", response_model=schemas.NotifyView,
             tags=["notifications"])
    def get_notify(game_id: GameId, token: Token) -> dict[str, Any]:
        """Your seat's notification settings (webhook URL, e-mail address)."""
        snap = store.snapshot(game_id)
        return notify_view(game_id, seats_of(snap, token, required=True))

    @app.put("/api/games/{game_id}/notify", response_model=schemas.NotifyView,
             tags=["notifications"])
    async def put_notify(game_id: GameId, body: schemas.NotifyRequest, token: Token,
                         ) -> dict[str, Any]:
        """Set or remove (``null``) your seat's webhook and/or e-mail; a field left out
        stays as it is. A webhook on a loopback or private address is refused unless the
        server allows it (its host is looked up on a thread of its own, awaited here:
        a name server that does not answer within a few seconds is a 400, and holds
        none of the threads that serve moves); an e-mail needs the server's SMTP
        settings."""
        secret = token_of(token)
        snap = await run_in_threadpool(store.snapshot, game_id)
        you = seats_of(snap, token, required=True)
        seat = _one_seat(you, body.seat)
        fields = body.model_dump(exclude_unset=True)
        changes: dict[str, str | None] = {}
        if "webhook" in fields:
            changes["webhook"] = (await notifier.check_webhook_async(body.webhook)
                                  if body.webhook else None)
        if "email" in fields:
            changes["email"] = notifier.check_email(body.email) if body.email else None

        def save() -> dict[str, Any]:
            for channel, target in changes.items():
                store.set_notification(game_id, seat, channel, target, secret)
            modes = {c: m for c in CHANNELS if (m := fields.get(f"{c}_mode")) is not None}
            if modes:
                seating.set_modes(store, game_id, seat, modes)
            return notify_view(game_id, you)
        return await run_in_threadpool(save)

    tests = seating.TestSender()

    @app.post("/api/games/{game_id}/notify/test", response_model=schemas.NotifyTestResult,
              tags=["notifications"])
    def test_notify(game_id: GameId, body: schemas.NotifyTestRequest,
                    token: Token) -> dict[str, Any]:
        """Send a test message to your seat's webhook or e-mail now, and say how it
        went (``sent``, or ``failed: ...`` in words). 409 for a channel with no
        address, or a test of the same channel less than 20 s ago."""
        snap = store.snapshot(game_id)
        seat = _one_seat(seats_of(snap, token, required=True), body.seat)
        result = tests.send(notifier, game_id, seat, body.channel)
        return {"seat": seat, "channel": body.channel, "result": result,
                "ok": result == "sent"}

    @app.post("/api/games/{game_id}/presence", response_model=schemas.PresenceView,
              tags=["notifications"])
    def presence(game_id: GameId, body: schemas.PresenceRequest,
                 token: Token) -> dict[str, Any]:
        """The seat's page is open and visible (``visible: true``, every 20 s or so:
        no notifications while it is, for 45 s after the last) or hidden
        (``false``: those held back go out now if the turn is still the seat's)."""
        snap = store.snapshot(game_id)
        you = seats_of(snap, token, required=True)
        until = seating.set_presence(store, game_id, you, body.visible)
        if not body.visible:
            notifier.wake(game_id, snap.seq)
        return {"seats": sorted(you), "visible_until": until}

    @app.delete("/api/games/{game_id}/notify", response_model=schemas.NotifyView,
                tags=["notifications"])
    def delete_notify(game_id: GameId, token: Token,
                      seat: Annotated[int | None, Query(ge=0, le=7)] = None,
                      ) -> dict[str, Any]:
        """Remove your seat's notifications (all channels)."""
        secret = token_of(token)
        snap = store.snapshot(game_id)
        you = seats_of(snap, token, required=True)
        p = _one_seat(you, seat)
        for channel in CHANNELS:
            store.set_notification(game_id, p, channel, None, secret)
        return notify_view(game_id, you)

    # ------------------------------------------------------------------ chat
    @app.get("/api/games/{game_id}/chat", response_model=ChatView, tags=["chat"])
    def get_chat(game_id: GameId, token: Token,
                 after: Annotated[int, Query(ge=0, description="only messages after this id")
                                  ] = 0,
                 limit: Annotated[int, Query(ge=1, le=200)] = 200) -> dict[str, Any]:
        """The game's chat (for everyone who can see the game): the latest ``limit``
        messages after ``after``, oldest first; a deleted message without its body.
        With a seat's token, ``seen``: the last message that seat has read."""
        return chat.listing(game_id, token.credentials if token is not None else None,
                            after, limit)

    @app.post("/api/games/{game_id}/chat", status_code=201, response_model=ChatMessage,
              tags=["chat"], responses={429: {"model": schemas.Problem}})
    def post_chat(game_id: GameId, body: ChatPost, token: Token) -> dict[str, Any]:
        """Write a message for your seat: plain text, 1 to 500 characters, no control
        characters but the newline; at most 5 messages in 10 seconds per seat (429)."""
        return chat.post(game_id, token.credentials if token is not None else None,
                         body.body, body.seat)

    @app.post("/api/games/{game_id}/chat/seen", response_model=ChatSeenView, tags=["chat"])
    def chat_seen(game_id: GameId, body: ChatSeen, token: Token) -> dict[str, Any]:
        """Your seat has read the chat up to message ``upto``: a notification no
        longer carries those messages."""
        seen = chat.mark_seen(game_id, token.credentials if token is not None else None,
                              body.upto, body.seat)
        return {"seen": seen}

    @app.delete("/api/games/{game_id}/chat/{message_id}", response_model=ChatMessage,
                tags=["chat"])
    def delete_chat(game_id: GameId, message_id: Annotated[int, PathParam(ge=1)],
                    token: Token) -> dict[str, Any]:
        """The host deletes a message: it stays in the list, without its body."""
        return chat.delete(game_id, token.credentials if token is not None else None,
                           message_id)


    # ------------------------------------------------------------------ host
    @app.get("/api/games/{game_id}/host", response_model=schemas.HostPanel, tags=["host"])
    def host_get(game_id: GameId, token: Token) -> schemas.HostPanel:
        """The host's panel: every seat with its link, who plays it, the clock."""
        host = token_of(token, "host's")
        snap, seats = store.host_panel(game_id, host)
        return host_panel_view(snap, seats, links, host, _activity(game_id))

    @app.post("/api/games/{game_id}/host/seats/{seat}/reissue",
              response_model=schemas.HostPanel, tags=["host"])
    def host_reissue(game_id: GameId, seat: SeatNo, token: Token) -> schemas.HostPanel:
        """A new link for the seat: the old one stops working at once."""
        host = token_of(token, "host's")
        snap, _ = store.reissue(game_id, host, seat)
        return panel(snap, host)

    @app.post("/api/games/{game_id}/host/seats/{seat}/bot",
              response_model=schemas.HostPanel, tags=["host"])
    def host_bot(game_id: GameId, seat: SeatNo, body: schemas.BotRequest,
                 token: Token) -> schemas.HostPanel:
        """A bot of the given level plays the seat from now on (its link stops
        working; hand the seat back to a person later)."""
        host = token_of(token, "host's")
        snap = store.put_bot(game_id, host, seat, body.bot)
        runner.after_commit(game_id, snap)
        return panel(snap, host)

    @app.post("/api/games/{game_id}/host/seats/{seat}/human",
              response_model=schemas.HostPanel, tags=["host"])
    def host_human(game_id: GameId, seat: SeatNo, token: Token) -> schemas.HostPanel:
        """A person plays the seat again, with a new link (in the answer's seats)."""
        host = token_of(token, "host's")
        snap, _ = store.hand_back(game_id, host, seat)
        return panel(snap, host)

    @app.put("/api/games/{game_id}/host/seats/{seat}/name",
             response_model=schemas.HostPanel, tags=["host"])
    def host_name(game_id: GameId, seat: SeatNo, body: schemas.NameRequest,
                  token: Token) -> schemas.HostPanel:
        """Give the seat a name (1-24 characters, unique in the game); shown to
        everyone at once."""
        host = token_of(token, "host's")
        snap = store.rename(game_id, seat, body.name, host_token=host)
        return panel(snap, host)

    @app.post("/api/games/{game_id}/host/clock", response_model=schemas.HostPanel,
              tags=["host"])
    def host_clock(game_id: GameId, body: schemas.ClockRequest,
                   token: Token) -> schemas.HostPanel:
        """Extend a seat's time (or every seat's: no ``seat``), or stop
        (``paused: true``) and restart the clocks."""
        host = token_of(token, "host's")
        if (body.extend is None) == (body.paused is None):
            raise BadRequest("give either extend (seconds, with an optional seat) or "
                             "paused (true or false)")
        if body.extend is not None:
            snap = store.extend(game_id, host, body.extend, body.seat)
        else:
            snap = store.pause(game_id, host, bool(body.paused))
        return panel(snap, host)

    @app.post("/api/games/{game_id}/host/end", response_model=schemas.HostPanel,
              tags=["host"])
    def host_end(game_id: GameId, token: Token) -> schemas.HostPanel:
        """End an abandoned game: the score pad is counted as the game stands."""
        host = token_of(token, "host's")
        snap = store.end(game_id, host)
        return panel(snap, host)

    @app.get("/api/meta", response_model=schemas.Meta, tags=["meta"])
    def meta() -> schemas.Meta:
        """Rulesets, boards, Exploits, bots and phase orders: the new-game form's
        choices."""
        return meta_view(max_body, notifier.email_available)

    guide_body = _dumps(schemas.Guide(**guide.guide()).model_dump())

    @app.get("/api/guide", response_model=schemas.Guide, tags=["meta"])
    def rules_guide() -> Response:
        """The How to play page's tables, from the rulesets' data: buildings by level,
        the status tracks, the Exploits' rules and Shields."""
        return Response(guide_body, media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    # ------------------------------------------------------------------ websocket
    @app.websocket("/api/games/{game_id}/ws")
    async def follow(websocket: WebSocket, game_id: str) -> None:
        """``{"seq": N}`` at once and whenever the game's seq grows; ``{"chat": N,
        "deleted": D}`` (the chat's version, see chat.py) at once when the game has a
        chat and whenever a message is posted or deleted. Closes with code 4404 for an
        unknown game. Messages from the client are ignored."""
        await websocket.accept()
        sub = announcer.subscribe(game_id)
        receiver: asyncio.Task[None] | None = None
        try:
            seq, chat_version = await run_in_threadpool(
                lambda: (store.seq(game_id), chat.version(game_id)))
            if seq is None:
                await websocket.close(code=4404, reason="no such game")
                return
            sub.offer(seq)
            sub.offer_chat(chat_version)
            receiver = asyncio.create_task(_until_disconnect(websocket))
            sent = -1
            chat_sent = (0, 0)
            while True:
                waiter = asyncio.create_task(sub.changed.wait())
                done, _ = await asyncio.wait({waiter, receiver},
                                             return_when=asyncio.FIRST_COMPLETED)
                if receiver in done:
                    waiter.cancel()
                    return
                sub.changed.clear()
                if sub.latest > sent:
                    sent = sub.latest
                    await websocket.send_json({"seq": sent})
                if sub.chat != chat_sent:
                    chat_sent = sub.chat
                    await websocket.send_json({"chat": chat_sent[0], "deleted": chat_sent[1]})
        except Exception as e:  # the client went away mid-send, or the loop is closing
            log.debug("websocket for game %s ended: %s", game_id, e)
        finally:
            announcer.unsubscribe(sub)
            if receiver is not None:
                receiver.cancel()

    rematch.install(app, store, links, runner.after_commit)

    # ------------------------------------------------------------------ front end
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    def index(status_code: int = 200) -> Response:
        """The front end's page, its ``<base href>`` on the app's path (``/`` or the
        public URL's prefix, so every path of the page resolves under it)."""
        page = STATIC / "index.html"
        try:
            html = page.read_text(encoding="utf-8")
        except OSError:
            return HTMLResponse(_PLACEHOLDER.replace('"/docs"', f'"{links.prefix}/docs"'),
                                status_code=status_code)
        html = html.replace('<base href="/">', f'<base href="{links.prefix}/">', 1)
        return HTMLResponse(html, status_code=status_code,
                            headers={"Cache-Control": "no-cache"})

    def page() -> Response:
        return index()

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    # ------------------------------------------------------------------ the hot path
    # a move's POST and the views' GET, in front of their FastAPI routes (which answer
    # whatever these do not read exactly as they would: see fastroute.py)
    async def fast_game(params: dict[str, Any], since: int, token: str | None,
                        _body: Any) -> Response:
        return await run_in_threadpool(game_for, params["game_id"], token, since)

    async def fast_play(params: dict[str, Any], since: int, token: str | None,
                        body: Any) -> Response:
        try:
            request = schemas.ActionRequest.model_validate(body)
        except ValidationError:
            raise Fallback from None
        return await run_in_threadpool(play_for, params["game_id"], token, request.action,
                                       request.seq, since)

    def api_route(path: str, method: str) -> APIRoute:
        return next(r for r in app.router.routes if isinstance(r, APIRoute)
                    and r.path == path and method in (r.methods or ()))

    id_limit = {"game_id": GAME_ID_MAX}
    app.router.routes[:0] = [
        FastRoute(api_route("/api/games/{game_id}/actions", "POST"), "POST", fast_play,
                  body=True, max_lengths=id_limit),
        FastRoute(api_route("/api/games/{game_id}", "GET"), "GET", fast_game,
                  max_lengths=id_limit)]

    if links.prefix:  # the first segments of the app's own paths: /api, /play, /docs...
        own = {str(getattr(r, "path", "")).lstrip("/").split("/", 1)[0] for r in app.routes}
        app.add_middleware(PathPrefix, prefix=links.prefix, own=own)
    return app


def _clock(spec: schemas.ClockSpec | None) -> dict[str, Any] | None:
    return spec.model_dump() if spec is not None else None


def _one_seat(you: frozenset[int], seat: int | None) -> int:
    """The seat a request is about: ``seat`` if the token plays it, else the token's
    only seat (a hot-seat token must say which)."""
    if seat is not None:
        if seat not in you:
            raise Forbidden(f"this link is not P{seat}'s")
        return seat
    if len(you) != 1:
        raise BadRequest("this link plays several seats: say which (seat)")
    return next(iter(you))


async def _until_disconnect(websocket: WebSocket) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


def threads_from_env() -> int:
    """``$ENDEAVOR_THREADS`` (a positive integer), else :data:`THREADS`."""
    raw = os.environ.get(THREADS_VAR, "").strip()
    if not raw:
        return THREADS
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        log.warning("ignoring %s=%r: not a positive integer", THREADS_VAR, raw)
        return THREADS
    return value


def tune_gc(thresholds: tuple[int, int, int] = GC_THRESHOLDS) -> None:
    """Set up the garbage collector of a server process, once its app is built: what
    exists now (modules, the app) is moved out of the collector's sight for good
    (``gc.freeze``), and :data:`GC_THRESHOLDS` make collections rarer, so a full one
    (~100 ms and more with a few hundred games cached) no longer comes every few
    seconds under load. Cyclic garbage is still collected, just later."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def app_from_env() -> FastAPI:
    """The app on ``$ENDEAVOR_DB`` (Uvicorn's factory for ``--workers N``), with
    ``$ENDEAVOR_THREADS`` threads, in a process whose collector :func:`tune_gc` set."""
    app = create_app(None, threads=threads_from_env(), links=Links.from_env(),
                     notify=NotifySettings.from_env(),
                     send_notifications=os.environ.get(SENDER_VAR) != "background",
                     review=ReviewSettings.from_env(),
                     run_reviews=os.environ.get(reviews.RUNNER_VAR) != "background")
    tune_gc()
    return app
