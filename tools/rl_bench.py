"""Decisions per second of PettingZoo AEC loops with masked random play: Endeavor
(``endeavor.rl.env``, what users make, and the bare ``raw_env``) beside
PettingZoo's own ``connect_four_v3`` and ``chess_v6`` in the same run, plus the
Gymnasium environment against random opponents and the engine alone.

Every loop is the one PettingZoo's documentation shows::

    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else <a random legal action of the mask>
        env.step(action)

with the random legal action drawn as ``legal = mask.view(np.bool_).nonzero()[0]``,
``legal[rng.randrange(len(legal))]`` for every game alike (numpy finds the nonzero
entries of a bool array several times faster than of the ``int8`` masks PettingZoo's
games give; ``rng`` is a ``random.Random``: numpy's ``Generator.integers`` costs
several times more per call); one line shows Endeavor with the plain
``np.flatnonzero(mask)`` too. A decision is a step that is not a dead agent's. Times
are CPU time of this process (one core). Needs the rl extra; connect_four and chess
need ``pip install pygame chess`` (left out when missing)::

    python tools/rl_bench.py --seconds 3 --runs 3            # the build installed
    PYTHONPATH=src python tools/rl_bench.py                  # the source tree (pure)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np


def legal_fast(mask: Any) -> Any:
    """The legal action indices of an ``int8`` 0/1 mask, quickly."""
    return mask.view(np.bool_).nonzero()[0]


def aec_rate(make: Callable[[], Any], seconds: float, seed: int = 0,
             legal_of: Callable[[Any], Any] = legal_fast) -> tuple[float, int]:
    """Decisions/s of masked random play on AEC environments from ``make``, and the
    number of games started."""
    rng = random.Random(seed)
    env = make()
    decisions = games = 0
    clock = time.process_time
    start = clock()
    episode = seed
    while True:
        env.reset(seed=episode)
        episode += 1
        games += 1
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = legal_of(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                decisions += 1
            env.step(action)
        if clock() - start >= seconds:
            return decisions / (clock() - start), games


def gym_rate(players: int, seconds: float, seed: int = 0) -> tuple[float, int]:
    """Agent steps/s of masked random play in the Gymnasium environment against random
    opponents (each step also plays the opponents' decisions until the agent's next)."""
    from endeavor.rl.gym_env import EndeavorEnv

    rng = random.Random(seed)
    env = EndeavorEnv(players=players, opponents="random")
    steps = games = 0
    clock = time.process_time
    start = clock()
    episode = seed
    while True:
        env.reset(seed=episode)
        episode += 1
        games += 1
        done = False
        while not done:
            legal = legal_fast(env.action_masks())
            _, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            done = terminated or truncated
        if clock() - start >= seconds:
            return steps / (clock() - start), games


def engine_rate(players: int, seconds: float, seed: int = 0, observe: bool = False
                ) -> tuple[float, int]:
    """Decisions/s of the engine alone (``legal_codes`` + ``apply_code``, random play);
    ``observe``: also the observation of the seat to move at every decision (the
    encoder's share of the environments' loops)."""
    from endeavor import GameConfig, new_game
    from endeavor.encoding.observation import encode

    rng = random.Random(seed)
    decisions = games = 0
    clock = time.process_time
    start = clock()
    while True:
        state = new_game(GameConfig(players=players, seed=seed + games))
        games += 1
        while not state.is_over:
            if observe:
                encode(state, state.current_player)
            codes = state.legal_codes()
            state.apply_code(codes[rng.randrange(len(codes))])
            decisions += 1
        if clock() - start >= seconds:
            return decisions / (clock() - start), games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per run (CPU time)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each; the median is shown")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # PettingZoo's wrappers warn about the Dict observation

    import endeavor
    import endeavor.encoding.observation as observation
    import endeavor.rl as rl

    players = args.players
    loops: dict[str, Callable[[], tuple[float, int]]] = {
        f"endeavor engine alone ({players}p)": lambda: engine_rate(players, args.seconds),
        f"endeavor engine + observation encoder ({players}p)":
            lambda: engine_rate(players, args.seconds, observe=True),
        f"endeavor_v0 env() ({players}p)":
            lambda: aec_rate(lambda: rl.env(players=players), args.seconds),
        f"endeavor_v0 env() ({players}p), np.flatnonzero(mask)":
            lambda: aec_rate(lambda: rl.env(players=players), args.seconds,
                             legal_of=np.flatnonzero),
        f"endeavor_v0 raw_env() ({players}p)":
            lambda: aec_rate(lambda: rl.raw_env(players=players), args.seconds),
        f"Endeavor-v0 Gymnasium, agent steps ({players}p, random opponents)":
            lambda: gym_rate(players, args.seconds),
    }
    try:
        from pettingzoo.classic import connect_four_v3

        loops["connect_four_v3 env()"] = lambda: aec_rate(connect_four_v3.env, args.seconds)
    except ImportError as e:
        print(f"connect_four_v3 left out: {e}", file=sys.stderr)
    try:
        from pettingzoo.classic import chess_v6

        loops["chess_v6 env()"] = lambda: aec_rate(chess_v6.env, args.seconds)
    except ImportError as e:
        print(f"chess_v6 left out: {e}", file=sys.stderr)

    results: dict[str, dict[str, float]] = {}
    rates: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(args.runs):  # alternating, so that a busy moment hurts all alike
        for name, loop in loops.items():
            rates[name].append(loop()[0])
    for name, values in rates.items():
        results[name] = {"median": statistics.median(values), "min": min(values),
                         "max": max(values)}
    summary = {"build": endeavor.BUILD, "observation": observation.__name__,
               "seconds": args.seconds, "runs": args.runs, "per_s": results}
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"engine {endeavor.BUILD}; {args.runs} runs x {args.seconds:g} s CPU each; "
          "medians (min-max), per second:")
    for name, r in results.items():
        print(f"  {name:<62} {r['median']:>10,.0f}  ({r['min']:,.0f}-{r['max']:,.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
