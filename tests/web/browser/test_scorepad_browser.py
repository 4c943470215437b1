"""The score pad of a finished game with long names, on a phone and on a desktop: every
name stays whole (wrapped between its words, never inside one), the page is no wider
than the screen, and the pad scrolls sideways in its own box when the names need more
room than the screen has."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import Server, sticking_out
from endeavor import GameConfig, new_game
from endeavor.records import make_record

#: five names of up to 24 letters: one-word ones a phone's columns cannot hold, and
#: names of several words, which wrap between them
NAMES = ["Maximiliana", "Bartholomew Roberts", "Christodoulopoulou", "Anne Bonny",
         "Wilhelminaberenike"]

#: each word of each name in the pad's head: the lines it is drawn on (a word cut in
#: two is on two lines)
WORD_LINES = """() => {
  const out = [];
  for (const el of document.querySelectorAll("[data-testid=scorepad] thead .seat-name")) {
    const text = el.firstChild;
    let at = 0;
    for (const word of el.textContent.split(" ")) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      out.push([word, tops.size]);
      at += word.length + 1;
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def replay_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A finished 5-player game, imported with :data:`NAMES` into a server of this
    module's own (the other pages' lobby does not see it): its replay's address."""
    server = Server(tmp_path_factory.mktemp("scorepad-server"), ("--review-iterations", "0"))
    try:
        yield _finished_game(server)
    finally:
        server.stop()


def _finished_game(server: Server) -> str:
    state = new_game(GameConfig(players=5, seed=31))
    rng = random.Random(31)
    while not state.is_over:
        codes = state.legal_codes()
        state.apply_code(codes[rng.randrange(len(codes))])
    created = server.request("POST", "/api/games/import", {
        "record": make_record(state), "seats": ["human"] * 5, "names": NAMES})
    return f"{server.url}/replay/{created['id']}"


@pytest.mark.parametrize("size", [(360, 740), (390, 844), (1280, 800)],
                         ids=["phone-360", "phone-390", "desktop"])
def test_long_names_stay_whole_on_the_score_pad(replay_url: str, new_page: Any, shot: Any,
                                                size: tuple[int, int]) -> None:
    width, height = size
    phone = width < 700
    page = new_page(viewport={"width": width, "height": height}, has_touch=phone,
                    is_mobile=phone)
    page.goto(replay_url)
    if phone:
        page.locator("[data-testid=tab-steps]").tap()
    page.wait_for_selector("[data-testid=scorepad]", state="visible")
    words = page.evaluate(WORD_LINES)
    assert sorted(w for w, _ in words) == sorted(" ".join(NAMES).split()), words
    assert all(lines == 1 for _, lines in words), words
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, \
        sticking_out(page, width)
    box = page.locator("[data-testid=pad-scroll]")
    inner, outer = box.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    if phone:  # five long one-word names: the table is wider than the phone
        assert inner > outer
    if inner > outer:
        box.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
        # the lines' names stay in view while the seats scroll past them
        label = page.locator("[data-testid=scorepad] tbody th").first
        left = label.evaluate("(el) => el.getBoundingClientRect().left")
        edge = box.evaluate("(el) => el.getBoundingClientRect().left")
        assert edge <= left < edge + outer / 2
        # and no seat's name shows in the corner above them
        corner = page.locator("[data-testid=scorepad] thead th").first
        assert corner.evaluate("(el) => getComputedStyle(el).position") == "sticky"
    page.locator("[data-testid=scorepad]").scroll_into_view_if_needed()
    shot(page, f"scorepad-long-names-{width}")
