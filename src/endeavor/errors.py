"""Exceptions raised by the engine. Each carries a specific, human-readable reason."""

from __future__ import annotations

from .messages import Message


class EndeavorError(Exception):
    """Base class of every error the engine raises on purpose."""


class ConfigError(EndeavorError, ValueError):
    """The game configuration is impossible (unknown option, 6 players, ...)."""


class NotationError(EndeavorError, ValueError):
    """A text could not be parsed as an action."""


class IllegalActionError(EndeavorError, ValueError):
    """The action is well formed but not legal in this state; the state is unchanged.
    ``str(error)`` is the reason in English; ``message`` the same as a structured message
    (:mod:`endeavor.messages`) for a client that says it in another language, or None;
    ``viewer`` the seat the refusal is said to (the seat deciding: its reasons say
    "you"), to render ``message`` for, or None."""

    def __init__(self, reason: str | Message, viewer: int | None = None) -> None:
        self.message = reason if isinstance(reason, Message) else None
        self.viewer = viewer
        super().__init__(reason if isinstance(reason, str) else reason.render(viewer=viewer))

    def __reduce__(self) -> tuple[type[IllegalActionError],
                                  tuple[str | Message, int | None]]:
        return (IllegalActionError, (self.message if self.message is not None
                                     else str(self), self.viewer))


class RecordError(EndeavorError, ValueError):
    """A game record or serialized state is corrupt; nothing was built from it."""


class UndoError(EndeavorError):
    """There is no earlier decision to go back to; the state is unchanged."""


class UsageError(Exception):
    """Bad input to a command: its command-line options or arguments (the command line,
    ``endeavor serve``'s options...). Not raised by the engine: the adapters' commands
    raise it and print its message, without a traceback."""
