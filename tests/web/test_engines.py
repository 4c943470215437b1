"""The engine behind the server (``endeavor.web.compute``): the search bots' moves, the
time-out bots' and the reviews computed by engine workers of another interpreter (the
compiled build) when one is configured or has been built, by the server's own process
otherwise; the switch without a restart once the build appears; a missing, failed,
stale or dying build leaves the server working on its own build; the same moves and
reviews wherever they are computed; ``GET /api/status`` and ``endeavor serve`` saying
which build does the work.

The worker-process tests use this very interpreter as the "other" one (a worker of the
pure build, the same sources); those of the real compiled build take the
``compiled_python`` fixture (``make test-web-compiled``)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tools.loadtest import ServerProcess
from webapi import eventually

import endeavor
from endeavor import replay
from endeavor.analysis.review import review
from endeavor.bots import make
from endeavor.cli import main
from endeavor.web import compute
from endeavor.web.bots import BotRunner, bot_seed
from endeavor.web.compute import Engines
from endeavor.web.reviews import Reviewer, ReviewSettings

FIXTURE = Path(__file__).parent.parent / "fixtures" / "review_2p.record.json"
RECORD: dict[str, Any] = json.loads(FIXTURE.read_text())
#: a position 40 actions into the fixture's game
PART = {**RECORD, "actions": RECORD["actions"][:40]}
BUDGET = {"iterations": 30}
REVIEW = ReviewSettings(iterations=5, poll_seconds=0.05, flush_seconds=0.0)
HERE = "compiled" if endeavor.COMPILED else "pure"


def _here(bot: str, record: dict[str, Any], seed: int) -> str:
    return str(make(bot, seed=seed, **BUDGET).choose(replay(record)))


@pytest.fixture
def engines() -> Iterator[Engines]:
    """Engine workers of this interpreter."""
    e = Engines(sys.executable, check_seconds=0)
    yield e
    e.close()


def _this_python(path: Path) -> Path:
    """An interpreter at ``path`` that is this one with this process's sources (it
    drops the ``-I`` an engine worker of another interpreter is started with, so its
    ``PYTHONPATH`` holds)."""
    where = os.pathsep.join(os.path.abspath(p) for p in sys.path if p)
    path.write_text(f'#!/bin/sh\n[ "$1" = "-I" ] && shift\nexport PYTHONPATH="{where}"\n'
                    f'exec {sys.executable} "$@"\n')
    path.chmod(0o755)
    return path


def _fake_checkout(tmp_path: Path) -> tuple[Path, Path]:
    """A checkout whose ``.venv-mypyc/bin/python`` is this interpreter (no stamp yet)."""
    bin_dir = tmp_path / compute.CHECKOUT_VENV / "bin"
    bin_dir.mkdir(parents=True)
    return tmp_path, _this_python(bin_dir / "python")


def _script(tmp_path: Path, name: str, body: str) -> str:
    """An executable file standing for an interpreter (whatever arguments it gets)."""
    path = tmp_path / name
    path.write_text(body)
    path.chmod(0o755)
    return str(path)


def test_the_pure_setting_computes_in_this_process() -> None:
    e = Engines(compute.PURE)
    assert e.status() == compute.local_status("off")
    assert e.status().build == HERE
    assert e.python is None
    assert e.choose(PART, "hard", 1, BUDGET) is None  # the caller computes it
    assert Engines().setting == compute.PURE  # the tests' environment (conftest)


def test_a_workers_moves_are_the_ones_computed_here(engines: Engines) -> None:
    status = engines.status()
    assert status.to_dict() == {"build": "pure", "compiled_build": "ready",
                                "text": "pure Python (in worker processes)"} or \
        endeavor.COMPILED
    assert engines.python == sys.executable
    for bot, seed in (("hard", 7), ("mcts", 8), ("hard", bot_seed("g", 40))):
        assert engines.choose(PART, bot, seed, BUDGET) == _here(bot, PART, seed)
    assert engines.served == 3
    with engines.worker() as worker:  # one worker, kept for the next request
        assert worker is not None and worker.alive
        pid = worker.process.pid
    with engines.worker() as worker:
        assert worker is not None and worker.process.pid == pid


def test_the_bot_runner_and_the_clocks_use_the_workers(make_app: Callable[..., FastAPI],
                                                       ) -> None:
    """A game against ``hard``: its moves come from the engine workers and are the
    moves an app without workers plays; a player's time-out bot too."""
    played: dict[str | None, list[str]] = {}
    for setting in (None, sys.executable):
        app = make_app(engine_python=setting, quick_budget=0.0)
        with TestClient(app) as client:
            r = client.post("/api/games", json={"config": {"players": 2, "seed": 11},
                                                "seats": ["bot:hard", "bot:hard"]})
            gid = r.json()["id"]
            runner: BotRunner = app.state.runner
            eventually(lambda g=gid: client.get(f"/api/games/{g}").json()["seq"] >= 12,
                       60, "12 bot moves")
            runner.stop()
            snap = app.state.store.snapshot(gid)
            played[setting] = snap.state.record()["actions"][:12]
            if setting is not None:
                assert runner.engines is not None and runner.engines.served >= 12
                again = runner.choose(snap, "hard")  # as the clocks call it
                assert again == _here("hard", snap.state.record(),
                                      bot_seed(gid, snap.seq))
    assert played[None] == played[sys.executable]


