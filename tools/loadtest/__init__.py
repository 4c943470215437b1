"""The web app's load test: many concurrent games driven through the HTTP API, measured.
Run from a checkout: ``python -m tools.loadtest --games 200`` (or ``make loadtest
ARGS="--games 200"``); ``--help`` lists the options. It is a tool of the repository, not
part of the installed package.

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
connection of :mod:`tools.loadtest.minihttp`, the players decode of each view only the
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
server (``tests/web/test_crash.py``, ``tests/web/test_postgres.py``...).
"""

from __future__ import annotations

from .command import run
from .driver import VIEW_KEYS, Driver, Receiver, percentile, read_view, retrieve_exception
from .options import main, parser
from .server import (
    LAUNCH,
    LoadTestError,
    ServerError,
    ServerProcess,
    free_port,
    hide_password,
    is_loopback,
)

__all__ = ["LAUNCH", "VIEW_KEYS", "Driver", "LoadTestError", "Receiver", "ServerError",
           "ServerProcess", "free_port", "hide_password", "is_loopback", "main", "parser",
           "percentile", "read_view", "retrieve_exception", "run"]
