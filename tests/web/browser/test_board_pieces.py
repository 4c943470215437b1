"""The Exploits' pieces on the board: a Fortification, Missionaries and the Pirate drawn
on their cities, Imperialism's Blockades on their links, each with a tip card that says
what it is and what it does to an Attack, on a desktop (1440 × 900) and on a phone
(390 × 844, touch). The positions come from seeded games played by the greedy bot
(``POST /api/games/import``). With ``$ENDEAVOR_SCREENSHOTS`` set, each view is saved as
``board-pieces-<size>.png`` and ``board-blockades-<size>.png``."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Server, open_imported
from endeavor import GameConfig, State, new_game
from endeavor.bots import make
from endeavor.records import make_record

#: a game whose round 7 shows a fortified city without a Missionary, a Missionary in a
#: held city and the Pirate on the map
PIECES = GameConfig(players=3, board="A", seed=21,
                    exploits=("spanish_main", "jesuit_missionaries", "republic_of_pirates"))
#: Blockades lie on the links from the start (P23)
BLOCKADES = GameConfig(players=3, board="A", seed=4, exploits=("imperialism",))

SIZES = {"desktop": {"viewport": {"width": 1440, "height": 900}},
         "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                   "is_mobile": True, "device_scale_factor": 2}}


def _sites(state: State) -> list[dict[str, Any]]:
    from endeavor.web import view

    pos = view.position(state)
    return [site for r in pos["regions"] for site in r["cities"]]


def _shown(state: State) -> bool:
    sites = _sites(state)
    return (any(s["fortified"] and not s["missionaries"] and s["owner"] is not None
                for s in sites)
            and any(s["missionaries"] and s["owner"] is not None for s in sites)
            and any(s["pirate"] for s in sites))


def record_until(config: GameConfig, done: Any) -> dict[str, Any]:
    """The record of a seeded greedy game at P0's first action decision where
    ``done(state)`` holds."""
    state = new_game(config)
    bot = make("greedy", seed=config.seed)
    while not state.is_over:
        d = state.decision()
        if d is not None and state.current_player == 0 and d.kind == "action" and done(state):
            return make_record(state)
        state.apply(bot.choose(state))
    raise AssertionError("the game ended first")


def open_game(server: Server, page: Any, config: GameConfig, done: Any) -> None:
    open_imported(server, page, record_until(config, done))


def bring_into_view(page: Any, selector: str) -> None:
    """Drag the board (a phone shows part of it) until ``selector`` is in its middle."""
    frame = page.locator("[data-testid=board]").bounding_box()
    box = page.locator(selector).first.bounding_box()
    assert frame is not None and box is not None
    cx, cy = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    dx = cx - (box["x"] + box["width"] / 2)
    dy = cy - (box["y"] + box["height"] / 2)
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + dx, cy + dy, steps=12)
    page.mouse.up()
    page.wait_for_timeout(200)


def tip_of(page: Any, selector: str, phone: bool, shown: Any = None) -> str:
    """The tip card's words for the element at ``selector`` (hover, or a long press);
    ``shown()`` is called while the card is on screen."""
    el = page.locator(selector).first
    el.scroll_into_view_if_needed()
    if phone:
        bring_into_view(page, selector)
        box = el.bounding_box()
        assert box is not None
        touch = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [touch]})
        page.wait_for_timeout(750)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        el.hover()
    text: str = page.wait_for_selector("[data-testid=tipcard]").inner_text()
    if shown is not None:
        shown()
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=tipcard]", state="detached")
    return text


def on_board_tab(page: Any, phone: bool) -> None:
    if phone:
        page.locator("[data-testid=tab-board]").tap()
        page.wait_for_timeout(300)


def piece_size(page: Any, selector: str) -> dict[str, float]:
    """The piece's box on the screen, in CSS pixels."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None
    return box


@pytest.mark.parametrize("size", list(SIZES))
def test_fortifications_missionaries_and_the_pirate(server: Server, new_page: Any,
                                                    shot: Any, size: str) -> None:
    page = new_page(**SIZES[size])
    phone = size == "phone"
    open_game(server, page, PIECES, _shown)
    on_board_tab(page, phone)
    fort = "[data-testid=board] .site:not(:has(.missionary)) .piece.fortification"
    mission = "[data-testid=board] .site:has(.disc) .piece.missionary"
    pirate = "[data-testid=board] .site .piece.pirate"
    for sel in (fort, mission, pirate):
        assert page.locator(sel).count() >= 1, sel
    # the pieces sit on their cities: inside the city's hit area's neighbourhood
    city = page.locator("[data-testid=board] .site:has(.piece.pirate)")
    assert city.locator(".token").count() == 0  # the Pirate discarded the city's token
    # readable on a phone: no piece smaller than 10 CSS pixels across where it is shown
    on_screen = [piece_size(page, sel) for sel in (fort, mission, pirate)]
    assert all(b["width"] >= 10 and b["height"] >= 10 for b in on_screen), on_screen
    shot(page, f"board-pieces-{size}")
    if phone:  # the Pirate and the Fortification, where the map is panned to them
        bring_into_view(page, pirate)
        shot(page, "board-pieces-phone-pirate")
        bring_into_view(page, fort)
        shot(page, "board-pieces-phone-fort")
    # each piece says what it is; the held city's own tip says what an Attack takes
    assert "Fortification" in tip_of(page, fort, phone)
    held_fort = "[data-testid=board] .site:not(:has(.missionary)):has(.piece.fortification)"
    words = tip_of(page, f"{held_fort} .disc", phone,
                   lambda: shot(page, f"board-fort-tip-{size}"))
    assert "takes 3 discs from your Harbor" in words and "takes 2 discs" not in words
    assert "Missionary" in tip_of(page, mission, phone)
    held_mission = "[data-testid=board] .site:has(.disc):has(.piece.missionary)"
    words = tip_of(page, f"{held_mission} .disc", phone)
    assert "may never be Attacked" in words and "takes 2 discs" not in words
    words = tip_of(page, pirate, phone)
    assert "The Pirate" in words and "unoccupied" in words


@pytest.mark.parametrize("size", list(SIZES))
def test_blockades_on_their_links(server: Server, new_page: Any, shot: Any,
                                  size: str) -> None:
    page = new_page(**SIZES[size])
    phone = size == "phone"
    open_game(server, page, BLOCKADES, lambda state: True)
    on_board_tab(page, phone)
    blockades = page.locator("[data-testid=board] .link-marker .blockade")
    assert blockades.count() == 9  # P23: every link to India or the Far East
    assert page.locator("[data-testid=board] path.link.blockaded").count() == 9
    if phone:
        bring_into_view(page, "[data-testid=board] .link-marker .blockade")
    shot(page, f"board-blockades-{size}")
    words = tip_of(page, "[data-testid=board] .link-marker:has(.blockade)", phone,
                   lambda: shot(page, f"board-blockade-tip-{size}"))
    assert "Blockade" in words and "first player to control" not in words
    assert "may not be claimed, controlled or used in any way" in words
