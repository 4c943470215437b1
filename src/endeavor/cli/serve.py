"""``endeavor serve``: the browser app (:mod:`endeavor.web.server`, imported only when
the command runs: the other commands work without the web extra)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from ..analysis.review import MAX_ITERATIONS
from .common import _web_module, _web_workers, ranged

MAX_PORT = 65_535
_port = ranged(int, lambda v: 1 <= v <= MAX_PORT, f"1 to {MAX_PORT:,}")
#: ``endeavor.web.reviews.DEFAULT_ITERATIONS`` (this module does not import the web
#: extra; tests/web check the two agree)
DEFAULT_REVIEW_ITERATIONS = 200
_review_iterations = ranged(int, lambda v: 0 <= v <= MAX_ITERATIONS,
                             f"0 (no reviews) to {MAX_ITERATIONS:,}")


def add_parser(sub: Any) -> None:
    """The ``serve`` subcommand's options."""
    s = sub.add_parser(
        "serve", help="run the web app: play in the browser",
        description="Serve the browser app and its HTTP API (FastAPI under Uvicorn). The "
                    "database is the source of truth: a game is its config plus an "
                    "append-only list of actions. SQLite by default (a file, created "
                    "with its tables on first use); PostgreSQL with "
                    "--db postgresql+psycopg://USER:PASS@HOST/DB. Needs "
                    "pip install 'endeavor[web]'.",
        epilog="example: endeavor serve --port 8000 --db sqlite:///endeavor.db")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: "
                   "127.0.0.1, this machine only)")
    s.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    s.add_argument("--db", metavar="URL", default=None,
                   help="SQLAlchemy database URL (default: sqlite:///endeavor.db in the "
                        "current directory, or $ENDEAVOR_DB)")
    s.add_argument("--workers", type=_web_workers, default=1, metavar="N",
                   help="Uvicorn worker processes, 1 to 64 (default: 1; several need a "
                        "database they can share: PostgreSQL, or one SQLite file)")
    s.add_argument("--log-level", default="warning",
                   choices=("critical", "error", "warning", "info", "debug"),
                   help="Uvicorn's log level (default: warning)")
    s.add_argument("--public-url", metavar="URL", default=None,
                   help="the address players reach the app at (e.g. "
                        "https://games.example.org or https://example.org/endeavor behind "
                        "a reverse proxy): seat, host and spectator links, notifications "
                        "and e-mails use it (default: links are paths, and messages use "
                        "http://HOST:PORT)")
    s.add_argument("--forwarded-allow-ips", metavar="IPS", default=None,
                   help="the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto "
                        "headers are believed (the client's address and http/https): "
                        "addresses or networks, comma-separated, e.g. 127.0.0.1 or "
                        "127.0.0.1,10.0.0.0/8 (default: none; these headers are ignored)")
    s.add_argument("--smtp", metavar="URL", default=None,
                   help="send turn e-mails through this SMTP server: "
                        "smtp://USER@HOST:587 (STARTTLS), smtps://USER@HOST:465 "
                        "(TLS) or smtp://HOST:25 (plain, e.g. a local relay); needs "
                        "--mail-from. The password: --smtp-password-file, or "
                        "$ENDEAVOR_SMTP_PASSWORD, or USER:PASS@ in the URL (which anyone "
                        "on the machine can read in ps: a warning says so, and another "
                        "when a login would go unencrypted). Each e-mail or webhook send "
                        "gets 10 s in all; a failed one is tried again after 10 s, 1 min, "
                        "5 min, 30 min and 2 h, then given up")
    s.add_argument("--smtp-password-file", metavar="PATH", default=None,
                   help="read the SMTP password from the first line of this file (e.g. a "
                        "secret mounted by systemd or Docker) rather than the command line")
    s.add_argument("--mail-from", metavar="ADDRESS", default=None,
                   help="the sender of turn e-mails, e.g. endeavor@example.org")
    s.add_argument("--allow-private-webhooks", action="store_true",
                   help="let players set webhooks on loopback and private network "
                        "addresses (a LAN, tests); refused by default")
    s.add_argument("--digest-hours", type=float, default=None, metavar="HOURS",
                   help="a player who chose 'a digest' for a notification channel gets at "
                        "most one message in this time (default: 12)")
    s.add_argument("--review-iterations", type=_review_iterations, default=None,
                   metavar="N",
                   help="the post-game review of every finished game (the Review tab): "
                        "iterations of the hard bot's search per decision, run in the "
                        f"background, one game at a time on one core (default: "
                        f"{DEFAULT_REVIEW_ITERATIONS}; 0: no reviews)")
    s.add_argument("--engine-python", metavar="PATH", default=None,
                   help="the interpreter whose engine computes the search bots' moves and "
                        "the reviews, in worker processes: 'auto' (default, or "
                        "$ENDEAVOR_ENGINE_PYTHON): the compiled build of this checkout "
                        "(.venv-mypyc, which make serve builds in the background) as "
                        "soon as it is built, this server's own build until then; the "
                        "path of a compiled install's python (it must have the same "
                        "engine sources); 'pure': this server's own build only")
    s.set_defaults(run=_serve)


def _serve(args: argparse.Namespace, out: Console) -> int:
    result: int = _web_module("server").serve(args, out)
    return result
