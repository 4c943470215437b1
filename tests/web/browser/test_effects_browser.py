"""The game page shows an option's effect (ruling P91): a final Discard's change to the
score under the option's words and in the title of the card it is clicked on. The
position is reached by importing the record of a seeded random game stopped at that
Discard (``POST /api/games/import``)."""

from __future__ import annotations

from typing import Any

from conftest import Server
from endeavor import GameConfig, new_game
from endeavor.bots import make
from endeavor.records import make_record
from endeavor.web import view


def _record_at_final_discard() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The record of a 2-player seeded random game stopped where P0 makes a last Discard
    with a stated effect, and that decision's options."""
    for seed in range(1, 200):
        state = new_game(GameConfig(players=2, seed=seed))
        bot = make("random", seed=seed)
        while not state.is_over:
            if state.current_player == 0:
                d = view.decision_view(state, [0])
                assert d is not None
                if d["kind"] == "discard" and all("effect" in o for o in d["options"]):
                    return make_record(state), d["options"]
            state.apply(bot.choose(state))
    raise AssertionError("no seed reaches a final Discard for P0")


def test_final_discard_shows_its_effect(server: Server, page: Any) -> None:
    record, options = _record_at_final_discard()
    created = server.request("POST", "/api/games/import",
                             {"record": record, "seats": ["human", "bot:random"]})
    page.goto(server.url + created["seats"][0]["url"])
    page.wait_for_selector("[data-testid=option-effect]")
    shown = page.eval_on_selector_all(
        "[data-testid=option]",
        "els => els.map(e => [e.dataset.action,"
        " (e.querySelector('[data-testid=option-effect]') || {}).textContent])")
    assert {a: e for a, e in shown} == {o["action"]: o["effect"] for o in options}
    first = page.locator("[data-testid=option-effect]").first
    assert first.is_visible()
    assert "glory" in first.inner_text()
    # the card on the mat carries it in its title too
    card = options[0]["targets"][0]
    title = page.get_attribute(f"[data-target='{card}'].target", "title")
    assert title is not None and options[0]["effect"] in title
