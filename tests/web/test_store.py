"""The game store on its own: tokens stored as hashes, the log and the cache, undo's
rule, import attribution, and writers racing for the same seq (threads, one SQLite
file, separate stores as separate worker processes would have)."""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import DBAPIError

from endeavor import GameConfig, new_game, replay
from endeavor.web import db
from endeavor.web.store import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    Store,
    hash_token,
)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/s.db"


def _store(url: str) -> Store:
    engine = db.make_engine(url)
    db.upgrade(engine)
    return Store(engine)


@pytest.fixture
def store(url: str) -> Store:
    return _store(url)


def _play(store: Store, gid: str, n: int, rng: random.Random) -> None:
    """``n`` random legal moves, each for the seat to move."""
    for _ in range(n):
        snap = store.snapshot(gid)
        p = snap.current_player
        assert p is not None
        store.append(gid, {p}, str(rng.choice(snap.state.legal_actions())), snap.seq)


def test_tokens_are_stored_only_as_hashes(store: Store) -> None:
    created = store.create({"players": 3, "seed": 1}, ["human", "hotseat", "hotseat"])
    tokens = [s.token for s in created.seats]
    assert tokens[1] == tokens[2] and tokens[0] != tokens[1]
    with store.engine.connect() as conn:
        rows = conn.execute(select(db.seats).order_by(db.seats.c.seat)).all()
        everything = repr(conn.execute(select(db.games)).all()) + repr(rows)
    assert [r.token_hash for r in rows] == [hash_token(t) for t in tokens if t]
    for t in tokens:
        assert t and t not in everything
    meta = store.meta(created.id)
    assert meta.seats_of(tokens[1]) == {1, 2} and meta.seats_of(tokens[0]) == {0}
    assert meta.seats_of("nope") == frozenset() and meta.seats_of(None) == frozenset()


def test_bad_config_and_seats(store: Store) -> None:
    with pytest.raises(BadRequest, match="players"):
        store.create({"players": 1}, ["human"])
    with pytest.raises(BadRequest, match="unknown seat kind"):
        store.create({"players": 2}, ["human", "alien"])
    with pytest.raises(BadRequest, match="unknown bot"):
        store.create({"players": 2}, ["human", "bot:deep-blue"])
    with pytest.raises(BadRequest, match="3 seats"):
        store.create({"players": 2}, ["human"] * 3)
    with pytest.raises(BadRequest, match="config"):
        store.create([2], ["human", "human"])  # type: ignore[arg-type]
    assert store.count() == 0  # nothing written


def test_log_events_and_undo(store: Store) -> None:
    gid = store.create({"players": 2, "seed": 4}, ["human", "human"]).id
    snap = store.snapshot(gid)
    p = snap.current_player
    assert p is not None and snap.seq == 0 and snap.events() == []
    action = str(snap.state.legal_actions()[0])
    with pytest.raises(Conflict, match="moved on"):
        store.append(gid, {p}, action, 3)
    with pytest.raises(Forbidden):
        store.append(gid, {1 - p}, action, 0)
    with pytest.raises(BadRequest):
        store.append(gid, {p}, "draw XX", 0)
    s1 = store.append(gid, {p}, action, 0)
    assert s1.seq == 1 and [e.action for e in s1.effective] == [action]
    assert {seq for seq, _ in s1.events()} == {1} and s1.events(since=1) == []
    with pytest.raises(Conflict, match="nothing to undo"):
        store.undo(gid, {1 - p}, 1)
    s2 = store.undo(gid, {p}, 1)
    assert s2.seq == 2 and s2.effective == () and s2.events() == []
    assert s2.state.to_json() == new_game(GameConfig(players=2, seed=4)).to_json()
    assert [(e.seq, e.seat, e.kind) for e in s2.log] == [(1, p, "action"), (2, p, "undo")]
    with pytest.raises(Conflict):
        store.undo(gid, {p}, 2)  # nothing left
    s3 = store.append(gid, {p}, action, 2)
    assert [e.seq for e in s3.effective] == [3]  # events carry the seq of their entry
    assert all(seq == 3 for seq, _ in s3.events())


