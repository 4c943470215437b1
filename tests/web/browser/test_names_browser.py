"""Seats' names in the browser: a 3-person game (Anna at a desktop, a friend on a phone,
an easy bot) imported a few moves before its end. The friend is asked for a name when
opening their link, and Anna's page shows it at once; the names show on the board's tip
cards, the mats, the log, the decision bar, the score pad with the line that says who
won, and in the e-mail the friend gets at the end (from a real server to a local SMTP
server). Every wait is bounded."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import Server, _free_port
from endeavor import GameConfig, new_game
from endeavor.bots import make
from endeavor.records import make_record

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


class Mailbox:
    """A local SMTP server (aiosmtpd) keeping what it is sent."""

    def __init__(self) -> None:
        controller = pytest.importorskip("aiosmtpd.controller",
                                         reason="aiosmtpd is not installed (webtest extra)")
        self.mails: list[Any] = []
        self.cond = threading.Condition()
        outer = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any,  # noqa: N802
                                  envelope: Any) -> str:
                import email
                from email import policy

                msg = email.message_from_bytes(envelope.content, policy=policy.default)
                with outer.cond:
                    outer.mails.append((list(envelope.rcpt_tos), msg))
                    outer.cond.notify_all()
                return "250 Message accepted"

        self.port = _free_port()
        self.controller = controller.Controller(Handler(), hostname="127.0.0.1",
                                                port=self.port)
        self.controller.start()

    def wait_for(self, to: str, words: str, timeout: float = 30.0) -> Any:
        """The first e-mail to ``to`` whose text holds ``words`` (fails after
        ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for rcpt, msg in self.mails:
                    if to in rcpt and words in msg.get_content():
                        return msg
                left = deadline - time.monotonic()
                assert left > 0, f"no e-mail to {to} saying {words!r} in {timeout} s: " + \
                    repr([m.get_content()[:200] for _, m in self.mails])
                self.cond.wait(left)


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    try:
        yield box
    finally:
        box.controller.stop()


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox,
                ) -> Iterator[Server]:
    """A server that sends e-mail to the local mailbox."""
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    srv = Server(tmp_path_factory.mktemp("names-server"),
                 ("--smtp", f"smtp://127.0.0.1:{mailbox.port}",
                  "--mail-from", "endeavor@example.org", "--review-iterations", "0"))
    try:
        yield srv
    finally:
        srv.stop()


def _near_the_end() -> dict[str, Any]:
    """The record of a seeded random 3-player game stopped where P0 decides, a few
    decisions before the end, with decisions of P0 and P1 still to come."""
    for seed in range(1, 50):
        state = new_game(GameConfig(players=3, seed=seed))
        bot = make("random", seed=seed)
        actions = []
        while not state.is_over:
            actions.append((state.current_player, bot.choose(state)))
            state.apply(actions[-1][1])
        for cut in range(len(actions) - 12, len(actions) - 4):
            rest = [p for p, _ in actions[cut:]]
            if rest[0] == 0 and 1 in rest:
                start = new_game(GameConfig(players=3, seed=seed))
                for _, a in actions[:cut]:
                    start.apply(a)
                return make_record(start)
    raise AssertionError("no seed gives a good stopping place")


