"""CPU instructions per iteration of ``hard``'s tree search (the ``mcts`` bot with
``hard``'s settings on an iteration budget), counted by valgrind's callgrind: the
deterministic measure of ``docs/performance.md``'s search table, which machine load does
not disturb.

The positions are ``tools/search_bench.py``'s (those with a choice among 7 seeded
4-player Age of Sail games after 20 to 140 decisions of random play); each is searched
once with 20 iterations to warm up, then with ``ITERATIONS`` (default 150). The searches
run between two calls of ``os.getppid()``, and callgrind runs with
``--dump-before=getppid``, so they are one callgrind dump of their own, without the
start-up, the set-up and the exit.

usage:
  python tools/callgrind_search.py [--python PYTHON] [--tree TREE] [--iterations N]

``--python`` is the interpreter to measure (a compiled venv's measures that build;
default: this one), ``--tree`` a source tree put first on ``PYTHONPATH`` (to measure
another checkout's pure build); prints the instructions per iteration."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_bench import positions  # noqa: E402


def searches(iterations: int) -> None:
    """The measured run (under callgrind): the searches between two markers."""
    from endeavor.bots import MCTSBot

    states, _ = positions()
    for k, state in enumerate(states):  # warm up
        MCTSBot(k, iterations=20).choose_code(state)
    os.getppid()  # the marker: a callgrind dump before it
    done = 0
    for k, state in enumerate(states):
        bot = MCTSBot(k, iterations=iterations)
        bot.choose_code(state)
        done += bot.last_iterations
    os.getppid()
    print("iterations", done)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter to measure")
    parser.add_argument("--tree", help="a source tree to measure (its src/ on PYTHONPATH)")
    parser.add_argument("--iterations", type=int, default=150,
                        help="iterations a search (default 150)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        searches(args.iterations)
        return 0
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("callgrind_search: valgrind is not installed (apt install valgrind)",
              file=sys.stderr)
        return 2
    env = dict(os.environ)
    if args.tree:
        env["PYTHONPATH"] = str(Path(args.tree) / "src")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        run = subprocess.run(
            [valgrind, "--tool=callgrind", "--dump-before=getppid",
             f"--callgrind-out-file={out}", args.python, __file__, "--worker",
             "--iterations", str(args.iterations)],
            env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr[-2000:], file=sys.stderr)
            return run.returncode
        done = int(run.stdout.split("iterations")[-1])
        dump = Path(f"{out}.2")
        total = next(int(line.split()[1]) for line in dump.read_text().splitlines()
                     if line.startswith("summary:"))
    print(f"{args.python}{' ' + args.tree if args.tree else ''}: "
          f"{total / done:,.0f} instructions an iteration ({done} iterations)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
