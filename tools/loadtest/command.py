"""The load test's command line: its options, :func:`run` and the report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import resource
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .driver import (
    Driver,
    Receiver,
    _ms_summary,
)
from .minihttp import Connection, HttpError
from .server import (
    _MAIN_TASKS,
    DEFAULT_THINK,
    WS_SETTLE,
    LoadTestError,
    ServerError,
    ServerProcess,
    hide_password,
    is_loopback,
)


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
    table = Table(title="endeavor load test", show_header=False, title_justify="left")
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
    """The load test: 0 when every move was acknowledged and kept, 1 otherwise."""
    games: int = args.games
    moves: int = args.moves
    url: str | None = args.url
    if url is not None:
        if args.db is not None:
            raise LoadTestError("--db is for the server the load test starts; not with --url")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise LoadTestError(f"--url must be http://HOST:PORT, not {url!r}")
        if not is_loopback(parts.hostname):
            raise LoadTestError(f"--url must be a loopback address (127.0.0.1, ::1, localhost), "
                             f"not {parts.hostname!r}")
    think = float(getattr(args, "think", DEFAULT_THINK))
    if not 0.0 <= think <= 60.0:
        raise LoadTestError(f"--think must be 0 to 60 seconds, not {think}")
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
    """:class:`LoadTestError` unless a server answers ``GET /api/meta`` at ``target`` (with
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
        raise LoadTestError(f"no server answering at {target}: {e}") from None


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
                raise LoadTestError(str(e)) from None
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
            raise LoadTestError(f"the server died during the test: {server.log_tail(1)}")
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
