"""The HTTP contract of docs/web.md, end to end through FastAPI's TestClient on a SQLite
file: create, views per token, moves, bots, undo, record, import, replay, lobby,
WebSocket, limits and error bodies."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from endeavor import GameConfig, new_game, replay
from endeavor.bots import NAMES
from endeavor.web import view as V
from endeavor.web.store import Snapshot

VIEW_KEYS = {"id", "title", "seq", "over", "current_player", "you", "seats", "config",
             "actions", "legal_actions", "decision", "events", "state", "scores", "can_undo"}
ERROR_STATUSES = (400, 401, 403, 404, 409, 413, 422)


def _no_traceback(r: Any) -> None:
    assert "Traceback" not in r.text and 'File "' not in r.text, r.text


# --------------------------------------------------------------------------- create
def test_create_returns_tokens_urls_and_bots(api: Any) -> None:
    g = api.create(["human", "bot:random", "human"])
    assert set(g) == {"id", "seats", "spectate_url", "host_token", "host_url"}
    assert g["host_url"] == f"/host/{g['id']}#{g['host_token']}"
    assert g["spectate_url"] == f"/game/{g['id']}"
    seats = g["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert [s["kind"] for s in seats] == ["human", "bot", "human"]
    assert seats[1] == {"seat": 1, "kind": "bot", "bot": "random", "token": None, "url": None}
    for s in (seats[0], seats[2]):
        assert s["bot"] is None and len(s["token"]) >= 43  # 256 bits, URL-safe
        assert s["url"] == f"/play/{g['id']}#{s['token']}"
    assert seats[0]["token"] != seats[2]["token"]


def test_hotseat_seats_share_one_token(api: Any) -> None:
    g = api.create(["hotseat", "human", "hotseat"])
    s = g["seats"]
    assert s[0]["token"] == s[2]["token"] and s[0]["url"] == s[2]["url"]
    assert s[1]["token"] != s[0]["token"]
    v = api.view(g["id"], s[0]["token"])
    assert v["you"] == [0, 2]


@pytest.mark.parametrize("config, reason", [
    ({"players": 9}, "players"),
    ({"players": 2, "board": "Z"}, "board"),
    ({"players": 2, "ruleset": "chess"}, "ruleset"),
    ({"players": 2, "exploits": ["nope"]}, "Exploit"),
    ({"players": 2, "options": {"warp": True}}, "option"),
    ({"players": 2, "colour": "red"}, "colour"),
    ({"players": "two"}, "players"),
])
def test_bad_config_is_400_with_the_engines_reason(client: TestClient, config: dict[str, Any],
                                                   reason: str) -> None:
    seats = ["human"] * (config["players"] if isinstance(config["players"], int)
                         and config["players"] < 9 else 2)
    r = client.post("/api/games", json={"config": config, "seats": seats})
    assert r.status_code == 400, r.text
    assert reason in r.json()["detail"]
    _no_traceback(r)


@pytest.mark.parametrize("seats, status, reason", [
    (["human", "robot"], 400, "robot"),
    (["human", "bot:chess"], 400, "chess"),
    (["human"], 400, "2 players"),
    (["human", "human", "human"], 400, "3 seats"),
    ([1, 2], 422, None),
    ("human", 422, None),
])
def test_bad_seats(client: TestClient, seats: Any, status: int, reason: str | None) -> None:
    r = client.post("/api/games", json={"config": {"players": 2}, "seats": seats})
    assert r.status_code == status, r.text
    if reason:
        assert reason in r.json()["detail"]
    _no_traceback(r)


def test_every_bot_name_is_a_valid_seat(api: Any) -> None:
    for name in NAMES:
        g = api.create(["human", f"bot:{name}"])
        assert g["seats"][1]["bot"] == name


# --------------------------------------------------------------------------- views
def test_views_per_seat_and_spectator(api: Any) -> None:
    g = api.create(["human", "human", "human"], seed=5)
    toks = api.tokens(g)
    spectator = api.view(g["id"])
    assert set(spectator) >= VIEW_KEYS
    mover = spectator["current_player"]
    assert spectator["you"] == [] and spectator["legal_actions"] == []
    assert spectator["decision"]["player"] == mover and spectator["decision"]["options"] == []
    assert spectator["seq"] == 0 and spectator["over"] is False and spectator["scores"] is None
    assert spectator["config"] == GameConfig(players=3, seed=5).to_dict()
    assert [s["kind"] for s in spectator["seats"]] == ["human"] * 3
    assert set(spectator["seats"][0]) == {"seat", "kind", "bot", "name", "named",
                                          "played_by", "replaced"}
    state = new_game(GameConfig(players=3, seed=5))
    for seat, token in toks.items():
        v = api.view(g["id"], token)
        assert set(v) >= VIEW_KEYS and v["you"] == [seat]
        assert v["state"] == spectator["state"]
        if seat == mover:
            assert v["legal_actions"] == [str(a) for a in state.legal_actions()]
            options = v["decision"]["options"]
            assert [o["action"] for o in options] == v["legal_actions"]
            assert all(set(o) >= {"action", "text", "group", "targets"} for o in options)
        else:
            assert v["legal_actions"] == [] and v["decision"]["options"] == []
            assert v["decision"]["prompt"] == spectator["decision"]["prompt"]
        assert v["can_undo"] is False


def test_unknown_game_and_foreign_token(api: Any, client: TestClient) -> None:
    g1 = api.create(["human", "human"])
    g2 = api.create(["human", "human"])
    r = client.get("/api/games/nosuchgame")
    assert r.status_code == 404 and "nosuchgame" in r.json()["detail"]
    r = client.get(f"/api/games/{g1['id']}", headers={"Authorization": "Bearer " + "x" * 43})
    assert r.status_code == 403
    r = client.get(f"/api/games/{g1['id']}",
                   headers={"Authorization": f"Bearer {g2['seats'][0]['token']}"})
    assert r.status_code == 403
    for path in ("record", "replay/0"):
        assert client.get(f"/api/games/nosuchgame/{path}").status_code == 404


# --------------------------------------------------------------------------- moves
def test_move_status_codes(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human"], seed=3)
    other = api.create(["human", "human"], seed=3)
    gid, toks = g["id"], api.tokens(g)
    v = api.view(gid)
    p = v["current_player"]
    mine, theirs = toks[p], toks[1 - p]
    legal = api.view(gid, mine)["legal_actions"]

    r = api.move(gid, None, legal[0], 0)
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
    r = api.move(gid, theirs, legal[0], 0)
    assert r.status_code == 403 and f"P{p}" in r.json()["detail"]
    r = api.move(gid, api.tokens(other)[p], legal[0], 0)
    assert r.status_code == 403
    r = api.move("nosuchgame", mine, legal[0], 0)
    assert r.status_code == 404
    r = api.move(gid, mine, legal[0], 5)
    assert r.status_code == 409 and "moved on" in r.json()["detail"]
    r = api.move(gid, mine, "ship FE", 0)  # well formed, not legal at the start tile
    assert r.status_code == 400 and r.json()["detail"]
    illegal_reason = r.json()["detail"]
    r = api.move(gid, mine, "fly to the moon", 0)
    assert r.status_code == 400 and r.json()["detail"] != illegal_reason
    r = client.post(f"/api/games/{gid}/actions", headers={"Authorization": f"Bearer {mine}"},
                    json={"action": legal[0]})
    assert r.status_code == 422
    assert api.view(gid) == v  # nothing of the refused requests changed the game

    r = api.move(gid, mine, legal[0], 0)
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["seq"] == 1 and after["actions"] == 1 and after["you"] == [p]
    assert after["events"][0]["seq"] == 1 and after["events"][0]["kind"] == "action"
    assert set(after["events"][0]) == {"seq", "kind", "player", "text", "message"}
    assert after["events"][0]["message"]["id"] == "event.action"
    assert api.move(gid, mine, legal[0], 0).status_code == 409  # the same seq again


def test_illegal_action_reason_is_the_engines(api: Any) -> None:
    g = api.create(["human", "human"], seed=3)
    toks = api.tokens(g)
    v = api.view(g["id"])
    state = new_game(GameConfig(players=2, seed=3))
    try:
        state.apply("pass")
    except Exception as e:
        reason = str(e)
    else:
        pytest.fail("pass should be illegal at the start")
    r = api.move(g["id"], toks[v["current_player"]], "pass", 0)
    assert r.status_code == 400 and r.json()["detail"] == reason


def test_quick_bot_moves_before_the_response(api: Any) -> None:
    g = api.create(["human", "bot:random"], seed=2)
    gid, toks = g["id"], api.tokens(g)
    v = api.view(gid)
    assert v["current_player"] in (0, None)  # a bot that started has moved already
    rng = random.Random(2)
    bot_entries = 0
    while not v["over"]:
        assert v["current_player"] == 0
        r = api.move(gid, toks[0], rng.choice(api.view(gid, toks[0])["legal_actions"]),
                     v["seq"])
        assert r.status_code == 200, r.text
        before, v = v["seq"], r.json()
        bot_entries += v["seq"] - before - 1
        assert v["current_player"] in (0, None)
    assert bot_entries > 10
    assert v["scores"] is not None


def test_search_bot_plays_in_the_background(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    with TestClient(app) as client:
        r = client.post("/api/games", json={"config": {"players": 2, "seed": 4},
                                            "seats": ["bot:mcts", "human"]})
        assert r.status_code == 201
        gid, token = r.json()["id"], r.json()["seats"][1]["token"]
        for _ in range(4):  # a few human decisions, each answered by the search bot
            assert app.state.runner.idle(30)
            v = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
            v = v.json()
            assert v["current_player"] == 1, v["decision"]
            r = client.post(f"/api/games/{gid}/actions",
                            headers={"Authorization": f"Bearer {token}"},
                            json={"action": v["legal_actions"][0], "seq": v["seq"]})
            assert r.status_code == 200
        assert app.state.runner.idle(30)
        assert client.get(f"/api/games/{gid}").json()["seq"] > 4


# --------------------------------------------------------------------------- undo
def test_undo_own_decision_then_409_once_another_acted(api: Any) -> None:
    g = api.create(["human", "human"], seed=3)
    gid, toks = g["id"], api.tokens(g)
    start = api.view(gid)
    p = start["current_player"]
    me, them = toks[p], toks[1 - p]
    assert api.undo(gid, me, 0).status_code == 409  # nothing played yet
    action = api.view(gid, me)["legal_actions"][0]
    after = api.move(gid, me, action, 0).json()
    assert after["can_undo"] is True
    assert api.view(gid, them)["can_undo"] is False
    assert api.undo(gid, None, 1).status_code == 401
    assert api.undo(gid, them, 1).status_code == 409  # not theirs to undo
    assert api.undo(gid, me, 0).status_code == 409  # stale
    r = api.undo(gid, me, 1)
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["seq"] == 2 and undone["actions"] == 0
    # its events gone; the undo itself in everyone's log, in words
    assert undone["state"] == start["state"]
    assert [(e["kind"], e["player"]) for e in undone["events"]] == [("undo", 0)]
    assert undone["events"][0]["text"].startswith("P0 took back: ")
    assert undone["current_player"] == p and undone["legal_actions"]
    # play on: me until the other seat is to move, then the other seat once
    v = api.move(gid, me, action, 2).json()
    while v["current_player"] == p:
        v = api.move(gid, me, api.view(gid, me)["legal_actions"][0], v["seq"]).json()
    q = v["current_player"]
    assert q == 1 - p
    v = api.move(gid, them, api.view(gid, them)["legal_actions"][0], v["seq"]).json()
    r = api.undo(gid, me, v["seq"])
    assert r.status_code == 409 and "acted" in r.json()["detail"]
    assert api.view(gid, them)["can_undo"] is True
    r = api.undo(gid, them, v["seq"])  # theirs: yes
    assert r.status_code == 200
    # my last decision is the last effective one again, but the other seat has acted
    # (and undone) since: still closed
    v = r.json()
    assert api.view(gid, me)["can_undo"] is False
    assert api.undo(gid, me, v["seq"]).status_code == 409


def test_undo_without_a_body_or_seq_undoes_the_game_as_it_stands(api: Any) -> None:
    g = api.create(["human", "human"], seed=5)
    gid, toks = g["id"], api.tokens(g)
    start = api.view(gid)
    me = toks[start["current_player"]]
    api.move(gid, me, api.view(gid, me)["legal_actions"][0], 0)
    r = api.client.post(f"/api/games/{gid}/undo", headers={"Authorization": f"Bearer {me}"})
    assert r.status_code == 200, r.text
    assert r.json()["state"] == start["state"] and r.json()["seq"] == 2
    r = api.client.post(f"/api/games/{gid}/undo", json={},
                        headers={"Authorization": f"Bearer {me}"})
    assert r.status_code == 409  # nothing of mine left to undo
    assert api.view(gid)["seq"] == 2


def test_undo_closed_by_a_bot_move(api: Any) -> None:
    g = api.create(["human", "bot:random"], seed=2)
    gid, token = g["id"], g["seats"][0]["token"]
    v = api.view(gid, token)
    for _ in range(400):
        before = v["seq"]
        v = api.move(gid, token, v["legal_actions"][0], v["seq"]).json()
        if v["seq"] > before + 1:  # the bot answered in the same request
            break
    else:
        pytest.fail("the bot never moved")
    assert v["events"][-1]["player"] == 1 or any(
        e["player"] == 1 and e["seq"] == v["seq"] for e in v["events"])
    assert v["can_undo"] is False
    r = api.undo(gid, token, v["seq"])
    assert r.status_code == 409 and "acted" in r.json()["detail"]


# --------------------------------------------------------------------------- records
def test_whole_game_record_and_scores(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human"], seed=11)
    gid, toks = g["id"], api.tokens(g)
    last = api.play_random(gid, toks, random.Random(11))
    assert last["over"] is True and last["current_player"] is None
    assert last["decision"] is None and last["legal_actions"] == []
    scores = last["scores"]
    assert [s["seat"] for s in sorted(scores, key=lambda s: s["seat"])] == [0, 1]
    for s in scores:
        assert isinstance(s["total"], int) and s["rank"] in (1, 2)
        assert s["lines"] and all(isinstance(n, str) and isinstance(p, int)
                                  for n, p in s["lines"])
        assert sum(p for _, p in s["lines"]) == s["total"]
    rec = client.get(f"/api/games/{gid}/record").json()
    assert rec["format"] == "endeavor-record" and len(rec["actions"]) == last["actions"]
    state = replay(rec)
    assert state.is_over
    assert V.position(state) == last["state"]
    assert V.scores_view(state) == scores
    assert last["events"][-1]["kind"] == "game_end"
    assert api.move(gid, toks[0], "pass", last["seq"]).status_code == 409  # over


def test_record_round_trip_mid_game(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human", "human"], seed=8, exploits="random")
    v = api.play_random(g["id"], api.tokens(g), random.Random(8), moves=40)
    rec = client.get(f"/api/games/{g['id']}/record").json()
    assert V.position(replay(rec)) == v["state"]


def test_import_good_and_corrupt_records(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human"], seed=6)
    gid = g["id"]
    v = api.play_random(gid, api.tokens(g), random.Random(6), moves=30)
    rec = client.get(f"/api/games/{gid}/record").json()
    r = client.post("/api/games/import", json={"record": rec, "seats": ["human", "hotseat"]})
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != gid and new["seats"][1]["kind"] == "hotseat"
    imported = api.view(new["id"])
    assert imported["state"] == v["state"] and imported["seq"] == len(rec["actions"])
    assert imported["actions"] == v["actions"] and imported["config"] == v["config"]
    assert [e["text"] for e in imported["events"]] == [e["text"] for e in v["events"]]
    assert client.get(f"/api/games/{new['id']}/record").json() == rec
    # attributed to whoever decided: the mover may undo the last action
    mover = replay({**rec, "actions": rec["actions"][:-1]}).current_player
    tok = api.tokens(new)[mover]
    assert api.view(new["id"], tok)["can_undo"] is True

    bad = {**rec, "actions": rec["actions"][:5] + ["ship NOWHERE"]}
    r = client.post("/api/games/import", json={"record": bad, "seats": ["human", "human"]})
    assert r.status_code == 400 and "#6" in r.json()["detail"]
    r = client.post("/api/games/import",
                    json={"record": {"format": "chess"}, "seats": ["human", "human"]})
    assert r.status_code == 400 and "not an endeavor record" in r.json()["detail"]
    r = client.post("/api/games/import", json={"record": rec, "seats": ["human"]})
    assert r.status_code == 400
    r = client.post("/api/games/import", json={"record": "text", "seats": ["human"]})
    assert r.status_code == 422


def test_import_leaves_a_bot_to_move_and_it_moves(api: Any, client: TestClient) -> None:
    state = new_game(GameConfig(players=2, seed=9))
    bot_seat = state.current_player
    seats = ["human", "human"]
    seats[bot_seat] = "bot:greedy"
    r = client.post("/api/games/import", json={"record": state.record(), "seats": seats})
    assert r.status_code == 201
    v = api.view(r.json()["id"])
    assert v["seq"] >= 1 and v["current_player"] != bot_seat


def test_replay_positions(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human"], seed=12)
    gid = g["id"]
    api.play_random(gid, api.tokens(g), random.Random(12), moves=12)
    rec = client.get(f"/api/games/{gid}/record").json()
    for n in (0, 1, 7, len(rec["actions"])):
        r = client.get(f"/api/games/{gid}/replay/{n}")
        assert r.status_code == 200
        v = r.json()
        assert set(v) >= VIEW_KEYS and v["you"] == [] and v["actions"] == n
        assert v["state"] == V.position(replay(rec, upto=n))
        assert v["legal_actions"] == [] and v["can_undo"] is False
        assert len({e["seq"] for e in v["events"]}) == n
    assert client.get(f"/api/games/{gid}/replay/{len(rec['actions']) + 1}").status_code == 404
    assert client.get(f"/api/games/{gid}/replay/-1").status_code == 422


# --------------------------------------------------------------------------- lobby, meta
def test_lobby_lists_newest_first_with_status(api: Any, client: TestClient) -> None:
    a = api.create(["human", "human"], seed=1)
    time.sleep(0.01)
    b = api.create(["human", "bot:random"], seed=2)
    time.sleep(0.01)
    c = api.create(["human", "human"], seed=3)
    api.play_random(c["id"], api.tokens(c), random.Random(3))
    games = client.get("/api/games").json()["games"]
    assert [x["id"] for x in games] == [c["id"], b["id"], a["id"]]
    by_id = {x["id"]: x for x in games}
    assert by_id[a["id"]]["status"] == "open" and by_id[a["id"]]["seq"] == 0
    assert by_id[c["id"]]["status"] == "over" and by_id[c["id"]]["current_player"] is None
    assert by_id[b["id"]]["seats"][1] == {"seat": 1, "kind": "bot", "bot": "random",
                                          "name": "Random bot", "named": False}
    assert by_id[a["id"]]["current_player"] == api.view(a["id"])["current_player"]
    x = by_id[a["id"]]
    assert set(x) == {"id", "title", "created", "ruleset", "players", "seats", "seq",
                      "status", "current_player", "spectate_url"}
    assert x["ruleset"] == "age_of_sail" and x["players"] == 2
    assert x["spectate_url"] == f"/game/{a['id']}"
    only = client.get("/api/games?status=over").json()["games"]
    assert [x["id"] for x in only] == [c["id"]]
    assert len(client.get("/api/games?limit=1").json()["games"]) == 1
    assert client.get("/api/games?status=lost").status_code == 422
    assert client.get("/api/games?limit=0").status_code == 422


def test_meta(client: TestClient) -> None:
    m = client.get("/api/meta").json()
    assert set(m) >= {"rulesets", "boards", "exploits", "bots", "phase_orders"}
    assert [r["id"] for r in m["rulesets"]] == ["age_of_sail", "classic"]
    aos = m["rulesets"][0]
    assert aos["players"] == [2, 3, 4, 5] and aos["boards"] == ["A", "B"]
    assert "silent_fleet" in aos["options"]
    assert {"id": "spanish_main", "name": "The Spanish Main"}.items() <= next(
        e for e in m["exploits"] if e["id"] == "spanish_main").items()
    assert len(m["exploits"]) == 15
    assert m["bots"] == list(NAMES) and set(m["phase_orders"]) == {"by_phase", "by_player"}


def test_pages_and_openapi(client: TestClient) -> None:
    for path in ("/", "/new", "/play/abc", "/game/abc", "/replay/abc"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert client.get("/openapi.json").status_code == 200


# --------------------------------------------------------------------------- websocket
def test_websocket_announces_each_new_seq(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human"], seed=3)
    gid, toks = g["id"], api.tokens(g)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json() == {"seq": 0}
        v = api.view(gid)
        token = toks[v["current_player"]]
        api.move(gid, token, api.view(gid, token)["legal_actions"][0], 0)
        assert ws.receive_json() == {"seq": 1}
        assert api.undo(gid, token, 1).status_code == 200
        assert ws.receive_json() == {"seq": 2}


def test_websocket_sees_moves_of_another_process(api: Any, client: TestClient,
                                                  make_app: Callable[..., FastAPI]) -> None:
    g = api.create(["human", "human"], seed=3)
    gid, toks = g["id"], api.tokens(g)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws, \
            TestClient(make_app()) as other:  # another worker on the same database
        assert ws.receive_json() == {"seq": 0}
        p = other.get(f"/api/games/{gid}").json()["current_player"]
        h = {"Authorization": f"Bearer {toks[p]}"}
        legal = other.get(f"/api/games/{gid}", headers=h).json()["legal_actions"]
        r = other.post(f"/api/games/{gid}/actions", headers=h,
                       json={"action": legal[0], "seq": 0})
        assert r.status_code == 200
        assert ws.receive_json() == {"seq": 1}  # found by the poll


def test_websocket_unknown_game_closes_4404(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as e, \
            client.websocket_connect("/api/games/nosuchgame/ws") as ws:
        ws.receive_json()
    assert e.value.code == 4404


# --------------------------------------------------------------------------- limits, errors
def test_request_size_limit(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(max_body=2000)) as client:
        big = {"config": {"players": 2}, "seats": ["human", "human"], "title": "x" * 5000}
        r = client.post("/api/games", json=big)
        assert r.status_code == 413 and "2,000" in r.json()["detail"]

        def chunks() -> Any:  # no Content-Length: counted while read
            for _ in range(10):
                yield b" " * 500
        r = client.post("/api/games", content=chunks(),
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        ok = client.post("/api/games", json={"config": {"players": 2},
                                             "seats": ["human", "human"]})
        assert ok.status_code == 201


def test_error_bodies_never_hold_a_traceback(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human"])
    token = g["seats"][0]["token"]
    responses = [
        client.post("/api/games", json={"config": {"players": 7}, "seats": []}),
        client.post("/api/games", content=b"{not json", headers={"Content-Type":
                                                                 "application/json"}),
        client.post(f"/api/games/{g['id']}/actions", json={"action": "pass", "seq": 0}),
        client.post(f"/api/games/{g['id']}/actions", headers={"Authorization": "Bearer x"},
                    json={"action": "pass", "seq": 0}),
        client.post(f"/api/games/{g['id']}/actions",
                    headers={"Authorization": f"Bearer {token}"},
                    json={"action": "x" * 60, "seq": 0}),
        client.get("/api/games/zzz"),
        client.post("/api/games/import", json={"record": {}, "seats": []}),
    ]
    for r in responses:
        assert r.status_code in ERROR_STATUSES, (r.status_code, r.text)
        assert "detail" in r.json()
        _no_traceback(r)


def test_hotseat_token_plays_whichever_of_its_seats_is_to_move(api: Any) -> None:
    g = api.create(["hotseat", "human", "hotseat"], seed=4)
    gid = g["id"]
    shared, single = g["seats"][0]["token"], g["seats"][1]["token"]
    rng = random.Random(4)
    movers = set()
    v = api.view(gid)
    for _ in range(60):
        p = v["current_player"]
        mine, other = (shared, single) if p in (0, 2) else (single, shared)
        legal = api.view(gid, mine)["legal_actions"]
        assert legal and api.view(gid, other)["legal_actions"] == []
        assert api.move(gid, other, legal[0], v["seq"]).status_code == 403
        r = api.move(gid, mine, rng.choice(legal), v["seq"])
        assert r.status_code == 200, r.text
        v = r.json()
        movers.add(p)
    assert movers == {0, 1, 2}


def test_since_returns_only_newer_events(api: Any, client: TestClient) -> None:
    g = api.create(["human", "human"], seed=3)
    gid, toks = g["id"], api.tokens(g)
    v = api.play_random(gid, toks, random.Random(3), moves=6)
    everything = v["events"]
    assert {e["seq"] for e in everything} == set(range(1, 7))
    r = client.get(f"/api/games/{gid}?since=4")
    assert r.json()["events"] == [e for e in everything if e["seq"] > 4]
    p = v["current_player"]
    legal = api.view(gid, toks[p])["legal_actions"]
    r = client.post(f"/api/games/{gid}/actions?since=6", headers={
        "Authorization": f"Bearer {toks[p]}"}, json={"action": legal[0], "seq": 6})
    assert r.status_code == 200 and {e["seq"] for e in r.json()["events"]} == {7}
    assert client.get(f"/api/games/{gid}?since=-1").status_code == 422


# --------------------------------------------------------------------------- encoding
def plain_view(snap: Snapshot, you: frozenset[int], since: int = 0,
               clock: Any = None) -> dict[str, Any]:
    """The game view of docs/web.md built as a plain dict from ``view``'s functions: the
    reference the server's pre-encoded views must equal (``clock``: the view's own
    clock block, whose times are the server's at the request)."""
    state = snap.state
    current = snap.current_player
    mine = current is not None and current in you
    events: list[dict[str, Any]] = [
        x for e in snap.effective if e.seq > since
        for x in V.action_view(e.seq, e.action, e.events)]
    events += [V.line_view(line) for line in snap.lines(since)]
    events.sort(key=lambda e: (e["seq"], e["kind"] not in ("undo", "host", "timeout")))
    return {
        "id": snap.meta.id, "title": snap.meta.title, "seq": snap.seq,
        "over": snap.over, "ended": snap.ended, "current_player": current,
        "you": sorted(you), "thinking": False, "rated": snap.meta.rated,
        "can_reclaim": [p for p in sorted(you)
                        if snap.meta.seats[p].override_reason == "timeout"
                        and snap.clock is not None and snap.clock.config.reclaim
                        and not snap.over],
        "clock": clock,
        "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                   "named": s.named, "played_by": s.played_by,
                   "replaced": s.override_reason}
                  for s in snap.meta.seats],
        "config": snap.meta.config, "actions": len(snap.effective),
        "legal_actions": [str(a) for a in state.legal_actions()] if mine else [],
        "decision": V.decision_view(state, sorted(you)) if current is not None else None,
        "events": events,
        "state": V.position(state),
        "scores": V.scores_view(state, force=snap.over),
        "can_undo": snap.undo_target(you) is not None,
    }


