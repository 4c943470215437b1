"""Asynchronous play through the HTTP API: the host's link and panel (every seat's link
again, re-issue, a bot in a seat and back, ending a game), clocks whose time runs out
(a bot plays the decision, or takes the seat over until its player takes it back; extend,
stop, restart), "Your games", and the log saying all of it in words."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webapi import Api, auth

from endeavor.web.store import NOT_A_SEAT, hash_token


@pytest.fixture
def fast(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    """An app whose clock keeper looks for expired deadlines every 50 ms."""
    with TestClient(make_app(clock_seconds=0.05)) as c:
        yield c


def host(client: TestClient, method: str, gid: str, path: str, token: str | None,
         body: Any = None) -> Any:
    return client.request(method, f"/api/games/{gid}/host{path}", headers=auth(token),
                          json=body)


def wait_for(fn: Callable[[], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


def texts(view: dict[str, Any], kind: str | None = None) -> list[str]:
    return [e["text"] for e in view["events"] if kind is None or e["kind"] == kind]


# --------------------------------------------------------------------------- host
def test_the_host_sees_every_seat_link_again(api: Api, client: TestClient) -> None:
    g = api.create(["human", "hotseat", "hotseat", "bot:random"], seed=2)
    gid, host_token = g["id"], g["host_token"]
    assert host_token and hash_token(host_token) not in repr(g["seats"])
    r = host(client, "GET", gid, "", host_token)
    assert r.status_code == 200, r.text
    panel = r.json()
    assert [s["token"] for s in panel["seats"]] == [s["token"] for s in g["seats"]]
    assert [s["url"] for s in panel["seats"]] == [s["url"] for s in g["seats"]]
    assert panel["host_url"] == g["host_url"] and panel["spectate_url"] == g["spectate_url"]
    assert [s["played_by"] for s in panel["seats"]] == [None, None, None, "random"]
    # only the host's token opens the panel
    assert host(client, "GET", gid, "", None).status_code == 401
    r = host(client, "GET", gid, "", g["seats"][0]["token"])
    assert r.status_code == 403 and "host" in r.json()["detail"]
    assert host(client, "GET", "nosuchgame", "", host_token).status_code == 404
    # and the host's token is no seat's
    r = client.get(f"/api/games/{gid}", headers=auth(host_token))
    assert r.status_code == 403


def test_reissued_link_stops_working_at_once(api: Api, client: TestClient) -> None:
    g = api.create(["human", "hotseat", "hotseat"], seed=3)
    gid, h = g["id"], g["host_token"]
    old0, old_hot = g["seats"][0]["token"], g["seats"][1]["token"]
    r = host(client, "POST", gid, "/seats/0/reissue", h)
    assert r.status_code == 200, r.text
    new0 = r.json()["seats"][0]["token"]
    assert new0 and new0 != old0 and r.json()["seats"][0]["url"].endswith(new0)
    r = client.get(f"/api/games/{gid}", headers=auth(old0))
    assert r.status_code == 403 and r.json()["detail"] == NOT_A_SEAT
    assert api.view(gid, new0)["you"] == [0]
    # the hot-seat seats share a link: re-issuing one re-issues theirs
    r = host(client, "POST", gid, "/seats/2/reissue", h)
    seats = r.json()["seats"]
    assert seats[1]["token"] == seats[2]["token"] != old_hot
    assert client.get(f"/api/games/{gid}", headers=auth(old_hot)).status_code == 403
    assert api.view(gid, seats[1]["token"])["you"] == [1, 2]
    v = api.view(gid)
    assert texts(v, "host") == ["The host issued a new link for P0 (the old one no longer "
                                "works)", "The host issued a new link for P2 (the old one "
                                "no longer works)"]
    # a seat number that does not exist, a seat with no link
    assert host(client, "POST", gid, "/seats/5/reissue", h).status_code == 404
    g2 = api.create(["human", "bot:random"], seed=3)
    r = host(client, "POST", g2["id"], "/seats/1/reissue", g2["host_token"])
    assert r.status_code == 409 and "a bot plays it" in r.json()["detail"]


def test_a_bot_in_a_seat_and_back_to_a_person(api: Api, client: TestClient) -> None:
    g = api.create(["human", "human"], seed=4)
    gid, h = g["id"], g["host_token"]
    v = api.view(gid)
    p = v["current_player"]
    absent = g["seats"][p]["token"]
    r = host(client, "POST", gid, f"/seats/{p}/bot", h, {"bot": "medium"})
    assert r.status_code == 200, r.text
    panel = r.json()
    # the player keeps their link (it watches until the seat is handed back)
    assert panel["seats"][p]["played_by"] == "medium" and panel["seats"][p]["token"] == absent
    assert panel["seats"][p]["replaced"] == "host"
    # the quick bot has played the absent player's decision before the answer
    after = api.view(gid)
    assert after["seq"] >= v["seq"] + 2 and after["current_player"] != p
    assert after["seats"][p]["played_by"] == "medium"
    assert f"The host put the medium bot in P{p}'s seat" in texts(after, "host")
    watching = client.get(f"/api/games/{gid}", headers=auth(absent))
    assert watching.status_code == 200 and watching.json()["you"] == []
    assert watching.json()["benched"][0]["bot"] == "medium"
    r = host(client, "POST", gid, f"/seats/{p}/bot", h, {"bot": "deep-blue"})
    assert r.status_code == 400 and "unknown bot" in r.json()["detail"]
    # handed back: the same link plays again
    r = host(client, "POST", gid, f"/seats/{p}/human", h)
    assert r.status_code == 200, r.text
    back = r.json()["seats"][p]
    assert back["played_by"] is None and back["token"] == absent
    assert api.view(gid, back["token"])["you"] == [p]
    r = host(client, "POST", gid, f"/seats/{p}/human", h)
    assert r.status_code == 409 and "already played by a person" in r.json()["detail"]
    other = g["seats"][1 - p]["token"]
    toks = {p: back["token"], 1 - p: other}
    api.play_random(gid, toks, __import__("random").Random(4), moves=6)


def test_the_host_ends_an_abandoned_game(api: Api, client: TestClient) -> None:
    g = api.create(["human", "human", "human"], seed=5)
    gid, h = g["id"], g["host_token"]
    toks = api.tokens(g)
    api.play_random(gid, toks, __import__("random").Random(5), moves=10)
    r = host(client, "POST", gid, "/end", h)
    assert r.status_code == 200 and r.json()["ended"] == "host" and r.json()["over"]
    v = api.view(gid, toks[0])
    assert v["over"] is True and v["ended"] == "host" and v["current_player"] is None
    assert v["decision"] is None and v["legal_actions"] == [] and v["can_undo"] is False
    assert v["scores"] and len(v["scores"]) == 3 and {s["rank"] for s in v["scores"]} >= {1}
    assert texts(v, "host")[-1].startswith("The host ended the game")
    r = api.move(gid, toks[0], "pass", v["seq"])
    assert r.status_code == 409 and "ended by the host" in r.json()["detail"]
    assert host(client, "POST", gid, "/end", h).status_code == 409
    assert host(client, "POST", gid, "/seats/0/bot", h, {"bot": "easy"}).status_code == 409
    lobby = {x["id"]: x for x in client.get("/api/games").json()["games"]}
    assert lobby[gid]["status"] == "over" and lobby[gid]["current_player"] is None


# --------------------------------------------------------------------------- clocks
def clocked(api: Api, seats: list[str], **clock: Any) -> dict[str, Any]:
    r = api.client.post("/api/games", json={"config": {"players": len(seats), "seed": 6},
                                            "seats": seats, "clock": clock})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_bad_clocks_are_refused_in_words(api: Api, client: TestClient) -> None:
    for clock, words in (({"per_decision": 0, "bank": 0}, "at least 1 second"),
                         ({"per_decision": 10, "bot": "deep-blue"}, "clock bot"),
                         ({"per_decision": 1e12}, "60 days")):
        r = client.post("/api/games", json={"config": {"players": 2}, "seats": ["human"] * 2,
                                            "clock": clock})
        assert r.status_code == 400 and words in r.json()["detail"], r.text
    for clock in ({"per_decision": -1}, {"kind": "blitz", "per_decision": 5},
                  {"per_decision": 5, "on_timeout": "never"}, {"per_decision": 5, "x": 1}):
        r = client.post("/api/games", json={"config": {"players": 2}, "seats": ["human"] * 2,
                                            "clock": clock})
        assert r.status_code == 422, r.text
    assert client.get("/api/games").json()["games"] == []


def test_a_clock_shows_the_running_decision(api: Api, client: TestClient) -> None:
    g = clocked(api, ["human", "human"], kind="live", bank=1200, per_decision=20)
    v = api.view(g["id"])
    c = v["clock"]
    assert c["kind"] == "live" and c["bank"] == 1200 and c["per_decision"] == 20
    assert c["banks"] == [1200, 1200] and c["paused"] is False
    p = v["current_player"]
    assert c["running"] == p and c["deadline"] and c["now"]
    assert 1200 < c["left"][p] <= 1220 and c["left"][1 - p] == 1200
    # a decision within its own time costs the bank nothing
    r = api.move(g["id"], g["seats"][p]["token"], v["legal_actions"][0] if v["legal_actions"]
                 else api.view(g["id"], g["seats"][p]["token"])["legal_actions"][0], v["seq"])
    assert r.status_code == 200, r.text
    c2 = r.json()["clock"]
    assert c2["banks"] == [1200, 1200] and c2["running"] == r.json()["current_player"]
    assert api.view(g["id"])["clock"] is not None
    assert api.view(api.create(["human", "human"])["id"])["clock"] is None


def test_time_runs_out_and_the_bot_plays_that_decision(api: Api, fast: TestClient) -> None:
    api = Api(fast)
    g = clocked(api, ["human", "human"], per_decision=1, bot="medium")
    gid = g["id"]
    v = api.view(gid)
    p = v["current_player"]
    after = wait_for(lambda: (lambda x: x if x["current_player"] != p else None)(
        api.view(gid)))
    lines = texts(after, "timeout")
    assert lines and lines[0] == f"P{p}'s time ran out: the medium bot played for them"
    assert after["seats"][p]["played_by"] is None  # still the player's seat
    assert after["clock"]["banks"][p] == 0
    timeouts = [e for e in after["events"] if e["kind"] == "timeout"]
    first_move = next(e for e in after["events"] if e["kind"] == "action")
    assert timeouts[0]["seq"] == first_move["seq"] == 1  # the line comes with its move
    # the player cannot undo what the bot played
    r = fast.post(f"/api/games/{gid}/undo", headers=auth(g["seats"][p]["token"]))
    assert r.status_code == 409


def test_time_runs_out_for_the_game_and_the_player_takes_the_seat_back(
        api: Api, fast: TestClient) -> None:
    api = Api(fast)
    g = clocked(api, ["human", "human"], per_decision=1, on_timeout="game", bot="easy")
    gid = g["id"]
    p = api.view(gid)["current_player"]
    mine = g["seats"][p]["token"]
    def bot_has_played(x: dict[str, Any]) -> dict[str, Any] | None:
        """The seat taken over, and the bot's first move for it made (it moves from the
        job queue, after the takeover is committed: on a busy machine, a moment later)."""
        moved = any(e["kind"] == "action" and e["player"] == p for e in x["events"])
        return x if x["seats"][p]["played_by"] and moved else None

    v = wait_for(lambda: bot_has_played(api.view(gid, mine)))
    assert v["seats"][p] | {"played_by": "easy", "replaced": "timeout"} == v["seats"][p]
    assert (f"P{p}'s time ran out: the easy bot plays for them for the rest of the game"
            in texts(v, "host"))
    assert v["can_reclaim"] == [p] and v["you"] == [p]  # the link still works
    # what the bot played for them is not theirs to undo
    bot_moves = [e for e in v["events"] if e["kind"] == "action" and e["player"] == p]
    assert bot_moves and v["can_undo"] is False
    other = g["seats"][1 - p]["token"]
    r = fast.post(f"/api/games/{gid}/reclaim", headers=auth(other), json={"seat": p})
    assert r.status_code == 403
    r = fast.post(f"/api/games/{gid}/reclaim", headers=auth(mine))
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["seats"][p]["played_by"] is None and back["can_reclaim"] == []
    assert f"P{p} took their seat back from the bot" in texts(back, "host")
    r = fast.post(f"/api/games/{gid}/reclaim", headers=auth(mine))
    assert r.status_code == 409
    # a game whose host did not allow it
    g2 = clocked(api, ["human", "human"], per_decision=1, on_timeout="game", reclaim=False)
    p2 = api.view(g2["id"])["current_player"]
    t2 = g2["seats"][p2]["token"]
    v2 = wait_for(lambda: (lambda x: x if x["seats"][p2]["played_by"] else None)(
        api.view(g2["id"], t2)))
    assert v2["can_reclaim"] == []
    r = fast.post(f"/api/games/{g2['id']}/reclaim", headers=auth(t2))
    assert r.status_code == 409 and "did not allow" in r.json()["detail"]


def test_the_host_extends_stops_and_restarts_the_clocks(api: Api, fast: TestClient) -> None:
    api = Api(fast)
    g = clocked(api, ["human", "human", "human"], per_decision=2, bank=0)
    gid, h = g["id"], g["host_token"]
    p = api.view(gid)["current_player"]
    r = host(fast, "POST", gid, "/clock", h, {"extend": 3600, "seat": p})
    assert r.status_code == 200, r.text
    c = r.json()["clock"]
    assert c["banks"][p] == 3600 and c["left"][p] > 3600
    r = host(fast, "POST", gid, "/clock", h, {"extend": 60})
    assert r.json()["clock"]["banks"] == [3660 if s == p else 60 for s in range(3)]
    r = host(fast, "POST", gid, "/clock", h, {"paused": True})
    assert r.json()["clock"]["paused"] is True and r.json()["clock"]["deadline"] is None
    assert host(fast, "POST", gid, "/clock", h, {"paused": True}).status_code == 409
    r = host(fast, "POST", gid, "/clock", h, {"paused": False})
    c = r.json()["clock"]
    assert c["paused"] is False and c["running"] == p and c["deadline"]
    for bad in ({}, {"extend": 5, "paused": True}, {"extend": -5}):
        assert host(fast, "POST", gid, "/clock", h, bad).status_code in (400, 422)
    words = texts(api.view(gid), "host")
    assert words == [f"The host gave P{p} 1 hour more", "The host gave every seat 1 minute more",
                     "The host stopped the clocks", "The host restarted the clocks"]
    nocl = api.create(["human", "human"])
    r = host(fast, "POST", nocl["id"], "/clock", nocl["host_token"], {"paused": True})
    assert r.status_code == 409 and "no clock" in r.json()["detail"]


def test_exactly_one_worker_acts_on_an_expired_deadline(db_url: str) -> None:
    """Two stores on one database (two worker processes): each claims the expired
    deadline, exactly one wins; the winner's move releases the claim."""
    from endeavor.web import db
    from endeavor.web.store import Store

    engines = [db.make_engine(db_url) for _ in range(2)]
    db.upgrade(engines[0])
    a, b = Store(engines[0]), Store(engines[1])
    gid = a.create({"players": 2, "seed": 1}, ["human", "human"],
                   clock={"per_decision": 1}).id
    assert a.expired() == [] and not a.claim(gid, 0)  # not yet
    time.sleep(1.1)
    assert a.expired() == [(gid, 0)] == b.expired()
    wins = [a.claim(gid, 0), b.claim(gid, 0)]
    assert sorted(wins) == [False, True]
    assert a.expired() == [] and b.expired() == []  # claimed
    for e in engines:
        e.dispose()


