"""Accounts by e-mail in the browser, against a real server with a local SMTP server:
the account's notification page saves the address and the setting and shows them again
after a reload (a note says a game's own setting overrides it; signed out, it says to
sign in first); the sign-in link page asks for a link by the account's name, and the
mailed link signs the browser in and lands on "Your games", once (used again: the
server's words). Phones (390x844, touch) and a desktop."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import Server, sticking_out

try:
    from test_notify import Mailbox
except ImportError:  # pragma: no cover - tests/web is on the path through its conftest
    Mailbox = None

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Any]]:
    """A server that mails through a local SMTP server (and that SMTP server)."""
    if Mailbox is None:
        pytest.skip("tests/web/test_notify.py is not importable")
    mailbox = Mailbox()
    try:
        srv = Server(tmp_path_factory.mktemp("account-mail-server"),
                     ("--smtp", f"smtp://127.0.0.1:{mailbox.port}",
                      "--mail-from", "endeavor@example.org", "--review-iterations", "0",
                      "--allow-private-webhooks"))
        try:
            yield srv, mailbox
        finally:
            srv.stop()
    finally:
        mailbox.close()


@pytest.fixture
def mail_server(served: tuple[Server, Any]) -> Server:
    return served[0]


def ready(page: Any) -> None:
    page.wait_for_function("() => document.body.dataset.ready === '1'")


def sign_up(page: Any, name: str) -> None:
    """Sign up from the page (its cookie is the browser's)."""
    status = page.evaluate("""async ([name, password]) => (await fetch('api/account/signup', {
        method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name, password})})).status""", [name, PASSWORD])
    assert status == 201


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_notification_page_saves_and_shows_again(
        mail_server: Server, new_page: Any, shot: Any, device: str) -> None:
    page = new_page(**(PHONE if device == "phone" else DESKTOP))
    page.goto(mail_server.url + "/account/notifications")
    ready(page)
    error = page.wait_for_selector("[data-testid=account-notify-error]")
    assert "Sign in first" in error.inner_text()
    sign_up(page, f"Nina {device}")
    page.reload()
    ready(page)
    page.wait_for_selector("[data-testid=account-notify-form]")
    assert "overrides this one" in page.inner_text("[data-testid=account-notify-override]")
    page.fill("[data-testid=account-email]", f"nina-{device}@example.org")
    page.check("[data-testid=account-notify-email]")
    page.select_option("[data-testid=account-email-mode]", "digest")
    page.fill("[data-testid=account-webhook]", "http://127.0.0.1:9/nina")
    page.click("[data-testid=account-notify-save]")
    page.wait_for_selector("[data-testid=account-notify-message].ok")
    shot(page, f"account-notifications-{device}", full_page=True)
    if device == "phone":
        assert sticking_out(page, 390) == []
    page.reload()
    ready(page)
    page.wait_for_selector("[data-testid=account-notify-form]")
    assert page.input_value("[data-testid=account-email]") == f"nina-{device}@example.org"
    assert page.is_checked("[data-testid=account-notify-email]")
    assert page.input_value("[data-testid=account-email-mode]") == "digest"
    assert page.input_value("[data-testid=account-webhook-mode]") == "turn"
    assert page.input_value("[data-testid=account-webhook]") == "http://127.0.0.1:9/nina"
    # a bad address: refused in words, and the page keeps what was saved
    page.fill("[data-testid=account-email]", "not an address")
    page.click("[data-testid=account-notify-save]")
    said = page.wait_for_selector("[data-testid=account-notify-message].error").inner_text()
    assert said.startswith("Not saved:") and "address" in said
    page.reload()
    ready(page)
    page.wait_for_selector("[data-testid=account-notify-form]")
    assert page.input_value("[data-testid=account-email]") == f"nina-{device}@example.org"


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_mailed_link_signs_in_once(served: tuple[Server, Any], new_page: Any, shot: Any,
                                     device: str) -> None:
    mail_server, mailbox = served
    options = PHONE if device == "phone" else DESKTOP
    owner = new_page(**options)
    owner.goto(mail_server.url + "/account/notifications")
    ready(owner)
    name, address = f"Lina {device}", f"lina-{device}@example.org"
    sign_up(owner, name)
    status = owner.evaluate("""async (email) => (await fetch('api/account/notifications', {
        method: 'PUT', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({email})})).status""", address)
    assert status == 200
    # another browser asks for a link by the account's name
    page = new_page(**options)
    page.goto(mail_server.url + "/account/link")
    ready(page)
    page.fill("[data-testid=mail-name]", name)
    page.click("[data-testid=mail-signin]")
    said = page.wait_for_selector("[data-testid=mail-said].ok").inner_text()
    assert "a link is on its way" in said
    shot(page, f"account-link-asked-{device}", full_page=True)
    if device == "phone":
        assert sticking_out(page, 390) == []
    [mail] = mailbox.wait(address)
    found = re.search(r"(/account/link#[A-Za-z0-9_-]+)", mail["msg"].get_content())
    assert found is not None
    page.goto(mail_server.url + found.group(1))
    page.wait_for_url(re.compile(r"/account/games$"))
    ready(page)
    who = page.evaluate("async () => (await (await fetch('api/account')).json()).name")
    assert who == name
    # the same link again, in a third browser: used, said in words
    late = new_page(**options)
    late.goto(mail_server.url + found.group(1))
    problem = late.wait_for_selector("[data-testid=link-problem]").inner_text()
    assert "unknown, used or expired" in problem
    assert "#" not in late.url  # the token left the address bar
    late.wait_for_selector("[data-testid=mail-form]")
    shot(late, f"account-link-used-{device}", full_page=True)


def test_a_claimed_seats_panel_says_the_setting_is_the_accounts(
        mail_server: Server, new_page: Any, shot: Any) -> None:
    page = new_page(**DESKTOP)
    page.goto(mail_server.url + "/account/notifications")
    ready(page)
    sign_up(page, "Cleo")
    game = mail_server.create(["human", "human"], players=2, seed=5, title="Cleo's game")
    seat = game["seats"][1]
    claimed = page.evaluate("""async ([game_id, token, email]) => {
        await fetch('api/account/notifications', {method: 'PUT',
          headers: {'Content-Type': 'application/json'}, body: JSON.stringify({email})});
        return (await fetch('api/account/claim', {method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({game_id, token})})).status; }""",
                            [game["id"], seat["token"], "cleo@example.org"])
    assert claimed == 200
    page.goto(mail_server.url + seat["url"])
    page.wait_for_selector("[data-testid=board]")
    page.click("[data-testid=notify-open]")
    hint = page.wait_for_selector("[data-testid=notify-from-account]").inner_text()
    assert "From your account's notification setting" in hint
    assert page.input_value("[data-testid=email-input]") == "cleo@example.org"
    shot(page, "account-seat-panel-desktop")
