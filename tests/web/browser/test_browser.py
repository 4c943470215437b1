"""The browser app, clicked through like a player: a game against bots to the score pad,
a hot-seat game, undo, an illegal click, the replay viewer, the lobby."""

from __future__ import annotations

import random
import time
from typing import Any

from conftest import Server

#: a finished game is expected well within this many of our own clicks
MAX_CLICKS = 400


# wait_for_function is given functions ("() => ..."), never bare expressions: Playwright
# polls an expression with eval(), which the app's Content-Security-Policy forbids

def seq(page: Any) -> int:
    return int(page.get_attribute("#app", "data-seq"))


def wait_seq_change(page: Any, before: int, timeout: float = 15_000) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#app').dataset.seq) !== {before}",
                           timeout=timeout)


def wait_seq(page: Any, value: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#app').dataset.seq) === {value}")


def open_game(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("[data-testid=board]")
    page.wait_for_function("() => document.querySelector('#app').dataset.seq !== undefined")


def click_something(page: Any, rng: random.Random) -> None:
    """One legal move the way a player makes it: a highlighted element (a popup item when
    it offers several), else an option button; passing often enough that the game moves
    on. Tries again if the screen was redrawn (a live update) under the click."""
    from playwright.sync_api import Error

    for attempt in range(5):
        try:
            _click_once(page, rng)
            return
        except Error as e:
            if "not attached" not in str(e) or attempt == 4:
                raise
            page.wait_for_timeout(200)


def _click_once(page: Any, rng: random.Random) -> None:
    before = seq(page)
    targets = page.query_selector_all(".target")
    passes = [t for t in targets if t.get_attribute("data-target") == "pass"]
    if passes and rng.random() < 0.35:
        choice = passes[0]
    elif targets:
        choice = rng.choice(targets)
    else:
        choice = rng.choice(page.query_selector_all("[data-testid=option]"))
    choice.scroll_into_view_if_needed()
    choice.click()
    popup = page.query_selector("[data-testid=popup]")
    if popup is not None:
        items = popup.query_selector_all(".popup-item")
        rng.choice(items).click()
    wait_seq_change(page, before)


def wait_my_turn_or_end(page: Any, timeout: float = 20.0) -> bool:
    """Wait until this screen has something to click (True) or the score pad (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.query_selector("[data-testid=scorepad]"):
            return False
        if page.query_selector("[data-testid=option]"):
            return True
        page.wait_for_timeout(100)
    raise AssertionError("neither a decision nor the score pad appeared: "
                         + page.inner_text("[data-testid=turn]"))


def test_game_against_bots_from_the_new_game_page(server: Server, page: Any, shot: Any) -> None:
    """New game page -> 4 players, three random bots -> links -> my seat -> clicking
    highlighted elements to the end -> the score pad with a total per seat."""
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("[data-testid=players]", "4")
    for i in (1, 2, 3):
        page.select_option(f"[data-testid=seat-{i}]", "bot:random")
    page.click("[data-testid=more-options-toggle]")  # the seed is folded away
    page.fill("[data-testid=seed]", "3")
    page.fill("[data-testid=title]", "Me against three random bots")
    page.select_option("[data-testid=clock]", "live")
    shot(page, "new-game")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created]")
    mine = page.input_value("[data-testid=link-0]")
    assert "/play/" in mine and "#" in mine
    assert "/game/" in page.input_value("[data-testid=link-spectate]")
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=board]")
    assert page.url == mine
    rng = random.Random(5)
    clicks = 0
    started = time.monotonic()
    while wait_my_turn_or_end(page):
        assert "Your move" in page.inner_text("[data-testid=whose-turn]")
        click_something(page, rng)
        clicks += 1
        assert clicks < MAX_CLICKS
        if clicks == 12:
            shot(page, "game")
    pad = page.query_selector("[data-testid=scorepad]")
    assert pad is not None
    totals = [int(page.inner_text(f"[data-testid=total-{p}]")) for p in range(4)]
    assert all(t >= 0 for t in totals) and max(totals) > 0
    assert "Game over" in page.inner_text("[data-testid=headline]")
    assert page.query_selector("[data-testid=option]") is None
    shot(page, "score-pad")
    assert time.monotonic() - started < 120


def test_hot_seat_plays_both_seats_on_one_screen(server: Server, page: Any) -> None:
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("[data-testid=players]", "2")
    page.select_option("[data-testid=seat-0]", "hotseat")
    page.select_option("[data-testid=seat-1]", "hotseat")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=link-hotseat]")
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=board]")
    seen: set[str] = set()
    rng = random.Random(2)
    for _ in range(8):
        whose = page.inner_text("[data-testid=whose-turn]")
        assert whose.startswith("Seat P")
        seen.add(whose)
        click_something(page, rng)
    assert seen == {"Seat P0 to move", "Seat P1 to move"}
    # both mats are this screen's: each says "you"
    assert page.query_selector_all(".mat.yours") and len(page.query_selector_all(".mat")) == 2


def test_undo_restores_the_position(server: Server, page: Any) -> None:
    created = server.create(["hotseat", "hotseat"], players=2, seed=11)
    url = server.url + created["seats"][0]["url"]
    open_game(page, url)
    assert page.query_selector("[data-testid=undo]") is None
    before_seq = seq(page)
    mat_before = page.inner_text(f"[data-testid=mat-{_to_move(page)}]")
    start = page.query_selector("[data-target='supply:merchant-dock'].target")
    assert start is not None
    p = _to_move(page)
    start.click()
    wait_seq(page, before_seq + 1)
    assert "Merchant Dock" in page.inner_text(f"[data-testid=mat-{p}]")
    page.click("[data-testid=undo]")
    wait_seq(page, before_seq + 2)  # an undo is a log entry too
    assert _to_move(page) == p
    assert page.inner_text(f"[data-testid=mat-{p}]") == mat_before
    assert page.query_selector("[data-target='supply:merchant-dock'].target") is not None


def _to_move(page: Any) -> int:
    text = page.inner_text("[data-testid=prompt]")
    return int(text.split(":", 1)[0].lstrip("P"))


def test_illegal_click_does_nothing(server: Server, page: Any) -> None:
    created = server.create(["human", "bot:random"], players=2, seed=4)
    open_game(page, server.url + created["seats"][0]["url"])
    page.wait_for_selector("[data-testid=option]")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    board_before = page.inner_html("[data-testid=board]")
    seq_before = seq(page)
    for selector in ("[data-target^='city:']:not(.target)", "[data-target^='track:']:not(.target)",
                     "[data-target^='deck:']:not(.target)",
                     "[data-target^='supply:']:not(.target)"):
        element = page.query_selector(selector)
        assert element is not None, selector
        element.click(force=True)
    page.wait_for_timeout(400)
    assert posts == []
    assert seq(page) == seq_before
    assert page.query_selector("[data-testid=popup]") is None
    assert page.inner_html("[data-testid=board]") == board_before


def test_replay_viewer_steps_through_a_finished_game(server: Server, page: Any,
                                                     shot: Any) -> None:
    created = server.create(["bot:random", "bot:random", "bot:random"], players=3, seed=8,
                            exploits="random")
    gid = created["id"]
    deadline = time.monotonic() + 60
    while not server.get(f"/api/games/{gid}")["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.3)
    total = len(server.get(f"/api/games/{gid}/record")["actions"])
    page.goto(server.url + f"/replay/{gid}")
    page.wait_for_selector("[data-testid=scorepad]")
    assert page.get_attribute("#app", "data-step") == str(total)
    shot(page, "replay")
    page.click("[data-testid=replay-first]")
    page.wait_for_function("() => document.querySelector('#app').dataset.step === '0'")
    assert page.inner_text("[data-testid=replay-step]") == "Setup"
    assert page.query_selector("[data-testid=scorepad]") is None
    page.click("[data-testid=replay-next]")
    page.wait_for_function("() => document.querySelector('#app').dataset.step === '1'")
    # the step in words, its notation only in the tooltip
    step = page.inner_text("[data-testid=replay-step]")
    assert step.startswith("Action 1: P") and "Start with the" in step, step
    assert page.get_attribute("[data-testid=replay-step]", "title").startswith("start ")
    page.click("[data-testid=replay-next]")
    page.wait_for_function("() => document.querySelector('#app').dataset.step === '2'")
    page.click("[data-testid=replay-prev]")
    page.wait_for_function("() => document.querySelector('#app').dataset.step === '1'")
    page.click("[data-testid=replay-last]")
    page.wait_for_function(f"() => document.querySelector('#app').dataset.step === '{total}'")
    page.wait_for_selector("[data-testid=scorepad]")
    # nothing on a replay is clickable
    assert page.query_selector(".target") is None


def test_lobby_lists_games_and_spectating_shows_no_options(server: Server, page: Any,
                                                          shot: Any) -> None:
    created = server.create(["human", "bot:random", "bot:random"], players=3, seed=9)
    open_game(page, server.url + created["seats"][0]["url"])  # a seat of this browser's
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=games]")
    page.wait_for_selector(f"[data-testid=mine-row][data-id='{created['id']}']")
    row = page.query_selector(f"[data-testid=game-row][data-id='{created['id']}']")
    assert row is not None
    shot(page, "lobby")
    row.query_selector("[data-testid=spectate]").click()
    page.wait_for_selector("[data-testid=board]")
    assert "/game/" in page.url
    assert page.query_selector("[data-testid=option]") is None
    assert page.query_selector(".target") is None
    assert "Waiting for P0" in page.inner_text("[data-testid=whose-turn]")
