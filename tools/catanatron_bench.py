"""Catanatron random-play actions/s, for the side-by-side ratio in docs/performance.md.
Run it in a venv with `pip install catanatron` (not a dependency of endeavor).
Rates are in CPU time of this process (as `endeavor bench` reports them), over about
SECONDS of wall time (default 3)."""
import random
import sys
import time

from catanatron import Color, Game, RandomPlayer

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
random.seed(1)
cpu = time.process_time()
deadline = time.perf_counter() + seconds
acts = games = 0
while time.perf_counter() < deadline:
    g = Game([RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)])
    g.play()
    acts += len(g.state.action_records) if hasattr(g.state, "action_records") \
        else len(g.state.actions)
    games += 1
dt = time.process_time() - cpu
print(f"catanatron: {acts/dt:.0f} actions/s, {games/dt:.1f} games/s, {acts/games:.0f} actions/game")
