"""Ratings through the HTTP API (docs/web.md, "Ratings"), on SQLite and PostgreSQL: a
rated game played to its end by two accounts and a bot moves the three ratings once and
the game view shows the changes; an unrated game changes nothing; a guest's move in a
rated game and a rated game without an account are refused; the job rates a game once
even with two apps on one database; the abandonment rules (a time-out, a seat given to a
bot, a game ended by the host, an account deleted, a seat nobody claimed); the
leaderboard and the profile."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webapi import auth, eventually

from endeavor.web.app import create_app

PASSWORD = "correct horse battery"
BUDGETS = {"hard": {"iterations": 20}, "mcts": {"iterations": 20}}


@pytest.fixture
def url(both_db_url: str) -> str:
    return both_db_url


@pytest.fixture
def app(url: str) -> Iterator[FastAPI]:
    made = create_app(url, bot_budgets=BUDGETS, poll_seconds=0.05, clock_seconds=0.1)
    with TestClient(made):
        yield made


def browser(app: FastAPI) -> TestClient:
    return TestClient(app)


def person(app: FastAPI, name: str) -> TestClient:
    """A browser signed up as ``name``."""
    c = browser(app)
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def rated_game(c: TestClient, seats: list[str], seed: int = 3, **extra: Any,
               ) -> dict[str, Any]:
    r = c.post("/api/games", json={"config": {"players": len(seats), "seed": seed},
                                   "seats": seats, "rated": True, **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def claim(c: TestClient, game: dict[str, Any], seat: int) -> str:
    token: str = game["seats"][seat]["token"]
    r = c.post("/api/account/claim", json={"game_id": game["id"], "token": token})
    assert r.status_code == 200, r.text
    return token


def play_out(c: TestClient, gid: str, toks: dict[int, str], seed: int = 1,
             until: int | None = None) -> dict[str, Any]:
    """Random legal moves for the seats of ``toks`` until the game is over (or its seq
    reaches ``until``); the bots play theirs."""
    rng = random.Random(seed)
    while True:
        v = c.get(f"/api/games/{gid}").json()
        if v["over"] or (until is not None and v["seq"] >= until):
            return v
        p = v["current_player"]
        if p not in toks:
            seq = v["seq"]
            eventually(lambda: c.get(f"/api/games/{gid}").json()["seq"] > seq,  # noqa: B023
                       what="a bot's move")
            continue
        mine = c.get(f"/api/games/{gid}", headers=auth(toks[p])).json()
        if mine["seq"] != v["seq"] or not mine["legal_actions"]:
            continue
        r = c.post(f"/api/games/{gid}/actions", headers=auth(toks[p]),
                   json={"action": rng.choice(mine["legal_actions"]), "seq": mine["seq"]})
        assert r.status_code in (200, 409), r.text


def settled(c: TestClient, gid: str) -> dict[str, Any]:
    """The game's ``ratings`` once the job has rated it (or left it unrated)."""
    ratings: dict[str, Any] = eventually(
        lambda: (lambda r: r if r["status"] != "pending" else None)(
            c.get(f"/api/games/{gid}").json()["ratings"]), what="the game rated")
    return ratings


def board(c: TestClient, family: str = "age-of-sail") -> dict[str, dict[str, Any]]:
    r = c.get(f"/api/ratings/{family}")
    assert r.status_code == 200, r.text
    return {p["name"]: p for p in r.json()["players"]}


