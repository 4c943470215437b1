"""The public random-play loop, for any source tree (only the public API every client
uses: ``new_game``, ``legal_actions()``, ``apply()``), to compare two trees side by side.

usage: PYTHONPATH=<tree>/src python public_loop.py MODE N [exploits] [api]
  MODE games: play N seeded 4-player games, print the decisions (the target of
              callgrind_games.sh-style instruction counts; subtract a run with N=0)
  MODE cpu:   the same, print "decisions cpu_seconds decisions_per_cpu_second"
  exploits:   none (default) or random
  api:        public (default: legal_actions + apply, reading no event text) or codes
              (legal_codes + apply_code) or read (public, and every event's text read)
"""
import random
import sys
import time

from endeavor import GameConfig, new_game


def play(n: int, exploits: str, api: str, seed0: int = 1000) -> int:
    decisions = 0
    for g in range(n):
        rng = random.Random(g)
        s = new_game(GameConfig(players=4, seed=seed0 + g,
                                exploits="random" if exploits == "random" else ()))
        if api == "codes":
            while not s.is_over:
                codes = s.legal_codes()
                s.apply_code(codes[rng.randrange(len(codes))])
                decisions += 1
        elif api == "mixed":  # legal_actions + apply_code: what legal_actions costs
            while not s.is_over:
                actions = s.legal_actions()
                s.apply_code(actions[rng.randrange(len(actions))].code)
                decisions += 1
        elif api == "read":
            while not s.is_over:
                actions = s.legal_actions()
                for e in s.apply(actions[rng.randrange(len(actions))]):
                    _ = e.text
                decisions += 1
        else:
            while not s.is_over:
                actions = s.legal_actions()
                s.apply(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions


def main() -> None:
    mode, n = sys.argv[1], int(sys.argv[2])
    exploits = sys.argv[3] if len(sys.argv) > 3 else "none"
    api = sys.argv[4] if len(sys.argv) > 4 else "public"
    t0 = time.process_time()
    d = play(n, exploits, api)
    dt = time.process_time() - t0
    if mode == "cpu":
        print(f"{d} {dt:.3f} {d / dt:.0f}")
    else:
        print(d)


if __name__ == "__main__":
    main()
