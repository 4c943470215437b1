"""The store's errors: each is a request the store refuses, with the HTTP status the API
answers with (:class:`StoreError` and its kinds), and the words of the commonest."""

from __future__ import annotations

from typing import Any, Final, Self

from sqlalchemy.exc import DBAPIError

from endeavor.messages import Message, msg

from ..view import refusals

#: the English words of the 403 of a token that is no seat's of the game (never was, or
#: re-issued since); it is raised with its message, ``Forbidden.said(refusals.NOT_A_SEAT)``
NOT_A_SEAT: Final = msg(refusals.NOT_A_SEAT).render("en")


class StoreError(Exception):
    """A request the store refuses; ``status`` is the HTTP status the API answers with
    and the message is the ``detail`` a client sees. ``words``, when the engine said why
    (an illegal action), is its structured message, said to the seat ``viewer``: the
    answer gives it in the request's language."""

    status = 400

    def __init__(self, *args: object, words: Message | None = None,
                 viewer: int | None = None) -> None:
        super().__init__(*args)
        self.words = words
        self.viewer = viewer

    @classmethod
    def said(cls, id: str, **args: Any) -> Self:
        """This error with the words of the declared message ``id``: English as its
        ``detail``, the message for the answer's language."""
        words = msg(id, **args)
        return cls(words.render("en"), words=words)


class BadRequest(StoreError):
    """Bad config, seats, action, notation or record (the engine's reason)."""

    status = 400


class Unauthorized(StoreError):
    """A seat's (or the host's) token is needed and none was given."""

    status = 401


class Forbidden(StoreError):
    """The token is not a seat (or the host) of this game, or not the seat to move."""

    status = 403


class NotFound(StoreError):
    """No such game (or position)."""

    status = 404


class Conflict(StoreError):
    """A stale ``seq``, a lost race for the next entry, nothing to undo, a game over."""

    status = 409


class NotSent(Exception):
    """A write's connection was found dead before the write reached the database."""

    def __init__(self, error: DBAPIError) -> None:
        super().__init__(str(error))
        self.error = error
