"""Online play among friends, in the browser: whose move it is wherever you
are (the tab's title and favicon, "Your games"), links that do not work said in words,
the host panel, clocks, notification settings, and the wording players see."""

from __future__ import annotations

import random
import re
from typing import Any

from test_browser import click_something, open_game, seq, wait_seq_change

from conftest import Server, sticking_out

YOUR_MOVE = "▶ Your move"


def game_url(server: Server, url: str) -> str:
    return url if url.startswith("http") else server.url + url


def wait_title(page: Any, starts: bool) -> None:
    """Wait until the tab's title does (or does not) start with "▶ Your move"."""
    page.wait_for_function(
        f"() => document.title.startsWith('{YOUR_MOVE}') === {'true' if starts else 'false'}")


def play_until(page: Any, done: Any, rng: random.Random, limit: int = 60) -> None:
    """Click moves on this page (when it is its move) until ``done()``."""
    for _ in range(limit):
        if done():
            return
        if page.query_selector("[data-testid=option]"):
            click_something(page, rng)
        else:
            page.wait_for_timeout(150)
    raise AssertionError("the game did not get there")


def fake_tab_strip(page: Any) -> None:
    """For the docs' screenshot (a browser's own tab strip is not in a screenshot):
    draw the page's real favicon, large, and its real title above the page."""
    page.evaluate("""() => {
      const icon = document.querySelector("link[rel~=icon]").href;
      const strip = document.createElement("div");
      strip.setAttribute("style", "display:flex;align-items:center;gap:14px;padding:10px 18px;"
        + "background:#dee1e6;font:600 20px system-ui;color:#202124;border-bottom:1px solid #bbb");
      const tab = document.createElement("div");
      tab.setAttribute("style", "display:flex;align-items:center;gap:12px;background:#fff;"
        + "padding:8px 18px;border-radius:10px 10px 0 0;max-width:640px");
      const img = document.createElement("img");
      img.src = icon; img.width = 48; img.height = 48;
      const text = document.createElement("span");
      text.textContent = document.title;
      tab.append(img, text);
      const note = document.createElement("span");
      note.textContent = "(the tab as the browser shows it, enlarged)";
      note.setAttribute("style", "font-weight:400;font-size:14px;color:#555");
      strip.append(tab, note);
      document.body.prepend(strip);
    }""")


# --------------------------------------------------------------------------- your move
def test_your_move_reaches_the_other_browser(server: Server, new_page: Any, shot: Any) -> None:
    """Two friends, two browsers: after the first moves, the second's tab says
    "▶ Your move" with the favicon's badge, and the first's no longer does."""
    created = server.create(["human", "human"], players=2, seed=21, title="Two friends")
    first = server.get(f"/api/games/{created['id']}")["current_player"]
    pages = {}
    for seat in created["seats"]:
        pg = new_page()
        open_game(pg, game_url(server, seat["url"]))
        pages[seat["seat"]] = pg
    mover, other = pages[first], pages[1 - first]
    wait_title(mover, True)
    assert other.title().startswith("Two friends") and not other.title().startswith(YOUR_MOVE)
    assert "favicon-move.svg" in mover.get_attribute("link[rel~=icon]", "href")
    assert "favicon-move.svg" not in other.get_attribute("link[rel~=icon]", "href")
    before = seq(other)
    click_something(mover, random.Random(1))
    wait_seq_change(other, before)
    wait_title(other, True)
    wait_title(mover, False)
    assert "favicon-move.svg" in other.get_attribute("link[rel~=icon]", "href")
    assert "Your move" in other.inner_text("[data-testid=whose-turn]")
    # the one who waits reads the decision in the third person
    waiting = mover.inner_text("[data-testid=prompt]")
    assert f"P{1 - first}" in waiting and "your" not in waiting.lower(), waiting
    fake_tab_strip(other)
    shot(other, "title-badge")


