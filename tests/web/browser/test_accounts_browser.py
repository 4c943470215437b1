"""The account pages in Chromium: sign up in one browser, open a seat's link there and
claim it (asked first; "Not now" is remembered), sign in from a second browser and find
the game under Your games, and open it from there; signing out everywhere ends the other
browser's session; a form or a fetch from a page served on another port is refused and
changes nothing; a password reset from an admin's link; the account deleted; the
e-mail buttons; the pages in French, and at a phone's size."""

from __future__ import annotations

import itertools
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from test_french_browser import EnglishFound
from test_phone import PHONE, later_for_the_name

from conftest import Server

PASSWORD = "correct horse battery"
_names = itertools.count(1)


def fresh_name(base: str) -> str:
    """A name no other test of the shared server took."""
    return f"{base}{next(_names)}"


def ready(page: Any) -> None:
    page.wait_for_function("() => document.body.dataset.ready === '1'")


def sign_up(page: Any, server: Server, name: str) -> None:
    page.goto(server.url + "/account")
    page.fill("[data-testid=signup-name]", name)
    page.fill("[data-testid=signup-password]", PASSWORD)
    page.click("[data-testid=signup]")
    page.wait_for_selector("[data-testid=account-signed-in]")
    assert page.inner_text("[data-testid=account-name]") == name


def sign_in(page: Any, server: Server, name: str, password: str = PASSWORD) -> None:
    page.goto(server.url + "/account")
    page.fill("[data-testid=signin-name]", name)
    page.fill("[data-testid=signin-password]", password)
    page.click("[data-testid=signin]")
    page.wait_for_selector("[data-testid=account-signed-in]")


def header_says(page: Any) -> str:
    page.wait_for_selector("[data-testid=account-link]")
    ready(page)
    page.wait_for_timeout(200)  # who is signed in is asked after the page is drawn
    return str(page.inner_text("[data-testid=account-link]"))


def bot_game(server: Server, title: str = "Against a bot") -> dict[str, Any]:
    return server.create(["human", "bot:random"], players=2, seed=7, title=title)


def seat_names(server: Server, game_id: str) -> list[str]:
    return [s["name"] for s in server.get(f"/api/games/{game_id}")["seats"]]


def test_a_claimed_seat_is_under_your_games_in_another_browser(
        server: Server, new_page: Any, shot: Any) -> None:
    name = fresh_name("Ada")
    a = new_page()
    a.goto(server.url + "/")
    assert header_says(a) == "Sign in"
    assert a.locator("[data-testid=account-games-link]").is_hidden()
    sign_up(a, server, name)
    assert header_says(a) == name
    shot(a, "account-signed-in")
    game = bot_game(server)
    link = server.url + game["seats"][0]["url"]
    a.goto(link)
    a.wait_for_selector("[data-testid=claim-seat]")
    assert name in a.inner_text("[data-testid=claim-seat] h1")
    shot(a, "account-claim")
    a.click("[data-testid=claim-yes]")
    a.wait_for_selector("[data-testid=board]")
    assert seat_names(server, game["id"])[0] == name  # the seat takes the account's name
    a.goto(server.url + "/")  # opened again: the seat is the account's, nothing asked
    a.goto(link)
    a.wait_for_selector("[data-testid=board]")
    assert a.locator("[data-testid=claim-seat]").count() == 0
    a.goto(server.url + "/")
    a.wait_for_selector("[data-testid=account-games-link]", state="visible")

    b = new_page()  # another device: nothing in its storage
    sign_in(b, server, name)
    b.click("[data-testid=to-account-games]")
    row = b.wait_for_selector(f"[data-testid=account-game][data-id='{game['id']}']")
    assert "Against a bot" in row.inner_text()
    shot(b, "account-games")
    b.click(f"[data-testid=account-game][data-id='{game['id']}'] [data-testid=open-account-game]")
    b.wait_for_selector("[data-testid=board]")
    assert b.url == link
    assert b.locator("[data-testid=claim-seat]").count() == 0


