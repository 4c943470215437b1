"""The store's small values: the tokens (a seat's derived from the host's, both stored
as digests) and the times (UTC, and the store's clock seam)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import sys
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Final

#: the package, whose ``clock`` attribute is the store's clock (see :func:`now`)
_PACKAGE: Final = sys.modules[__name__.rpartition(".")[0]]


def hash_token(token: str) -> str:
    """The SHA-256 hex digest a token is stored as."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_token(host_token: str, game_id: str, key: str, gen: int) -> str:
    """The token of a seat: an HMAC-SHA256 of the game id, the seat's ``key`` (its
    number, or ``hotseat`` for the hot-seat seats, which share one) and its link
    generation ``gen``, keyed by the host's token (43 URL-safe characters, 256 bits)."""
    mac = hmac.new(host_token.encode("utf-8"), f"endeavor-seat:{game_id}:{key}:{gen}"
                   .encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")


def utcnow() -> datetime:
    """Now, as an aware UTC datetime."""
    return datetime.now(timezone.utc)


def now() -> datetime:
    """Now by the store's clock: :data:`endeavor.web.store.clock`, looked up at each call
    (a test of the clocks sets it: ``monkeypatch.setattr(endeavor.web.store, "clock", f)``),
    which is when a decision starts and ends, a seat is given to a bot, ..."""
    tick: Callable[[], datetime] = _PACKAGE.clock
    return tick()


def utc(dt: datetime) -> datetime:
    """A timestamp read back from the database as an aware UTC datetime (SQLite returns
    naive ones)."""
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=timezone.utc)


def utc_or_none(dt: datetime | None) -> datetime | None:
    return utc(dt) if dt is not None else None
