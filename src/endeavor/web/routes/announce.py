"""How the WebSockets of each game (``/api/games/{game_id}/ws``) hear of its
``seq`` and its chat's version. The :class:`Announcer` hears of commits made in this
process at once (the store and the chat call it after each commit) and polls the
database for the others' (one ``SELECT`` for all the games this process's sockets
follow), so moves committed by another worker process are announced too."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from starlette.concurrency import run_in_threadpool

log = logging.getLogger("endeavor.web")

#: how often the WebSocket side polls the database for moves of other processes
POLL_SECONDS: Final = 0.5


class _Subscriber:
    """One WebSocket's interest in one game, living on its event loop."""

    def __init__(self, game_id: str, loop: asyncio.AbstractEventLoop) -> None:
        self.game_id = game_id
        self.loop = loop
        self.latest = -1
        self.chat: tuple[int, int] = (0, 0)  # the game's chat version (see chat.py)
        self.changed = asyncio.Event()

    def offer(self, seq: int) -> None:
        """Called on the subscriber's loop: remember a seq if it is new."""
        if seq > self.latest:
            self.latest = seq
            self.changed.set()

    def offer_threadsafe(self, seq: int) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody listens
            self.loop.call_soon_threadsafe(self.offer, seq)

    def offer_chat(self, version: tuple[int, int]) -> None:
        """Called on the subscriber's loop: remember a chat version if it is newer
        (either of its numbers grew)."""
        new = (max(self.chat[0], version[0]), max(self.chat[1], version[1]))
        if new != self.chat:
            self.chat = new
            self.changed.set()

    def offer_chat_threadsafe(self, version: tuple[int, int]) -> None:
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self.offer_chat, version)


class Announcer:
    """Tells the WebSockets of this process about new seqs: at once for commits made
    in this process (:meth:`publish`, called by the store after each commit, from any
    thread), and by polling the database for the others' (one query per loop and
    interval for every game followed)."""

    def __init__(self, read_seqs: Callable[[Iterable[str]], Mapping[str, int]],
                 interval: float = POLL_SECONDS,
                 read_chats: Callable[[Iterable[str]], Mapping[str, tuple[int, int]]]
                 | None = None) -> None:
        self.read_seqs = read_seqs
        self.read_chats = read_chats
        self.interval = interval
        self._lock = threading.Lock()
        self._subs: dict[str, set[_Subscriber]] = {}
        self._pollers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}

    def publish(self, game_id: str, seq: int) -> None:
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            sub.offer_threadsafe(seq)

    def publish_chat(self, game_id: str, version: tuple[int, int]) -> None:
        """A chat message was posted or deleted in this process (see chat.py)."""
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            sub.offer_chat_threadsafe(version)

    def _read(self, game_ids: list[str]) -> tuple[Mapping[str, int],
                                                  Mapping[str, tuple[int, int]]]:
        chats = self.read_chats(game_ids) if self.read_chats is not None else {}
        return self.read_seqs(game_ids), chats

    def subscribe(self, game_id: str) -> _Subscriber:
        """A subscriber on the running loop (and that loop's poller, if not yet)."""
        loop = asyncio.get_running_loop()
        sub = _Subscriber(game_id, loop)
        with self._lock:
            self._subs.setdefault(game_id, set()).add(sub)
        task = self._pollers.get(loop)
        if task is None or task.done():
            self._pollers[loop] = loop.create_task(self._poll(loop))
        return sub

    def unsubscribe(self, sub: _Subscriber) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.game_id]

    def _followed(self, loop: asyncio.AbstractEventLoop) -> dict[str, list[_Subscriber]]:
        with self._lock:
            out: dict[str, list[_Subscriber]] = {}
            for game_id, subs in self._subs.items():
                mine = [s for s in subs if s.loop is loop]
                if mine:
                    out[game_id] = mine
            return out

    async def _poll(self, loop: asyncio.AbstractEventLoop) -> None:
        failing = False
        while True:
            await asyncio.sleep(self.interval)
            followed = self._followed(loop)
            if not followed:  # nobody left on this loop: stop (a new socket restarts it)
                if self._pollers.get(loop) is asyncio.current_task():
                    del self._pollers[loop]
                return
            try:
                seqs, chats = await run_in_threadpool(self._read, list(followed))
            except Exception as e:  # the database is away: said once, tried again
                if not failing:
                    log.warning("polling the games' seq failed (%s: %s); trying again",
                                type(e).__name__, e)
                failing = True
                continue
            failing = False
            for game_id, seq in seqs.items():
                for sub in followed.get(game_id, ()):
                    sub.offer(seq)
            for game_id, version in chats.items():
                for sub in followed.get(game_id, ()):
                    sub.offer_chat(version)

    async def close(self) -> None:
        for task in list(self._pollers.values()):
            task.cancel()
        self._pollers.clear()
