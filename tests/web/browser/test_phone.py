"""The game page on a phone and on a desktop, played like a person: whole 4-player games
against three random bots only by tapping at 390×844 and 360×740 with touch, checking
after every decision that the prompt is on screen and that everything to tap is at least
32×32 px; a game by mouse at 1440×900, checking (and at 1280×720 at every third decision)
that the board, the decision and your mat are all in view without scrolling; the board's
pan and zoom; the lobby and new-game pages without sideways scrolling on phones."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from test_browser import seq, wait_seq_change

from conftest import Server, sticking_out

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True,
               "device_scale_factor": 2}
#: a finished game is expected well within this many of our own decisions
MAX_DECISIONS = 400
#: the smallest a thing to tap may be on a phone, CSS px
MIN_TAP = 32

# Everything is measured in one evaluate() per decision (the app's CSP forbids eval, so
# these are functions, never bare expressions).

#: the decision as a phone shows it: what is tappable now (index into `.target` elements,
#: or the option buttons), and everything too small or off screen; measured once the
#: layout has settled (two frames on: a frame that changed size has refocused its board)
PHONE_CHECK = """() => new Promise((done) => requestAnimationFrame(() =>
requestAnimationFrame(() => {
  const W = innerWidth, H = innerHeight;
  const inView = (r) => r.width > 0 && r.left >= -0.5 && r.top >= -0.5
    && r.right <= W + 0.5 && r.bottom <= H + 0.5;
  const box = (el) => { const r = el.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]; };
  const name = (el) => el.getAttribute('data-target') || el.getAttribute('data-action')
    || el.textContent.slice(0, 40);
  const hits = (el) => { const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > W || y > H) return false;
    const top = document.elementFromPoint(x, y);
    return !!top && (top === el || el.contains(top)); };
  const prompt = document.querySelector('[data-testid=prompt]');
  const small = [];
  const tappable = [];
  // the board's zoom buttons: a target partly under them is not one to tap (its middle
  // may be clear where a tap's point, the middle of one of its shapes, is not)
  const buttons = document.querySelector('.board-wrap .pz-controls').getBoundingClientRect();
  const overButtons = (r) => r.right > buttons.left && r.bottom > buttons.top
    && r.left < buttons.right && r.top < buttons.bottom;
  const targets = [...document.querySelectorAll('.target')];
  targets.forEach((el, i) => {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) return;  // in a closed drawer
    if (r.width < 32 || r.height < 32) small.push([name(el), box(el)]);
    if (hits(el) && !overButtons(r)) tappable.push(i);
  });
  const options = [...document.querySelectorAll('[data-testid=option]')];
  // every other button, link and tab that a thumb can reach now
  for (const el of document.querySelectorAll('#app button, #app a, #app [role=tab]')) {
    const r = el.getBoundingClientRect();
    if (el.classList.contains('target') || !hits(el)) continue;
    if (r.height < 32 || r.width < 32) small.push([name(el), box(el)]);
  }
  for (const el of options) {
    const r = el.getBoundingClientRect();
    if (r.height && (r.height < 32 || r.width < 32)) small.push([name(el), box(el)]);
  }
  const frame = document.querySelector('.board-wrap').getBoundingClientRect();
  const boardTargets = [...document.querySelectorAll('.board-wrap .target')];
  const boardShown = document.querySelector('.stage').dataset.tab === 'board';
  const onBoardInView = boardTargets.filter((el) => { const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x >= frame.left && x <= frame.right && y >= frame.top && y <= frame.bottom; }).length;
  // the decision's targets on the board that the zoom buttons cover, and whether they
  // all fit beside the buttons (with the 24 units the board keeps around them)
  const underButtons = boardTargets.filter((el) => overButtons(el.getBoundingClientRect()))
    .map(name);
  const svg = document.querySelector('[data-testid=board]');
  const inner = svg.getBoundingClientRect();  // the frame inside its border
  const pad = 24 * inner.width / svg.viewBox.baseVal.width;
  const rects = boardTargets.map((el) => el.getBoundingClientRect());
  const fitBeside = rects.length > 0 && onBoardInView === rects.length
    && Math.max(...rects.map((r) => r.right)) - Math.min(...rects.map((r) => r.left)) + 2 * pad
      <= buttons.left - 6 - inner.left
    && Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top)) + 2 * pad
      <= inner.height;
  done({
    prompt: prompt ? box(prompt) : null,
    promptInView: !!prompt && inView(prompt.getBoundingClientRect()),
    small, tappable, options: options.length,
    boardTargets: boardTargets.length, boardShown, onBoardInView, underButtons, fitBeside,
    scrollWidth: document.documentElement.scrollWidth, scrollY: window.scrollY,
  });
})))"""

#: the desktop: where the board, the decision and your mat are, at the top of the page
DESKTOP_CHECK = """() => {
  window.scrollTo(0, 0);
  const W = innerWidth, H = innerHeight;
  // in the window and not under anything else (looked at in its middle and near its left
  // corners; the board's zoom buttons sit in its bottom right corner)
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null;
    const r = el.getBoundingClientRect();
    const shown = (x, y) => { const top = document.elementFromPoint(x, y);
      return !!top && (top === el || el.contains(top)); };
    return { x: r.left, y: r.top, right: r.right, bottom: r.bottom,
             inView: r.width > 0 && r.left >= -0.5 && r.top >= -0.5
               && r.right <= W + 0.5 && r.bottom <= H + 0.5,
             shown: shown(r.left + r.width / 2, r.top + r.height / 2)
               && shown(r.left + 10, r.top + 10) && shown(r.left + 10, r.bottom - 10) }; };
  return { W, H, board: box('[data-testid=board]'), turn: box('[data-testid=turn]'),
           option: box('[data-testid=option]'), mat: box('.side .mat.yours'),
           scrollWidth: document.documentElement.scrollWidth };
}"""

WAIT_TURN = """() => !!document.querySelector('[data-testid=scorepad]')
  || (document.querySelector('#app').dataset.yourMove === '1'
      && !!document.querySelector('[data-testid=option]'))"""


def wait_turn_or_end(page: Any) -> bool:
    """Wait until it is this page's move (True) or the score pad shows (False)."""
    page.wait_for_function(WAIT_TURN, timeout=30_000)
    return page.query_selector("[data-testid=scorepad]") is None


