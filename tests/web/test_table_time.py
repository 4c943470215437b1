"""Time at the table: the server's downtime is not charged to the player to move (the
heartbeat and the shift at start, exactly once with several workers), stopping and
restarting the clocks keeps the running decision's time, deadlines in relative words,
the host panel's "moved 3 h ago · opened 5 min ago", a review's estimated time left."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine, insert, select, update
from webapi import Api, auth, eventually

from endeavor.web import db, uptime
from endeavor.web import store as store_module
from endeavor.web.lastseen import SeenRecorder
from endeavor.web.notify import Message
from endeavor.web.reviews import eta_seconds
from endeavor.web.store import Store, utc
from endeavor.web.when import ago_words, duration_words, until_words

T0 = datetime(2030, 5, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    e = db.make_engine(db_url)
    db.upgrade(e)
    yield e
    e.dispose()


class FakeNow:
    """The store's clock, set by the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, at: datetime) -> None:
        self.at = at
        monkeypatch.setattr(store_module, "clock", lambda: self.at)

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


def _game_row(engine: Engine, gid: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(select(db.games).where(db.games.c.id == gid)).one()


def _set_beat(engine: Engine, at: datetime) -> None:
    with engine.begin() as conn:
        if conn.execute(update(db.heartbeat).values(at=at)).rowcount == 0:
            conn.execute(insert(db.heartbeat).values(name=uptime.NAME, at=at))


# --------------------------------------------------------------------------- stop, restart
def test_restarting_the_clocks_gives_back_the_time_the_decision_had(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    now = FakeNow(monkeypatch, T0)
    s = Store(engine)
    created = s.create({"players": 3, "seed": 4}, ["human"] * 3,
                       clock={"per_decision": 100, "bank": 50})
    gid, host = created.id, created.host_token
    p = s.snapshot(gid).current_player
    assert p is not None
    now.advance(30)
    c = s.pause(gid, host, True).clock
    assert c is not None and c.paused and c.deadline is None
    assert c.held == (p, 70.0) and c.left(p, now.at) == 120.0
    now.advance(5 * 86_400)  # stopped for five days: none of it counts
    c = s.pause(gid, host, False).clock
    assert c is not None and c.running == p and c.held is None
    assert c.deadline == now.at + timedelta(seconds=120)
    assert c.left(p, now.at) == 120.0
    # the stopped decision's time ran past its own: the bank was charged, and it keeps 0
    now.advance(110)
    c = s.pause(gid, host, True).clock
    assert c is not None and c.banks[p] == 10.0 and c.held == (p, 0.0)
    # read back by another process (the held time is stored with the clock)
    other = Store(engine).snapshot(gid).clock
    assert other is not None and other.held == (p, 0.0) and other.left(p, now.at) == 10.0
    now.advance(60)
    c = s.pause(gid, host, False).clock
    assert c is not None and c.deadline == now.at + timedelta(seconds=10)


def test_a_decision_made_while_the_clocks_are_stopped_gives_the_next_a_new_decision(
        engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    now = FakeNow(monkeypatch, T0)
    s = Store(engine)
    created = s.create({"players": 2, "seed": 4}, ["human"] * 2,
                       clock={"per_decision": 100, "bank": 50})
    gid, host = created.id, created.host_token
    snap = s.snapshot(gid)
    p = snap.current_player
    now.advance(80)
    snap = s.pause(gid, host, True)
    action = snap.state.legal_actions()[0]
    snap = s.append(gid, None, str(action), snap.seq, token=created.seats[p].token)
    assert snap.clock is not None and snap.clock.held is None
    now.advance(10)
    c = s.pause(gid, host, False).clock
    q = s.snapshot(gid).current_player
    assert c is not None and q is not None and c.running == q
    assert c.deadline == now.at + timedelta(seconds=100 + c.banks[q])


def test_the_host_panel_says_the_time_kept_over_http(api: Api, client: TestClient) -> None:
    r = client.post("/api/games", json={"config": {"players": 2, "seed": 6},
                                        "seats": ["human", "human"],
                                        "clock": {"per_decision": 3600, "bank": 0}})
    g = r.json()
    gid, h = g["id"], g["host_token"]
    p = api.view(gid)["current_player"]
    left_before = api.view(gid)["clock"]["left"][p]
    r = client.post(f"/api/games/{gid}/host/clock", headers=auth(h), json={"paused": True})
    assert r.status_code == 200 and r.json()["clock"]["left"][p] <= left_before
    paused_left = r.json()["clock"]["left"][p]
    assert paused_left > 3500  # not the bank alone (0): the decision's own time is kept
    r = client.post(f"/api/games/{gid}/host/clock", headers=auth(h), json={"paused": False})
    assert r.status_code == 200
    assert r.json()["clock"]["left"][p] == pytest.approx(paused_left, abs=2)


# --------------------------------------------------------------------------- outages
def _clocked_game(engine: Engine, per_decision: float = 3600) -> tuple[str, Any]:
    created = Store(engine).create({"players": 2, "seed": 2}, ["human", "human"],
                                   clock={"per_decision": per_decision})
    return created.id, _game_row(engine, created.id)


def test_an_outage_moves_the_running_deadlines_later_by_its_length(engine: Engine) -> None:
    gid, before = _clocked_game(engine)
    deadline, started = utc(before.deadline), utc(before.turn_started)
    down = started + timedelta(minutes=10)  # the last heartbeat before the outage
    _set_beat(engine, down)
    back = down + timedelta(hours=5)
    assert uptime.shift_after_outage(engine, now=back) == 5 * 3600
    after = _game_row(engine, gid)
    assert utc(after.deadline) == deadline + timedelta(hours=5)
    assert utc(after.turn_started) == started + timedelta(hours=5)
    # the player has the 50 minutes they had when the server went down
    clock = Store(engine).snapshot(gid).clock
    assert clock is not None and clock.left(clock.running or 0, back) == 50 * 60
    # the heartbeat was written: a second start does nothing
    assert uptime.shift_after_outage(engine, now=back + timedelta(seconds=1)) == 0.0
    assert utc(_game_row(engine, gid).deadline) == deadline + timedelta(hours=5)


def test_a_short_restart_or_a_deadline_already_passed_is_left_alone(engine: Engine) -> None:
    gid, before = _clocked_game(engine, per_decision=60)
    deadline = utc(before.deadline)
    _set_beat(engine, deadline - timedelta(seconds=10))
    # back 20 s later: within the heartbeat's jitter, nothing moved
    assert uptime.shift_after_outage(engine, now=deadline + timedelta(seconds=10)) == 0.0
    assert utc(_game_row(engine, gid).deadline) == deadline
    # the deadline had passed while the server was up: the clocks act on it as it is
    _set_beat(engine, deadline + timedelta(seconds=5))
    assert uptime.shift_after_outage(engine, now=deadline + timedelta(hours=1)) > 0
    assert utc(_game_row(engine, gid).deadline) == deadline


def test_a_new_database_has_no_outage(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(db.heartbeat.delete())
    assert uptime.shift_after_outage(engine) == 0.0
    with engine.connect() as conn:
        assert conn.execute(select(db.heartbeat.c.name)).scalars().all() == [uptime.NAME]


def _several_workers_shift_once(url: str) -> None:
    engines = [db.make_engine(url) for _ in range(4)]
    try:
        db.upgrade(engines[0])
        gid, before = _clocked_game(engines[0])
        back = utc(before.turn_started) + timedelta(hours=2)
        _set_beat(engines[0], utc(before.turn_started))
        gaps: list[float] = []
        barrier = threading.Barrier(len(engines))

        def start(e: Engine) -> None:
            barrier.wait(10)
            gaps.append(uptime.shift_after_outage(e, now=back))

        threads = [threading.Thread(target=start, args=(e,)) for e in engines]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(gaps) == [0.0, 0.0, 0.0, 7200.0]
        assert utc(_game_row(engines[0], gid).deadline) == (
            utc(before.deadline) + timedelta(hours=2))
    finally:
        for e in engines:
            e.dispose()


def test_several_workers_starting_together_shift_exactly_once(db_url: str) -> None:
    _several_workers_shift_once(db_url)


def test_several_workers_shift_exactly_once_on_postgresql() -> None:
    from pg import fresh_database

    with fresh_database() as url:
        _several_workers_shift_once(url)


def test_an_app_started_after_an_outage_gives_the_player_their_time(
        make_app: Callable[..., FastAPI], engine: Engine) -> None:
    with TestClient(make_app()) as c:
        r = c.post("/api/games", json={"config": {"players": 2, "seed": 3},
                                       "seats": ["human", "human"],
                                       "clock": {"per_decision": 600}})
        gid = r.json()["id"]
        before = c.get(f"/api/games/{gid}").json()["clock"]
    # the decision started an hour ago, and the server went down a second later
    started = datetime.fromisoformat(before["turn_started"])
    with engine.begin() as conn:
        conn.execute(update(db.games).where(db.games.c.id == gid).values(
            turn_started=started - timedelta(hours=1),
            deadline=datetime.fromisoformat(before["deadline"]) - timedelta(hours=1)))
    _set_beat(engine, started - timedelta(hours=1) + timedelta(seconds=1))
    with TestClient(make_app()) as c:
        after = c.get(f"/api/games/{gid}").json()
        assert after["seq"] == 0  # no bot played for them
        p = after["current_player"]
        assert after["clock"]["left"][p] == pytest.approx(599, abs=5)


def test_a_running_server_renews_its_heartbeat(engine: Engine) -> None:
    beat = uptime.Heartbeat(engine, interval=0.05)
    long_ago = store_module.utcnow() - timedelta(days=1)
    _set_beat(engine, long_ago)
    beat.start()
    try:
        eventually(lambda: _beat_at(engine) > long_ago + timedelta(hours=23), 10,
                   "a heartbeat")
    finally:
        beat.stop()


def _beat_at(engine: Engine) -> datetime:
    with engine.connect() as conn:
        return utc(conn.execute(select(db.heartbeat.c.at)).scalar_one())


# --------------------------------------------------------------------------- words
def test_durations_and_deadlines_in_words() -> None:
    assert duration_words(3 * 86_400 + 12 * 3600 + 59) == "3 days 12 hours"
    assert duration_words(86_400 + 5 * 60) == "1 day"  # no hours: the minutes not said
    assert duration_words(3600 + 60) == "1 hour 1 minute"
    assert duration_words(59) == "less than a minute"
    assert until_words(T0 + timedelta(days=3, hours=12, minutes=1), T0) == "in 3 days 12 hours"
    assert until_words(T0 - timedelta(seconds=1), T0) == "now"
    assert ago_words(T0 - timedelta(hours=3, minutes=59), T0) == "3 h ago"
    assert ago_words(T0 - timedelta(minutes=5), T0) == "5 min ago"
    assert ago_words(T0 - timedelta(seconds=20), T0) == "just now"
    assert ago_words(T0 - timedelta(days=2), T0) == "2 d ago"


def test_a_messages_deadline_is_also_in_relative_words() -> None:
    deadline = store_module.utcnow() + timedelta(days=3, hours=12, minutes=5)
    m = Message("turn", "g1", "Friday game", "https://e.org/game/g1", 1, 2, 7,
                "https://e.org/play/g1#t", asked="Choose", deadline=deadline)
    text = m.text()
    assert f"You have until {deadline:%Y-%m-%d %H:%M} UTC (in 3 days 12 hours)." in text
    assert "(in 3 days 12 hours)" in m.webhook_body()["content"]


# --------------------------------------------------------------------------- host panel
def test_the_host_panel_says_when_each_seat_last_moved_and_opened_the_game(
        api: Api, client: TestClient, engine: Engine) -> None:
    g = api.create(["human", "human", "bot:random"], seed=5)
    gid, h = g["id"], g["host_token"]
    toks = Api.tokens(g)
    panel = client.get(f"/api/games/{gid}/host", headers=auth(h)).json()
    assert panel["now"] and [(s["last_moved"], s["last_seen"]) for s in panel["seats"]] == [
        (None, None)] * 3
    v = api.view(gid)
    p = v["current_player"]
    mine = api.view(gid, toks[p])  # seat p opens the game
    r = api.move(gid, toks[p], mine["legal_actions"][0], mine["seq"])
    assert r.status_code == 200, r.text
    seats = client.get(f"/api/games/{gid}/host", headers=auth(h)).json()["seats"]
    now = datetime.fromisoformat(panel["now"])
    assert seats[p]["last_seen"] and seats[p]["last_moved"]
    for key in ("last_seen", "last_moved"):
        assert abs((datetime.fromisoformat(seats[p][key]) - now).total_seconds()) < 60
    other = 1 - p
    assert seats[other]["last_seen"] is None and seats[other]["last_moved"] is None
    # a spectator or a bad token records nothing
    client.get(f"/api/games/{gid}")
    assert client.get(f"/api/games/{gid}", headers=auth("nope")).status_code == 403
    seats = client.get(f"/api/games/{gid}/host", headers=auth(h)).json()["seats"]
    assert seats[other]["last_seen"] is None
    # the host's actions answer with it too
    r = client.post(f"/api/games/{gid}/host/seats/{other}/reissue", headers=auth(h))
    assert r.status_code == 200 and r.json()["seats"][p]["last_seen"]


def test_last_seen_is_written_at_most_once_a_minute_per_seat(engine: Engine) -> None:
    gid, _ = _clocked_game(engine)
    seen = SeenRecorder(engine)

    def last_seen() -> list[Any]:
        with engine.connect() as conn:
            return list(conn.execute(select(db.seats.c.last_seen).where(
                db.seats.c.game_id == gid).order_by(db.seats.c.seat)).scalars())

    seen.saw(gid, {0})
    first = last_seen()
    assert first[0] is not None and first[1] is None
    seen.saw(gid, {0})
    assert last_seen() == first  # not written again within the minute
    seen.saw(gid, {0, 1})
    second = last_seen()
    assert second[0] == first[0] and second[1] is not None
    eager = SeenRecorder(engine, every=0)
    eager.saw(gid, {0})
    assert last_seen()[0] != first[0]


# --------------------------------------------------------------------------- review
def test_a_running_reviews_time_left_is_estimated_from_its_pace() -> None:
    started = T0 - timedelta(minutes=2)
    assert eta_seconds("running", 30, 120, started, T0) == 360.0  # 4 s a decision
    assert eta_seconds("running", 0, 120, started, T0) is None  # no pace yet
    assert eta_seconds("queued", 0, None, None, T0) is None
    assert eta_seconds("done", 120, 120, started, T0) is None
