"""The front end's pages (each path the front end routes by itself serves its
``index.html``), the new-game form's choices (``/api/meta``), the rules guide's tables
(``/api/guide``) and the server's version and engine build (``/api/status``)."""

from __future__ import annotations

import functools
from html import escape as html_escape
from pathlib import Path
from typing import Final

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response
from starlette.requests import Request

import endeavor

from .. import guide, schemas
from ..compute import EngineStatus, local_status
from .encode import dumps, meta_view
from .state import AppState, Locale, Web, state_of

STATIC: Final = Path(__file__).resolve().parent.parent / "static"
#: paths the front end routes by itself: each serves index.html
PAGES: Final = ("/", "/new", "/rules", "/play/{game_id}", "/game/{game_id}", "/host/{game_id}",
                "/replay/{game_id}", "/replay/{game_id}/{n}",
                "/account", "/account/games", "/account/reset",
                "/account/notifications", "/account/link",
                "/leaderboard", "/leaderboard/{family}", "/players/{name}")

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Endeavor</title></head>
<body><h1>Endeavor</h1><p>The front end is not installed (no
<code>endeavor/web/static/index.html</code>). The HTTP API is at
<a href="/docs">/docs</a>.</p></body></html>
"""

router = APIRouter()


@router.get("/api/meta", response_model=schemas.Meta, tags=["meta"])
def meta(web: Web) -> schemas.Meta:
    """Rulesets, boards, Exploits, bots and phase orders: the new-game form's
    choices."""
    return meta_view(web.max_body, web.notifier.email_available)


@router.get("/api/status", response_model=schemas.Status, tags=["meta"])
def status(web: Web) -> schemas.Status:
    """The server's version and which build of the engine computes its search bots'
    moves and its reviews now: ``compiled`` (mypyc) or ``pure`` Python, and where the
    compiled build stands (being built, failed...)."""
    return schemas.Status(version=endeavor.__version__, engine=schemas.EngineView.model_validate(
        engine_status(web).to_dict()))


@functools.cache
def guide_body(locale: str = "en") -> bytes:
    """``/api/guide``'s answer in ``locale``'s words, made once per process and locale
    (the app builder makes the English one)."""
    return dumps(schemas.Guide(**guide.guide(locale)).model_dump())


@router.get("/api/guide", response_model=schemas.Guide, tags=["meta"])
def rules_guide(locale: Locale) -> Response:
    """The How to play page's tables, from the rulesets' data: buildings by level,
    the status tracks, the Exploits' rules and Shields, in the reader's language
    (``?lang=`` or Accept-Language)."""
    return Response(guide_body(locale), media_type="application/json",
                    headers={"Cache-Control": "no-cache"})


def index(request: Request, status_code: int = 200) -> Response:
    """The front end's page, its ``<base href>`` on the app's path (``/`` or the
    public URL's prefix, so every path of the page resolves under it)."""
    prefix = state_of(request).links.prefix
    page = STATIC / "index.html"
    try:
        html = page.read_text(encoding="utf-8")
    except OSError:
        return HTMLResponse(_PLACEHOLDER.replace('"/docs"', f'"{prefix}/docs"'),
                            status_code=status_code)
    html = html.replace('<base href="/">', f'<base href="{prefix}/">', 1)
    html = html.replace(FOOTER, footer(state_of(request)), 1)
    return HTMLResponse(html, status_code=status_code, headers={"Cache-Control": "no-cache"})


#: index.html's footer, which :func:`footer` fills in
FOOTER: Final = ('<footer class="site-footer muted" id="site-footer" '
                 'data-testid="site-footer"></footer>')


def engine_status(web: AppState) -> EngineStatus:
    """Which build computes ``web``'s search bots' moves and reviews now."""
    engines = web.runner.engines
    return engines.status() if engines is not None else local_status()


def footer(web: AppState) -> str:
    """The page's footer: the version and the engine's build, as ``/api/status`` says
    (written into the page, so that no request of its own can be cut short)."""
    engine = engine_status(web)
    return FOOTER.replace('data-testid="site-footer">', (
        f'data-testid="site-footer" data-build="{engine.build}">Endeavor '
        f'{html_escape(endeavor.__version__)} · engine: {html_escape(engine.text)}'), 1)


def _page(request: Request) -> Response:
    return index(request)


for _path in PAGES:
    router.add_api_route(_path, _page, methods=["GET"], include_in_schema=False)