def wait_moved_or_popup(page: Any, before: int) -> str:
    handle = page.wait_for_function(
        f"""() => Number(document.querySelector('#app').dataset.seq) !== {before} ? 'moved'
          : document.querySelector('[data-testid=popup]') ? 'popup' : ''""", timeout=15_000)
    return str(handle.json_value())


def act(page: Any, rng: random.Random, tappable: list[int], touch: bool) -> None:
    """One decision: an enabled target that can be hit where it is (60 %), else an option
    button; a popup's item when the target offers several. Passing only one time in four
    when there is something else to do (a game of many decisions)."""
    press = (lambda loc: loc.tap()) if touch else (lambda loc: loc.click())
    before = seq(page)
    targets = page.locator(".target")
    options = page.locator("[data-testid=option]")
    passing = rng.random() < 0.25
    if tappable and rng.random() < 0.6:
        kinds = {i: targets.nth(i).get_attribute("data-target") for i in tappable}
        other = [i for i in tappable if kinds[i] not in ("pass", "done")]
        press(targets.nth(rng.choice(tappable if passing or not other else other)))
    else:
        actions = [options.nth(i).get_attribute("data-action") for i in range(options.count())]
        other = [i for i, a in enumerate(actions) if a not in ("pass", "done")]
        press(options.nth(rng.choice(list(range(len(actions))) if passing or not other else other)))
    if wait_moved_or_popup(page, before) == "popup":
        items = page.locator("[data-testid=popup] .popup-item")
        if touch:
            for i in range(items.count()):
                b = items.nth(i).bounding_box()
                assert b is not None and b["height"] >= MIN_TAP and b["width"] >= MIN_TAP, b
        press(items.nth(rng.randrange(items.count())))
        wait_seq_change(page, before)


