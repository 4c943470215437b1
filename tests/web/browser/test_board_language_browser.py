"""The board in French, on a desktop (1440 × 900) and a phone (390 × 844, touch): the
regions' names, the open seas, the Exploit tiles' rules and the tip cards of a fortified
city and of a deck speak French, and the longer words fit (no page wider than a phone).
With ``$ENDEAVOR_SCREENSHOTS`` set, each view is saved as ``board-fr-<size>.png`` and
``board-fr-tip-<size>.png``."""

from __future__ import annotations

from typing import Any, cast

import pytest
from test_board_pieces import PIECES, SIZES, on_board_tab, open_game, tip_of

from conftest import Server, sticking_out
from endeavor import State
from endeavor.web import view


def fortified(state: State) -> bool:
    """A held city with a Fortification and no Missionary is on the board."""
    return any(s["fortified"] and not s["missionaries"] and s["owner"] is not None
               for r in view.position(state)["regions"] for s in r["cities"])


@pytest.mark.parametrize("size", list(SIZES))
def test_the_board_and_its_tip_cards_in_french(server: Server, new_page: Any, shot: Any,
                                               size: str) -> None:
    options = cast(dict[str, Any], SIZES[size])
    page = new_page(locale="fr-FR", **options)
    phone = size == "phone"
    open_game(server, page, PIECES, fortified)
    on_board_tab(page, phone)
    board = page.locator("[data-testid=board]")
    names = board.locator(".region-name").all_text_contents()
    assert any(n.startswith("Amérique du Nord") for n in names), names
    assert any(n.startswith("Caraïbes") for n in names), names
    assert "haute mer" in (board.locator(".sea").first.text_content() or "")
    rule = board.locator("[data-testid^=exploit-rule-]").first.inner_text()
    assert rule.startswith("Action ") or rule.startswith("Le Pirate"), rule
    assert "Attack action" not in rule and "End of game" not in rule
    shot(page, f"board-fr-{size}")
    held_fort = "[data-testid=board] .site:not(:has(.missionary)):has(.piece.fortification)"
    words = tip_of(page, f"{held_fort} .disc", phone, lambda: shot(page, f"board-fr-tip-{size}"))
    assert "L'attaquer prend 3 disques à votre Port" in words, words
    assert "Fortifiée" in words and "takes" not in words
    deck = tip_of(page, "[data-testid=board] .deck", phone)
    assert deck.startswith("Pioche de l'Europe") and "Valeur de pioche" in deck, deck
    if phone:
        width = 390
        assert page.evaluate("document.documentElement.scrollWidth") <= width, \
            sticking_out(page, width)
