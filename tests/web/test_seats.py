"""A seat that stays its player's (seating.py): notification settings kept across a new
link, a bot in the seat and the hand-back; the host's bot benches the seat (its link
watches, says why, may not move, and plays again on the same link when handed back);
no message while the seat's page is visible, one once it is hidden; every turn or a
digest; a webhook shared by several seats never gets a seat's link; a test message per
channel. In process (the app's own notifier driven by hand), against a local receiver."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import auth, fresh_database, tokens
from sqlalchemy import select, update
from test_notify import Receiver

from endeavor.web import db
from endeavor.web.notify import Notifier, NotifySettings
from endeavor.web.store import utcnow


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """Each test on SQLite and on PostgreSQL (``ENDEAVOR_TEST_PG``; skipped without)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.db"
        return
    with fresh_database() as url:
        yield url


@pytest.fixture
def app(make_app: Callable[..., FastAPI]) -> Iterator[FastAPI]:
    """An app whose notifier is not started: the tests drive it by hand."""
    a = make_app(notify=NotifySettings(allow_private=True, digest_seconds=3600.0))
    yield a
    a.state.notifier.stop()


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return TestClient(app)  # no lifespan: no background sending, no bots' threads


def _game(client: TestClient, seats: list[str], seed: int = 1) -> dict[str, Any]:
    r = client.post("/api/games", json={"config": {"players": len(seats), "seed": seed},
                                        "seats": seats})
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def _view(client: TestClient, gid: str, token: str | None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def _move(client: TestClient, gid: str, token: str) -> Any:
    view = _view(client, gid, token)
    return client.post(f"/api/games/{gid}/actions", headers=auth(token),
                       json={"action": sorted(view["legal_actions"] or ["pass"])[0],
                             "seq": view["seq"]})


def _host(client: TestClient, game: dict[str, Any], path: str, **body: Any) -> Any:
    r = client.post(f"/api/games/{game['id']}/host/{path}", headers=auth(game["host_token"]),
                    json=body or None)
    assert r.status_code == 200, r.text
    return r.json()


def _notify(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/notify", headers=auth(token))
    assert r.status_code == 200, r.text
    return dict(r.json()["seats"][0])


def _outbox(app: FastAPI, gid: str) -> list[Any]:
    with app.state.store.engine.connect() as conn:
        return list(conn.execute(select(db.outbox).where(db.outbox.c.game_id == gid)))


def _run(app: FastAPI) -> list[str]:
    """Claim and process every due outbox row: what became of each."""
    notifier: Notifier = app.state.notifier
    return [notifier.handle(job) for job in notifier.claim(50)]


def test_settings_stay_with_the_seat_across_a_new_link_a_bot_and_the_hand_back(
        client: TestClient, receiver: Receiver) -> None:
    game = _game(client, ["human", "human"])
    gid, toks = game["id"], tokens(game)
    hook = f"{receiver.url}/kept"
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                   json={"webhook": hook, "webhook_mode": "digest"})
    assert r.status_code == 200, r.text
    panel = _host(client, game, "seats/1/reissue")
    new = next(s["token"] for s in panel["seats"] if s["seat"] == 1)
    assert new != toks[1]
    assert client.get(f"/api/games/{gid}/notify", headers=auth(toks[1])).status_code == 403
    assert _notify(client, gid, new) == {"seat": 1, "webhook": hook, "email": None,
                                         "webhook_mode": "digest", "email_mode": "turn",
                                         "from_account": False}
    _host(client, game, "seats/1/bot", bot="medium")
    _host(client, game, "seats/1/human")
    assert _notify(client, gid, new)["webhook"] == hook
    # a new address keeps the channel's mode
    r = client.put(f"/api/games/{gid}/notify", headers=auth(new), json={"webhook": hook + "2"})
    assert r.json()["seats"][0]["webhook_mode"] == "digest"


def test_a_benched_seat_watches_says_why_and_plays_again_on_the_same_link(
        client: TestClient) -> None:
    game = _game(client, ["human", "human"])
    gid, toks = game["id"], tokens(game)
    panel = _host(client, game, "seats/0/bot", bot="medium")
    seat0 = panel["seats"][0]
    assert seat0["played_by"] == "medium" and seat0["replaced"] == "host"
    assert seat0["token"] == toks[0]  # the host still sees the player's link
    view = _view(client, gid, toks[0])
    assert view["you"] == [] and view["legal_actions"] == []
    [benched] = view["benched"]
    assert benched["seat"] == 0 and benched["bot"] == "medium" and benched["since"]
    assert benched["words"].startswith("The host gave your seat (P0) to the medium bot on ")
    assert benched["words"].endswith("; ask them to hand it back")
    assert "benched" not in _view(client, gid, None)  # a spectator
    assert "benched" not in _view(client, gid, toks[1])
    # no move, no undo, no settings while the bot plays
    r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[0]),
                    json={"action": "pass", "seq": view["seq"]})
    assert r.status_code == 403 and "The host gave your seat (P0) to the medium bot" in \
        r.json()["detail"]
    r = client.post(f"/api/games/{gid}/undo", headers=auth(toks[0]), json={})
    assert r.status_code == 403 and "ask them to hand it back" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}/notify", headers=auth(toks[0])).status_code == 403
    # "Your games" keeps the link (it watches), saying why
    r = client.post("/api/games/mine", json={"games": [{"id": gid, "token": toks[0]}]})
    [mine] = r.json()["games"]
    assert mine["valid"] and mine["you"] == [] and mine["benched"] == [0]
    # changing the bot keeps when the host took the seat
    since = benched["since"]
    _host(client, game, "seats/0/bot", bot="hard")
    assert _view(client, gid, toks[0])["benched"][0]["since"] == since
    # handed back: the same link plays again
    panel = _host(client, game, "seats/0/human")
    assert panel["seats"][0]["token"] == toks[0] and panel["seats"][0]["played_by"] is None
    view = _view(client, gid, toks[0])
    assert view["you"] == [0] and "benched" not in view
    assert [e["text"] for e in view["events"] if e["kind"] == "host"][-1] == (
        "The host handed P0's seat back to its player (on their link)")
    if view["current_player"] == 0:
        assert _move(client, gid, toks[0]).status_code == 200


