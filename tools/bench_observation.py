"""Observation encoder timings (endeavor.encoding.observation) on this build.

    python tools/bench_observation.py [games]

Prints, in CPU microseconds (the best of several runs; a loaded machine still slows them):

- ``cold``: a 4-player mid-game state (round 4, random Exploits) encoded from scratch;
- ``warm``: the same state again (nothing changed: the cost of noticing it);
- ``step``: two successive positions in turn (one action of changes each time);
- ``loop``: seeded random 4-player games, each position encoded for the player to move
  (what an AEC loop does), minus the same loop without encoding: µs per encode.
"""

from __future__ import annotations

import random
import sys
import time
import timeit
from collections.abc import Callable

import endeavor
from endeavor import GameConfig, State, new_game
from endeavor.encoding import features
from endeavor.encoding.observation import ObservationEncoder, encode


def best(f: Callable[[], object], number: int) -> float:
    """CPU µs per call of ``f``, the best of 7 runs."""
    timer = timeit.Timer(f, timer=time.process_time)
    return min(timer.repeat(number=number, repeat=7)) / number * 1e6


def mid_game() -> tuple[State, random.Random]:
    s = new_game(GameConfig(players=4, seed=3, exploits="random"))
    rng = random.Random(3)
    while s.round < 4:
        s.apply_code(rng.choice(s.legal_codes()))
    return s, rng


def loop(games: int, encoding: bool) -> tuple[float, int]:
    """CPU seconds of seeded random play (encoding each position for the player to move
    or not), and the number of positions."""
    total, steps = 0.0, 0
    for g in range(games):
        s = new_game(GameConfig(players=4, seed=100 + g, exploits="random"))
        rng = random.Random(g)
        t0 = time.process_time()
        while not s.is_over:
            if encoding:
                encode(s, s.current_player)  # type: ignore[arg-type]
            s.apply_code(rng.choice(s.legal_codes()))
            steps += 1
        total += time.process_time() - t0
    return total, steps


def main(games: int = 10) -> None:
    print(f"endeavor {endeavor.BUILD}; the encoder's core: "
          f"{'compiled' if not features.__file__.endswith('.py') else 'pure Python'}")
    s, rng = mid_game()
    enc = ObservationEncoder(1)

    def cold() -> None:
        enc.core.reset()
        enc.encode(s)

    print(f"cold  {best(cold, 300):7.2f} us  (from scratch)")
    print(f"warm  {best(lambda: encode(s, 1), 5000):7.2f} us  (the same state again)")
    s2 = s.copy()
    s2.apply_code(rng.choice(s2.legal_codes()))
    print(f"step  {best(lambda: (encode(s, 1), encode(s2, 1)), 2000) / 2:7.2f} us  "
          "(two successive positions in turn)")
    for _ in range(2):
        plain, n = loop(games, False)
        both, _ = loop(games, True)
        print(f"loop  {(both - plain) / n * 1e6:7.2f} us  ({n} positions of random play for the "
              f"player to move; play alone {plain / n * 1e6:.2f} us a step)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
