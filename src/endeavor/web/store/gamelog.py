"""The game log: a player's action and undo, each written with everything that goes
with it (whose move it is, the clock, the notifications and review it calls for) in one
transaction at the next ``seq`` (see :mod:`endeavor.web.store`), and the replay viewer's
positions."""

from __future__ import annotations

import hmac
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, Final

from sqlalchemy import and_, bindparam, insert, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from endeavor import Event, GameConfig, IllegalActionError, NotationError, State, new_game

from ...messages import Seat as SeatArg
from ...messages import msg
from .. import db, seating
from ..view import ratings as rating_words
from ..view import refusals
from .clockstate import ClockState, reclock
from .errors import BadRequest, Conflict, Forbidden, NotFound, NotSent, Unauthorized
from .records import Effective, Entry, Meta, Snapshot
from .repository import DISCONNECT_RETRIES, CachedGame, Repository, log
from .values import hash_token
from .values import now as _now

MAX_ACTION: Final = 64

_INSERT_ENTRY: Final = insert(db.moves)
#: ``games.seq`` moved on by one entry, only from the version the writer validated
_MOVE_SEQ: Final = (
    update(db.games)
    .where(and_(db.games.c.id == bindparam("b_id"), db.games.c.seq == bindparam("b_prev")))
    .values(seq=bindparam("b_seq"), over=bindparam("b_over"),
            current_player=bindparam("b_player")))
#: the same for a game with a clock: its running decision and banks too
_MOVE_SEQ_CLOCK: Final = (
    update(db.games)
    .where(and_(db.games.c.id == bindparam("b_id"), db.games.c.seq == bindparam("b_prev")))
    .values(seq=bindparam("b_seq"), over=bindparam("b_over"),
            current_player=bindparam("b_player"), clock=bindparam("b_clock"),
            banks=bindparam("b_banks"), turn_started=bindparam("b_started"),
            deadline=bindparam("b_deadline"), claim_until=None))
#: a seat's notifications asked for by an entry (one row per channel it set; a row
#: already waiting for that seat and channel keeps its due time, attempts and lease:
#: what a message says is read when it is sent, but its event and seq become this
#: entry's, so a sender that read the game before this commit sees the row moved on
#: and sends again rather than deleting it). The WHERE clause also keeps SQLite's
#: parser from reading ``ON CONFLICT`` as part of a join
_OUTBOX_UPSERT: Final = (" ON CONFLICT (game_id, seat, channel) DO UPDATE "
                         "SET event = excluded.event, seq = excluded.seq")
_OUTBOX_SEAT: Final = text(
    "INSERT INTO outbox (game_id, seat, channel, event, seq, due, attempts) "
    "SELECT game_id, seat, channel, :event, :seq, :due, 0 FROM notify "
    "WHERE game_id = :game AND seat = :seat" + _OUTBOX_UPSERT)
_OUTBOX_ALL: Final = text(
    "INSERT INTO outbox (game_id, seat, channel, event, seq, due, attempts) "
    "SELECT game_id, seat, channel, :event, :seq, :due, 0 FROM notify "
    "WHERE game_id = :game" + _OUTBOX_UPSERT)
#: a finished game's review queued (:mod:`endeavor.web.reviews`): a new row, or the
#: game's row reset (a game ended again after an undo, or a failed review asked for
#: again: ``b_only`` names the status a row must have to be reset, ``'*'`` any)
_REVIEW_QUEUE: Final = text(
    "INSERT INTO reviews (game_id, seq, status, iterations, done, attempts, queued) "
    "VALUES (:b_game, :b_seq, 'queued', :b_iterations, 0, 0, :b_now) "
    "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, status = 'queued', "
    "iterations = excluded.iterations, done = 0, total = NULL, attempts = 0, "
    "worker = NULL, lease_until = NULL, error = NULL, partial = NULL, result = NULL, "
    "moves = NULL, queued = excluded.queued, started = NULL, finished = NULL "
    "WHERE :b_only = '*' OR reviews.status = :b_only"
).bindparams(bindparam("b_now", type_=db.reviews.c.queued.type))


