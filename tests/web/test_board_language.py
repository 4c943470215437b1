"""The board's words in the game view (``state``) in the language asked: with ``?lang=fr``
what a building does, what a card gives, the deck, token, region, building and Exploit
names and the Exploits' rules and Shields are French; in English they read exactly as
they did before the board spoke French (checked against a digest of the English words of
seeded games that hold all 15 Exploits)."""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import pytest

from endeavor.exploits import EXPLOIT_IDS

#: the position's keys whose values are words (or hold words)
WORD_KEYS = ("name", "does", "gives", "deck_name", "label", "rule", "shield", "attributes")

#: every Exploit once, three to a game (as tests/web/test_view.py plays them)
GAMES = [(3 + k % 2, 20 + k, list(EXPLOIT_IDS)[3 * k:3 * k + 3]) for k in range(5)]

#: sha256 of the English words (:func:`_words`) of each game of :data:`GAMES` after 30
#: random moves, as the English board said them before it spoke French
ENGLISH = [
    "3553151b0b020046a335e3237e102646028b89325af3a7de726a2db7fab91394",
    "db09ec2d8dff672504ad05579ece62dea5b84ca59d7eb6b1f55622b668333a23",
    "f6f018fa7ee04563fe29465d95e6d72a45d5cfbfaaeaa823536099ca9fccccd8",
    "57764cb0706d0bc3de49f0defe50557ac7e599f1b3e68d2fdde488e9da01425d",
    "fceab8190870286e51c015689e2514829fc60298b379a0c0444ad638f0cd138d",
]


def _words(x: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, value) of a position whose key is one of :data:`WORD_KEYS`, in
    order."""
    out: list[tuple[str, Any]] = []
    if isinstance(x, dict):
        for k, v in x.items():
            if k in WORD_KEYS:
                out.append((f"{path}/{k}", v))
            out.extend(_words(v, f"{path}/{k}"))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out.extend(_words(v, f"{path}/{i}"))
    return out


def _digest(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(_words(state), ensure_ascii=False).encode()).hexdigest()


def _game(api: Any, players: int, seed: int, exploits: list[str]) -> str:
    g = api.create(["human"] * players, seed=seed, exploits=exploits)
    api.play_random(g["id"], api.tokens(g), random.Random(seed), moves=30)
    return str(g["id"])


def _state(api: Any, gid: str, lang: str | None = None) -> dict[str, Any]:
    r = api.client.get(f"/api/games/{gid}" + (f"?lang={lang}" if lang else ""))
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()["state"]
    return state


def _all(state: dict[str, Any], key: str) -> list[Any]:
    return [v for p, v in _words(state) if p.endswith("/" + key)]


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_english_board_words_are_unchanged(api: Any, game: int) -> None:
    gid = _game(api, *GAMES[game])
    default = _state(api, gid)
    assert _state(api, gid, "en") == default
    assert _digest(default) == ENGLISH[game]


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_the_board_in_french(api: Any, game: int) -> None:
    gid = _game(api, *GAMES[game])
    en, fr = _state(api, gid, "en"), _state(api, gid, "fr")
    # the same position: the same elements, codes and numbers; other words
    assert [r["id"] for r in fr["regions"]] == [r["id"] for r in en["regions"]]
    assert fr["round"] == en["round"] and fr["links"][0]["id"] == en["links"][0]["id"]
    assert _words(fr) != _words(en)
    does = " | ".join(_all(fr, "does"))
    assert "action " in does and not re.search(r"(Ship|Occupy|Attack|Payment|Draw)\b", does)
    assert any(w in does for w in ("Pioche", "Navigation", "Occupation", "Attaque"))
    gives = " | ".join(_all(fr, "gives"))
    assert "Gloire" in gives or "Industrie" in gives or "Richesse" in gives
    assert "glory" not in gives and "Wealth" not in gives and "Industry" not in gives
    # the decks and regions by their French names; the cards' icon keys stay English
    europe = fr["regions"][0]
    assert [d["name"] for d in europe["decks"]] == ["de l'Europe", "de l'Esclavage"]
    assert [r["name"] for r in fr["regions"]][1:4] == ["Afrique", "Amérique du Sud", "Caraïbes"]
    assert fr["regions"][1]["sea"]["label"] == "haute mer"
    assert fr["attributes"] == ["Industrie", "Culture", "Richesse", "Influence"]
    for deck in [d for r in fr["regions"] for d in r["decks"]]:
        if deck["top"]:
            assert set(deck["top"]["icons"]) == {"industry", "culture", "wealth", "influence"}
    tokens = {t["name"] for t in _tokens(fr)}
    assert tokens and not tokens & {"Industry", "Wealth", "Ship/Draw", "Occupy/Draw"}
    # the Exploits: French names, rules and Shields, none of the English left
    assert len(fr["exploits"]) == 3
    for tile_en, tile_fr in zip(en["exploits"], fr["exploits"], strict=True):
        assert tile_fr["key"] == tile_en["key"]
        assert tile_fr["name"] != tile_en["name"]
        assert tile_fr["rule"] != tile_en["rule"] and "Fin de partie" in tile_fr["rule"]
        assert "End of game" not in tile_fr["rule"]
        assert tile_fr["shield"].startswith("Gagné dès que les deux régions")
        # the rulings cited are the same
        assert _rulings(tile_fr["rule"]) == _rulings(tile_en["rule"])


def test_all_fifteen_exploit_texts_are_french(api: Any) -> None:
    seen = set()
    for players, seed, exploits in GAMES:
        g = api.create(["human"] * players, seed=seed, exploits=exploits)
        state = _state(api, g["id"], "fr")
        for tile in state["exploits"]:
            seen.add(tile["key"])
            assert tile["rule"] and tile["shield"]
            for english in ("action:", "Action:", " the ", " your ", " glory"):
                assert english not in tile["rule"], (tile["key"], english)
                assert english not in tile["shield"], (tile["key"], english)
    assert seen == set(EXPLOIT_IDS)


def test_french_and_english_views_do_not_mix(api: Any) -> None:
    """The per-ruleset caches hold each language apart: French, then English, then
    French again, each reads its own."""
    g = api.create(["human", "human"], seed=11)
    fr1, en, fr2 = (_state(api, g["id"], lang) for lang in ("fr", "en", "fr"))
    assert fr1 == fr2
    does_en = _all(en, "does")
    assert does_en and all("action Pioche" not in d for d in does_en)
    assert any(d.endswith("action") or "Draw" in d for d in does_en)
    assert _state(api, g["id"]) == en


def _tokens(state: dict[str, Any]) -> list[dict[str, Any]]:
    out = [link["token"] for link in state["links"] if link["token"]]
    for region in state["regions"]:
        out += [s["token"] for s in region["cities"] + region["routes"] if s["token"]]
    return out


def _rulings(text: str) -> list[str]:
    return re.findall(r"\b[RP]\d+\b", text)


def test_the_icons_letters_in_french(api: Any) -> None:
    """A card's and a building's short icons use the reader's letters: R (Richesse) for
    Wealth in French, W in English; the same numbers."""
    g = api.create(["human", "human"], seed=3)
    en = api.client.get(f"/api/games/{g['id']}?lang=en").json()["state"]
    fr = api.client.get(f"/api/games/{g['id']}?lang=fr").json()["state"]
    en_short = [b["icons"] for b in en["supply"]]
    fr_short = [b["icons"] for b in fr["supply"]]
    assert any("W" in s for s in en_short) and not any("W" in s for s in fr_short)
    assert [s.replace("W", "R") for s in en_short] == fr_short
