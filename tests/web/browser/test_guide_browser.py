"""The rules in the app, in the browser: the new-game form shows
every Exploit's rule and Shields, and How to play (/rules) opens from a game page on that
game's ruleset, from the lobby's top bar, shows its sections, and fits a phone."""

from __future__ import annotations

from typing import Any

from conftest import Server
from endeavor.exploits import EXPLOIT_IDS
from endeavor.rules import RULESETS
from endeavor.web import guide

PHONE = {"width": 390, "height": 844}
TABS = ("age-of-sail", "classic", "silent-fleet", "exploits")
#: the headings every ruleset's tab has (phases, actions, buildings by level,
#: card limit, Slavery and Abolition, scoring)
HEADINGS = ("A round", "The status tracks", "The five actions", "Buildings by level",
            "Cards and the card limit", "Slavery and Abolition", "End of the game and scoring")


def fits_width(page: Any) -> bool:
    """No horizontal scrolling: the page is no wider than the window."""
    return bool(page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


_VISIBLE_TABS = ("tabs => tabs.filter(t => document.querySelector(`[data-testid=howto-${t}]`)"
                 "?.checkVisibility())")


def shown_tab(page: Any) -> str:
    """The one tab shown, read at one instant (a tab's link changes the page's hash, and
    the page switches tabs when the hash change arrives, a moment after the click)."""
    visible = page.evaluate(_VISIBLE_TABS, list(TABS))
    assert len(visible) == 1, visible
    return str(visible[0])


def wait_tab(page: Any, tab: str) -> None:
    """Wait (15 s at most) for the page to show ``tab`` alone."""
    page.wait_for_function(f"tabs => ({_VISIBLE_TABS})(tabs).join() === {tab!r}", arg=list(TABS))


def show_tab(page: Any, tab: str) -> None:
    """Click ``tab``'s link and wait for the page to show it."""
    page.click(f"[data-testid=howto-tab-{tab}]")
    wait_tab(page, tab)


def test_new_game_form_shows_every_exploit_rule(server: Server, page: Any, shot: Any) -> None:
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=new-game-form]")
    hint = page.inner_text("[data-testid=shields-hint]")
    assert "Shield" in hint and "regions" in hint
    page.select_option("[data-testid=exploits]", "chosen")
    for e in EXPLOIT_IDS:
        box = page.locator(f"[data-testid=exploit-rule-{e}]")
        assert box.count() == 1, e
        text = box.text_content()
        for paragraph in guide.exploit_paragraphs(e):
            assert paragraph in text, e
        assert guide.shield_text(e) in text, e
        assert box.locator("summary").is_visible(), e
    page.click("[data-testid=exploit-rule-spanish_main] summary")
    rule = page.locator("[data-testid=exploit-rule-spanish_main] p").first
    assert rule.is_visible() and "Fortif" in rule.inner_text()
    shot(page, "newgame-exploit-rules")
    assert fits_width(page)


def test_how_to_play_opens_from_a_game_page(server: Server, page: Any, shot: Any) -> None:
    for config, tab in (({"players": 3, "ruleset": "classic"}, "classic"),
                        ({"players": 2, "options": {"silent_fleet": True}}, "silent-fleet"),
                        ({"players": 3, "exploits": ["spanish_main"]}, "age-of-sail")):
        seats = ["human"] + ["bot:easy"] * (config["players"] - 1)
        g = server.create(seats, **config)
        page.goto(server.url + g["spectate_url"])
        page.wait_for_selector("[data-testid=board]")
        link = page.locator("[data-testid=rules-link]")
        assert link.get_attribute("href").endswith(f"/rules#{tab}")
        shot(page, f"game-rules-link-{tab}")
        with page.context.expect_page() as opened:
            link.click()
        rules = opened.value
        rules.wait_for_selector("[data-testid=howto]")
        wait_tab(rules, tab)
        rules.close()


def test_how_to_play_shows_every_section(server: Server, page: Any, shot: Any) -> None:
    page.goto(server.url + "/")
    page.click("[data-testid=howto-link]")  # the top bar's link, on every page
    page.wait_for_selector("[data-testid=howto]")
    assert page.url.endswith("/rules") and shown_tab(page) == "age-of-sail"
    shot(page, "howto-desktop")
    for tab, rid in (("age-of-sail", "age_of_sail"), ("classic", "classic")):
        show_tab(page, tab)
        assert shown_tab(page) == tab and page.url.endswith(f"#{tab}")
        section = page.inner_text(f"[data-testid=howto-{tab}]")
        for heading in HEADINGS:
            assert heading in section, (tab, heading)
        rules = RULESETS[rid]
        table = page.inner_text(f"[data-testid=buildings-{rid}]")
        for b in rules.base_supply + rules.level5_pool:
            assert rules.buildings[b].name in table, (tab, rules.buildings[b].name)
        for action in ("Ship", "Occupy", "Attack", "Payment", "Draw"):
            assert action in page.inner_text(f"[data-testid=actions-{rid}]")
    show_tab(page, "silent-fleet")
    assert "Limited occupation" in page.inner_text("[data-testid=howto-silent-fleet]")
    show_tab(page, "exploits")
    assert page.inner_text("[data-testid=howto-shields]") == guide.SHIELDS
    for e in EXPLOIT_IDS:
        text = page.inner_text(f"[data-testid=howto-exploit-{e}]")
        assert all(paragraph in text for paragraph in guide.exploit_paragraphs(e)), e
    shot(page, "howto-exploits-desktop")


def test_how_to_play_agrees_with_the_form_and_the_rulebooks(server: Server, page: Any) -> None:
    # the form: no Exploits unless asked for, "3 at random" or a choice
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=new-game-form]")
    assert page.input_value("[data-testid=exploits]") == "none"
    choices = page.locator("[data-testid=exploits] option").all_inner_texts()
    assert "3 at random" in choices
    page.goto(server.url + "/rules#exploits")
    page.wait_for_selector("[data-testid=howto]")
    wait_tab(page, "exploits")
    intro = page.inner_text("[data-testid=exploits-intro]")
    assert "by default" not in intro
    assert "plays none unless you choose \u201c3 at random\u201d or tick one to three" in intro
    # both rulebooks: the Crown (the 2009 First Player Marker) passes to the left each round
    for tab, rid in (("age-of-sail", "age_of_sail"), ("classic", "classic")):
        show_tab(page, tab)
        crown = page.inner_text(f"[data-testid=crown-{rid}]")
        assert "the Crown passes to the left" in crown, tab


def test_how_to_play_fits_a_phone(server: Server, new_page: Any, shot: Any) -> None:
    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    for tab in TABS:
        phone.goto(f"{server.url}/rules#{tab}")
        phone.wait_for_selector("[data-testid=howto]")
        wait_tab(phone, tab)  # the same page with another hash: the switch comes after
        assert fits_width(phone), tab
        shot(phone, f"howto-{tab}-phone", full_page=True)
    phone.goto(server.url + "/new")
    phone.wait_for_selector("[data-testid=new-game-form]")
    phone.select_option("[data-testid=exploits]", "chosen")
    phone.click("[data-testid=exploit-rule-imperialism] summary")
    assert fits_width(phone)
    shot(phone, "newgame-exploit-rules-phone")
