"""Accounts, their sessions and their passwords in the database: sign up, sign in (the
failed ones limited: :mod:`.limiter`), a session's account, sign out here or
everywhere, and what ``endeavor admin`` does (list, disable, enable, a password-reset
link and the reset itself)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import Connection, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .. import names as seat_names
from ..store import DELETED_NAME, BadRequest, Conflict, Forbidden, NotFound, Store, Unauthorized
from ..store.values import hash_token, utc
from ..store.values import now as _now
from ..view import accountwords as words
from . import limiter, passwords
from . import tables as db

#: a session ends after this long unused (each use moves its end on)
SESSION_DAYS: Final = 30
#: a session's last use is written at most this often (seconds): not at every request
TOUCH_SECONDS: Final = 300
#: how long a password-reset link works (seconds)
RESET_SECONDS: Final = 3600
#: the answer to a failed sign-in: the same for an unknown name and a wrong password
WRONG: Final = "wrong name or password"


@dataclass(frozen=True)
class Account:
    """An account as the API shows it (never its password's hash)."""

    id: int
    name: str
    created: datetime
    disabled: bool


def _account(row: Any) -> Account:
    return Account(int(row.id), row.name, utc(row.created), bool(row.disabled))


def name_key(name: str) -> str:
    """What makes two names one: the name without regard to case."""
    return " ".join(name.split()).casefold()


def clean_account_name(value: object) -> str:
    """An account's name as typed: a seat's name's rules
    (:func:`endeavor.web.names.clean_name`), and not "deleted player"."""
    name = seat_names.clean_name(value)
    if name_key(name).startswith(DELETED_NAME):
        raise BadRequest.said(words.NAME_KEPT, name=name)
    return name


class Accounts:
    """The accounts of the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ sign up, in
    def sign_up(self, name: object, password: object) -> tuple[Account, str]:
        """A new account and a session of it (its token): 400 for a bad name or
        password, 409 for a name taken (case aside)."""
        clean = clean_account_name(name)
        hashed = passwords.hash_password(passwords.check_password(password))
        now = _now()
        t = db.accounts
        try:
            with self.store.transaction() as conn:
                new_id = conn.execute(insert(t).values(
                    name=clean, name_key=name_key(clean), password_hash=hashed,
                    created=now, disabled=False).returning(t.c.id)).scalar_one()
                token = self._new_session(conn, int(new_id), now)
        except IntegrityError:
            raise Conflict.said(words.NAME_TAKEN, name=clean) from None
        return Account(int(new_id), clean, now, False), token

    def sign_in(self, name: object, password: object, address: str | None,
                ) -> tuple[Account, str]:
        """A new session (its token) of the account ``name``: 401 :data:`WRONG` for
        an unknown name or a wrong password alike (the password checked against a
        dummy hash when there is no such account, so both take as long),
        :class:`~.limiter.TooManyAttempts` after too many failures of the name or the
        address, 403 for a disabled account (once its password is right)."""
        passwords.ready()
        typed = " ".join(name.split()) if isinstance(name, str) else ""
        secret = password if isinstance(password, str) else ""
        keys = limiter.keys(name_key(typed), address)
        now = _now()
        self.store.read(lambda conn: limiter.check(conn, keys, now))
        row = self.store.read(lambda conn: conn.execute(
            select(db.accounts).where(db.accounts.c.name_key == name_key(typed))).first()
            if typed and len(typed) <= 64 else None)
        if len(secret) > passwords.MAX_PASSWORD:
            secret = secret[:passwords.MAX_PASSWORD + 1]  # still checked, still wrong
        ok = passwords.verify(row.password_hash if row is not None else None, secret)
        if not ok or row is None:
            with self.store.transaction() as conn:
                limiter.record(conn, keys, now)
            raise Unauthorized.said(words.WRONG)
        account = _account(row)
        if account.disabled:
            raise Forbidden.said(words.DISABLED)
        with self.store.transaction() as conn:
            if passwords.needs_rehash(row.password_hash):
                conn.execute(update(db.accounts).where(db.accounts.c.id == account.id)
                             .values(password_hash=passwords.hash_password(secret)))
            token = self._new_session(conn, account.id, now)
        return account, token

    def _new_session(self, conn: Connection, account_id: int, now: datetime) -> str:
        token = secrets.token_urlsafe(32)
        conn.execute(insert(db.account_sessions).values(
            token_hash=hash_token(token), account_id=account_id, created=now,
            last_seen=now, expires=now + timedelta(days=SESSION_DAYS)))
        return token

    # ------------------------------------------------------------------ sessions
    def session(self, token: str | None) -> Account | None:
        """The account of a session's token (None: no such session, ended, expired, or
        its account disabled); its use is recorded (at most every few minutes)."""
        if not token or len(token) > 128:
            return None
        s, a = db.account_sessions, db.accounts
        digest = hash_token(token)
        now = _now()
        row = self.store.read(lambda conn: conn.execute(
            select(a, s.c.last_seen, s.c.expires).join(s, s.c.account_id == a.c.id)
            .where(s.c.token_hash == digest)).first())
        if row is None or utc(row.expires) <= now or row.disabled:
            return None
        if (now - utc(row.last_seen)).total_seconds() >= TOUCH_SECONDS:
            with self.store.transaction() as conn:
                conn.execute(update(s).where(s.c.token_hash == digest).values(
                    last_seen=now, expires=now + timedelta(days=SESSION_DAYS)))
        return _account(row)

    def sign_out(self, token: str) -> None:
        """End the session of ``token`` (nothing if there is none)."""
        with self.store.transaction() as conn:
            conn.execute(delete(db.account_sessions)
                         .where(db.account_sessions.c.token_hash == hash_token(token)))

    def sign_out_everywhere(self, account_id: int) -> int:
        """End every session of the account; how many there were."""
        with self.store.transaction() as conn:
            return int(conn.execute(delete(db.account_sessions).where(
                db.account_sessions.c.account_id == account_id)).rowcount or 0)

    def sessions(self, account_id: int) -> list[dict[str, Any]]:
        """The account's sessions (when made, last used, ending), newest first."""
        s = db.account_sessions
        rows = self.store.read(lambda conn: conn.execute(
            select(s.c.created, s.c.last_seen, s.c.expires).where(s.c.account_id == account_id)
            .order_by(s.c.created.desc())).all())
        return [{"created": utc(r.created), "last_seen": utc(r.last_seen),
                 "expires": utc(r.expires)} for r in rows]

    def check_password(self, account_id: int, password: object) -> None:
        """401 when ``password`` is not the account's (before deleting it)."""
        row = self.store.read(lambda conn: conn.execute(
            select(db.accounts.c.password_hash).where(db.accounts.c.id == account_id)).first())
        secret = password if isinstance(password, str) else ""
        if not passwords.verify(row.password_hash if row is not None else None,
                                secret[:passwords.MAX_PASSWORD + 1]):
            raise Unauthorized.said(words.WRONG_PASSWORD)

    # ------------------------------------------------------------------ admin
    def find(self, name: str) -> Account:
        """The account called ``name`` (case aside): 404 when there is none."""
        key = name_key(name)
        row = self.store.read(lambda conn: conn.execute(
            select(db.accounts).where(db.accounts.c.name_key == key)).first())
        if row is None:
            raise NotFound.said(words.NO_ACCOUNT, name=name)
        return _account(row)

    def all(self) -> Sequence[tuple[Account, int, int]]:
        """Every account (oldest first) with how many sessions and seats it has."""
        a, s, c = db.accounts, db.account_sessions, db.seat_claims

        def read(conn: Connection) -> list[tuple[Account, int, int]]:
            rows = conn.execute(select(a).order_by(a.c.created, a.c.id)).all()
            sessions: dict[int, int] = {}
            for r in conn.execute(select(s.c.account_id)):
                sessions[r.account_id] = sessions.get(r.account_id, 0) + 1
            seats: dict[int, int] = {}
            for r in conn.execute(select(c.c.account_id)):
                seats[r.account_id] = seats.get(r.account_id, 0) + 1
            return [(_account(r), sessions.get(r.id, 0), seats.get(r.id, 0)) for r in rows]

        return self.store.read(read)

    def set_disabled(self, name: str, disabled: bool) -> Account:
        """Disable (every session ends, sign-ins are refused) or enable an account."""
        account = self.find(name)
        with self.store.transaction() as conn:
            conn.execute(update(db.accounts).where(db.accounts.c.id == account.id)
                         .values(disabled=disabled))
            if disabled:
                conn.execute(delete(db.account_sessions)
                             .where(db.account_sessions.c.account_id == account.id))
        return Account(account.id, account.name, account.created, disabled)

    def reset_token(self, name: str) -> tuple[Account, str]:
        """A one-time password-reset token for the account, valid :data:`RESET_SECONDS`
        (the link's fragment)."""
        account = self.find(name)
        token = secrets.token_urlsafe(32)
        now = _now()
        with self.store.transaction() as conn:
            conn.execute(insert(db.password_resets).values(
                token_hash=hash_token(token), account_id=account.id, created=now,
                expires=now + timedelta(seconds=RESET_SECONDS), used=None))
        return account, token

    def reset_password(self, token: object, password: object) -> Account:
        """Set a new password with a reset link's token (400 for a token unknown, used
        or expired); every session of the account ends."""
        secret = passwords.check_password(password)
        r, a = db.password_resets, db.accounts
        digest = hash_token(token) if isinstance(token, str) and len(token) <= 128 else ""
        now = _now()
        hashed = passwords.hash_password(secret)
        with self.store.transaction() as conn:
            row = conn.execute(select(r.c.account_id, r.c.expires, r.c.used)
                               .where(r.c.token_hash == digest)).first()
            if row is None or row.used is not None or utc(row.expires) <= now:
                raise BadRequest.said(words.RESET_BAD)
            conn.execute(update(r).where(and_(r.c.token_hash == digest, r.c.used.is_(None)))
                         .values(used=now))
            conn.execute(update(a).where(a.c.id == row.account_id)
                         .values(password_hash=hashed))
            conn.execute(delete(db.account_sessions)
                         .where(db.account_sessions.c.account_id == row.account_id))
            found = conn.execute(select(a).where(a.c.id == row.account_id)).first()
        assert found is not None
        return _account(found)
