"""The Review tab in the browser: a finished game's review followed while
the server runs it (a progress bar in words), then the per-player summary, the chart of
expected final glory (one line per player, in the player's colour) and the decisions
with their labels in words; a click on a decision opens the replay viewer at that step
with the better move shown and its place ringed; the same on a phone (390×844), the
chart within the screen. The docs' screenshots: ``review-desktop.png`` and
``review-phone.png`` (``ENDEAVOR_SCREENSHOTS=docs/screenshots``).

The server reviews at 5 iterations a decision, slowed by ``ENDEAVOR_REVIEW_DELAY`` so
that its progress can be seen (the fixture's 91 decisions take ~5 s)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import Server

FIXTURE = Path(__file__).parent.parent.parent / "fixtures" / "review_2p.record.json"
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())
#: dom.js's COLOURS of P0 and P1
COLOURS = ["#d64541", "#2f6fd6"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    saved = os.environ.get("ENDEAVOR_REVIEW_DELAY")
    os.environ["ENDEAVOR_REVIEW_DELAY"] = "0.06"  # read by the server it starts
    try:
        srv = Server(tmp_path_factory.mktemp("review-server"), ("--review-iterations", "5"))
    finally:
        if saved is None:
            os.environ.pop("ENDEAVOR_REVIEW_DELAY", None)
        else:
            os.environ["ENDEAVOR_REVIEW_DELAY"] = saved
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def game(review_server: Server) -> dict[str, Any]:
    """The fixture's finished game, imported (its review queued at once)."""
    created: dict[str, Any] = review_server.request(
        "POST", "/api/games/import", {"record": RECORD, "seats": ["human", "human"],
                                      "title": "A 2-player game, reviewed"})
    return created