def later_for_the_name(page: Any) -> None:
    """Answer "Later" to the question a seat not yet named asks on its first visit (a
    row of the header above the board: these tests measure the layout without it)."""
    page.click("[data-testid=name-later]")
    page.wait_for_selector("[data-testid=name-dialog]", state="detached")


def new_bot_game(server: Server, seed: int) -> str:
    created = server.create(["human", "bot:random", "bot:random", "bot:random"], players=4,
                            seed=seed, title="Phone against three random bots")
    return server.url + created["seats"][0]["url"]


@pytest.mark.parametrize("size,seed", [(PHONE, 3), (SMALL_PHONE, 8)], ids=["390x844", "360x740"])
def test_whole_game_by_tapping_on_a_phone(server: Server, new_page: Any, size: dict[str, Any],
                                          seed: int) -> None:
    page = new_page(**size)
    width = size["viewport"]["width"]
    url = new_bot_game(server, seed)
    page.goto(url)
    page.wait_for_selector("[data-testid=bar]")
    later_for_the_name(page)
    rng = random.Random(7)
    started = time.monotonic()
    decisions = 0
    board_focus = 0
    fit_beside = 0
    undone = False
    while wait_turn_or_end(page):
        seen = page.evaluate(PHONE_CHECK)
        where = f"decision {decisions}: {page.inner_text('[data-testid=prompt]')}"
        assert seen["promptInView"], (where, seen["prompt"])
        assert not seen["small"], (where, seen["small"])
        assert seen["scrollWidth"] <= width and seen["scrollY"] == 0, (where, seen)
        assert seen["tappable"] or seen["options"], where
        if seen["boardShown"] and seen["boardTargets"]:
            # the board opened on the decision: some of its targets are in the frame
            assert seen["onBoardInView"], where
            board_focus += 1
            # and when they fit beside the zoom buttons in the frame's corner, none is
            # under them
            if seen["fitBeside"]:
                fit_beside += 1
                assert not seen["underButtons"], (where, seen["underButtons"])
        if decisions >= 3 and not undone and page.locator("[data-testid=undo]").is_visible():
            # Undo sits in the bar too: take the last decision back, then decide again
            undone = True
            before = seq(page)
            page.locator("[data-testid=undo]").tap()
            wait_seq_change(page, before)
            continue
        act(page, rng, seen["tappable"], touch=True)
        decisions += 1
        assert decisions < MAX_DECISIONS
    assert undone
    page.wait_for_selector("[data-testid=scorepad]", state="visible")
    assert page.locator("[data-testid=tab-scores]").get_attribute("aria-selected") == "true"
    totals = [int(page.inner_text(f"[data-testid=total-{p}]")) for p in range(4)]
    assert max(totals) > 0
    elapsed = time.monotonic() - started
    print(f"\nphone game at {width} px: {decisions} decisions ({board_focus} on the board,"
          f" {fit_beside} fitting beside the zoom buttons), {elapsed:.1f} s")
    assert elapsed < 240
    # the replay of the finished game fits the phone too, in the game's phone layout:
    # the board under the tabs, the step and its controls in the bar
    page.goto(url.replace("/play/", "/replay/").split("#")[0])
    page.wait_for_selector("#app.shell [data-testid=bar] [data-testid=replay-step]")
    page.wait_for_selector("#app.shell .stage [data-testid=board]")
    page.locator("[data-testid=tab-steps]").tap()
    page.wait_for_selector("[data-testid=scorepad]")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    high = page.evaluate("() => document.documentElement.scrollHeight")
    assert high <= size["viewport"]["height"]


