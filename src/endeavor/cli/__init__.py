"""The ``endeavor`` command line: ``simulate``, ``play``, ``replay``, ``review``,
``bench``, ``tournament``, ``train``, ``serve``, ``admin`` and ``ratings``.

An adapter over the engine's public API. :func:`main` parses ``argv``, runs one
subcommand and returns its exit status: 0 on success (and for ``--help``), 2 when the
input is bad (a usage error, a number out of range, an impossible configuration, a
missing or unreadable file, a corrupt record), reported as one line
``endeavor: error: ...`` on stderr; no traceback ever reaches the user. Interactive
input is read with the builtin :func:`input` (with :mod:`readline` history when stdin is
a terminal), so it can come from a terminal, a pipe or a test.

``play`` draws the screen of :mod:`endeavor.terminal.screen` at each of the human's decisions:
redrawn in place on a terminal (its size is used), printed at 100×40 otherwise. The
other seats are played by bots of :mod:`endeavor.bots` (``--opponents``), and ``hint``
asks the strongest one (:data:`HINT_BOTS`) to rank the human's options.

One module per command (:mod:`~endeavor.cli.simulate`, :mod:`~endeavor.cli.play`,
:mod:`~endeavor.cli.replay`, :mod:`~endeavor.cli.review`, :mod:`~endeavor.cli.bench`,
:mod:`~endeavor.cli.tournament`, :mod:`~endeavor.cli.train`, :mod:`~endeavor.cli.serve`,
:mod:`~endeavor.cli.admin`, :mod:`~endeavor.cli.ratings`),
each with its
``add_parser(sub)``; the terminal session of ``play`` in :mod:`~endeavor.cli.session`;
what they share in :mod:`~endeavor.cli.common`. ``serve`` imports the
web app (:mod:`endeavor.web`) only when it runs, so the other commands work without
the ``web`` extra. This module builds the parser and runs :func:`main`; the names it
re-exports are the ones ``endeavor.cli`` has always offered. Patch a name where it is
used (e.g. ``endeavor.cli.play.DEFAULT_OPPONENT``, ``endeavor.cli.session.THINKING_AFTER``):
patching a re-export here changes nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from rich.console import Console

from .. import BUILD, __version__
from ..errors import EndeavorError
from . import admin, bench, play, ratings, replay, review, serve, simulate, tournament, train
from .common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    EXPLOITS_HELP,
    MAX_GAMES,
    MAX_RUNS,
    MAX_SECONDS,
    MAX_SEED,
    MAX_WORKERS,
    PIPE_HEIGHT,
    PIPE_WIDTH,
    HelpExit,
    Parser,
    UsageError,
    final_lines,
)
from .play import DEFAULT_OPPONENT, DEFAULT_PASS_WEIGHT
from .serve import MAX_PORT
from .session import (
    HINT_BOTS,
    HINT_SECONDS,
    HINT_TOP,
    PAGER_LEAVE,
    THINKING_AFTER,
    PlaySession,
    hint_bot_name,
    page,
    pager_command,
    pager_environment,
)

__all__ = [
    "DEFAULT_OPPONENT", "DEFAULT_PASS_WEIGHT", "EXIT_INTERRUPTED", "EXIT_OK", "EXIT_USAGE",
    "EXPLOITS_HELP", "HINT_BOTS", "HINT_SECONDS", "HINT_TOP", "MAX_GAMES", "MAX_PORT",
    "MAX_RUNS", "MAX_SECONDS", "MAX_SEED", "MAX_WORKERS", "PAGER_LEAVE", "PIPE_HEIGHT",
    "PIPE_WIDTH", "THINKING_AFTER", "PlaySession", "UsageError", "final_lines",
    "hint_bot_name", "main", "page", "pager_command", "pager_environment",
]


def _build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="endeavor",
        description="Endeavor: Age of Sail - play against bots, simulate random games, "
                    "replay and review game records, benchmark the rules engine, run "
                    "tournaments between bots and train the expert bot.",
        epilog="Run 'endeavor COMMAND --help' for the options of a command.")
    parser.add_argument("--version", action="version", version=f"endeavor {__version__} ({BUILD})",
                        help="print the version and which build of the engine runs "
                             "(compiled with mypyc, or pure Python), then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    simulate.add_parser(sub)  # in the order of --help
    play.add_parser(sub)
    replay.add_parser(sub)
    review.add_parser(sub)
    tournament.add_parser(sub)
    train.add_parser(sub)
    serve.add_parser(sub)
    admin.add_parser(sub)
    ratings.add_parser(sub)
    bench.add_parser(sub)
    return parser


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    try:
        args = _build_parser().parse_args(argv)
    except HelpExit as e:
        return e.status
    except UsageError as e:
        return _fail(str(e))
    out = Console(markup=False, highlight=False, emoji=False,
                  width=None if sys.stdout.isatty() else PIPE_WIDTH)
    run: Callable[[argparse.Namespace, Console], int] = args.run
    try:
        return run(args, out)
    except (UsageError, EndeavorError) as e:
        return _fail(str(e))
    except OSError as e:
        return _fail(_os_error(e))
    except KeyboardInterrupt:
        print("endeavor: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as e:  # never a traceback: one line, and the way to report it
        return _fail(f"unexpected {type(e).__name__}: {e} (please report this bug)")


def _fail(message: str) -> int:
    line = " ".join(str(message).split())
    print(f"endeavor: error: {line}", file=sys.stderr)
    return EXIT_USAGE


def _os_error(e: OSError) -> str:
    if e.filename is not None and e.strerror:
        return f"{e.filename}: {e.strerror}"
    return str(e)
