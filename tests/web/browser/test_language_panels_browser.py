"""The pages and panels beside the board in French (the browser's language French, or
the reader's choice): How to play, the host panel and the Review tab speak French, their
headings and buttons, and none of their former English phrases is left; at phone size
(390×844) none of them is wider than the screen. The screenshots go to
``$ENDEAVOR_SCREENSHOTS`` when it is set (``howto-fr``, ``host-panel-fr``,
``review-fr``, and their ``-phone`` shots)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import Server, sticking_out

FIXTURE = Path(__file__).parent.parent.parent / "fixtures" / "review_2p.record.json"
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def french(new_page: Any, viewport: dict[str, int]) -> Any:
    """A page in a browser whose language is French (nothing chosen on the page)."""
    return new_page(viewport=viewport, locale="fr-FR")


def no_english(text: str, phrases: list[str]) -> None:
    left = [p for p in phrases if p in text]
    assert not left, left


def fits(page: Any, viewport: dict[str, int]) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], sticking_out(page, viewport["width"])


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_how_to_play_in_french(new_page: Any, server: Server, shot: Any,
                               viewport: dict[str, int]) -> None:
    page = french(new_page, viewport)
    page.goto(server.url + "/rules")
    page.wait_for_selector("[data-testid=howto] [data-testid=buildings-age_of_sail]")
    assert page.inner_text(".howto h1") == "Règles du jeu"
    assert page.title() == "Règles du jeu · Endeavor"
    text = page.inner_text("#app")
    for words in ("Mise en place", "Les pistes de statut", "Les bâtiments par niveau",
                  "Les cinq actions", "Navigation", "Marché", "Maison coloniale",
                  "Niveau de construction", "Industrie"):
        assert words in text, words
    no_english(text, ["How to play", "The status tracks", "Buildings by level", "Start tile",
                      "Your turn in the Action phase", "The five actions", "Market",
                      "Colonial House", "Build Level", "Card Limit", "Industry", "no action",
                      "End of the game and scoring", "← Lobby"])
    assert page.inner_text("[data-testid=howto-link]") == "Règles du jeu"
    fits(page, viewport)
    suffix = "-phone" if viewport is PHONE else ""
    shot(page, f"howto-fr{suffix}")
    page.click("[data-testid=howto-tab-silent-fleet]")
    page.wait_for_selector("[data-testid=howto-silent-fleet]:not([hidden])")
    fleet = page.inner_text("[data-testid=howto-silent-fleet]")
    assert "Comment la flotte réagit" in fleet
    no_english(fleet, ["How the fleet reacts", "Optional rules", "Limited occupation"])
    page.click("[data-testid=howto-tab-exploits]")
    page.wait_for_selector("[data-testid=howto-exploits]:not([hidden])")
    exploits = page.inner_text("[data-testid=howto-exploits]")
    assert "Boucliers" in exploits and "Les Réserves de salpêtre" in exploits
    assert "L'Amérique du Nord" in exploits


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_host_panel_in_french(new_page: Any, server: Server, shot: Any,
                                  viewport: dict[str, int]) -> None:
    created = server.create(["human", "human"], players=2, title="Partie d'essai",
                            clock={"kind": "turn", "bank": 259200, "per_decision": 43200})
    page = french(new_page, viewport)
    page.goto(f"{server.url}/host/{created['id']}#{created['host_token']}")
    panel = page.wait_for_selector("[data-testid=host-panel] [data-testid=host-seat-1]")
    assert panel is not None
    page.wait_for_selector("[data-testid=host-clock]")
    assert page.inner_text("[data-testid=host-panel] .dialog-head h2") == "Hôte"
    text = page.inner_text("[data-testid=host-panel]")
    for words in ("Lien d'hôte", "Places", "Pendule", "Terminer la partie…", "Nouveau lien",
                  "Mettre un robot", "Copier l'invitation", "Fermer", "une personne, avec ce lien",
                  "n'a pas encore joué"):
        assert words in text, words
    no_english(text, ["Host link", "Seats", "Clock", "End the game", "New link",
                      "Put a bot in", "Copy invitation", "Close", "a person, with this link",
                      "not moved yet", "every seat", "Stop the clocks", "You're invited",
                      "Turn-based clock", "The game"])
    fits(page, viewport)
    suffix = "-phone" if viewport is PHONE else ""
    shot(page, f"host-panel-fr{suffix}")
    page.click("[data-testid=host-end]")
    assert "Terminer cette partie maintenant\u00a0?" in page.inner_text("[data-testid=host-panel]")


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    srv = Server(tmp_path_factory.mktemp("review-fr-server"), ("--review-iterations", "5"))
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_review_in_french(new_page: Any, review_server: Server, shot: Any,
                              viewport: dict[str, int]) -> None:
    game = review_server.request("POST", "/api/games/import",
                                 {"record": RECORD, "seats": ["human", "human"]})
    gid = game["id"]
    page = french(new_page, viewport)
    page.goto(f"{review_server.url}/game/{gid}")
    if viewport is PHONE:
        page.click("[data-testid=tab-review]")
    else:
        page.click("[data-testid=desk-tab-review]")
    page.wait_for_selector("[data-testid=review-chart]", timeout=60_000)
    text = page.text_content("[data-testid=review]")
    for words in ("Analyse", "Gloire finale attendue", "Toutes les décisions",
                  "Plus grosses erreurs", "meilleur", "de précision", "Comment c'est jugé"):
        assert words in text, words
    no_english(text, ["Review", "Expected final glory", "Every decision", "Biggest mistakes",
                      "accuracy", "How it is judged", "Played: ", "Better: ", "Every player",
                      "inaccuracies and worse only", "Step ", "glory"])
    body = review_server.get(f"/api/games/{gid}/review?lang=fr")
    step = next(d for d in body["review"]["decisions"] if d["played"] != d["best"])["step"]
    assert body["moves"][str(step)]["played"] in page.inner_text(
        f"[data-testid=review-decision][data-step='{step}']")
    fits(page, viewport)
    suffix = "-phone" if viewport is PHONE else ""
    shot(page, f"review-fr{suffix}")
