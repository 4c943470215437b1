"""What batching the expert network's evaluations saves in self-play, measured in CPU
time of this process (one core), old and new side by side in one run:

1. *The network alone*: the same positions (every decision of a few seeded games of 2,
   3 and 4 players) evaluated one at a time (``Net.evaluate``, what the bot calls) and
   in batches of B (``endeavor.analysis.train.forward_batch``, what self-play calls),
   both from the observation's nonzero entries and the legal actions, in alternating
   repetitions; the microseconds per position and the ratio.
2. *Self-play*: ``play_training_games`` on K games at once against the same K games
   played one at a time (``--games K``, at ``--iterations``): CPU seconds per network
   evaluation (the encoder, the tree and the rules included) and the ratio.

Usage (the build installed, or the source tree with ``PYTHONPATH=src``)::

    python tools/train_batching.py [--weights FILE] [--repeat 5] [--games 8] [--iterations 50]

Needs numpy; the default network is the shipped one.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from endeavor import GameConfig, new_game
from endeavor.analysis.train import Settings, forward_batch, generation_tasks, play_training_games
from endeavor.bots import make
from endeavor.bots.expert import load_net, weights_path
from endeavor.encoding.actions import CODES
from endeavor.encoding.observation import ObservationEncoder

INDEX = {c: i for i, c in enumerate(CODES)}


def positions(games: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
    """Every non-forced decision of ``games`` greedy games of 2, 3 and 4 players: the
    observation's nonzero entries, their values, the legal indices, the seats."""
    out = []
    for g in range(games):
        n = 2 + g % 3
        state = new_game(GameConfig(players=n, seed=100 + g))
        bot = make("greedy", seed=g)
        encoders = [ObservationEncoder(p) for p in range(n)]
        while not state.is_over:
            codes = state.legal_codes()
            if len(codes) > 1:
                p = state.current_player
                assert p is not None
                obs = encoders[p].encode(state, copy=False)
                nz = np.flatnonzero(obs)
                out.append((nz, obs[nz].copy(), np.array([INDEX[c] for c in codes], np.intp),
                            n))
            state.apply(bot.choose(state))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", default=weights_path())
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--sizes", default="1,4,8,16,32,64")
    args = ap.parse_args()
    net = load_net(args.weights)
    pos = positions(3)
    print(f"network {net.hidden}, {len(pos)} positions, {args.repeat} repetitions")
    sizes = [int(x) for x in args.sizes.split(",")]
    one: list[float] = []
    batched: dict[int, list[float]] = {b: [] for b in sizes}
    dense = np.zeros(net.params["W0"].shape[0], np.float32)
    for _ in range(args.repeat):
        t = time.process_time()
        for nz, val, legal, n in pos:
            dense[nz] = val
            net.evaluate(dense, legal, n)
            dense[nz] = 0.0
        one.append((time.process_time() - t) / len(pos))
        for b in sizes:
            t = time.process_time()
            for k in range(0, len(pos), b):
                part = pos[k:k + b]
                forward_batch(net, [p[0] for p in part], [p[1] for p in part],
                              [p[2] for p in part], [p[3] for p in part])
            batched[b].append((time.process_time() - t) / len(pos))
    base = min(one)
    print(f"one at a time (Net.evaluate): {1e6 * base:.1f} us a position")
    for b in sizes:
        best = min(batched[b])
        print(f"batches of {b:3d} (forward_batch): {1e6 * best:.1f} us a position, "
              f"{base / best:.2f}x cheaper")
    settings = Settings(games=args.games, players=(2, 3, 4), iterations=args.iterations,
                        mix="self:1", temperature_moves=8)
    tasks = generation_tasks(settings, 1, [])
    nets: dict[str, str | bytes] = {"best": args.weights}
    t = time.process_time()
    lines = [play_training_games([task], nets)[0] for task in tasks]
    alone = time.process_time() - t
    evals_alone = sum(g["evaluations"] for g in lines)
    t = time.process_time()
    lines = play_training_games(tasks, nets)
    together = time.process_time() - t
    evals = sum(g["evaluations"] for g in lines)
    print(f"self-play, {args.games} games of 2-4 players at {args.iterations} iterations: "
          f"one at a time {1e6 * alone / evals_alone:.0f} us an evaluation "
          f"({evals_alone} evaluations, {alone:.1f} s); {args.games} together "
          f"{1e6 * together / evals:.0f} us ({evals}, {together:.1f} s): "
          f"{(alone / evals_alone) / (together / evals):.2f}x")


if __name__ == "__main__":
    main()