def test_a_rated_game_rates_two_accounts_and_a_bot(app: FastAPI) -> None:
    anna, ben = person(app, "Anna"), person(app, "Ben")
    before = board(anna)
    assert "Anna" not in before and before["Easy bot"]["games"] == 0
    game = rated_game(anna, ["human", "human", "bot:easy"])
    gid = game["id"]
    toks = {0: claim(anna, game, 0), 1: claim(ben, game, 1)}
    view = anna.get(f"/api/games/{gid}").json()
    assert view["rated"] is True
    assert view["ratings"] == {"status": "pending", "reason": None,
                               "family": "age-of-sail", "changes": []}
    end = play_out(anna, gid, toks)
    ratings = settled(anna, gid)
    assert ratings["status"] == "done" and ratings["reason"] is None
    changes = {c["seat"]: c for c in ratings["changes"]}
    assert sorted(changes) == [0, 1, 2]
    assert [changes[s]["name"] for s in (0, 1, 2)] == ["Anna", "Ben", "Easy bot"]
    assert [changes[s]["kind"] for s in (0, 1, 2)] == ["account", "account", "bot"]
    assert changes[0]["before"] == changes[1]["before"] == 0.0
    assert changes[2]["before"] == before["Easy bot"]["rating"]
    ranks = {s["seat"]: s["rank"] for s in end["scores"]}
    for c in changes.values():
        assert c["change"] == round(c["after"] - c["before"], 1) and c["change"] != 0
    after = board(anna)
    assert after["Anna"]["games"] == after["Ben"]["games"] == after["Easy bot"]["games"] == 1
    assert after["Anna"]["rating"] == changes[0]["after"]
    assert after["Easy bot"]["rating"] == changes[2]["after"]
    assert after["Medium bot"] == {**before["Medium bot"], "rank": after["Medium bot"]["rank"]}
    # the first place gains more than the last (OpenSkill: by the places, ties shared)
    best, worst = min(ranks, key=ranks.__getitem__), max(ranks, key=ranks.__getitem__)
    if ranks[best] != ranks[worst]:
        assert changes[best]["change"] > changes[worst]["change"]
    profile = browser(app).get("/api/players/anna").json()
    assert profile["name"] == "Anna" and profile["games_played"] == 1
    assert profile["games_finished"] == 1 and sum(profile["results"].values()) == 1
    [mine] = profile["ratings"]
    assert mine["family"] == "age-of-sail" and mine["rating"] == changes[0]["after"]
    assert mine["games"] == 1 and mine["plays_like"] in ("easy", "medium", "hard", "expert")
    assert [(h["game_id"], h["rating"]) for h in mine["history"]] == [
        (gid, changes[0]["after"])]
    [recent] = profile["recent"]
    assert recent["game_id"] == gid and recent["status"] == "over"
    assert recent["replay"] == f"/replay/{gid}" and recent["players"] == 3
    assert recent["place"] in (1, 2, 3) and isinstance(recent["score"], int)
    # the job does not rate it again (another app's rater on the same database neither)
    assert app.state.rater.run_pending() == []
    assert app.state.rater.rate(gid) is None
    assert board(anna)["Anna"]["games"] == 1


def test_an_unrated_game_changes_no_rating(app: FastAPI) -> None:
    anna, ben = person(app, "Anna"), person(app, "Ben")
    before = board(anna)
    r = anna.post("/api/games", json={"config": {"players": 3, "seed": 3},
                                      "seats": ["human", "human", "bot:easy"]})
    game = r.json()
    toks = {0: claim(anna, game, 0), 1: claim(ben, game, 1)}
    play_out(anna, game["id"], toks)
    view = anna.get(f"/api/games/{game['id']}").json()
    assert view["rated"] is False and "ratings" not in view
    assert board(anna) == before
    assert browser(app).get("/api/players/Anna").json()["ratings"] == []


def test_a_guest_may_not_move_in_a_rated_game(app: FastAPI) -> None:
    anna = person(app, "Anna")
    game = rated_game(anna, ["human", "human"], seed=next(
        s for s in range(50) if _first(s) == 1))
    guest = game["seats"][1]["token"]
    view = anna.get(f"/api/games/{game['id']}", headers=auth(guest)).json()
    assert view["current_player"] == 1
    r = anna.post(f"/api/games/{game['id']}/actions", headers=auth(guest),
                  json={"action": view["legal_actions"][0], "seq": view["seq"]})
    assert r.status_code == 403
    assert "sign in and claim your seat" in r.json()["detail"]
    r = anna.post(f"/api/games/{game['id']}/actions?lang=fr", headers=auth(guest),
                  json={"action": view["legal_actions"][0], "seq": view["seq"]})
    assert r.status_code == 403 and "partie classée" in r.json()["detail"]
    assert anna.get(f"/api/games/{game['id']}").json()["seq"] == view["seq"]
    # once claimed by an account, the same link moves
    ben = person(app, "Ben")
    claim(ben, game, 1)  # (the seat takes Ben's name: an entry of the log)
    view = ben.get(f"/api/games/{game['id']}", headers=auth(guest)).json()
    r = ben.post(f"/api/games/{game['id']}/actions", headers=auth(guest),
                 json={"action": view["legal_actions"][0], "seq": view["seq"]})
    assert r.status_code == 200, r.text


def _first(seed: int) -> int | None:
    from endeavor import GameConfig, new_game

    return new_game(GameConfig(players=2, seed=seed)).current_player


