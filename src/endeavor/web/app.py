"""The FastAPI application: the HTTP API of docs/web.md, the WebSocket announcing each
game's ``seq``, the front end's static files, the error handlers and the request-size
limit, assembled from :mod:`endeavor.web.routes`.

``create_app(db_url)`` builds one app on one database (migrated to head first);
``app_from_env()`` is the factory Uvicorn's workers call (``uvicorn --factory
endeavor.web.app:app_from_env``), reading the URL from ``$ENDEAVOR_DB``.

Endpoints that touch the database are plain ``def`` functions (FastAPI runs them in its
thread pool); their dependencies only read the request and are ``async``, so a request
takes one trip to the thread pool.
"""

from __future__ import annotations

import gc
import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, Final

from anyio import to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

import endeavor

from . import accounts, db, hardening, rematch, reviews, schemas, uptime
from .accounts.maillinks import MailLinks
from .accounts.notifying import AccountNotify
from .bots import BotRunner
from .chat import Chat
from .clocks import INTERVAL_SECONDS as CLOCK_SECONDS
from .clocks import ClockKeeper
from .compute import ENGINE_PYTHON_VAR, Engines
from .jobs import SENDER_VAR
from .lastseen import SeenRecorder
from .links import Links
from .notify import Notifier, NotifySettings
from .ratings import Rater
from .reviews import Reviewer, ReviewSettings
from .routes import ROUTERS, errors, games, pages
from .routes.accountmail import AccountMailApp
from .routes.accounts import AccountsApp
from .routes.announce import POLL_SECONDS, Announcer
from .routes.encode import (
    POSITIONS,
    PositionEncoder,
    game_view_json,
    host_panel_view,
    log_view,
    meta_view,
    view_response,
)
from .routes.middleware import MAX_BODY, BodyLimit, PathPrefix, route_path
from .routes.pages import PAGES, STATIC
from .routes.state import GAME_ID_MAX, AppState, GameId, SeatNo, Since, Token
from .store import Store

__all__ = ["GAME_ID_MAX", "GC_THRESHOLDS", "MAX_BODY", "PAGES", "POLL_SECONDS", "POSITIONS",
           "STATIC", "THREADS", "THREADS_VAR", "Announcer", "BodyLimit", "GameId",
           "PathPrefix", "PositionEncoder", "SeatNo", "Since", "Token", "app_from_env",
           "create_app", "game_view_json", "host_panel_view", "log_view", "meta_view",
           "route_path", "threads_from_env", "tune_gc", "view_response"]

log = logging.getLogger("endeavor.web")

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

_DESCRIPTION = ("Play Endeavor: Age of Sail in the browser. Design and contract: "
                "docs/web.md. A seat's token (or the host's, for /host endpoints) "
                "goes in `Authorization: Bearer`.")
_PROBLEMS = {status: {"model": schemas.Problem} for status in (400, 401, 403, 404, 409, 413)}