def test_undo_rule(store: Store) -> None:
    """The last effective action must be one of the seats', with no other seat's entry
    after it; a hot-seat screen undoes any of its seats' decisions."""
    gid = store.create({"players": 3, "seed": 2}, ["human", "hotseat", "hotseat"]).id
    rng = random.Random(2)
    for _ in range(200):  # until the last two decisions were made by different seats
        _play(store, gid, 1, rng)
        snap = store.snapshot(gid)
        if len(snap.effective) >= 2 and snap.effective[-1].seat != snap.effective[-2].seat:
            break
    else:
        pytest.fail("the seats never alternated")
    last, prev = snap.effective[-1], snap.effective[-2]
    assert snap.undo_target({last.seat}) == last
    assert snap.undo_target({prev.seat}) is None
    assert snap.undo_target({0, 1, 2} - {last.seat}) is None
    assert snap.undo_target(set()) is None
    if last.seat in (1, 2):
        assert snap.undo_target({1, 2}) == last
    s = store.undo(gid, {last.seat}, snap.seq)
    assert s.effective[-1] == prev
    # prev's seat: its decision is the last effective one again, but another seat
    # acted (and undid) since
    assert s.undo_target({prev.seat}) is None
    with pytest.raises(Conflict):
        store.undo(gid, {prev.seat}, s.seq)


def test_import_attributes_each_action_to_its_decider(store: Store) -> None:
    state = new_game(GameConfig(players=3, seed=7))
    rng = random.Random(7)
    deciders = []
    for _ in range(40):
        deciders.append(state.current_player)
        state.apply(rng.choice(state.legal_actions()))
    gid = store.import_record(state.record(), ["human", "human", "bot:random"]).id
    snap = store.snapshot(gid)
    assert [e.seat for e in snap.log[:40]] == deciders
    assert [e.action for e in snap.log[:40]] == state.record()["actions"]
    assert snap.state.record()["actions"][:40] == state.record()["actions"]
    with pytest.raises(BadRequest, match="format"):
        store.import_record({"format": "x"}, ["human"] * 3)


def test_another_process_sees_every_commit(url: str) -> None:
    a, b = _store(url), _store(url)
    gid = a.create({"players": 2, "seed": 5}, ["human", "human"]).id
    rng = random.Random(5)
    _play(a, gid, 5, rng)
    assert b.snapshot(gid).state.to_json() == a.snapshot(gid).state.to_json()
    _play(b, gid, 5, rng)  # b's cache was filled; a's is now 5 behind
    snap = a.snapshot(gid)
    assert snap.seq == 10 and snap.state.to_json() == b.snapshot(gid).state.to_json()
    # a stale cache never writes over a newer entry
    s = b.snapshot(gid)
    b.append(gid, {s.current_player or 0}, str(s.state.legal_actions()[0]), 10)
    with pytest.raises(Conflict):
        a.append(gid, {0, 1}, str(s.state.legal_actions()[0]), 10)


def test_unknown_game(store: Store) -> None:
    for bad in ("nope", "", "x" * 100):
        with pytest.raises(NotFound):
            store.snapshot(bad)
    assert store.seq("nope") is None


@pytest.mark.parametrize("separate_stores", [False, True])
def test_concurrent_appends_for_one_seq_exactly_one_wins(url: str,
                                                         separate_stores: bool) -> None:
    """Eight writers at the same seq (the same store, or a store each as separate
    workers would be): exactly one commit, the others 409, the log intact."""
    first = _store(url)
    gid = first.create({"players": 2, "seed": 6}, ["human", "human"]).id
    writers = 8
    stores = [_store(url) if separate_stores else first for _ in range(writers)]
    for s in stores:
        s.snapshot(gid)  # every cache at seq 0
    snap = first.snapshot(gid)
    p = snap.current_player
    assert p is not None
    actions = [str(a) for a in snap.state.legal_actions()]
    barrier = threading.Barrier(writers)
    results: list[str] = []
    lock = threading.Lock()

    def write(i: int) -> None:
        barrier.wait()
        try:
            stores[i].append(gid, {p}, actions[i % len(actions)], 0)
            outcome = "won"
        except Conflict:
            outcome = "409"
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["409"] * (writers - 1) + ["won"]
    with first.engine.connect() as conn:
        rows = conn.execute(select(db.moves).where(db.moves.c.game_id == gid)).all()
        seq = conn.execute(select(db.games.c.seq).where(db.games.c.id == gid)).scalar()
    assert len(rows) == 1 and rows[0].seq == 1 and seq == 1
    assert fresh_replays_log(url, gid)


def fresh_replays_log(url: str, gid: str) -> bool:
    """A brand-new store rebuilds the same position as the record replays."""
    snap = _store(url).snapshot(gid)
    return replay(snap.state.record()).to_json() == snap.state.to_json()


