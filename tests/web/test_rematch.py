"""Rematches and results through the HTTP API, on SQLite and on PostgreSQL: Play again
with the seats rotated and kept, each old seat's holder joining from their old token,
the proposer as the new host, names and notification settings carried to the new
seats, hot-seat seats sharing one new token, bots staying bots, a second rematch and bad
tokens refused in words; the lobby's results of finished games and "Your games"
filtered to running or finished games."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pg import fresh_database, pg_url
from sqlalchemy import select, update
from webapi import auth

from endeavor import final_scores, replay
from endeavor.web import db, schemas
from endeavor.web.app import create_app
from endeavor.web.notify import NotifySettings

FIXTURE = Path(__file__).parent.parent / "fixtures" / "review_2p.record.json"
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())
#: e-mail can be set (nothing is sent: the sender is not started)
NOTIFY = NotifySettings(smtp="smtp://127.0.0.1:1", mail_from="endeavor@example.org",
                        allow_private=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.db"
    else:
        with fresh_database(pg_url()) as u:
            yield u


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    app = create_app(url, notify=NOTIFY, send_notifications=False, run_reviews=False,
                     poll_seconds=0.05)
    with TestClient(app) as c:
        yield c


def _create(client: TestClient, seats: list[str], **config: Any) -> dict[str, Any]:
    config.setdefault("players", len(seats))
    config.setdefault("seed", 5)
    r = client.post("/api/games", json={"config": config, "seats": seats,
                                        "title": "Friday game"})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _end(client: TestClient, created: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{created['id']}/host/end",
                    headers=auth(created["host_token"]))
    assert r.status_code == 200, r.text
    assert r.json()["over"]


def _name(client: TestClient, gid: str, seat: int, name: str) -> None:
    """A seat's chosen name, as the names feature stores it (``seats.name``, ``named``)."""
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:
        conn.execute(update(db.seats).where(db.seats.c.game_id == gid)
                     .where(db.seats.c.seat == seat).values(name=name, named=True))


def _seat_rows(client: TestClient, gid: str) -> list[Any]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return list(conn.execute(select(db.seats).where(db.seats.c.game_id == gid)
                                 .order_by(db.seats.c.seat)))


def _notify_rows(client: TestClient, gid: str) -> list[Any]:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        return list(conn.execute(select(db.notify).where(db.notify.c.game_id == gid)
                                 .order_by(db.notify.c.seat, db.notify.c.channel)))


def _propose(client: TestClient, gid: str, token: str | None, seats: str | None = None,
             status: int = 201) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(token),
                    json={"seats": seats} if seats else None)
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    return body


def _join(client: TestClient, gid: str, token: str | None, status: int = 200,
          ) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/rematch/join", headers=auth(token))
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    return body


