"""``endeavor ratings calibrate``: the bot levels' seed ratings from tournament results
(:mod:`endeavor.web.ratings.calibrate`, imported only when the command runs: it needs
the web extra's openskill)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table

from .common import UsageError, _web_module


def add_parser(sub: Any) -> None:
    """The ``ratings`` subcommand and its own subcommands."""
    a = sub.add_parser(
        "ratings", help="the web app's ratings: calibrate the bot levels",
        description="The web app's ratings (OpenSkill). Needs pip install 'endeavor[web]'.")
    what = a.add_subparsers(dest="what", metavar="WHAT", required=True)
    c = what.add_parser(
        "calibrate", help="the bot levels' seed ratings from tournament results",
        description="Rate the games of endeavor tournament results files (--out) with the "
                    "server's model, file after file, and print each ruleset family's "
                    "levels; --out writes the calibration the server seeds bots with "
                    "(src/endeavor/web/ratings/calibration.json).",
        epilog="example: endeavor ratings calibrate aos.json classic.json --out "
               "calibration.json")
    c.add_argument("files", metavar="RESULTS", nargs="+",
                   help="endeavor tournament --out files (bots: easy, medium, hard, expert)")
    c.add_argument("--out", metavar="FILE", default=None, help="write the calibration here")
    a.set_defaults(run=_ratings)


def _ratings(args: argparse.Namespace, out: Console) -> int:
    module = _web_module("ratings.calibrate")
    try:
        result, written = module.run(args.files, args.out)
    except module.CalibrationError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"--out {args.out}: {e.strerror or e}") from None
    table = Table("Family", "Level", "Rating", "mu", "sigma", "Games", "Ordered")
    for family, levels in result["families"].items():
        for level, r in levels.items():
            table.add_row(family, level, f"{r['rating']:.1f}", f"{r['mu']:.2f}",
                          f"{r['sigma']:.2f}", str(r["games"]),
                          "yes" if result["ordered"][family] else
                          "no: " + " < ".join(result["order"][family]))
    out.print(table)
    if written is not None:
        out.print(f"Saved the calibration to {written}")
    return 0