def test_whole_game_by_mouse_on_a_desktop(server: Server, new_page: Any) -> None:
    page = new_page(viewport={"width": 1440, "height": 900})
    page.goto(new_bot_game(server, 5))
    page.wait_for_selector("[data-testid=board]")
    later_for_the_name(page)
    # the whole board at first; + zooms in, a drag pans, ⤢ shows the whole board again
    whole = page.get_attribute("[data-testid=board]", "viewBox")
    page.click("[data-testid=zoom-in]")
    zoomed = page.get_attribute("[data-testid=board]", "viewBox")
    assert zoomed != whole
    frame = page.locator(".board-wrap").bounding_box()
    assert frame is not None
    x, y = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 120, y - 60, steps=6)
    page.mouse.up()
    assert page.get_attribute("[data-testid=board]", "viewBox") != zoomed
    page.click("[data-testid=zoom-reset]")
    assert page.get_attribute("[data-testid=board]", "viewBox") == whole
    rng = random.Random(3)
    started = time.monotonic()
    decisions = 0
    while wait_turn_or_end(page):
        # 1440×900 at every decision, 1280×720 at every third (resizing takes time)
        sizes = [{"width": 1440, "height": 900}]
        if decisions % 3 == 0:
            sizes.append({"width": 1280, "height": 720})
        for size in sizes:
            page.set_viewport_size(size)
            seen = page.evaluate(DESKTOP_CHECK)
            where = f"decision {decisions} at {size}: {page.inner_text('[data-testid=prompt]')}"
            for part in ("board", "turn", "option", "mat"):
                assert seen[part] is not None and seen[part]["inView"] and seen[part]["shown"], (
                    where, part, seen)
            assert seen["scrollWidth"] <= size["width"], (where, seen)
        if len(sizes) > 1:
            page.set_viewport_size(sizes[0])
        tappable = list(range(page.locator(".target").count()))
        act(page, rng, tappable, touch=False)
        decisions += 1
        assert decisions < MAX_DECISIONS
    page.wait_for_selector("[data-testid=scorepad]", state="visible")
    elapsed = time.monotonic() - started
    print(f"\ndesktop game: {decisions} decisions, {elapsed:.1f} s")
    assert elapsed < 240


def board_scale(page: Any) -> float:
    """CSS px per board unit now (the frame's width over the viewBox's)."""
    return float(page.evaluate("""() => { const svg = document.querySelector('[data-testid=board]');
      return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }"""))


