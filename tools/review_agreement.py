"""The label-agreement table of the post-game review (docs/performance.md): the review
at the server's default settings against a deep review of the same recorded games
(``tests/fixtures/review/game_{2,3,4,5}p.record.json``, made by ``tools/review_games.py``).

    PYTHONPATH=src python tools/review_agreement.py deep [--iterations 5000] [--every K]
        [--players 2,3,4,5]
    PYTHONPATH=src python tools/review_agreement.py table [--iterations N] [--players 2,3,4,5]

``deep`` reviews the games at the deep budget (a fixed budget; every decision, or every
K-th, a sample) and keeps what the table needs of each decision in
``tests/fixtures/review/deep.json`` (run it with ``nice -n 19``: about 25 CPU-minutes
for every decision of the four games at 5,000 iterations on the compiled build). ``table``
reviews them at ``N`` iterations (default: the server's, ``endeavor serve
--review-iterations``) and prints, per game, how many decisions get the deep review's
label, and how often the fast review calls the deep review's best move (the move played
when the deep review labels it ``best``) a mistake or a blunder, with the CPU-seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import endeavor
from endeavor.analysis import review as R
from endeavor.records import RECORD_FORMAT, replay

GAMES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "review"
DEEP = GAMES / "deep.json"
#: the server's default budget (``endeavor serve --review-iterations``), the review's own
SERVER_ITERATIONS = R.DEFAULT_ITERATIONS
KEEP = ("step", "seat", "played", "best", "label", "glory_loss", "win_loss")
BAD = ("mistake", "blunder")


def record(players: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GAMES / f"game_{players}p.record.json").read_text())
    return data


def reviewable(players: int) -> list[int]:
    """The steps of the game's decisions a review looks at (more than one legal action)."""
    data = record(players)
    state = replay({"format": RECORD_FORMAT, "version": 2, "config": data["config"],
                    "actions": []})
    steps = []
    for k, text in enumerate(data["actions"], 1):
        if len(state.legal_codes()) > 1:
            steps.append(k)
        state.apply(text)
    return steps


def deep(players: list[int], iterations: int, every: int) -> None:
    """Deep-review every ``every``-th decision of each game (a fixed budget), saving
    after each decision (a run stopped and started again goes on where it was)."""
    known: dict[str, Any] = json.loads(DEEP.read_text()) if DEEP.exists() else {}
    if known.get("iterations") not in (None, iterations):
        known = {}
    known.update({"iterations": iterations, "bot": R.REVIEW_BOT, "policy": "fixed"})
    games = known.setdefault("games", {})
    for p in players:
        start = time.process_time()
        have = games.setdefault(str(p), [])
        done = {d["step"] for d in have}
        for step in reviewable(p)[::every]:
            if step in done:
                continue
            result = R.review(record(p), iterations=iterations, policy="fixed", steps=[step])
            have.extend({k: d.to_dict()[k] for k in KEEP} for d in result.decisions)
            have.sort(key=lambda d: d["step"])
            DEEP.write_text(json.dumps(known, indent=0, sort_keys=True) + "\n",
                            encoding="utf-8")
        print(f"{p} players: {len(have)} decisions at {iterations} iterations, "
              f"{time.process_time() - start:.0f} CPU-s", flush=True)


def table(players: list[int], iterations: int, policy: str) -> None:
    ref: dict[str, Any] = json.loads(DEEP.read_text())
    print(f"Fast: {iterations} iterations a decision ({policy} budget), {endeavor.BUILD}; "
          f"deep: {ref['iterations']} iterations a decision, fixed budget, bot "
          f"{ref.get('bot', 'hard')}.\n")
    print("| players | decisions | same label | same best move | deep best called "
          "mistake/blunder | fast harsher | fast milder | CPU-s (fast) |")
    print("|---|---|---|---|---|---|---|---|")
    order = {label: i for i, label in enumerate(R.LABELS)}
    totals = [0, 0, 0, 0, 0, 0]
    for p in players:
        deep_ones = {d["step"]: d for d in ref["games"].get(str(p), [])}
        if not deep_ones:
            print(f"| {p} | (no deep review) | | | | | | |")
            continue
        start = time.process_time()
        result = R.review(record(p), iterations=iterations, policy=policy)
        cpu = time.process_time() - start
        n = same = best = called = harsher = milder = 0
        for d in result.decisions:
            ref_d = deep_ones.get(d.step)
            if ref_d is None:
                continue
            n += 1
            same += d.label == ref_d["label"]
            best += d.best == ref_d["best"]
            if ref_d["label"] == "best" and d.label in BAD:
                called += 1
            harsher += order[d.label] > order[ref_d["label"]]
            milder += order[d.label] < order[ref_d["label"]]
        for i, v in enumerate((n, same, best, called, harsher, milder)):
            totals[i] += v
        print(f"| {p} | {n} | {same} ({100 * same / n:.1f} %) | {best} ({100 * best / n:.1f} %) "
              f"| {called} | {harsher} | {milder} | {cpu:.1f} |", flush=True)
    n, same, best, called, harsher, milder = totals
    if n:
        print(f"| all | {n} | {same} ({100 * same / n:.1f} %) | {best} ({100 * best / n:.1f} %) "
              f"| {called} | {harsher} | {milder} | |")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("what", choices=("deep", "table"))
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--policy", default=R.DEFAULT_POLICY, choices=R.POLICIES)
    ap.add_argument("--players", default="2,3,4,5")
    ap.add_argument("--every", type=int, default=1,
                    help="deep: review every K-th decision only (a sample)")
    args = ap.parse_args(argv)
    players = [int(x) for x in args.players.split(",")]
    if args.what == "deep":
        deep(players, args.iterations or 5000, args.every)
    else:
        table(players, args.iterations or SERVER_ITERATIONS, args.policy)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