def test_your_games_lists_your_move_first_with_the_count(server: Server, page: Any) -> None:
    """The lobby's "Your games": every game this browser holds a seat of (its old
    single-token key moved in), the games waiting for you first, their count in the
    title."""
    waiting = server.create(["human", "human"], players=2, seed=31, title="Waiting for me")
    mover = server.get(f"/api/games/{waiting['id']}")["current_player"]
    not_mine = server.create(["human", "human"], players=2, seed=32, title="Not my move")
    other = 1 - server.get(f"/api/games/{not_mine['id']}")["current_player"]
    old = server.create(["human", "bot:random"], players=2, seed=33, title="Kept the old way")
    for url in (waiting["seats"][mover]["url"], not_mine["seats"][other]["url"]):
        open_game(page, game_url(server, url))
    # a token kept by the app before online play (one key per game)
    page.evaluate("([id, token]) => localStorage.setItem(`endeavor.token.${id}`, token)",
                  [old["id"], old["seats"][0]["token"]])
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=mine-row]")
    rows = page.query_selector_all("[data-testid=mine-row]")
    ids = [r.get_attribute("data-id") for r in rows]
    assert set(ids) == {waiting["id"], not_mine["id"], old["id"]}
    assert ids[-1] == not_mine["id"]  # your-move games first
    assert [bool(r.query_selector("[data-testid=your-move]")) for r in rows] == [True, True, False]
    page.wait_for_function("() => document.title === '(2) Endeavor'")
    assert page.evaluate("id => localStorage.getItem(`endeavor.token.${id}`)", old["id"]) is None
    # a game where it is your move opens from the list
    page.click(f"[data-testid=mine-row][data-id='{old['id']}'] [data-testid=open-mine]")
    page.wait_for_selector("[data-testid=board]")
    assert page.inner_text("[data-testid=whose-turn]") == "Your move"


# --------------------------------------------------------------------------- links
def test_bad_and_revoked_links_say_so_in_words(server: Server, page: Any) -> None:
    """A mistyped link in a browser that holds a working seat: a page in words with a way
    on, and the working seat still opens from "Your games" and Resume; a link the host
    re-issued is "not a seat of this game any more"; no such game; no such page."""
    created = server.create(["human", "bot:random"], players=2, seed=41, title="Links")
    gid, seat = created["id"], created["seats"][0]
    good = game_url(server, seat["url"])
    open_game(page, good)
    bad = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    page.goto(bad)
    page.wait_for_selector("[data-testid=not-a-seat]")
    text = page.inner_text("[data-testid=not-a-seat]")
    assert "This link is not a seat of this game any more" in text
    assert page.inner_text("[data-testid=open-other-seat]") == "Open your seat (P0)"
    assert page.inner_text("[data-testid=watch]") == "Watch this game"
    page.click("[data-testid=open-other-seat]")
    page.wait_for_selector("[data-testid=board]")
    assert page.url == good and page.inner_text("[data-testid=whose-turn]") == "Your move"
    page.goto(bad)
    page.wait_for_selector("[data-testid=not-a-seat]")
    page.click("[data-testid=to-lobby]")
    page.wait_for_selector(f"[data-testid=mine-row][data-id='{gid}']")
    resume = page.get_attribute(
        f"[data-testid=game-row][data-id='{gid}'] [data-testid=resume]", "href")
    assert resume.endswith("#" + seat["token"])  # the working one, not the mistyped one
    page.click(f"[data-testid=mine-row][data-id='{gid}'] [data-testid=open-mine]")
    page.wait_for_selector("[data-testid=board]")
    assert page.url == good
    # the host gives the seat a new link: the old one is no seat any more
    server.request("POST", f"/api/games/{gid}/host/seats/0/reissue", token=created["host_token"])
    page.goto(server.url + "/")
    page.goto(good)
    page.wait_for_selector("[data-testid=not-a-seat]")
    assert "not a seat of this game any more" in page.inner_text("[data-testid=not-a-seat]")
    assert page.query_selector("[data-testid=open-other-seat]") is None
    page.click("[data-testid=watch]")
    page.wait_for_selector("[data-testid=board]")
    assert "spectating" in page.inner_text(".game-head")
    # no such game; no such page (the server answers 404 with the app's page)
    page.goto(server.url + "/play/nosuchgame#whatever")
    page.wait_for_selector("[data-testid=no-game]")
    assert "No such game" in page.inner_text("[data-testid=no-game]")
    response = page.goto(server.url + "/no/such/page")
    assert response is not None and response.status == 404
    page.wait_for_selector("[data-testid=nothing-here]")
    assert "Nothing here" in page.inner_text("[data-testid=nothing-here]")
    assert page.query_selector("[data-testid=to-lobby]") is not None


