"""The games of a load test: created, played concurrently through the HTTP API with a
WebSocket each, and checked against their records (:class:`Driver`); the webhook
receiver of ``--notify`` (:class:`Receiver`)."""

from __future__ import annotations

import asyncio
import json
import random
import ssl
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import WebSocketException

from endeavor.web.chat import RATE_COUNT as CHAT_RATE_COUNT
from endeavor.web.chat import RATE_SECONDS as CHAT_RATE_SECONDS

from .minihttp import Connection, HttpError
from .server import (
    _MAIN_TASKS,
    DEFAULT_THINK,
    HOST,
    KEEPALIVE_EXPIRY,
    MAX_CONSECUTIVE_ERRORS,
    PLAYERS,
    REQUEST_TIMEOUT,
    WS_OPEN_TIMEOUT,
    WS_SETTLE,
    LoadTestError,
)


# --------------------------------------------------------------------------- the games
@dataclass
class Game:
    """One game of the load test and what its driver and WebSocket saw."""

    index: int
    id: str
    tokens: dict[int, str]  # seat -> its token
    acked: list[tuple[int, str]] = field(default_factory=list)  # (seq, action), 200s
    unacked: int = 0  # moves sent without a 200 (they may or may not have been kept)
    final_seq: int = 0
    over: bool = False
    ws_messages: int = 0
    ws_seq: int = -1  # the highest seq the WebSocket announced
    ws_error: str | None = None
    lost: int = 0
    unexpected: int = 0
    unchecked: bool = False  # its record could not be read


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)  # move round trips, seconds
    get_latencies: list[float] = field(default_factory=list)  # GET view round trips
    create_latencies: list[float] = field(default_factory=list)
    chat_latencies: list[float] = field(default_factory=list)  # chat POST round trips
    errors: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0  # the wall time of the playing phase


#: the members of a view the players read (:func:`read_view`)
VIEW_KEYS = frozenset({"seq", "over", "current_player", "you", "legal_actions", "decision"})
_DECODER = json.JSONDecoder()
_BLANK = " \t\n\r"  # JSON's whitespace


def read_view(body: bytes) -> dict[str, Any]:
    """The members of :data:`VIEW_KEYS` of the JSON object ``body`` (those it has), as
    ``json.loads`` reads them. The object's members are decoded in order up to the last
    of these: the server writes them first, so the position's state and the events, most
    of a view's 25 KB, are skipped without being decoded. Anything that is not one JSON
    object's members in a row is decoded whole (a body that is not JSON raises
    ``ValueError``)."""
    text = body.decode()
    decode = _DECODER.raw_decode

    def skip(i: int) -> int:
        while text[i] in _BLANK:
            i += 1
        return i

    found: dict[str, Any] = {}
    try:
        i = skip(0)
        if text[i] != "{":
            raise ValueError("not an object")
        i = skip(i + 1)
        if text[i] == "}":
            return found
        while len(found) < len(VIEW_KEYS):
            key, i = decode(text, i)
            i = skip(i)
            if not isinstance(key, str) or text[i] != ":":
                raise ValueError("not a member")
            value, i = decode(text, skip(i + 1))
            if key in VIEW_KEYS:
                found[key] = value
            i = skip(i)
            if text[i] == "}":
                break
            if text[i] != ",":
                raise ValueError("not a member")
            i = skip(i + 1)
    except (ValueError, IndexError):
        whole = json.loads(text)
        if not isinstance(whole, dict):
            raise ValueError("a view is a JSON object") from None
        return {k: v for k, v in whole.items() if k in VIEW_KEYS}
    return found


_ENCODER = json.JSONEncoder(separators=(",", ":"))  # json.dumps makes one per call


def _json(value: Any) -> bytes:
    """``value`` as a request's JSON body."""
    return _ENCODER.encode(value).encode()


def _detail(body: bytes) -> str:
    """An error answer's ``detail`` (its body when it has none)."""
    try:
        data = json.loads(body)
    except ValueError:
        return body.decode(errors="replace")
    return str(data.get("detail", "")) if isinstance(data, dict) else str(data)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile of ``values`` (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 100))))
    return ordered[rank - 1]


