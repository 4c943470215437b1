"""The state of each Exploit and of the Silent Fleet on the board (its ``text``) in the
language asked: with ``?lang=fr`` the module's summary reads French; in English it reads as
the engine's summary always did."""

from __future__ import annotations

import random
from typing import Any

from endeavor.exploits import EXPLOIT_IDS

#: every Exploit once, three to a game
GAMES = [(3 + k % 2, 40 + k, list(EXPLOIT_IDS)[3 * k:3 * k + 3]) for k in range(5)]


def _state(api: Any, gid: str, lang: str | None = None) -> dict[str, Any]:
    r = api.client.get(f"/api/games/{gid}" + (f"?lang={lang}" if lang else ""))
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()["state"]
    return state


def test_the_exploits_state_reads_french(api: Any) -> None:
    seen = set()
    for players, seed, exploits in GAMES:
        g = api.create(["human"] * players, seed=seed, exploits=exploits)
        api.play_random(g["id"], api.tokens(g), random.Random(seed), moves=20)
        en, fr = _state(api, g["id"]), _state(api, g["id"], "fr")
        for tile_en, tile_fr in zip(en["exploits"], fr["exploits"], strict=True):
            seen.add(tile_fr["key"])
            assert tile_fr["text"] and tile_fr["text"] != tile_en["text"], tile_fr["key"]
            for english in (" on the tile", "none", "empty", " held", "map ", " sea ",
                            "Republic", "Track", "cards moved", "leaders", "Manila"):
                assert english not in tile_fr["text"], (tile_fr["key"], english)
    assert seen == set(EXPLOIT_IDS)


def test_a_summary_in_french_and_in_english(api: Any) -> None:
    g = api.create(["human"] * 3, seed=3, exploits=["imperialism", "sun_never_sets"])
    en, fr = _state(api, g["id"], "en"), _state(api, g["id"], "fr")
    assert [t["text"] for t in en["exploits"]] == [
        "9 Blockades on links; held: none", "0/8 discs on the tile: none"]
    assert [t["text"] for t in fr["exploits"]] == [
        "Blocus sur les liaisons : 9 ; détenus : aucun", "disques sur la tuile : 0/8 (aucun)"]
    assert _state(api, g["id"]) == en


def test_the_silent_fleet_state_reads_french(api: Any) -> None:
    g = api.create(["human"] * 2, seed=5, options={"silent_fleet": True,
                                                   "building_shortage": True})
    api.play_random(g["id"], api.tokens(g), random.Random(5), moves=20)
    en, fr = _state(api, g["id"], "en"), _state(api, g["id"], "fr")
    [fleet_en], [fleet_fr] = en["variants"], fr["variants"]
    assert "discs in its supply" in fleet_en["text"]
    assert fleet_en["text"].endswith("; optional rules: building shortage")
    assert fleet_fr["text"].startswith("disques dans sa réserve : ")
    assert fleet_fr["text"].endswith(" ; règles optionnelles : pénurie de bâtiments")
    assert "Trade token" not in fleet_fr["text"] and " the " not in fleet_fr["text"]
