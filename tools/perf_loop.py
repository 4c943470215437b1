"""The loops the performance gate (tools/perf_gate.py) counts, run under callgrind.

usage: python perf_loop.py WARM GAMES  (the engine from PYTHONPATH or the installed build)

Plays, for each loop of LOOPS in turn, WARM seeded 4-player random games (warm-up, not
counted) and then GAMES other seeded games (counted). Between phases it calls
``os.getppid()``: the gate runs callgrind with ``--dump-before=getppid``, so every phase
is one callgrind dump and the start-up (imports, first compilations) and the exit fall in
dumps of their own, never in a figure. Prints one JSON line: the build, the Python
version and, per loop, the decisions of its counted phase.

The loops: ``public`` is what a client of the public API does (``legal_actions()``, then
``apply()`` of one of them, the events returned); ``codes`` the fast path of the bots,
the searches and the RL environments (``legal_codes()``, then ``apply_code()``). Each
without Exploits and with random Exploits. The moves are drawn by a seeded
``random.Random`` (``random()``: a C call, so the driver adds little to a figure).

ENDEAVOR_PERF_PLANT=N (read here only, never by the engine) plants a slowdown: after
every ``apply()``/``apply_code()`` the driver spins N rounds of a small Python loop. It
exists to show that the gate fails on a real slowdown (docs/performance.md).
"""
from __future__ import annotations

import json
import os
import platform
import random
import sys
from collections.abc import Callable

import endeavor
from endeavor import GameConfig, new_game

#: (loop, exploits) in the order they run; the gate names a figure "loop/exploits"
LOOPS = (("public", "none"), ("public", "random"), ("codes", "none"), ("codes", "random"))
#: seeds of the warm-up games and of the counted ones (disjoint)
WARM_SEED = 500
SEED = 1000


def _spin(n: int) -> int:
    x = 0
    for i in range(n):
        x += i & 7
    return x


def _plant() -> Callable[[], None] | None:
    n = int(os.environ.get("ENDEAVOR_PERF_PLANT", "0") or 0)
    if n <= 0:
        return None

    def extra() -> None:
        _spin(n)
    return extra


def play(loop: str, exploits: str, games: int, seed0: int,
         extra: Callable[[], None] | None = None) -> int:
    """Play ``games`` seeded games with the given loop; return the decisions made."""
    decisions = 0
    for g in range(games):
        rnd = random.Random(seed0 + g).random
        s = new_game(GameConfig(players=4, seed=seed0 + g,
                                exploits="random" if exploits == "random" else ()))
        if loop == "public":
            while not s.is_over:
                actions = s.legal_actions()
                s.apply(actions[int(rnd() * len(actions))])
                if extra is not None:
                    extra()
                decisions += 1
        else:
            while not s.is_over:
                codes = s.legal_codes()
                s.apply_code(codes[int(rnd() * len(codes))])
                if extra is not None:
                    extra()
                decisions += 1
    return decisions


def main() -> None:
    warm, games = int(sys.argv[1]), int(sys.argv[2])
    extra = _plant()
    counted = {}
    mark = os.getppid  # the phase marker (a callgrind dump before each call)
    mark()
    for loop, exploits in LOOPS:
        play(loop, exploits, warm, WARM_SEED, extra)
        mark()
        counted[f"{loop}/{exploits}"] = play(loop, exploits, games, SEED, extra)
        mark()
    print(json.dumps({"build": "mypyc" if endeavor.COMPILED else "pure",
                      "python": platform.python_version(),
                      "planted": extra is not None, "decisions": counted}))


if __name__ == "__main__":
    main()