def test_a_lost_race_on_the_key_is_a_conflict(store: Store) -> None:
    """The unique (game_id, seq) key itself turns a second entry for a seq into 409: a
    racing writer's entry 1 is in the table (``games.seq`` not yet moved), so the
    store, at seq 0, writes entry 1 too and loses on the key; nothing of it stays."""
    gid = store.create({"players": 2, "seed": 6}, ["human", "human"]).id
    with store.engine.begin() as conn:
        conn.execute(insert(db.moves).values(game_id=gid, seq=1, seat=0, kind="action",
                                             action="start colonial-house",
                                             created=datetime.now(UTC)))
    p = store.snapshot(gid).current_player
    with pytest.raises(Conflict, match="another move was recorded first"):
        store.append(gid, {p}, "start merchant-dock", 0)
    assert store.seq(gid) == 0 and store.snapshot(gid).seq == 0


def test_the_log_keeps_canonical_notation(store: Store) -> None:
    gid = store.create({"players": 2, "seed": 1}, ["hotseat", "hotseat"]).id
    snap = store.snapshot(gid)
    action = str(snap.state.legal_actions()[0])
    s = store.append(gid, {0, 1}, "  " + action.upper().replace(" ", "   ") + " ", 0)
    assert s.log[-1].action == action and s.state.record()["actions"] == [action]
    with store.engine.connect() as conn:
        assert conn.execute(select(db.moves.c.action)).scalar() == action


def test_memo_belongs_to_one_seq(url: str) -> None:
    """Snapshots at one seq share their memo; a move, an undo, a commit read from
    another process or a restored database each give a new one."""
    store = _store(url)
    gid = store.create({"players": 2, "seed": 3}, ["human", "human"]).id
    s0 = store.snapshot(gid)
    s0.memo["x"] = 1
    assert store.snapshot(gid).memo is s0.memo
    p = s0.current_player
    assert p is not None
    s1 = store.append(gid, {p}, str(s0.state.legal_actions()[0]), 0)
    assert "x" not in s1.memo and store.snapshot(gid).memo is s1.memo
    s1.memo["x"] = 1
    s2 = store.undo(gid, {p}, 1)
    assert s2.seq == 2 and "x" not in s2.memo
    s2.memo["x"] = 2
    other = _store(url)  # another process moves on
    other.append(gid, {p}, str(s2.state.legal_actions()[0]), 2)
    s3 = store.snapshot(gid)
    assert s3.seq == 3 and "x" not in s3.memo
    s3.memo["x"] = 3
    # the database goes back (restored from a backup): the cache starts afresh
    with store.engine.begin() as conn:
        conn.execute(db.moves.delete().where(db.moves.c.seq > 1))
        conn.execute(db.games.update().values(seq=1))
    s1b = store.snapshot(gid)
    assert s1b.seq == 1 and "x" not in s1b.memo and s1b.memo is not s1.memo
    # a replayed position has a memo of its own
    assert store.position_after(gid, 0).memo is not s1b.memo


class _DeadOnce:
    """An engine whose first ``connect()`` hands out a connection found dead at its
    first statement (a database server restarted under the pool)."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.dead = 1  # how many statements fail
        self.skip = 0  # after how many that run

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def _conn(self, real: Any) -> Any:
        outer = self

        class Conn:
            def __enter__(self) -> Any:
                self.c = real.__enter__()
                return self

            def __exit__(self, *exc: Any) -> Any:
                return real.__exit__(*exc)

            def execute(self, *a: Any, **k: Any) -> Any:
                if outer.skip:
                    outer.skip -= 1
                elif outer.dead:
                    outer.dead -= 1
                    raise DBAPIError("SELECT", {}, Exception("server closed the connection"),
                                     connection_invalidated=True)
                return self.c.execute(*a, **k)

        return Conn()

    def connect(self) -> Any:
        return self._conn(self.engine.connect())

    def begin(self) -> Any:
        return self._conn(self.engine.begin())


def test_a_dead_pooled_connection_is_retried_once(url: str) -> None:
    """No pre-ping: a read, or a write whose first statement found the connection dead,
    runs again on a fresh connection; a second failure is not hidden."""
    store = _store(url)
    gid = store.create({"players": 2, "seed": 3}, ["human", "human"]).id
    real = store.engine
    store.engine = _DeadOnce(real)  # type: ignore[assignment]
    assert store.seq(gid) == 0
    snap = store.snapshot(gid)
    p = snap.current_player
    assert p is not None
    dead: Any = store.engine
    dead.dead, dead.skip = 1, 1  # the refresh's SELECT runs, the write's INSERT fails
    s1 = store.append(gid, {p}, str(snap.state.legal_actions()[0]), 0)
    assert s1.seq == 1 and _store(url).snapshot(gid).seq == 1
    assert dead.dead == 0
    dead.dead, dead.skip = 2, 0
    with pytest.raises(DBAPIError):
        store.seq(gid)
