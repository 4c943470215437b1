"""The WebSocket of each game (``/api/games/{game_id}/ws``), fed by the app's
:class:`~endeavor.web.routes.announce.Announcer`."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, WebSocket
from starlette.concurrency import run_in_threadpool

from .state import state_of

log = logging.getLogger("endeavor.web")

router = APIRouter()


@router.websocket("/api/games/{game_id}/ws")
async def follow(websocket: WebSocket, game_id: str) -> None:
    """``{"seq": N}`` at once and whenever the game's seq grows; ``{"chat": N,
    "deleted": D}`` (the chat's version, see chat.py) at once when the game has a
    chat and whenever a message is posted or deleted. Closes with code 4404 for an
    unknown game. Messages from the client are ignored."""
    web = state_of(websocket)
    store, chat, announcer = web.store, web.chat, web.announcer
    await websocket.accept()
    sub = announcer.subscribe(game_id)
    receiver: asyncio.Task[None] | None = None
    try:
        seq, chat_version = await run_in_threadpool(
            lambda: (store.seq(game_id), chat.version(game_id)))
        if seq is None:
            await websocket.close(code=4404, reason="no such game")
            return
        sub.offer(seq)
        sub.offer_chat(chat_version)
        receiver = asyncio.create_task(_until_disconnect(websocket))
        sent = -1
        chat_sent = (0, 0)
        while True:
            waiter = asyncio.create_task(sub.changed.wait())
            done, _ = await asyncio.wait({waiter, receiver},
                                         return_when=asyncio.FIRST_COMPLETED)
            if receiver in done:
                waiter.cancel()
                return
            sub.changed.clear()
            if sub.latest > sent:
                sent = sub.latest
                await websocket.send_json({"seq": sent})
            if sub.chat != chat_sent:
                chat_sent = sub.chat
                await websocket.send_json({"chat": chat_sent[0], "deleted": chat_sent[1]})
    except Exception as e:  # the client went away mid-send, or the loop is closing
        log.debug("websocket for game %s ended: %s", game_id, e)
    finally:
        announcer.unsubscribe(sub)
        if receiver is not None:
            receiver.cancel()


async def _until_disconnect(websocket: WebSocket) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
