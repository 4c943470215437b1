"""The accounts' tables (migration 0006), declared on :data:`endeavor.web.db.metadata`
beside the games' (the migrations create them; tests/web/test_persistence.py checks the
two agree): ``accounts``, ``account_sessions``, ``seat_claims``, ``signin_failures``,
``password_resets``."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, ForeignKey, Index, Integer, String, Table

from ..db import metadata

#: the players' optional accounts (0006): ``name`` as shown, ``name_key`` its casefolded
#: form (unique: two names that differ only by case are one), ``password_hash`` an
#: Argon2id hash (argon2-cffi's encoded string), ``disabled`` by ``endeavor admin``
accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("disabled", Boolean, nullable=False, default=False),
)

#: an account's sessions (0006): the random token (a cookie, or a bearer token) is kept
#: only as its SHA-256 digest; ``expires`` moves on as the session is used
account_sessions = Table(
    "account_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("last_seen", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Index("ix_account_sessions_account", "account_id"),
)

#: the seats an account has claimed (0006): one account per seat; ``link_token`` is the
#: seat's token, kept so "Your games" can give the seat's link on any device (a link
#: re-issued since no longer matches the seat: the claim is then shown as lost)
seat_claims = Table(
    "seat_claims", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=False),
    Column("link_token", String(64), nullable=False),
    Column("claimed", DateTime(timezone=True), nullable=False),
    Index("ix_seat_claims_account", "account_id"),
)

#: failed sign-ins (0006), one row each, counted per ``key`` (``name:<name_key>`` or
#: ``addr:<client address>``) over the limiter's window, so every worker sees the same
#: count; rows older than the window are deleted as new ones come
signin_failures = Table(
    "signin_failures", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(160), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Index("ix_signin_failures_key", "key", "at"),
    Index("ix_signin_failures_at", "at"),
)

#: one-time password-reset links issued by ``endeavor admin reset-link`` (0006): the
#: token's digest, valid until ``expires`` and once (``used``)
password_resets = Table(
    "password_resets", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
    Column("used", DateTime(timezone=True), nullable=True),
)