def _text(page: Any, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def test_three_people_see_each_others_names(mail_server: Server, mailbox: Mailbox,
                                            new_page: Any, shot: Any) -> None:
    server = mail_server
    created = server.request("POST", "/api/games/import", {
        "record": _near_the_end(), "seats": ["human", "human", "bot:easy"],
        "names": ["Anna", None, None], "title": "Friday at Anna's"})
    gid = created["id"]
    anna_token, bea_token = created["seats"][0]["token"], created["seats"][1]["token"]
    server.request("PUT", f"/api/games/{gid}/notify", {"email": "bea@example.org"},
                   token=bea_token)

    # Anna at her desktop: "you: Anna (P0, red circle)"; the bot is named by its level
    anna = new_page()
    anna.goto(server.url + created["seats"][0]["url"])
    anna.wait_for_selector("[data-testid=you-tag]")
    assert _text(anna, "[data-testid=you-tag]") == "you: Anna (P0, red circle)"
    assert "Easy bot" in _text(anna, "[data-testid=mat-2]")

    # her friend opens their link on a phone: asked for a name, which everyone then sees
    bea = new_page(**PHONE)
    bea.goto(server.url + created["seats"][1]["url"])
    bea.wait_for_selector("[data-testid=name-dialog]")
    assert "P1, blue square" in _text(bea, "[data-testid=name-dialog]")
    bea.fill("[data-testid=name-input]", "anna")
    bea.click("[data-testid=name-save]")
    error = bea.wait_for_selector("[data-testid=name-error]:not([hidden])")
    assert "already called 'Anna'" in error.inner_text()  # unique in the game
    shot(bea, "names-ask-phone")
    bea.fill("[data-testid=name-input]", "Bea")
    bea.click("[data-testid=name-save]")
    bea.wait_for_selector("[data-testid=name-dialog]", state="detached")
    bea.wait_for_function("() => document.querySelector('[data-testid=you-tag]')"
                          ".textContent.includes('Bea (P1, blue square)')")
    assert bea.is_visible("[data-testid=you-tag]") and bea.is_visible(".game-title")
    assert _text(bea, ".game-title") == "Friday at Anna's"
    bea.keyboard.press("Escape")  # no tip card left from the taps
    bea.wait_for_selector("[data-testid=tipcard]", state="detached")
    shot(bea, "names-phone")
    # live on Anna's page: Bea's mat, and the decision bar names whoever is to move
    anna.wait_for_function("() => document.querySelector('[data-testid=mat-1]')"
                           ".textContent.includes('Bea')")
    chips = anna.eval_on_selector_all(
        "[data-testid=log] .seat-tag",
        "els => els.map((e) => e.textContent)")
    assert "P0Anna" in chips and "P1Bea" in chips, chips[:10]

    # the board's tip card of a site someone holds names them
    view = server.get(f"/api/games/{gid}")
    held = [(s["id"], s["owner"]) for r in view["state"]["regions"]
            for s in r["cities"] + r["routes"] if s["owner"] in (0, 1)]
    assert held, "nobody holds a site"
    names = {0: "Anna (P0)", 1: "Bea (P1)"}
    for target, owner in held:
        spot = anna.locator(f"[data-testid=board] [data-target='{target}']").first
        if not spot.is_visible():
            continue
        spot.hover()
        card = anna.wait_for_selector("[data-testid=tipcard]")
        assert f"Held by {names[owner]}." in card.inner_text()
        anna.mouse.move(2, 2)
        anna.wait_for_selector("[data-testid=tipcard]", state="detached")
        break
    else:
        raise AssertionError(f"no held site in sight: {held}")
    shot(anna, "names-desktop")

    # the rest of the game through the API (the bot plays its own)
    rng = random.Random(5)
    tokens = {0: anna_token, 1: bea_token}
    deadline = time.monotonic() + 90
    while True:
        v = server.get(f"/api/games/{gid}")
        if v["over"]:
            break
        assert time.monotonic() < deadline, "the game did not end"
        p = v["current_player"]
        if p not in tokens:
            time.sleep(0.1)  # the bot is thinking
            continue
        mine = server.get(f"/api/games/{gid}", token=tokens[p])
        if mine["legal_actions"] and mine["current_player"] == p:
            if p == 0:  # while Anna is to move her bar says so, by name
                anna.wait_for_function("() => /Your move/.test(document.querySelector("
                                       "'[data-testid=whose-turn]').textContent)")
                bea.wait_for_function("(seq) => Number(document.querySelector('#app')"
                                      ".dataset.seq) >= seq", arg=mine["seq"])
                assert "Anna" in _text(bea, "[data-testid=prompt]")
            server.status("POST", f"/api/games/{gid}/actions", tokens[p],
                          {"action": rng.choice(mine["legal_actions"]), "seq": mine["seq"]})

    # the end: the score pad names everyone and says who won, on both pages
    final = server.get(f"/api/games/{gid}")
    ranked = sorted(final["scores"], key=lambda s: (s["rank"], -s["total"], s["seat"]))
    who = {0: "Anna", 1: "Bea", 2: "Easy bot"}
    head = f"{who[ranked[0]['seat']]} wins with {ranked[0]['total']}" \
        if ranked[0]["rank"] != ranked[1]["rank"] else "share the win"
    anna.wait_for_selector("[data-testid=scorepad]")
    result = _text(anna, "[data-testid=result]")
    assert head in result and all(n in result for n in who.values()), result
    pad = _text(anna, "[data-testid=scorepad] thead")
    assert all(n in pad for n in who.values()), pad
    shot(anna, "names-scorepad-desktop")
    bea.wait_for_selector("[data-testid=scorepad]", state="attached")
    assert head in bea.text_content("[data-testid=result]")

    # and the e-mail Bea asked for says the same, with the review's link: sent once
    # she has left the table (no message while her seat's page is open and visible)
    bea.close()
    mail = mailbox.wait_for("bea@example.org", "wins with" if "wins" in head else "share")
    text = " ".join(mail.get_content().split())
    assert result in text, (result, text)
    assert "Your seat (Bea (P1))" in text and f"/game/{gid}#review" in text
    # the e-mail's review link opens the finished game on its Review tab
    anna.goto(f"{server.url}/game/{gid}#review")
    anna.wait_for_selector("[data-testid=desk-tab-review][aria-selected=true]")
    assert anna.is_visible(".desk-review") and not anna.is_visible(".desk-game")


def test_names_typed_on_the_new_game_form(mail_server: Server, page: Any, shot: Any
                                          ) -> None:
    """The host names the seats on the New-game form (a name already taken is refused in
    words, creating nothing); the links, the game, the lobby and the host panel show
    them; the host renames a seat from the panel and the page follows; the host's own
    name is offered next time. On this module's server, so that the other pages' lobby
    (which other tests read for English words) never sees these names."""
    server = mail_server
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=create]")
    page.select_option("[data-testid=players]", "3")
    page.select_option("[data-testid=seat-1]", "human")
    page.select_option("[data-testid=seat-2]", "bot:easy")
    page.fill("[data-testid=title]", "Names on the form")
    page.fill("[data-testid=seat-name-0]", "Host Hal")
    page.fill("[data-testid=seat-name-1]", "host hal")
    page.click("[data-testid=create]")
    toast = page.wait_for_selector(".toast")
    assert "already called 'Host Hal'" in toast.inner_text()
    page.fill("[data-testid=seat-name-1]", "Ivy")
    assert page.get_attribute("[data-testid=seat-name-2]", "placeholder") == "easy bot"
    shot(page, "names-new-game")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=created]")
    assert "Ivy, P1 (invite)" in page.inner_text("[data-testid=created]")
    page.click("[data-testid=open-seat]")
    page.wait_for_selector("[data-testid=you-tag]")
    assert " ".join(page.inner_text("[data-testid=you-tag]").split()) == \
        "you: Host Hal (P0, red circle)"
    assert page.query_selector("[data-testid=name-dialog]") is None  # named already
    assert "Ivy" in page.inner_text("[data-testid=mat-1]")
    assert "Easy bot" in page.inner_text("[data-testid=mat-2]")
    # the host renames the bot's seat from the panel: the page shows it at once
    page.click("[data-testid=host-open]")
    page.wait_for_selector("[data-testid=host-panel]")
    page.click("[data-testid=host-name-2]")
    page.wait_for_selector("[data-testid=name-dialog]")
    page.fill("[data-testid=name-dialog] [data-testid=name-input]", "Robo")
    page.click("[data-testid=name-dialog] [data-testid=name-save]")
    page.wait_for_selector("[data-testid=name-dialog]", state="detached")
    page.wait_for_function("() => document.querySelector('[data-testid=host-seat-2]')"
                           ".textContent.includes('Robo')")
    page.wait_for_function("() => document.querySelector('[data-testid=mat-2]')"
                           ".textContent.includes('Robo')")
    shot(page, "names-host-panel")
    page.click("[data-testid=host-panel-close]")
    # the lobby names the seats; the form offers the host's name again
    page.goto(server.url + "/")
    row = page.wait_for_selector("[data-testid=mine-row]")
    assert "Host Hal" in row.inner_text()
    page.goto(server.url + "/new")
    page.wait_for_selector("[data-testid=create]")
    assert page.input_value("[data-testid=seat-name-0]") == "Host Hal"