def test_auto_switches_once_the_build_appears_without_a_restart(tmp_path: Path) -> None:
    checkout, python = _fake_checkout(tmp_path)
    e = Engines(compute.AUTO, checkout=checkout, check_seconds=0)
    try:
        assert e.status().compiled_build == "missing" and e.python is None
        (checkout / compute.BUILD_PID).write_text(f"{os.getpid()}\n")  # a build runs
        assert e.status().to_dict() == {"build": HERE, "compiled_build": "building",
                                        "text": "pure Python (compiled build in progress)"} \
            or endeavor.COMPILED
        assert e.choose(PART, "hard", 3, BUDGET) is None
        (checkout / compute.BUILD_PID).unlink()
        (python.parent.parent / compute.STAMP).touch()  # the build is done
        assert e.choose(PART, "hard", 3, BUDGET) == _here("hard", PART, 3)
        assert e.python == str(python) and e.served == 1
        assert e.status().compiled_build == "ready"
    finally:
        e.close()


def test_a_failed_build_leaves_the_server_on_its_own(tmp_path: Path,
                                                     make_app: Callable[..., FastAPI]) -> None:
    checkout, _ = _fake_checkout(tmp_path)
    (checkout / compute.BUILD_LOG).write_text("make compiled\nerror: no compiler\n"
                                              "exit status 2\n")
    e = Engines(compute.AUTO, checkout=checkout, check_seconds=0)
    assert e.status().compiled_build == "failed"
    assert e.status().text == "pure Python (the compiled build failed)" or endeavor.COMPILED
    assert e.choose(PART, "hard", 3, BUDGET) is None
    # an interpreter that cannot start, or one of other sources: not used, said so
    dead = _script(tmp_path, "dead", "#!/bin/sh\nexit 3\n")
    other = _script(tmp_path, "other", "#!/bin/sh\nread line\necho '{\"ok\": true, "
                    f"\"protocol\": {compute.PROTOCOL}, \"digest\": \"0\", "
                    "\"compiled\": true}'\n")
    for path, state in ((dead, "failed"), (other, "stale"),
                        (str(tmp_path / "none"), "missing")):
        e = Engines(path, check_seconds=0)
        assert e.status().compiled_build == state, path
        assert e.choose(PART, "hard", 3, BUDGET) is None
        e.close()
    # and the app plays on: its bots' moves computed here
    app = make_app(engine_python=dead)
    with TestClient(app) as client:
        gid = client.post("/api/games", json={"config": {"players": 2, "seed": 2},
                                              "seats": ["human", "bot:hard"]}).json()["id"]
        snap = app.state.store.snapshot(gid)
        assert app.state.runner.choose(snap, "hard") == _here(
            "hard", snap.state.record(), bot_seed(gid, snap.seq))
        status = client.get("/api/status").json()
        assert status["engine"]["compiled_build"] == "failed"


def test_a_worker_that_dies_mid_request_is_replaced(tmp_path: Path) -> None:
    """A worker that answers ``hello`` and dies on the next request: the move is
    computed here (the same move), and the next request gets a new worker."""
    path = os.pathsep.join(sys.path)
    dying = _script(tmp_path, "dying", f"#!{sys.executable}\n"
                    "import io, os, sys\n"
                    f"sys.path[:0] = {path!r}.split({os.pathsep!r})\n"
                    "from endeavor.web import compute\n"
                    "compute.serve_requests(io.StringIO(sys.stdin.readline()), sys.stdout)\n"
                    "sys.stdout.flush()\n"
                    "os._exit(9)\n")
    e = Engines(dying, check_seconds=0)
    try:
        assert e.status().compiled_build == "ready"
        assert e.choose(PART, "hard", 5, BUDGET) is None
        with e.worker() as worker:
            assert worker is not None and worker.alive  # a new one
    finally:
        e.close()


@pytest.fixture(scope="module")
def expected() -> str:
    return review(RECORD, iterations=REVIEW.iterations).to_json()


def test_a_review_in_a_worker_is_the_review_computed_here(engines: Engines,
                                                          expected: str) -> None:
    seen: list[tuple[int, int]] = []
    got: list[Any] = []
    result = engines.review(RECORD, {"iterations": REVIEW.iterations, "workers": 1}, (),
                            {"progress": lambda d, t: seen.append((d, t)),
                             "on_decision": got.append})
    assert result is not None and result.to_json() == expected
    assert seen[0] == (0, 91) and seen[-1] == (91, 91) and len(got) == 91
    # resumed from decisions known: only the others computed, the same review
    got2: list[Any] = []
    again = engines.review(RECORD, {"iterations": REVIEW.iterations, "workers": 1},
                           got[:80], {"on_decision": got2.append})
    assert again is not None and again.to_json() == expected and len(got2) == 11


