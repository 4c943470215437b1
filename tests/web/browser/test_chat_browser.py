"""The chat in the browser: two phones (390×844, touch) on two seats and the host at a
desktop. A message written on one phone appears live on the other, where it counts as
unread on the Chat tab's badge until that tab is opened (and the server then knows the
seat has read it); markup stays text; the host at a desktop sees the chat beside the log
and deletes a message, which disappears from both phones live."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from conftest import Server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}


def _shot(page: Any, name: str) -> None:
    """A screenshot to ``$ENDEAVOR_SCREENSHOTS`` when it names a directory."""
    where = os.environ.get("ENDEAVOR_SCREENSHOTS")
    if where and Path(where).is_dir():
        page.screenshot(path=str(Path(where) / name))


def _open_seat(page: Any, server: Server, gid: str, token: str) -> None:
    page.goto(f"{server.url}/play/{gid}#{token}")
    page.wait_for_selector("[data-testid=whose-turn]")
    page.wait_for_selector("[data-testid=chat]", state="attached")


def _badge(page: Any) -> str:
    """The Chat tab's unread count as shown ("" when hidden)."""
    result: str = page.evaluate("""() => {
        const b = document.querySelector('[data-testid=chat-unread]');
        return b && !b.hidden ? b.textContent : ''; }""")
    return result


def test_chat_between_two_phones_and_the_host(server: Server, new_page: Any) -> None:
    game = server.create(["human", "human", "human"], players=3, seed=3, title="Chat night")
    gid, host = game["id"], game["host_token"]
    toks = {s["seat"]: s["token"] for s in game["seats"]}

    desk = new_page(**DESKTOP)
    desk.goto(f"{server.url}/host/{gid}#{host}")  # this browser is the host's
    desk.wait_for_function("(gid) => localStorage.getItem('endeavor.host.' + gid)", arg=gid)
    _open_seat(desk, server, gid, toks[0])
    ann = new_page(**PHONE)
    _open_seat(ann, server, gid, toks[1])
    bob = new_page(**PHONE)
    _open_seat(bob, server, gid, toks[2])

    # the desktop shows the chat in the side column, under the log, with its box
    assert desk.locator(".side [data-testid=chat]").is_visible()
    assert desk.locator("[data-testid=tab-chat]").is_hidden()  # no tabs on a desktop

    ann.tap("[data-testid=tab-chat]")
    ann.wait_for_selector("[data-testid=chat-input]", state="visible")
    assert _badge(bob) == ""
    ann.fill("[data-testid=chat-input]", "Hello <b>Bob</b> & co")
    ann.tap("[data-testid=chat-send]")
    ann.wait_for_selector("[data-testid=chat-message]")
    assert ann.input_value("[data-testid=chat-input]") == ""

    # live on the other phone: counted as unread on its Chat tab, which is closed
    bob.wait_for_function("() => document.querySelector('[data-testid=chat-unread]')"
                          ".textContent === '1' && !document.querySelector("
                          "'[data-testid=chat-unread]').hidden")
    body = bob.locator("[data-testid=chat-body]").first
    assert body.text_content() == "Hello <b>Bob</b> & co"  # the text, not markup
    assert bob.locator("[data-testid=chat-body] b").count() == 0
    ann.fill("[data-testid=chat-input]", "Your move soon!")
    ann.tap("[data-testid=chat-send]")
    bob.wait_for_function("() => document.querySelector('[data-testid=chat-unread]')"
                          ".textContent === '2'")
    assert _badge(ann) == ""  # the writer's own messages are not unread for them
    # and on the host's desktop, beside the log
    desk.wait_for_function("() => document.querySelectorAll('.side [data-testid=chat-message]')"
                           ".length === 2")

    # the server does not count them as read yet: a notification would carry them
    assert server.get(f"/api/games/{gid}/chat", token=toks[2])["seen"] == 0
    bob.tap("[data-testid=tab-chat]")
    bob.wait_for_function("() => document.querySelector('[data-testid=chat-unread]').hidden")
    assert bob.locator("[data-testid=chat-message]").count() == 2
    assert bob.locator("[data-testid=chat-body]").nth(1).is_visible()
    last = server.get(f"/api/games/{gid}/chat")["last"]
    told = bob.wait_for_function(
        "async ([gid, tok, last]) => { const r = await fetch(`/api/games/${gid}/chat`, "
        "{headers: {Authorization: `Bearer ${tok}`}}); return (await r.json()).seen === last; }",
        arg=[gid, toks[2], last])
    assert told
    _shot(bob, "chat-phone.png")

    # a reply while Ann's Chat tab is open: shown at once, never counted as unread
    bob.fill("[data-testid=chat-input]", "On my way, Ann")
    bob.tap("[data-testid=chat-send]")
    ann.wait_for_function("() => [...document.querySelectorAll('[data-testid=chat-body]')]"
                          ".some((b) => b.textContent === 'On my way, Ann')")
    assert _badge(ann) == ""

    # phones see no delete button; the host deletes Ann's first message for everyone
    assert ann.locator("[data-testid=chat-delete]").count() == 0
    desk.wait_for_function("() => document.querySelectorAll('.side [data-testid=chat-message]')"
                           ".length === 3")
    _shot(desk, "chat-desktop.png")
    desk.once("dialog", lambda dialog: dialog.accept())
    desk.locator("[data-testid=chat-delete]").first.click()
    for page in (ann, bob, desk):
        page.wait_for_function(
            "() => document.querySelector('[data-testid=chat-message].deleted')"
            " && document.querySelectorAll('[data-testid=chat-body]').length === 2")
        assert "Hello <b>Bob</b>" not in page.locator("[data-testid=chat-list]").text_content()

    # a spectator reads the chat (the deletion too) and has nowhere to write
    watcher = new_page(**DESKTOP)
    watcher.goto(f"{server.url}/game/{gid}")
    watcher.wait_for_function(
        "() => document.querySelectorAll('[data-testid=chat-message]').length === 3")
    assert watcher.locator("[data-testid=chat-readonly]").is_visible()
    assert watcher.locator("[data-testid=chat-input]").count() == 0
    assert watcher.locator("[data-testid=chat-delete]").count() == 0
    assert watcher.locator("[data-testid=chat-message].deleted").count() == 1
