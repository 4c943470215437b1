"""A finished game's review in the reader's language (``GET /api/games/{id}/review``
with ``?lang=`` or Accept-Language): the review itself (its labels are codes the page
names) is the same in every language; the moves played and the better moves, stored in
English, are said in French for a French reader, and stay the stored English words for
an English one.

The game is ``tests/fixtures/review_2p.record.json``, imported without its last action
and finished through the API, reviewed at a tiny budget."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from webapi import auth

from endeavor.web import schemas
from endeavor.web.reviews import Reviewer, ReviewSettings

FIXTURE = Path(__file__).parent.parent / "fixtures" / "review_2p.record.json"
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())
FAST = ReviewSettings(iterations=5, poll_seconds=0.05, flush_seconds=0.0)


def finished_and_reviewed(client: TestClient, app: FastAPI) -> str:
    """The fixture's game, finished through the API and reviewed: its id."""
    short = {**RECORD, "actions": RECORD["actions"][:-1]}
    r = client.post("/api/games/import", json={"record": short, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    game = r.json()
    toks = {s["seat"]: s["token"] for s in game["seats"]}
    view = client.get(f"/api/games/{game['id']}").json()
    seat = view["current_player"]
    move = client.post(f"/api/games/{game['id']}/actions", headers=auth(toks[seat]),
                       json={"action": RECORD["actions"][-1], "seq": view["seq"]})
    assert move.status_code == 200 and move.json()["over"], move.text
    reviewer = Reviewer(app.state.store, FAST)
    job = reviewer.claim()
    assert job is not None and reviewer.run(job) == "done"
    return str(game["id"])


def review_of(client: TestClient, gid: str, **headers: str) -> dict[str, Any]:
    query = f"?lang={headers.pop('lang')}" if "lang" in headers else ""
    r = client.get(f"/api/games/{gid}/review{query}", headers=headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    schemas.ReviewView.model_validate(body)
    assert body["status"] == "done"
    return body


def test_the_moves_in_french_the_review_the_same(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(review=FAST, run_reviews=False)
    with TestClient(app) as client:
        gid = finished_and_reviewed(client, app)
        english = review_of(client, gid)
        assert review_of(client, gid, lang="en") == english
        french = review_of(client, gid, lang="fr")
        by_header = review_of(client, gid, **{"Accept-Language": "fr-FR,fr;q=0.9"})
        assert by_header == french
        assert review_of(client, gid, lang="fr") == french  # said again, the same
        assert french["review"] == english["review"]
        assert french["moves"].keys() == english["moves"].keys()
        differ = 0
        for step, en in english["moves"].items():
            fr = french["moves"][step]
            assert fr["played_targets"] == en["played_targets"]
            assert fr["best_targets"] == en["best_targets"]
            assert fr["played"] and fr["best"]
            assert (fr["played"] == fr["best"]) == (en["played"] == en["best"])
            differ += fr["played"] != en["played"]
        assert differ > len(english["moves"]) // 2, "most moves are said in French"
        words = " ".join(m["played"] + " " + m["best"] for m in french["moves"].values())
        assert "Construire" in words or "Passer" in words, words[:400]
        assert " the " not in f" {words} "