@pytest.mark.parametrize("order", ["rotate", "keep"])
def test_rematch_every_old_seat_joins_with_names_and_notifications(
        client: TestClient, order: str) -> None:
    old = _create(client, ["human", "human", "bot:random", "human"],
                  exploits="random", options={})
    gid = old["id"]
    toks = {s["seat"]: s["token"] for s in old["seats"] if s["token"]}
    _name(client, gid, 0, "Ann")
    _name(client, gid, 3, "Dee")
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[1]),
                   json={"email": "bo@example.org", "webhook": "http://127.0.0.1:9/bo"})
    assert r.status_code == 200, r.text
    r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[3]),
                   json={"email": "dee@example.org"})
    assert r.status_code == 200, r.text
    # nothing to rematch before the end
    assert _propose(client, gid, toks[1], order, status=409)["detail"] == (
        "the game is not over yet: Play again is offered once it has ended")
    _end(client, old)
    assert client.get(f"/api/games/{gid}/rematch").json() == {
        "id": gid, "rematch_of": None, "rematch_id": None, "rematch_spectate_url": None}
    assert _join(client, gid, toks[0], status=404)["detail"] == (
        "there is no rematch of this game yet: propose one with Play again")

    made = _propose(client, gid, toks[1], order)  # P1 proposes
    schemas.RematchCreated.model_validate(made)
    new = made["id"]
    assert new != gid and made["of"] == gid
    shift = 1 if order == "rotate" else 0
    where = {p: (p + shift) % 4 for p in range(4)}
    assert made["you"] == [where[1]]
    assert made["url"] == f"/play/{new}#{made['token']}"
    # the proposer is the rematch's host, the old host is not
    assert client.get(f"/api/games/{new}/host", headers=auth(made["host_token"])
                      ).status_code == 200
    assert client.get(f"/api/games/{new}/host", headers=auth(old["host_token"])
                      ).status_code == 403
    # the same ruleset and options, a new seed, the same people and bots
    old_view = client.get(f"/api/games/{gid}").json()
    new_view = client.get(f"/api/games/{new}").json()
    assert new_view["config"]["seed"] != old_view["config"]["seed"]
    assert ({k: v for k, v in new_view["config"].items() if k != "seed"}
            == {k: v for k, v in old_view["config"].items() if k != "seed"})
    assert new_view["title"] == "Friday game (rematch)"
    kinds = {where[s["seat"]]: (s["kind"], s["bot"]) for s in old_view["seats"]}
    assert {s["seat"]: (s["kind"], s["bot"]) for s in new_view["seats"]} == kinds
    # names carried to the new seats (default names left to the new seat)
    names = {s["seat"]: s["name"] for s in new_view["seats"]}
    assert names[where[0]] == "Ann" and names[where[3]] == "Dee"
    assert names[where[1]] == f"P{where[1]}"
    # the links: both games name each other, anyone may read them
    assert client.get(f"/api/games/{gid}/rematch").json() == {
        "id": gid, "rematch_of": None, "rematch_id": new,
        "rematch_spectate_url": f"/game/{new}"}
    assert client.get(f"/api/games/{new}/rematch").json()["rematch_of"] == gid

    # every old seat's holder joins from their old token, the bot's seat has none
    joined = {}
    for p, token in toks.items():
        got = _join(client, gid, token)
        schemas.RematchJoined.model_validate(got)
        assert got["id"] == new and got["you"] == [where[p]]
        assert got["url"] == f"/play/{new}#{got['token']}"
        assert client.get(f"/api/games/{new}", headers=auth(got["token"])
                          ).json()["you"] == [where[p]]
        joined[p] = got["token"]
        assert _join(client, gid, token) == got  # as often as asked
    assert joined[1] == made["token"]
    assert len(set(joined.values())) == 3
    rows = {r.seat: r.rematch_token for r in _seat_rows(client, gid)}
    assert rows[2] is None and all(rows[p] == joined[p] for p in toks)

    # the notification settings came along, holding the new seat's token
    got_rows = [(r.seat, r.channel, r.target, r.link_token, r.mode)
                for r in _notify_rows(client, new)]
    assert sorted(got_rows) == sorted([
        (where[1], "email", "bo@example.org", joined[1], "turn"),
        (where[1], "webhook", "http://127.0.0.1:9/bo", joined[1], "turn"),
        (where[3], "email", "dee@example.org", joined[3], "turn")])
    r = client.get(f"/api/games/{new}/notify", headers=auth(joined[1]))
    assert r.json()["seats"] == [{"seat": where[1], "email": "bo@example.org",
                                  "webhook": "http://127.0.0.1:9/bo",
                                  "email_mode": "turn", "webhook_mode": "turn",
                                  "from_account": False}]

    # a second Play again, by anyone, is refused and names the rematch
    for token in (toks[0], old["host_token"], toks[1]):
        assert _propose(client, gid, token, "keep", status=409)["detail"] == (
            f"this game already has a rematch (game {new}): open it with "
                      "Join the rematch")


def test_rematch_refuses_bad_tokens_and_bad_orders(client: TestClient) -> None:
    old = _create(client, ["human", "human"])
    gid = old["id"]
    toks = {s["seat"]: s["token"] for s in old["seats"]}
    _end(client, old)
    other = _create(client, ["human", "human"])
    assert _propose(client, gid, None, status=401)["detail"] == (
        "a seat's or the host's token is needed: Authorization: Bearer <token>")
    for token in ("not-a-token", other["seats"][0]["token"], other["host_token"]):
        assert _propose(client, gid, token, status=403)["detail"] == (
            "this link is neither a seat nor the host of this game")
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(toks[0]),
                    json={"seats": "shuffle"})
    assert r.status_code == 422 and "rotate" in r.text
    r = client.post(f"/api/games/{gid}/rematch", headers=auth(toks[0]),
                    json={"seats": "keep", "seed": 3})
    assert r.status_code == 422
    assert _propose(client, "no-such-game", toks[0], status=404)["detail"] == (
        "no game 'no-such-game'")
    assert client.get("/api/games/no-such-game/rematch").status_code == 404
    # nothing was made by any of them
    assert client.get(f"/api/games/{gid}/rematch").json()["rematch_id"] is None
    assert _join(client, gid, None, status=401)["detail"].startswith("a seat's token")
    assert _join(client, gid, other["seats"][0]["token"], status=403)["detail"] == (
        "this link is not a seat of this game (any more)")
    # the host (who holds no seat here) proposes: they get no seat, only the host link
    made = _propose(client, gid, old["host_token"])
    assert made["you"] == [] and made["token"] is None and made["url"] is None
    assert {s["seat"] for s in made["seats"] if s["token"]} == {0, 1}
    # the host of the rematch re-issues the link of new seat 1 (old P0's, seats rotated
    # by default): old P0's join says so in words, old P1 still joins (new seat 0)
    new = made["id"]
    r = client.post(f"/api/games/{new}/host/seats/1/reissue",
                    headers=auth(made["host_token"]))
    assert r.status_code == 200, r.text
    assert _join(client, gid, toks[0], status=409)["detail"] == (
        "your link in the rematch was changed by its host (a new link, or a "
                  "bot in your seat): ask them for it")
    assert _join(client, gid, toks[1])["you"] == [0]


