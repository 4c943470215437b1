"""``endeavor loadtest``: many concurrent games through the web app's HTTP API,
measured (:mod:`endeavor.web.loadtest`, imported only when the command runs)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from .common import _ranged, _seed, _web_module, _web_workers

_load_games = _ranged(int, lambda v: 1 <= v <= 5_000, "1 to 5,000")
_think = _ranged(float, lambda v: 0.0 <= v <= 60.0, "0 to 60 seconds")
_rate = _ranged(float, lambda v: 0.0 <= v <= 1.0, "0 to 1")
_clock_seconds = _ranged(float, lambda v: 1.0 <= v <= 86_400.0, "1 to 86,400 seconds")


def add_parser(sub: Any) -> None:
    """The ``loadtest`` subcommand's options."""
    lt = sub.add_parser(
        "loadtest", help="drive many concurrent games through the HTTP API and measure",
        description="Start the web app in another process (or use --url), create G games "
                    "and play them concurrently through the HTTP API, with a WebSocket "
                    "per game; report the move round trip (p50/p95/p99), moves/s, errors "
                    "and lost moves (every acknowledged move checked against the "
                    "game's record at the end).",
        epilog="example: endeavor loadtest --games 200 --db postgresql+psycopg:///endeavor")
    lt.add_argument("--games", type=_load_games, default=200, metavar="G",
                    help="concurrent games, 1 to 5,000 (default: 200)")
    lt.add_argument("--moves", type=_load_games, default=20, metavar="M",
                    help="moves per game, 1 to 5,000 (default: 20)")
    lt.add_argument("--db", metavar="URL", default=None,
                    help="database of the server started for the test (default: a new "
                         "SQLite file in a temporary directory)")
    lt.add_argument("--url", metavar="URL", default=None,
                    help="test a server that is already running at URL instead")
    lt.add_argument("--workers", type=_web_workers, default=1, metavar="N",
                    help="Uvicorn workers of the server started for the test (default: 1)")
    lt.add_argument("--think", type=_think, default=1.0, metavar="T",
                    help="each player's mean pause before a move, in seconds (uniform from "
                         "0 to 2T), 0 to 60; 0 plays every game as fast as the server "
                         "answers, a closed loop measuring throughput (default: 1)")
    lt.add_argument("--clock", type=_clock_seconds, default=None, metavar="S",
                    help="give every game a turn-based clock of S seconds per decision "
                         "(1 to 86,400; default: no clock)")
    lt.add_argument("--notify", action="store_true",
                    help="every seat sets a webhook to a receiver the load test runs on "
                         "loopback: the server sends a turn notification at each change "
                         "of turn while the moves are measured (a server given with --url "
                         "must allow private webhooks)")
    lt.add_argument("--chat", type=_rate, default=0.0, metavar="P",
                    help="before a move, the seat to move posts a chat message with "
                         "probability P, 0 to 1 (default: 0, no chat); the chat's round "
                         "trips are reported apart")
    lt.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed (default: 0)")
    lt.add_argument("--json", action="store_true", help="print one JSON object")
    lt.add_argument("--quiet", action="store_true", help="no progress bar")
    lt.set_defaults(run=_loadtest)


def _loadtest(args: argparse.Namespace, out: Console) -> int:
    result: int = _web_module("loadtest").run(args, out)
    return result
