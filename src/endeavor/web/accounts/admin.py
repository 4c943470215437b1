"""``endeavor admin``: the server's accounts from the command line, on the database of
``--db`` (SQLite or PostgreSQL, migrated to the latest schema first, as ``endeavor
serve`` does): list them, disable or enable one, and issue a one-time password-reset
link (valid one hour) that the player opens to choose a new password. Errors are one
line (:class:`endeavor.errors.UsageError`), never a traceback."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rich.console import Console
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from endeavor.errors import UsageError

from .. import db
from ..links import LinkError, Links
from ..store import Store, StoreError
from .service import RESET_SECONDS, Accounts

_T = TypeVar("_T")
#: where a reset link leads (its fragment: the token)
RESET_PATH = "/account/reset"


def run(args: argparse.Namespace, out: Console) -> int:
    """Run ``endeavor admin <what>`` (``args.what``: ``accounts``, ``disable``,
    ``enable`` or ``reset-link``)."""
    accounts = _open(args.db)
    try:
        return _guarded(lambda: _run(accounts, args, out))
    finally:
        accounts.store.engine.dispose()


def _run(accounts: Accounts, args: argparse.Namespace, out: Console) -> int:
    what = args.what
    if what == "accounts":
        rows = accounts.all()
        if not rows:
            out.print("no accounts")
            return 0
        out.print(f"{'name':<24}  {'created (UTC)':<16}  {'state':<8}  sessions  seats")
        for account, sessions, seats in rows:
            state = "disabled" if account.disabled else "active"
            out.print(f"{account.name:<24}  {account.created:%Y-%m-%d %H:%M}  {state:<8}  "
                      f"{sessions:>8}  {seats:>5}")
        out.print(f"{len(rows)} account{'s' if len(rows) != 1 else ''}")
        return 0
    if what in ("disable", "enable"):
        account = accounts.set_disabled(args.name, what == "disable")
        out.print(f"{account.name}: {what}d" + (" (every session ended)"
                                                 if what == "disable" else ""))
        return 0
    if what == "reset-link":
        try:
            links = Links(args.public_url) if args.public_url else Links.from_env()
        except LinkError as e:
            raise UsageError(str(e)) from None
        account, token = accounts.reset_token(args.name)
        out.print(f"A password-reset link for {account.name} (valid "
                  f"{RESET_SECONDS // 60} minutes, once):")
        out.print(links.page(f"{RESET_PATH}#{token}", absolute=True), soft_wrap=True)
        return 0
    raise UsageError(f"unknown admin command {what!r}")


def _open(url: str | None) -> Accounts:
    """The accounts of the database at ``url`` (migrated to the latest schema)."""
    try:
        resolved = db.resolve_url(url)
        parsed = make_url(resolved)
        if (parsed.get_backend_name() == "sqlite" and parsed.database
                and parsed.database != ":memory:"
                and not parsed.database.startswith("file:")
                and not Path(parsed.database).is_file()):
            raise UsageError(f"no database at {parsed.database} (give --db, or run "
                             "'endeavor serve' there first)")
        engine = db.make_engine(resolved, pool_size=1)
        db.upgrade(engine)
    except db.DatabaseError as e:
        raise UsageError(str(e)) from None
    return Accounts(Store(engine))


def _guarded(fn: Callable[[], _T]) -> _T:
    try:
        return fn()
    except StoreError as e:
        raise UsageError(str(e)) from None
    except SQLAlchemyError as e:
        message = " ".join(str(getattr(e, "orig", None) or e).split())
        raise UsageError(f"the database failed: {message}") from None
