"""Post-game reviews in the web app (the browser's Review tab; server side):
the review job is queued in the transaction of the move that ends a game, run by the
background runner (queued → running → done, its progress stored as it goes), and its
JSON is exactly :func:`endeavor.analysis.review.review`'s for the same record and budget; a
request queues one for a finished game that has none; an undone end drops it; a review
interrupted by a crash (in process, and a real ``endeavor serve`` killed with SIGKILL)
is resumed from the decisions it saved; on PostgreSQL, of two reviewers exactly one runs
it. Errors in words: 404 for an unknown game, 409 for a game not over.

The game is ``tests/fixtures/review_2p.record.json`` (a finished 2-player game, 103
actions, 91 decisions to review), imported without its last action and finished through
the API, and the budget a tiny :data:`BUDGET` iterations a decision."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import auth, fresh_database, pg_url
from sqlalchemy import select
from tools.loadtest import ServerProcess
from webapi import eventually

from endeavor.analysis.review import review
from endeavor.cli import serve as serve_cli
from endeavor.web import db, reviews, schemas
from endeavor.web.app import create_app
from endeavor.web.reviews import Reviewer, ReviewSettings
from endeavor.web.store import Store, utcnow

FIXTURE = Path(__file__).parent.parent / "fixtures" / "review_2p.record.json"
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())
#: iterations of the hard bot per decision: tiny, so a whole review takes about a second
BUDGET = 5
#: the reviewers of these tests write their progress after every decision
FAST = ReviewSettings(iterations=BUDGET, poll_seconds=0.05, flush_seconds=0.0)


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    """The fixture's review by the engine, every seat, at :data:`BUDGET`."""
    data: dict[str, Any] = json.loads(review(RECORD, iterations=BUDGET).to_json())
    return data


