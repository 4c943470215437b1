"""The longest games (decisions per game) of every configuration, for the default
``max_game_length`` of OpenSpiel's ``python_endeavor`` (docs/rl.md, "OpenSpiel").

    PYTHONPATH=src python tools/game_lengths.py random [games] [pass weights]
    PYTHONPATH=src python tools/game_lengths.py greedy [games]

``random``: seeded random bots that keep ``pass`` among their choices with each given
probability (default 400 games, weights 0,0.03,0.1,0.3,1); ``greedy``: greedy self-play,
noise 0 and 0.5 (default 40 games). Prints min, mean and max per configuration and the
longest per player count. A position with no legal action before the end (an engine
bug) is reported and the game left there.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from endeavor import GameConfig, new_game
from endeavor.bots.greedy import GreedyBot
from endeavor.bots.random_bot import RandomBot
from endeavor.state import State

FLEET = {"silent_fleet": True}
FLEET_ALL = {"silent_fleet": True, "limited_occupation": True, "building_shortage": True}
CONFIGS: list[dict[str, Any]] = [
    *({"players": p, "exploits": ex} for p in (2, 3, 4, 5) for ex in ("none", "random")),
    *({"players": p, "exploits": "random", "options": {"phase_order": "by_player"}}
      for p in (2, 3, 4, 5)),
    *({"players": 2, "exploits": ex, "options": o} for o in (FLEET, FLEET_ALL)
      for ex in ("none", "random")),
    *({"players": p, "ruleset": "classic"} for p in (3, 4, 5)),
]


def length(state: State, choose: Callable[[State], int]) -> int:
    n = 0
    while not state.is_over:
        if not state.legal_codes():
            print(f"  no legal action before the end: {state!r}, config "
                  f"{state.config.to_dict()}", flush=True)
            break
        state.apply_code(choose(state))
        n += 1
    return n


def main(argv: list[str]) -> None:
    kind = argv[0] if argv else "random"
    games = int(argv[1]) if len(argv) > 1 else (400 if kind == "random" else 40)
    if kind == "random":
        weights = [float(w) for w in (argv[2] if len(argv) > 2 else "0,0.03,0.1,0.3,1")
                   .split(",")]
        players: list[tuple[str, Callable[[int], Any]]] = [
            (f"pass weight {w}", lambda g, w=w: RandomBot(seed=g, pass_weight=w))
            for w in weights]
    else:
        players = [(f"noise {x}", lambda g, x=x: GreedyBot(seed=g, noise=x))
                   for x in (0.0, 0.5)]
    longest: dict[int, int] = {}
    for kw in CONFIGS:
        for name, make in players:
            lens = []
            for g in range(games):
                state = new_game(GameConfig(seed=1000 + g, **kw))
                lens.append(length(state, make(g).choose_code))
            n = kw["players"]
            longest[n] = max(longest.get(n, 0), max(lens))
            print(f"{kw} {name}: min {min(lens)}, mean {sum(lens) / games:.1f}, "
                  f"max {max(lens)}", flush=True)
    print("longest by player count:", dict(sorted(longest.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