def test_review_tab_progress_summary_chart_and_a_decision(
        page: Any, review_server: Server, game: dict[str, Any], shot: Any) -> None:
    gid = game["id"]
    page.goto(f"{review_server.url}/game/{gid}")
    page.click("[data-testid=desk-tab-review]")
    # while the server reviews: a progress bar with words
    page.wait_for_function("() => /Reviewing… \\d+ of 91 decisions/.test("
                           "document.querySelector('[data-testid=review-progress]')?.textContent"
                           " || '')", timeout=20_000)
    text = page.inner_text("[data-testid=review-progress]")
    done = int(re.match(r"Reviewing… (\d+) of 91 decisions", text).group(1))
    assert 0 <= done < 91
    assert page.get_attribute("progress.rv-progress", "max") == "91"
    # and, once a decision sets the pace, an estimate of the time left
    page.wait_for_function("() => /^ · (about \\d+ minutes?|less than a minute) left$/.test("
                           "document.querySelector('[data-testid=review-eta]')?.textContent"
                           " || '')", timeout=20_000)
    # then the review
    page.wait_for_selector("[data-testid=review-chart]", timeout=30_000)
    body = review_server.get(f"/api/games/{gid}/review")
    assert body["status"] == "done"
    review = body["review"]
    # the chart: one line per player, in the player's colour, named at its end
    lines = page.query_selector_all("[data-testid=review-chart] path.rv-line")
    assert [ln.get_attribute("stroke") for ln in lines] == COLOURS
    assert [ln.get_attribute("data-seat") for ln in lines] == ["0", "1"]
    ends = page.query_selector_all("[data-testid=review-chart] text.rv-end")
    assert sorted(e.text_content() for e in ends) == sorted(
        f"P{p} {s}" for p, s in enumerate(review["final_scores"]))
    box = page.query_selector("[data-testid=review-chart]").bounding_box()
    assert box["width"] > 400 and box["height"] > 200
    # the summary per player: accuracy, the labels in words with their counts
    for p in review["players"]:
        card = page.query_selector(f"[data-testid=review-player-{p['seat']}]")
        accuracy = card.query_selector(f"[data-testid=review-accuracy-{p['seat']}]")
        assert accuracy.inner_text() == f"{round(p['accuracy'])}%"
        badges = [b.inner_text().split(maxsplit=1)[1] for b in card.query_selector_all(
            ".rv-counts .rv-badge")]
        assert badges == [f"{label} {p['labels'][label]}" for label in
                          ("best", "good", "inaccuracy", "mistake", "blunder")]
    # the decisions, each with its label in words
    rows = page.query_selector_all("[data-testid=review-decision]")
    assert len(rows) == len(review["decisions"]) == 91
    shot(page, "review-desktop")
    # a click on a mistake: the replay viewer at that step, the better move shown
    worst = max(review["decisions"], key=lambda d: (d["glory_loss"], -d["step"]))
    assert worst["label"] in ("mistake", "blunder") and worst["best"] != worst["played"]
    step = worst["step"]
    row = page.query_selector(f"[data-testid=review-decision][data-step='{step}']")
    assert worst["label"] in row.inner_text()
    row.scroll_into_view_if_needed()
    row.click()
    page.wait_for_url(re.compile(rf"/replay/{gid}/{step - 1}\?review={step}$"))
    page.wait_for_selector("[data-testid=review-note]")
    page.wait_for_function(f"() => document.querySelector('#app').dataset.step === '{step - 1}'")
    moves = body["moves"][str(step)]
    better = page.inner_text("[data-testid=review-better]")
    assert better.startswith(f"Better: {moves['best']} (+{worst['glory_loss']:.1f} glory")
    assert moves["played"] in page.inner_text("[data-testid=review-played]")
    assert worst["label"] in page.inner_text("[data-testid=review-note]")
    ringed = {el.get_attribute("data-target") for el in page.query_selector_all(".rv-best")}
    assert ringed == set(moves["best_targets"])
    # the replay's own Review tab is open on the same decision; another one is shown in place
    assert page.get_attribute(f"[data-testid=review-decision][data-step='{step}']",
                              "aria-current") == "true"
    other = next(d for d in review["decisions"]
                 if d["step"] > step + 3 and d["best"] != d["played"])
    pages = page.evaluate("history.length")
    page.click(f"[data-testid=review-decision][data-step='{other['step']}']")
    page.wait_for_function(
        f"() => document.querySelector('#app').dataset.step === '{other['step'] - 1}'")
    assert body["moves"][str(other["step"])]["best"] in page.inner_text(
        "[data-testid=review-better]")
    # the address follows the decision shown, in place (no new history entry), so that
    # a reload or a shared link opens it; stepping on drops the review's decision
    o = other["step"]
    assert re.search(rf"/replay/{gid}/{o - 1}\?review={o}$", page.url)
    assert page.evaluate("history.length") == pages
    page.reload()
    page.wait_for_selector("[data-testid=review-note]")
    assert body["moves"][str(o)]["best"] in page.inner_text("[data-testid=review-better]")
    page.click("[data-testid=replay-next]")
    page.wait_for_function(f"() => document.querySelector('#app').dataset.step === '{o}'")
    assert re.search(rf"/replay/{gid}/{o}$", page.url)
    assert page.query_selector("[data-testid=review-note]") is None
    # a Done or Pass has no place on the table: the note names only the rings drawn
    idle = next(d for d in review["decisions"] if d["played"] in ("pass", "done")
                and d["best"] not in ("pass", "done") and d["glory_loss"] >= 1
                and body["moves"][str(d["step"])]["best_targets"])
    i = idle["step"]
    page.goto(f"{review_server.url}/replay/{gid}/{i - 1}?review={i}")
    page.wait_for_selector("[data-testid=review-note] .hint")
    hint = page.inner_text("[data-testid=review-note] .hint")
    assert "ringed in green" in hint and "red dashes" not in hint
    assert page.query_selector_all(".rv-played") == []
    assert len(page.query_selector_all(".rv-best")) >= 1


