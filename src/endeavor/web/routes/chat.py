"""A game's chat (``/api/games/{game_id}/chat``): read, write, mark read, delete (the
host); the rules are :mod:`endeavor.web.chat`'s."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from .. import schemas
from ..chat import ChatMessage, ChatPost, ChatSeen, ChatSeenView, ChatView
from .state import GameId, Token, Web, secret_of

router = APIRouter(tags=["chat"])


@router.get("/api/games/{game_id}/chat", response_model=ChatView)
def get_chat(game_id: GameId, token: Token, web: Web,
             after: Annotated[int, Query(ge=0, description="only messages after this id")
                              ] = 0,
             limit: Annotated[int, Query(ge=1, le=200)] = 200) -> dict[str, Any]:
    """The game's chat (for everyone who can see the game): the latest ``limit``
    messages after ``after``, oldest first; a deleted message without its body.
    With a seat's token, ``seen``: the last message that seat has read."""
    return web.chat.listing(game_id, secret_of(token), after, limit)


@router.post("/api/games/{game_id}/chat", status_code=201, response_model=ChatMessage,
             responses={429: {"model": schemas.Problem}})
def post_chat(game_id: GameId, body: ChatPost, token: Token, web: Web) -> dict[str, Any]:
    """Write a message for your seat: plain text, 1 to 500 characters, no control
    characters but the newline; at most 5 messages in 10 seconds per seat (429)."""
    return web.chat.post(game_id, secret_of(token), body.body, body.seat)


@router.post("/api/games/{game_id}/chat/seen", response_model=ChatSeenView)
def chat_seen(game_id: GameId, body: ChatSeen, token: Token, web: Web) -> dict[str, Any]:
    """Your seat has read the chat up to message ``upto``: a notification no
    longer carries those messages."""
    return {"seen": web.chat.mark_seen(game_id, secret_of(token), body.upto, body.seat)}


@router.delete("/api/games/{game_id}/chat/{message_id}", response_model=ChatMessage)
def delete_chat(game_id: GameId, message_id: Annotated[int, PathParam(ge=1)],
                token: Token, web: Web) -> dict[str, Any]:
    """The host deletes a message: it stays in the list, without its body."""
    return web.chat.delete(game_id, secret_of(token), message_id)
