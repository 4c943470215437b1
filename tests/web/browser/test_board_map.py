"""The board drawn like the printed map, on each of the three boards (Age of Sail side A,
side B, the 2009 board): no link token covers a city's name or a deck card, no name is
cut off, every clickable element has a hit area of at least 40 × 40 viewBox units, each
region group says which region it is, and a tip card says in words what a city is."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Server

#: board -> the new game's config (side B is the 4-player loose / 5-player board)
BOARDS = {
    "A": {"players": 3, "seed": 3, "exploits": "random"},
    "B": {"players": 5, "seed": 5},
    "classic": {"players": 4, "seed": 7, "ruleset": "classic"},
}


def open_board(server: Server, page: Any, board: str) -> None:
    config = BOARDS[board]
    seats = ["human"] + ["bot:random"] * (config["players"] - 1)
    created = server.create(seats, **config)
    page.goto(server.url + created["seats"][0]["url"])
    page.wait_for_selector("[data-testid=board]")
    assert page.get_attribute("[data-testid=board]", "data-board") == board


# every box in the SVG's own units (getBBox through each element's transform to the SVG)
BOXES = """(selector) => {
  const svg = document.querySelector('[data-testid=board]');
  const inv = svg.getScreenCTM().inverse();
  return [...svg.querySelectorAll(selector)].map((el) => {
    const r = el.getBoundingClientRect();
    const a = new DOMPoint(r.left, r.top).matrixTransform(inv);
    const b = new DOMPoint(r.right, r.bottom).matrixTransform(inv);
    const host = el.closest('[data-target]');
    return {x: a.x, y: a.y, w: b.x - a.x, h: b.y - a.y,
            id: host ? host.getAttribute('data-target') : el.textContent};
  });
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
            and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])


@pytest.mark.parametrize("board", list(BOARDS))
def test_link_tokens_cover_no_name_and_no_card(server: Server, page: Any, board: str) -> None:
    open_board(server, page, board)
    tokens = page.evaluate(BOXES, ".link-marker .token")
    labels = page.evaluate(BOXES, ".site-name")
    cards = page.evaluate(BOXES, ".card")
    assert tokens and labels and cards
    # every link with a token shows it (the 2009 board: every link has one)
    links = page.evaluate("() => document.querySelectorAll('.link-marker').length")
    if board == "classic":
        assert len(tokens) == links == 26
    bad = [(t["id"], o["id"]) for t in tokens for o in labels + cards if overlap(t, o)]
    assert not bad, bad
    # nor another link's token
    both = [(a["id"], b["id"]) for i, a in enumerate(tokens) for b in tokens[i + 1:]
            if overlap(a, b)]
    assert not both, both
    # nor does a token cover a site's shape
    shapes = page.evaluate(BOXES, ".site-shape")
    assert not [(t["id"], o["id"]) for t in tokens for o in shapes if overlap(t, o)]


@pytest.mark.parametrize("board", list(BOARDS))
def test_every_target_has_a_big_hit_area_and_regions_are_named(server: Server, page: Any,
                                                                 board: str) -> None:
    open_board(server, page, board)
    # the drawing is 1200 units wide (the live viewBox may be zoomed in on a phone)
    assert page.evaluate("() => document.querySelector('[data-testid=board] .ocean')"
                         ".width.baseVal.value") == 1200
    boxes = page.evaluate(BOXES, "[data-target]")
    small = [b["id"] for b in boxes if b["w"] < 40 - 1e-6 or b["h"] < 40 - 1e-6]
    assert not small, small
    regions = page.evaluate("() => [...document.querySelectorAll("
                            "'[data-testid=board] [data-region]')]"
                            ".map((g) => g.getAttribute('data-region')).sort()")
    assert regions == sorted(["EU", "AF", "SA", "CA", "NA", "IN", "FE"])
    # the sites' round hit areas overlap neither one another nor a link's (a tap means
    # one thing)
    circles = page.evaluate("() => [...document.querySelectorAll("
                            "'.site > .hit, .link-marker > .hit')]"
                            ".map((c) => [c.parentNode.getAttribute('data-target'),"
                            " c.cx.baseVal.value, c.cy.baseVal.value, c.r.baseVal.value])")
    sites = [c for c in circles if not c[0].startswith("link:")]
    assert len(sites) == len(page.query_selector_all(".site"))
    for i, (a, ax, ay, ar) in enumerate(circles):
        clash = [b for b, bx, by, br in circles[i + 1:]
                 if (ax - bx) ** 2 + (ay - by) ** 2 < (ar + br) ** 2
                 and not (a.startswith("link:") and b.startswith("link:"))]
        assert not clash, (a, clash)


