"""Play again in real browsers: three friends (the host on a desktop, two on phones, each
a browser of their own) at a game the host ends; a phone proposes the rematch with the
seats rotated and lands on its new seat; the two others, still on their old pages, see
"Join the rematch" and each lands on their own new seat (no link sent); a spectator's
page says a rematch is being played. Then the lobby: the finished game with "you …
of 3 (…)" and Open (not Resume), "Your games" filtered to finished and running ones. And
the New-game form: "Play with friends" makes the other seats invited, the seed is
folded away, and each invitation is ready-to-send text with its link."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from test_browser import open_game

from conftest import Server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}


def _seat_of(page: Any, server: Server) -> tuple[str, str, list[int]]:
    """The game, token and seats of the seat page ``page`` shows."""
    m = re.search(r"/play/([^/#]+)#(.+)$", page.url)
    assert m, page.url
    gid, token = m.group(1), unquote(m.group(2))
    return gid, token, server.get(f"/api/games/{gid}", token)["you"]


def test_rematch_proposed_on_a_phone_and_joined_from_every_old_page(
        server: Server, new_page: Any, shot: Any) -> None:
    created = server.create(["human", "human", "human"], players=3, seed=21,
                            title="Friday night")
    gid = created["id"]
    urls = [server.url + s["url"] for s in created["seats"]]
    host = new_page()  # P0, the host, on a desktop: the host link, then their seat
    host.goto(server.url + created["host_url"])
    host.wait_for_selector("[data-testid=host-panel-close]")
    open_game(host, urls[0])
    phones = [new_page(**PHONE), new_page(**PHONE)]  # P1 and P2
    for pg, url in zip(phones, urls[1:], strict=True):
        open_game(pg, url)
    watcher = new_page()
    open_game(watcher, server.url + created["spectate_url"])
    # nothing to play again before the end
    assert host.query_selector("[data-testid=play-again]") is None
    assert server.request("POST", f"/api/games/{gid}/host/end",
                          token=created["host_token"])["over"]
    for pg in (host, *phones):
        pg.wait_for_selector("[data-testid=play-again]", state="visible")
    shot(phones[0], "rematch-play-again-phone")
    # the spectator has nothing to propose
    watcher.wait_for_selector("[data-testid=scorepad]", state="attached")
    assert watcher.query_selector("[data-testid=play-again]") is None

    # P1 proposes on their phone, seats rotated (the default): P1 -> seat 2
    phones[0].click("[data-testid=play-again]")
    phones[0].wait_for_url(re.compile(r"/play/(?!" + re.escape(gid) + r")"))
    phones[0].wait_for_selector("[data-testid=board]")
    new, token1, you = _seat_of(phones[0], server)
    assert new != gid and you == [2]
    assert server.get(f"/api/games/{gid}/rematch")["rematch_id"] == new
    view = server.get(f"/api/games/{new}")
    assert view["title"] == "Friday night (rematch)"

    # the others' old pages offer to join; each lands on their own new seat
    expect = {0: [1], 2: [0]}
    for pg, old in ((host, 0), (phones[1], 2)):
        pg.wait_for_selector("[data-testid=rematch-join]", state="visible", timeout=20_000)
        if old == 0:
            shot(pg, "rematch-join-desktop")
        pg.click("[data-testid=rematch-join]")
        pg.wait_for_url(re.compile(r"/play/" + re.escape(new) + "#"))
        pg.wait_for_selector("[data-testid=board]")
        got_id, token, you = _seat_of(pg, server)
        assert got_id == new and you == expect[old]
        assert token != token1
    # the spectator's page says so, and leads to the rematch
    watcher.wait_for_selector("[data-testid=rematch-watch]", state="visible", timeout=20_000)
    assert watcher.get_attribute("[data-testid=rematch-watch]", "href").endswith(f"/game/{new}")

    # P1 proposed: P1 hosts the rematch (its ⚑ Host button), the old host does not
    phones[0].wait_for_selector("[data-testid=host-open]", state="attached")
    assert host.query_selector("[data-testid=host-open]") is None

    # the lobby: the finished game with the host's place and Open; the filter
    host.goto(server.url + "/")
    row = f"[data-testid=mine-row][data-id='{gid}']"
    host.wait_for_selector(row)
    scores = {s["seat"]: s for s in server.get(f"/api/games/{gid}")["scores"]}
    mine = scores[0]
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[mine["rank"]]
    tied = sum(1 for s in scores.values() if s["rank"] == mine["rank"]) > 1
    words = f"you {'tied for ' if tied else ''}{ordinal} of 3 ({mine['total']})"
    assert host.inner_text(f"{row} [data-testid=mine-status]") == f"ended by the host · {words}"
    assert host.inner_text(f"{row} [data-testid=open-mine]") == "Open"
    resume = host.query_selector(f"[data-testid=game-row][data-id='{gid}'] [data-testid=resume]")
    assert resume is not None and resume.inner_text() == "Open"
    shot(host, "lobby-results-desktop")
    host.click("[data-testid=mine-filter-over]")
    host.wait_for_selector(f"[data-testid=mine-row][data-id='{new}']", state="detached")
    assert host.query_selector(row) is not None
    host.click("[data-testid=mine-filter-running]")
    host.wait_for_selector(row, state="detached")
    host.wait_for_selector(f"[data-testid=mine-row][data-id='{new}']")
    phones[1].goto(server.url + "/")
    phones[1].wait_for_selector(f"[data-testid=mine-row][data-id='{gid}']")
    shot(phones[1], "lobby-results-phone")


def test_new_game_with_friends_gives_ready_to_send_invitations(
        server: Server, new_page: Any, shot: Any) -> None:
    page = new_page(**PHONE)
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=create]")
    # the seed is folded away under More options
    assert not page.is_visible("[data-testid=seed]")
    page.select_option("[data-testid=players]", "3")
    page.click("[data-testid=seats-friends]")
    assert [page.input_value(f"[data-testid=seat-{i}]") for i in range(3)] == [
        "you", "human", "human"]
    page.select_option("[data-testid=players]", "4")  # the choice holds for a 4th seat
    assert page.input_value("[data-testid=seat-3]") == "human"
    page.fill("[data-testid=title]", "Sunday sail")
    shot(page, "new-game-friends-phone", full_page=True)
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created]")
    link1 = page.input_value("[data-testid=link-1]")
    text = page.input_value("[data-testid=invite-1-text]")
    assert text == f"You're invited to Sunday sail as P1 (blue square) — {link1}"
    assert page.input_value("[data-testid=invite-3-text]").startswith(
        "You're invited to Sunday sail as P3 (green hexagon) — ")
    assert page.query_selector("[data-testid=invite-0]") is None  # your own seat
    assert page.is_visible("[data-testid=invite-1-copy]")
    shot(page, "new-game-invitations-phone", full_page=True)
    # the host panel's seat links come as invitations too
    gid = link1.split("/play/")[1].split("#")[0]
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=board]")
    page.click("[data-testid=menu-toggle]")
    page.click("[data-testid=host-open]")
    page.wait_for_selector("[data-testid=host-invite-2-text]")
    assert page.input_value("[data-testid=host-invite-2-text]").startswith(
        "You're invited to Sunday sail as P2 (yellow diamond) — ")
    assert page.input_value("[data-testid=host-invite-1-text]") == text
    assert page.query_selector("[data-testid=host-invite-0]") is None
    shot(page, "host-panel-invitations-phone")
    assert gid
