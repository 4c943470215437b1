"""A game's chat: short plain-text messages written by its seats, read by everyone who
can see the game (seats and spectators), deleted by its host (docs/web.md, "Chat").

Messages are rows of the ``chat`` table, numbered by its ``id`` (one sequence for all
games, so a game's ids grow but have gaps). A deleted message keeps its row with
``deleted`` true: its body is no longer served, and the ids stay in order.

What the game's WebSocket announces about a chat is its *version*: the highest message
id and how many of its messages are deleted, two numbers that only grow (a post raises
the first, a deletion the second), read for all the games a process follows in one
query (:meth:`Chat.versions`), so a message posted through another worker process is
announced too. A page that sees a version change asks for the messages after the last
it has (or for all of them again after a deletion).

Each seat keeps the last message it has seen or been told of (``seats.chat_seen``): the
page advances it as its player reads the chat (:meth:`Chat.mark_seen`), and so does a
notification that carries the messages the player has not seen (:func:`unseen`,
:func:`told_statement`): a message is never a notification of its own, it waits for the
seat's next one ("Ann wrote: ...").

Limits: a message is 1 to :data:`MAX_CHARS` characters of plain text (no control
characters but the newline), a seat writes at most :data:`RATE_COUNT` messages in
:data:`RATE_SECONDS` seconds (429 beyond), checked in the transaction that writes it.
"""

from __future__ import annotations

from .room import Chat
from .unseen import (
    UNSEEN_ROWS,
    Unseen,
    told_statement,
    unseen,
)
from .words import (
    MAX_CHARS,
    MAX_LINES,
    NOTIFY_CHARS,
    NOTIFY_LINES,
    PAGE,
    RATE_COUNT,
    RATE_SECONDS,
    ChatMessage,
    ChatPost,
    ChatSeen,
    ChatSeenView,
    ChatView,
    TooMany,
    Version,
    clean_body,
    mentions,
)

__all__ = ["Chat", "ChatMessage", "ChatPost", "ChatSeen", "ChatSeenView", "ChatView",
           "MAX_CHARS", "MAX_LINES", "NOTIFY_CHARS", "NOTIFY_LINES", "PAGE",
           "RATE_COUNT", "RATE_SECONDS", "TooMany", "UNSEEN_ROWS", "Unseen", "Version",
           "clean_body", "mentions", "told_statement", "unseen"]
