"""The browser app behind docs/deploy.md's nginx at a path prefix, in Chromium: the lobby
at ``https://127.0.0.1:<nginx>/endeavor/``, a game against a bot created on the New-game
page, a move played; every request the page makes (scripts, styles, the API, the
WebSocket) stays under the prefix on the public address, and none fails."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import deploydoc
import pytest
from deploydoc import Proxied
from test_browser import click_something, seq, wait_my_turn_or_end


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    tmp = tmp_path_factory.mktemp("browser-proxy")
    with deploydoc.proxied(tmp, f"sqlite:///{tmp / 'games.db'}") as p:
        yield p


def public_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A browser context of its own, its page, and the page's JavaScript errors."""
    # the test's certificate is its own: Chromium does not know its issuer
    context = browser.new_context(viewport={"width": 1400, "height": 900},
                                  ignore_https_errors=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def test_a_game_against_a_bot_behind_the_proxy(proxy: Proxied, browser: Any,
                                               tmp_path: Path) -> None:
    public = proxy.public_url
    context, page, errors = public_page(browser)
    requests: list[str] = []
    failed: list[str] = []
    sockets: list[str] = []
    frames: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.url}: {r.status}"))

    def follow(ws: Any) -> None:
        sockets.append(ws.url)
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", follow)
    try:
        page.goto(public + "/")
        page.click("[data-testid=new-game]")
        page.wait_for_selector("[data-testid=create]")
        assert page.url == public + "/new"
        page.select_option("[data-testid=players]", "2")
        page.select_option("[data-testid=seat-1]", "bot:random")
        page.click("[data-testid=create]")
        page.wait_for_selector("[data-testid=created]")
        mine = page.input_value("[data-testid=link-0]")
        assert mine.startswith(f"{public}/play/") and "#" in mine, mine
        assert page.input_value("[data-testid=link-spectate]").startswith(f"{public}/game/")
        page.click("[data-testid=open-seat]")
        page.wait_for_selector("[data-testid=board]")
        assert page.url == mine
        assert wait_my_turn_or_end(page)
        before = seq(page)
        click_something(page, random.Random(1))
        assert seq(page) > before
        for _ in range(50):  # the game's WebSocket announced a seq through the proxy
            if any('"seq"' in f for f in frames):
                break
            page.wait_for_timeout(100)
    finally:
        context.close()
    assert not errors, errors
    assert not failed, failed
    outside = [u for u in requests if not u.startswith(public + "/")]
    assert not outside, outside
    assert any(u.startswith(f"{public}/static/") and u.endswith(".js") for u in requests)
    assert any(u.startswith(f"{public}/api/games/") for u in requests)
    wss = f"wss://127.0.0.1:{proxy.https_port}/endeavor/api/games/"
    assert sockets and all(u.startswith(wss) for u in sockets), sockets
    assert any('"seq"' in f for f in frames), frames


def test_an_account_behind_the_proxy(proxy: Proxied, browser: Any) -> None:
    """Signing up on the account page behind the proxy: Chromium keeps the session's
    cookie as HttpOnly (no script reads it), SameSite=Lax, Secure (the public URL is
    https) and on the prefix's path, and the next page is signed in."""
    public = proxy.public_url
    context, page, errors = public_page(browser)
    try:
        page.goto(public + "/account")
        page.fill("[data-testid=signup-name]", "Proxied Ann")
        page.fill("[data-testid=signup-password]", "correct horse battery")
        page.click("[data-testid=signup]")
        page.wait_for_selector("[data-testid=account-signed-in]")
        assert page.url == public + "/account"
        cookies = [c for c in context.cookies() if c["name"] == "endeavor_session"]
        assert len(cookies) == 1, context.cookies()
        cookie = cookies[0]
        assert (cookie["httpOnly"], cookie["secure"], cookie["sameSite"], cookie["path"]) == (
            True, True, "Lax", "/endeavor"), cookie
        assert "endeavor_session" not in page.evaluate("() => document.cookie")
        page.goto(public + "/")
        page.wait_for_selector("[data-testid=account-link][data-signed-in='1']")
        assert page.inner_text("[data-testid=account-link]") == "Proxied Ann"
    finally:
        context.close()
    assert not errors, errors