def test_review_tab_on_a_phone(new_page: Any, review_server: Server,
                               game: dict[str, Any], shot: Any) -> None:
    gid = game["id"]
    page = new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page.goto(f"{review_server.url}/play/{gid}#{game['seats'][0]['token']}")
    page.wait_for_selector("[data-testid=tab-review]")
    page.tap("[data-testid=tab-review]")
    page.wait_for_selector("[data-testid=review-chart]", timeout=30_000)
    lines = page.query_selector_all("[data-testid=review-chart] path.rv-line")
    assert len(lines) == 2
    chart = page.query_selector("[data-testid=review-chart]").bounding_box()
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= PHONE["width"]
    assert chart["height"] >= 180
    # the open tab is in sight (the row of tabs scrolls sideways when they do not all
    # fit, a finished game's eight on a phone); the page itself never scrolls sideways
    b = page.query_selector(".tabs .tab[aria-selected=true]").bounding_box()
    assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"] + 0.5
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "review-phone")
    # a decision is a link to the replay viewer at its step
    first = page.query_selector("[data-testid=review-decision]")
    step = int(first.get_attribute("data-step"))
    assert first.get_attribute("href").endswith(f"/replay/{gid}/{step - 1}?review={step}")
    # at a decision whose better move has a place on the map, the replay's board opens
    # on the rings (zoomed in from the whole board, which on a phone is too small to
    # read), pans and zooms like the game's, and keeps its view from one step to the next
    body = review_server.get(f"/api/games/{gid}/review")
    mapped = next(d for d in body["review"]["decisions"] if d["played"] != d["best"]
                  and any(t.split(":")[0] in ("city", "route", "track", "sea")
                          for t in body["moves"][str(d["step"])]["best_targets"]))
    i = mapped["step"]
    page.goto(f"{review_server.url}/replay/{gid}/{i - 1}?review={i}")
    page.wait_for_selector("[data-testid=review-note]")
    frame = """() => { const svg = document.querySelector('#app .board-wrap [data-testid=board]');
      const f = svg.getBoundingClientRect();
      const rings = [...svg.querySelectorAll('.rv-best, .rv-played')].map((el) => {
        const r = el.getBoundingClientRect(); const x = (r.left + r.right) / 2;
        const y = (r.top + r.bottom) / 2;
        return x >= f.left && x <= f.right && y >= f.top && y <= f.bottom; });
      return { scale: f.width / svg.viewBox.baseVal.width, whole: f.width / 1200,
               viewBox: svg.getAttribute('viewBox'), rings }; }"""
    seen = page.evaluate(frame)
    assert seen["rings"] and all(seen["rings"]), seen
    assert seen["scale"] > seen["whole"] * 1.5, seen
    shot(page, "replay-phone")
    page.locator("#app .board-wrap [data-testid=zoom-in]").tap()
    zoomed = page.evaluate(frame)
    assert zoomed["scale"] > seen["scale"] * 1.2
    page.tap("[data-testid=replay-next]")
    page.wait_for_function(f"() => document.querySelector('#app').dataset.step === '{i}'")
    # the same view: its zoom and centre (the board's frame grows as the bar loses the note)
    x0, y0, w0, h0 = (float(v) for v in zoomed["viewBox"].split())
    x1, y1, w1, h1 = (float(v) for v in page.evaluate(frame)["viewBox"].split())
    assert (x1, w1) == pytest.approx((x0, w0)) and y1 + h1 / 2 == pytest.approx(y0 + h0 / 2)
    # in the game's phone layout: the board under the tabs, the step and its controls in
    # the bar; nothing scrolls
    assert page.locator("#app.shell [data-testid=bar] [data-testid=replay-next]").is_visible()
    assert page.evaluate("() => document.documentElement.scrollHeight") <= PHONE["height"]
    page.tap("[data-testid=replay-prev]")
    page.wait_for_selector("#app.shell [data-testid=bar] [data-testid=review-note]")
