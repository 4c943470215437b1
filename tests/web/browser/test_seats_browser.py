"""A seat that stays its player's, in the browser against a real server with a local SMTP
server: a re-issued link keeps the e-mail settings; a seat the host gave to a bot is
watched on its link with why, then played again on the same link once handed back; a
second seat's link opened in a browser that plays a seat asks first (and the host's
read-only look); no e-mail while the seat's page is visible, one after it is hidden.
Phones (390x844, touch) and a desktop."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from webapi import eventually

from conftest import Server
from endeavor.web import db

try:
    from test_notify import Mailbox
except ImportError:  # pragma: no cover - tests/web is on the path through its conftest
    Mailbox = None

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Any]:
    if Mailbox is None:
        pytest.skip("tests/web/test_notify.py is not importable")
    m = Mailbox()
    yield m
    m.close()


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory, mailbox: Any) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("seats-server")
    srv = Server(tmp, ("--smtp", f"smtp://127.0.0.1:{mailbox.port}",
                       "--mail-from", "endeavor@example.org", "--review-iterations", "0"))
    srv.db_path = tmp / "browser.db"  # type: ignore[attr-defined]
    try:
        yield srv
    finally:
        srv.stop()


def _rows(server: Server, table: Any, **where: Any) -> list[Any]:
    engine = create_engine(f"sqlite:///{server.db_path}")  # type: ignore[attr-defined]
    try:
        with engine.connect() as conn:
            query = select(table)
            for k, v in where.items():
                query = query.where(table.c[k] == v)
            return list(conn.execute(query))
    finally:
        engine.dispose()


def _play_until(server: Server, game: dict[str, Any], seat: int) -> None:
    """The seats to move play their first legal action until ``seat`` is to move (at
    least one action)."""
    gid = game["id"]
    toks = {s["seat"]: s["token"] for s in game["seats"]}
    for _ in range(40):
        who = server.get(f"/api/games/{gid}")["current_player"]
        view = server.get(f"/api/games/{gid}", toks[who])
        after = server.request("POST", f"/api/games/{gid}/actions",
                               {"action": sorted(view["legal_actions"])[0],
                                "seq": view["seq"]}, toks[who])
        if after["current_player"] == seat:
            return
    raise AssertionError(f"P{seat} never came to move")


def _utc(dt: datetime) -> float:
    """A stored time (naive on SQLite: UTC) as a timestamp."""
    return (dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)).timestamp()


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("[data-testid=board]")


def test_a_reissued_link_keeps_the_email_settings(mail_server: Server, mailbox: Any,
                                                  new_page: Any, shot: Any) -> None:
    game = mail_server.create(["human", "human"], players=2, seed=5, title="Kept settings")
    gid = game["id"]
    p1 = game["seats"][1]
    phone = new_page(**PHONE)
    _open(phone, mail_server.url + p1["url"])
    phone.click("[data-testid=menu-toggle]")
    phone.click("[data-testid=notify-open]")
    phone.fill("[data-testid=email-input]", "kept.p1@example.org")
    phone.click("[data-testid=email-save]")
    phone.wait_for_selector("[data-testid=email-current]")
    # every turn or a digest, and a test message, once an address is saved
    assert phone.input_value("[data-testid=email-mode]") == "turn"
    phone.click("[data-testid=email-test]")
    phone.wait_for_function("() => document.querySelector('[data-testid=notify-message]')"
                            ".textContent.includes('A test was sent')")
    test_mail = mailbox.wait("kept.p1@example.org")[0]["msg"]
    assert "this channel works" in test_mail.get_content()
    shot(phone, "notify-panel-modes-phone")
    phone.select_option("[data-testid=email-mode]", "digest")
    phone.wait_for_function("() => document.querySelector('[data-testid=notify-message]')"
                            ".textContent.includes('at most one of the e-mails every 12 hours')")
    assert mail_server.get(f"/api/games/{gid}/notify", p1["token"])["seats"][0][
        "email_mode"] == "digest"
    phone.select_option("[data-testid=email-mode]", "turn")
    phone.wait_for_function("() => document.querySelector('[data-testid=notify-message]')"
                            ".textContent.includes('every turn')")
    phone.close()
    # the host gives P1 a new link: the e-mail settings stay, with the new link
    panel = mail_server.request("POST", f"/api/games/{gid}/host/seats/1/reissue",
                                token=game["host_token"])
    new = next(s for s in panel["seats"] if s["seat"] == 1)
    again = new_page(**PHONE)
    _open(again, mail_server.url + new["url"])
    again.click("[data-testid=menu-toggle]")
    again.click("[data-testid=notify-open]")
    again.wait_for_selector("[data-testid=email-current]")
    assert "kept.p1@example.org" in again.inner_text("[data-testid=email-current]")
    again.close()  # away from the table: the next turn is told by e-mail
    game["seats"][1] = new
    _play_until(mail_server, game, 1)
    # (the closed page said it was hidden; had that been lost, its visibility would
    # expire within 45 s)
    mails = mailbox.wait("kept.p1@example.org", 2, timeout=60)
    body = mails[1]["msg"].get_content()
    assert "it is your move" in body and new["token"] in body and p1["token"] not in body


def test_a_seat_given_to_a_bot_and_handed_back_on_the_same_link(
        mail_server: Server, new_page: Any, shot: Any) -> None:
    game = mail_server.create(["human", "human"], players=2, seed=7, title="Benched")
    gid, p0 = game["id"], game["seats"][0]
    for size, name in ((PHONE, "phone"), ({}, "desktop")):
        page = new_page(**size)
        _open(page, mail_server.url + p0["url"])
        mail_server.request("POST", f"/api/games/{gid}/host/seats/0/bot", {"bot": "random"},
                            token=game["host_token"])
        page.wait_for_selector("[data-testid=benched-0]")
        words = page.inner_text("[data-testid=benched-0]")
        assert words.startswith("The host gave your seat (P0) to the random bot on ")
        assert "ask them to hand it back" in words
        assert page.query_selector("[data-testid=option]") is None
        assert page.query_selector("[data-testid=notify-open]") is None
        shot(page, f"seat-given-to-a-bot-{name}")
        # the player reloads: the same link still opens the game, watching, with why
        page.reload()
        page.wait_for_selector("[data-testid=benched-0]")
        panel = mail_server.request("POST", f"/api/games/{gid}/host/seats/0/human",
                                    token=game["host_token"])
        assert panel["seats"][0]["token"] == p0["token"]
        page.wait_for_function("() => !document.querySelector('[data-testid=benched-0]')")
        assert page.query_selector("[data-testid=notify-open]") is not None
        assert "spectating" not in page.inner_text(".game-head")
        assert page.url.endswith("#" + p0["token"])
        page.close()


def test_a_second_seat_link_asks_first_and_the_host_looks_read_only(
        mail_server: Server, new_page: Any, shot: Any) -> None:
    game = mail_server.create(["human", "human", "human"], players=3, seed=9, title="Ask")
    gid, p0, p1 = game["id"], game["seats"][0], game["seats"][1]
    page = new_page()
    _open(page, mail_server.url + p0["url"])
    page.goto(mail_server.url + "/")  # a seat link differing only after the # reloads
    page.goto(mail_server.url + p1["url"])
    page.wait_for_selector("[data-testid=ask-seat]")
    assert "This is P1's seat link. Play as P1 here?" in page.inner_text("[data-testid=ask-seat]")
    assert "already plays P0" in page.inner_text("[data-testid=ask-seat]")
    shot(page, "second-seat-link-asks-desktop")
    page.click("[data-testid=just-watch]")
    page.wait_for_selector("[data-testid=look-only]")
    assert "spectating" in page.inner_text(".game-head")
    held = page.evaluate("id => JSON.parse(localStorage.getItem(`endeavor.seats.${id}`))", gid)
    assert held == [p0["token"]]  # P1's link was not taken
    page.click("[data-testid=look-play]")
    page.wait_for_function("() => !document.querySelector('[data-testid=look-only]')")
    page.wait_for_selector("[data-testid=notify-open]")
    held = page.evaluate("id => JSON.parse(localStorage.getItem(`endeavor.seats.${id}`))", gid)
    assert held == [p0["token"], p1["token"]]
    # the host checks P2's invitation read-only: nothing asked, nothing kept
    phone = new_page(**PHONE)
    phone.goto(f"{mail_server.url}/play/{gid}?look#{game['seats'][2]['token']}")
    phone.wait_for_selector("[data-testid=look-only]")
    assert "this is P2's seat link, and it works" in phone.inner_text("[data-testid=look-only]")
    shot(phone, "seat-link-read-only-phone")
    assert phone.evaluate("id => localStorage.getItem(`endeavor.seats.${id}`)", gid) is None


def test_no_email_while_the_seat_page_is_visible_one_after_it_is_hidden(
        mail_server: Server, mailbox: Any, new_page: Any) -> None:
    game = mail_server.create(["human", "human"], players=2, seed=11, title="At the table")
    gid, p1 = game["id"], game["seats"][1]
    address = "visible.p1@example.org"
    mail_server.request("PUT", f"/api/games/{gid}/notify", {"email": address}, p1["token"])
    phone = new_page(**PHONE)
    _open(phone, mail_server.url + p1["url"])
    eventually(lambda: _rows(mail_server, db.seats, game_id=gid, seat=1)[0].visible_until,
               what="the page said it is visible")
    _play_until(mail_server, game, 1)
    phone.wait_for_selector("#app[data-your-move='1']")
    # the notifier looked at the row and held it back: due when the page may be gone
    eventually(lambda: any(r.lease_until is None and _utc(r.due) > time.time() + 5
                           for r in _rows(mail_server, db.outbox, game_id=gid)),
               what="the e-mail held back while the page is visible")
    assert not [m for m in mailbox.mails if address in m["to"]]
    phone.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    [mail] = mailbox.wait(address)
    assert "it is your move" in mail["msg"].get_content()