def _ms_summary(values: list[float]) -> dict[str, float]:
    return {name: round(percentile(values, q) * 1000.0, 2)
            for name, q in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))}


def _receive(port: Any, count: Any, ready: Any) -> None:
    """The receiver process: answer 204 to every POST, counting them in ``count``."""
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a webhook service would

        def do_POST(self) -> None:  # noqa: N802 (the http.server API)
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            with count.get_lock():
                count.value += 1
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer((HOST, 0), Handler)
    server.daemon_threads = True
    port.value = server.server_address[1]
    ready.set()
    server.serve_forever()


class Receiver:
    """A webhook receiver on loopback, counting the POSTs, in a process of its own (so
    it takes nothing from the load test's own measurements)."""

    def __init__(self) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._count = ctx.Value("l", 0)
        port = ctx.Value("i", 0)
        ready = ctx.Event()
        self._proc = ctx.Process(target=_receive, args=(port, self._count, ready),
                                 name="loadtest-receiver", daemon=True)
        self._proc.start()
        if not ready.wait(30):
            self._proc.kill()
            raise LoadTestError("the load test's webhook receiver did not start")
        self.url = f"http://{HOST}:{port.value}/hook"

    @property
    def count(self) -> int:
        return int(self._count.value)

    def close(self) -> None:
        self._proc.kill()
        self._proc.join(5)


def retrieve_exception(future: asyncio.Future[Any]) -> None:
    """Read a finished future's exception: Ctrl-C cancels every task at once, and a
    gather under ``wait_for`` whose tasks were cancelled first holds a CancelledError that
    nobody awaits (asyncio then prints "exception was never retrieved" at exit)."""
    if not future.cancelled():
        future.exception()