def test_a_turn_message_is_held_while_the_page_is_visible_and_sent_once_hidden(
        app: FastAPI, client: TestClient, receiver: Receiver) -> None:
    game = _game(client, ["human", "human"])
    gid, toks = game["id"], tokens(game)
    hook = f"{receiver.url}/held"
    assert client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                      json={"webhook": hook}).status_code == 200
    r = client.post(f"/api/games/{gid}/presence", headers=auth(toks[1]), json={"visible": True})
    assert r.status_code == 200 and r.json()["seats"] == [1]
    assert _move(client, gid, toks[0]).status_code == 200
    assert _view(client, gid, toks[1])["current_player"] == 1
    assert [w.startswith("held back") for w in _run(app)] == [True]
    [row] = _outbox(app, gid)
    assert row.due.replace(tzinfo=None) > utcnow().replace(tzinfo=None) + timedelta(seconds=30)
    assert _run(app) == []  # not due: nothing to claim
    assert receiver.to("/held") == []
    r = client.post(f"/api/games/{gid}/presence", headers=auth(toks[1]), json={"visible": False})
    assert r.status_code == 200
    assert _run(app) == ["sent"]
    [post] = receiver.wait("/held")
    assert post["body"]["event"] == "turn" and post["body"]["seat"] == 1
    assert post["body"]["link"].endswith("#" + toks[1])  # a personal channel: the seat link
    # strict: no "yes" for true, no stranger's token
    bad = client.post(f"/api/games/{gid}/presence", headers=auth(toks[1]),
                      json={"visible": "yes"})
    assert bad.status_code == 422
    assert client.post(f"/api/games/{gid}/presence", headers=auth("nope"),
                       json={"visible": True}).status_code == 403


def test_a_digest_sends_at_most_once_a_period(app: FastAPI, client: TestClient,
                                              receiver: Receiver) -> None:
    games = [_game(client, ["human", "human"], seed=s) for s in (1, 2)]
    hook = f"{receiver.url}/digest"
    for g in games:
        r = client.put(f"/api/games/{g['id']}/notify", headers=auth(tokens(g)[1]),
                       json={"webhook": hook, "webhook_mode": "digest"})
        assert r.status_code == 200, r.text
    # a webhook of two seats is shared: the digest's messages carry no seat link
    assert _move(client, games[0]["id"], tokens(games[0])[0]).status_code == 200
    assert _run(app) == ["sent"]
    assert _move(client, games[1]["id"], tokens(games[1])[0]).status_code == 200
    assert [w.startswith("held back") for w in _run(app)] == [True]  # within the period
    [first] = receiver.wait("/digest")
    body = first["body"]
    for g in games:
        assert tokens(g)[1] not in str(body)
    assert body["link"].endswith(f"/game/{games[0]['id']}")
    # the period is over: the next message goes, naming the other game waiting too
    with app.state.store.engine.begin() as conn:
        conn.execute(update(db.notify).values(last_sent=utcnow() - timedelta(hours=2)))
        conn.execute(update(db.outbox).values(due=utcnow()))
    assert _run(app) == ["sent"]
    posts = receiver.wait("/digest", 2)
    text = posts[1]["body"]["message"]
    assert "Also your move:" in text and f"/game/{games[0]['id']}" in text
    bad = client.put(f"/api/games/{games[0]['id']}/notify",
                     headers=auth(tokens(games[0])[1]), json={"email_mode": "weekly"})
    assert bad.status_code == 422
    bad = client.put(f"/api/games/{games[0]['id']}/notify",
                     headers=auth(tokens(games[0])[1]), json={"email_mode": "digest"})
    assert bad.status_code == 409 and "no email set" in bad.json()["detail"]


