"""Passwords: hashed with Argon2id (argon2-cffi's defaults, RFC 9106's second
recommended profile), checked in a time that does not say whether an account exists."""

from __future__ import annotations

import threading
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from endeavor.messages import Count

from ..store import BadRequest
from ..view import accountwords as words

#: the shortest password, and the longest (hashing a huge one would be free work for
#: anyone who sends it)
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256

_hasher: Final = PasswordHasher()  # Argon2id
_dummy: list[str] = []
_dummy_lock: Final = threading.Lock()


def check_password(password: object) -> str:
    """``password`` as a new password: :class:`~endeavor.web.store.BadRequest` in words
    when it is not a string of :data:`MIN_PASSWORD` to :data:`MAX_PASSWORD`
    characters."""
    if not isinstance(password, str):
        raise BadRequest.said(words.PASSWORD_TYPE)
    if len(password) < MIN_PASSWORD:
        raise BadRequest.said(words.PASSWORD_SHORT, given=len(password),
                              least=Count(MIN_PASSWORD, words.CHARACTER))
    if len(password) > MAX_PASSWORD:
        raise BadRequest.said(words.PASSWORD_LONG, most=Count(MAX_PASSWORD, words.CHARACTER))
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (``$argon2id$v=19$m=...``)."""
    return _hasher.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash. With no hash (no such
    account) a dummy hash is checked all the same, so both answers take as long."""
    if stored is None:
        _verify(_dummy_hash(), password)
        return False
    return _verify(stored, password)


def needs_rehash(stored: str) -> bool:
    """The hash was made with other parameters than today's (rehash it on sign-in)."""
    try:
        return _hasher.check_needs_rehash(stored)
    except InvalidHashError:
        return True


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def ready() -> None:
    """Make the dummy hash now (once per process), so that no sign-in, of a known name
    or not, is the one that pays for it."""
    _dummy_hash()


def _dummy_hash() -> str:
    with _dummy_lock:
        if not _dummy:
            _dummy.append(_hasher.hash("no such account: a password nobody has"))
        return _dummy[0]
