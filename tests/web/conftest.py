"""Fixtures of the web backend's tests: an app on a fresh SQLite file, a client, and
small helpers to create games and play moves through the HTTP API.

The servers the tests start (``endeavor serve`` in a process: :class:`tools.loadtest.
ServerProcess`) compute their bots and reviews in their own processes (``pure``, set
here), so a compiled build appearing beside the checkout mid-run (``make test`` builds
it in another lane) cannot change a test's course. The tests of the compiled engine
behind the server take the :func:`compiled_python` fixture and the ``compiled_engine``
mark: ``make test`` runs them once the compiled build is there (``make
test-web-compiled``); elsewhere they skip, saying why, when there is no such build."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from webapi import Api, auth  # noqa: F401  (auth: for the tests that import it from here)

from endeavor.web import compute
from endeavor.web.app import create_app

#: the checkout's root on the path: the load test and the server process the tests start
#: (``tools.loadtest``) are a tool of the repository, not of the installed package
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ[compute.ENGINE_PYTHON_VAR] = compute.PURE
#: the compiled build's interpreter for the compiled_engine tests (default: this
#: checkout's .venv-mypyc/bin/python)
COMPILED_PYTHON_VAR = "ENDEAVOR_TEST_ENGINE_PYTHON"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "compiled_engine: needs the compiled build of these "
                            "sources (the compiled_python fixture; make test-web-compiled)")


@pytest.fixture(scope="session")
def compiled_python() -> str:
    """The interpreter of a compiled build of these very sources (its engine workers
    say so): ``$ENDEAVOR_TEST_ENGINE_PYTHON``, else the checkout's ``.venv-mypyc``.
    Skips the test, saying why, when there is none (``make compiled`` builds it), or
    fails it when the variable named one; a test uses it as
    ``create_app(engine_python=compiled_python)``, or sets ``$ENDEAVOR_ENGINE_PYTHON``
    to it for a server process."""
    given = os.environ.get(COMPILED_PYTHON_VAR, "")
    path = given or str(ROOT / compute.CHECKOUT_VENV / "bin" / "python")
    missing = pytest.fail if given else pytest.skip
    if not os.access(path, os.X_OK):
        missing(f"no compiled build at {path} (make compiled builds it; make test "
                    "runs these tests after it: make test-web-compiled)")
    engines = compute.Engines(path, check_seconds=0)
    try:
        status = engines.status()
    finally:
        engines.close()
    if status.build != "compiled":
        missing(f"{path} is not a compiled build of these sources ({status.text}: "
                    "make compiled rebuilds it)")
    return path


#: search bots kept short and deterministic in tests (a real one thinks for a second)
TEST_BUDGETS = {"mcts": {"iterations": 30}, "hard": {"iterations": 30}}


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def both_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test on a fresh SQLite file and on a fresh PostgreSQL database (skipped
    without one, except under CI: :func:`pg.pg_url`)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.db"
        return
    from pg import fresh_database, pg_url

    with fresh_database(pg_url()) as url:
        yield url


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
