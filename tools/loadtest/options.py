"""The load test's command line (``python -m tools.loadtest`` from a checkout, or
``make loadtest ARGS=...``): its options and :func:`main`."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from endeavor.cli.common import EXIT_INTERRUPTED, EXIT_USAGE, HelpExit, Parser, ranged
from endeavor.errors import UsageError

from .command import run
from .server import LoadTestError

PROG = "python -m tools.loadtest"
#: what each line of an error begins with
NAME = "loadtest"

_count = ranged(int, lambda v: 1 <= v <= 5_000, "1 to 5,000")
_workers = ranged(int, lambda v: 1 <= v <= 64, "1 to 64")
_think = ranged(float, lambda v: 0.0 <= v <= 60.0, "0 to 60 seconds")
_rate = ranged(float, lambda v: 0.0 <= v <= 1.0, "0 to 1")
_clock = ranged(float, lambda v: 1.0 <= v <= 86_400.0, "1 to 86,400 seconds")
_seed = ranged(int, lambda v: 0 <= v <= 2**63 - 1, f"0 to {2**63 - 1}")


def parser() -> argparse.ArgumentParser:
    """The load test's options."""
    p = Parser(
        prog=PROG,
        description="Start the web app in another process (or use --url), create G games "
                    "and play them concurrently through the HTTP API, with a WebSocket "
                    "per game; report the move round trip (p50/p95/p99), moves/s, errors "
                    "and lost moves (every acknowledged move checked against the "
                    "game's record at the end).",
        epilog=f"example: {PROG} --games 200 --db postgresql+psycopg:///endeavor")
    p.add_argument("--games", type=_count, default=200, metavar="G",
                   help="concurrent games, 1 to 5,000 (default: 200)")
    p.add_argument("--moves", type=_count, default=20, metavar="M",
                   help="moves per game, 1 to 5,000 (default: 20)")
    p.add_argument("--db", metavar="URL", default=None,
                   help="database of the server started for the test (default: a new "
                        "SQLite file in a temporary directory)")
    p.add_argument("--url", metavar="URL", default=None,
                   help="test a server that is already running at URL instead")
    p.add_argument("--workers", type=_workers, default=1, metavar="N",
                   help="Uvicorn workers of the server started for the test (default: 1)")
    p.add_argument("--think", type=_think, default=1.0, metavar="T",
                   help="each player's mean pause before a move, in seconds (uniform from "
                        "0 to 2T), 0 to 60; 0 plays every game as fast as the server "
                        "answers, a closed loop measuring throughput (default: 1)")
    p.add_argument("--clock", type=_clock, default=None, metavar="S",
                   help="give every game a turn-based clock of S seconds per decision "
                        "(1 to 86,400; default: no clock)")
    p.add_argument("--notify", action="store_true",
                   help="every seat sets a webhook to a receiver the load test runs on "
                        "loopback: the server sends a turn notification at each change "
                        "of turn while the moves are measured (a server given with --url "
                        "must allow private webhooks)")
    p.add_argument("--chat", type=_rate, default=0.0, metavar="P",
                   help="before a move, the seat to move posts a chat message with "
                        "probability P, 0 to 1 (default: 0, no chat); the chat's round "
                        "trips are reported apart")
    p.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed (default: 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the load test on ``argv`` (default ``sys.argv[1:]``); return the exit status:
    0 when every move was acknowledged and kept, 1 otherwise, 2 for bad input (one line
    on stderr), 130 when interrupted."""
    try:
        args = parser().parse_args(argv)
    except HelpExit as e:
        return e.status
    except UsageError as e:
        return _fail(str(e))
    out = Console(markup=False, highlight=False, emoji=False,
                  width=None if sys.stdout.isatty() else 100)
    try:
        return run(args, out)
    except LoadTestError as e:
        return _fail(str(e))
    except OSError as e:
        return _fail(f"{e.filename}: {e.strerror}" if e.filename and e.strerror else str(e))
    except KeyboardInterrupt:
        print(f"{NAME}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as e:  # never a traceback: one line
        return _fail(f"unexpected {type(e).__name__}: {e}")


def _fail(message: str) -> int:
    line = " ".join(str(message).split())
    print(f"{NAME}: error: {line}", file=sys.stderr)
    return EXIT_USAGE
