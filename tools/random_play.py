"""Random play benchmark. usage: PYTHONPATH=<tree>/src python play.py MODE [args]
modes: games N [exploits]  -> plays N seeded 4p games, prints decisions
       time SECONDS [exploits] -> decisions/s
       mcts N  -> per-decision copy+legal_codes+apply_code costs
"""
import random, sys, time
from endeavor import GameConfig, new_game

import json, os
EXTRA = json.loads(os.environ.get("CFG", "{}"))
PW = float(os.environ.get("PW", "1"))
PASS = 255 << 16

def cfg(seed, ex):
    kw = {"players": 4, **EXTRA}
    return GameConfig(seed=seed, exploits=ex, **kw)

def play_games(n, ex, seed0=1000):
    dec = 0
    for g in range(n):
        rng = random.Random(g)
        s = new_game(cfg(seed0 + g, ex))
        while not s.is_over:
            codes = s.legal_codes()
            if PW < 1.0 and len(codes) > 1 and codes[-1] == PASS and rng.random() >= PW:
                s.apply_code(codes[rng.randrange(len(codes) - 1)])
            else:
                s.apply_code(codes[rng.randrange(len(codes))])
            dec += 1
    return dec

mode = sys.argv[1]
ex = sys.argv[3] if len(sys.argv) > 3 else ()
if ex == "none":
    ex = ()
if mode == "games":
    print(play_games(int(sys.argv[2]), ex))
elif mode == "time":
    best = 0.0
    n = int(sys.argv[2])
    t0 = time.perf_counter()
    d = play_games(n, ex)
    dt = time.perf_counter() - t0
    print(f"{d/dt:.0f}")