def test_not_now_is_remembered_and_a_refusal_is_said(server: Server, new_page: Any) -> None:
    owner, other = fresh_name("Bea"), fresh_name("Cal")
    a = new_page()
    sign_up(a, server, owner)
    game = bot_game(server, "Not now")
    link = server.url + game["seats"][0]["url"]
    a.goto(link)
    a.click("[data-testid=claim-not-now]")
    a.wait_for_selector("[data-testid=board]")
    a.goto(server.url + "/")
    a.goto(link)  # not asked again in this browser
    a.wait_for_selector("[data-testid=board]")
    assert a.locator("[data-testid=claim-seat]").count() == 0
    a.goto(server.url + "/account/games")
    a.wait_for_selector("[data-testid=account-games-empty]")

    # another account holds the seat: claiming it is refused in the server's words
    b = new_page()
    sign_up(b, server, other)
    b.goto(link)
    b.click("[data-testid=claim-yes]")
    b.wait_for_selector("[data-testid=board]")
    c = new_page()
    sign_up(c, server, fresh_name("Dot"))
    c.goto(link)
    c.click("[data-testid=claim-yes]")
    error = c.wait_for_selector("[data-testid=claim-error]")
    assert "belongs to another account" in error.inner_text()
    assert seat_names(server, game["id"])[0] == other


def test_sign_out_everywhere_ends_the_other_browser_s_session(
        server: Server, new_page: Any) -> None:
    name = fresh_name("Eli")
    a, b = new_page(), new_page()
    sign_up(a, server, name)
    # plain http without an https public URL: the cookie is not Secure, and no script
    # of the page reads it
    cookie = next(c for c in a.context.cookies() if c["name"] == "endeavor_session")
    assert (cookie["httpOnly"], cookie["secure"], cookie["sameSite"], cookie["path"]) == (
        True, False, "Lax", "/"), cookie
    assert "endeavor_session" not in a.evaluate("() => document.cookie")
    sign_in(b, server, name)
    a.goto(server.url + "/account")
    a.click("[data-testid=signout-everywhere]")
    a.wait_for_selector("[data-testid=account-signed-out]")
    b.goto(server.url + "/account")
    b.wait_for_selector("[data-testid=account-signed-out]")
    assert header_says(b) == "Sign in"
    b.goto(server.url + "/account/games")
    b.wait_for_selector("[data-testid=account-games-signed-out]")


def test_sign_in_and_sign_up_errors_are_the_server_s_words(
        server: Server, new_page: Any) -> None:
    name = fresh_name("Fay")
    a = new_page()
    sign_up(a, server, name)
    b = new_page()
    b.goto(server.url + "/account")
    b.fill("[data-testid=signup-name]", name.upper())
    b.fill("[data-testid=signup-password]", PASSWORD)
    b.click("[data-testid=signup]")
    error = b.wait_for_selector("[data-testid=signup-error]:not([hidden])")
    assert f"the name '{name.upper()}' is taken" in error.inner_text()
    b.fill("[data-testid=signin-name]", name)
    b.fill("[data-testid=signin-password]", "not the password")  # one failure only: the
    b.click("[data-testid=signin]")  # shared server's address may fail 4 more times
    error = b.wait_for_selector("[data-testid=signin-error]:not([hidden])")
    assert error.inner_text() == "wrong name or password"
    assert b.locator("[data-testid=account-signed-out]").is_visible()


