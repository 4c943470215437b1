"""A game in progress on each of the three boards (Age of Sail sides A and B, the 2009
board), on a desktop (1440 × 900) and on a phone (390 × 844, touch): the board with its
seven regions and the pieces placed so far, your move and its options, and (desktop)
your mat, all on screen at once. The position is reached by importing the record of a
seeded game played by bots into round 3 (``POST /api/games/import``). With
``$ENDEAVOR_SCREENSHOTS`` set, each view is saved as ``board-<board>-<size>.png`` (the
docs' screenshots: ``ENDEAVOR_SCREENSHOTS=docs/screenshots``)."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Server, open_imported
from endeavor import GameConfig, new_game
from endeavor.bots import make
from endeavor.records import make_record

#: board -> (config, the round the game is stopped in)
BOARDS: dict[str, tuple[GameConfig, int]] = {
    "A": (GameConfig(players=3, board="A", seed=31,
                     exploits=("spice_trade", "transit_of_venus", "jesuit_missionaries")), 4),
    "B": (GameConfig(players=5, board="B", seed=52), 3),
    "classic": (GameConfig(players=4, ruleset="classic", seed=73), 4),
}

IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          w: innerWidth, h: innerHeight};
}"""


def record_in_round(config: GameConfig, rnd: int) -> dict[str, Any]:
    """A seeded game played by the greedy bot until P0's first action decision in round
    ``rnd``: its record."""
    state = new_game(config)
    bot = make("greedy", seed=config.seed)
    while not state.is_over:
        d = state.decision()
        if (d is not None and state.round >= rnd and state.current_player == 0
                and d.kind == "action"):
            return make_record(state)
        state.apply(bot.choose(state))
    raise AssertionError("the game ended first")


def open_game(server: Server, page: Any, board: str) -> None:
    config, rnd = BOARDS[board]
    open_imported(server, page, record_in_round(config, rnd))
    assert page.get_attribute("[data-testid=board]", "data-board") == board


def inside(box: dict[str, float] | None) -> bool:
    return (box is not None and box["top"] >= 0 and box["left"] >= 0
            and box["bottom"] <= box["h"] + 0.5 and box["right"] <= box["w"] + 0.5)


@pytest.mark.parametrize("board", list(BOARDS))
def test_a_game_in_progress_on_a_desktop(server: Server, page: Any, shot: Any,
                                         board: str) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    open_game(server, page, board)
    regions = page.eval_on_selector_all("[data-testid=board] [data-region]",
                                        "els => els.map(e => e.dataset.region)")
    assert set(regions) >= {"EU", "AF", "SA", "CA", "NA", "IN", "FE"}
    # pieces placed during the first rounds are drawn (discs on the board)
    assert page.locator("[data-testid=board] .disc, [data-testid=board] .piece").count() > 0
    board_box = page.evaluate(IN_VIEW, "[data-testid=board]")
    assert board_box is not None and board_box["top"] < 900 and board_box["right"] > 600
    assert inside(page.evaluate(IN_VIEW, "[data-testid=prompt]"))
    assert inside(page.evaluate(IN_VIEW, "[data-testid=option]"))
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
    shot(page, f"board-{board}-desktop")


@pytest.mark.parametrize("board", list(BOARDS))
def test_a_game_in_progress_on_a_phone(server: Server, new_page: Any, shot: Any,
                                       board: str) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                    device_scale_factor=2)
    open_game(server, page, board)
    assert inside(page.evaluate(IN_VIEW, "[data-testid=prompt]"))
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    # the decision opened the tab of its targets (your mat: activate a building); the
    # board tab shows the map, zoomed in, with the prompt still in its bar
    page.locator("[data-testid=tab-board]").tap()
    page.wait_for_timeout(300)
    svg = page.evaluate(IN_VIEW, "[data-testid=board]")
    assert svg is not None and svg["bottom"] > svg["top"] + 200
    assert inside(page.evaluate(IN_VIEW, "[data-testid=prompt]"))
    # folding the choices leaves the prompt on screen and the map the rest of it
    page.locator("[data-testid=bar-toggle]").tap()
    page.wait_for_timeout(300)
    assert inside(page.evaluate(IN_VIEW, "[data-testid=prompt]"))
    shot(page, f"board-{board}-phone")
