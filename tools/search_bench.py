"""Iterations per CPU second of ``hard``'s tree search (the ``mcts`` bot with ``hard``'s
settings, on an iteration budget), on the pure-Python and the compiled (mypyc) build,
before and after a change, side by side with OpenSpiel's C++ MCTS (``pyspiel.MCTSBot``)
and its Python MCTS (``open_spiel.python.algorithms.mcts``), both with a random-rollout
evaluator, on OpenSpiel games of comparable branching: hearts (a card game of 4
players, 9 legal moves on average at a decision with a choice against Endeavor's 4 to
5, a few dozen decisions a game) and connect four (like Endeavor deterministic and
fully open, at most 7 moves).

Every figure is measured in its own interpreter (a worker: this script with
``--worker``), in CPU time (``time.process_time``), and the builds take turns round
after round, so that the machine's load hits them alike; the table gives each one's
median over the rounds and its ratio to this checkout's compiled build.

The builds:

* this checkout: pure with ``--python`` (default: the interpreter running this script)
  and ``PYTHONPATH=src``; compiled with ``.venv-mypyc/bin/python`` (``make compiled``),
  or ``--compiled PYTHON``;
* ``--before REF``: the source of the git ref REF (extracted into
  ``.bench/search/<commit>/``), pure with ``--python``; compiled with ``--before-compiled
  PYTHON`` (an interpreter whose installed engine is REF's compiled build), else built
  there once (``ENDEAVOR_MYPYC=1 pip install``, several minutes) and reused next time;
  ``--no-build`` leaves it out instead;
* OpenSpiel: with ``--python`` (it must have ``pyspiel``; the compiled venv has not).

Endeavor's positions are the same for every build: those with a choice (4) among 7
seeded 4-player Age of Sail games after 20 to 140 decisions of random play (passing
rarely); OpenSpiel's are the game's
positions after a few random moves. The table also gives each game's mean branching
(legal actions at decisions with a choice, over random play).

usage: python tools/search_bench.py [--before REF] [--rounds 5] [--iterations 300] ...
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Endeavor's positions: (seed, random decisions before the search)
POSITIONS = ((11, 20), (12, 50), (13, 80), (14, 110), (15, 140), (16, 35), (17, 95))


# ---------------------------------------------------------------------- the workers
def positions() -> tuple[list[Any], list[int]]:
    """The states of :data:`POSITIONS` with a choice, and the number of legal actions at
    every decision with a choice on the way to them."""
    from endeavor import GameConfig, new_game
    from endeavor.bots import RandomBot

    states: list[Any] = []
    branching: list[int] = []
    for seed, plies in POSITIONS:
        state = new_game(GameConfig(players=4, seed=seed))
        rnd = RandomBot(seed, pass_weight=0.1)
        for _ in range(plies):
            if state.is_over:
                break
            codes = state.legal_codes()
            if len(codes) > 1:
                branching.append(len(codes))
            state.apply_code(rnd.choose_code(state))
        if not state.is_over and len(state.legal_codes()) > 1:
            states.append(state)
    return states, branching


def endeavor_worker(iterations: int) -> dict[str, Any]:
    """``hard``'s search on :data:`POSITIONS`: iterations per CPU second."""
    import endeavor
    from endeavor.bots import MCTSBot

    states, branching = positions()
    for k, state in enumerate(states):  # warm up
        MCTSBot(k, iterations=20).choose_code(state)
    done = 0
    start = time.process_time()
    for k, state in enumerate(states):
        bot = MCTSBot(k, iterations=iterations)
        bot.choose_code(state)
        done += bot.last_iterations
    cpu = time.process_time() - start
    compiled = not endeavor.__file__.endswith(".py")
    return {"iterations": done, "cpu": cpu, "per_second": done / cpu,
            "build": "compiled" if compiled else "pure", "source": endeavor.__file__,
            "branching": statistics.mean(branching)}