def test_host_panel_links_bots_and_the_end(server: Server, new_page: Any, shot: Any) -> None:
    """The creator's host link: every seat's link again (copied), a new link (the old
    one refused at once), a bot in a seat (it moves) handed back to a person (the new
    link plays), the game ended: the score pad says so."""
    host = new_page(permissions=["clipboard-read", "clipboard-write"])
    host.goto(server.url + "/new")
    host.wait_for_selector("[data-testid=create]")
    host.select_option("[data-testid=players]", "2")
    host.select_option("[data-testid=seat-1]", "human")
    host.click("[data-testid=more-options-toggle]")  # the seed is folded away
    host.fill("[data-testid=seed]", "51")
    host.fill("[data-testid=title]", "Friday night")
    host.select_option("[data-testid=clock]", "days")
    host.click("[data-testid=create]")
    host.wait_for_selector("[data-testid=created]")
    host_url = host.input_value("[data-testid=link-host]")
    invite = host.input_value("[data-testid=link-1]")
    assert "/host/" in host_url and "#" in host_url
    gid = host_url.split("/host/")[1].split("#")[0]
    host_token = host_url.split("#", 1)[1]
    # the host link opens the host's own seat, with the panel open
    host.goto(host_url)
    host.wait_for_selector("[data-testid=board]")
    assert "/play/" in host.url
    host.wait_for_selector("[data-testid=host-seat-1]")
    assert host.inner_text("[data-testid=host-state-0]") == "you, in this browser"
    assert host.input_value("[data-testid=host-link-1]") == invite
    # when each seat last moved and opened the game: the host's own page just did
    assert host.inner_text("[data-testid=host-activity-0]").endswith(
        "opened the game just now")
    assert host.inner_text("[data-testid=host-activity-1]") == (
        "not moved yet · has not opened the game")
    # a turn-based clock's deadline: the time left, and the moment in the reader's time
    assert re.fullmatch(r"\s*\(by .+\)", host.inner_text("[data-testid=turn-deadline]"))
    assert host.query_selector("[data-testid=host-clock] >> text=Turn-based clock") is not None
    host.click("[data-testid=host-copy-1]")
    assert host.evaluate("navigator.clipboard.readText()") == invite
    # a new link for P1: the old token is refused at once, the new one works
    host.click("[data-testid=host-reissue-1]")
    host.wait_for_function(
        f"() => document.querySelector('[data-testid=host-link-1]').value !== {invite!r}")
    fresh = host.input_value("[data-testid=host-link-1]")
    assert server.status("GET", f"/api/games/{gid}", token=invite.split("#", 1)[1]) == 403
    assert server.get(f"/api/games/{gid}", token=fresh.split("#", 1)[1])["you"] == [1]
    assert "new link" in host.inner_text("[data-testid=host-message]")
    # more time for every seat; the clocks stopped (marked on the mats) and restarted
    host.select_option("[data-testid=host-extend-amount]", "3600")
    host.click("[data-testid=host-extend]")
    host.wait_for_selector("text=Every seat has 1 hour more.")
    host.click("[data-testid=host-pause]")
    host.wait_for_selector("text=The clocks are stopped.")
    host.wait_for_selector("[data-testid=mat-1] [data-testid=clock-1].stopped")
    assert "stopped" in host.inner_text("[data-testid=mat-1] [data-testid=clock-1]")
    host.click("[data-testid=host-pause]")
    host.wait_for_selector("text=The clocks run again.")
    assert server.get(f"/api/games/{gid}")["clock"]["banks"][1] == 259200 + 3600
    # a bot in P1's seat: it plays. The choice of bot survives the panel being drawn
    # again meanwhile (here by more time given from elsewhere; in play, a move)
    host.select_option("[data-testid=host-bot-level-1]", "random")
    host.evaluate("document.querySelector('[data-testid=host-seat-1]').dataset.old = '1'")
    server.request("POST", f"/api/games/{gid}/host/clock", {"extend": 60, "seat": 0},
                   token=host_token)
    host.wait_for_function("() => !document.querySelector('[data-testid=host-seat-1]')"
                           ".dataset.old")
    assert host.input_value("[data-testid=host-bot-level-1]") == "random"
    host.click("[data-testid=host-bot-1]")
    benched = ("the random bot, put there by you (the player's link watches until you hand "
               "the seat back)")
    host.wait_for_function("words => document.querySelector('[data-testid=host-state-1]')"
                           ".textContent === words"
                           " || document.querySelector('.host-message.error')", arg=benched)
    assert host.inner_text("[data-testid=host-state-1]") == benched, \
        host.inner_text("[data-testid=host-message]")
    watching = server.get(f"/api/games/{gid}", token=fresh.split("#", 1)[1])
    assert watching["you"] == [] and watching["benched"][0]["seat"] == 1
    host.evaluate("document.getElementById('toast')?.classList.remove('show')")  # "Copied"
    host.wait_for_timeout(300)
    shot(host, "host-panel")
    host.click("[data-testid=host-panel-close]")
    put_at = seq(host)

    def bot_moved() -> bool:
        events = server.get(f"/api/games/{gid}")["events"]
        return any(e["kind"] == "action" and e["player"] == 1 and e["seq"] > put_at
                   for e in events)

    play_until(host, bot_moved, random.Random(3))
    log = host.inner_text("[data-testid=log]")
    assert "⚑ The host put the random bot in P1's seat" in log
    # handed back to its player: the link they have plays again
    host.click("[data-testid=host-open]")
    host.click("[data-testid=host-human-1]")
    # the panel's answer, whichever it is (a refusal is shown in the same place, and is
    # what the assertion then prints); a loaded machine may take a while
    host.wait_for_function("() => document.querySelector('[data-testid=host-message]')"
                           "?.textContent", timeout=30_000)
    said = host.inner_text("[data-testid=host-message]")
    assert "the link they have plays it again" in said, said
    back = host.input_value("[data-testid=host-link-1]")
    assert back == fresh
    host.click("[data-testid=host-panel-close]")
    friend = new_page()
    open_game(friend, back)
    rng = random.Random(4)
    play_until(host, lambda: bool(friend.query_selector("[data-testid=option]")), rng)
    before = seq(friend)
    click_something(friend, rng)
    assert seq(friend) > before
    # the end of an abandoned game, confirmed first
    host.click("[data-testid=host-open]")
    host.click("[data-testid=host-end]")
    assert host.query_selector("[data-testid=host-over]") is None
    host.click("[data-testid=host-end-confirm]")
    host.wait_for_selector("[data-testid=host-over]")
    host.click("[data-testid=host-panel-close]")
    host.wait_for_selector("[data-testid=ended-by-host]")
    assert "ended by the host" in host.inner_text("[data-testid=scorepad]")
    assert host.inner_text("[data-testid=headline]") == "Ended by the host"
    friend.wait_for_selector("[data-testid=ended-by-host]")
    assert server.get(f"/api/games/{gid}/host", token=host_token)["ended"] == "host"


