"""Seats' names through the HTTP API, on SQLite and on PostgreSQL: names typed on the
New-game form, bots named by level, a seat's player and the host renaming, the rules a
name follows (each refusal a 4xx that changes nothing), a rename seen by every page and
by another server process on the same database; and what a notification says with
names (a turn, the end of a game with who won)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import fresh_database, pg_url
from webapi import auth

from endeavor.web.names import bot_name, result_line, seat_look, seat_words
from endeavor.web.notify import Message


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Each test on SQLite, then on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.db"
        return
    with fresh_database(pg_url()) as url:
        yield url


def _create(client: TestClient, seats: list[str], names: Any = None, **more: Any) -> Any:
    body: dict[str, Any] = {"config": {"players": len(seats), "seed": 1}, "seats": seats}
    if names is not None:
        body["names"] = names
    body.update(more)
    return client.post("/api/games", json=body)


def _names(client: TestClient, gid: str) -> list[tuple[str, bool]]:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    return [(s["name"], s["named"]) for s in r.json()["seats"]]


def test_names_on_the_new_game_form_and_bots_by_level(client: TestClient) -> None:
    r = _create(client, ["human", "bot:medium", "bot:medium", "bot:easy"],
                ["  Anna   Lee ", None, "", None])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert _names(client, gid) == [("Anna Lee", True), ("Medium bot", False),
                                   ("Medium bot 2", False), ("Easy bot", False)]
    # the lobby and the host panel name the seats too
    lobby = client.get("/api/games").json()["games"]
    assert [s["name"] for s in lobby[0]["seats"]] == ["Anna Lee", "Medium bot",
                                                     "Medium bot 2", "Easy bot"]
    host = client.get(f"/api/games/{gid}/host", headers=auth(r.json()["host_token"]))
    assert [(s["name"], s["named"]) for s in host.json()["seats"]][0] == ("Anna Lee", True)
    # no names at all: P0, P1 and the bot's level
    r = _create(client, ["human", "human", "bot:hard"])
    assert _names(client, r.json()["id"]) == [("P0", False), ("P1", False),
                                              ("Hard bot", False)]
    # a person typed a bot's name first: the bot takes the next one
    r = _create(client, ["human", "bot:medium"], ["medium bot", None])
    assert _names(client, r.json()["id"]) == [("medium bot", True), ("Medium bot 2", False)]


@pytest.mark.parametrize("names, words", [
    (["Anna", "anna"], "already called 'Anna'"),
    (["Anna", "x" * 25], "at most 24 characters (25 given)"),
    (["Anna", "a\u0000b"], "control or invisible characters (found U+0000)"),
    (["Anna", "a\u200bb"], "(found U+200B)"),
    (["Anna", "p1"], "reads as a seat's number"),
    (["Anna"], "one name (or null) per seat"),
])
def test_bad_names_on_the_form_create_nothing(client: TestClient, names: list[str],
                                              words: str) -> None:
    before = len(client.get("/api/games").json()["games"])
    r = _create(client, ["human", "human"], names)
    assert r.status_code == 400, r.text
    assert words in r.json()["detail"]
    assert len(client.get("/api/games").json()["games"]) == before


def test_a_player_names_their_seat_and_everyone_sees_it(client: TestClient,
                                                        make_app: Callable[..., FastAPI],
                                                        ) -> None:
    game = _create(client, ["human", "human", "bot:medium"], ["Anna", None, None]).json()
    gid, t0, t1 = game["id"], game["seats"][0]["token"], game["seats"][1]["token"]
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    r = client.put(f"/api/games/{gid}/name", headers=auth(t1), json={"name": " Bea "})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["you"] == [1] and view["seq"] == seq + 1
    assert (view["seats"][1]["name"], view["seats"][1]["named"]) == ("Bea", True)
    assert not [e for e in view["events"] if "Bea" in e["text"]]  # no line in the log
    # another server process on the same database sees it at once
    with TestClient(make_app()) as other:
        assert _names(other, gid)[:2] == [("Anna", True), ("Bea", True)]
    # the player to move can still undo past someone else's rename
    mine = client.get(f"/api/games/{gid}", headers=auth(t0)).json()
    assert mine["current_player"] == 0  # seed 1: P0 starts
    moved = client.post(f"/api/games/{gid}/actions", headers=auth(t0),
                        json={"action": mine["legal_actions"][0], "seq": mine["seq"]})
    assert moved.status_code == 200, moved.text
    s = moved.json()["seq"]
    assert client.put(f"/api/games/{gid}/name", headers=auth(t1),
                      json={"name": "Bea B"}).status_code == 200
    assert client.get(f"/api/games/{gid}", headers=auth(t0)).json()["can_undo"]
    assert client.post(f"/api/games/{gid}/undo", headers=auth(t0),
                       json={"seq": s + 1}).status_code == 200


def test_rename_refusals_change_nothing(client: TestClient) -> None:
    game = _create(client, ["human", "human", "bot:medium"], ["Anna", "Bea", None]).json()
    gid, host = game["id"], game["host_token"]
    t0 = game["seats"][0]["token"]
    before = client.get(f"/api/games/{gid}").json()
    cases = [
        (None, {"name": "Cy"}, 401, "token is needed"),
        ("nobody", {"name": "Cy"}, 403, "not a seat"),
        (t0, {"name": "Cy", "seat": 1}, 403, "not P1's"),
        (t0, {"name": "BEA"}, 409, "P1 is already called 'Bea'"),
        (t0, {"name": "medium bot"}, 409, "P2 is already called 'Medium bot'"),
        (t0, {"name": "Anna"}, 409, "already called 'Anna'"),
        (t0, {"name": "   "}, 400, "cannot be empty"),
        (t0, {"name": "a\nb"}, 400, "U+000A"),
        (t0, {"name": "y" * 30}, 400, "at most 24"),
        (t0, {"name": "P4"}, 400, "seat's number"),
        (t0, {"name": 7}, 422, ""),
        (t0, {"name": "Cy", "seat": True}, 422, ""),
        (t0, {"name": "Cy", "extra": 1}, 422, ""),
    ]
    for token, body, status, words in cases:
        r = client.put(f"/api/games/{gid}/name", headers=auth(token), json=body)
        assert r.status_code == status, (body, r.text)
        assert words in str(r.json()["detail"])
    # the host: not with a seat's token, not a seat that is not there
    r = client.put(f"/api/games/{gid}/host/seats/2/name", headers=auth(t0),
                   json={"name": "Robo"})
    assert r.status_code == 403 and "not the host's link" in r.json()["detail"]
    r = client.put(f"/api/games/{gid}/host/seats/5/name", headers=auth(host),
                   json={"name": "Robo"})
    assert r.status_code == 404 and "no seat 5" in r.json()["detail"]
    after = client.get(f"/api/games/{gid}").json()
    assert after["seq"] == before["seq"] and after["seats"] == before["seats"]


def test_the_host_names_any_seat_and_a_bot_seat_follows_its_level(client: TestClient,
                                                                 ) -> None:
    game = _create(client, ["human", "bot:easy", "bot:medium"]).json()
    gid, host = game["id"], game["host_token"]
    r = client.post(f"/api/games/{gid}/host/seats/1/bot", headers=auth(host),
                    json={"bot": "hard"})
    assert r.status_code == 200, r.text
    assert [s["name"] for s in r.json()["seats"]] == ["P0", "Hard bot", "Medium bot"]
    r = client.put(f"/api/games/{gid}/host/seats/0/name", headers=auth(host),
                   json={"name": "Dana"})
    assert r.status_code == 200, r.text
    assert [(s["name"], s["named"]) for s in r.json()["seats"]][0] == ("Dana", True)
    r = client.put(f"/api/games/{gid}/host/seats/2/name", headers=auth(host),
                   json={"name": "Robo"})
    assert [s["name"] for s in r.json()["seats"]] == ["Dana", "Hard bot", "Robo"]
    # a bot's seat the host named keeps its name when the bot changes
    r = client.post(f"/api/games/{gid}/host/seats/2/bot", headers=auth(host),
                    json={"bot": "easy"})
    assert [s["name"] for s in r.json()["seats"]] == ["Dana", "Hard bot", "Robo"]
    # handed to a person, a bot's seat is not named yet: its player is asked
    r = client.post(f"/api/games/{gid}/host/seats/1/human", headers=auth(host))
    seat = r.json()["seats"][1]
    assert seat["kind"] == "human" and not seat["named"]
    r = client.put(f"/api/games/{gid}/name", headers=auth(seat["token"]),
                   json={"name": "Eli"})
    assert r.status_code == 200 and r.json()["seats"][1]["name"] == "Eli"


def test_hot_seat_link_says_which_seat(client: TestClient) -> None:
    game = _create(client, ["hotseat", "hotseat"]).json()
    gid, tok = game["id"], game["seats"][0]["token"]
    r = client.put(f"/api/games/{gid}/name", headers=auth(tok), json={"name": "Fay"})
    assert r.status_code == 400 and "say which" in r.json()["detail"]
    r = client.put(f"/api/games/{gid}/name", headers=auth(tok), json={"name": "Fay",
                                                                      "seat": 1})
    assert r.status_code == 200 and _names(client, gid)[1] == ("Fay", True)


# --------------------------------------------------------------------------- words
def test_words_of_names() -> None:
    assert bot_name("medium") == "Medium bot"
    assert bot_name("medium", ["MEDIUM BOT", "Medium bot 2"]) == "Medium bot 3"
    assert seat_words("Anna", 1) == "Anna (P1)" and seat_words("P1", 1) == "P1"
    assert seat_look(1) == "P1, blue square" and seat_look(2) == "P2, yellow diamond"
    names = ["Anna", "Bea", "Medium bot", "Cy"]
    assert result_line([(1, 67, 2), (0, 71, 1), (3, 51, 4), (2, 62, 3)], names) == (
        "Anna wins with 71 — Bea 67, Medium bot 62, Cy 51")
    assert result_line([(1, 70, 1), (0, 70, 1), (2, 62, 3)], names) == (
        "Anna and Bea share the win with 70 — Medium bot 62")
    assert result_line([(0, 5, 1)], names) == "Anna wins with 5"


def test_messages_name_the_seats_and_say_who_won() -> None:
    names = ("Anna", "Bea <!channel>", "Medium bot", "P3")
    turn = Message("turn", "g1", "Friday", "https://e.org/game/g1", 1, 3, 7,
                   "https://e.org/play/g1#tok", asked="Choose", names=names)
    assert turn.text().startswith("Bea <!channel> (P1), it is your move in Friday")
    body = turn.webhook_body()
    assert body["name"] == "Bea <!channel>"
    assert body["text"].startswith("Bea &lt;!channel&gt; (P1), it is your move")
    over = Message("over", "g1", "Friday", "https://e.org/game/g1", 3, 7, 7,
                   "https://e.org/play/g1#tok",
                   scores=((0, 71, 1), (1, 67, 2), (2, 62, 3), (3, 51, 4)), names=names)
    text = over.text()
    assert "Anna wins with 71 — Bea <!channel> 67, Medium bot 62, P3 51." in text
    assert "The review: https://e.org/game/g1#review" in text
    assert "Your seat (P3): https://e.org/play/g1#tok" in text
    body = over.webhook_body()
    assert body["result"] == "Anna wins with 71 — Bea <!channel> 67, Medium bot 62, P3 51"
    assert [s["name"] for s in body["scores"]] == list(names)
    assert "Bea &lt;!channel&gt; 67" in body["text"]
    mail = over.email("endeavor@example.org", "a@example.org")
    assert "Anna wins with 71" in mail.get_content()