def _openspiel_positions(game: Any, count: int, seed: int) -> tuple[list[Any], float]:
    """``count`` positions after 4 to 30 random decisions (a decision: a move with a
    choice, not chance), and the mean branching of the decisions along the way."""
    import random
    rng = random.Random(seed)
    states: list[Any] = []
    branching: list[int] = []
    while len(states) < count:
        state = game.new_initial_state()
        depth = rng.randrange(4, 30)
        made = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1:
                if made == depth:
                    states.append(state.clone())
                    break
                branching.append(len(legal))
                made += 1
            state.apply_action(rng.choice(legal))
    return states, statistics.mean(branching)


def openspiel_worker(kind: str, game_name: str, simulations: int) -> dict[str, Any]:
    """OpenSpiel's MCTS (``cpp`` or ``python``) with one random rollout per leaf."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game(game_name)
    states, branching = _openspiel_positions(game, 6, 1)
    uct_c = 2.0
    if kind == "cpp":
        def make(k: int) -> Any:
            evaluator = pyspiel.RandomRolloutEvaluator(1, k)
            return pyspiel.MCTSBot(game, evaluator, uct_c, simulations, 1000, False, k, False)
    else:
        from open_spiel.python.algorithms import mcts

        def make(k: int) -> Any:
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(k))
            return mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False,
                                random_state=np.random.RandomState(k))
    make(0).step(states[0].clone())  # warm up
    start = time.process_time()
    for k, state in enumerate(states):
        make(k).step(state.clone())
    cpu = time.process_time() - start
    done = simulations * len(states)
    return {"iterations": done, "cpu": cpu, "per_second": done / cpu,
            "build": f"openspiel {kind}", "game": game_name, "branching": branching}


# ---------------------------------------------------------------------- the builds
class Build:
    """One column of the table: a name, an interpreter and its environment."""

    def __init__(self, name: str, python: str, args: list[str], src: Path | None) -> None:
        self.name = name
        self.python = python
        self.args = args
        self.src = src
        self.runs: list[dict[str, Any]] = []

    def run(self) -> dict[str, Any]:
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        if self.src is not None:
            env["PYTHONPATH"] = str(self.src)
        out = subprocess.run([self.python, str(Path(__file__).resolve()), "--worker", *self.args],
                             env=env, cwd="/", capture_output=True, text=True, check=False)
        if out.returncode:
            raise SystemExit(f"search_bench: the {self.name} run failed:\n{out.stderr}")
        got: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
        self.runs.append(got)
        return got


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def _checkout(ref: str) -> Path:
    """REF's source tree under .bench/search/<commit>/ (extracted once)."""
    commit = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    where = ROOT / ".bench" / "search" / commit
    if not (where / "src" / "endeavor").is_dir():
        where.mkdir(parents=True, exist_ok=True)
        archive = where / "source.tar"
        _git("archive", "--format=tar", "-o", str(archive), commit)
        with tarfile.open(archive) as tar:
            tar.extractall(where, filter="data")
        archive.unlink()
    return where


def _compiled_at(tree: Path, base_python: str) -> str:
    """The interpreter of ``tree``'s compiled build, built there once."""
    venv = tree / ".venv-mypyc"
    python = venv / "bin" / "python"
    stamp = venv / ".installed-compiled"
    if not stamp.exists():
        print(f"search_bench: building the compiled engine of {tree.name[:12]} "
              "(several minutes)...", file=sys.stderr)
        subprocess.run([base_python, "-m", "venv", str(venv)], check=True)
        env = dict(os.environ, ENDEAVOR_MYPYC="1")
        env.pop("PYTHONPATH", None)
        subprocess.run([str(python), "-m", "pip", "install", "-q", str(tree)], env=env,
                       cwd=str(tree), check=True)
        stamp.touch()
    return str(python)