# --------------------------------------------------------------------------- clocks
def test_a_short_clock_runs_out_and_a_bot_plays(server: Server, page: Any) -> None:
    """A 3-second clock from the new-game form: shown on the mat, counting down; when it
    runs out the log says the bot played."""
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("[data-testid=players]", "2")
    page.select_option("[data-testid=seat-1]", "bot:random")
    page.select_option("[data-testid=clock]", "custom")
    page.fill("[data-testid=clock-bank]", "0")
    page.fill("[data-testid=clock-per]", "3")
    page.select_option("[data-testid=clock-per-unit]", "1")
    page.select_option("[data-testid=clock-bot]", "random")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created-clock]")
    assert "3 s per decision" in page.inner_text("[data-testid=created-clock]")
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=turn-clock]")
    chip = page.inner_text("[data-testid=clock-0]")
    assert re.fullmatch(r"0:0[0-3]", chip), chip
    assert "running" in page.get_attribute("[data-testid=clock-0]", "class")
    assert "then the random bot plays this decision" in page.inner_text("[data-testid=turn-clock]")
    page.wait_for_selector("text=P0's time ran out: the random bot played for them",
                           timeout=15_000)
    line = page.query_selector("[data-testid=log] li.ev-timeout")  # marked by a clock icon
    assert line is not None and line.inner_text().startswith("P0's time ran out")