def test_a_shared_webhook_gets_the_spectator_link_and_the_name(
        app: FastAPI, client: TestClient, receiver: Receiver) -> None:
    game = _game(client, ["human", "human", "human"])
    gid, toks = game["id"], tokens(game)
    hook = f"{receiver.url}/shared"
    for seat in (1, 2):
        assert client.put(f"/api/games/{gid}/notify", headers=auth(toks[seat]),
                          json={"webhook": hook}).status_code == 200
    names = {0: "Ann", 1: "Bo", 2: "Cy"}
    for seat, name in names.items():
        assert client.put(f"/api/games/{gid}/name", headers=auth(toks[seat]),
                          json={"name": name}).status_code == 200
    assert _move(client, gid, toks[0]).status_code == 200
    turn = _view(client, gid, toks[0])["current_player"]
    assert _run(app) == ["sent"]
    [post] = receiver.wait("/shared")
    body = post["body"]
    assert all(t not in str(body) and t not in str(post["headers"]) for t in toks.values())
    assert body["link"].endswith(f"/game/{gid}")
    assert f"{names[turn]} (P{turn}), it is your move" in body["message"]
    assert "Watch the game:" in body["message"]


def test_send_a_test(app: FastAPI, client: TestClient, receiver: Receiver) -> None:
    game = _game(client, ["human", "human"])
    gid, toks = game["id"], tokens(game)
    url = f"/api/games/{gid}/notify/test"
    r = client.post(url, headers=auth(toks[0]), json={"channel": "webhook"})
    assert r.status_code == 409 and "no webhook set" in r.json()["detail"]
    assert client.put(f"/api/games/{gid}/notify", headers=auth(toks[0]),
                      json={"webhook": f"{receiver.url}/test"}).status_code == 200
    r = client.post(url, headers=auth(toks[0]), json={"channel": "webhook"})
    assert r.status_code == 200 and r.json() == {"seat": 0, "channel": "webhook", "ok": True,
                                                 "result": "sent"}
    [post] = receiver.wait("/test")
    assert post["body"]["event"] == "test" and "this channel works" in post["body"]["message"]
    again = client.post(url, headers=auth(toks[0]), json={"channel": "webhook"})
    assert again.status_code == 409 and "try again in" in again.json()["detail"]
    # a dead receiver: the failure in words
    assert client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                      json={"webhook": "http://127.0.0.1:9/dead"}).status_code == 200
    r = client.post(url, headers=auth(toks[1]), json={"channel": "webhook"})
    assert r.status_code == 200 and r.json()["ok"] is False
    assert r.json()["result"].startswith("failed: ")
    assert client.post(url, headers=auth(toks[1]), json={"channel": "sms"}).status_code == 422
    assert client.post(url, json={"channel": "webhook"}).status_code == 401


def test_digest_hours_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """``endeavor serve --digest-hours`` reaches the senders; a bad value is a usage
    error in words."""
    import argparse
    import os

    from endeavor.web import seating, server

    monkeypatch.setattr(os, "environ", dict(os.environ))  # what serve sets stays here
    os.environ.pop(seating.DIGEST_VAR, None)
    args = argparse.Namespace(host="127.0.0.1", port=8000, digest_hours=3.0)
    server.notify_env(args)
    assert NotifySettings.from_env().digest_seconds == 3 * 3600.0
    for bad in (0.0, -1.0, 1000.0):
        with pytest.raises(Exception, match="--digest-hours"):
            server.notify_env(argparse.Namespace(host="127.0.0.1", port=8000,
                                                  digest_hours=bad))
    server.notify_env(argparse.Namespace(host="127.0.0.1", port=8000))
    assert NotifySettings.from_env().digest_seconds == seating.DIGEST_HOURS * 3600.0