#: a rated game's end queues its rating (web/ratings: the row made at its creation goes
#: from ``playing`` to ``pending``, in the ending entry's transaction)
_RATING_QUEUE: Final = text(
    "UPDATE game_ratings SET status = 'pending', queued = :b_now "
    "WHERE game_id = :b_game AND status = 'playing'"
).bindparams(bindparam("b_now", type_=db.reviews.c.queued.type))
#: the claim holding a seat (accounts: its link's token when claimed)
_SEAT_CLAIM: Final = text(
    "SELECT link_token FROM seat_claims WHERE game_id = :b_game AND seat = :b_seat")


class Keep:
    """Marks an argument left as the cache has it."""


KEEP: Final = Keep()


def check_seq(cached: CachedGame, seq: int) -> None:
    if seq != cached.seq:
        raise Conflict.said(refusals.MOVED_ON, seq=cached.seq, seen=seq)


def over_refusal(cached: CachedGame) -> Conflict:
    """The 409 of a move (or a change) asked of a game that is over."""
    return Conflict.said(refusals.ENDED_BY_HOST if cached.ended == "host"
                         else refusals.OVER)


def not_over(cached: CachedGame) -> None:
    if cached.over:
        raise over_refusal(cached)


def token_seats(meta: Meta, token: str | None, seats: Collection[int] | None,
                ) -> Collection[int]:
    """The seats a write acts for: the token's as the game stands, else ``seats``."""
    if token is not None:
        mine = meta.seats_of(token)
        if not mine:
            raise seating.no_seat(meta.benched_of(token))
        return mine
    if seats is None:
        raise Unauthorized.said(refusals.SEAT_TOKEN)
    return seats