class Stop(Exception):
    pass


def test_a_review_stopped_by_the_server_frees_the_worker(engines: Engines,
                                                         expected: str) -> None:
    def progress(done: int, total: int) -> None:
        if done == 10:
            raise Stop()

    with pytest.raises(Stop):
        engines.review(RECORD, {"iterations": REVIEW.iterations, "workers": 1}, (),
                       {"progress": progress})
    with engines.worker() as worker:  # the same worker, ready for the next request
        assert worker is not None and worker.alive
    assert engines.choose(PART, "hard", 4, BUDGET) == _here("hard", PART, 4)


def test_the_reviewer_on_workers(make_app: Callable[..., FastAPI], expected: str) -> None:
    """The app's reviewer with engine workers: the stored review is the one computed
    here, its progress written as it goes."""
    app = make_app(review=REVIEW, run_reviews=False, engine_python=sys.executable)
    with TestClient(app) as client:
        r = client.post("/api/games/import", json={"record": RECORD,
                                                   "seats": ["human", "human"]})
        gid = r.json()["id"]
        engines = Engines(sys.executable, check_seconds=0)
        reviewer = Reviewer(app.state.store, REVIEW, engines=engines)
        try:
            assert reviewer.run_once() == "done"
        finally:
            engines.close()
        assert engines.served == 1 and reviewer.computed == 91
        body = client.get(f"/api/games/{gid}/review").json()
        assert body["status"] == "done" and json.dumps(body["review"]) == json.dumps(
            json.loads(expected))


def test_the_status_endpoint(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        body = client.get("/api/status").json()
        assert body == {"version": endeavor.__version__,
                        "engine": compute.local_status().to_dict()}
        assert body["engine"]["build"] == HERE
        page = client.get("/").text
        assert (f'data-build="{HERE}">Endeavor {endeavor.__version__} · engine: '
                f'{body["engine"]["text"]}</footer>') in page
    with TestClient(make_app(engine_python=sys.executable)) as client:
        engine = client.get("/api/status").json()["engine"]
        assert engine["compiled_build"] == "ready" and engine["build"] == HERE


def test_serve_says_where_the_engine_runs(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    saved = dict(os.environ)  # serve sets the workers' environment before it stops
    try:
        assert main(["serve", "--db", f"sqlite:///{tmp_path}/x.db", "--port", "1",
                     "--engine-python", str(tmp_path / "nothing")]) == 2
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert "--engine-python" in capsys.readouterr().err
    server = ServerProcess(f"sqlite:///{tmp_path}/s.db", log=tmp_path / "s.log",
                           extra=("--engine-python", sys.executable))
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=20.0, trust_env=False) as client:
            assert client.get("/api/status").json()["engine"]["compiled_build"] == "ready"
        text = "compiled (mypyc)" if endeavor.COMPILED else "pure Python (in worker processes)"
        assert f"engine: {text}; engine workers: {sys.executable}" in server.log_tail(20)
    finally:
        server.close()


@pytest.mark.compiled_engine
def test_the_compiled_build_does_the_work(compiled_python: str, tmp_path: Path,
                                          expected: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The real compiled build: its workers say so, play the moves computed here (both
    builds play identical games) and review identically; ``endeavor serve`` with it
    says ``compiled (mypyc)`` on its status and on the page."""
    e = Engines(compiled_python, check_seconds=0)
    try:
        assert e.status().to_dict() == {"build": "compiled", "compiled_build": "ready",
                                        "text": "compiled (mypyc)"}
        assert e.choose(PART, "hard", 9, BUDGET) == _here("hard", PART, 9)
        result = e.review(RECORD, {"iterations": REVIEW.iterations, "workers": 1})
        assert result is not None and result.to_json() == expected
    finally:
        e.close()
    monkeypatch.setenv(compute.ENGINE_PYTHON_VAR, compiled_python)
    server = ServerProcess(f"sqlite:///{tmp_path}/c.db", log=tmp_path / "c.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=20.0, trust_env=False) as client:
            engine = client.get("/api/status").json()["engine"]
            assert engine["build"] == "compiled" and engine["text"] == "compiled (mypyc)"
        assert (f"engine: compiled (mypyc); engine workers: {compiled_python}"
                in server.log_tail(20))
    finally:
        server.close()


def test_the_default_of_endeavor_serve_is_auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compute.ENGINE_PYTHON_VAR)
    assert Engines.from_env().setting == compute.AUTO
    assert Engines().setting == compute.PURE  # an app made in-process: no workers
    started = time.process_time()
    assert compute.own_digest() == compute.engine_digest()
    assert time.process_time() - started < 2