def test_hotseat_seats_share_their_new_token_and_bots_stay_bots(client: TestClient) -> None:
    old = _create(client, ["hotseat", "bot:random", "hotseat"])
    gid = old["id"]
    token = old["seats"][0]["token"]
    _end(client, old)
    made = _propose(client, gid, token, "rotate")
    assert made["you"] == [0, 1]  # old 2 -> 0, old 0 -> 1
    assert [s["kind"] for s in made["seats"]] == ["hotseat", "hotseat", "bot"]
    assert made["seats"][2]["bot"] == "random" and made["seats"][2]["token"] is None
    assert made["seats"][0]["token"] == made["seats"][1]["token"] == made["token"]
    got = _join(client, gid, token)
    assert got["you"] == [0, 1] and got["token"] == made["token"]


def test_a_seat_the_host_gave_to_a_bot_still_joins_the_rematch(client: TestClient) -> None:
    """The host gave P1 to a bot; P1's player keeps a link that watches, and with it
    joins the rematch as a person (and could propose it)."""
    old = _create(client, ["human", "human"])
    gid, t1 = old["id"], old["seats"][1]["token"]
    r = client.post(f"/api/games/{gid}/host/seats/1/bot", headers=auth(old["host_token"]),
                    json={"bot": "random"})
    assert r.status_code == 200, r.text
    _end(client, old)
    made = _propose(client, gid, t1, "keep")
    assert made["you"] == [1]
    assert [s["kind"] for s in made["seats"]] == ["human", "human"]
    got = _join(client, gid, t1)
    assert got["you"] == [1] and got["token"] == made["token"]
    assert _join(client, gid, old["seats"][0]["token"])["you"] == [0]


def test_two_proposals_at_once_make_one_rematch(client: TestClient) -> None:
    old = _create(client, ["human", "human", "human"])
    gid = old["id"]
    toks = [s["token"] for s in old["seats"]]
    _end(client, old)
    answers: list[Any] = []
    start = threading.Barrier(3)

    def propose(token: str) -> None:
        start.wait()
        answers.append(client.post(f"/api/games/{gid}/rematch", headers=auth(token)))

    threads = [threading.Thread(target=propose, args=(t,)) for t in toks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(a.status_code for a in answers) == [201, 409, 409]
    made = next(a.json() for a in answers if a.status_code == 201)
    assert client.get(f"/api/games/{gid}/rematch").json()["rematch_id"] == made["id"]
    for a in answers:
        if a.status_code == 409:
            assert made["id"] in a.json()["detail"]
    # the refused proposals created no game
    assert client.app.state.store.count() == 2  # type: ignore[attr-defined]


def test_lobby_shows_results_and_your_games_filter(client: TestClient) -> None:
    short = {**RECORD, "actions": RECORD["actions"][:-1]}
    r = client.post("/api/games/import", json={"record": short, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    done = r.json()
    gid = done["id"]
    toks = {s["seat"]: s["token"] for s in done["seats"]}
    view = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(toks[view["current_player"]]),
                    json={"action": RECORD["actions"][-1], "seq": view["seq"]})
    assert r.status_code == 200 and r.json()["over"], r.text
    _name(client, gid, 1, "Bo")
    running = _create(client, ["human", "bot:random"])
    # the engine's final scores, best first
    final = final_scores(replay(RECORD))
    expect = sorted(((s.player, s.total, s.rank) for s in final), key=lambda t: (t[2], t[0]))
    names = {0: "P0", 1: "Bo"}
    result = {"scores": [{"seat": p, "name": names[p], "total": t, "rank": k}
                         for p, t, k in expect],
              "winners": [p for p, _, k in expect if k == 1]}
    lobby = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert lobby[gid]["status"] == "over" and lobby[gid]["result"] == result
    assert "result" not in lobby[running["id"]]
    over = client.get("/api/games", params={"status": "over"}).json()["games"]
    assert [g["id"] for g in over] == [gid] and over[0]["result"] == result

    held = [{"id": gid, "token": toks[1]}, {"id": running["id"],
                                            "token": running["seats"][0]["token"]}]
    mine = client.post("/api/games/mine", json={"games": held}).json()
    assert {i["id"] for i in mine["games"]} == {gid, running["id"]}
    item = next(i for i in mine["games"] if i["id"] == gid)
    assert item["game"]["result"] == result and item["you"] == [1]
    only = client.post("/api/games/mine", json={"games": held, "status": "over"}).json()
    assert [i["id"] for i in only["games"]] == [gid]
    only = client.post("/api/games/mine", json={"games": held, "status": "running"}).json()
    assert [i["id"] for i in only["games"]] == [running["id"]]
    r = client.post("/api/games/mine", json={"games": held, "status": "finished"})
    assert r.status_code == 422 and "running" in r.text