def test_reclaim_a_seat_after_the_clock_ran_out(server: Server, page: Any) -> None:
    """With "the rest of the game", the player sees why a bot plays their seat and takes
    it back."""
    created = server.create(["human", "human"], players=2, seed=61,
                            clock={"kind": "live", "per_decision": 2, "on_timeout": "game",
                                   "bot": "random", "reclaim": True})
    first = server.get(f"/api/games/{created['id']}")["current_player"]
    open_game(page, game_url(server, created["seats"][first]["url"]))
    page.wait_for_selector(f"[data-testid=taken-over-{first}]", timeout=15_000)
    assert "Your time ran out: the random bot plays" in page.inner_text(
        f"[data-testid=taken-over-{first}]")
    assert not page.title().startswith(YOUR_MOVE)
    page.click("[data-testid=reclaim]")
    page.wait_for_selector(f"[data-testid=taken-over-{first}]", state="detached")
    assert "took their seat back" in page.inner_text("[data-testid=log]")


# --------------------------------------------------------------------------- notifications
def test_notification_settings_set_and_remove_a_webhook(private_server: Server,
                                                         server: Server, page: Any) -> None:
    """The game page's notification settings: a webhook (and an e-mail, on a server that
    sends e-mail) set, shown and removed; a refused webhook said in words."""
    srv = private_server
    created = srv.create(["human", "bot:random"], players=2, seed=71)
    gid, token = created["id"], created["seats"][0]["token"]
    open_game(page, game_url(srv, created["seats"][0]["url"]))
    page.click("[data-testid=notify-open]")
    page.wait_for_selector("[data-testid=webhook-input]")
    assert "Discord" in page.inner_text("[data-testid=notify-server]")
    assert not page.is_checked("[data-testid=sound-toggle]")
    hook = f"{srv.url}/hook-for-tests"
    page.fill("[data-testid=webhook-input]", hook)
    page.click("[data-testid=webhook-save]")
    page.wait_for_selector("[data-testid=webhook-current]")
    assert hook in page.inner_text("[data-testid=webhook-current]")
    page.fill("[data-testid=email-input]", "me@example.org")
    page.click("[data-testid=email-save]")
    page.wait_for_selector("[data-testid=email-current]")
    assert srv.get(f"/api/games/{gid}/notify", token=token)["seats"] == [
        {"seat": 0, "webhook": hook, "email": "me@example.org", "webhook_mode": "turn",
         "email_mode": "turn", "from_account": False}]
    page.click("[data-testid=webhook-remove]")
    page.wait_for_selector("[data-testid=webhook-current]", state="detached")
    assert "removed" in page.inner_text("[data-testid=notify-message]")
    assert srv.get(f"/api/games/{gid}/notify", token=token)["seats"] == [
        {"seat": 0, "webhook": None, "email": "me@example.org", "webhook_mode": "turn",
         "email_mode": "turn", "from_account": False}]
    # the sound toggle is remembered; browser notifications are asked for by the button
    page.check("[data-testid=sound-toggle]")
    assert page.evaluate("localStorage.getItem('endeavor.pref.sound')") == "1"
    assert page.inner_text("[data-testid=browser-notify-state]") == "Off."
    page.context.grant_permissions(["notifications"])
    page.click("[data-testid=browser-notify]")
    page.wait_for_function("() => document.querySelector('[data-testid=browser-notify-state]')"
                           ".textContent.startsWith('On')")
    assert page.inner_text("[data-testid=browser-notify]") == "Turn off"
    # a server that refuses private addresses and sends no e-mail says so in words
    other = server.create(["human", "bot:random"], players=2, seed=72)
    open_game(page, game_url(server, other["seats"][0]["url"]))
    page.click("[data-testid=notify-open]")
    page.wait_for_selector("[data-testid=no-email]")
    assert page.query_selector("[data-testid=email-input]") is None
    page.fill("[data-testid=webhook-input]", "http://127.0.0.1:9/hook")
    page.click("[data-testid=webhook-save]")
    page.wait_for_selector("[data-testid=notify-message].error")
    assert "private network" in page.inner_text("[data-testid=notify-message]")


