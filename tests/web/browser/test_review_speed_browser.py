"""A finished 4-player game's review with the server's default settings: ``endeavor
serve`` with no review option (its default budget and policy), its engine workers on the
compiled build (the ``compiled_engine`` mark: ``make test`` runs it once that build is
there), the game imported finished, the Review tab followed in the browser. The
review must be done within :data:`LIMIT` seconds, the tab showing its progress with an
estimate of the time left while it runs, and naming the bot it judges against (the
strongest, ``hard`` today) before and after."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import Server

FIXTURE = (Path(__file__).parent.parent.parent / "fixtures" / "review"
           / "game_4p.record.json")
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())
#: the decisions of the game the review looks at (those with more than one legal action)
DECISIONS = 226
#: the test's time for the review (seconds of the wall clock): about 25-40 CPU-seconds
#: on the compiled build, at the lowered priority of the reviewer, with room for a busy
#: machine
LIMIT = 180

pytestmark = pytest.mark.compiled_engine


@pytest.fixture(scope="module")
def default_server(tmp_path_factory: pytest.TempPathFactory,
                   compiled_python: str) -> Iterator[Server]:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    srv = Server(tmp_path_factory.mktemp("review-speed-server"),
                 ("--engine-python", compiled_python))
    try:
        yield srv
    finally:
        srv.stop()


def test_a_4_player_review_with_the_default_settings_in_time(
        page: Any, default_server: Server) -> None:
    srv = default_server
    start = time.monotonic()
    game = srv.request("POST", "/api/games/import", {
        "record": RECORD, "seats": ["human"] * 4, "title": "A 4-player game, reviewed"})
    gid = game["id"]
    page.goto(f"{srv.url}/game/{gid}")
    page.click("[data-testid=desk-tab-review]")
    # while the server reviews: the progress, the bot named, and an estimate of the time left
    page.wait_for_function(f"() => /Reviewing… \\d+ of {DECISIONS} decisions/.test("
                           "document.querySelector('[data-testid=review-progress]')?.textContent"
                           " || '')", timeout=60_000)
    assert "the hard bot" in page.inner_text("[data-testid=review-bot]")
    page.wait_for_function("() => /^ · (about \\d+ minutes?|less than a minute) left$/.test("
                           "document.querySelector('[data-testid=review-eta]')?.textContent"
                           " || '')", timeout=60_000)
    status = srv.get("/api/status")
    assert status["engine"]["build"] == "compiled", status
    running = srv.get(f"/api/games/{gid}/review")
    assert running["bot"] == "hard" and running["policy"] == "contested"
    assert running["iterations"] == 300  # the server's default budget
    if running["status"] == "running":
        assert running["eta_seconds"] is None or running["eta_seconds"] >= 0
    # then the review, within the test's time
    left = LIMIT - (time.monotonic() - start)
    page.wait_for_selector("[data-testid=review-chart]", timeout=max(1.0, left) * 1000)
    assert time.monotonic() - start <= LIMIT
    body = srv.get(f"/api/games/{gid}/review")
    assert body["status"] == "done" and body["eta_seconds"] is None
    review = body["review"]
    assert len(review["decisions"]) == DECISIONS
    assert review["bot"] == "hard" and review["policy"] == "contested"
    meta = page.inner_text("[data-testid=review-meta]")
    assert re.search(rf"{DECISIONS} decisions of all 4 players judged against the hard bot",
                     meta)
    assert "up to 300 iterations a decision" in meta
    rows = page.query_selector_all("[data-testid=review-decision]")
    assert len(rows) == DECISIONS