# --------------------------------------------------------------------------- your games
def test_your_games_your_move_first(api: Api, client: TestClient) -> None:
    a = api.create(["human", "human"], seed=7)
    b = api.create(["human", "human"], seed=8)
    c = api.create(["human", "bot:random"], seed=9)
    held = []
    va = api.view(a["id"])
    mover_a = va["current_player"]
    held.append({"id": a["id"], "token": a["seats"][1 - mover_a]["token"]})  # not to move
    vb = api.view(b["id"])
    held.append({"id": b["id"], "token": b["seats"][vb["current_player"]]["token"]})
    held.append({"id": c["id"], "token": "not-a-token"})
    held.append({"id": "nosuchgame", "token": "x"})
    r = client.post("/api/games/mine", json={"games": held})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["your_move"] == 1
    assert [g["id"] for g in out["games"]][0] == b["id"]
    by_id = {g["id"]: g for g in out["games"]}
    assert by_id[b["id"]]["your_move"] and by_id[b["id"]]["valid"]
    assert by_id[a["id"]]["you"] == [1 - mover_a] and not by_id[a["id"]]["your_move"]
    assert by_id[a["id"]]["game"]["current_player"] == mover_a
    assert by_id[c["id"]]["found"] and not by_id[c["id"]]["valid"]
    assert not by_id["nosuchgame"]["found"] and by_id["nosuchgame"]["game"] is None
    # a re-issued link is no longer valid
    host(client, "POST", b["id"], f"/seats/{vb['current_player']}/reissue", b["host_token"])
    out = client.post("/api/games/mine", json={"games": held}).json()
    assert out["your_move"] == 0
    assert not {g["id"]: g for g in out["games"]}[b["id"]]["valid"]
    assert client.post("/api/games/mine", json={"games": [{"id": "x"}]}).status_code == 422


def test_unknown_addresses_get_the_apps_own_page(client: TestClient) -> None:
    """A page address the app does not know answers the app's page (which says so in
    words) with 404; the API answers in JSON, in words."""
    for path in ("/nope", "/play", "/play/abc/def", "/games/x"):
        r = client.get(path)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
        assert '<main id="app"' in r.text
    r = client.get("/api/nope")
    assert r.status_code == 404 and r.json() == {"detail": "no such address: GET /api/nope"}
    assert client.get("/host/whatever").status_code == 200  # the host's link page
