"""Browser tests of the web app: the real server in a subprocess, driven by Playwright
through Debian's Chromium.

Skipped (with the reason) when ``/usr/bin/chromium`` or Playwright is missing, unless the
environment variable ``CI`` is set, in which case that is a failure. Screenshots of the
main screens go to ``$ENDEAVOR_SCREENSHOTS`` when it names a directory (the repository's
are in ``docs/screenshots/``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu",
               "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1440, "height": 900}


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _die_with_parent() -> None:
    """Run in the server's process before it starts: on Linux, the kernel sends it
    SIGTERM when the test process dies, even by SIGKILL (a timeout's kill), so that no
    server outlives its tests holding a port and a database. Elsewhere, nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    pr_set_pdeathsig = 1
    ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


class Server:
    """``endeavor serve`` on a free port with a fresh SQLite database; it stops with the
    test process, however that ends."""

    def __init__(self, tmp: Path, args: tuple[str, ...] = ()) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / "server.log"
        launch = "import sys; from endeavor.cli import main; sys.exit(main())"
        cmd = [sys.executable, "-c", launch, "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", f"sqlite:///{tmp / 'browser.db'}", *args]
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=_die_with_parent)
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/api/meta")
                return
            except (urllib.error.URLError, ConnectionError, OSError) as e:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the server did not start:\n"
                                       + self.log_path.read_text(errors="replace")[-3000:]
                                       ) from e
                time.sleep(0.2)

    def request(self, method: str, path: str, body: Any = None,
                token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read() or b"null")

    def get(self, path: str, token: str | None = None) -> Any:
        return self.request("GET", path, token=token)

    def create(self, seats: list[str], *, title: str | None = None,
               clock: dict[str, Any] | None = None, **config: Any) -> dict[str, Any]:
        """A game through the API (``POST /api/games``)."""
        body: dict[str, Any] = {"config": config, "seats": seats}
        if title is not None:
            body["title"] = title
        if clock is not None:
            body["clock"] = clock
        out: dict[str, Any] = self.request("POST", "/api/games", body)
        return out

    def status(self, method: str, path: str, token: str | None = None,
               body: Any = None) -> int:
        """The HTTP status of a request (errors included)."""
        try:
            self.request(method, path, body, token=token)
        except urllib.error.HTTPError as e:
            return e.code
        return 200

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    # no post-game reviews here (test_review_browser.py has its own server): they would
    # take the cores from the pages under test
    srv = Server(tmp_path_factory.mktemp("browser-server"), ("--review-iterations", "0"))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def private_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A second server that accepts webhooks on private addresses and can send e-mail
    (to an SMTP port where nothing listens: what it would send fails, which these tests
    do not look at)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    srv = Server(tmp_path_factory.mktemp("private-server"),
                 ("--allow-private-webhooks", "--smtp", "smtp://127.0.0.1:9",
                  "--mail-from", "endeavor@example.org", "--review-iterations", "0"))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (its own storage); JavaScript errors and anything the page's
    Content-Security-Policy refuses fail the test."""
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text)
          if "Content Security Policy" in m.text else None)
    pg.set_default_timeout(15_000)
    try:
        yield pg
    finally:
        context.close()
    assert not errors, errors


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """``new_page(**context_options)``: a page in a browser context of its own (another
    browser, as far as the app can tell: its own storage); JavaScript errors fail the
    test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        context = browser.new_context(viewport=options.pop("viewport", VIEWPORT), **options)
        contexts.append(context)
        pg = context.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.set_default_timeout(15_000)
        return pg

    try:
        yield make
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


@pytest.fixture
def shot() -> Any:
    """``shot(page, "lobby")`` saves a screenshot when ``$ENDEAVOR_SCREENSHOTS`` is set."""
    target = os.environ.get("ENDEAVOR_SCREENSHOTS")

    def save(pg: Any, name: str, full_page: bool = False) -> None:
        if target:
            Path(target).mkdir(parents=True, exist_ok=True)
            pg.screenshot(path=str(Path(target) / f"{name}.png"), full_page=full_page)

    return save


def sticking_out(page: Any, width: int) -> list[str]:
    """The deepest elements whose right edge passes ``width`` (the screen's: a phone's
    window grows to fit what sticks out) as tag, class, test id, right edge and text, to
    say what made a page wider than the screen."""
    return list(page.evaluate("""(innerWidth) => {
      const out = [];
      for (const el of document.querySelectorAll("body *")) {
        const r = el.getBoundingClientRect();
        if (r.right <= innerWidth + 1 || r.width === 0) continue;
        const right = (c) => c.getBoundingClientRect().right > innerWidth + 1;
        const inner = [...el.children].some(right);
        if (inner) continue;
        out.push(`${el.tagName.toLowerCase()}.${el.className} [${el.dataset.testid || ""}] `
          + `right ${Math.round(r.right)}: ${(el.textContent || "").trim().slice(0, 80)}`);
      }
      return out.slice(0, 12);
    }""", width))


def open_imported(server: Server, page: Any, record: dict[str, Any]) -> None:
    """Import ``record`` with a person in seat 0 and random bots in the others, and open
    seat 0's page until its board and its options show."""
    seats = ["human"] + ["bot:random"] * (record["config"]["players"] - 1)
    created = server.request("POST", "/api/games/import", {"record": record, "seats": seats})
    page.goto(server.url + created["seats"][0]["url"])
    page.wait_for_selector("[data-testid=board]")
    page.wait_for_selector("[data-testid=option]")
