"""A rated game from end to end, on the real server (no answer of it intercepted): two
people sign up in two browsers, one creates a rated game for the two of them and an easy
bot on the New game page, each claims their seat from its link, the game is played to its
end (the people's moves through the HTTP API with their seats' links, the bot's by the
server), and the score pad then shows the three rating changes the rating job made,
equal to the game view's; the leaderboard counts the game for the two people and the bot
level, and the creator's profile draws a history of one point. The same pages in French
(on a phone and a desktop) say nothing in English."""

from __future__ import annotations

import json
import random
import time
import urllib.error
from typing import Any
from urllib.parse import quote, urlsplit

from test_accounts_browser import fresh_name, sign_up
from test_french_browser import EnglishFound
from test_phone import PHONE

from conftest import Server

DESKTOP = {"viewport": {"width": 1440, "height": 900}}
FAMILY = "age-of-sail"
#: a whole game, people's moves and the bot's, is expected well within this
PLAY_SECONDS = 120


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.ready === '1'")


def standings(server: Server) -> dict[str, dict[str, Any]]:
    """The family's leaderboard (``GET /api/ratings/age-of-sail``) by name."""
    return {p["name"]: p for p in server.get(f"/api/ratings/{FAMILY}")["players"]}


def easy_bot(board: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return next(p for p in board.values() if p["level"] == "easy")


def create_rated_game(page: Any, server: Server) -> tuple[str, dict[int, str]]:
    """On the New game page: three seats (you, a person invited, an easy bot), the Rated
    game box ticked; the game's id and the two people's seat links."""
    ready(page, server.url + "/new")
    page.select_option("[data-testid=players]", "3")
    page.select_option("[data-testid=seat-0]", "you")
    page.select_option("[data-testid=seat-1]", "human")
    page.select_option("[data-testid=seat-2]", "bot:easy")
    page.click("[data-testid=more-options-toggle]")
    page.fill("[data-testid=seed]", "11")
    page.fill("[data-testid=title]", "Une soirée classée")
    page.check("[data-testid=rated]:not([disabled])")
    with page.expect_response(lambda r: urlsplit(r.url).path == "/api/games"
                              and r.request.method == "POST") as answer:
        page.click("[data-testid=create]")
    assert answer.value.status == 201, answer.value.text()
    assert json.loads(answer.value.request.post_data)["rated"] is True
    page.wait_for_selector("[data-testid=created]")
    links = {seat: page.input_value(f"[data-testid=link-{seat}]") for seat in (0, 1)}
    return str(answer.value.json()["id"]), links


def claim(page: Any, link: str) -> None:
    """Open a seat's link signed in, and claim the seat (the question's Yes)."""
    page.goto(link)
    page.click("[data-testid=claim-yes]")
    page.wait_for_selector("[data-testid=board]")


def play_to_the_end(server: Server, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Seeded random legal moves for the people's seats, each with its seat's link
    (``POST /api/games/{id}/actions``), until the game is over; the bot's moves are the
    server's. The last view."""
    rng = random.Random(3)
    deadline = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < deadline:
        view = server.get(f"/api/games/{gid}")
        if view["over"]:
            return dict(view)
        seat = view["current_player"]
        if seat not in tokens:  # the bot's move, coming
            time.sleep(0.05)
            continue
        mine = server.get(f"/api/games/{gid}", token=tokens[seat])
        if not mine["legal_actions"]:
            continue
        move = {"action": rng.choice(mine["legal_actions"]), "seq": mine["seq"]}
        try:
            server.request("POST", f"/api/games/{gid}/actions", move, token=tokens[seat])
        except urllib.error.HTTPError as e:  # the bot moved first: look again
            assert e.code == 409, e.read()
    raise AssertionError(f"the game was not over after {PLAY_SECONDS} s")


def shown_changes(page: Any) -> list[str]:
    """The score pad's rating change of each seat, as written ("+1.8 → 14.2")."""
    return [" ".join(page.inner_text(f"[data-testid=rating-change-{seat}]").split())
            for seat in range(3)]


def one(x: float) -> str:
    """A rating as the pages write it in English: one decimal, a true minus sign."""
    return f"{x:.1f}".replace("-", "−")


def written(change: dict[str, Any]) -> str:
    """A change as the score pad writes it in English ("+1.8 → 14.2", "−3.3 → −3.3")."""
    delta = change["change"]
    sign = "±" if delta == 0 else "+" if delta > 0 else "−"
    return f"{sign}{abs(delta):.1f} → {one(change['after'])}"


def way(change: float) -> str:
    """Which way a change went, as the score pad's cell is marked (green up, red down)."""
    return "same" if change == 0 else "up" if change > 0 else "down"


def test_a_rated_game_played_to_the_end_changes_three_ratings(
        server: Server, new_page: Any, shot: Any) -> None:
    ana, bruno = fresh_name("Rosalind"), fresh_name("Tomasz")
    a, b = new_page(), new_page()
    sign_up(a, server, ana)
    sign_up(b, server, bruno)
    before = standings(server)
    assert ana not in before and bruno not in before

    gid, links = create_rated_game(a, server)
    a.click("[data-testid=open-seat]")  # A's own seat, from the page that made the game
    a.click("[data-testid=claim-yes]")
    a.wait_for_selector("[data-testid=board]")
    assert a.url == links[0]
    claim(b, links[1])
    view = server.get(f"/api/games/{gid}")
    assert view["rated"] is True
    assert [s["name"] for s in view["seats"][:2]] == [ana, bruno]
    assert view["ratings"] == {"status": "pending", "reason": None, "family": FAMILY,
                               "changes": []}
    assert a.inner_text("[data-testid=rated-mark]") == "Rated"

    tokens = {seat: link.split("#", 1)[1] for seat, link in links.items()}
    end = play_to_the_end(server, gid, tokens)
    assert end["scores"] and end["ended"] is None

    # A's page follows the game to its end, then asks again while the ratings are pending
    a.wait_for_selector("[data-testid=scorepad]", state="visible", timeout=30_000)
    a.wait_for_selector("[data-testid=rating-status][data-status=done]", timeout=30_000)
    ratings = server.get(f"/api/games/{gid}")["ratings"]
    assert ratings["status"] == "done" and ratings["family"] == FAMILY
    changes = sorted(ratings["changes"], key=lambda c: c["seat"])
    assert [(c["seat"], c["kind"]) for c in changes] == [
        (0, "account"), (1, "account"), (2, "bot")]
    assert [c["name"] for c in changes[:2]] == [ana, bruno]
    assert shown_changes(a) == [written(c) for c in changes]
    ways = [a.get_attribute(f"[data-testid=rating-change-{c['seat']}]", "class")
            for c in changes]
    assert ways == [f"rating-change {way(c['change'])}" for c in changes]
    assert a.get_attribute("[data-testid=rating-leaderboard]", "href") == f"/leaderboard/{FAMILY}"
    shot(a, "rated-game-scorepad-desktop")
    # B's page, which had the same game open, shows the same numbers
    b.wait_for_selector("[data-testid=rating-status][data-status=done]", timeout=30_000)
    assert shown_changes(b) == shown_changes(a)

    # the leaderboard counts the game once for each of the three
    after = standings(server)
    assert after[ana]["games"] == after[bruno]["games"] == 1
    assert easy_bot(after)["games"] == easy_bot(before)["games"] + 1
    # each of the three ratings moved (the shown number may round to the same: not its
    # skill and uncertainty); a newcomer starts at 25 ± 25/3
    assert after[ana]["sigma"] < 25 / 3 and after[bruno]["sigma"] < 25 / 3
    bot_before, bot_after = easy_bot(before), easy_bot(after)
    assert (bot_after["mu"], bot_after["sigma"]) != (bot_before["mu"], bot_before["sigma"])
    assert [c["before"] for c in changes] == [0.0, 0.0, bot_before["rating"]]
    assert after[ana]["rating"] == changes[0]["after"]
    assert after[bruno]["rating"] == changes[1]["after"]
    assert easy_bot(after)["rating"] == changes[2]["after"]
    ready(a, server.url + "/leaderboard")
    a.wait_for_selector("[data-testid=leaderboard]")
    link = f"[data-testid=player-link][href='/players/{quote(ana)}']"
    row = a.locator("[data-testid=standing]", has=a.locator(link))
    assert row.locator("[data-testid=standing-games]").inner_text() == "1"
    assert row.locator("[data-testid=standing-rating] .rating-value").inner_text() == (
        one(changes[0]["after"]))

    # A's profile: a history of one point, this game's
    a.click(link)
    a.wait_for_selector("[data-testid=rating-chart]")
    assert a.url.endswith(f"/players/{quote(ana)}")
    card = a.locator(f"[data-testid=rating-{FAMILY}]")
    points = card.locator("[data-testid=history-point]")
    assert points.count() == 1
    assert points.get_attribute("data-game") == gid
    assert card.locator("[data-testid=family-rating] .rating-value").inner_text() == (
        one(changes[0]["after"]))
    assert a.locator("[data-testid=recent-game]").count() == 1
    shot(a, "rated-game-profile-desktop", full_page=True)

    in_french(server, new_page, shot, gid, ana, changes)


def in_french(server: Server, new_page: Any, shot: Any, gid: str, name: str,
              changes: list[dict[str, Any]]) -> None:
    """The game's score pad (as its spectators see it), the leaderboard and the
    creator's profile in a French browser, on a phone and on a desktop: no English word,
    the numbers written the French way, nothing wider than the phone."""
    english = EnglishFound()
    first = changes[0]
    french = one(first["after"]).replace(".", ",")
    for size, where in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(locale="fr-FR", **size)
        ready(page, f"{server.url}/game/{gid}")
        if where == "phone":
            page.locator("[data-testid=tab-scores]").tap()
        page.wait_for_selector("[data-testid=rating-row]", state="visible")
        assert page.inner_text("[data-testid=rating-change-0]").split()[-1] == french
        assert page.inner_text("[data-testid=rated-mark]") == "Classée"
        english.look(page, f"{where}, the score pad")
        shot(page, f"rated-game-scorepad-fr-{where}")
        if where == "phone":
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= 390, f"the score pad: {wide} px wide on a 390 px phone"
        ready(page, f"{server.url}/leaderboard")
        page.wait_for_selector(f"[data-testid=player-link][href='/players/{quote(name)}']")
        english.look(page, f"{where}, the leaderboard")
        ready(page, f"{server.url}/players/{quote(name)}")
        page.wait_for_selector("[data-testid=history-point]")
        assert french in page.inner_text("[data-testid=family-rating]")
        english.look(page, f"{where}, the profile")
        shot(page, f"rated-game-profile-fr-{where}", full_page=True)
    # a game made on the New game page (as the rated one was): its links, in French
    ready(page, f"{server.url}/new")
    page.select_option("[data-testid=seat-1]", "human")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created]")
    english.look(page, "the new game's links")
    assert not english, english