def test_a_rated_game_needs_an_account_and_fitting_seats(app: FastAPI) -> None:
    guest = browser(app)
    lobby = len(guest.get("/api/games").json()["games"])
    body = {"config": {"players": 2, "seed": 1}, "seats": ["human", "bot:easy"],
            "rated": True}
    r = guest.post("/api/games", json=body)
    assert r.status_code == 401 and "needs an account" in r.json()["detail"]
    r = guest.post("/api/games", json=body, headers={"Accept-Language": "fr"})
    assert r.status_code == 401 and "compte" in r.json()["detail"]
    anna = person(app, "Anna")
    for seats, words in ((["hotseat", "hotseat"], "hot-seat"),
                         (["bot:easy", "bot:hard"], "person"),
                         (["human", "bot:random"], "levels")):
        r = anna.post("/api/games", json={**body, "seats": seats})
        assert r.status_code == 400 and words in r.json()["detail"], r.text
    assert len(guest.get("/api/games").json()["games"]) == lobby
    # a bearer token of the account serves too
    r = guest.post("/api/account/signin", json={"name": "Anna", "password": PASSWORD,
                                                "bearer": True})
    token = r.json()["token"]
    r = TestClient(app).post("/api/games", json=body, headers=auth(token))
    assert r.status_code == 201, r.text


def test_a_game_ended_by_the_host_is_unrated(app: FastAPI) -> None:
    anna, ben = person(app, "Anna"), person(app, "Ben")
    before = board(anna)
    game = rated_game(anna, ["human", "human", "bot:medium"])
    toks = {0: claim(anna, game, 0), 1: claim(ben, game, 1)}
    play_out(anna, game["id"], toks, until=12)
    r = anna.post(f"/api/games/{game['id']}/host/end", headers=auth(game["host_token"]))
    assert r.status_code == 200, r.text
    ratings = settled(anna, game["id"])
    assert ratings["status"] == "unrated" and ratings["changes"] == []
    assert "host ended the game" in ratings["reason"]
    fr = anna.get(f"/api/games/{game['id']}?lang=fr").json()["ratings"]["reason"]
    assert "hôte" in fr
    assert board(anna) == before


def test_a_seat_given_to_a_bot_or_timed_out_is_rated_at_its_place(app: FastAPI) -> None:
    anna, ben = person(app, "Anna"), person(app, "Ben")
    game = rated_game(anna, ["human", "human", "bot:easy"], clock={
        "per_decision": 1, "bank": 0, "on_timeout": "game", "bot": "easy",
        "reclaim": False})
    gid = game["id"]
    claim(anna, game, 0)
    claim(ben, game, 1)
    # nobody moves: each seat's time runs out and the easy bot plays it to the end
    eventually(lambda: anna.get(f"/api/games/{gid}").json()["over"], timeout=120,
               what="the bots finishing the game")
    ratings = settled(anna, gid)
    assert ratings["status"] == "done"
    assert [c["name"] for c in ratings["changes"]] == ["Anna", "Ben", "Easy bot"]
    assert board(anna)["Ben"]["games"] == 1


def test_the_host_giving_a_claimed_seat_to_a_bot_still_rates_it(app: FastAPI) -> None:
    anna, ben = person(app, "Anna"), person(app, "Ben")
    game = rated_game(anna, ["human", "human", "bot:easy"])
    gid = game["id"]
    toks = {0: claim(anna, game, 0), 1: claim(ben, game, 1)}
    r = anna.post(f"/api/games/{gid}/host/seats/1/bot", headers=auth(game["host_token"]),
                  json={"bot": "easy"})
    assert r.status_code == 200, r.text
    play_out(anna, gid, {0: toks[0]})
    ratings = settled(anna, gid)
    assert ratings["status"] == "done"
    assert {c["name"] for c in ratings["changes"]} == {"Anna", "Ben", "Easy bot"}


def test_a_seat_nobody_claimed_leaves_the_game_unrated(app: FastAPI) -> None:
    anna = person(app, "Anna")
    before = board(anna)
    game = rated_game(anna, ["human", "human", "bot:easy"])
    gid = game["id"]
    toks = {0: claim(anna, game, 0)}
    r = anna.post(f"/api/games/{gid}/host/seats/1/bot", headers=auth(game["host_token"]),
                  json={"bot": "easy"})
    assert r.status_code == 200, r.text
    play_out(anna, gid, toks)
    ratings = settled(anna, gid)
    assert ratings["status"] == "unrated" and "(P1)" in ratings["reason"]
    assert board(anna) == before


