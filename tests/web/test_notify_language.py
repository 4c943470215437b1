"""Notifications in the seat's language, on SQLite and PostgreSQL: the language of the
request that saved a seat's settings (``?lang=``, Accept-Language, or the body's
``lang``) is the language of its e-mails and webhook messages; a French seat's e-mail
(to a local SMTP server) and webhook body (to a local receiver) read French, with no
English sentence (what the game asks, the chat, the final result included), while the
machine fields stay as they are; an English seat's read exactly as before. And the
migration that adds the language to the settings (``notify.lang``: ``en`` for the
settings saved before it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from alembic import command
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import auth, tokens
from sqlalchemy import create_engine, inspect, select, text
from test_notify import Mailbox, Receiver

from endeavor.web import db
from endeavor.web.notify import Message, Notifier, NotifySettings
from endeavor.web.store import utcnow

SENDER = "endeavor@example.org"
#: the English words of a notification's own sentences (none may show in a French one)
ENGLISH = ("your move", "You have until", "Your seat", "Asked:", " wrote: ", "round ",
           "setup", "Watch the game", "You get this", "this seat asked", "more message",
           "a test", "test message", "channel works", " is over", "wins with",
           "share the win", "The review", "No scores", " in less than", " hour", " day",
           " minute", "ended by the host")


@pytest.fixture
def db_url(both_db_url: str) -> str:
    """Each test on a fresh SQLite file and on a fresh PostgreSQL database."""
    return both_db_url


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    m = Mailbox()
    yield m
    m.close()


@pytest.fixture
def app(make_app: Callable[..., FastAPI], mailbox: Mailbox) -> Iterator[FastAPI]:
    """An app that may send e-mail; not started (the tests drive its notifier)."""
    app = make_app(notify=NotifySettings(smtp=f"smtp://127.0.0.1:{mailbox.port}",
                                         mail_from=SENDER, allow_private=True))
    yield app
    app.state.notifier.stop()


def _english_in(words: str) -> list[str]:
    return [w for w in ENGLISH if w in words]


def _send_due(notifier: Notifier) -> list[str]:
    """Claim every due row and send it here and now: what became of each."""
    return [notifier.handle(job) for job in notifier.claim(20)]


def _move(client: TestClient, gid: str, token: str) -> None:
    view = client.get(f"/api/games/{gid}", headers=auth(token)).json()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                    json={"action": view["legal_actions"][0], "seq": view["seq"]})
    assert r.status_code == 200, r.text


def _prompt(client: TestClient, gid: str, token: str, lang: str) -> str:
    view = client.get(f"/api/games/{gid}", headers=auth(token), params={"lang": lang}).json()
    prompt: str = view["decision"]["prompt"]
    return prompt


def test_a_french_seat_gets_french_mail_and_webhooks_an_english_one_english(
        app: FastAPI, receiver: Receiver, mailbox: Mailbox) -> None:
    notifier: Notifier = app.state.notifier
    client = TestClient(app)  # no lifespan: nothing is sent in the background
    r = client.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                        "seats": ["human", "human"], "title": "Le Havre",
                                        "clock": {"per_decision": 90000}})
    assert r.status_code == 201, r.text
    game = r.json()
    gid, toks = game["id"], tokens(game)
    # seat 1 uses the app in French (its Accept-Language), seat 0 in English (no header)
    r = client.put(f"/api/games/{gid}/notify", headers={**auth(toks[1]),
                                                        "Accept-Language": "fr-FR,fr;q=0.9"},
                   json={"webhook": f"{receiver.url}/fr", "email": "fr@example.org"})
    assert r.status_code == 200, r.text
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[0]),
                   json={"webhook": f"{receiver.url}/en", "email": "en@example.org"})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/chat", headers=auth(toks[0]), json={"body": "Salut"})
    assert r.status_code == 201, r.text
    assert client.get(f"/api/games/{gid}").json()["current_player"] == 0
    _move(client, gid, toks[0])
    assert _send_due(notifier) == ["sent", "sent"]
    # -- the French seat's webhook: every sentence French, machine fields unchanged
    [post] = receiver.to("/fr")
    body = post["body"]
    asked = _prompt(client, gid, toks[1], "fr")
    assert body["asked"] == asked and asked != _prompt(client, gid, toks[1], "en")
    for field in ("content", "text", "title", "message"):
        assert _english_in(body[field]) == [], (field, body[field])
    assert body["title"] == "Endeavor : à vous de jouer dans Le Havre"
    lines = body["message"].split("\n")
    assert lines[0] in ("P1, c'est à vous de jouer dans Le Havre (mise en place).",
                        "P1, c'est à vous de jouer dans Le Havre (manche 1 sur 7).")
    assert lines[1] == f"À décider : {asked}"
    assert re.fullmatch(r"Vous avez jusqu'au \d{4}-\d\d-\d\d \d\d:\d\d UTC "
                        r"\(dans 1 jour( \d+ heures?)?\)\.", lines[2]), lines[2]
    assert lines[3].startswith("Votre place : http") and "/play/" in lines[3]
    assert body["event"] == "turn" and body["seat"] == 1 and body["game"]["id"] == gid
    assert body["link"] in lines[3] and body["game"]["title"] == "Le Havre"
    # -- its e-mail
    [mail] = mailbox.wait("fr@example.org")
    m = mail["msg"]
    assert m["Subject"] == "Endeavor : à vous de jouer dans Le Havre"
    content = m.get_content().replace("\r\n", "\n")  # as the mail server passes it on
    assert _english_in(content) == [], content
    assert content.startswith("\n".join(lines[:4]))
    assert "Vous recevez ce message parce que cette place l'a demandé" in content
    # the chat's unseen message goes with the first of the two sent, in French
    assert [*body["chat"], *content.split("\n")].count("P0 a écrit : Salut") == 1
    # -- the English seat, once it is to move again: the same words as ever
    _move(client, gid, toks[1])
    assert _send_due(notifier) == ["sent", "sent"]
    [post] = receiver.to("/en")
    body = post["body"]
    asked = _prompt(client, gid, toks[0], "en")
    assert body["title"] == "Endeavor: your move in Le Havre"
    lines = body["message"].split("\n")
    assert re.fullmatch(r"P0, it is your move in Le Havre \((setup|round \d of 7)\)\.",
                        lines[0]), lines[0]
    assert lines[1] == f"Asked: {asked}"
    assert re.fullmatch(r"You have until \d{4}-\d\d-\d\d \d\d:\d\d UTC "
                        r"\(in 1 day( \d+ hours?)?\)\.", lines[2]), lines[2]
    assert lines[3] == f"Your seat: {body['link']}" and len(lines) == 4
    [mail] = mailbox.wait("en@example.org")
    assert mail["msg"]["Subject"] == "Endeavor: your move in Le Havre"
    assert mail["msg"].get_content().replace("\r\n", "\n") == (
        body["message"] + "\n\n-- \nYou get this because this seat asked for it on the "
        "game's page, where you can change or remove it.\n")
    # -- a test message, and the final result, in French
    r = client.post(f"/api/games/{gid}/notify/test", headers=auth(toks[1]),
                    json={"channel": "webhook"})
    assert r.status_code == 200 and r.json()["result"] == "sent", r.text
    test = receiver.to("/fr")[-1]["body"]
    assert test["event"] == "test" and _english_in(test["message"]) == [], test["message"]
    assert test["title"] == "Endeavor : un test depuis Le Havre"
    r = client.post(f"/api/games/{gid}/host/end", headers=auth(game["host_token"]))
    assert r.status_code == 200, r.text
    snap = app.state.store.snapshot(gid)
    over = notifier.compose(snap, 1, toks[1], "fr")
    assert isinstance(over, Message) and over.event == "over"
    said = over.webhook_body()
    assert _english_in(said["message"]) == [], said["message"]
    assert said["message"].startswith("Le Havre est terminée (arrêtée par l'hôte")
    assert said["result"] is not None and ("gagne avec" in said["result"]
                                           or "se partagent la victoire" in said["result"])
    english = notifier.compose(snap, 1, toks[1])
    assert isinstance(english, Message) and "is over (ended by the host" in english.text()


def test_the_language_is_the_requests_or_the_bodys(app: FastAPI, receiver: Receiver) -> None:
    """``?lang=`` (as every API call takes it) or the body's ``lang``; saving again
    with another language changes it for every channel of the seat."""
    notifier: Notifier = app.state.notifier
    client = TestClient(app)
    r = client.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                        "seats": ["human", "human"]})
    game = r.json()
    gid, toks = game["id"], tokens(game)
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]), params={"lang": "fr"},
                   json={"webhook": f"{receiver.url}/one"})
    assert r.status_code == 200, r.text
    _move(client, gid, toks[0])
    assert _send_due(notifier) == ["sent"]
    assert receiver.to("/one")[-1]["body"]["title"].startswith(
        "Endeavor : à vous de jouer dans ")
    # the body's lang wins over the request's
    r = client.put(f"/api/games/{gid}/notify", headers={**auth(toks[1]),
                                                        "Accept-Language": "fr"},
                   json={"lang": "en"})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{gid}/notify/test", headers=auth(toks[1]),
                    json={"channel": "webhook"})
    assert r.json()["result"] == "sent"
    assert receiver.to("/one")[-1]["body"]["title"].startswith("Endeavor: a test from ")
    bad = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]), json={"lang": "xx"})
    assert bad.status_code == 422
    bad = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                     params={"lang": "xx"}, json={})
    assert bad.status_code == 400


def test_the_migration_adds_the_language_english_for_the_settings_before_it(
        db_url: str) -> None:
    engine = db.make_engine(db_url)
    cfg = db.alembic_config(db_url)
    command.upgrade(cfg, "0004")
    now = utcnow()
    with engine.begin() as conn:
        conn.execute(db.games.insert().values(id="g1", created=now, config={}, seats=2,
                                              seq=0, over=False, title="t"))
        conn.execute(text("INSERT INTO notify (game_id, seat, channel, target, link_token, "
                          "created, mode) VALUES ('g1', 1, 'email', 'a@example.org', 'tok', "
                          ":now, 'turn')"), {"now": now})
    command.upgrade(cfg, "0005")
    with engine.connect() as conn:
        assert conn.execute(select(db.notify.c.lang)).scalars().all() == ["en"]
        assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [
            ("0005",)]
    engine.dispose()
    command.downgrade(cfg, "0004")
    check = create_engine(db_url)
    columns = {c["name"] for c in inspect(check).get_columns("notify")}
    assert "lang" not in columns and {"target", "mode"} <= columns
    with check.connect() as conn:  # the row kept through the way down
        assert conn.execute(text("SELECT target FROM notify")).scalars().all() == [
            "a@example.org"]
    check.dispose()
    command.upgrade(cfg, "head")
