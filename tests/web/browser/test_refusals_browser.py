"""The server's refusals in the page's language, in Chromium: in an English browser whose
reader chose French on the page, a seat the host gave to a bot says why in French, and a
request the server refuses (the host panel asked with a seat's link) comes back in
French: the page sends its language with every request, whatever the browser's. At phone
size (390×844) and on a desktop; screenshots ``seat-given-to-a-bot-fr-{phone,desktop}``
go to ``$ENDEAVOR_SCREENSHOTS`` when it is set."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import Server

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}

#: a request of the page's own API client, refused: its words as the page would show them
REFUSED = """async ([gid, token]) => {
  const { api } = await import("./static/api.js");
  try { await api.host(gid, token); return "not refused"; } catch (e) { return e.message; }
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_seat_given_to_a_bot_and_a_refusal_in_the_pages_language(
        server: Server, new_page: Any, shot: Any, size: str) -> None:
    game = server.create(["human", "human"], players=2, seed=7, title="Banc")
    gid, p0 = game["id"], game["seats"][0]
    page = new_page(locale="en-US", **(PHONE if size == "phone" else DESKTOP))
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=lang-switch]")
    page.click("[data-testid=lang-fr]")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.goto(server.url + p0["url"])
    page.wait_for_selector("[data-testid=board]")
    assert page.evaluate(REFUSED, [gid, p0["token"]]) == (
        "ce lien n'est pas celui de l'hôte de cette partie")
    server.request("POST", f"/api/games/{gid}/host/seats/0/bot", {"bot": "random"},
                   token=game["host_token"])
    page.wait_for_selector("[data-testid=benched-0]")
    words = page.inner_text("[data-testid=benched-0]")
    assert words.startswith("L'hôte a donné votre place (P0) au robot aléatoire le "), words
    assert "demandez-lui de vous la rendre" in words and " bot " not in words, words
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    shot(page, f"seat-given-to-a-bot-fr-{size}")
