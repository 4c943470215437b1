"""Exceptions raised by the engine. Each carries a specific, human-readable reason."""

from __future__ import annotations


class EndeavorError(Exception):
    """Base class of every error the engine raises on purpose."""


class ConfigError(EndeavorError, ValueError):
    """The game configuration is impossible (unknown option, 6 players, ...)."""


class NotationError(EndeavorError, ValueError):
    """A text could not be parsed as an action."""


class IllegalActionError(EndeavorError, ValueError):
    """The action is well formed but not legal in this state; the state is unchanged."""


class RecordError(EndeavorError, ValueError):
    """A game record or serialized state is corrupt; nothing was built from it."""


class UndoError(EndeavorError):
    """There is no earlier decision to go back to; the state is unchanged."""


class UsageError(Exception):
    """Bad input to a command: its command-line options or arguments (the command line,
    ``endeavor serve``'s options...). Not raised by the engine: the adapters' commands
    raise it and print its message, without a traceback."""