def _base_python(python: str) -> str:
    """The interpreter a venv was made from (for a new venv of the same version)."""
    out = subprocess.run([python, "-c", "import sys; print(sys._base_executable)"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/search_bench.py",
        description="Iterations per CPU second of hard's search, pure and compiled, "
                    "before and after, beside OpenSpiel's C++ and Python MCTS.")
    parser.add_argument("--before", metavar="REF",
                        help="also measure the git ref REF (e.g. main), pure and compiled")
    parser.add_argument("--python", default=sys.executable,
                        help="the pure interpreter, with pyspiel for OpenSpiel (default: "
                             "this one)")
    parser.add_argument("--compiled", metavar="PYTHON",
                        help="this checkout's compiled interpreter (default "
                             ".venv-mypyc/bin/python)")
    parser.add_argument("--before-compiled", metavar="PYTHON",
                        help="an interpreter with REF's compiled build installed (default: "
                             "build it under .bench/search/)")
    parser.add_argument("--no-build", action="store_true",
                        help="leave REF's compiled build out rather than build it")
    parser.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel out")
    parser.add_argument("--game", default="hearts,connect_four",
                        help="the OpenSpiel games, comma-separated (default "
                             "hearts,connect_four)")
    parser.add_argument("--iterations", type=int, default=300,
                        help="iterations per Endeavor position (pure builds: a third)")
    parser.add_argument("--simulations", type=int, default=2000,
                        help="simulations per OpenSpiel position (Python MCTS: a tenth)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind = args.worker[0]
        if kind == "endeavor":
            got = endeavor_worker(int(args.worker[1]))
        else:
            got = openspiel_worker(kind, args.worker[1], int(args.worker[2]))
        print(json.dumps(got))
        return 0

    pure_its = str(max(1, args.iterations // 3))
    its = str(args.iterations)
    builds = [Build("Endeavor pure", args.python, ["endeavor", pure_its], ROOT / "src")]
    compiled = args.compiled or str(ROOT / ".venv-mypyc" / "bin" / "python")
    if not Path(compiled).exists():
        raise SystemExit(f"search_bench: no compiled build at {compiled} (make compiled, "
                         "or --compiled PYTHON)")
    builds.append(Build("Endeavor compiled", compiled, ["endeavor", its], None))
    if args.before:
        tree = _checkout(args.before)
        builds.insert(0, Build(f"{args.before} pure", args.python, ["endeavor", pure_its],
                               tree / "src"))
        before = args.before_compiled
        if before is None and not args.no_build:
            before = _compiled_at(tree, _base_python(args.python))
        if before is not None:
            builds.insert(1, Build(f"{args.before} compiled", before, ["endeavor", its], None))
    if not args.no_openspiel:
        for game in args.game.split(","):
            builds.append(Build(f"OpenSpiel C++ MCTS, {game}", args.python,
                                ["cpp", game, str(args.simulations)], None))
            builds.append(Build(f"OpenSpiel Python MCTS, {game}", args.python,
                                ["python", game, str(max(1, args.simulations // 10))], None))
    for r in range(args.rounds):
        for b in builds:
            got = b.run()
            print(f"round {r + 1}: {b.name}: {got['per_second']:,.0f} iterations/CPU s",
                  file=sys.stderr)
    ref = next(b for b in builds if b.name == "Endeavor compiled")
    ref_speed = statistics.median(x["per_second"] for x in ref.runs)
    rows = []
    for b in builds:
        speed = statistics.median(x["per_second"] for x in b.runs)
        rows.append({"build": b.name, "per_second": speed,
                     "low": min(x["per_second"] for x in b.runs),
                     "high": max(x["per_second"] for x in b.runs),
                     "branching": b.runs[0]["branching"],
                     "to_compiled": speed / ref_speed})
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"\niterations per CPU second, median of {args.rounds} rounds (range); ratio to "
          "this checkout's compiled build\n")
    print("| search | iterations/CPU s | range | mean branching | ratio |")
    print("|---|---:|---|---:|---:|")
    for row in rows:
        print(f"| {row['build']} | {row['per_second']:,.0f} | {row['low']:,.0f}–"
              f"{row['high']:,.0f} | {row['branching']:.1f} | {row['to_compiled']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
