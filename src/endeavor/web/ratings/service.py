"""Rating a rated game once it is over: the job of the ``game_ratings`` queue.

The entry that ends a rated game turns its ``game_ratings`` row from ``playing`` to
``pending`` in the entry's own transaction (:data:`endeavor.web.store.gamelog`); then a
:class:`Rater` (a thread of each web process, and of ``endeavor serve``'s background
process) rates it in one transaction that starts by moving the row from ``pending`` to
``done`` (or ``unrated``): a second worker, or a worker after a restart, finds the row
no longer pending and does nothing, so a game is rated exactly once, and never before
its end is committed.

Who is rated (docs/web.md, "Ratings"): each seat of a bot by its level; each person's
seat by the account whose claim holds it at the end (claimed with the seat's current
link), at the seat's final place even when a bot finished it for them (a time-out, or the
host giving the seat to a bot: walking away does not protect a rating). The seat of an
account deleted during the game is left out (the others are rated among themselves); a
person's seat that no account holds at the end leaves the game unrated, as does a game
the host ended before its end. Two seats of one player (two bots of one level) are two
places of the game; the player's rating moves once, by the mean of the two seats'
results.
"""

from __future__ import annotations

import hmac
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, and_, insert, select, update

from endeavor import final_scores

from ..accounts import tables as accounts_tables
from ..store import NotFound, Snapshot, Store, hash_token, utcnow
from . import model
from .tables import game_ratings, rating_history, ratings

log = logging.getLogger("endeavor.web")

#: how often a rater looks for games waiting to be rated (seconds)
POLL_SECONDS: Final = 2.0

Key = tuple[str, Any]  # ("account", id) or ("bot", level)


@dataclass(frozen=True)
class Outcome:
    """Who is rated for each seat (``players``: seat -> key; seats left out are absent)
    and where each seat finished, or why the game is not rated (``reason``)."""

    players: Mapping[int, Key]
    places: Mapping[int, int]
    reason: str | None = None


def deleted_seats(snap: Snapshot) -> set[int]:
    """The seats whose account was deleted during the game (a ``left`` host entry)."""
    out = set()
    for e in snap.log:
        if e.kind == "host" and e.action and e.action.startswith("left "):
            parts = e.action.split()
            if len(parts) >= 2 and parts[1].isdigit():
                out.add(int(parts[1]))
    return out


def claims_of(conn: Connection, snap: Snapshot) -> dict[int, int]:
    """Seat -> the account whose claim holds it now (claimed with its current link)."""
    c = accounts_tables.seat_claims
    out = {}
    for r in conn.execute(select(c.c.seat, c.c.account_id, c.c.link_token)
                          .where(c.c.game_id == snap.meta.id)):
        seat = int(r.seat)
        if seat >= len(snap.meta.seats):
            continue
        current = snap.meta.seats[seat].token_hash
        if current and hmac.compare_digest(hash_token(r.link_token), current):
            out[seat] = int(r.account_id)
    return out


def outcome(snap: Snapshot, claims: Mapping[int, int]) -> Outcome:
    """Who is rated in the finished game ``snap`` (``claims``: :func:`claims_of`)."""
    if snap.ended == "host" or not snap.state.is_over:
        return Outcome({}, {}, "host_ended")
    gone = deleted_seats(snap)
    players: dict[int, Key] = {}
    unclaimed = []
    for s in snap.meta.seats:
        if s.kind == "bot":
            players[s.seat] = ("bot", s.bot or "")
        elif s.seat in claims:
            players[s.seat] = ("account", claims[s.seat])
        elif s.seat not in gone:
            unclaimed.append(s.seat)
    if unclaimed:
        return Outcome({}, {}, "unclaimed:" + ",".join(str(p) for p in unclaimed))
    if len({players[p] for p in players}) < 2:
        return Outcome({}, {}, "too_few")
    places = {b.player: b.rank for b in final_scores(snap.state) if b.player in players}
    return Outcome(players, places)


def _row_of(key: Key, family: str) -> Any:
    """The condition picking ``key``'s row of ``ratings`` in ``family``."""
    r = ratings
    who = (r.c.account_id == key[1]) if key[0] == "account" else (r.c.bot == key[1])
    return and_(who, r.c.family == family)


