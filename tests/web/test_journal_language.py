"""The game journal's own lines (an undo, the host's changes, a clock running out) in
the reader's language (``?lang=``), on SQLite and PostgreSQL: French through
``?lang=fr``, the same English as ever through ``?lang=en``; a line known only by its
English text (an older form) is shown as it is."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import fresh_database, pg_url
from webapi import auth

from endeavor.web.store import LogLine
from endeavor.web.view import line_view


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test on a fresh SQLite file and on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.db"
    else:
        with fresh_database(pg_url()) as url:
            yield url


@pytest.fixture
def fast(make_app: Callable[..., FastAPI]) -> Iterator[TestClient]:
    """An app whose clock keeper looks for expired deadlines every 50 ms."""
    with TestClient(make_app(clock_seconds=0.05)) as c:
        yield c


def _clocked(client: TestClient, seats: list[str], **clock: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"config": {"players": len(seats), "seed": 6},
                                        "seats": seats, "clock": clock})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _lines(client: TestClient, gid: str, lang: str, *kinds: str) -> list[str]:
    r = client.get(f"/api/games/{gid}", params={"lang": lang})
    assert r.status_code == 200, r.text
    return [e["text"] for e in r.json()["events"] if e["kind"] in kinds]


def _host(client: TestClient, gid: str, token: str, body: dict[str, Any]) -> None:
    r = client.post(f"/api/games/{gid}/host/clock", headers=auth(token), json=body)
    assert r.status_code == 200, r.text


def test_host_and_undo_lines_in_french_and_in_the_same_english(fast: TestClient) -> None:
    g = _clocked(fast, ["human", "human", "human"], per_decision=3600, bank=0)
    gid, h = g["id"], g["host_token"]
    toks = {s["seat"]: s["token"] for s in g["seats"]}
    v = fast.get(f"/api/games/{gid}").json()
    p = v["current_player"]
    mine = fast.get(f"/api/games/{gid}", headers=auth(toks[p])).json()
    r = fast.post(f"/api/games/{gid}/actions", headers=auth(toks[p]),
                  json={"action": mine["legal_actions"][0], "seq": mine["seq"]})
    assert r.status_code == 200, r.text
    r = fast.post(f"/api/games/{gid}/undo", headers=auth(toks[p]), json={"seq": r.json()["seq"]})
    assert r.status_code == 200, r.text
    _host(fast, gid, h, {"extend": 3600, "seat": p})
    _host(fast, gid, h, {"extend": 120})
    _host(fast, gid, h, {"paused": True})
    _host(fast, gid, h, {"paused": False})
    en = _lines(fast, gid, "en", "host", "undo")
    fr = _lines(fast, gid, "fr", "host", "undo")
    assert en[0].startswith(f"P{p} took back: ") and len(en[0]) > len("P0 took back: ")
    assert en[1:] == [f"The host gave P{p} 1 hour more",
                      "The host gave every seat 2 minutes more",
                      "The host stopped the clocks", "The host restarted the clocks"]
    assert fr[0].startswith(f"P{p} a annulé son coup : ")
    assert fr[1:] == [f"L'hôte a donné 1 heure de plus à P{p}",
                      "L'hôte a donné 2 minutes de plus à toutes les places",
                      "L'hôte a arrêté les pendules", "L'hôte a relancé les pendules"]
    # what was taken back reads in French too (not the English event's words)
    assert en[0].split(": ", 1)[1] not in fr[0]
    # no language asked: English, as before
    r = fast.get(f"/api/games/{gid}")
    assert [e["text"] for e in r.json()["events"] if e["kind"] in ("host", "undo")] == en
    # the host ends the game
    r = fast.post(f"/api/games/{gid}/host/end", headers=auth(h))
    assert r.status_code == 200, r.text
    assert _lines(fast, gid, "en", "host")[-1] == ("The host ended the game: the scores "
                                                   "are counted as they stand")
    assert _lines(fast, gid, "fr", "host")[-1] == ("L'hôte a terminé la partie : les scores "
                                                   "sont comptés en l'état")


def test_a_time_out_line_in_french_and_in_the_same_english(fast: TestClient) -> None:
    g = _clocked(fast, ["human", "human"], per_decision=1, bot="medium")
    gid = g["id"]
    p = fast.get(f"/api/games/{gid}").json()["current_player"]
    deadline = time.monotonic() + 15.0
    while not _lines(fast, gid, "en", "timeout"):
        assert time.monotonic() < deadline, "no time-out line after 15 s"
        time.sleep(0.05)
    assert _lines(fast, gid, "en", "timeout")[0] == (
        f"P{p}'s time ran out: the medium bot played for them")
    assert _lines(fast, gid, "fr", "timeout")[0] == (
        f"Le temps de P{p} est écoulé : le robot moyen a joué à sa place")


def test_a_line_known_only_by_its_english_text_is_shown_as_it_is() -> None:
    old = LogLine(4, "host", None, "The host did something long ago")
    for locale in ("en", "fr"):
        assert line_view(old, locale) == {"seq": 4, "kind": "host", "player": None,
                                          "text": "The host did something long ago"}