@pytest.mark.parametrize("board", list(BOARDS))
def test_no_city_name_is_cut_and_a_tip_card_says_what_a_city_is(server: Server, page: Any,
                                                                  board: str, shot: Any) -> None:
    open_board(server, page, board)
    state = page.evaluate("() => fetch(location.pathname.replace('/play/', '/api/games/'))"
                          ".then((r) => r.json()).then((v) => v.state)")
    names = {s["id"]: s["name"] for r in state["regions"] for s in r["cities"] + r["routes"]}
    shown = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('.site')]"
                          ".map((g) => [g.getAttribute('data-target'),"
                          " g.querySelector('.site-name').textContent]))")
    assert set(shown) == set(names)
    for target, name in names.items():
        assert " ".join(shown[target].split()) == name, (target, shown[target])
        assert "…" not in shown[target]
    # the whole name fits inside the board
    labels = page.evaluate(BOXES, ".site-name")
    assert all(0 <= b["x"] and b["x"] + b["w"] <= 1200 for b in labels)
    # hover: a small card in words
    page.hover("[data-target='city:CA3']")
    card = page.wait_for_selector("[data-testid=tipcard]")
    text = card.inner_text()
    assert "Santo Domingo" in text and "glory" in text and "token" in text.lower()
    box = card.bounding_box()
    assert box["width"] <= 340
    shot(page, f"board-tip-{board}")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=tipcard]", state="detached")
    # a deck's tip names its top card and what it gives
    page.hover("[data-target='deck:EU']")
    text = page.wait_for_selector("[data-testid=tipcard]").inner_text()
    assert "Top card" in text and "Gives" in text
    page.mouse.move(2, 2)
    page.wait_for_selector("[data-testid=tipcard]", state="detached")


def test_long_press_shows_the_tip_on_a_phone(server: Server, new_page: Any, shot: Any) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    open_board(server, page, "A")
    # a city the finger can reach where the page shows the board now (the phone's layout
    # may zoom or fold it): its middle is on screen and nothing lies over it
    board_tab = page.query_selector("[data-testid=tab-board]")
    if board_tab is not None and board_tab.is_visible():
        board_tab.click()
        page.wait_for_timeout(300)
    page.query_selector("[data-testid=board]").scroll_into_view_if_needed()
    spot = page.evaluate("""() => {
      for (const el of document.querySelectorAll('[data-testid=board] .site.city')) {
        const hit = el.querySelector('.hit').getBoundingClientRect();
        const x = hit.left + hit.width / 2;
        const y = hit.top + hit.height / 2;
        if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
        const at = document.elementFromPoint(x, y);
        if (at && at.closest('.site') === el) return {x, y, name: el.getAttribute('aria-label')};
      }
      return null;
    }""")
    assert spot is not None
    cdp = page.context.new_cdp_session(page)
    touch = {"x": spot["x"], "y": spot["y"], "id": 1}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [touch]})
    page.wait_for_timeout(750)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    text = page.wait_for_selector("[data-testid=tipcard]").inner_text()
    assert spot["name"] in text and "glory" in text
    shot(page, "board-tip-phone")
    # a tap elsewhere closes it
    page.touchscreen.tap(5, 5)
    page.wait_for_selector("[data-testid=tipcard]", state="detached")


