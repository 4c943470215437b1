"""``endeavor admin``: the accounts of a server's database (:mod:`endeavor.web.accounts
.admin`, imported only when the command runs: the other commands work without the web
extra)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from .common import _web_module

_DB_HELP = ("SQLAlchemy database URL of the server (default: sqlite:///endeavor.db in the "
            "current directory, or $ENDEAVOR_DB), e.g. "
            "postgresql+psycopg://USER:PASS@HOST/DB")


def add_parser(sub: Any) -> None:
    """The ``admin`` subcommand and its own subcommands."""
    a = sub.add_parser(
        "admin", help="the web server's accounts: list, disable, enable, reset a password",
        description="Manage the web app's player accounts in its database (SQLite or "
                    "PostgreSQL). Needs pip install 'endeavor[web]'.",
        epilog="example: endeavor admin accounts --db sqlite:///endeavor.db")
    what = a.add_subparsers(dest="what", metavar="WHAT", required=True)
    listing = what.add_parser("accounts", help="list the accounts",
                              description="List the accounts: name, when created, "
                                          "active or disabled, sessions, seats claimed.")
    listing.add_argument("--db", metavar="URL", default=None, help=_DB_HELP)
    for name, text in (("disable", "disable an account: its sessions end and it can no "
                                   "longer sign in"),
                       ("enable", "enable a disabled account again")):
        p = what.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".")
        p.add_argument("name", metavar="NAME", help="the account's name (case aside)")
        p.add_argument("--db", metavar="URL", default=None, help=_DB_HELP)
    r = what.add_parser("reset-link", help="print a one-time password-reset link (1 hour)",
                        description="Print a link with which the account's player sets a "
                                    "new password: valid one hour, once; every session of "
                                    "the account ends when it is used.")
    r.add_argument("name", metavar="NAME", help="the account's name (case aside)")
    r.add_argument("--db", metavar="URL", default=None, help=_DB_HELP)
    r.add_argument("--public-url", metavar="URL", default=None,
                   help="the address players reach the app at, as given to endeavor serve "
                        "(default: $ENDEAVOR_PUBLIC_URL, else http://127.0.0.1:8000)")
    a.set_defaults(run=_admin)


def _admin(args: argparse.Namespace, out: Console) -> int:
    result: int = _web_module("accounts.admin").run(args, out)
    return result