def _finish(client: TestClient | httpx.Client, record: dict[str, Any] = RECORD,
            ) -> tuple[str, dict[int, str], int]:
    """Import ``record`` without its last action (two human seats), then play that action
    through the API: the game's id, the seats' tokens and the seat that ended it."""
    short = {**record, "actions": record["actions"][:-1]}
    r = client.post("/api/games/import", json={"record": short, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    game = r.json()
    gid = game["id"]
    toks = {s["seat"]: s["token"] for s in game["seats"]}
    view = client.get(f"/api/games/{gid}").json()
    assert not view["over"]
    # not over yet: no review to read or ask for
    for method in ("GET", "POST"):
        r = client.request(method, f"/api/games/{gid}/review")
        assert r.status_code == 409, r.text
        assert r.json()["detail"] == ("the game is not over: its review is made once it "
                                      "has ended")
    seat = view["current_player"]
    move = client.post(f"/api/games/{gid}/actions", headers=auth(toks[seat]),
                       json={"action": record["actions"][-1], "seq": view["seq"]})
    assert move.status_code == 200, move.text
    assert move.json()["over"]
    return gid, toks, seat


def _review(client: TestClient | httpx.Client, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/review")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    schemas.ReviewView.model_validate(body)
    return body


def _check_done(body: dict[str, Any], expected: dict[str, Any]) -> None:
    assert body["status"] == "done", body
    assert body["review"] == expected
    total = len(expected["decisions"])
    assert body["done"] == body["total"] == total == 91
    assert body["error"] is None and body["finished"] is not None
    steps = [str(d["step"]) for d in expected["decisions"]]
    assert sorted(body["moves"], key=int) == steps
    for d in expected["decisions"]:
        moves = body["moves"][str(d["step"])]
        assert moves["played"] and moves["best"]
        assert (moves["played"] == moves["best"]) == (d["played"] == d["best"])


# --------------------------------------------------------------------------- in process
def test_queued_at_the_end_run_and_served(make_app: Callable[..., FastAPI],
                                          expected: dict[str, Any]) -> None:
    """The move that ends the game queues the review (the move is answered at once);
    the reviewer claims it (running, its progress readable while it runs) and stores
    the engine's review; asking again changes nothing."""
    app = make_app(review=FAST, run_reviews=False)
    with TestClient(app) as client:
        for method in ("GET", "POST"):
            r = client.request(method, "/api/games/no-such-game/review")
            assert r.status_code == 404 and r.json()["detail"] == "no game 'no-such-game'"
        gid, _, _ = _finish(client)
        queued = _review(client, gid)
        assert queued | {"queued": None} == {
            "id": gid, "enabled": True, "actions": 103, "bot": "hard",
            "policy": "contested", "status": "queued", "iterations": BUDGET, "done": 0,
            "total": None, "error": None, "queued": None,
            "started": None, "finished": None, "eta_seconds": None, "review": None,
            "moves": None}
        assert queued["queued"] is not None
        seen: list[tuple[str, int, int | None, bool]] = []

        def hook(done: int, total: int) -> None:
            if done in (0, 1, 45, 90):
                body = _review(client, gid)
                eta = body["eta_seconds"]  # an estimate once a decision sets the pace
                assert eta is None or eta >= 0
                seen.append((body["status"], body["done"], body["total"], eta is not None))

        reviewer = Reviewer(app.state.store, FAST, hook=hook)
        job = reviewer.claim()
        assert job is not None and job.game_id == gid and job.iterations == BUDGET
        assert reviewer.claim() is None  # held: nobody else gets it
        running = _review(client, gid)
        assert (running["status"], running["started"] is not None) == ("running", True)
        assert reviewer.run(job) == "done"
        assert seen == [("running", 0, 91, False), ("running", 1, 91, True),
                        ("running", 45, 91, True), ("running", 90, 91, True)]
        assert reviewer.computed == 91
        _check_done(_review(client, gid), expected)
        # asking for a review the game has changes nothing
        again = client.post(f"/api/games/{gid}/review")
        assert again.status_code == 200 and again.json()["status"] == "done"
        assert reviewer.claim() is None


def test_the_apps_runner_an_import_a_request_and_an_undone_end(
        db_url: str, expected: dict[str, Any]) -> None:
    """An app whose thread runs the reviews: an imported finished record is reviewed;
    a game that finished while reviews were off has none until asked for; a game whose
    end is undone loses its queued review, and gets a new one when it ends again."""
    off = create_app(db_url, review=ReviewSettings(iterations=0), run_reviews=False)
    with TestClient(off) as client:
        gid, _, _ = _finish(client)
        body = _review(client, gid)
        assert (body["status"], body["enabled"]) == ("none", False)
        r = client.post(f"/api/games/{gid}/review")
        assert r.status_code == 409
        assert r.json()["detail"] == ("this server does not review games (endeavor serve "
                                      "--review-iterations 0)")
    app = create_app(db_url, review=FAST, poll_seconds=0.05)
    with TestClient(app) as client:
        assert _review(client, gid)["status"] == "none"  # ended before: nothing queued
        r = client.post(f"/api/games/{gid}/review")
        assert r.status_code == 200 and r.json()["status"] in ("queued", "running", "done")
        imported = client.post("/api/games/import", json={"record": RECORD,
                                                          "seats": ["human", "human"]})
        assert imported.status_code == 201
        iid = imported.json()["id"]
        for game in (gid, iid):
            body = _eventually(lambda g=game: (b := _review(client, g))["status"] == "done"
                               and b, 30, f"the review of {game}")
            _check_done(body, expected)
    # undo the move that ended a game: its review is dropped; ending it again queues one
    manual = create_app(db_url, review=FAST, run_reviews=False)
    with TestClient(manual) as client:
        uid, toks, seat = _finish(client)
        r = client.post(f"/api/games/{uid}/undo", headers=auth(toks[seat]), json={})
        assert r.status_code == 200 and not r.json()["over"], r.text
        assert client.get(f"/api/games/{uid}/review").status_code == 409
        reviewer = Reviewer(manual.state.store, FAST)
        assert reviewer.run_once() == "dropped"
        assert reviewer.run_once() is None
        r = client.post(f"/api/games/{uid}/actions", headers=auth(toks[seat]),
                        json={"action": RECORD["actions"][-1], "seq": r.json()["seq"]})
        assert r.status_code == 200 and r.json()["over"]
        assert _review(client, uid)["status"] == "queued"
        # the host's end of a game queues its review too (no action: nothing to review)
        created = client.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                                  "seats": ["human", "human"]}).json()
        r = client.post(f"/api/games/{created['id']}/host/end",
                        headers=auth(created["host_token"]))
        assert r.status_code == 200, r.text
        assert _review(client, created["id"])["status"] == "queued"


class Killed(BaseException):
    """The reviewer's process dies (nothing of the run catches it)."""


def test_a_review_cut_short_is_resumed(make_app: Callable[..., FastAPI],
                                       expected: dict[str, Any]) -> None:
    """A reviewer killed after 30 decisions leaves its row running, its lease held and
    30 decisions saved; once the lease runs out another reviewer takes it over, computes
    only the other 61 and stores the same review."""
    app = make_app(review=FAST, run_reviews=False)
    with TestClient(app) as client:
        gid, _, _ = _finish(client)

        def die(done: int, total: int) -> None:
            if done == 30:
                raise Killed()

        first = Reviewer(app.state.store, FAST, hook=die)
        job = first.claim()
        assert job is not None
        with pytest.raises(Killed):
            first.run(job)
        body = _review(client, gid)
        assert (body["status"], body["done"], body["total"]) == ("running", 30, 91)
        second = Reviewer(app.state.store, FAST)
        assert second.claim() is None  # the lease still holds
        later = utcnow() + timedelta(seconds=FAST.lease_seconds + 1)
        taken = second.claim(now=later)
        assert taken is not None and taken.partial
        assert second.run(taken) == "done"
        assert second.computed == 91 - 30
        _check_done(_review(client, gid), expected)
        # the first run, back from the dead, can write nothing any more
        assert not first.renew(job, later)


def test_given_up_after_attempts_without_progress(make_app: Callable[..., FastAPI]) -> None:
    """A review whose reviewer dies before its first decision, three times, fails in
    words; asking again queues it anew."""
    app = make_app(review=FAST, run_reviews=False)
    with TestClient(app) as client:
        gid, _, _ = _finish(client)
        when = utcnow()
        for _ in range(reviews.MAX_ATTEMPTS):
            assert Reviewer(app.state.store, FAST).claim(now=when) is not None
            when += timedelta(seconds=FAST.lease_seconds + 1)
        assert Reviewer(app.state.store, FAST).claim(now=when) is None
        body = _review(client, gid)
        assert body["status"] == "failed"
        assert body["error"] == ("the review was interrupted 3 times without progress "
                                 "(its worker died each time)")
        assert client.post(f"/api/games/{gid}/review").json()["status"] == "queued"


def test_the_default_budget_and_settings() -> None:
    assert serve_cli.DEFAULT_REVIEW_ITERATIONS == reviews.DEFAULT_ITERATIONS
    assert ReviewSettings(iterations=0).enabled is False
    with pytest.raises(ValueError, match="0 \\(no reviews\\)"):
        reviews.check_iterations(-1)


# --------------------------------------------------------------------------- real servers
#: how much longer than on an idle machine a wait may take: CI's 2 cores run three lanes
#: at once, and a review at BUDGET takes ~2 s of CPU on an idle core
SLACK = 4


def _eventually(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """:func:`webapi.eventually` with :data:`SLACK`."""
    return eventually(check, timeout, what, slack=SLACK)


def _partial(url: str, gid: str) -> int:
    """How many decisions the game's review row has saved."""
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            text = conn.execute(select(db.reviews.c.partial)
                                .where(db.reviews.c.game_id == gid)).scalar()
    finally:
        engine.dispose()
    return len(json.loads(text)["decisions"]) if text else 0


def test_a_killed_server_resumes_the_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            expected: dict[str, Any]) -> None:
    """``endeavor serve --review-iterations 5``: the game's end is answered at once, the
    background process reviews it; killed with SIGKILL halfway, the restarted server
    takes the review over when its lease runs out and carries on from the decisions
    saved (its progress never goes back), to the same review."""
    monkeypatch.setenv(reviews.DELAY_VAR, "0.02")  # ~2 s for the 91 decisions
    monkeypatch.setenv(reviews.LEASE_VAR, "1")
    url = f"sqlite:///{tmp_path}/serve.db"
    server = ServerProcess(url, log=tmp_path / "server.log",
                           extra=("--review-iterations", str(BUDGET)))
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=20.0, trust_env=False) as client:
            started = time.monotonic()
            gid, _, _ = _finish(client)
            assert time.monotonic() - started < 10
            _eventually(lambda: _review(client, gid)["done"] >= 20, 30, "20 decisions")
        server.kill()
        saved = _partial(url, gid)
        assert 20 <= saved < 91
        server.start()
        with httpx.Client(base_url=server.url, timeout=20.0, trust_env=False) as client:
            lowest = 91

            def finished() -> Any:
                nonlocal lowest
                body = _review(client, gid)
                if body["status"] == "running":
                    lowest = min(lowest, body["done"])
                return body["status"] == "done" and body

            body = _eventually(finished, 45, "the review done after the restart")
            assert lowest >= saved  # resumed, not started again
            _check_done(body, expected)
    finally:
        server.close()