def test_an_account_deleted_during_the_game_is_left_out(app: FastAPI) -> None:
    anna, ben = person(app, "Anna"), person(app, "Ben")
    game = rated_game(anna, ["human", "human", "bot:easy"])
    gid = game["id"]
    toks = {0: claim(anna, game, 0), 1: claim(ben, game, 1)}
    play_out(anna, gid, toks, until=10)
    r = ben.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code in (200, 204), r.text
    play_out(anna, gid, {0: toks[0]})
    ratings = settled(anna, gid)
    assert ratings["status"] == "done"
    assert [(c["seat"], c["kind"]) for c in ratings["changes"]] == [(0, "account"),
                                                                   (2, "bot")]
    assert "Ben" not in board(anna) and board(anna)["Anna"]["games"] == 1


def test_two_apps_rate_a_game_once(app: FastAPI, url: str) -> None:
    anna, ben = person(app, "Anna"), person(app, "Ben")
    game = rated_game(anna, ["human", "human"])
    toks = {0: claim(anna, game, 0), 1: claim(ben, game, 1)}
    app.state.rater.stop()  # this app's rater waits: the two below race for the game
    play_out(anna, game["id"], toks)
    other = create_app(url, bot_budgets=BUDGETS)
    got: list[list[str]] = []
    barrier = threading.Barrier(2)

    def run(rater: Any) -> None:
        barrier.wait()
        got.append(rater.run_pending())

    threads = [threading.Thread(target=run, args=(r,))
               for r in (app.state.rater, other.state.rater)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(len(g) for g in got) == [0, 1]
    assert board(anna)["Anna"]["games"] == 1
    assert len(settled(anna, game["id"])["changes"]) == 2
    other.state.engine.dispose()


def test_the_families_leaderboard_and_profile_errors(app: FastAPI) -> None:
    c = browser(app)
    assert c.get("/api/ratings").json() == {"families": [
        {"id": "age-of-sail", "name": "Age of Sail"},
        {"id": "classic", "name": "The 2009 game"},
        {"id": "silent-fleet", "name": "The Silent Fleet"}]}
    fr = c.get("/api/ratings?lang=fr").json()["families"]
    assert [f["name"] for f in fr][1:] == ["Le jeu de 2009", "La Flotte Silencieuse"]
    r = c.get("/api/ratings/chess")
    assert r.status_code == 404 and "chess" in r.json()["detail"]
    r = c.get("/api/players/nobody")
    assert r.status_code == 404 and r.json()["detail"] == "no player called 'nobody'"
    for family in ("age-of-sail", "classic", "silent-fleet"):
        players = c.get(f"/api/ratings/{family}").json()["players"]
        bots = [p for p in players if p["kind"] == "bot"]
        assert {"easy", "medium", "hard"} <= {p["level"] for p in bots}
        assert all(p["games"] == 0 and p["name"].endswith(" bot") for p in bots)
        assert [p["rank"] for p in players] == sorted(p["rank"] for p in players)
        assert [p["rating"] for p in players] == sorted((p["rating"] for p in players),
                                                        reverse=True)
        for p in bots:
            assert abs(p["rating"] - (p["mu"] - 3 * p["sigma"])) < 0.06


def test_the_migration_goes_up_and_down(url: str) -> None:
    from alembic import command
    from sqlalchemy import inspect

    from endeavor.web import db

    engine = db.make_engine(url)
    try:
        db.upgrade(engine)
        names = {"game_ratings", "ratings", "rating_history"}
        assert names <= set(inspect(engine).get_table_names())
        assert "rated" in {c["name"] for c in inspect(engine).get_columns("games")}
        cfg = db.alembic_config(engine.url.render_as_string(hide_password=False))
        command.downgrade(cfg, "0006")
        assert not names & set(inspect(engine).get_table_names())
        assert "rated" not in {c["name"] for c in inspect(engine).get_columns("games")}
        command.upgrade(cfg, "head")
        assert names <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_the_migrations_go_to_the_database_named_whatever_the_environment(
        url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration run for one database never touches the one ``$ENDEAVOR_DB`` names
    (``endeavor serve`` sets it for its workers)."""
    from alembic import command
    from sqlalchemy import inspect

    from endeavor.web import db

    other = f"sqlite:///{tmp_path}/other.db"
    monkeypatch.setenv("ENDEAVOR_DB", other)
    engine = db.make_engine(url)
    try:
        db.upgrade(engine)
        command.downgrade(db.alembic_config(url), "0006")
        assert "ratings" not in set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert not (tmp_path / "other.db").exists()
