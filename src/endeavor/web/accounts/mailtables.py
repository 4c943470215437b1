"""The tables of accounts by e-mail (migration 0008), declared on
:data:`endeavor.web.db.metadata` beside the others (tests/web/test_persistence.py checks
they agree with the migrations): ``account_settings``, ``signin_links``,
``account_mail``. (The seats' settings an account gives are ``notify`` rows with their
``account_id``.)"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, DateTime, ForeignKey, Index, Integer, String, Table

from ..db import metadata, notify
from . import tables

#: the seats' settings given by an account (``notify.account_id``, declared in db.py)
Index("ix_notify_account", notify.c.account_id)

#: an account's e-mail address (optional: where its sign-in and reset links go) and its
#: notification setting, used for every seat it claimed that has none of its own:
#: turns e-mailed to the address (``notify_email``) and/or a webhook, each every turn
#: or a digest (``*_mode``), in ``lang``
account_settings = Table(
    "account_settings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           primary_key=True, autoincrement=False),
    Column("email", String(254), nullable=True),
    Column("notify_email", Boolean, nullable=False, default=True),
    Column("webhook", String(512), nullable=True),
    Column("email_mode", String(8), nullable=False, default="turn"),
    Column("webhook_mode", String(8), nullable=False, default="turn"),
    Column("lang", String(8), nullable=False, default="en"),
    Column("updated", DateTime(timezone=True), nullable=False),
)

#: one-time sign-in links mailed to an account's address, as the password-reset links
#: are kept: the token's digest, valid until ``expires`` and once (``used``)
signin_links = tables.password_resets.to_metadata(metadata, name="signin_links")

#: an account's mail waiting to be sent (``kind``: ``signin``, a sign-in link, or
#: ``reset``, a password-reset link), written by the request that asks for it and sent
#: by the notifier with retries; the link's token is made when the mail is sent (never
#: stored as such), and the row deleted once sent or given up
account_mail = Table(
    "account_mail", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"),
           nullable=False),
    Column("kind", String(16), nullable=False),
    Column("lang", String(8), nullable=False, default="en"),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("due", DateTime(timezone=True), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    Column("last_error", String(200), nullable=True),
    Index("ix_account_mail_due", "due"),
)