class _Elsewhere(BaseHTTPRequestHandler):
    """A page of another origin (another port of the same host)."""

    page = b""

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def elsewhere() -> Iterator[Any]:
    """``elsewhere(html)``: the address of a page with ``html`` on another port."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Elsewhere)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()

    def serve(html: str) -> str:
        _Elsewhere.page = html.encode()
        return f"http://127.0.0.1:{httpd.server_address[1]}/"

    try:
        yield serve
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_form_or_a_fetch_from_another_port_is_refused(
        server: Server, new_page: Any, elsewhere: Any) -> None:
    name = fresh_name("Gil")
    a = new_page()
    sign_up(a, server, name)
    game = bot_game(server, "Elsewhere")
    token = game["seats"][0]["url"].split("#", 1)[1]
    # a form that posts itself to sign out everywhere, with the cookie (same site)
    form = elsewhere(f"""<form method="post" action="{server.url}/api/account/signout-everywhere">
      <input name="x" value="1"></form><script>document.forms[0].submit()</script>""")
    with a.expect_response(f"{server.url}/api/account/signout-everywhere") as answer:
        a.goto(form)
    assert answer.value.status == 403
    assert "another origin" in answer.value.text()
    # a fetch with the cookie, trying to claim a seat for the account
    page = elsewhere(f"""<script>fetch("{server.url}/api/account/claim", {{method: "POST",
      mode: "no-cors", credentials: "include", headers: {{"Content-Type": "text/plain"}},
      body: JSON.stringify({{game_id: "{game['id']}", token: "{token}"}})}})
      .then(() => {{ document.title = "sent"; }})</script>""")
    with a.expect_response(f"{server.url}/api/account/claim") as answer:
        a.goto(page)
    assert answer.value.status == 403
    # nothing changed: still signed in, no game claimed, the seat not renamed
    a.goto(server.url + "/account/games")
    a.wait_for_selector("[data-testid=account-games-empty]")
    assert header_says(a) == name
    assert seat_names(server, game["id"])[0] != name


def reset_link(server: Server, name: str) -> str:
    """An admin's password-reset link for ``name`` (``endeavor admin reset-link``)."""
    db = server.log_path.parent / "browser.db"
    launch = "import sys; from endeavor.cli import main; sys.exit(main())"
    out = subprocess.run([sys.executable, "-c", launch, "admin", "reset-link", name,
                          "--db", f"sqlite:///{db}", "--public-url", server.url],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return next(line.strip() for line in out.splitlines() if "/account/reset#" in line)


def test_a_password_reset_from_an_admin_s_link(server: Server, new_page: Any) -> None:
    name = fresh_name("Hal")
    a = new_page()
    sign_up(a, server, name)
    a.goto(server.url + "/account/reset")
    a.wait_for_selector("[data-testid=reset-no-token]")
    b = new_page()
    b.goto(reset_link(server, name))
    b.fill("[data-testid=reset-password]", "a new password")
    b.fill("[data-testid=reset-again]", "another one")
    b.click("[data-testid=reset]")
    assert "differ" in b.wait_for_selector("[data-testid=reset-error]:not([hidden])").inner_text()
    b.fill("[data-testid=reset-again]", "a new password")
    b.click("[data-testid=reset]")
    b.wait_for_selector("[data-testid=reset-done]")
    sign_in(b, server, name, "a new password")
    a.goto(server.url + "/account")  # every session ended with the reset
    a.wait_for_selector("[data-testid=account-signed-out]")


def test_the_account_pages_in_french_and_on_a_phone(
        server: Server, new_page: Any, shot: Any) -> None:
    page = new_page(locale="fr-FR", **PHONE)
    english = EnglishFound()

    def look(where: str, drawn: bool = True) -> None:
        if drawn:  # the page is drawn (not waiting for an answer, as the claim's question)
            ready(page)
        page.wait_for_timeout(200)
        english.look(page, where)
        shot(page, f"account-fr-{where.replace(' ', '-')}", full_page=True)
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 390, f"{where}: {wide} px wide on a 390 px phone"

    for path, shown, where in (
            ("/account", "account-signed-out", "signed out"),
            ("/account/games", "account-games-signed-out", "games signed out"),
            ("/account/reset", "reset-no-token", "reset without its token"),
            ("/account/reset#whatever", "reset-form", "reset")):
        page.goto(server.url + path)
        page.wait_for_selector(f"[data-testid={shown}]")
        look(where)
    name = fresh_name("Aurélie")
    sign_up(page, server, name)
    look("signed in")
    page.goto(server.url + "/account/games")
    page.wait_for_selector("[data-testid=account-games-empty]")
    look("no games")
    game = server.create(["human", "bot:random"], players=2, seed=8, title="Partie en français")
    page.goto(server.url + game["seats"][0]["url"])
    page.wait_for_selector("[data-testid=claim-seat]")
    look("claim", drawn=False)
    page.tap("[data-testid=claim-yes]")
    page.wait_for_selector("[data-testid=board]")
    page.goto(server.url + "/account/games")
    page.wait_for_selector("[data-testid=account-game]")
    look("games")
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=account-games-link]", state="visible")
    look("lobby")
    assert not english, english


