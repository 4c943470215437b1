"""Fixtures of the web backend's tests: an app on a fresh SQLite file, a client, and
small helpers to create games and play moves through the HTTP API."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webapi import Api, auth  # noqa: F401  (auth: for the tests that import it from here)

from endeavor.web.app import create_app

#: the checkout's root on the path: the load test and the server process the tests start
#: (``tools.loadtest``) are a tool of the repository, not of the installed package
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: search bots kept short and deterministic in tests (a real one thinks for a second)
TEST_BUDGETS = {"mcts": {"iterations": 30}, "hard": {"iterations": 30}}


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture
def make_app(db_url: str) -> Callable[..., FastAPI]:
    """Build an app on the test's database (call again for a 'restarted' server)."""
    def make(**kw: Any) -> FastAPI:
        kw.setdefault("bot_budgets", TEST_BUDGETS)
        kw.setdefault("poll_seconds", 0.05)
        return create_app(db_url, **kw)
    return make


@pytest.fixture
def client(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


@pytest.fixture
def api(client: TestClient) -> Api:
    return Api(client)
