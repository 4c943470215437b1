"""``endeavor admin`` on SQLite and PostgreSQL: list the accounts, disable and enable
one, a one-time password-reset link (valid one hour) and the endpoint that takes it;
errors are one line and an exit status of 2, never a traceback."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from endeavor.cli import main
from endeavor.web.app import create_app

PASSWORD = "correct horse battery"


@pytest.fixture
def url(both_db_url: str) -> str:
    return both_db_url


@pytest.fixture
def app(url: str) -> Iterator[FastAPI]:
    made = create_app(url, bot_budgets={"hard": {"iterations": 30}})
    with TestClient(made):
        yield made


def admin(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["admin", *args])
    out, err = capsys.readouterr()
    return code, out, err


def sign_in(app: FastAPI, name: str, password: str = PASSWORD) -> int:
    status: int = TestClient(app).post("/api/account/signin",
                                       json={"name": name, "password": password}).status_code
    return status


def test_list_disable_and_enable(app: FastAPI, url: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = admin(capsys, "accounts", "--db", url)
    assert code == 0 and "no accounts" in out
    c = TestClient(app)
    for name in ("Anna", "Bea"):
        r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201
    code, out, _ = admin(capsys, "accounts", "--db", url)
    assert code == 0 and "2 accounts" in out
    assert re.search(r"^Anna\s+\S+ \S+\s+active\s+1\s+0$", out, re.M), out
    code, out, _ = admin(capsys, "disable", "anna", "--db", url)
    assert code == 0 and "Anna: disabled" in out
    assert c.get("/api/account").status_code == 200  # Bea's session, the last one made
    assert sign_in(app, "Anna") == 403
    assert sign_in(app, "Anna", "a wrong password") == 401  # no hint without the password
    code, out, _ = admin(capsys, "accounts", "--db", url)
    assert re.search(r"^Anna\s+\S+ \S+\s+disabled\s+0\s+0$", out, re.M), out
    code, out, _ = admin(capsys, "enable", "ANNA", "--db", url)
    assert code == 0 and "Anna: enabled" in out
    assert sign_in(app, "Anna") == 200


def test_a_reset_link_sets_a_new_password_once(app: FastAPI, url: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    c = TestClient(app)
    c.post("/api/account/signup", json={"name": "Cy", "password": PASSWORD})
    code, out, _ = admin(capsys, "reset-link", "cy", "--db", url,
                         "--public-url", "https://games.example.org/endeavor")
    assert code == 0 and "valid 60 minutes, once" in out
    found = re.search(r"https://games\.example\.org/endeavor/account/reset#(\S+)", out)
    assert found, out
    token = found.group(1)
    r = c.post("/api/account/reset", json={"token": token, "password": "short"})
    assert r.status_code == 400 and "at least 8" in r.json()["detail"]
    r = c.post("/api/account/reset", json={"token": token, "password": "a new password"})
    assert r.status_code == 204
    assert c.get("/api/account").status_code == 401  # every session ended
    assert sign_in(app, "Cy") == 401
    assert sign_in(app, "Cy", "a new password") == 200
    r = c.post("/api/account/reset", json={"token": token, "password": "another one!"})
    assert r.status_code == 400 and "unknown, used or expired" in r.json()["detail"]


def test_errors_are_one_line(app: FastAPI, url: str, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    for args in (("disable", "nobody", "--db", url), ("reset-link", "nobody", "--db", url)):
        code, out, err = admin(capsys, *args)
        assert code == 2 and err == "endeavor: error: no account called 'nobody'\n"
    code, _, err = admin(capsys, "accounts", "--db", f"sqlite:///{tmp_path}/none.db")
    assert code == 2 and err.startswith("endeavor: error: no database at")
    assert not (tmp_path / "none.db").exists()
    code, _, err = admin(capsys, "accounts", "--db", "nosuchdriver://x")
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1
    code, _, err = admin(capsys, "reset-link", "x", "--db", url, "--public-url", "ftp://x")
    assert code == 2 and "--public-url" in err
    code, _, err = admin(capsys)
    assert code == 2 and "WHAT" in err
