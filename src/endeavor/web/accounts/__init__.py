"""Optional accounts (docs/web.md, "Accounts"): a display name and a password (hashed
with Argon2id: :mod:`.passwords`), server-side sessions (a random token, kept as its
digest, in an ``HttpOnly`` cookie or a bearer header), failed sign-ins limited per name
and per client address in the database (:mod:`.limiter`), seats claimed by an account
and "Your games" on any device, the account's data and its deletion (:mod:`.seats`),
and what ``endeavor admin`` does (:mod:`.admin`).

A guest with a seat's link plays exactly as without accounts: nothing here is needed
to play. The HTTP side is :mod:`endeavor.web.routes.accounts`."""

from __future__ import annotations

from . import mailtables, tables
from .limiter import MAX_FAILURES, WINDOW_SECONDS, TooManyAttempts
from .passwords import MAX_PASSWORD, MIN_PASSWORD
from .seats import DEFAULT_HEIR, Claim, Held, SeatClaims
from .service import RESET_SECONDS, SESSION_DAYS, WRONG, Account, Accounts

__all__ = ["DEFAULT_HEIR", "MAX_FAILURES", "MAX_PASSWORD", "MIN_PASSWORD", "RESET_SECONDS",
           "SESSION_DAYS", "WINDOW_SECONDS", "WRONG", "Account", "Accounts", "Claim", "Held",
           "SeatClaims", "TooManyAttempts", "mailtables", "tables"]