# --------------------------------------------------------------------------- wording
def test_wording_bounds_and_refusals(server: Server, page: Any) -> None:
    """No internal words (rule ids) on screen; a long title stays in its column; the
    form refuses "chosen" Exploits with none ticked before sending; a stale click is
    "the game moved on"; the import offers every bot level."""
    long_title = "A very long title that goes on " * 6
    created = server.create(["hotseat", "hotseat"], players=2, seed=81,
                            title=long_title.strip())
    page.goto(server.url + "/")
    page.wait_for_selector(f"[data-testid=game-row][data-id='{created['id']}']")
    overflow = page.evaluate("""() => {
      const box = document.querySelector("[data-testid=games]").parentElement;
      return box.scrollWidth - box.clientWidth;
    }""")
    assert overflow <= 0
    cell = page.query_selector(f"[data-testid=game-row][data-id='{created['id']}'] .clip")
    assert cell.get_attribute("title") == long_title.strip()
    meta = server.get("/api/meta")
    options = page.eval_on_selector_all("[data-testid=import-bot] option",
                                        "os => os.map(o => o.value)")
    assert options == meta["bots"]
    # a stale page: the click is refused by the server, said in words, and redrawn
    url = game_url(server, created["seats"][0]["url"])
    open_game(page, url)
    token = created["seats"][0]["token"]
    page.evaluate("""async ([id, token]) => {
      const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
      const view = await (await fetch(`/api/games/${id}`, { headers: auth })).json();
      await fetch(`/api/games/${id}/actions`, { method: "POST", headers: auth,
        body: JSON.stringify({ action: view.legal_actions[0], seq: view.seq }) });
      document.querySelector("[data-testid=option]").click();
    }""", [created["id"], token])
    page.wait_for_selector("[data-testid=toast].show")
    assert page.inner_text("[data-testid=toast]") == "The game moved on; here it is now."
    body = page.inner_text("body")
    assert not re.search(r"\(R\d+", body) and "seq" not in body.lower().split()
    # Exploits "chosen below" with none ticked: refused before anything is sent
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("[data-testid=exploits]", "chosen")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=exploit-problem]")
    assert "Tick the Exploits" in page.inner_text("[data-testid=exploit-problem]")
    page.wait_for_timeout(200)
    assert posts == []


def test_phone_width_panels(server: Server, new_page: Any) -> None:
    """At phone width (390×844) the lobby with "Your games", the host panel and the
    notification settings fit the screen."""
    phone = new_page(viewport={"width": 390, "height": 844})
    created = server.create(["human", "human"], players=2, seed=91,
                            title="A game with a title far too long for a phone's screen " * 2,
                            clock={"kind": "turn", "bank": 259200, "per_decision": 43200})
    phone.goto(server.url + "/host/" + created["id"] + "#" + created["host_token"])
    phone.wait_for_selector("[data-testid=host-seat-1]")
    assert "/game/" in phone.url  # this browser holds no seat: the host watches
    phone.click("[data-testid=host-panel-close]")
    open_game(phone, game_url(server, created["seats"][0]["url"]))
    width = "document.documentElement.scrollWidth <= window.innerWidth"
    phone.click("[data-testid=host-open]")
    phone.wait_for_selector("[data-testid=host-seat-1]")
    assert phone.evaluate("""() => {
      const d = document.querySelector("[data-testid=host-panel]");
      return d.scrollWidth <= d.clientWidth + 1;
    }""")
    phone.click("[data-testid=host-panel-close]")
    phone.click("[data-testid=notify-open]")
    phone.wait_for_selector("[data-testid=webhook-input]")
    phone.click("[data-testid=notify-panel-close]")
    phone.goto(server.url + "/")
    phone.wait_for_selector("[data-testid=mine-row]")
    assert phone.evaluate(width), sticking_out(phone, 390)
