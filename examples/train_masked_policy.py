"""Train a small masked policy against random opponents with the Gymnasium environment.

A linear softmax policy over the legal actions (numpy only): the logit of action ``a``
is ``W[a] . [observation, 1]``, and illegal actions get no probability at all (the
mask of ``env.action_masks()``). It learns by REINFORCE with a running-mean baseline
from the "win" reward (1 for a win, 1/2 for a shared one, 0 otherwise), playing
2-player games from a seat drawn at every reset against the ``random`` bot. Episodes
are played by two worker processes (two cores), the updates made here.

It prints the policy's win rate before training (the untrained policy is uniform over
the legal actions, so about 50%) and after, each on the same held-out deals::

    python examples/train_masked_policy.py                # about 3 minutes
    python examples/train_masked_policy.py --minutes 1 --eval-games 100
    python examples/train_masked_policy.py --opponents greedy --minutes 10   # harder

Needs ``pip install 'endeavor[rl]'``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from typing import Any

import gymnasium
import numpy as np

import endeavor.rl  # noqa: F401  (registers endeavor/Endeavor-v0)

Params = np.ndarray  # W: (NUM_ACTIONS, features + 1), float32


def make_env(args: argparse.Namespace) -> Any:
    return gymnasium.make("endeavor/Endeavor-v0", players=args.players,
                          opponents=args.opponents, seat=None)


def features(obs: np.ndarray) -> np.ndarray:
    """The observation, clipped, with a constant 1 for each action's own bias."""
    return np.append(np.clip(obs, -5.0, 5.0), np.float32(1.0)).astype(np.float32)


def probabilities(w: Params, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The policy over the legal actions (a softmax of their logits)."""
    z = w[legal] @ x
    z -= z.max()
    p = np.exp(z)
    return p / p.sum()


def play(task: tuple[Params, list[int], bool, argparse.Namespace]
         ) -> list[tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]]:
    """Play one episode per seed with the policy ``w`` (sampling, or its most likely
    action when ``greedy``): each episode's reward and steps (features, legal actions,
    the position chosen among them)."""
    w, seeds, greedy, args = task
    env = make_env(args)
    rng = np.random.default_rng(seeds[0] + 7)
    out = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        steps = []
        while True:
            x = features(obs)
            legal = np.flatnonzero(info["action_mask"])
            p = probabilities(w, x, legal)
            k = int(p.argmax()) if greedy else int(rng.choice(len(legal), p=p))
            steps.append((x, legal, k))
            obs, reward, terminated, truncated, info = env.step(int(legal[k]))
            if terminated or truncated:
                out.append((float(reward), steps))
                break
    env.close()
    return out


def win_rate(pool: Any, w: Params, seeds: list[int], greedy: bool,
             args: argparse.Namespace) -> float:
    """The mean win share of the policy (``greedy``: its most likely action; else
    sampled) over the deals ``seeds``."""
    half = len(seeds) // 2
    parts = pool.map(play, [(w, seeds[:half], greedy, args), (w, seeds[half:], greedy, args)])
    rewards = [r for part in parts for r, _ in part]
    return sum(rewards) / len(rewards)


def interval(p: float, n: int) -> str:
    half = 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / n)
    return f"{p:.0%} (± {half:.0%}, {n} games)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--batch", type=int, default=8, help="episodes per worker per update")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true", help="a few seconds, for tests")
    args = parser.parse_args()
    if args.smoke:
        args.minutes, args.eval_games, args.batch = 0.05, 8, 2

    probe = make_env(args)
    size = probe.observation_space.shape[0]
    w: Params = np.zeros((probe.action_space.n, size + 1), np.float32)
    probe.close()
    eval_seeds = list(range(10**6, 10**6 + args.eval_games))  # held out: never trained on
    with multiprocessing.get_context("fork").Pool(2) as pool:
        print(f"{args.players}-player games against {args.opponents!r}, observation of "
              f"{size} features, {w.shape[0]} actions")
        before = win_rate(pool, w, eval_seeds, False, args)
        print(f"win rate before training (uniform over the legal actions): "
              f"{interval(before, args.eval_games)}")
        start = time.monotonic()
        baseline, episodes, recent = 0.5, 0, []
        next_seed, last_report = args.seed, start
        while time.monotonic() - start < args.minutes * 60:
            tasks = []
            for _ in range(2):
                tasks.append((w, list(range(next_seed, next_seed + args.batch)), False, args))
                next_seed += args.batch
            grad = np.zeros_like(w)
            for part in pool.map(play, tasks):
                for reward, steps in part:
                    advantage = reward - baseline
                    baseline += 0.02 * (reward - baseline)
                    for x, legal, k in steps:  # d log p(k) / d W[legal] = (1_k - p) x
                        g = -probabilities(w, x, legal)
                        g[k] += 1.0
                        grad[legal] += advantage * np.outer(g, x)
                    episodes += 1
                    recent = (recent + [reward])[-200:]
            w += args.lr * grad / (2 * args.batch)
            if time.monotonic() - last_report > 20:
                last_report = time.monotonic()
                print(f"  {last_report - start:5.0f} s: {episodes} episodes, win rate of the "
                      f"last {len(recent)} (sampling) {sum(recent) / len(recent):.0%}")
        sampled = win_rate(pool, w, eval_seeds, False, args)
        greedy = win_rate(pool, w, eval_seeds, True, args)
    print(f"after {episodes} training games ({args.minutes:g} min), win rate: "
          f"{interval(greedy, args.eval_games)} playing the most likely action, "
          f"{interval(sampled, args.eval_games)} sampling")


if __name__ == "__main__":
    main()
