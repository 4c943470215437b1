"""``endeavor loadtest``: many concurrent games driven through the HTTP API, measured.

The load test starts ``endeavor serve`` in another process on a free loopback port (with
``--db``, by default a new SQLite file in a temporary directory, and ``--workers``), or
uses the server already running at ``--url`` (loopback addresses only). It creates
``--games`` two-player games whose seats are all ``human``, so it plays every move
itself: random legal moves from each view's ``legal_actions``, seeded by ``--seed``, each
after a pause of ``--think`` seconds on average (0: at once). The games are played
concurrently (asyncio), each with a WebSocket counting the ``seq`` announcements it
receives; a move is a POST by the seat to move and a GET of the view by the next one, as
two browsers would do.

The client is kept lean, so that it measures the server rather than its own queue (it
shares the machine with the server): each game's requests go through one kept-alive
connection of :mod:`endeavor.web.minihttp`, the players decode of each view only the
members they read (:func:`read_view`), and the WebSockets are opened without
compression (the server's announcements are a few dozen bytes).

Measured: the round trip of every move (``POST /api/games/{id}/actions`` until its 200),
reported as p50/p95/p99/max in ms; acknowledged moves per second; errors by status; the
WebSocket messages. At the end every acknowledged move is checked against the game's
``/record``: the move acknowledged with ``seq`` N must be the record's N-th action (the
load test never undoes). A move lost, an error, or a WebSocket that did not see the final
``seq`` makes the run fail (exit status 1); the report is printed either way.

``--clock S`` gives every game a turn-based clock of S seconds per decision (so every
move also writes the clock's deadline and banks); ``--notify`` starts a webhook receiver
on loopback, has every seat set a webhook to it before the load starts (the server is
started with ``--allow-private-webhooks``), and reports the notifications it received:
the server's turn notifications are sent in the background while the moves are measured.
``--chat P`` has the seat to move post a chat message before a move with probability P
(measured apart: the chat's round trips; every game's WebSocket then also carries chat
frames, and each turn notification the chat lines its seat has not seen).

:class:`ServerProcess` (start ``endeavor serve`` as a process, wait until it answers,
stop or ``kill -9`` it) and :func:`free_port` are also used by the tests that need a real
server (``tests/web/test_crash.py``, ``tests/web/test_postgres.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import ipaddress
import json
import os
import random
import re
import resource
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

import httpx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import WebSocketException

from endeavor.errors import UsageError

from .chat import RATE_COUNT as CHAT_RATE_COUNT
from .chat import RATE_SECONDS as CHAT_RATE_SECONDS
from .minihttp import Connection, HttpError

HOST = "127.0.0.1"
START_TIMEOUT = 90.0  # seconds for a started server to answer (migrations included)
STOP_TIMEOUT = 15.0  # seconds for a server to stop after SIGTERM before SIGKILL
REQUEST_TIMEOUT = 60.0  # seconds for one HTTP request
WS_OPEN_TIMEOUT = 30.0
WS_SETTLE = 5.0  # seconds the WebSockets get at the end to announce the final seq
KEEPALIVE_EXPIRY = 2.0  # seconds a game's connection may stay idle before a new one
MAX_CONSECUTIVE_ERRORS = 5  # a game stops after this many failed requests in a row
PLAYERS = 2
#: mean pause in seconds of a game's player before each move (uniform in [0, 2x mean]),
#: when ``args`` has no ``think`` (the command line's ``--think`` has its own default);
#: 0 plays each game as fast as the server answers (a closed loop: the round trip is then
#: mostly queueing, about G games in flight / throughput, whatever the server's speed)
DEFAULT_THINK = 0.0
#: the Python statement that runs the command line in the server process (the same
#: interpreter as ours, so the same installation of endeavor)
LAUNCH = "import sys; from endeavor.cli import main; sys.exit(main(sys.argv[1:]))"


#: the task running :meth:`Driver.run` (SIGTERM cancels it)
_MAIN_TASKS: set[asyncio.Task[None]] = set()


class ServerError(Exception):
    """The server process did not start, or died."""


# --------------------------------------------------------------------------- the server
def free_port(host: str = HOST) -> int:
    """A TCP port nobody listens on right now at ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine's loopback."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def hide_password(url: str) -> str:
    """``url`` with the password of its user part (if any) replaced by ``***``."""
    return re.sub(r"^([a-zA-Z0-9+.-]+://[^:/@]*):[^@/]*@", r"\1:***@", url)


