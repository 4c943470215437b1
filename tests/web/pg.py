"""Helpers for the web tests that need real services: the PostgreSQL test server
(``ENDEAVOR_TEST_PG``, set by ``make test`` from ``tools/ci_services.sh``), a database of
its own for each test, and a few HTTP helpers for tests that drive a real server process
(:class:`tools.loadtest.ServerProcess`)."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

ENV = "ENDEAVOR_TEST_PG"


def pg_url() -> str:
    """The PostgreSQL URL of the tests: skips the test when ``ENDEAVOR_TEST_PG`` is not
    set, except under CI (``CI`` set), where that is a failure."""
    url = os.environ.get(ENV, "").strip()
    if url:
        return url
    reason = (f"{ENV} is not set: run tools/ci_services.sh (PostgreSQL on 127.0.0.1) and "
              f"set {ENV} to the URL it prints, or use make test")
    if os.environ.get("CI"):
        pytest.fail(f"under CI the PostgreSQL tests must run: {reason}")
    pytest.skip(reason)


def _libpq(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://...``) as a libpq one."""
    scheme, sep, rest = url.partition("://")
    return "postgresql://" + rest if sep and scheme.startswith("postgresql") else url


def _replace_db(url: str, db: str) -> str:
    """``url`` naming database ``db`` instead (query string kept)."""
    base, q, query = url.partition("?")
    head, _, _ = base.rpartition("/")
    return f"{head}/{db}{q}{query}"


@contextmanager
def fresh_database(base: str | None = None) -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server, dropped afterwards (with its
    connections); yields its SQLAlchemy URL. Without the right to create databases: a new
    schema in the test database instead, first on the connections' search path."""
    import psycopg
    from psycopg import sql

    base = base or pg_url()
    name = f"endeavor_t_{secrets.token_hex(6)}"
    try:
        admin = psycopg.connect(_libpq(base), autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as e:
        pytest.fail(f"cannot connect to {ENV}: {e}")
    with admin:
        try:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.errors.InsufficientPrivilege:
            admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
            sep = "&" if "?" in base else "?"
            try:
                yield f"{base}{sep}options=-csearch_path%3D{name}"
            finally:
                admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE")
                              .format(sql.Identifier(name)))
            return
        try:
            yield _replace_db(base, name)
        finally:
            _drop_database(admin, name)


def _drop_database(admin: Any, name: str) -> None:
    """Drop the test's database with its connections. ``WITH (FORCE)`` is refused while a
    process of another role (an autovacuum worker, say) is connected to it, so on that
    refusal this ends its own role's connections and tries again for a few seconds; a
    database still busy after that is left behind (a warning: it is empty and named
    ``endeavor_t_*``) rather than failing the test that used it."""
    import warnings

    import psycopg
    from psycopg import sql

    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    for _ in range(40):
        try:
            admin.execute(drop)
            return
        except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ObjectInUse):
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = %s AND usename = current_user "
                          "AND pid <> pg_backend_pid()", (name,))
            time.sleep(0.25)
    warnings.warn(f"test database {name} is still in use by another role; left behind",
                  stacklevel=2)


# --------------------------------------------------------------------------- HTTP helpers
def new_game(client: httpx.Client, seed: int = 0, players: int = 2) -> dict[str, Any]:
    """Create a game whose seats are all ``human``; the 201 answer's JSON."""
    r = client.post("/api/games", json={"config": {"players": players, "seed": seed},
                                        "seats": ["human"] * players})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def tokens(game: dict[str, Any]) -> dict[int, str]:
    """seat -> token of a created game."""
    return {int(s["seat"]): str(s["token"]) for s in game["seats"] if s.get("token")}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def view_to_move(client: httpx.Client, game_id: str,
                 toks: dict[int, str]) -> dict[str, Any]:
    """The view of the game for the seat to move (with its legal actions)."""
    view: dict[str, Any] = {}
    for _ in range(3):
        r = client.get(f"/api/games/{game_id}", headers=auth(toks[min(toks)]))
        assert r.status_code == 200, r.text
        view = r.json()
        seat = view["current_player"]
        if view["decision"] is None or seat in view["you"]:
            return view
        r = client.get(f"/api/games/{game_id}", headers=auth(toks[seat]))
        assert r.status_code == 200, r.text
        view = r.json()
        if view["current_player"] == seat:
            return view
    return view


def record_actions(client: httpx.Client, game_id: str) -> list[str]:
    r = client.get(f"/api/games/{game_id}/record")
    assert r.status_code == 200, r.text
    actions: list[str] = r.json()["actions"]
    return actions
