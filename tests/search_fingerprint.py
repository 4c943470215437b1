"""What the tree searches compute on fixed positions, to check that a faster search
is still exactly the same search: for seeded positions of several rulesets and
options (Exploits, the Silent Fleet, the 2009 game), the ``mcts`` bot's choice, every
root child's visits, value, glory and margin (from :meth:`analyse`) and the search's
own counts (nodes expanded, positions evaluated, depth), over a few decisions in a row
so that the reused tree is covered too.

``python tests/search_fingerprint.py --write`` stores them (in
``tests/fixtures/search_fingerprint.json``) from the code as it is;
``tests/test_search_fingerprint.py`` compares the code with them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from endeavor import GameConfig, new_game
from endeavor.bots import MCTSBot, RandomBot

FIXTURE = Path(__file__).parent / "fixtures" / "search_fingerprint.json"

#: (config, random decisions played before the searches, bot options)
CASES: list[tuple[dict[str, Any], int, dict[str, Any]]] = [
    ({"players": 4, "seed": 1}, 40, {}),
    ({"players": 4, "seed": 2}, 90, {}),
    ({"players": 2, "seed": 3, "exploits": "random"}, 30, {}),
    ({"players": 3, "seed": 4, "exploits": "random"}, 70, {"follow": 2}),
    ({"players": 5, "seed": 5, "exploits": "random"}, 120, {}),
    ({"players": 3, "seed": 6, "ruleset": "classic"}, 50, {}),
    ({"players": 4, "seed": 7, "ruleset": "classic"}, 100, {"rollout": 3}),
    ({"players": 2, "seed": 8, "options": {"silent_fleet": True}}, 45, {}),
    ({"players": 2, "seed": 9, "exploits": "random",
      "options": {"silent_fleet": True, "building_shortage": True}}, 60, {"widen": 1.0}),
    ({"players": 4, "seed": 10, "exploits": ["spice_trade", "imperialism",
                                             "south_sea_company"]}, 80, {}),
]
ITERATIONS = 120
DECISIONS = 3


def position(config: dict[str, Any], plies: int) -> Any:
    state = new_game(GameConfig(**config))
    bot = RandomBot(config["seed"], pass_weight=0.1)
    for _ in range(plies):
        if state.is_over:
            break
        state.apply_code(bot.choose_code(state))
    return state


def fingerprint() -> list[dict[str, Any]]:
    """Per case, per decision: what the search found (floats as exact hex)."""
    out = []
    for config, plies, options in CASES:
        state = position(config, plies)
        bot = MCTSBot(config["seed"], iterations=ITERATIONS, **options)
        steps = []
        for _ in range(DECISIONS):
            if state.is_over:
                break
            rated = bot.analyse(state, top=1000)
            last = bot.last
            code = bot.choose_code(state)
            steps.append({
                "code": code,
                "rated": [[r.action.code, r.visits, float(r.value).hex(),
                           None if r.glory is None else float(r.glory).hex(),
                           None if r.margin is None else float(r.margin).hex()]
                          for r in rated],
                "stats": [last.iterations, last.depth, last.nodes, last.evaluations,
                          last.reused, last.exact],
            })
            state.apply_code(code)
        out.append({"config": config, "plies": plies, "options": options, "steps": steps})
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/search_fingerprint.py --write")
    FIXTURE.write_text(json.dumps(fingerprint(), indent=0) + "\n")
    print(f"wrote {FIXTURE}")
