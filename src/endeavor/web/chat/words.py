"""A chat message's limits and shapes: the API's models, the checks of a message's
body, mentions of a name."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from ..store import (
    BadRequest,
    StoreError,
)
from ..view import refusals

#: the longest message, in characters (after trimming the spaces around it)
MAX_CHARS: Final = 500
#: the most lines a message may have
MAX_LINES: Final = 12
#: a seat writes at most RATE_COUNT messages in any RATE_SECONDS seconds
RATE_COUNT: Final = 5
RATE_SECONDS: Final = 10.0
#: the most messages one answer lists (the latest ones)
PAGE: Final = 200
#: the most chat lines a notification carries ("and N more" beyond)
NOTIFY_LINES: Final = 3
#: a chat line in a notification is cut at this many characters
NOTIFY_CHARS: Final = 160

#: a chat's version: (the highest message id, how many messages are deleted)
Version = tuple[int, int]


class TooMany(StoreError):
    """A seat wrote too many messages too quickly."""

    status = 429


# --------------------------------------------------------------------------- the API's shapes
class ChatPost(BaseModel):
    """``POST /api/games/{id}/chat``: the message, and which seat writes it (needed only
    for a hot-seat link, which plays several)."""

    model_config = ConfigDict(extra="forbid")

    body: StrictStr = Field(max_length=20 * MAX_CHARS,
                            description=f"plain text, 1 to {MAX_CHARS} characters")
    seat: StrictInt | None = Field(default=None, ge=0, le=7)


class ChatSeen(BaseModel):
    """``POST /api/games/{id}/chat/seen``: the page's player has read the chat up to
    message ``upto``."""

    model_config = ConfigDict(extra="forbid")

    upto: StrictInt = Field(ge=0)
    seat: StrictInt | None = Field(default=None, ge=0, le=7)


class ChatSeenView(BaseModel):
    """The answer to ``POST /chat/seen``: the last message the seat has now seen."""

    seen: int


class ChatMessage(BaseModel):
    """One message: ``body`` is null once the host deleted it (``deleted`` true)."""

    id: int
    seat: int
    name: str
    created: datetime
    body: str | None
    deleted: bool


class ChatView(BaseModel):
    """A chat's messages (the latest :data:`PAGE` after ``after``, oldest first), its
    version (``last``, ``deleted``: see the module's doc), ``more``: older messages
    after ``after`` were left out; ``seen``: the last message the token's seat has seen
    (null for a spectator)."""

    messages: list[ChatMessage]
    last: int
    deleted: int
    more: bool
    seen: int | None


# --------------------------------------------------------------------------- checking a message
def clean_body(text: str) -> str:
    """The message as stored: line ends made ``\\n``, the spaces around it trimmed;
    :class:`BadRequest` in words when it is empty, too long, or holds a control
    character (other than the newline) or an unpaired surrogate."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise BadRequest.said(refusals.CHAT_EMPTY)
    if len(text) > MAX_CHARS:
        raise BadRequest.said(refusals.CHAT_LONG, length=len(text), most=MAX_CHARS)
    for ch in text:
        if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cs"):
            raise BadRequest.said(refusals.CHAT_CONTROL, code=f"{ord(ch):04X}")
    if text.count("\n") >= MAX_LINES:
        raise BadRequest.said(refusals.CHAT_LINES, lines=text.count("\n") + 1,
                              most=MAX_LINES)
    return text


def mentions(body: str, name: str) -> bool:
    """Whether ``body`` names ``name``: ``@name`` or the name as a word of its own, in
    any case."""
    name = name.strip()
    if not name:
        return False
    pattern = r"(?<![\w@])@?" + re.escape(name) + r"(?!\w)"
    return re.search(pattern, body, flags=re.IGNORECASE) is not None
