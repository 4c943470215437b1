"""Self-play mean score (the third strength measure of docs/bots.md): one game per deal (config
seeds 1..K), every seat the same bot at the same budget, each seat its own bot seed.

    python tools/selfplay.py BOT BUDGET DEALS PLAYERS WORKERS
    python tools/selfplay.py expert 1s 3 4 1   # BUDGET: 1s (seconds), 800 (iterations), - (none)

Unlike ``endeavor tournament --bots BOT --players N``, which plays each deal N times
with the seatings rotated (the same game N times for a bot with an iteration budget and
no noise), every game here is its own deal.
"""

from __future__ import annotations

import statistics
import sys
import time
from multiprocessing import get_context
from typing import Any

from endeavor import GameConfig, final_scores, new_game
from endeavor.bots import make


def _bot(name: str, budget: str, seed: int) -> Any:
    if budget == "-":
        return make(name, seed=seed)
    if budget.endswith("s"):
        return make(name, seed=seed, seconds=float(budget[:-1]))
    return make(name, seed=seed, iterations=int(budget))


def play(task: tuple[str, str, int, int]) -> tuple[int, list[int], float, int]:
    name, budget, deal, players = task
    s = new_game(GameConfig(players=players, seed=deal))
    bots = [_bot(name, budget, 100 * deal + i) for i in range(players)]
    start = time.process_time()
    moves = 0
    while not s.is_over:
        p = s.current_player
        assert p is not None
        s.apply(bots[p].choose(s))
        moves += 1
    return deal, [x.total for x in final_scores(s)], time.process_time() - start, moves


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    name, budget = argv[0], argv[1]
    try:
        deals, players, workers = int(argv[2]), int(argv[3]), int(argv[4])
        if deals < 1 or not 2 <= players <= 5 or workers < 1:
            raise ValueError("DEALS and WORKERS must be >= 1, PLAYERS 2 to 5")
        _bot(name, budget, 0)  # the bot and its budget, checked here
    except ValueError as e:
        print(f"selfplay: {e}", file=sys.stderr)
        return 2
    scores: list[int] = []
    tasks = [(name, budget, d, players) for d in range(1, deals + 1)]
    with get_context("spawn").Pool(workers) as pool:
        for deal, got, cpu, moves in pool.imap_unordered(play, tasks):
            scores += got
            print(f"deal {deal}: {got} ({cpu:.0f} CPU s, {moves} decisions)", flush=True)
    mean = statistics.mean(scores)
    se = statistics.stdev(scores) / len(scores) ** 0.5 if len(scores) > 1 else 0.0
    print(f"{name}:{budget} self-play, {players} players, {deals} deals: mean score "
          f"{mean:.1f} (standard error {se:.1f}, {len(scores)} seat-games)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
