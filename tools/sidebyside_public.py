"""Two source trees side by side on tools/public_loop.py, in CPU time: alternating rounds
(A, B, A, B, ...), each a fresh process, medians per tree and the ratio B/A in decisions
per CPU second (of the medians, and the median of each round's own ratio, which
adjacent runs make robust to a machine whose speed drifts). Run it on a calm machine
(nothing else busy): CPU time still moves with what shares the cores' caches.

usage: python tools/sidebyside_public.py TREE_A TREE_B [--games N] [--rounds R]
           [--exploits none|random] [--api public|codes|read] [--python PY]
e.g.   python tools/sidebyside_public.py /work/base . --games 2000 --rounds 7
(TREE_A's own copy of public_loop.py is not needed: this tree's is run against both.)
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

LOOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "public_loop.py")


def one(tree: str, python: str, games: int, exploits: str, api: str) -> tuple[int, float]:
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(tree), "src"))
    out = subprocess.run([python, LOOP, "cpu", str(games), exploits, api], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), float(out[1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("tree_a")
    p.add_argument("tree_b")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--exploits", choices=("none", "random"), default="none")
    p.add_argument("--api", choices=("public", "codes", "read"), default="public")
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--quiet", action="store_true", help="print only the medians")
    a = p.parse_args()
    rates: dict[str, list[float]] = {a.tree_a: [], a.tree_b: []}
    for r in range(a.rounds):
        for tree in (a.tree_a, a.tree_b):
            d, cpu = one(tree, a.python, a.games, a.exploits, a.api)
            rates[tree].append(d / cpu)
            if not a.quiet:
                print(f"round {r + 1}: {tree}: {d} decisions, {cpu:.2f} s CPU, "
                      f"{d / cpu:,.0f}/s", flush=True)
    ma, mb = (statistics.median(rates[t]) for t in (a.tree_a, a.tree_b))
    pairs = sorted(y / x for x, y in zip(rates[a.tree_a], rates[a.tree_b], strict=True))
    q = len(pairs) // 4
    print(f"median {a.tree_a}: {ma:,.0f} decisions/CPU s; {a.tree_b}: {mb:,.0f}; "
          f"B/A = {mb / ma:.3f}x; median of the rounds' B/A {statistics.median(pairs):.3f}x "
          f"(middle half {pairs[q]:.3f}-{pairs[-q - 1]:.3f}) "
          f"({a.exploits}, {a.api}, {a.games} games x {a.rounds} rounds)")


if __name__ == "__main__":
    main()
