"""Option targets from the engine: every option of seeded games of every ruleset, the
Silent Fleet and the Exploits names real elements of the table, in the documented ids,
and the core actions name the element their notation acts on."""

from __future__ import annotations

import random

import pytest

from endeavor import GameConfig, new_game
from endeavor import data as D
from endeavor.config import EXPLOIT_IDS
from endeavor.state import State
from endeavor.targets import targets

KINDS = {"supply", "building", "token", "track", "sea", "city", "route", "link", "deck",
         "pile", "card", "slot", "exploit", "pass", "done"}

CONFIGS = [
    {"players": 2, "seed": 11, "options": {"silent_fleet": True, "building_shortage": True}},
    {"players": 3, "seed": 12, "ruleset": "classic"},
] + [{"players": 4 + k % 2, "seed": 13 + k, "exploits": tuple(EXPLOIT_IDS[3 * k:3 * k + 3])}
     for k in range(5)]


def _check(s: State, target: str, p: int) -> None:
    kind, _, key = target.partition(":")
    assert kind in KINDS, target
    if kind in ("city", "route"):
        x = D.SITE_INDEX[key]
        assert x in s.info.site_set and D.SITES[x].city == (kind == "city"), target
    elif kind in ("track", "sea"):
        assert key in D.REGION_CODES and key != "EU", target
    elif kind == "deck":
        assert key in D.DECK_CODES, target
    elif kind == "building":
        seat, i = (int(v) for v in key.split(":"))
        assert seat == p and i < len(s.players[p].buildings), target
    elif kind == "token":
        seat_text, code = key.split(":")
        assert int(seat_text) == p and s.players[p].blue[D.TOKEN_CODES.index(code) - 4], target
    elif kind == "card":
        assert D.CARD_INDEX[key] in s.held_cards(p), target
    elif kind == "pile":
        assert D.CARD_INDEX[key] in s.pile, target
    elif kind == "supply":
        assert key in {b.code for b in s.rules.buildings}, target
    elif kind == "link":
        a, b = key.split("-")
        assert D.SITE_INDEX[a] in s.info.site_set and D.SITE_INDEX[b] in s.info.site_set
    elif kind == "exploit":
        assert key in s.config.exploits, target


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: f"{c['players']}p-{c['seed']}")
def test_every_option_names_real_elements_of_the_table(cfg: dict[str, object]) -> None:
    s = new_game(GameConfig(**cfg))  # type: ignore[arg-type]
    r = random.Random(2)
    seen: set[str] = set()
    while not s.is_over:
        d = s.decision()
        assert d is not None
        for o in d.options:
            assert o.targets == targets(s, o.action, d.player)
            for t in o.targets:
                _check(s, t, d.player)
                seen.add(t.partition(":")[0])
        s.apply(d.options[r.randrange(len(d.options))].action)
    assert {"supply", "building", "track", "city", "pass"} <= seen


def test_core_actions_name_what_they_act_on() -> None:
    s = new_game(GameConfig(players=4, seed=3))
    r = random.Random(4)
    found: dict[str, tuple[str, ...]] = {}
    while not s.is_over and len(found) < 6:
        d = s.decision()
        assert d is not None
        for o in d.options:
            verb, *rest = o.action.text.split()
            if verb in ("ship", "occupy", "draw", "build", "pass", "sea") and verb not in found:
                found[verb] = o.targets
                arg = rest[-1].upper() if rest else ""
                if verb == "ship":
                    assert o.targets == (f"track:{arg}",)
                elif verb == "occupy":
                    assert o.targets == (f"city:{arg}",)
                elif verb == "draw":
                    assert o.targets == (f"deck:{arg}",)
                elif verb == "build":
                    assert o.targets == (f"supply:{rest[-1]}",)
                elif verb == "pass":
                    assert o.targets == ("pass",)
        s.apply(d.options[r.randrange(len(d.options))].action)
    assert {"ship", "build", "pass"} <= set(found)
