"""Whole games in French, on a phone (the browser's language is French) and on a desktop
(an English browser switched to French in the header): after every decision and on
every tab, page and panel there is, no English word shows outside proper names, checked
against the catalogs (``english_words``): the page's text, the board's SVG labels, the
tip cards of the board's pieces (with three Exploits in play), and the labels a
reader's pointer or screen reader finds (``title``, ``aria-label``, ``placeholder``);
an action's notation (a tooltip marked ``data-notation``) and a player's own words (a
game's title in the lobby, marked ``translate="no"``) are the same in every language.
The lobby also lists the games other tests left on the shared server."""

from __future__ import annotations

import random
from typing import Any

from english_words import english_in
from test_phone import PHONE, act, later_for_the_name, wait_turn_or_end

from conftest import Server
from endeavor.exploits import EXPLOIT_IDS

DESKTOP = {"viewport": {"width": 1440, "height": 900}}

#: everything a reader can see or hear on the page now
PAGE_WORDS = """() => {
  // what a player's words are, marked translate="no" (a game's title in the lobby), and
  // an action's notation (a tooltip marked data-notation), are the same in every language
  const theirs = (el) => !!el.closest('[translate=no]');
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || theirs(el) || el.closest('script, style')) continue;
    if (el.checkVisibility && !el.checkVisibility() && !el.closest('svg')) continue;
    out.push(n.textContent);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (theirs(el)) continue;
    const said = el.hasAttribute('data-notation') ? ['aria-label', 'placeholder']
      : ['title', 'aria-label', 'placeholder'];
    for (const a of said) {
      const v = el.getAttribute(a); if (v) out.push(v);
    }
  }
  return out.join('\\n');
}"""

#: the tabs of the phone's game page (the board is the first)
PHONE_TABS = ("build", "you", "players", "log", "scores", "chat", "board")


class EnglishFound:
    """The English words met, each with where it was first seen and its line."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    def look(self, page: Any, where: str) -> None:
        text = str(page.evaluate(PAGE_WORDS))
        for word in english_in(text):
            if word in self.found:
                continue
            line = next((ln for ln in text.splitlines() if word in ln.lower()), "")
            self.found[word] = f"{where}: {line.strip()[:160]}"

    def __bool__(self) -> bool:
        return bool(self.found)

    def __repr__(self) -> str:
        return "\n".join(f"{w!r} at {at}" for w, at in sorted(self.found.items()))


def bot_game(server: Server, players: int, seed: int, **config: Any) -> tuple[str, str]:
    created = server.create(["human"] + ["bot:random"] * (players - 1), players=players,
                            seed=seed, title="Partie en français", **config)
    url = server.url + created["seats"][0]["url"]
    return url, str(created["id"])


def look_at_tips(page: Any, english: EnglishFound, where: str) -> int:
    """Hover every piece of the board and the mats that has a name (``data-target``) and
    look at its tip card; the number of cards seen."""
    seen = 0
    pieces = page.locator("[data-target]")
    for i in range(pieces.count()):
        piece = pieces.nth(i)
        target = piece.get_attribute("data-target")
        try:
            piece.hover(timeout=1_000)
            card = page.wait_for_selector("[data-testid=tipcard]", timeout=1_000)
        except Exception:  # covered, off screen or without a card: the next one
            continue
        text = card.inner_text()
        for word in english_in(text):
            english.found.setdefault(word, f"{where}, the tip of {target}: {text[:160]!r}")
        seen += 1
        page.mouse.move(1, 1)
        page.wait_for_selector("[data-testid=tipcard]", state="detached")
    return seen


def look_around(page: Any, server: Server, url: str, english: EnglishFound, shot: Any,
                name: str, phone: bool) -> None:
    """After the game: every tab of the game page, the replay, the lobby, the new-game
    form, How to play and the leaderboard (a rated game's pages, with a real account's
    profile: test_rated_game_browser.py)."""
    if phone:
        for tab in PHONE_TABS:
            page.locator(f"[data-testid=tab-{tab}]").tap()
            english.look(page, f"{name}, tab {tab}")
            shot(page, f"french-{name}-tab-{tab}")
    else:
        english.look(page, f"{name}, the score pad")
        shot(page, f"french-{name}-scores")
    page.goto(url.replace("/play/", "/replay/").split("#")[0])
    page.wait_for_selector("[data-testid=replay-step]")
    english.look(page, f"{name}, the replay")
    shot(page, f"french-{name}-replay")
    for path, what in (("/", "lobby"), ("/new", "new game"), ("/rules", "how to play"),
                       ("/account/notifications", "account notifications"),
                       ("/account/link", "sign in by e-mail"), ("/leaderboard", "leaderboard")):
        page.goto(server.url + path)
        page.wait_for_function("() => document.body.dataset.ready === '1'")
        english.look(page, f"{name}, {what}")
        shot(page, f"french-{name}-{what.replace(' ', '-')}", full_page=True)


def play_in_french(page: Any, server: Server, url: str, shot: Any, name: str, *,
                   touch: bool, seed: int) -> EnglishFound:
    english = EnglishFound()
    page.goto(url)
    page.wait_for_selector("[data-testid=board]")
    assert page.evaluate("() => document.documentElement.lang") == "fr"
    english.look(page, f"{name}, the name question")
    later_for_the_name(page)
    rng = random.Random(seed)
    decisions = 0
    while wait_turn_or_end(page):
        english.look(page, f"{name}, decision {decisions}")
        if decisions in (0, 10):
            shot(page, f"french-{name}-decision-{decisions}")
        if not touch and decisions in (0, 40):
            assert look_at_tips(page, english, f"{name}, decision {decisions}") > 20
        tappable = list(range(page.locator(".target").count())) if not touch else []
        act(page, rng, tappable, touch=touch)
        decisions += 1
        assert decisions < 400
    page.wait_for_selector("[data-testid=scorepad]", state="visible")
    english.look(page, f"{name}, the end")
    shot(page, f"french-{name}-end")
    look_around(page, server, url, english, shot, name, phone=touch)
    return english


def test_a_whole_game_in_french_on_a_phone(server: Server, new_page: Any, shot: Any) -> None:
    """The browser's language is French: the app speaks French from the first page."""
    page = new_page(locale="fr-FR", **PHONE)
    url, _ = bot_game(server, 2, seed=21)
    english = play_in_french(page, server, url, shot, "phone", touch=True, seed=4)
    assert not english, english


def test_a_whole_game_in_french_on_a_desktop(server: Server, new_page: Any, shot: Any) -> None:
    """An English browser: English first, French once the header's switch says so, and
    still French on the next visit (the choice is kept by the browser)."""
    page = new_page(locale="en-US", **DESKTOP)
    url, _ = bot_game(server, 3, seed=22, exploits=list(EXPLOIT_IDS[:3]))
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=lang-switch]")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    page.click("[data-testid=lang-fr]")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.wait_for_selector("[data-testid=lang-fr][aria-pressed=true]")
    english = play_in_french(page, server, url, shot, "desktop", touch=False, seed=5)
    assert not english, english