def test_board_pans_and_zooms_on_a_phone(server: Server, new_page: Any) -> None:
    page = new_page(**SMALL_PHONE)
    url = new_bot_game(server, 11)
    page.goto(url)
    page.wait_for_selector("[data-testid=bar]")
    page.locator("[data-testid=tab-board]").tap()
    # the bar folds its options away (more board), never the prompt
    tall = page.locator(".board-wrap").bounding_box()["height"]
    page.locator("[data-testid=bar-toggle]").tap()
    assert not page.locator("[data-testid=option]").first.is_visible()
    assert page.evaluate(PHONE_CHECK)["promptInView"]
    assert page.locator(".board-wrap").bounding_box()["height"] > tall
    page.locator("[data-testid=bar-toggle]").tap()
    assert page.locator("[data-testid=option]").first.is_visible()
    first = board_scale(page)
    assert first >= 0.8  # a 40-unit target is 32 px
    page.locator("[data-testid=zoom-in]").tap()
    page.wait_for_function("""(least) => {
      const svg = document.querySelector('[data-testid=board]');
      return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width > least; }""",
                           arg=first * 1.2)
    for _ in range(6):
        page.locator("[data-testid=zoom-out]").tap()
    assert 0.8 <= board_scale(page) <= first + 1e-6  # never below the phone's minimum
    # a pinch: two fingers moving apart zoom in; one finger dragging pans
    frame = page.locator(".board-wrap").bounding_box()
    assert frame is not None
    cx, cy = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[float, float]]) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

    before = board_scale(page)
    touch("touchStart", [(cx - 20, cy), (cx + 20, cy)])
    for step in range(1, 9):
        touch("touchMove", [(cx - 20 - 10 * step, cy), (cx + 20 + 10 * step, cy)])
    touch("touchEnd", [])
    after = board_scale(page)
    assert after > before * 1.5, (before, after)
    for _ in range(3):  # from the closest a double tap goes back out: start away from it
        page.locator("[data-testid=zoom-out]").tap()
    # a double tap where there is nothing to choose zooms in
    spot = page.evaluate("""([x0, y0, w, h]) => {
      for (let i = 1; i < 10; i++) for (let j = 1; j < 10; j++) {
        const x = x0 + w * i / 10, y = y0 + h * j / 10;
        const el = document.elementFromPoint(x, y);
        if (el && el.closest('svg.board') && !el.closest('.target')) return [x, y];
      }
      return null; }""", [frame["x"], frame["y"], frame["width"] - 60, frame["height"]])
    assert spot is not None
    before = board_scale(page)
    page.touchscreen.tap(*spot)
    page.wait_for_timeout(80)
    page.touchscreen.tap(*spot)
    page.wait_for_function("""(least) => {
      const svg = document.querySelector('[data-testid=board]');
      return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width > least; }""",
                           arg=before * 1.5)
    view = page.get_attribute("[data-testid=board]", "viewBox")
    touch("touchStart", [(cx, cy)])
    for step in range(1, 9):
        touch("touchMove", [(cx + 12 * step, cy + 6 * step)])
    touch("touchEnd", [])
    assert page.get_attribute("[data-testid=board]", "viewBox") != view
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    # a spectator's phone: the decision in words in the bar, no options
    watcher = new_page(**SMALL_PHONE)
    watcher.goto(url.replace("/play/", "/game/").split("#")[0])
    watcher.wait_for_selector("[data-testid=bar] [data-testid=prompt]")
    assert "Waiting for P0" in watcher.inner_text("[data-testid=whose-turn]")
    assert watcher.query_selector("[data-testid=option]") is None
    seen = watcher.evaluate(PHONE_CHECK)
    assert seen["promptInView"] and not seen["small"] and not seen["tappable"], seen


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_the_longest_names_fit_the_lobby_on_a_phone(private_server: Server, new_page: Any,
                                                    size: dict[str, Any]) -> None:
    """Names of the most characters a name may have, in wide letters, in every line of
    the lobby that shows them: "Your games" (you: the name, its status) and the list of
    games (the name to move, the winner of a finished game)."""
    server = private_server
    wide = ["W" * 24, "M" * 24]
    running = server.request("POST", "/api/games", {
        "config": {"players": 2, "seed": 5}, "seats": ["human", "human"], "names": wide,
        "title": "Names as long as names go"})
    page = new_page(**size)
    width = size["viewport"]["width"]
    page.goto(server.url + running["seats"][0]["url"])
    page.wait_for_selector("[data-testid=board]")
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=mine-row]")
    page.wait_for_selector("[data-testid=game-row]")
    page.wait_for_timeout(200)
    assert "W" * 24 in page.inner_text("[data-testid=mine-row]")
    assert any(name in page.inner_text("[data-testid=game-row]") for name in wide)
    sizes = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert sizes[0] <= sizes[1] == width, (sizes, sticking_out(page, width))


@pytest.mark.parametrize("size", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_lobby_and_new_game_fit_a_phone(server: Server, new_page: Any,
                                       size: dict[str, Any]) -> None:
    server.create(["human", "bot:random"], players=2, seed=1,
                  title="A game with a rather long title to show in the lobby's list")
    page = new_page(**size)
    width = size["viewport"]["width"]
    for path, ready in (("/", "[data-testid=games]"), ("/new", "[data-testid=create]")):
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        page.wait_for_timeout(200)
        wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1] == width, (path, wide, sticking_out(page, width))
