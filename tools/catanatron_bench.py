"""Catanatron random-play actions/s, for the side-by-side ratio in the README.
Run it in a venv with `pip install catanatron` (not a dependency of endeavor)."""
import time, random
from catanatron import Game, RandomPlayer, Color
random.seed(1)
t0=time.perf_counter(); acts=0; games=0
while time.perf_counter()-t0 < 3:
    g=Game([RandomPlayer(c) for c in (Color.RED,Color.BLUE,Color.WHITE,Color.ORANGE)])
    g.play(); acts+=len(g.state.action_records) if hasattr(g.state,'action_records') else len(g.state.actions); games+=1
dt=time.perf_counter()-t0
print(f"catanatron: {acts/dt:.0f} actions/s, {games/dt:.1f} games/s, {acts/games:.0f} actions/game")
