"""Accounts by e-mail through the HTTP API (docs/web.md, "Accounts by e-mail"), on SQLite
and PostgreSQL, with a local SMTP server and a webhook receiver: the account's setting
notifies for a seat it claimed (in the account's language), a game's own setting wins
and removing it brings the account's back, a re-issued link leaves the account's setting
behind; a mailed sign-in link signs in once and not after it expired; a mailed reset
link sets a new password; the mailing endpoints answer the same for an unknown name, a
name without an address and a real one, and are limited per name and per address; bad
settings refused in words with nothing changed; and no e-mail without SMTP."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import auth, tokens
from sqlalchemy import select, update
from test_notify import Mailbox, Receiver

from endeavor.web import db
from endeavor.web.accounts import mailtables
from endeavor.web.notify import NotifySettings
from endeavor.web.store import utcnow

SENDER = "endeavor@example.org"
PASSWORD = "correct horse battery"


@pytest.fixture
def db_url(both_db_url: str) -> str:
    """Each test on a fresh SQLite file and on a fresh PostgreSQL database."""
    return both_db_url


@pytest.fixture
def served(make_app: Callable[..., FastAPI]) -> Iterator[tuple[FastAPI, Mailbox, Receiver]]:
    """An app that sends e-mail (to a local SMTP server of the test's own) and webhooks
    (to a local receiver, on a private address), in the background (started)."""
    mailbox, receiver = Mailbox(), Receiver()
    try:
        made = make_app(notify=NotifySettings(
            smtp=f"smtp://127.0.0.1:{mailbox.port}", mail_from=SENDER, allow_private=True,
            poll_seconds=0.1, backoff=(0.2, 0.2)))
        with TestClient(made):
            yield made, mailbox, receiver
    finally:
        mailbox.close()
        receiver.close()


@pytest.fixture
def app(served: tuple[FastAPI, Mailbox, Receiver]) -> FastAPI:
    return served[0]


def client(app: FastAPI, address: str = "testclient", **headers: str) -> TestClient:
    """A browser of its own (its own cookies), from ``address``."""
    return TestClient(app, client=(address, 50000), headers=headers)


def sign_up(c: TestClient, name: str) -> None:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def anna_with_address(app: FastAPI, **setting: Any) -> TestClient:
    """Anna's browser: signed up, with the address anna@example.org (and ``setting``)."""
    c = client(app)
    sign_up(c, "Anna")
    r = c.put("/api/account/notifications", json={"email": "anna@example.org", **setting})
    assert r.status_code == 200, r.text
    return c


def move(c: TestClient, gid: str, token: str) -> None:
    view = c.get(f"/api/games/{gid}", headers=auth(token)).json()
    r = c.post(f"/api/games/{gid}/actions", headers=auth(token),
               json={"action": view["legal_actions"][0], "seq": view["seq"]})
    assert r.status_code == 200, r.text


def play_until(c: TestClient, gid: str, toks: dict[int, str], seat: int) -> None:
    """Moves of the seats to move until ``seat`` is (it moves at least once first)."""
    moved = False
    for _ in range(60):
        mover = c.get(f"/api/games/{gid}").json()["current_player"]
        if mover == seat and moved:
            return
        move(c, gid, toks[mover])
        moved = True
    pytest.fail(f"P{seat} never came to move")


def link_in(mail: dict[str, Any], page: str) -> str:
    """The token of the ``page#token`` link of a mail."""
    found = re.search(rf"{re.escape(page)}#([A-Za-z0-9_-]+)", mail["msg"].get_content())
    assert found is not None, mail["msg"].get_content()
    return found.group(1)


def test_the_accounts_setting_notifies_its_seats_and_a_games_own_wins(
        served: tuple[FastAPI, Mailbox, Receiver]) -> None:
    app, mailbox, receiver = served
    anna = client(app, **{"Accept-Language": "fr-FR,fr;q=0.9"})
    sign_up(anna, "Anna")
    r = anna.put("/api/account/notifications",
                 json={"email": "Anna@Example.ORG", "webhook": f"{receiver.url}/anna"})
    assert r.status_code == 200, r.text
    assert r.json() | {"digest_hours": 0} == {
        "email": "Anna@example.org", "notify_email": True, "webhook": f"{receiver.url}/anna",
        "email_mode": "turn", "webhook_mode": "turn", "lang": "fr", "seats": 0,
        "email_available": True, "digest_hours": 0}
    host = client(app)
    r = host.post("/api/games", json={"config": {"players": 2, "seed": 3},
                                      "seats": ["human", "human"], "title": "Le Havre"})
    assert r.status_code == 201, r.text
    gid, toks = r.json()["id"], tokens(r.json())
    r = anna.post("/api/account/claim", json={"game_id": gid, "token": toks[1]})
    assert r.status_code == 200, r.text
    assert anna.get("/api/account/notifications").json()["seats"] == 1
    r = anna.put("/api/account/notifications", json={"webhook": ""})  # removed, as null
    assert r.status_code == 200 and r.json()["webhook"] is None
    r = anna.put("/api/account/notifications", json={"webhook": f"{receiver.url}/anna"})
    assert r.status_code == 200 and r.json()["webhook"] == f"{receiver.url}/anna"
    # the seat's panel shows what is in effect: the account's address
    seat = host.get(f"/api/games/{gid}/notify", headers=auth(toks[1])).json()["seats"][0]
    assert (seat["email"], seat["webhook"]) == ("Anna@example.org", f"{receiver.url}/anna")
    assert seat["from_account"] is True

    play_until(host, gid, toks, 1)
    [mail] = mailbox.wait("Anna@example.org")
    assert mail["msg"]["Subject"] == "Endeavor : à vous de jouer dans Le Havre"
    assert f"#{toks[1]}" in mail["msg"].get_content()  # personal: the seat's own link
    [post] = receiver.wait("/anna")
    assert post["body"]["seat"] == 1 and toks[1] in post["body"]["link"]

    # the game's own setting wins: the account's no longer used for this seat
    r = host.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                 json={"webhook": f"{receiver.url}/own"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["email"] is None
    assert r.json()["seats"][0]["from_account"] is False
    assert anna.get("/api/account/notifications").json()["seats"] == 0
    play_until(host, gid, toks, 1)
    receiver.wait("/own")
    time.sleep(0.5)
    assert len(receiver.to("/anna")) == 1 and len(mailbox.wait("Anna@example.org")) == 1

    # removing it brings the account's back
    r = host.delete(f"/api/games/{gid}/notify", headers=auth(toks[1]))
    assert r.status_code == 200, r.text
    assert r.json()["seats"][0]["webhook"] == f"{receiver.url}/anna"
    play_until(host, gid, toks, 1)
    receiver.wait("/anna", 2)
    assert anna.get("/api/account/notifications").json()["seats"] == 1


def test_a_reissued_link_leaves_the_accounts_setting_behind(app: FastAPI) -> None:
    anna = anna_with_address(app)
    r = anna.post("/api/games", json={"config": {"players": 2, "seed": 3},
                                      "seats": ["human", "human"]})
    game = r.json()
    gid, toks = game["id"], tokens(game)
    assert anna.post("/api/account/claim",
                     json={"game_id": gid, "token": toks[1]}).status_code == 200
    r = anna.post(f"/api/games/{gid}/host/seats/1/reissue",
                  headers=auth(game["host_token"]))
    assert r.status_code == 200, r.text
    new = next(s["token"] for s in r.json()["seats"] if s["seat"] == 1)
    seat = anna.get(f"/api/games/{gid}/notify", headers=auth(new)).json()["seats"][0]
    assert seat["email"] is None
    assert anna.get("/api/account/notifications").json()["seats"] == 0


def test_a_deleted_accounts_setting_leaves_its_seats(app: FastAPI) -> None:
    anna = anna_with_address(app)
    game = anna.post("/api/games", json={"config": {"players": 2, "seed": 3},
                                         "seats": ["human", "human"]}).json()
    gid, toks = game["id"], tokens(game)
    assert anna.post("/api/account/claim",
                     json={"game_id": gid, "token": toks[1]}).status_code == 200
    assert anna.get("/api/account/notifications").json()["seats"] == 1
    r = anna.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 204, r.text
    rows = app.state.store.read(lambda conn: conn.execute(
        select(db.notify).where(db.notify.c.game_id == gid)).all())
    assert rows == []


def test_a_mailed_sign_in_link_works_once_and_not_once_expired(
        served: tuple[FastAPI, Mailbox, Receiver]) -> None:
    app, mailbox, _ = served
    anna_with_address(app)
    other = client(app, address="10.0.0.2")
    assert other.get("/api/meta").json()["email_available"] is True
    r = other.post("/api/account/email-link", json={"name": "anna"})
    assert r.status_code == 202, r.text
    token = link_in(mailbox.wait("anna@example.org")[0], "/account/link")
    assert other.get("/api/account").status_code == 401
    r = other.post("/api/account/link-signin", json={"token": token})
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Anna"
    assert other.get("/api/account").json()["name"] == "Anna"  # the session's cookie
    again = client(app).post("/api/account/link-signin", json={"token": token})
    assert again.status_code == 400
    assert again.json()["detail"] == ("This sign-in link is unknown, used or expired: ask "
                                      "for a new one.")
    # a second link, expired before it is used
    assert other.post("/api/account/email-link", json={"name": "Anna"}).status_code == 202
    token = link_in(mailbox.wait("anna@example.org", 2)[1], "/account/link")
    store = app.state.store
    with store.transaction() as conn:
        conn.execute(update(mailtables.signin_links)
                     .values(expires=utcnow() - timedelta(seconds=1)))
    late = client(app, **{"Accept-Language": "fr"}).post("/api/account/link-signin",
                                                          json={"token": token})
    assert late.status_code == 400
    assert "expiré" in late.json()["detail"]


def test_a_mailed_reset_link_sets_a_new_password(
        served: tuple[FastAPI, Mailbox, Receiver]) -> None:
    app, mailbox, _ = served
    anna = anna_with_address(app, notify_email=False)
    r = client(app).post("/api/account/email-reset", json={"name": "Anna"})
    assert r.status_code == 202, r.text
    [mail] = mailbox.wait("anna@example.org")
    assert mail["msg"]["Subject"] == "Endeavor: choose a new password"
    token = link_in(mail, "/account/reset")
    r = client(app).post("/api/account/reset", json={"token": token,
                                                     "password": "a new password"})
    assert r.status_code == 204, r.text
    assert anna.get("/api/account").status_code == 401  # every session ended
    r = client(app).post("/api/account/signin", json={"name": "Anna",
                                                      "password": "a new password"})
    assert r.status_code == 200, r.text


def test_the_same_answer_whatever_the_name(
        served: tuple[FastAPI, Mailbox, Receiver]) -> None:
    app, mailbox, _ = served
    anna_with_address(app)
    sign_up(client(app), "Bea")  # no address
    answers = []
    for i, name in enumerate(("Nobody", "Bea", "Anna")):
        for path in ("/api/account/email-link", "/api/account/email-reset"):
            r = client(app, address=f"10.0.1.{i}").post(path, json={"name": name})
            answers.append((path, r.status_code, r.json(), r.headers.get("retry-after")))
    for path in ("/api/account/email-link", "/api/account/email-reset"):
        seen = {(code, str(body), after) for p, code, body, after in answers if p == path}
        assert len(seen) == 1, seen
        assert next(iter(seen))[0] == 202
    assert len(mailbox.wait("anna@example.org", 2)) == 2
    time.sleep(0.3)
    assert {m["to"][0] for m in mailbox.mails} == {"anna@example.org"}


def test_mailed_links_are_limited_per_name_and_per_address(app: FastAPI) -> None:
    for name in ("Nobody", "Anna"):
        answers = [client(app, address=f"10.0.2.{i}").post(
            "/api/account/email-link", json={"name": name}) for i in range(4)]
        assert [r.status_code for r in answers] == [202, 202, 202, 429]
        assert int(answers[-1].headers["retry-after"]) > 0
        assert answers[-1].json()["detail"].startswith("Too many links asked for")
    one = client(app, address="10.0.3.1")
    codes = [one.post("/api/account/email-reset", json={"name": f"n{i}"}).status_code
             for i in range(11)]
    assert codes == [202] * 10 + [429]


def test_bad_settings_are_refused_in_words_and_nothing_changes(
        make_app: Callable[..., FastAPI]) -> None:
    app = make_app(notify=NotifySettings(smtp="smtp://127.0.0.1:9", mail_from=SENDER))
    anna = client(app)
    sign_up(anna, "Anna")
    before = anna.get("/api/account/notifications").json()
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"webhook": "http://127.0.0.1:9/hook"}, 400, "private"),
        ({"email": "not an address"}, 400, ""),
        ({"email_mode": "weekly"}, 422, ""),
        ({"notify_email": True}, 409, "without an address"),
        ({"notify_email": "yes"}, 422, ""),
    ]
    for body, status, words in cases:
        r = anna.put("/api/account/notifications", json=body)
        assert r.status_code == status, (body, r.text)
        assert words in str(r.json()["detail"]), (body, r.text)
        assert anna.get("/api/account/notifications").json() == before
    assert client(app).get("/api/account/notifications").status_code == 401
    assert client(app).put("/api/account/notifications",
                           json={"email": "a@example.org"}).status_code == 401


def test_no_mailed_links_without_smtp(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    anna = client(app)
    sign_up(anna, "Anna")
    assert anna.get("/api/account/notifications").json()["email_available"] is False
    assert anna.get("/api/meta").json()["email_available"] is False
    r = anna.put("/api/account/notifications", json={"email": "anna@example.org"})
    assert r.status_code == 400 and "cannot send e-mail" in r.json()["detail"]
    for path in ("/api/account/email-link", "/api/account/email-reset"):
        r = client(app).post(path, json={"name": "Anna"})
        assert r.status_code == 409 and "cannot send e-mail" in r.json()["detail"]
    r = client(app, **{"Accept-Language": "fr"}).post("/api/account/email-link",
                                                      json={"name": "Anna"})
    assert r.status_code == 409 and "ne peut pas envoyer" in r.json()["detail"]