def create_app(db_url: str | None = None, *,
               bot_budgets: Mapping[str, Mapping[str, Any]] | None = None,
               quick_budget: float | None = None, max_body: int = MAX_BODY,
               poll_seconds: float = POLL_SECONDS, bot_threads: int = 2,
               threads: int = THREADS, links: Links | None = None,
               clock_seconds: float = CLOCK_SECONDS,
               notify: NotifySettings | None = None,
               send_notifications: bool = True,
               review: ReviewSettings | None = None,
               run_reviews: bool = True, engine_python: str | None = None) -> FastAPI:
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
    process of ``endeavor serve``; True: a thread of this app runs them, one at a time);
    ``engine_python`` where the search bots' moves and the reviews are computed
    (:class:`endeavor.web.compute.Engines`: ``auto``, ``pure`` or an interpreter's path;
    None: in this process, with no engine workers).
    Raises :class:`endeavor.web.db.DatabaseError` for an unusable database."""
    web = _parts(db_url, bot_budgets, quick_budget, max_body, poll_seconds, bot_threads,
                 max(1, int(threads)), links or Links(), clock_seconds, notify,
                 send_notifications, review, run_reviews, engine_python)
    app = FastAPI(title="Endeavor", version=endeavor.__version__, lifespan=_lifespan,
                  description=_DESCRIPTION, responses=_PROBLEMS)  # type: ignore[arg-type]
    app.state.web = web
    users = accounts.Accounts(web.store)
    app.state.accounts = AccountsApp(users, accounts.SeatClaims(users))
    app.state.account_mail = AccountMailApp(AccountNotify(web.store), MailLinks(users))
    for name in ("store", "runner", "announcer", "chat", "engine", "threads", "clocks",
                 "notifier", "reviewer", "links", "rater"):  # what tests and tools look at
        setattr(app.state, name, getattr(web, name))
    app.add_middleware(BodyLimit, limit=max_body)
    hardening.install(app, web.engine)  # strict JSON, security headers, 503 for the database
    errors.install(app)
    for router in ROUTERS:
        app.include_router(router)
    rematch.install(app, web.store, web.links, web.runner.after_commit)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    pages.guide_body()  # made now rather than by the first request
    games.install_fast_routes(app)
    if web.links.prefix:  # the first segments of the app's own paths: /api, /play, /docs...
        routes = [*app.routes, *(r for router in ROUTERS for r in router.routes)]
        own = {str(getattr(r, "path", "")).lstrip("/").split("/", 1)[0] for r in routes}
        app.add_middleware(PathPrefix, prefix=web.links.prefix, own=own)
    return app


def _parts(db_url: str | None, bot_budgets: Mapping[str, Mapping[str, Any]] | None,
           quick_budget: float | None, max_body: int, poll_seconds: float,
           bot_threads: int, threads: int, links: Links, clock_seconds: float,
           notify: NotifySettings | None, send_notifications: bool,
           review: ReviewSettings | None, run_reviews: bool,
           engine_python: str | None) -> AppState:
    """The app's parts (see :func:`create_app`), the database migrated."""
    engine = db.make_engine(db_url, pool_size=threads + bot_threads + 3)
    db.upgrade(engine)
    uptime.shift_after_outage(engine)  # before anything reads a deadline
    review_settings = review if review is not None else ReviewSettings(iterations=0)
    store = Store(engine, review_iterations=review_settings.iterations)
    # the seats' last-seen times are written with the heartbeat, every few seconds
    seen = SeenRecorder(engine, write_lock=store.write_lock, deferred=True)
    runner_kw: dict[str, Any] = {"budgets": bot_budgets, "threads": bot_threads,
                                 "engines": (Engines(engine_python)
                                             if engine_python is not None else None)}
    if quick_budget is not None:
        runner_kw["quick_budget"] = quick_budget
    runner = BotRunner(store, **runner_kw)
    chat = Chat(store)
    announcer = Announcer(store.seqs, poll_seconds, read_chats=chat.versions)
    store.listeners.append(announcer.publish)
    chat.listeners.append(announcer.publish_chat)
    notifier = Notifier(store, links, notify or NotifySettings())
    if send_notifications:
        store.listeners.append(notifier.wake)
    rater = Rater(store)
    store.listeners.append(rater.wake)
    return AppState(
        store=store, engine=engine, runner=runner, chat=chat, announcer=announcer,
        clocks=ClockKeeper(store, runner, clock_seconds), notifier=notifier,
        reviewer=(Reviewer(store, review_settings, engines=(
                      Engines(engine_python, nice=review_settings.nice)
                      if engine_python is not None else None))
                  if run_reviews and review_settings.enabled else None),
        review=review_settings, seen=seen, links=links, threads=threads,
        max_body=max_body, send_notifications=send_notifications,
        heartbeat=uptime.Heartbeat(engine, write_lock=store.write_lock, also=seen.flush),
        rater=rater)


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's threads started (the bots, the clocks, the heartbeat, the sender and
    the reviewer of this process), and stopped when it stops."""
    web: AppState = app.state.web
    # the limiter of this event loop's thread pool (the sync endpoints, the poll)
    to_thread.current_default_thread_limiter().total_tokens = web.threads
    await run_in_threadpool(web.runner.resume_all)
    web.clocks.start()
    web.heartbeat.start()
    if web.send_notifications:
        web.notifier.start()
    if web.reviewer is not None:
        web.reviewer.start()
    if web.rater is not None:
        web.rater.start()
    try:
        yield
    finally:
        if web.rater is not None:
            await run_in_threadpool(web.rater.stop)
        if web.reviewer is not None:
            await run_in_threadpool(web.reviewer.stop)
            if web.reviewer.engines is not None:
                web.reviewer.engines.close()
        await web.announcer.close()
        await run_in_threadpool(web.clocks.stop)
        await run_in_threadpool(web.heartbeat.stop)
        await run_in_threadpool(web.notifier.stop)
        await run_in_threadpool(web.runner.stop)
        web.engine.dispose()


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
                     run_reviews=os.environ.get(reviews.RUNNER_VAR) != "background",
                     engine_python=os.environ.get(ENGINE_PYTHON_VAR, "auto"))
    tune_gc()
    return app
