"""The review-speed table (docs/performance.md): CPU-seconds of the post-game review of
the recorded games ``tests/fixtures/review/game_{2,3,4,5}p.record.json`` (one Age of Sail
game per player count, made by ``tools/review_games.py``) at the server's default
setting, in one process, on the build that runs it.

    PYTHONPATH=src python tools/review_speed.py                       # pure Python
    .venv-mypyc/bin/python tools/review_speed.py                      # compiled (make compiled)
    python tools/review_speed.py --iterations 1000 --policy fixed --players 4

Each row: the decisions reviewed, the CPU-seconds (``time.process_time``) and per
decision, and the labels given. Run on an older checkout (``PYTHONPATH=../old/src``) it
measures that one's review (without ``--policy`` where it has none).
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections import Counter
from pathlib import Path

import endeavor
from endeavor.analysis import review as R

GAMES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "review"
#: the server's default budget (``endeavor serve --review-iterations``), the review's own
SERVER_ITERATIONS = R.DEFAULT_ITERATIONS


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--iterations", type=int, default=SERVER_ITERATIONS)
    ap.add_argument("--policy", default=getattr(R, "DEFAULT_POLICY", None))
    ap.add_argument("--players", default="2,3,4,5")
    args = ap.parse_args(argv)
    options = {}
    if "policy" in inspect.signature(R.review).parameters and args.policy:
        options["policy"] = args.policy
    print(f"{endeavor.BUILD}; {args.iterations} iterations a decision"
          f"{', ' + args.policy + ' budget' if options else ''}; one process\n")
    print("| players | actions | decisions | CPU-s | CPU-ms a decision | labels |")
    print("|---|---|---|---|---|---|")
    for p in (int(x) for x in args.players.split(",")):
        record = json.loads((GAMES / f"game_{p}p.record.json").read_text())
        start = time.process_time()
        result = R.review(record, iterations=args.iterations, workers=1, **options)
        cpu = time.process_time() - start
        n = len(result.decisions)
        labels = Counter(d.label for d in result.decisions)
        words = ", ".join(f"{labels[x]} {x}" for x in R.LABELS if labels[x])
        print(f"| {p} | {len(record['actions'])} | {n} | {cpu:.1f} | {1000 * cpu / n:.0f} "
              f"| {words} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