class GameLog(Repository):
    """The game log's writes: actions and undos (and, for the concerns built on it, the
    commit of any entry)."""

    def position_after(self, game_id: str, n: int) -> Snapshot:
        """The game after its first ``n`` effective actions (the replay viewer): a
        snapshot whose log and effective actions stop there (:class:`NotFound` when the
        game has fewer)."""
        snap = self.snapshot(game_id)
        if n < 0 or n > len(snap.effective):
            raise NotFound.said(refusals.NO_POSITION, game=game_id,
                                count=len(snap.effective))
        state = new_game(GameConfig.from_dict(snap.meta.config))
        effective = []
        for e in snap.effective[:n]:
            effective.append(Effective(e.seq, e.seat, e.action, tuple(state.apply(e.action)),
                                       e.note))
        last = effective[-1].seq if effective else 0
        return Snapshot(snap.meta, snap.seq, state, tuple(effective),
                        tuple(x for x in snap.log if x.seq <= last))

    def append(self, game_id: str, seats: Collection[int] | None, action: str, seq: int,
               note: str | None = None, token: str | None = None,
               by_bot: bool = False) -> Snapshot:
        """Play ``action`` for one of ``seats`` on the game at version ``seq``.

        :class:`Conflict` when ``seq`` is not the game's (checked again by the write)
        or the game is over, :class:`Forbidden` when none of ``seats`` is to move,
        :class:`BadRequest` with the engine's reason for bad notation or an illegal
        action (nothing written). ``note``: how the action came about when not by its
        player (``timeout:<bot>``: the clock ran out; ``bot:<bot>``: that bot went on
        playing the seat's decisions). ``token``: the seats are the token's, as the
        game stands (``seats`` is then ignored; :class:`Forbidden` for a token of no
        seat). ``by_bot``: a move of the bot that plays the seat (:class:`Conflict`
        when a person plays it now). Returns the game after the commit."""
        if not isinstance(action, str) or len(action) > MAX_ACTION:
            raise (BadRequest.said(refusals.NOT_AN_ACTION, action=repr(action[:MAX_ACTION]))
                   if isinstance(action, str) else BadRequest.said(refusals.ACTION_TYPE))
        with self._locked(game_id) as cached:
            seats = token_seats(cached.meta, token, seats)
            check_seq(cached, seq)
            who = cached.current_player
            if who is None:
                raise over_refusal(cached)
            if who not in seats:
                raise Forbidden.said(refusals.NOT_YOUR_MOVE, seat=SeatArg(who))
            if by_bot and cached.meta.seats[who].played_by is None:
                raise Conflict.said(refusals.PERSON_NOW, seat=SeatArg(who))
            if cached.meta.rated and token is not None and not by_bot:
                self._check_claimed(cached.meta, who)
            trial = cached.state.copy()
            try:
                parsed = trial.parse_action(action)
                events = trial.apply(parsed)
            except IllegalActionError as e:
                raise BadRequest(str(e), words=e.message, viewer=e.viewer) from None
            except NotationError as e:
                raise BadRequest(str(e)) from None
            # the log keeps the canonical notation, whatever spelling the client sent
            entry = Entry(seq + 1, who, "action", str(parsed), note)
            self._commit(cached, entry, trial, events,
                         all_spent=note is not None and note.startswith("timeout:"))
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def _check_claimed(self, meta: Meta, seat: int) -> None:
        """In a rated game a person's seat moves only once an account holds it (claimed
        with its current link): :class:`Forbidden` otherwise."""
        row = self.read(lambda conn: conn.execute(
            _SEAT_CLAIM, {"b_game": meta.id, "b_seat": seat}).first())
        current = meta.seats[seat].token_hash
        if row is None or not current or not hmac.compare_digest(
                hash_token(row.link_token), current):
            words = msg(rating_words.SIGN_IN_TO_MOVE)
            raise Forbidden(words.render("en"), words=words)

    def undo(self, game_id: str, seats: Collection[int] | None, seq: int | None,
             token: str | None = None) -> Snapshot:
        """Undo the last effective action for ``seats`` (see
        :meth:`Snapshot.undo_target`), appended as an ``undo`` entry at ``seq + 1``
        (``seq`` None: the game's seq as it stands). :class:`Conflict` when ``seq`` is
        stale or there is nothing ``seats`` may undo. ``token``: as :meth:`append`."""
        with self._locked(game_id) as cached:
            seats = token_seats(cached.meta, token, seats)
            if seq is None:
                seq = cached.seq
            check_seq(cached, seq)
            snap = cached.snapshot()
            target = snap.undo_target(seats)
            if target is None:
                raise Conflict.said(
                    refusals.UNDO_ENDED if snap.ended is not None else
                    refusals.UNDO_NONE if not snap.effective else
                    refusals.UNDO_BOT if snap.effective[-1].note else
                    refusals.UNDO_OTHER)
            trial = snap.state  # the snapshot's own copy
            trial.undo()
            entry = Entry(seq + 1, target.seat, "undo", None)
            self._commit(cached, entry, trial)
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def _commit(self, cached: CachedGame, entry: Entry, after: State | None,
                events: Sequence[Event] = (), *, meta: Meta | None = None,
                restart: bool = True, all_spent: bool = False,
                clock: ClockState | None | Keep = KEEP, ended: str | None = None,
                extra: Sequence[tuple[Any, dict[str, Any]]] = ()) -> None:
        """Write ``entry`` with everything that goes with it, then bring the cache to
        it (under the cache's lock). ``after``: the position it leads to (None: the
        same); ``meta``: the seats it leads to; ``clock``: the clock it leads to
        (default: worked out by :func:`reclock`, ``restart`` and ``all_spent`` as
        there); ``ended``: how it ends the game; ``extra``: more statements for its
        transaction."""
        now = _now()
        state = after if after is not None else cached.state
        new_meta = meta if meta is not None else cached.meta
        new_ended = ended if ended is not None else cached.ended
        over = new_ended is not None or state.is_over
        player = None if new_ended is not None else state.current_player
        if isinstance(clock, Keep):
            new_clock = reclock(cached.clock, new_meta.seats, player, now, stopped=over,
                                restart=restart, all_spent=all_spent)
        else:
            new_clock = clock
        statements = list(extra)
        if over and not cached.over:
            statements.append((_OUTBOX_ALL, {"event": "over", "seq": entry.seq, "due": now,
                                             "game": new_meta.id}))
            if self.review_iterations > 0:
                statements.append(self.review_statement(new_meta.id, entry.seq, now=now))
            if new_meta.rated:
                statements.append((_RATING_QUEUE, {"b_game": new_meta.id, "b_now": now}))
        elif (player is not None and player != cached.current_player
              and new_meta.seats[player].played_by is None):
            statements.append((_OUTBOX_SEAT, {"event": "turn", "seq": entry.seq, "due": now,
                                              "game": new_meta.id, "seat": player}))
        if new_ended is not None and cached.ended is None:
            statements.append((update(db.games).where(db.games.c.id == new_meta.id)
                               .values(ended=new_ended), {}))
        self._write(new_meta.id, entry, over, player, new_clock, statements)
        cached.apply(entry, after if entry.kind != "host" else None, events)
        cached.meta = new_meta
        cached.clock = new_clock
        cached.ended = new_ended

    def _write(self, game_id: str, entry: Entry, over: bool, player: int | None = None,
               clock: ClockState | None = None,
               extra: Sequence[tuple[Any, dict[str, Any]]] = ()) -> None:
        """Insert ``entry``, move ``games.seq`` to it (with whose move it is and the
        clock) and run ``extra``, in one transaction; a lost race (the key taken, or
        ``games.seq`` moved) is :class:`Conflict`. A pooled connection found dead at the
        INSERT (the first statement of the transaction, so nothing of it can have been
        committed) is replaced and the write tried again."""
        for attempt in range(DISCONNECT_RETRIES + 1):
            try:
                self._write_once(game_id, entry, over, player, clock, extra)
                return
            except NotSent as e:
                if attempt == DISCONNECT_RETRIES:
                    raise e.error from None
                log.warning("database connection lost (%s); retrying the write",
                            type(e.error.orig).__name__)

    def _write_once(self, game_id: str, entry: Entry, over: bool, player: int | None,
                    clock: ClockState | None,
                    extra: Sequence[tuple[Any, dict[str, Any]]]) -> None:
        try:
            with self.write_lock, self.engine.begin() as conn:
                # the INSERT first: on SQLite it takes the write lock (waiting for another
                # writer), on PostgreSQL it waits for a racing insert of the same key
                try:
                    conn.execute(_INSERT_ENTRY, {
                        "game_id": game_id, "seq": entry.seq, "seat": entry.seat,
                        "kind": entry.kind, "action": entry.action, "note": entry.note,
                        "created": _now()})
                except DBAPIError as e:
                    if e.connection_invalidated:
                        raise NotSent(e) from None
                    raise
                params: dict[str, Any] = {"b_id": game_id, "b_prev": entry.seq - 1,
                                          "b_seq": entry.seq, "b_over": over,
                                          "b_player": player}
                if clock is None:
                    result = conn.execute(_MOVE_SEQ, params)
                else:
                    params.update(b_clock=clock.settings(),
                                  b_banks=list(clock.banks), b_started=clock.turn_started,
                                  b_deadline=clock.deadline)
                    result = conn.execute(_MOVE_SEQ_CLOCK, params)
                if result.rowcount != 1:
                    raise Conflict.said(refusals.RECORDED_FIRST, seq=entry.seq)
                for statement, values in extra:
                    conn.execute(statement, values)
        except IntegrityError:
            raise Conflict.said(refusals.RECORDED_FIRST, seq=entry.seq) from None
        except DBAPIError as e:
            if "locked" in str(e.orig) or "could not serialize" in str(e.orig):
                raise Conflict.said(refusals.BEING_RECORDED, seq=entry.seq) from None
            raise

    def review_statement(self, game_id: str, seq: int, iterations: int | None = None,
                         only: str = "*", now: datetime | None = None,
                         ) -> tuple[Any, dict[str, Any]]:
        """The statement queueing ``game_id``'s review at ``seq`` (a new row, or its row
        reset when its status is ``only``; ``'*'``: whatever it is) with ``iterations``
        (default: :attr:`review_iterations`)."""
        return _REVIEW_QUEUE, {
            "b_game": game_id, "b_seq": seq, "b_only": only, "b_now": now or _now(),
            "b_iterations": self.review_iterations if iterations is None else iterations}
