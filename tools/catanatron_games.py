"""Catanatron: N seeded 4-player games of random play; prints the actions played. Under
valgrind callgrind (in a venv with `pip install catanatron`), a run of N games minus a
run of 0 gives Catanatron's CPU instructions per action, to compare with
callgrind_public.sh's per decision (deterministic, unlike a wall-clock ratio)."""
import random
import sys

from catanatron import Color, Game, RandomPlayer

n = int(sys.argv[1])
actions = 0
for g in range(n):
    random.seed(g)
    game = Game([RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)],
                seed=g)
    game.play()
    actions += len(game.state.action_records) if hasattr(game.state, "action_records") \
        else len(game.state.actions)
print(actions)