@pytest.fixture
def pg_db() -> Iterator[str]:
    with fresh_database(pg_url()) as url:
        yield url


def test_postgres_two_reviewers_one_runs_it(pg_db: str, expected: dict[str, Any]) -> None:
    """On PostgreSQL: two reviewers (two processes' stores) race for the queued review;
    exactly one claims it, and between them the 91 decisions are computed once."""
    app = create_app(pg_db, review=FAST, run_reviews=False)
    engines = [db.make_engine(pg_db, pool_size=3) for _ in range(2)]
    try:
        with TestClient(app) as client:
            gid, _, _ = _finish(client)
            assert _review(client, gid)["status"] == "queued"
            settings = ReviewSettings(iterations=BUDGET, poll_seconds=0.05,
                                      flush_seconds=0.0, lease_seconds=2.0)
            reviewers = [Reviewer(Store(e), settings) for e in engines]
            barrier = threading.Barrier(2)
            claims: list[Any] = []

            def race(r: Reviewer) -> None:
                barrier.wait()
                claims.append(r.claim())

            threads = [threading.Thread(target=race, args=(r,)) for r in reviewers]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            won = [c for c in claims if c is not None]
            assert len(claims) == 2 and len(won) == 1
            # the winner never runs it (as if it died): once its lease runs out, one of
            # the two running reviewers takes it over
            for r in reviewers:
                r.start()
            try:
                body = _eventually(lambda: (b := _review(client, gid))["status"] == "done"
                                   and b, 30, "the review done")
            finally:
                for r in reviewers:
                    r.stop()
            _check_done(body, expected)
            assert sum(r.computed for r in reviewers) == 91
            # a request on PostgreSQL leaves a done review alone
            assert client.post(f"/api/games/{gid}/review").json()["status"] == "done"
    finally:
        for e in engines:
            e.dispose()
