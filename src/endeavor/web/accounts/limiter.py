"""Failed sign-ins, counted in the database (so every worker of a server agrees): per
account name and per client address, at most :data:`MAX_FAILURES` each in
:data:`WINDOW_SECONDS`; then sign-ins of that name or from that address are refused
(429, with ``Retry-After``) until the oldest failure leaves the window. The name is
counted as typed, whether or not an account has it, so the limit says nothing about
which accounts exist."""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import Connection, and_, delete, func, insert, select

from endeavor.messages import Count, msg

from ..view import accountwords as words
from . import tables as db

#: failed sign-ins allowed per name and per address in the window
MAX_FAILURES: Final = 5
#: the window (seconds)
WINDOW_SECONDS: Final = 15 * 60


class TooManyAttempts(Exception):
    """Too many failed sign-ins: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        self.words = msg(words.TOO_MANY, wait=_wait(retry_after))
        super().__init__(self.words.render("en"))
        self.retry_after = retry_after


def _wait(seconds: int) -> Count:
    if seconds < 60:
        return Count(seconds, words.SECOND)
    return Count(math.ceil(seconds / 60), words.MINUTE)


def keys(name_key: str, address: str | None) -> tuple[str, str]:
    """The limiter's keys of a sign-in: its name and its client's address."""
    return f"name:{name_key[:120]}", f"addr:{(address or 'unknown')[:120]}"


def check(conn: Connection, keys: Iterable[str], now: datetime,
          limit: int = MAX_FAILURES) -> None:
    """:class:`TooManyAttempts` when one of ``keys`` has ``limit`` failures (or, for the
    mailed links, requests) in the window."""
    t = db.signin_failures
    since = now - timedelta(seconds=WINDOW_SECONDS)
    wait = 0
    for key in keys:
        times = [r.at for r in conn.execute(
            select(t.c.at).where(and_(t.c.key == key, t.c.at > since))
            .order_by(t.c.at.desc()).limit(limit))]
        if len(times) >= limit:
            oldest = min(times)
            oldest = oldest if oldest.tzinfo is not None else oldest.replace(tzinfo=now.tzinfo)
            left = (oldest + timedelta(seconds=WINDOW_SECONDS) - now).total_seconds()
            wait = max(wait, max(1, math.ceil(left)))
    if wait:
        raise TooManyAttempts(wait)


def record(conn: Connection, keys: Iterable[str], now: datetime) -> None:
    """A failed sign-in under each of ``keys``; failures older than the window go."""
    t = db.signin_failures
    conn.execute(delete(t).where(t.c.at <= now - timedelta(seconds=WINDOW_SECONDS)))
    conn.execute(insert(t), [{"key": k, "at": now} for k in keys])


def count(conn: Connection, key: str, now: datetime) -> int:
    """The failures of ``key`` in the window."""
    t = db.signin_failures
    since = now - timedelta(seconds=WINDOW_SECONDS)
    return int(conn.execute(select(func.count()).select_from(t)
                            .where(and_(t.c.key == key, t.c.at > since))).scalar() or 0)
