"""The rules in the app: every Exploit's rule and Shield in words
(``web/guide.py``), served in the view (``state.exploits``), in ``/api/meta`` and in
``/api/guide`` with the buildings by level read from the rulesets' data, and the
``/rules`` page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from endeavor import data as D
from endeavor.exploits import EXPLOIT_IDS, REGISTRY
from endeavor.rules import RULESETS
from endeavor.web import guide

ROOT = Path(__file__).resolve().parents[2]
EXPLOITS_RULEBOOK = ROOT.parent / "shared" / "rules" / "age-of-sail-exploits.en.txt"


def _cited(text: str) -> set[str]:
    return set(re.findall(r"\b[RP]\d+\b", text))


def test_all_fifteen_exploits_have_a_rule_and_a_shield() -> None:
    assert set(guide.EXPLOITS) == set(EXPLOIT_IDS) and len(EXPLOIT_IDS) == 15
    for e in EXPLOIT_IDS:
        rule, shield = guide.exploit_rule(e), guide.shield_text(e)
        assert len(rule) >= 350 and len(rule.split()) >= 60, e
        assert "End of game" in rule, e  # the scoring is part of the rule
        paragraphs = guide.exploit_paragraphs(e)
        assert len(paragraphs) >= 3 and " ".join(paragraphs) == rule, e
        assert all(x.strip() == x and x for x in paragraphs), e
        # its abilities, by the action kinds the engine's module answers
        for kind in set(REGISTRY[e].kinds.values()):
            assert f"{D.KIND_NAMES[kind]}" in rule, (e, D.KIND_NAMES[kind])
        # how its Shields are earned: both regions, by name
        for r in REGISTRY[e].regions:
            assert D.REGION_NAMES[r] in shield, (e, D.REGION_NAMES[r])
        assert "P13" in shield and len(shield) >= 150, e
    assert "Shield" in guide.SHIELDS and "presence" in guide.SHIELDS


def test_every_ruling_cited_exists() -> None:
    rulings = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    project = set(re.findall(r"\*\*(P\d+) ", rulings))
    engine = "".join(p.read_text(encoding="utf-8")
                     for p in (ROOT / "src" / "endeavor").rglob("*.py")
                     if p.name != "guide.py")
    shared = set(re.findall(r"\bR\d+\b", engine))  # the shared ones the engine cites
    texts = [guide.SHIELDS] + [guide.exploit_rule(e) + guide.shield_text(e)
                               for e in EXPLOIT_IDS]
    texts += [n for notes in guide.BUILDING_NOTES.values() for n in notes.values()]
    for text in texts:
        for rid in _cited(text):
            assert rid in (project if rid[0] == "P" else shared), rid


@pytest.mark.skipif(not EXPLOITS_RULEBOOK.exists(), reason="the rulebook is not here")
def test_rules_are_written_not_copied() -> None:
    """No run of 10 words of the Exploits rulebook appears in a rule."""
    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    book = words(EXPLOITS_RULEBOOK.read_text(encoding="utf-8"))
    runs = {tuple(book[i:i + 10]) for i in range(len(book) - 9)}
    for e in EXPLOIT_IDS:
        w = words(guide.exploit_rule(e) + " " + guide.shield_text(e))
        copied = [" ".join(w[i:i + 10]) for i in range(len(w) - 9) if tuple(w[i:i + 10]) in runs]
        assert not copied, (e, copied)


def test_meta_serves_rule_and_shield(client: TestClient) -> None:
    m = client.get("/api/meta").json()
    assert [e["id"] for e in m["exploits"]] == list(EXPLOIT_IDS)
    for e in m["exploits"]:
        assert e["rule"] == guide.exploit_rule(e["id"])
        assert e["paragraphs"] == guide.exploit_paragraphs(e["id"])
        assert e["shield"] == guide.shield_text(e["id"])
        assert e["name"] == REGISTRY[e["id"]].name and len(e["regions"]) == 2


def test_view_exploits_carry_rule_and_shield(api: Any) -> None:
    chosen = ["spanish_main", "imperialism", "haitian_revolution"]
    g = api.create(["human", "human", "human"], exploits=chosen)
    state = api.view(g["id"])["state"]
    assert sorted(e["key"] for e in state["exploits"]) == sorted(chosen)
    for e in state["exploits"]:
        assert e["rule"] == guide.exploit_rule(e["key"])
        assert e["shield"] == guide.shield_text(e["key"])


def test_guide_buildings_come_from_the_rulesets(client: TestClient) -> None:
    r = client.get("/api/guide")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    g = r.json()
    assert [x["id"] for x in g["rulesets"]] == list(RULESETS)
    for x in g["rulesets"]:
        rules = RULESETS[x["id"]]
        listed = {b["code"]: b for lv in x["levels"] for b in lv["buildings"]}
        assert set(listed) == {rules.buildings[b].code
                               for b in rules.base_supply + rules.level5_pool}
        for lv in x["levels"]:
            assert all(b["level"] == lv["level"] for b in lv["buildings"])
        for b in listed.values():
            bd = rules.buildings[D.BUILDING_INDEX[b["code"]]]
            assert (b["name"], b["level"], b["copies"]) == (bd.name, bd.level, bd.copies)
        assert x["players"] == list(rules.player_counts) and x["discs"] == rules.discs
    aos, classic = (next(x for x in g["rulesets"] if x["id"] == i)
                    for i in ("age_of_sail", "classic"))
    aos5 = {b["code"] for lv in aos["levels"] if lv["level"] == 5 for b in lv["buildings"]}
    assert {"memorial", "town-hall"} <= aos5 and aos["level5_available"] == 3
    assert [b["code"] for b in aos["start"]] == ["colonial-house", "merchant-dock"]
    assert [b["code"] for b in classic["start"]] == ["colonial-house"]
    assert classic["attributes"] == ["Industry", "Culture", "Finance", "Politics"]
    assert classic["track_cap"] == 15 and aos["track_cap"] is None
    docks = next(b for lv in aos["levels"] for b in lv["buildings"] if b["code"] == "docks")
    assert docks["does"] == "Ship + Occupy (one or both)"
    assert [t["level"] for t in g["tracks"]] == list(D.TRACK_LEVEL)
    assert [t["glory"] for t in g["tracks"]] == list(D.TRACK_GLORY)
    assert [e["id"] for e in g["exploits"]] == list(EXPLOIT_IDS)
    assert g["shields"] == guide.SHIELDS


def test_rules_page_is_the_app(client: TestClient) -> None:
    r = client.get("/rules")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert 'src="static/app.js"' in r.text
