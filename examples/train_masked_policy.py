"""Train a small masked policy against random opponents with the Gymnasium environment.

The policy (numpy only) is a small network over the observation: ``h = tanh(P x + c)``
(``HIDDEN`` units), then one logit per legal action, ``E[a] . h + b[a]``; illegal
actions get no probability at all (``env.action_masks()`` / ``info["action_mask"]``: the
logits of the other 3,000-odd actions are never computed). It learns by REINFORCE with
a running-mean baseline and Adam from the "win" reward (1 for a win, 1/2 for a shared
one, 0 otherwise), playing 2-player games from a seat drawn at every reset against the
``random`` bot. Two worker processes (two cores) play the episodes; the updates are
made here.

It prints the win rate before training (the untrained policy is uniform over the legal
actions, so about 50%) and after, on the same held-out deals::

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

HIDDEN = 32
Params = dict[str, np.ndarray]  # P (HIDDEN, features), c (HIDDEN), E (actions, HIDDEN), b


def make_env(args: argparse.Namespace) -> Any:
    return gymnasium.make("endeavor/Endeavor-v0", players=args.players,
                          opponents=args.opponents, seat=None)


def init(features: int, actions: int, seed: int) -> Params:
    """Random features in, zeros out: the untrained policy is uniform."""
    rng = np.random.default_rng(seed)
    return {"P": (rng.standard_normal((HIDDEN, features)) / math.sqrt(features) * 3
                  ).astype(np.float32),
            "c": np.zeros(HIDDEN, np.float32),
            "E": np.zeros((actions, HIDDEN), np.float32),
            "b": np.zeros(actions, np.float32)}


def forward(w: Params, x: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The hidden layer and the policy over the legal actions."""
    h = np.tanh(w["P"] @ x + w["c"])
    z = w["E"][legal] @ h + w["b"][legal]
    p = np.exp(z - z.max())
    return h, p / p.sum()


def play(task: tuple[Params, list[int], bool, argparse.Namespace]
         ) -> list[tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]]:
    """One episode per seed with the policy ``w`` (sampling, or its most likely action
    when ``greedy``): each episode's reward and steps (observation, legal actions, the
    position of the one chosen among them)."""
    w, seeds, greedy, args = task
    env = make_env(args)
    rng = np.random.default_rng(seeds[0] + 7)
    out = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        steps = []
        while True:
            legal = np.flatnonzero(info["action_mask"])
            _, p = forward(w, obs, legal)
            k = int(p.argmax()) if greedy else int(rng.choice(len(legal), p=p))
            steps.append((obs, legal, k))
            obs, reward, terminated, truncated, info = env.step(int(legal[k]))
            if terminated or truncated:
                out.append((float(reward), steps))
                break
    env.close()
    return out


def gradient(w: Params, episodes: list[tuple[float, list[Any]]], baseline: float
             ) -> tuple[Params, float]:
    """The REINFORCE gradient (ascent) of the episodes, and the baseline updated."""
    g = {k: np.zeros_like(v) for k, v in w.items()}
    for reward, steps in episodes:
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        xs, pres = [], []
        for x, legal, k in steps:  # d log p(k) / d logits = onehot(k) - p
            h, p = forward(w, x, legal)
            dz = -p
            dz[k] += 1.0
            dz *= advantage
            g["E"][legal] += np.outer(dz, h)
            g["b"][legal] += dz
            pres.append((w["E"][legal].T @ dz) * (1.0 - h * h))
            xs.append(x)
        pre = np.array(pres)
        g["P"] += pre.T @ np.array(xs)
        g["c"] += pre.sum(axis=0)
    return g, baseline


class Adam:
    def __init__(self, w: Params, lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in w.items()}
        self.v = {k: np.zeros_like(v) for k, v in w.items()}

    def ascend(self, w: Params, g: Params) -> None:
        self.t += 1
        for k in w:
            self.m[k] = 0.9 * self.m[k] + 0.1 * g[k]
            self.v[k] = 0.999 * self.v[k] + 0.001 * g[k] * g[k]
            m = self.m[k] / (1 - 0.9 ** self.t)
            v = self.v[k] / (1 - 0.999 ** self.t)
            w[k] += (self.lr * m / (np.sqrt(v) + 1e-8)).astype(np.float32)


def win_rate(pool: Any, w: Params, seeds: list[int], greedy: bool,
             args: argparse.Namespace) -> float:
    """The mean win share of the policy (``greedy``: its most likely action; else
    sampled) over the deals ``seeds``, played by the two workers."""
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
    parser.add_argument("--lr", type=float, default=0.01, help="Adam's step size")
    parser.add_argument("--batch", type=int, default=8, help="episodes per worker per update")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true", help="a few seconds, for tests")
    args = parser.parse_args()
    if args.smoke:
        args.minutes, args.eval_games, args.batch = 0.05, 8, 2

    probe = make_env(args)
    w = init(probe.observation_space.shape[0], probe.action_space.n, args.seed)
    probe.close()
    adam = Adam(w, args.lr)
    eval_seeds = list(range(10**6, 10**6 + args.eval_games))  # held out: never trained on
    with multiprocessing.get_context("fork").Pool(2) as pool:
        print(f"{args.players}-player games against {args.opponents!r}; observations of "
              f"{w['P'].shape[1]} values, {w['E'].shape[0]} actions, {HIDDEN} hidden units")
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
            batch = [e for part in pool.map(play, tasks) for e in part]
            g, baseline = gradient(w, batch, baseline)
            adam.ascend(w, g)
            episodes += len(batch)
            recent = (recent + [r for r, _ in batch])[-200:]
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