class Driver:
    """Creates the games and plays them concurrently against ``url`` (``clock``: each
    game's seconds per decision; ``webhook``: a URL every seat sets as its webhook)."""

    def __init__(self, url: str, games: int, moves: int, seed: int,
                 advance: Callable[[int], None], think: float = DEFAULT_THINK,
                 clock: float | None = None, webhook: str | None = None,
                 chat: float = 0.0) -> None:
        self.url = url.rstrip("/")
        self.ngames = games
        self.moves = moves
        self.seed = seed
        self.think = think
        self.advance = advance
        self.clock = clock
        self.webhook = webhook
        self.chat = chat
        self._said: dict[tuple[str, int], deque[float]] = {}  # each seat's chat times
        self.results = Results()
        self.games: list[Game] = []

    def _ws_url(self, game_id: str) -> str:
        parts = urlsplit(self.url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}{parts.path}/api/games/{game_id}/ws"

    def _error(self, key: str) -> None:
        self.results.errors[key] += 1

    async def run(self) -> None:
        task = asyncio.current_task()
        if task is not None:
            _MAIN_TASKS.add(task)
        try:
            await self._run_clients()
        finally:
            _MAIN_TASKS.discard(task)

    async def _run_clients(self) -> None:
        # a connection per game (its requests are one at a time), opened by its creation;
        # one idle for 2 s is replaced by a new one, before the server's keep-alive
        # timeout (Uvicorn: 5 s) closes it under a request being sent
        tls = None
        if urlsplit(self.url).scheme == "https":
            tls = ssl.create_default_context()  # one for all (each costs ~20 ms to make)
        conns = [Connection(self.url, timeout=REQUEST_TIMEOUT, keepalive=KEEPALIVE_EXPIRY,
                            ssl_context=tls) for _ in range(self.ngames)]
        try:
            await self._run(conns)
        finally:
            await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)

    async def _run(self, conns: list[Connection]) -> None:
        created = await asyncio.gather(*(self._create(conns[i], i)
                                         for i in range(self.ngames)))
        self.games = [g for g in created if g is not None]
        if not self.games:
            raise LoadTestError(f"the server at {self.url} created no game: "
                             f"{self._errors_text()}")
        stop = asyncio.Event()
        opened = [asyncio.Event() for _ in self.games]
        watchers = [asyncio.create_task(self._watch(g, ev, stop))
                    for g, ev in zip(self.games, opened, strict=True)]
        try:
            # every WebSocket is open (or failed) before the first move
            opening = asyncio.gather(*(ev.wait() for ev in opened))
            opening.add_done_callback(retrieve_exception)
            await asyncio.wait_for(opening, WS_OPEN_TIMEOUT + 5.0)
            start = time.perf_counter()
            await asyncio.gather(*(self._play(conns[g.index], g) for g in self.games))
            self.results.seconds = time.perf_counter() - start
            await self._settle()
        finally:
            stop.set()
            for task in watchers:
                task.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
        await asyncio.gather(*(self._check(conns[g.index], g) for g in self.games))

    def _errors_text(self) -> str:
        return ", ".join(f"{k}: {v}" for k, v in sorted(self.results.errors.items())) or "-"

    async def _create(self, conn: Connection, index: int) -> Game | None:
        body: dict[str, Any] = {
            "config": {"players": PLAYERS, "seed": self.seed * 100_003 + index},
            "seats": ["human"] * PLAYERS, "title": f"loadtest {index}"}
        if self.clock is not None:
            body["clock"] = {"kind": "turn", "per_decision": self.clock}
        t0 = time.perf_counter()
        try:
            r = await conn.request("POST", "/api/games", body=_json(body))
        except HttpError as e:
            self._error(f"create {type(e).__name__}")
            return None
        if r.status != 201:
            self._error(f"create {r.status}")
            return None
        self.results.create_latencies.append(time.perf_counter() - t0)
        data = r.json()
        tokens = {int(s["seat"]): str(s["token"]) for s in data["seats"] if s.get("token")}
        if self.webhook is not None:
            for token in tokens.values():
                try:
                    r = await conn.request("PUT", f"/api/games/{data['id']}/notify",
                                           token=token, body=_json({"webhook": self.webhook}))
                except HttpError as e:
                    self._error(f"notify {type(e).__name__}")
                    return None
                if r.status != 200:
                    self._error(f"notify {r.status}: {_detail(r.body)}"[:120])
                    return None
        return Game(index=index, id=str(data["id"]), tokens=tokens)

    async def _watch(self, game: Game, opened: asyncio.Event, stop: asyncio.Event) -> None:
        try:
            # no compression: the announcements are a few dozen bytes (a browser offers
            # it; with or without, the CPU of the client and the server per move were
            # the same within a run's noise)
            async with ws_connect(self._ws_url(game.id), open_timeout=WS_OPEN_TIMEOUT,
                                  proxy=None, max_size=2**20, compression=None) as ws:
                opened.set()
                async for message in ws:
                    game.ws_messages += 1
                    seq = json.loads(message).get("seq")
                    if isinstance(seq, int) and seq > game.ws_seq:
                        game.ws_seq = seq
                    if stop.is_set():
                        return
        except asyncio.CancelledError:
            raise
        except (OSError, WebSocketException, TimeoutError, ValueError) as e:
            game.ws_error = f"{type(e).__name__}: {e}"
            self._error(f"ws {type(e).__name__}")
        finally:
            opened.set()

    async def _settle(self) -> None:
        """Give the WebSockets a moment to announce every game's final seq."""
        deadline = time.monotonic() + WS_SETTLE
        while time.monotonic() < deadline:
            if all(g.ws_error is not None or g.ws_seq >= g.final_seq for g in self.games):
                return
            await asyncio.sleep(0.05)

    async def _view(self, conn: Connection, game: Game, seat: int) -> dict[str, Any] | None:
        """What the players read of the game's view for ``seat`` (with only the events
        after the last seq seen, as the browser asks). A GET is safe to repeat: it is
        sent once more after a connection that broke under it."""
        t0 = time.perf_counter()
        try:
            r = await conn.request("GET", f"/api/games/{game.id}?since={game.final_seq}",
                                   token=game.tokens[seat], safe=True)
        except HttpError as e:
            self._error(f"view {type(e).__name__}")
            return None
        if r.status != 200:
            self._error(f"view {r.status}")
            return None
        self.results.get_latencies.append(time.perf_counter() - t0)
        return read_view(r.body)

    async def _play(self, conn: Connection, game: Game) -> None:
        rng = random.Random(self.seed * 1_000_003 + game.index)
        if self.think > 0:  # the players arrive over one think time, not all at once
            await asyncio.sleep(rng.uniform(0.0, 2.0 * self.think))
        view = await self._view(conn, game, min(game.tokens))
        failures = 0 if view is not None else 1
        done = 0
        while done < self.moves and failures < MAX_CONSECUTIVE_ERRORS:
            if view is None:
                view = await self._view(conn, game, min(game.tokens))
                if view is None:
                    failures += 1
                    await asyncio.sleep(0.05 * failures)
                    continue
            game.final_seq = int(view["seq"])
            if view.get("over") or view.get("decision") is None:
                game.over = True
                break
            seat = int(view["current_player"])
            if seat not in view.get("you", []):
                if seat not in game.tokens:
                    self._error("no token for the seat to move")
                    break
                view = await self._view(conn, game, seat)
                if view is None:
                    failures += 1
                    continue
                if int(view["current_player"]) != seat:
                    continue  # it moved on meanwhile: look again
            legal = view.get("legal_actions") or []
            if not legal:
                self._error("no legal action for the seat to move")
                break
            action = rng.choice(sorted(legal))
            seq = int(view["seq"])
            if self.think > 0:
                await asyncio.sleep(rng.uniform(0.0, 2.0 * self.think))
            if self.chat > 0 and rng.random() < self.chat:
                await self._say(conn, game, seat, f"move {seq + 1}: {action}")
            body = _json({"action": action, "seq": seq})
            t0 = time.perf_counter()
            try:
                # a kept connection that broke before the answer (a keep-alive close
                # racing with its reuse) is replaced and the move sent once more: the
                # same seq again is safe, a move is never recorded twice
                r = await conn.request("POST", f"/api/games/{game.id}/actions?since={seq}",
                                       token=game.tokens[seat], body=body)
            except HttpError as e:
                game.unacked += 1
                self._error(type(e).__name__)
                failures += 1
                view = None
                continue
            elapsed = time.perf_counter() - t0
            if r.status != 200:
                game.unacked += 1
                self._error(str(r.status))
                failures += 1
                view = None
                continue
            failures = 0
            self.results.latencies.append(elapsed)
            view = read_view(r.body)
            # the move is the log's entry seq + 1 (the answer is the view after it, which
            # would also show any move made since, by a bot say)
            game.acked.append((seq + 1, action))
            game.final_seq = max(seq + 1, int(view["seq"]))
            done += 1
            self.advance(1)
        if failures >= MAX_CONSECUTIVE_ERRORS:
            self._error("game abandoned")
        self.advance(self.moves - done)  # the moves this game will not make

    async def _say(self, conn: Connection, game: Game, seat: int, words: str) -> None:
        """``seat`` posts a chat message (its round trip measured; a failure is an
        error of the run like a move's), unless that would pass the server's limit of
        messages a seat may write in a while (as a person would wait)."""
        said = self._said.setdefault((game.id, seat), deque())
        now = time.monotonic()
        while said and now - said[0] > CHAT_RATE_SECONDS + 0.5:
            said.popleft()
        if len(said) >= CHAT_RATE_COUNT:
            return
        said.append(now)
        t0 = time.perf_counter()
        try:
            r = await conn.request("POST", f"/api/games/{game.id}/chat",
                                   token=game.tokens[seat], body=_json({"body": words}))
        except HttpError as e:
            self._error(f"chat {type(e).__name__}")
            return
        if r.status != 201:
            self._error(f"chat {r.status}")
            return
        self.results.chat_latencies.append(time.perf_counter() - t0)

    async def _check(self, conn: Connection, game: Game) -> None:
        """Every acknowledged move is in the record at its seq; nothing else but moves
        whose answer never came."""
        try:
            r = await conn.request("GET", f"/api/games/{game.id}/record",
                                   safe=True)
        except HttpError as e:
            self._error(f"record {type(e).__name__}")
            game.unchecked = True
            return
        if r.status != 200:
            self._error(f"record {r.status}")
            game.unchecked = True
            return
        actions = r.json().get("actions", [])
        game.lost = sum(1 for seq, action in game.acked
                        if not (1 <= seq <= len(actions) and actions[seq - 1] == action))
        game.unexpected = max(0, len(actions) - len(game.acked) - game.unacked)