def _read(conn: Connection, key: Key, family: str) -> tuple[model.Rating, int, bool]:
    """``key``'s rating in ``family`` (a bot level's first: its calibrated seed), its
    games and whether a row exists."""
    r = ratings
    row = conn.execute(select(r.c.mu, r.c.sigma, r.c.games)
                       .where(_row_of(key, family)).with_for_update()).first()
    if row is not None:
        return (float(row.mu), float(row.sigma)), int(row.games), True
    first = model.seed(key[1], family) if key[0] == "bot" else (model.MU, model.SIGMA)
    return first, 0, False


def apply(conn: Connection, game_id: str, family: str, result: Outcome,
          now: datetime) -> None:
    """Rate ``result`` (one :class:`Outcome` with players) in ``conn``'s transaction:
    every player's rating moved once, one history row per seat."""
    seats = sorted(result.players)
    keys = list(dict.fromkeys(result.players[p] for p in seats))
    before = {k: _read(conn, k, family) for k in keys}
    after_seats = model.rate([before[result.players[p]][0] for p in seats],
                             [result.places[p] for p in seats])
    after: dict[Key, model.Rating] = {}
    for k in keys:
        mine = [after_seats[i] for i, p in enumerate(seats) if result.players[p] == k]
        after[k] = (sum(m for m, _ in mine) / len(mine), sum(s for _, s in mine) / len(mine))
    for k in keys:
        _, games, exists = before[k]
        values = {"mu": after[k][0], "sigma": after[k][1], "games": games + 1,
                  "updated": now}
        if exists:
            conn.execute(update(ratings).where(_row_of(k, family)).values(**values))
        else:
            conn.execute(insert(ratings).values(
                account_id=k[1] if k[0] == "account" else None,
                bot=k[1] if k[0] == "bot" else None, family=family, **values))
    conn.execute(insert(rating_history), [
        {"game_id": game_id, "seat": p, "family": family, "place": result.places[p],
         "account_id": result.players[p][1] if result.players[p][0] == "account" else None,
         "bot": result.players[p][1] if result.players[p][0] == "bot" else None,
         "mu_before": before[result.players[p]][0][0],
         "sigma_before": before[result.players[p]][0][1],
         "mu_after": after[result.players[p]][0], "sigma_after": after[result.players[p]][1],
         "at": now} for p in seats])


class Rater:
    """Rates the games waiting in ``game_ratings`` (see the module's doc)."""

    def __init__(self, store: Store, poll_seconds: float = POLL_SECONDS) -> None:
        self.store = store
        self.poll_seconds = poll_seconds
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def pending(self) -> list[str]:
        """The games over and waiting to be rated, oldest first."""
        g = game_ratings
        return self.store.read(lambda conn: [r.game_id for r in conn.execute(
            select(g.c.game_id).where(g.c.status == "pending").order_by(g.c.queued)
            .limit(100))])

    def rate(self, game_id: str) -> str | None:
        """Rate ``game_id`` if it is waiting: its new status (``done``, ``unrated``), or
        None when it was not waiting (rated already, by this worker or another)."""
        try:
            snap = self.store.snapshot(game_id)
        except NotFound:
            return None
        g = game_ratings
        now = utcnow()
        result = outcome(snap, self.store.read(lambda conn: claims_of(conn, snap)))
        status = "unrated" if result.reason is not None else "done"
        with self.store.transaction() as conn:
            # the claim first: it takes the write lock (SQLite) or the row's (PostgreSQL)
            claimed = conn.execute(update(g).where(and_(
                g.c.game_id == game_id, g.c.status == "pending")).values(
                status=status, reason=result.reason, rated=now))
            if claimed.rowcount != 1:
                return None
            family = conn.execute(select(g.c.family).where(g.c.game_id == game_id)).scalar()
            if result.reason is None:
                apply(conn, game_id, str(family), result, now)
        return status

    def run_pending(self) -> list[str]:
        """Rate every game waiting; the games this call rated (or left unrated)."""
        done = []
        for game_id in self.pending():
            try:
                if self.rate(game_id) is not None:
                    done.append(game_id)
            except Exception:  # retried at the next poll; never stops the loop
                log.exception("rating game %s failed; it is tried again later", game_id)
        return done

    def wake(self, game_id: str = "", seq: int = 0) -> None:
        """Look at the queue now (a store listener: after any commit). A commit of an
        unrated game cannot have queued a rating: it leaves the queue unread (the poll
        still looks every :data:`POLL_SECONDS`)."""
        if game_id:
            try:
                if not self.store.meta(game_id).rated:
                    return
            except NotFound:
                return
        self._wake.set()

    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="ratings", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.run_pending()
            except Exception:  # the database away: try again at the next poll
                log.exception("the ratings queue could not be read")
