"""The ratings' pages in the browser: the leaderboard per ruleset family, a player's
profile with the rating history as a chart, the new-game form's Rated game checkbox, and
a rated game's score pad with each seat's rating change (pending first, then done; or
why the game was not rated), in English and in French, on a desktop and on a phone.

The ratings' answers (``/api/ratings``, ``/api/ratings/{family}``, ``/api/players/{name}``
and a game view's ``rated`` and ``ratings``) are the shared contract's, given by the
page's network layer (Playwright's request interception) on top of the real test server:
the pages are tested against the contract, whatever server computes the numbers."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

from test_french_browser import EnglishFound
from test_phone import PHONE

from conftest import Server, sticking_out

DESKTOP = {"viewport": {"width": 1440, "height": 900}}

FAMILIES = {"families": [{"id": "age-of-sail", "name": "Age of Sail"},
                         {"id": "classic", "name": "2009 rules"},
                         {"id": "silent-fleet", "name": "Silent Fleet"}]}

AGE_OF_SAIL = {"family": "age-of-sail", "name": "Age of Sail", "players": [
    {"rank": 1, "kind": "bot", "name": "expert", "level": "expert", "rating": 21.4, "mu": 27.9,
     "sigma": 2.2, "games": 40},
    {"rank": 2, "kind": "account", "name": "Amélie", "level": None, "rating": 14.2, "mu": 20.5,
     "sigma": 2.1, "games": 12},
    {"rank": 3, "kind": "bot", "name": "hard", "level": "hard", "rating": 12.9, "mu": 19.0,
     "sigma": 2.0, "games": 35},
    {"rank": 4, "kind": "account", "name": "Bruno", "level": None, "rating": 3.1, "mu": 19.4,
     "sigma": 5.4, "games": 2},
]}

HISTORY = [{"at": f"2026-11-{day:02d}T20:00:00Z", "game_id": f"g{day}", "rating": rating}
           for day, rating in ((2, 3.9), (5, 7.5), (9, 10.2), (14, 9.1), (20, 14.2))]

PROFILE = {
    "name": "Amélie", "created": "2026-10-30T09:00:00Z", "games_played": 14, "games_finished": 13,
    "results": {"first": 5, "second": 4, "third": 3, "other": 1},
    "ratings": [
        {"family": "age-of-sail", "rating": 14.2, "mu": 20.5, "sigma": 2.1, "games": 5,
         "plays_like": "hard", "history": HISTORY},
        {"family": "classic", "rating": 1.6, "mu": 19.3, "sigma": 5.9, "games": 1,
         "plays_like": None, "history": [{"at": "2026-11-21T20:00:00Z", "game_id": "c1",
                                          "rating": 1.6}]},
    ],
    "recent": [
        {"game_id": "g20", "title": "Friday night", "status": "over",
         "finished": "2026-11-20T22:10:00Z", "place": 1, "score": 61, "players": 4,
         "replay": "/replay/g20", "review": "/game/g20#review"},
        {"game_id": "g21", "title": "La revanche d'Amélie", "status": "running", "finished": None,
         "place": None, "score": None, "players": 3, "replay": "/replay/g21", "review": None},
    ],
}

CHANGES = [{"seat": 0, "name": "Amélie", "kind": "account", "before": 12.4, "after": 14.2,
            "change": 1.8},
           {"seat": 1, "name": "random", "kind": "bot", "before": 5.0, "after": 4.6,
            "change": -0.4},
           {"seat": 2, "name": "random", "kind": "bot", "before": 5.2, "after": 4.9,
            "change": -0.3}]


def ratings_api(page: Any, boards: dict[str, Any] | None = None,
                players: dict[str, Any] | None = None) -> None:
    """The ratings' endpoints answer the contract's JSON: the families, each family's
    leaderboard (``boards``, an empty one by default, 404 for an unknown family), the
    profiles of ``players`` (404 for anyone else)."""
    boards = {"age-of-sail": AGE_OF_SAIL, **(boards or {})}
    players = {"Amélie": PROFILE, **(players or {})}
    known = {f["id"]: f["name"] for f in FAMILIES["families"]}

    def answer(route: Any, status: int, body: Any) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def ratings(route: Any) -> None:
        family = route.request.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
        if family == "ratings":
            answer(route, 200, FAMILIES)
        elif family in known:
            answer(route, 200, boards.get(family, {"family": family, "name": known[family],
                                                    "players": []}))
        else:
            answer(route, 404, {"detail": f"no ruleset family called '{family}'"})

    def player(route: Any) -> None:
        name = unquote(route.request.url.split("?")[0].rsplit("/", 1)[-1])
        if name in players:
            answer(route, 200, players[name])
        else:
            answer(route, 404, {"detail": f"no player called '{name}'"})

    page.route(re.compile(r"/api/ratings(/[^/?]*)?(\?.*)?$"), ratings)
    page.route(re.compile(r"/api/players/[^/?]+(\?.*)?$"), player)


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.body.dataset.ready === '1'")


def test_the_leaderboard_lists_people_and_bots_by_rating(server: Server, page: Any,
                                                         shot: Any) -> None:
    ratings_api(page)
    ready(page, server.url + "/")
    page.click("[data-testid=leaderboard-link]")  # from the site's header
    page.wait_for_selector("[data-testid=leaderboard]")
    assert page.url.endswith("/leaderboard")
    assert page.get_attribute("[data-testid=family-age-of-sail]", "aria-current") == "page"
    assert page.locator("[data-testid=family-tabs] a").all_inner_texts() == [
        "Age of Sail", "2009 rules", "Silent Fleet"]
    rows = page.locator("[data-testid=standing]")
    assert rows.count() == 4
    cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(4)]
    assert [c[0] for c in cells] == ["1", "2", "3", "4"]
    assert [c[1] for c in cells] == ["expert bot", "Amélie", "hard bot", "Bruno"]
    assert [c[2] for c in cells] == ["21.4 ± 2.2", "14.2 ± 2.1", "12.9 ± 2.0", "3.1 ± 5.4"]
    assert [c[3] for c in cells] == ["40", "12", "35", "2"]
    assert [rows.nth(i).get_attribute("data-kind") for i in range(4)] == [
        "bot", "account", "bot", "account"]
    # bots are not people: no profile link; people link to theirs
    assert rows.nth(0).locator("a").count() == 0
    link = page.get_attribute("[data-testid=player-link] >> nth=0", "href")
    assert link == "/players/Am%C3%A9lie"
    shot(page, "leaderboard-desktop")
    # another family: nobody rated yet
    page.click("[data-testid=family-classic]")
    page.wait_for_selector("[data-testid=leaderboard-empty]")
    assert page.url.endswith("/leaderboard/classic")
    assert "2009 rules" in page.inner_text("[data-testid=leaderboard-empty]")
    # a family that does not exist
    ready(page, server.url + "/leaderboard/chess")
    page.wait_for_selector("[data-testid=no-family]")
    assert "chess" in page.inner_text("[data-testid=no-family]")
    # a person's name leads to their profile
    ready(page, server.url + "/leaderboard/age-of-sail")
    page.click("[data-testid=player-link] >> text=Amélie")
    page.wait_for_selector("[data-testid=profile-name]")
    assert page.inner_text("[data-testid=profile-name]") == "Amélie"


def test_the_profile_draws_the_rating_history_and_links_replays_and_reviews(
        server: Server, page: Any, shot: Any) -> None:
    ratings_api(page)
    ready(page, server.url + "/players/Amélie")
    page.wait_for_selector("[data-testid=profile-name]")
    assert "2026" in page.inner_text("[data-testid=member-since]")
    for testid, value in (("games-played", "14"), ("games-finished", "13"), ("result-first", "5"),
                          ("result-second", "4"), ("result-third", "3"), ("result-other", "1")):
        assert page.inner_text(f"[data-testid={testid}] b") == value
    sail = page.locator("[data-testid=rating-age-of-sail]")
    assert sail.locator("[data-testid=family-rating]").inner_text() == "14.2 ± 2.1"
    assert sail.locator("[data-testid=plays-like]").inner_text() == "Plays like the hard bot"
    # one point per game of the history, in order, with a summary for screen readers
    chart = sail.locator("[data-testid=rating-chart]")
    points = chart.locator("[data-testid=history-point]")
    assert points.count() == len(HISTORY)
    assert [points.nth(i).get_attribute("data-game") for i in range(points.count())] == [
        h["game_id"] for h in HISTORY]
    heights = [float(points.nth(i).get_attribute("cy")) for i in range(points.count())]
    assert heights[4] < heights[3] < heights[0]  # higher rating, higher on the chart
    assert chart.get_attribute("aria-label") == (
        "Rating over 5 rated games: from 3.9 to 14.2, highest 14.2")
    classic = page.locator("[data-testid=rating-classic]")
    assert classic.locator("[data-testid=history-point]").count() == 1
    assert classic.locator("[data-testid=plays-like]").count() == 0
    # recent games: the replay always, the review when there is one
    rows = page.locator("[data-testid=recent-game]")
    assert rows.count() == 2
    assert rows.nth(0).locator("[data-testid=recent-place]").inner_text() == "1st of 4"
    assert rows.nth(0).locator("[data-testid=recent-replay]").get_attribute("href") == "/replay/g20"
    assert rows.nth(0).locator("[data-testid=recent-review]").get_attribute("href") == (
        "/game/g20#review")
    assert rows.nth(1).locator("[data-testid=recent-replay]").get_attribute("href") == "/replay/g21"
    assert rows.nth(1).locator("[data-testid=recent-review]").count() == 0
    shot(page, "profile-desktop", full_page=True)
    # nobody by that name
    ready(page, server.url + "/players/Zoé")
    page.wait_for_selector("[data-testid=no-player]")
    assert "Zoé" in page.inner_text("[data-testid=no-player]")


def test_the_pages_fit_a_phone(server: Server, new_page: Any, shot: Any) -> None:
    page = new_page(**PHONE)
    ratings_api(page)
    for path, testid, name in (("/leaderboard", "leaderboard", "leaderboard-phone"),
                               ("/players/Amélie", "rating-chart", "profile-phone")):
        ready(page, server.url + path)
        page.wait_for_selector(f"[data-testid={testid}]")
        page.wait_for_timeout(200)  # the chart drawn again for the phone's width
        assert not sticking_out(page, 390), sticking_out(page, 390)
        shot(page, name, full_page=True)
    # the chart is drawn for the phone's width, not shrunk from a desktop's
    width = page.evaluate("() => document.querySelector('[data-testid=rating-chart]')"
                          ".getAttribute('width')")
    assert int(width) < 390


def test_the_rated_checkbox_needs_an_account(server: Server, page: Any, shot: Any) -> None:
    ready(page, server.url + "/new")
    page.wait_for_selector("[data-testid=rated-sign-in]", state="visible")
    assert page.is_disabled("[data-testid=rated]")
    assert page.get_attribute("[data-testid=rated-sign-in] a", "href") == "/account"
    assert "every person must play with an account" in page.inner_text(
        "[data-testid=rated-choice]").lower()
    # signed in on the account page: it can be ticked, and the game asks to be rated
    ready(page, server.url + "/account")
    page.fill("[data-testid=signup-name]", "Rater")
    page.fill("[data-testid=signup-password]", "correct horse battery")
    page.click("[data-testid=signup]")
    page.wait_for_selector("[data-testid=account-signed-in]")
    sent: list[dict[str, Any]] = []

    def create(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        body = json.loads(route.request.post_data or "{}")
        sent.append(dict(body))
        body.pop("rated", None)  # the game itself need not be rated here
        route.continue_(post_data=json.dumps(body))

    page.route(re.compile(r"/api/games(\?.*)?$"), create)
    ready(page, server.url + "/new")
    page.wait_for_selector("[data-testid=rated]:not([disabled])")
    assert page.is_hidden("[data-testid=rated-sign-in]")
    shot(page, "new-game-rated")
    page.check("[data-testid=rated]")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created]")
    assert sent and sent[0]["rated"] is True
    # not ticked: nothing said about it
    ready(page, server.url + "/new")
    page.wait_for_selector("[data-testid=rated]:not([disabled])")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created]")
    assert "rated" not in sent[1]


def ended_game(server: Server) -> str:
    """A 3-player game the host ended at once: over, with its score pad."""
    created = server.create(["human", "bot:random", "bot:random"], players=3, seed=5,
                            title="Une soirée classée")
    gid = str(created["id"])
    assert server.request("POST", f"/api/games/{gid}/host/end",
                          token=created["host_token"])["over"]
    return gid


def rated_view(page: Any, gid: str, ratings: dict[str, Any]) -> None:
    """The game's views (``GET /api/games/{gid}``) as the server gives them, marked rated
    with ``ratings`` (changed in place by the test as it goes)."""

    def view(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        body["rated"] = True
        body["ratings"] = dict(ratings)
        route.fulfill(response=answer, body=json.dumps(body))

    page.route(re.compile(rf"/api/games/{gid}(\?.*)?$"), view)


def test_the_score_pad_shows_each_seats_rating_change(server: Server, page: Any,
                                                      shot: Any) -> None:
    gid = ended_game(server)
    ratings: dict[str, Any] = {"status": "pending", "reason": None, "family": "age-of-sail",
                               "changes": []}
    rated_view(page, gid, ratings)
    ready(page, f"{server.url}/game/{gid}")
    page.wait_for_selector("[data-testid=scorepad]")
    assert page.inner_text("[data-testid=rated-mark]") == "Rated"
    assert page.inner_text("[data-testid=rating-status]") == "Ratings pending…"
    assert page.locator("[data-testid=rating-row]").count() == 0
    # the job done: the page asks again while they are pending, and shows them
    ratings.update(status="done", changes=CHANGES)
    page.wait_for_selector("[data-testid=rating-row]", timeout=15_000)
    cells = [page.locator(f"[data-testid=rating-change-{seat}]") for seat in range(3)]
    assert [c.inner_text().replace("\n", " ") for c in cells] == [
        "+1.8 → 14.2", "−0.4 → 4.6", "−0.3 → 4.9"]
    assert [c.get_attribute("class") for c in cells] == [
        "rating-change up", "rating-change down", "rating-change down"]
    status = page.locator("[data-testid=rating-status]")
    assert status.get_attribute("data-status") == "done"
    assert status.locator("a").get_attribute("href") == "/leaderboard/age-of-sail"
    shot(page, "scorepad-rated")
    # a game that could not be rated says why
    ratings.update(status="unrated", reason="a guest played seat 1", changes=[])
    page.reload()
    page.wait_for_selector("[data-testid=rating-status][data-status=unrated]")
    assert page.inner_text("[data-testid=rating-status]") == (
        "This game was not rated: a guest played seat 1")
    assert page.locator("[data-testid=rating-row]").count() == 0


def test_the_ratings_pages_in_french(server: Server, new_page: Any, shot: Any) -> None:
    """A French browser: the leaderboard, the profile, the new-game form's checkbox and a
    rated game's score pad say nothing in English."""
    english = EnglishFound()
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(locale="fr-FR", **size)
        ratings_api(page)
        ready(page, server.url + "/leaderboard")
        page.wait_for_selector("[data-testid=leaderboard]")
        assert page.inner_text("[data-testid=standing] >> nth=0").split("\t")[1] == "expert robot"
        english.look(page, f"{name}, the leaderboard")
        ready(page, server.url + "/leaderboard/silent-fleet")
        page.wait_for_selector("[data-testid=leaderboard-empty]")
        english.look(page, f"{name}, an empty leaderboard")
        ready(page, server.url + "/players/Amélie")
        page.wait_for_selector("[data-testid=rating-chart]")
        plays_like = page.inner_text("[data-testid=plays-like] >> nth=0")
        assert plays_like == "Joue comme le robot difficile"
        assert "14,2" in page.inner_text("[data-testid=family-rating] >> nth=0")
        english.look(page, f"{name}, the profile")
        shot(page, f"french-profile-{name}", full_page=True)
        ready(page, server.url + "/players/Zoé")
        page.wait_for_selector("[data-testid=no-player]")
        english.look(page, f"{name}, no such player")
        ready(page, server.url + "/new")
        page.wait_for_selector("[data-testid=rated-sign-in]", state="visible")
        english.look(page, f"{name}, the new-game form")
    gid = ended_game(server)
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_page(locale="fr-FR", **size)
        rated_view(page, gid, {"status": "done", "reason": None, "family": "classic",
                               "changes": CHANGES})
        ready(page, f"{server.url}/game/{gid}")
        page.wait_for_selector("[data-testid=rating-row]", state="visible")  # the phone's tab too
        assert page.inner_text("[data-testid=rating-change-0]").split() == ["+1,8", "→", "14,2"]
        assert page.inner_text("[data-testid=rated-mark]") == "Classée"
        english.look(page, f"{name}, the score pad")
        shot(page, f"french-scorepad-rated-{name}")
    assert not english, english
