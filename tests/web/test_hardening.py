"""A server that only ever answers in words, in process (TestClient): strict JSON bodies,
the security headers on every kind of response, 503 in words when the database cannot
serve, bots that wait for the database and try again. The same against a real server
process: ``test_server_limits.py`` and ``test_db_unavailable.py``."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from endeavor.web import dbhealth
from endeavor.web.hardening import CSP, DOCS_CSP, body_problem

JSON = "application/json"


# --------------------------------------------------------------------------- strict JSON
@pytest.mark.parametrize("body, words", [
    (b'{"seed": NaN}', "NaN is not a JSON number"),
    (b'{"seed": Infinity}', "Infinity is not a JSON number"),
    (b'{"a": [1, {"b": -Infinity}]}', "-Infinity is not a JSON number"),
    (b'{"seed": 1e999}', "too large"),
    (b'{"seed": -2e400}', "too large"),
    (b'{"t": "a\\ud800"}', "lone UTF-16 surrogate"),
    (b'{"t": ["x", {"y": "\\uDFFF"}]}', "lone UTF-16 surrogate"),
    (b'{"\\udc00": 1}', "lone UTF-16 surrogate"),
    (b'{"t": "\xed\xa0\x80"}', "not valid UTF-8"),  # a surrogate's bytes (CESU-8)
    (b'{"t": "\xff"}', "not valid UTF-8"),
    ('{"t": 1}'.encode("utf-16-le"), "not UTF-8"),
    (b'{"seed": 1' + b"0" * 5000 + b"}", "too many digits"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
])
def test_body_problem_refuses_what_json_does_not_allow(body: bytes, words: str) -> None:
    reason = body_problem(body, JSON)
    assert reason is not None and words in reason, reason


@pytest.mark.parametrize("body", [
    b'{"t": "\\ud83d\\ude00 ok", "n": 1.5e300, "m": -0.0, "i": 123456789012345678901}',
    b'{"t": "\\\\ud800 is text, not an escape"}',
    '{"t": "caf\u00e9 \U0001F600"}'.encode(),
    b"\xef\xbb\xbf{}",  # a BOM: Python's json accepts it, so do we
    b"{not json",  # FastAPI's 422 says where
    b"",
])
def test_body_problem_accepts_json_and_leaves_syntax_errors_to_fastapi(body: bytes) -> None:
    assert body_problem(body, JSON) is None
    assert body_problem(body, "application/vnd.api+json; charset=utf-8") is None


def test_body_problem_of_other_content_types_only_wants_utf8() -> None:
    assert body_problem(b"[NaN]", "text/plain") is None  # not parsed as JSON by FastAPI
    assert "UTF-8" in (body_problem(b"\xff", "text/plain") or "")
    assert "UTF-8" in (body_problem(b"\xff", None) or "")


def test_every_way_in_refuses_nan_and_surrogates_with_words(client: TestClient) -> None:
    r = client.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                        "seats": ["human", "human"]})
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    record = client.get(f"/api/games/{gid}/record").text
    auth = {"Authorization": f"Bearer {token}", "Content-Type": JSON}
    nan_record = record.replace('"seed":1', '"seed":NaN')
    assert nan_record != record
    bad = [(path, body.replace("SEATS", '["human", "human"]').replace("RECORD", record)
            .replace("NANREC", nan_record)) for path, body in [
        ("/api/games", '{"config": {"players": 2, "seed": NaN}, "seats": SEATS}'),
        ("/api/games", '{"config": {"players": Infinity}, "seats": SEATS}'),
        ("/api/games", '{"config": {"players": 2, "options": {"x": -Infinity}}, "seats": SEATS}'),
        ("/api/games", '{"config": {"players": 2, "\\ud800": 1}, "seats": SEATS}'),
        ("/api/games", '{"config": {"players": 2}, "seats": ["human", "\\ud800"]}'),
        ("/api/games", '{"config": {"players": 2}, "seats": SEATS, "title": "a\\udbff"}'),
        (f"/api/games/{gid}/actions", '{"action": "\\ud800", "seq": 0}'),
        (f"/api/games/{gid}/actions", '{"action": "pass", "seq": NaN}'),
        (f"/api/games/{gid}/undo", '{"seq": Infinity}'),
        ("/api/games/import", '{"record": NANREC, "seats": SEATS}'),
        ("/api/games/import", '{"record": RECORD, "seats": SEATS, "title": "\\udc00"}'),
    ]]
    for path, body in bad:
        r = client.post(path, content=body.encode(), headers=auth)
        assert r.status_code == 400, (path, body, r.status_code, r.text)
        detail = r.json()["detail"]
        assert isinstance(detail, str) and "JSON" in detail, detail
    assert client.get(f"/api/games/{gid}").json()["seq"] == 0  # nothing got through


# --------------------------------------------------------------------------- headers
def _has_security_headers(r: Any, csp: str = CSP) -> None:
    assert r.headers["content-security-policy"] == csp, r.request.url
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_every_response_has_the_security_headers(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(max_body=4000)) as client:
        created = client.post("/api/games", json={"config": {"players": 2},
                                                  "seats": ["human", "human"]})
        gid = created.json()["id"]
        responses = [
            created,
            *(client.get(p) for p in ("/", "/new", f"/play/{gid}", f"/game/{gid}",
                                      f"/replay/{gid}", f"/replay/{gid}/0",
                                      "/static/app.js", "/static/style.css",
                                      "/static/favicon.svg", "/static/nothing.js",
                                      "/api/meta", "/api/games", f"/api/games/{gid}",
                                      f"/api/games/{gid}/record", "/api/games/nope",
                                      "/openapi.json", "/api/games?limit=0")),
            client.post(f"/api/games/{gid}/actions", json={"action": "pass", "seq": 0}),
            client.post("/api/games", content=b"[NaN]", headers={"Content-Type": JSON}),
            client.post("/api/games", json={"title": "x" * 5000}),  # 413
        ]
        statuses = {r.status_code for r in responses}
        assert statuses >= {200, 201, 400, 401, 404, 413, 422}, statuses
        for r in responses:
            _has_security_headers(r)
        for path in ("/docs", "/redoc"):  # FastAPI's pages: a CDN and an inline script
            _has_security_headers(client.get(path), DOCS_CSP)


def test_app_csp_forbids_inline_script_and_framing() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CSP.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["connect-src"] == "'self'"
    assert "'unsafe-inline'" not in directives["default-src"]


def test_internal_error_in_words_with_headers(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()

    def boom(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("secret internals")

    app.state.store.lobby = boom
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/games")
    assert r.status_code == 500 and r.json() == {"detail": "internal error"}
    assert "secret" not in r.text
    _has_security_headers(r)
    assert r.headers["connection"] == "close"


# --------------------------------------------------------------------------- database
def _wrapped(orig: BaseException, statement: str | None = "INSERT INTO moves ...") -> Any:
    return OperationalError(statement, {}, orig)  # type: ignore[arg-type]


def test_unavailable_reasons_in_words() -> None:
    psycopg = pytest.importorskip("psycopg")
    reason = dbhealth.unavailable_reason
    assert reason(_wrapped(sqlite3.OperationalError("database or disk is full"))) == \
        "the disk is full"
    assert reason(_wrapped(sqlite3.OperationalError(
        "attempt to write a readonly database"))) == "the database file is read-only"
    assert "I/O error" in (reason(_wrapped(sqlite3.OperationalError("disk I/O error"))) or "")
    pg = psycopg.errors.lookup
    assert reason(_wrapped(pg("53100")("could not extend file"))) == \
        "the database server's disk is full"
    assert reason(_wrapped(pg("25006")("read-only transaction"))) == \
        "the database is read-only"
    assert reason(_wrapped(pg("57P01")("terminating connection"))) == dbhealth.UNREACHABLE
    assert reason(_wrapped(psycopg.OperationalError("connection failed"))) == \
        dbhealth.UNREACHABLE
    assert reason(PoolTimeoutError()) is not None
    # bugs stay bugs (500)
    assert reason(IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE"))) is None
    assert reason(ProgrammingError("SELECT", {}, pg("42P01")("no such table"))) is None
    assert reason(RuntimeError("boom")) is None
    # a COMMIT cut off by a lost connection may have gone through; a statement not
    assert dbhealth.outcome_unknown(_wrapped(psycopg.OperationalError("lost"), None))
    assert not dbhealth.outcome_unknown(_wrapped(psycopg.OperationalError("lost")))
    assert not dbhealth.outcome_unknown(_wrapped(sqlite3.OperationalError("disk is full"),
                                                 None))


def test_unwritable_database_is_503_in_words_and_reads_go_on(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app()
    store = app.state.store
    with TestClient(app) as client:
        r = client.post("/api/games", json={"config": {"players": 2, "seed": 4},
                                            "seats": ["human", "human"]})
        gid, toks = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
        view = client.get(f"/api/games/{gid}").json()
        token = toks[view["current_player"]]
        action = client.get(f"/api/games/{gid}", headers={
            "Authorization": f"Bearer {token}"}).json()["legal_actions"][0]

        def full(*_a: Any, **_k: Any) -> Any:
            raise _wrapped(sqlite3.OperationalError("database or disk is full"))

        monkeypatch.setattr(store.engine, "begin", full)  # every write; reads go on
        r = client.post(f"/api/games/{gid}/actions", headers={
            "Authorization": f"Bearer {token}"}, json={"action": action, "seq": 0})
        assert r.status_code == 503, r.text
        assert r.json()["detail"] == ("the database cannot be written right now (the disk "
                                      "is full); your move was not recorded — try again "
                                      "later")
        assert r.headers["retry-after"]
        _has_security_headers(r)
        r = client.post("/api/games", json={"config": {"players": 2},
                                            "seats": ["human", "human"]})
        assert r.status_code == 503 and "the game was not created" in r.json()["detail"]
        # reads are served, the game unchanged
        assert client.get(f"/api/games/{gid}").json()["seq"] == 0
        assert client.get("/api/games").status_code == 200
        assert client.get(f"/api/games/{gid}/record").status_code == 200
        monkeypatch.undo()
        r = client.post(f"/api/games/{gid}/actions", headers={
            "Authorization": f"Bearer {token}"}, json={"action": action, "seq": 0})
        assert r.status_code == 200 and r.json()["seq"] == 1


def test_bots_wait_for_the_database_and_try_again(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A bot whose move the database refuses (a full disk) is not lost: its game waits,
    one line is logged, and the bot moves once the database takes writes again."""
    app = make_app()
    store, runner = app.state.store, app.state.runner
    runner.retry_seconds = 0.05
    real_append = store.append
    failures = {"left": 3, "bot_moves": 0}

    def append(game_id: str, seats: Any, action: str, seq: int, **kw: Any) -> Any:
        if seats is not None and 1 in seats and failures["left"] > 0:  # the bot's seat
            failures["left"] -= 1
            raise _wrapped(sqlite3.OperationalError("database or disk is full"))
        snap = real_append(game_id, seats, action, seq, **kw)
        failures["bot_moves"] += seats is not None and 1 in seats
        return snap

    monkeypatch.setattr(store, "append", append)
    caplog.set_level(logging.WARNING, logger="endeavor.web")
    with TestClient(app) as client:
        r = client.post("/api/games", json={"config": {"players": 2, "seed": 5},
                                            "seats": ["human", "bot:random"]})
        assert r.status_code == 201
        gid, token = r.json()["id"], r.json()["seats"][0]["token"]
        deadline = time.monotonic() + 10
        v = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
        while not failures["bot_moves"]:
            if v["current_player"] == 0:  # the human's turn: play, the bot follows
                r = client.post(f"/api/games/{gid}/actions",
                                headers={"Authorization": f"Bearer {token}"},
                                json={"action": v["legal_actions"][0], "seq": v["seq"]})
                assert r.status_code == 200, r.text
            assert time.monotonic() < deadline, "the bot never moved"
            time.sleep(0.05)
            v = client.get(f"/api/games/{gid}",
                           headers={"Authorization": f"Bearer {token}"}).json()
    assert failures["left"] == 0
    waits = [r.getMessage() for r in caplog.records if "waits" in r.getMessage()]
    assert waits and all("the disk is full" in m for m in waits)
    assert not [r for r in caplog.records if r.exc_info], "no traceback for a full disk"


def test_database_error_that_is_a_bug_stays_500(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()

    def broken(*_a: Any, **_k: Any) -> Any:
        raise ProgrammingError("SELECT x", {}, sqlite3.ProgrammingError("no such column"))

    app.state.store.lobby = broken
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/games")
    assert r.status_code == 500 and r.json() == {"detail": "internal error"}