def test_exploit_tiles_keep_their_spaces(server: Server, page: Any) -> None:
    open_board(server, page, "A")
    state = page.evaluate("() => fetch(location.pathname.replace('/play/', '/api/games/'))"
                          ".then((r) => r.json()).then((v) => v.state)")
    assert len(state["exploits"]) == 3
    for ex in state["exploits"]:
        el = page.query_selector(f"[data-testid=exploit-rule-{ex['key']}]")
        assert el is not None
        want = ex.get("rule") or ex["text"]
        got = el.text_content()
        # the whole rule, word for word (the compact state words spelt out)
        assert len(got.split()) >= len(want.split()), (got, want)
        tile = page.query_selector(f"[data-target='exploit:{ex['key']}']")
        assert ex["name"] in tile.text_content()


def test_an_exploit_rule_in_plain_words_is_on_the_tile_and_in_its_tip(server: Server,
                                                                       page: Any) -> None:
    """When the view gives an Exploit's ``rule`` and ``shield``, the tile shows the rule
    (the whole of it in the tile's DOM) and its tip card both."""
    open_board(server, page, "A")
    rule = ("Each time you Ship to a track in one of its regions you may also place a "
            "Galleon on the tile; each Galleon left at the end is worth 1 glory.")
    shield = "Earned by the first player to open one of its regions."
    key = page.evaluate("""async ([rule, shield]) => {
      const { drawBoard } = await import('./static/board.js');
      const view = await fetch(location.pathname.replace('/play/', '/api/games/'))
        .then((r) => r.json());
      for (const e of view.state.exploits) { e.rule = rule; e.shield = shield; }
      document.querySelector('[data-testid=board]').replaceWith(drawBoard(view.state));
      return view.state.exploits[0].key;
    }""", [rule, shield])
    assert page.text_content(f"[data-testid=exploit-rule-{key}]") == rule
    page.hover(f"[data-target='exploit:{key}']")
    text = page.wait_for_selector("[data-testid=tipcard]").inner_text()
    assert rule in text and shield in text


@pytest.mark.parametrize("board", list(BOARDS))
def test_every_board_element_of_the_view_is_drawn_with_its_id(server: Server, page: Any,
                                                                board: str) -> None:
    open_board(server, page, board)
    state = page.evaluate("() => fetch(location.pathname.replace('/play/', '/api/games/'))"
                          ".then((r) => r.json()).then((v) => v.state)")
    want = {link["id"] for link in state["links"]}
    want |= {e["id"] for e in state["exploits"] + state["variants"] + state["pile"]}
    for r in state["regions"]:
        want |= {s["id"] for s in r["cities"] + r["routes"]}
        want |= {d["id"] for d in r["decks"]}
        if r["track"]:
            want |= {r["track"]["id"], r["sea"]["id"]}
    drawn = set(page.evaluate("() => [...document.querySelectorAll("
                              "'[data-testid=board] [data-target]')]"
                              ".map((e) => e.getAttribute('data-target'))"))
    assert want <= drawn, want - drawn


def test_every_exploit_rule_is_on_its_tile_in_play(server: Server, page: Any) -> None:
    """All 15 Exploits, three a game in five games: each tile in play carries its whole
    rule in plain words (the view's ``rule``, from ``endeavor.web.guide``) and its tip
    card the Shield text too."""
    from endeavor.exploits import EXPLOIT_IDS
    from endeavor.web.guide import exploit_rule, shield_text

    ids = list(EXPLOIT_IDS)
    assert len(ids) == 15
    for i in range(0, 15, 3):
        trio = ids[i:i + 3]
        created = server.create(["human", "bot:random", "bot:random"], players=3, seed=i,
                                exploits=trio)
        page.goto(server.url + created["seats"][0]["url"])
        page.wait_for_selector("[data-testid=board]")
        for key in trio:
            rule = exploit_rule(key)
            assert len(rule.split()) > 40
            shown = page.text_content(f"[data-testid=exploit-rule-{key}]")
            assert " ".join((shown or "").split()) == " ".join(rule.split()), key
            page.hover(f"[data-target='exploit:{key}']")
            tip = page.wait_for_selector("[data-testid=tipcard]").inner_text()
            assert " ".join(shield_text(key).split())[:60] in " ".join(tip.split()), key
            page.mouse.move(1, 1)
