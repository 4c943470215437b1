"""Optional accounts through the HTTP API (docs/web.md, "Accounts"), on SQLite and
PostgreSQL: sign up, in, out and out everywhere; failed sign-ins limited (429 with
Retry-After), in the database so two app instances agree; Argon2id hashes; the cookie's
flags (Secure over HTTPS, from a trusted proxy only, and behind the documented nginx);
another origin refused; a seat claimed and seen under "Your games" from a second
session; the account's data; its deletion; the migration up and down. (An unknown name
and a wrong password answer alike: test_account_security.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import deploydoc
import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select
from tools.loadtest import ServerProcess
from webapi import auth

from endeavor.web import db
from endeavor.web.accounts import MAX_FAILURES, tables
from endeavor.web.app import create_app

PASSWORD = "correct horse battery"
BUDGETS = {"hard": {"iterations": 30}, "mcts": {"iterations": 30}}


@pytest.fixture
def url(both_db_url: str) -> str:
    """A fresh database of each kind."""
    return both_db_url


@pytest.fixture
def app(url: str) -> Iterator[FastAPI]:
    made = create_app(url, bot_budgets=BUDGETS, poll_seconds=0.05)
    with TestClient(made):  # its lifespan: the bots' threads
        yield made


def client(app: FastAPI, base_url: str = "http://testserver",
           address: str = "testclient") -> TestClient:
    """A client of its own (a browser of its own: its own cookies), from ``address``."""
    return TestClient(app, base_url=base_url, client=(address, 50000))


def sign_up(c: TestClient, name: str, password: str = PASSWORD, **kw: Any) -> httpx.Response:
    r: httpx.Response = c.post("/api/account/signup",
                               json={"name": name, "password": password, **kw})
    assert r.status_code == 201, r.text
    return r


def sign_in(c: TestClient, name: str, password: str = PASSWORD) -> httpx.Response:
    r: httpx.Response = c.post("/api/account/signin",
                               json={"name": name, "password": password})
    return r


def new_game(c: TestClient, seats: list[str]) -> dict[str, Any]:
    r = c.post("/api/games", json={"config": {"players": len(seats), "seed": 3},
                                   "seats": seats})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def seat_token(game: dict[str, Any], seat: int) -> str:
    token: str = game["seats"][seat]["token"]
    return token


def test_sign_up_in_out_and_who_am_i(app: FastAPI) -> None:
    a = client(app)
    assert a.get("/api/account").status_code == 401
    r = sign_up(a, "Anna")
    assert r.json()["name"] == "Anna" and "token" not in r.json()
    assert a.get("/api/account").json()["name"] == "Anna"
    assert a.post("/api/account/signout").status_code == 204
    assert a.get("/api/account").status_code == 401
    r = sign_in(a, "  ANNA ")  # the name, case and spaces aside
    assert r.status_code == 200 and r.json()["name"] == "Anna"
    assert a.get("/api/account").json()["name"] == "Anna"
    # an API client: the session's token as a bearer header
    r = a.post("/api/account/signin", json={"name": "anna", "password": PASSWORD,
                                            "bearer": True})
    token = r.json()["token"]
    api = client(app)
    assert api.get("/api/account", headers=auth(token)).json()["name"] == "Anna"
    assert api.get("/api/account", headers=auth("not-a-session")).status_code == 401


def test_names_and_passwords_are_checked(app: FastAPI) -> None:
    a = client(app)
    r = a.post("/api/account/signup", json={"name": "Bea", "password": "short"})
    assert r.status_code == 400 and "at least 8 characters" in r.json()["detail"]
    for name in ("", "P2", "x" * 25, "Deleted player"):
        r = a.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 400, name
    sign_up(a, "Bea")
    r = client(app).post("/api/account/signup", json={"name": "bEA", "password": PASSWORD})
    assert r.status_code == 409 and "taken" in r.json()["detail"]


def test_sign_out_everywhere_ends_every_session(app: FastAPI) -> None:
    phone, laptop = client(app), client(app)
    sign_up(phone, "Cy")
    assert sign_in(laptop, "Cy").status_code == 200
    assert laptop.post("/api/account/signout-everywhere").status_code == 204
    assert phone.get("/api/account").status_code == 401
    assert laptop.get("/api/account").status_code == 401
    assert laptop.post("/api/account/signout-everywhere").status_code == 401
    assert sign_in(phone, "Cy").status_code == 200  # the account itself lives on


def test_the_password_is_kept_as_an_argon2id_hash(app: FastAPI, url: str) -> None:
    sign_up(client(app), "Dee")
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            stored = conn.execute(select(tables.accounts.c.password_hash)).scalar_one()
    finally:
        engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_failed_sign_ins_are_limited_per_name_and_per_address(app: FastAPI, url: str) -> None:
    sign_up(client(app), "Fay")
    attacker = client(app)
    for i in range(MAX_FAILURES):
        assert sign_in(attacker, "Fay", f"guess {i}").status_code == 401
    r = sign_in(attacker, "Fay")  # even the right password, until the window has passed
    assert r.status_code == 429 and "too many failed sign-ins" in r.json()["detail"]
    assert 0 < int(r.headers["retry-after"]) <= 15 * 60
    # a second app on the same database (another worker) counts the same failures
    other = create_app(url, bot_budgets=BUDGETS)
    assert sign_in(client(other), "Fay").status_code == 429
    other.state.engine.dispose()
    # the address too: other names from the same client are refused now
    r = sign_in(attacker, "Someone else")
    assert r.status_code == 429 and "retry-after" in r.headers


def test_the_cookie_flags(app: FastAPI) -> None:
    r = sign_up(client(app), "Gus")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("endeavor_session=")
    flags = {f.strip().lower() for f in cookie.split(";")[1:]}
    assert {"httponly", "samesite=lax", "path=/"} <= flags and "secure" not in flags
    r = client(app, "https://testserver").post(
        "/api/account/signin", json={"name": "Gus", "password": PASSWORD})
    flags = {f.strip().lower() for f in r.headers["set-cookie"].split(";")[1:]}
    assert {"httponly", "samesite=lax", "secure"} <= flags


def test_a_request_from_another_origin_is_refused(app: FastAPI) -> None:
    a = client(app)
    sign_up(a, "Hal")
    other = {"Origin": "http://testserver:8001"}  # another port: same site, not same origin
    r = a.post("/api/account/signout-everywhere", headers=other)
    assert r.status_code == 403 and "another origin" in r.json()["detail"]
    r = a.post("/api/account/signup", json={"name": "Ida", "password": PASSWORD},
               headers={"Referer": "https://evil.example/form"})
    assert r.status_code == 403
    assert a.get("/api/account").json()["name"] == "Hal"  # still signed in
    # a rated game is created with the account's cookie: not from another origin either
    r = a.post("/api/games", headers=other, json={
        "config": {"players": 2, "seed": 1}, "seats": ["human", "bot:easy"], "rated": True})
    assert r.status_code == 403 and "another origin" in r.json()["detail"]
    assert a.get("/api/games").json()["games"] == []  # nothing created
    r = a.post("/api/account/signout", headers={"Origin": "http://testserver"})
    assert r.status_code == 204


def test_a_claimed_seat_is_under_your_games_on_another_device(app: FastAPI) -> None:
    phone = client(app)
    sign_up(phone, "Jo")
    game = new_game(phone, ["human", "human", "bot:random"])
    gid, mine, theirs = game["id"], seat_token(game, 0), seat_token(game, 1)
    r = phone.post("/api/account/claim", json={"game_id": gid, "token": mine})
    assert r.status_code == 200, r.text
    assert r.json() == {"game_id": gid, "seat": 0, "name": "Jo",
                        "link": f"/play/{gid}#{mine}"}
    view = phone.get(f"/api/games/{gid}", headers=auth(mine)).json()
    assert view["seats"][0]["name"] == "Jo" and view["you"] == [0]
    laptop = client(app)
    assert sign_in(laptop, "jo").status_code == 200
    listed = laptop.get("/api/account/games").json()
    assert [g["id"] for g in listed["games"]] == [gid]
    got = listed["games"][0]
    assert got["seat"] == 0 and got["valid"] and got["link"] == f"/play/{gid}#{mine}"
    assert got["to_move"] == view["current_player"]
    assert got["your_move"] == (view["current_player"] == 0)
    assert got["game"]["seats"][0]["name"] == "Jo"
    # the other seat is a guest's: it plays as ever, and another account cannot take Jo's
    assert phone.get(f"/api/games/{gid}", headers=auth(theirs)).json()["you"] == [1]
    kim = client(app)
    sign_up(kim, "Kim")
    r = kim.post("/api/account/claim", json={"game_id": gid, "token": mine})
    assert r.status_code == 409
    r = kim.post("/api/account/claim", json={"game_id": gid, "token": "nope"})
    assert r.status_code == 403
    assert client(app).post("/api/account/claim",
                            json={"game_id": gid, "token": theirs}).status_code == 401
    hot = new_game(phone, ["hotseat", "hotseat"])
    r = phone.post("/api/account/claim", json={"game_id": hot["id"],
                                               "token": seat_token(hot, 0)})
    assert r.status_code == 400 and "hot-seat" in r.json()["detail"]
    # newest activity first: a second game claimed later comes first
    second = new_game(phone, ["human", "bot:random"])
    phone.post("/api/account/claim", json={"game_id": second["id"],
                                           "token": seat_token(second, 0)})
    ids = [g["id"] for g in laptop.get("/api/account/games").json()["games"]]
    assert ids == [second["id"], gid]


def test_the_export_has_the_account_and_its_games_but_no_secret(app: FastAPI) -> None:
    a = client(app)
    sign_up(a, "Lea")
    game = new_game(a, ["human", "bot:random"])
    a.post("/api/account/claim", json={"game_id": game["id"], "token": seat_token(game, 0)})
    r = a.get("/api/account/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["name"] == "Lea" and len(data["sessions"]) == 1
    assert [(g["game_id"], g["seat"], g["seat_name"]) for g in data["games"]] == [
        (game["id"], 0, "Lea")]
    assert "$argon2" not in r.text and "password" not in r.text
    assert client(app).get("/api/account/export").status_code == 401


def test_deleting_the_account(app: FastAPI) -> None:
    a = client(app)
    sign_up(a, "Max")
    finished = new_game(a, ["human", "human"])
    running = new_game(a, ["human", "human"])
    for g in (finished, running):
        r = a.post("/api/account/claim", json={"game_id": g["id"],
                                               "token": seat_token(g, 1)})
        assert r.status_code == 200, r.text
    r = a.post(f"/api/games/{finished['id']}/host/end", headers=auth(finished["host_token"]))
    assert r.status_code == 200, r.text
    r = a.request("DELETE", "/api/account", json={"password": "not it at all"})
    assert r.status_code == 401
    r = a.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 204
    assert a.get("/api/account").status_code == 401
    assert sign_in(client(app), "Max").status_code == 401
    over = a.get(f"/api/games/{finished['id']}").json()["seats"][1]
    assert over["name"] == "deleted player" and over["played_by"] is None
    view = a.get(f"/api/games/{running['id']}").json()
    seat = view["seats"][1]
    assert seat["name"] == "deleted player" and seat["played_by"] == "medium"
    assert any("P1's player deleted their account: the medium bot plays for them"
               in str(e) for e in view["events"])
    sign_up(client(app), "max")  # the name is free again


def test_the_migration_goes_up_and_down(url: str) -> None:
    from alembic import command

    engine = db.make_engine(url)
    try:
        db.upgrade(engine)
        names = {"accounts", "account_sessions", "seat_claims", "signin_failures",
                 "password_resets"}
        assert names <= set(inspect(engine).get_table_names())
        cfg = db.alembic_config(engine.url.render_as_string(hide_password=False))
        command.downgrade(cfg, "0005")
        assert not names & set(inspect(engine).get_table_names())
        assert "games" in inspect(engine).get_table_names()
        command.upgrade(cfg, "head")
        assert names <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


# --------------------------------------------------------------------------- proxies
def _signup_cookie(base: str, headers: dict[str, str], local: str, name: str) -> str:
    with httpx.Client(base_url=base, timeout=30, trust_env=False,
                      transport=httpx.HTTPTransport(local_address=local)) as c:
        r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD},
                   headers=headers)
        assert r.status_code == 201, r.text
        return r.headers["set-cookie"].lower()


def test_secure_only_when_a_trusted_proxy_says_https(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path}/p.db",
                           extra=("--forwarded-allow-ips", "127.0.0.1"))
    server.start()
    try:
        https = {"X-Forwarded-Proto": "https"}
        assert "secure" in _signup_cookie(server.url, https, "127.0.0.1", "Ned")
        assert "secure" not in _signup_cookie(server.url, {}, "127.0.0.1", "Ola")
        # from an address that is no trusted proxy the header is not believed
        assert "secure" not in _signup_cookie(server.url, https, "127.0.0.2", "Pia")
    finally:
        server.stop()


def test_the_cookie_behind_the_documented_nginx(tmp_path: Path) -> None:
    with deploydoc.proxied(tmp_path, f"sqlite:///{tmp_path / 'games.db'}") as p, \
            httpx.Client(base_url=p.public_url, timeout=30, trust_env=False,
                         verify=p.ssl_context()) as c:
        r = c.post(f"{p.public_url}/api/account/signup",
                   json={"name": "Quin", "password": PASSWORD})
        assert r.status_code == 201, r.text
        flags = {f.strip().lower() for f in r.headers["set-cookie"].split(";")[1:]}
        assert {"secure", "httponly", "samesite=lax", "path=/endeavor"} <= flags
        assert c.get(f"{p.public_url}/api/account").json()["name"] == "Quin"


def test_a_reissued_link_frees_the_seat(app: FastAPI) -> None:
    rae, sam = client(app), client(app)
    sign_up(rae, "Rae")
    sign_up(sam, "Sam")
    game = new_game(rae, ["human", "human"])
    gid = game["id"]
    rae.post("/api/account/claim", json={"game_id": gid, "token": seat_token(game, 0)})
    r = rae.post(f"/api/games/{gid}/host/seats/0/reissue", headers=auth(game["host_token"]))
    assert r.status_code == 200, r.text
    fresh = next(x["token"] for x in r.json()["seats"] if x["seat"] == 0)
    got = rae.get("/api/account/games").json()["games"]
    assert [(g["id"], g["valid"], g["link"], g["your_move"]) for g in got] == [
        (gid, False, None, False)]
    r = sam.post("/api/account/claim", json={"game_id": gid, "token": fresh})
    assert r.status_code == 200 and r.json()["name"] == "Sam"
    assert sam.get("/api/account/games").json()["games"][0]["valid"]
    assert rae.get("/api/account/games").json()["games"] == []


def test_the_refusals_come_in_the_readers_language(app: FastAPI) -> None:
    """An account's refusals in French for a French reader, with their message id; the
    same in English otherwise (the English words unchanged)."""
    fr = {"Accept-Language": "fr-FR,fr;q=0.9"}
    a = client(app)
    r = a.post("/api/account/signup", json={"name": "Gus", "password": "short"}, headers=fr)
    assert r.status_code == 400
    assert r.json()["detail"] == ("un mot de passe a au moins 8 caractères "
                                  "(5 donnés)")
    assert r.json()["message"]["id"] == "web.password.short"
    r = a.post("/api/account/signup", json={"name": "Gus", "password": "short"})
    assert r.json()["detail"] == "a password has at least 8 characters (5 given)"
    sign_up(a, "Gus")
    r = client(app).post("/api/account/signup", json={"name": "gus", "password": PASSWORD},
                         headers=fr)
    assert r.status_code == 409
    assert r.json()["detail"] == "le nom « gus » est déjà pris : choisissez-en un autre"
    stranger = client(app, address="10.9.9.9")
    for who in ("Gus", "Nobody"):  # the same words, known name or not
        r = stranger.post("/api/account/signin", json={"name": who, "password": "wrong one"},
                          headers=fr)
        assert (r.status_code, r.json()["detail"]) == (401, "nom ou mot de passe incorrect")
    for i in range(MAX_FAILURES):
        sign_in(stranger, "Gus", f"guess {i}")
    r = stranger.post("/api/account/signin", json={"name": "Gus", "password": PASSWORD},
                      headers=fr)
    assert r.status_code == 429
    assert r.json()["detail"].startswith("trop de connexions échouées : réessayez dans ")
    assert r.json()["detail"].endswith(("minutes", "minute", "secondes", "seconde"))
    r = client(app).get("/api/account", headers=fr)
    assert r.status_code == 401 and r.json()["detail"].startswith("vous n'êtes pas connecté")
