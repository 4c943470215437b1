"""The app's pages under their Content-Security-Policy, in Chromium: another site cannot
show them in a frame (clickjacking), and the app itself runs with no inline script and
follows a game live over its WebSocket (CSP3's ``connect-src 'self'`` covers ws:)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import Server, _free_port


class _Pages(http.server.BaseHTTPRequestHandler):
    """Serves ``pages[path]`` as HTML (another origin: its own port)."""

    pages: dict[str, str] = {}

    def do_GET(self) -> None:  # noqa: N802
        body = self.pages.get(self.path.split("#")[0], "").encode()
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


@pytest.fixture
def other_site() -> Iterator[tuple[str, dict[str, str]]]:
    """A tiny web server on another port: (its URL, the pages it serves by path)."""
    pages: dict[str, str] = {}
    handler = type("Handler", (_Pages,), {"pages": pages})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", _free_port()), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", pages
    finally:
        httpd.shutdown()
        httpd.server_close()


def _csp_messages(page: Any) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text)
            if "Content Security Policy" in m.text or "X-Frame-Options" in m.text else None)
    return messages


def test_another_site_cannot_frame_the_app(server: Server, browser: Any,
                                           other_site: tuple[str, dict[str, str]]) -> None:
    """A page of another origin frames a seat's link (token and all) beside a page of its
    own: its own shows, the app's is refused by the browser (an error page, nothing of
    the app in it)."""
    game = server.create(["human", "human"], players=2, seed=1)
    seat_url = f"{server.url}/play/{game['id']}#{game['seats'][0]['token']}"
    site, pages = other_site
    pages["/inner.html"] = '<p id="inner">framed fine</p>'
    pages["/evil.html"] = (
        '<!doctype html><title>evil</title>'
        f'<iframe name="control" src="{site}/inner.html"></iframe>'
        f'<iframe name="app" src="{seat_url}"></iframe>')
    context = browser.new_context()  # its own: the refusals are console errors here
    try:
        page = context.new_page()
        refusals = _csp_messages(page)
        page.goto(f"{site}/evil.html")
        page.wait_for_load_state("load")
        page.wait_for_timeout(500)  # time to draw the app, were it allowed to
        control, app = page.frame(name="control"), page.frame(name="app")
        assert control is not None and app is not None
        assert control.inner_text("#inner") == "framed fine"  # framing works...
        assert not app.url.startswith(server.url), app.url  # ...not for the app
        assert app.query_selector("main#app") is None
        assert app.query_selector("[data-testid=board]") is None
        assert any("frame-ancestors" in m or "X-Frame-Options" in m for m in refusals), \
            refusals
    finally:
        context.close()


def test_the_app_runs_and_goes_live_under_its_csp(server: Server, page: Any) -> None:
    """A spectator's screen (scripts, styles, the board) with no CSP complaint, updated
    by the WebSocket when a seat moves through the API."""
    complaints = _csp_messages(page)
    sockets: list[Any] = []
    frames: list[str] = []

    def opened(ws: Any) -> None:
        sockets.append(ws)
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", opened)
    game = server.create(["human", "human"], players=2, seed=2)
    gid = game["id"]
    page.goto(f"{server.url}/game/{gid}")
    page.wait_for_selector("[data-testid=board]")
    page.wait_for_function("() => document.querySelector('#app').dataset.seq === '0'")
    toks = {s["seat"]: s["token"] for s in game["seats"]}
    view = server.get(f"/api/games/{gid}", toks[0])
    seat = view["current_player"]
    view = server.get(f"/api/games/{gid}", toks[seat])
    server.request("POST", f"/api/games/{gid}/actions",
                   {"action": view["legal_actions"][0], "seq": 0}, toks[seat])
    page.wait_for_function("() => document.querySelector('#app').dataset.seq === '1'")
    assert sockets and sockets[0].url.startswith("ws://")
    assert any('"seq":1' in f.replace(" ", "") for f in frames), frames
    assert complaints == []