class ServerProcess:
    """``endeavor serve`` in a process of its own (its own session, so a ``kill`` reaches
    the Uvicorn workers too), listening on ``127.0.0.1:port``, its output in ``log``."""

    def __init__(self, db: str, *, workers: int = 1, port: int | None = None,
                 log: Path | None = None, extra: tuple[str, ...] = ()) -> None:
        self.db = db
        self.workers = workers
        self.fixed_port = port
        self.port = port if port is not None else free_port()
        self.extra = extra
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if log is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="endeavor-server-")
            log = Path(self._tmp.name) / "server.log"
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def command(self) -> list[str]:
        return [sys.executable, "-c", LAUNCH, "serve", "--host", HOST,
                "--port", str(self.port), "--db", self.db, "--workers", str(self.workers),
                *self.extra]

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the server and wait until ``GET /api/meta`` answers 200; a port taken
        meanwhile by someone else gets a new one (when the port was not given)."""
        for attempt in range(3):
            self._spawn()
            try:
                self._wait_ready(timeout)
                return
            except ServerError:
                in_use = "address already in use" in self.log_tail(20).lower()
                self.kill()
                if not in_use or self.fixed_port is not None or attempt == 2:
                    raise
                self.port = free_port()

    def _spawn(self) -> None:
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        self._log_file = open(self.log, "ab")  # noqa: SIM115  (closed in _reap)
        self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL,
                                     stdout=self._log_file, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True)

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.url, timeout=5.0, trust_env=False) as client:
            while True:
                assert self.proc is not None
                rc = self.proc.poll()
                if rc is not None:
                    raise ServerError(f"the server exited with status {rc} at start: "
                                      f"{self.log_tail(1) or 'no output'}")
                try:
                    if client.get("/api/meta").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise ServerError(f"the server did not answer within {timeout:.0f} s: "
                                      f"{self.log_tail(1) or 'no output'}")
                time.sleep(0.1)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _signal(self, sig: int) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)  # the session: the workers too

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after :data:`STOP_TIMEOUT`)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                pass
        self._signal(signal.SIGKILL)  # anything left in its session
        self._reap()

    def kill(self) -> None:
        """``kill -9`` the server and its workers at once (a crash)."""
        if self.proc is None:
            return
        self._signal(signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(STOP_TIMEOUT)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        self.proc = None

    def log_tail(self, lines: int = 20) -> str:
        """The last ``lines`` non-empty lines the server printed."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join([ln for ln in text.splitlines() if ln.strip()][-lines:])

    def close(self) -> None:
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
            raise UsageError("the load test's webhook receiver did not start")
        self.url = f"http://{HOST}:{port.value}/hook"

    @property
    def count(self) -> int:
        return int(self._count.value)

    def close(self) -> None:
        self._proc.kill()
        self._proc.join(5)


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
            raise UsageError(f"the server at {self.url} created no game: "
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


# --------------------------------------------------------------------------- the report
def _report(driver: Driver, args: argparse.Namespace, target: str,
            started: bool, notifications: int | None = None) -> dict[str, Any]:
    res = driver.results
    games = driver.games
    moves = len(res.latencies)
    lost = sum(g.lost for g in games)
    unexpected = sum(g.unexpected for g in games)
    ws_behind = sum(1 for g in games if g.ws_error is None and g.ws_seq < g.final_seq)
    errors = dict(sorted(res.errors.items()))
    return {
        "games": len(games),
        "games_requested": args.games,
        "moves_per_game": args.moves,
        "think_s": driver.think,
        "clock_s": driver.clock,
        "notifications": notifications,
        "chat_rate": driver.chat,
        "chat_messages": len(res.chat_latencies),
        "chat_latency_ms": _ms_summary(res.chat_latencies),
        "workers": args.workers if started else None,
        "server": "started" if started else "given",
        "url": target,
        "db": hide_password(args.db) if started and args.db else
        ("temporary SQLite file" if started else None),
        "moves": moves,
        "seconds": round(res.seconds, 3),
        "moves_per_s": round(moves / res.seconds, 1) if res.seconds > 0 else 0.0,
        "latency_ms": _ms_summary(res.latencies),
        "view_latency_ms": _ms_summary(res.get_latencies),
        "create_latency_ms": _ms_summary(res.create_latencies),
        "errors": errors,
        "error_count": sum(errors.values()),
        "ws_messages": sum(g.ws_messages for g in games),
        "ws_behind": ws_behind,
        "games_over": sum(1 for g in games if g.over),
        "lost": lost,
        "unexpected": unexpected,
        "unchecked_games": sum(1 for g in games if g.unchecked),
        "ok": not errors and lost == 0 and unexpected == 0 and ws_behind == 0
        and len(games) == args.games and not any(g.unchecked for g in games),
    }


def _print_report(out: Console, rep: dict[str, Any]) -> None:
    lat = rep["latency_ms"]
    table = Table(title="endeavor loadtest", show_header=False, title_justify="left")
    table.add_column("what")
    table.add_column("value")
    server = (f"started, {rep['workers']} worker(s), db {rep['db']}"
              if rep["server"] == "started" else "given")
    table.add_row("server", f"{rep['url']} ({server})")
    table.add_row("games", f"{rep['games']} x {rep['moves_per_game']} moves, "
                           f"{rep['games_over']} over before the end, think time "
                           f"{rep['think_s']:g} s")
    if rep.get("clock_s") is not None:
        table.add_row("clocks", f"{rep['clock_s']:g} s per decision in every game")
    if rep.get("notifications") is not None:
        table.add_row("notifications", f"{rep['notifications']:,} webhook POSTs received "
                                       "(every seat set one)")
    if rep.get("chat_messages"):
        chat = rep["chat_latency_ms"]
        table.add_row("chat", f"{rep['chat_messages']:,} messages posted (p50 "
                              f"{chat['p50']:.1f} ms, p99 {chat['p99']:.1f} ms)")
    table.add_row("moves acknowledged", f"{rep['moves']:,} in {rep['seconds']:.1f} s: "
                                        f"{rep['moves_per_s']:,.1f} moves/s")
    table.add_row("move round trip (ms)", f"p50 {lat['p50']:.1f}  p95 {lat['p95']:.1f}  "
                                          f"p99 {lat['p99']:.1f}  max {lat['max']:.1f}")
    view = rep["view_latency_ms"]
    table.add_row("view round trip (ms)", f"p50 {view['p50']:.1f}  p99 {view['p99']:.1f}")
    errors = ", ".join(f"{k}: {v}" for k, v in rep["errors"].items()) or "none"
    table.add_row("errors", errors)
    table.add_row("WebSocket messages", f"{rep['ws_messages']:,} "
                                        f"({rep['ws_behind']} game(s) behind at the end)")
    unchecked = (f", {rep['unchecked_games']} game(s) whose record could not be read"
                 if rep["unchecked_games"] else "")
    table.add_row("lost moves", f"{rep['lost']} (unexpected in records: {rep['unexpected']}"
                                f"{unchecked})")
    table.add_row("result", "ok" if rep["ok"] else "FAILED")
    out.print(table)


@contextlib.contextmanager
def _progress(out: Console, total: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    if not enabled:
        yield lambda n: None
        return
    columns = (TextColumn("moves"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=out, transient=True) as progress:
        task = progress.add_task("moves", total=total)
        yield lambda n: progress.advance(task, n)


def _raise_fd_limit(need: int) -> None:
    """Room for ``need`` sockets (two per game), as far as the hard limit allows."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = need + 256
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))


def run(args: argparse.Namespace, out: Console) -> int:
    """``endeavor loadtest``: 0 when every move was acknowledged and kept, 1 otherwise."""
    games: int = args.games
    moves: int = args.moves
    url: str | None = args.url
    if url is not None:
        if args.db is not None:
            raise UsageError("--db is for the server the load test starts; not with --url")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise UsageError(f"--url must be http://HOST:PORT, not {url!r}")
        if not is_loopback(parts.hostname):
            raise UsageError(f"--url must be a loopback address (127.0.0.1, ::1, localhost), "
                             f"not {parts.hostname!r}")
    think = float(getattr(args, "think", DEFAULT_THINK))
    if not 0.0 <= think <= 60.0:
        raise UsageError(f"--think must be 0 to 60 seconds, not {think}")
    _raise_fd_limit(2 * games + 64)
    with _terminate_as_interrupt(), _quiet_gc():
        return _run(args, out, games, moves, url, think)


#: the client's collection thresholds while it measures (CPython's are 700, 10, 10): a
#: full collection of its many live views stops it for 75-160 ms every few seconds, and
#: the moves whose pauses ended meanwhile then reach the server all at once, a burst the
#: server did not cause (the server tunes its own collector the same way, ``tune_gc``)
CLIENT_GC_THRESHOLDS = (20_000, 50, 100)


@contextlib.contextmanager
def _quiet_gc() -> Iterator[None]:
    """Collect and freeze what exists, then collect rarely while the load runs; the
    previous thresholds come back afterwards."""
    previous = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*CLIENT_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()


def retrieve_exception(future: asyncio.Future[Any]) -> None:
    """Read a finished future's exception: Ctrl-C cancels every task at once, and a
    gather under ``wait_for`` whose tasks were cancelled first holds a CancelledError that
    nobody awaits (asyncio then prints "exception was never retrieved" at exit)."""
    if not future.cancelled():
        future.exception()


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt meanwhile (as Ctrl-C does), so the server is
    stopped on the way out whichever way the load test is stopped."""
    def interrupt(signum: int, frame: object) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: stop right here
            raise KeyboardInterrupt from None
        for task in _MAIN_TASKS:  # the driver's: cancelled, as asyncio does on Ctrl-C
            loop.call_soon_threadsafe(task.cancel)

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _probe(target: str) -> None:
    """:class:`UsageError` unless a server answers ``GET /api/meta`` at ``target`` (with
    the client the load test uses, so an ``https`` server is trusted as in the test)."""
    async def meta() -> None:
        conn = Connection(target, timeout=10.0)
        try:
            await conn.request("GET", "/api/meta", safe=True)
        finally:
            await conn.close()

    try:
        asyncio.run(meta())
    except HttpError as e:
        raise UsageError(f"no server answering at {target}: {e}") from None


def _run(args: argparse.Namespace, out: Console, games: int, moves: int, url: str | None,
         think: float) -> int:
    server: ServerProcess | None = None
    tmp: tempfile.TemporaryDirectory[str] | None = None
    notify = bool(getattr(args, "notify", False))
    clock: float | None = getattr(args, "clock", None)
    receiver = Receiver() if notify else None
    try:
        if url is None:
            tmp = tempfile.TemporaryDirectory(prefix="endeavor-loadtest-")
            db = args.db or f"sqlite:///{Path(tmp.name) / 'loadtest.db'}"
            server = ServerProcess(db, workers=args.workers,
                                   log=Path(tmp.name) / "server.log",
                                   extra=("--allow-private-webhooks",) if notify else ())
            if not args.quiet and not args.json:
                out.print(f"starting endeavor serve ({args.workers} worker(s), "
                          f"db {hide_password(db)})")
            try:
                server.start()
            except ServerError as e:
                raise UsageError(str(e)) from None
            target = server.url
        else:
            target = url.rstrip("/")
            _probe(target)
        # with --json the bar goes to stderr, so stdout is the one JSON object
        bar = Console(stderr=True) if args.json else out
        with _progress(bar, games * moves, not args.quiet) as advance:
            driver = Driver(target, games, moves, args.seed, advance, think, clock,
                            receiver.url if receiver is not None else None,
                            chat=float(getattr(args, "chat", 0.0) or 0.0))
            try:
                asyncio.run(driver.run())
            except asyncio.CancelledError:  # SIGTERM
                raise KeyboardInterrupt from None
        if server is not None and not server.running():
            raise UsageError(f"the server died during the test: {server.log_tail(1)}")
        if receiver is not None:
            time.sleep(WS_SETTLE)  # the last notifications on their way
        rep = _report(driver, args, target, server is not None,
                      receiver.count if receiver is not None else None)
    finally:
        if receiver is not None:
            receiver.close()
        if server is not None:
            server.close()
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        print(json.dumps(rep), flush=True)
    else:
        _print_report(out, rep)
    return 0 if rep["ok"] else 1