def test_the_name_question_is_not_asked_of_a_claimed_seat(server: Server, new_page: Any) -> None:
    page = new_page()
    game = bot_game(server, "Named by the account")
    link = server.url + game["seats"][0]["url"]
    page.goto(link)  # a guest first: the seat asks for a name
    page.wait_for_selector("[data-testid=board]")
    later_for_the_name(page)
    sign_up(page, server, fresh_name("Ivo"))
    page.goto(link)
    page.click("[data-testid=claim-yes]")
    page.wait_for_selector("[data-testid=board]")
    page.wait_for_timeout(300)
    assert page.locator("[data-testid=name-dialog]").count() == 0


def test_the_e_mail_buttons_when_the_server_can_send_e_mail(
        server: Server, new_page: Any) -> None:
    """Shown only when ``/api/meta`` says ``email_available`` (faked here, with the
    e-mail endpoints' answers): each posts the name typed and shows the answer's words."""
    page = new_page()
    page.goto(server.url + "/account")
    page.wait_for_selector("[data-testid=account-signed-out]")
    assert page.locator("[data-testid=email-link]").count() == 0
    meta = {**server.get("/api/meta"), "email_available": True}
    page.route("**/api/meta", lambda route: route.fulfill(json=meta))
    posted: list[tuple[str, Any]] = []

    def answer(route: Any) -> None:
        posted.append((route.request.url.rsplit("/", 1)[1], route.request.post_data_json))
        route.fulfill(json={"detail": f"sent ({len(posted)})"})

    page.route("**/api/account/email-*", answer)
    page.reload()
    page.click("[data-testid=email-link]")  # no name yet: said, nothing sent
    assert page.wait_for_selector("[data-testid=signin-error]:not([hidden])").inner_text() \
        == "Type your name first"
    page.fill("[data-testid=signin-name]", "Jan")
    page.click("[data-testid=email-link]")
    page.wait_for_selector("[data-testid=email-answer]:has-text('sent (1)')")
    page.click("[data-testid=email-reset]")
    page.wait_for_selector("[data-testid=email-answer]:has-text('sent (2)')")
    assert posted == [("email-link", {"name": "Jan"}), ("email-reset", {"name": "Jan"})]


def test_deleting_the_account(server: Server, new_page: Any, shot: Any) -> None:
    """The password asked again (a wrong one refused in words), then the account is
    gone: signed out, and its seat in a running game is "deleted player"'s."""
    name = fresh_name("Kim")
    page = new_page()
    sign_up(page, server, name)
    game = bot_game(server, "To be left")
    page.goto(server.url + game["seats"][0]["url"])
    page.click("[data-testid=claim-yes]")
    page.wait_for_selector("[data-testid=board]")
    page.goto(server.url + "/account")
    page.fill("[data-testid=delete-password]", "not the password")
    page.click("[data-testid=delete-account]")
    error = page.wait_for_selector("[data-testid=delete-error]:not([hidden])")
    assert error.inner_text() == "wrong password"
    shot(page, "account-delete-refused", full_page=True)
    page.fill("[data-testid=delete-password]", PASSWORD)
    page.click("[data-testid=delete-account]")
    page.wait_for_selector("[data-testid=account-signed-out]")
    assert header_says(page) == "Sign in"
    assert seat_names(server, game["id"])[0] == "deleted player"
    shot(page, "account-signed-out")