def test_views_are_the_schema_and_the_plain_view(api: Any, client: TestClient) -> None:
    """The pre-encoded views are exactly ``plain_view`` (the dict the schema documents),
    validate as ``schemas.GameView`` and serialise back to the same JSON, for every
    seat and a spectator, all along a game with a bot, an undo and the end."""
    from endeavor.web.schemas import GameView

    store = client.app.state.store  # type: ignore[attr-defined]
    g = api.create(["human", "hotseat", "hotseat", "bot:random"], seed=8)
    gid, toks = g["id"], api.tokens(g)
    rng = random.Random(8)

    def check(body: dict[str, Any], token: str | None) -> None:
        you = store.meta(gid).seats_of(token)
        snap = store.snapshot(gid)
        assert body["seq"] == snap.seq
        assert body == json.loads(json.dumps(plain_view(snap, you)))
        assert GameView.model_validate(body).model_dump(mode="json", exclude_unset=True) == body

    v = api.view(gid)
    undone = False
    while not v["over"]:
        for token in (None, *toks.values()):
            check(api.view(gid, token), token)
        token = toks[v["current_player"]]
        mine = api.view(gid, token)
        # the position was encoded once for this seq, and kept for the next views
        assert "state" in store.snapshot(gid).memo
        r = api.move(gid, token, rng.choice(mine["legal_actions"]), mine["seq"])
        assert r.status_code == 200, r.text
        v = r.json()
        if not undone and v["can_undo"]:
            r = api.undo(gid, token, v["seq"])
            assert r.status_code == 200, r.text
            v, undone = r.json(), True
            check(v, token)
    assert undone and v["scores"] is not None
    for token in (None, *toks.values()):
        check(api.view(gid, token), token)


def test_position_encoder_reuses_only_equal_parts() -> None:
    """Encoded from the parts of the previous position, a position is byte for byte
    ``json.dumps`` of it, move after move, and after another game's position."""
    from starlette.responses import JSONResponse

    from endeavor.web.app import PositionEncoder

    def _dumps(value: object) -> bytes:  # what a JSON response sends
        return bytes(JSONResponse(value).body)

    enc = PositionEncoder(size=1)
    state = new_game(GameConfig(players=3, seed=4, exploits="random"))
    other = new_game(GameConfig(players=3, seed=5, ruleset="classic"))
    rng = random.Random(4)
    n = 0
    while not state.is_over:
        pos = V.position(state)
        assert enc.encode("g", pos) == _dumps(pos)
        if n % 25 == 0:  # another game pushes this one's parts out
            assert enc.encode("h", V.position(other)) == _dumps(V.position(other))
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    assert enc.encode("g", V.position(state)) == _dumps(V.position(state))
