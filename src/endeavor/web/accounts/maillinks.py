"""Links mailed to an account's address: a one-time sign-in link (valid
:data:`SIGNIN_SECONDS`) and a password-reset link (the admin's kind, valid
:data:`~.service.RESET_SECONDS`).

Asking for one (:meth:`MailLinks.ask`) answers the same whether or not the name is an
account's or has an address: a mail is queued (``account_mail``, in the request's
transaction) only when it has, and the notifier sends it with retries, making the
link's token then (:func:`new_token`: it is never stored but as its digest). Asking is
limited per name as typed and per client address (rows of ``signin_failures`` under keys
of their own), so the endpoints cannot be used to flood a mailbox."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import Connection, and_, insert, select, update

from endeavor.messages import msg

from ..store import BadRequest, Forbidden
from ..store.values import hash_token, utc
from ..store.values import now as _now
from ..view import accountwords, mailwords
from . import limiter, mailtables, tables
from .service import RESET_SECONDS, Account, Accounts, _account, name_key

#: how long a sign-in link works (seconds)
SIGNIN_SECONDS: Final = 15 * 60
#: links asked for per name as typed, and per client address, in the limiter's window
MAX_PER_NAME: Final = 3
MAX_PER_ADDRESS: Final = 10
#: the kinds of mail and the page each one's link opens (its fragment: the token)
PAGES: Final = {"signin": "/account/link", "reset": "/account/reset"}
KINDS: Final = tuple(PAGES)


class TooManyLinks(Exception):
    """Too many links asked for: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        minutes = max(1, -(-retry_after // 60))
        super().__init__(f"too many links asked for: try again in {minutes} minutes")
        self.retry_after = retry_after
        self.words = msg(mailwords.TOO_MANY, minutes=minutes)


def minutes(kind: str) -> int:
    """How long a link of ``kind`` works, in minutes."""
    return (SIGNIN_SECONDS if kind == "signin" else RESET_SECONDS) // 60


def new_token(conn: Connection, kind: str, account_id: int, now: datetime) -> str:
    """A new one-time token of ``kind`` for the account (its digest stored): what the
    mailed link carries."""
    token = secrets.token_urlsafe(32)
    table = mailtables.signin_links if kind == "signin" else tables.password_resets
    seconds = SIGNIN_SECONDS if kind == "signin" else RESET_SECONDS
    conn.execute(insert(table).values(token_hash=hash_token(token), account_id=account_id,
                                      created=now, expires=now + timedelta(seconds=seconds),
                                      used=None))
    return token


def _bad_link() -> BadRequest:
    return BadRequest.said(mailwords.LINK_BAD)


class MailLinks:
    """The links mailed to the accounts (of the accounts' database)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = accounts.store

    def ask(self, kind: str, name: object, address: str | None, lang: str) -> bool:
        """Queue a mail of ``kind`` to the address of the account ``name`` (case aside),
        if there is one: whether one was queued (never told to the asker).
        :class:`TooManyLinks` past the limits (counted whatever the name)."""
        typed = " ".join(name.split()) if isinstance(name, str) else ""
        key = name_key(typed)[:120]
        by_name, by_address = f"mail-name:{key}", f"mail-addr:{(address or 'unknown')[:120]}"
        now = _now()
        a, st, t = tables.accounts, mailtables.account_settings, mailtables.account_mail
        with self.store.transaction() as conn:
            try:
                limiter.check(conn, [by_name], now, MAX_PER_NAME)
                limiter.check(conn, [by_address], now, MAX_PER_ADDRESS)
            except limiter.TooManyAttempts as e:
                raise TooManyLinks(e.retry_after) from None
            limiter.record(conn, [by_name, by_address], now)
            row = conn.execute(select(a.c.id, a.c.disabled, st.c.email, st.c.lang)
                               .select_from(a.join(st, st.c.account_id == a.c.id))
                               .where(a.c.name_key == key)).first() if key else None
            if row is None or not row.email or row.disabled:
                return False
            conn.execute(insert(t).values(account_id=int(row.id), kind=kind,
                                          lang=row.lang or lang, created=now, due=now,
                                          attempts=0))
        return True

    def sign_in(self, token: object) -> tuple[Account, str]:
        """A new session (its token) of the account of a mailed sign-in link's
        ``token``, which then works no more: 400 for a token unknown, used or expired,
        403 for a disabled account."""
        t, a = mailtables.signin_links, tables.accounts
        digest = hash_token(token) if isinstance(token, str) and len(token) <= 128 else ""
        now = _now()
        with self.store.transaction() as conn:
            row = conn.execute(select(t.c.account_id, t.c.expires, t.c.used)
                               .where(t.c.token_hash == digest)).first()
            if row is None or row.used is not None or utc(row.expires) <= now:
                raise _bad_link()
            used = conn.execute(update(t).where(and_(t.c.token_hash == digest,
                                                     t.c.used.is_(None))).values(used=now))
            if used.rowcount != 1:  # another request used it meanwhile
                raise _bad_link()
            found = conn.execute(select(a).where(a.c.id == row.account_id)).first()
            if found is None:
                raise _bad_link()
            account = _account(found)
            if account.disabled:
                raise Forbidden.said(accountwords.DISABLED)
            token_out = self.accounts._new_session(conn, account.id, now)
        return account, token_out
