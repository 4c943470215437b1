"""The How to play page's tables in the reader's language (``GET /api/guide`` with
``?lang=`` or Accept-Language): the buildings' names, actions, gifts and notes, the
attributes, what Shields are and the Exploits' names, regions, rules and Shields in
French for a French reader; the same numbers in every language, and English by
default."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from endeavor.web import schemas
from endeavor.web.guide import exploit_rule, shield_text


def guide_of(client: TestClient, query: str = "", **headers: str) -> dict[str, Any]:
    r = client.get(f"/api/guide{query}", headers=headers)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    schemas.Guide.model_validate(body)
    return body


def buildings(ruleset: dict[str, Any]) -> list[dict[str, Any]]:
    return ruleset["start"] + [b for lv in ruleset["levels"] for b in lv["buildings"]]


def test_the_tables_in_french(client: TestClient) -> None:
    english = guide_of(client)
    assert guide_of(client, "?lang=en") == english
    french = guide_of(client, "?lang=fr")
    assert guide_of(client, **{"Accept-Language": "fr-CA,fr;q=0.8"}) == french
    assert french["tracks"] == english["tracks"]
    assert french["shields"].startswith("Chaque Exploit appartient à deux régions")
    aos_en, aos_fr = english["rulesets"][0], french["rulesets"][0]
    assert aos_en["attributes"] == ["Industry", "Culture", "Wealth", "Influence"]
    assert aos_fr["attributes"] == ["Industrie", "Culture", "Richesse", "Influence"]
    en = {b["code"]: b for b in buildings(aos_en)}
    fr = {b["code"]: b for b in buildings(aos_fr)}
    assert en.keys() == fr.keys()
    assert (en["market"]["name"], fr["market"]["name"]) == ("Market", "Marché")
    assert (en["workshop"]["does"], fr["workshop"]["does"]) == ("no action", "aucune action")
    dock = (en["merchant-dock"]["gives"], fr["merchant-dock"]["gives"])
    assert dock == ("+1 Wealth", "+1 Richesse")
    assert fr["colonial-house"]["note"].startswith("Tuile de départ")
    for code, b in fr.items():
        assert (b["level"], b["copies"]) == (en[code]["level"], en[code]["copies"])
        assert bool(b["note"]) == bool(en[code]["note"])
        assert bool(b["gives"]) == bool(en[code]["gives"])
    classic = {b["code"]: b for b in buildings(french["rulesets"][1])}
    assert classic["exchange"]["note"] == ("Son Paiement ne peut pas libérer son propre "
                                           "ouvrier (P74).")
    first = french["exploits"][0]
    assert first["name"] == "Les Réserves de salpêtre"
    assert first["regions"] == ["L'Amérique du Nord", "L'Inde"]
    assert english["exploits"][0]["regions"] == ["North America", "India"]
    # each Exploit's rule and Shield in the page's language, the English as before
    for en_x, fr_x in zip(english["exploits"], french["exploits"], strict=True):
        assert fr_x["rule"] == exploit_rule(fr_x["id"], "fr") != en_x["rule"]
        assert en_x["rule"] == exploit_rule(en_x["id"])
        assert len(fr_x["paragraphs"]) == len(en_x["paragraphs"])
        assert fr_x["shield"] == shield_text(fr_x["id"], "fr")
        assert bool(fr_x["shield"]) == bool(en_x["shield"])
