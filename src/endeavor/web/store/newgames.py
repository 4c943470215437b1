"""New games: created from a config and seats, or imported from a record; each with
its host's token and its seats' derived ones, and its seats' names."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, insert

from endeavor import ConfigError, EndeavorError, GameConfig, RecordError, new_game, replay
from endeavor.messages import Count
from endeavor.messages import Seat as Said

from .. import db
from .. import names as seat_names
from ..view import checkwords as words
from .clockstate import ClockConfig, ClockState, reclock
from .errors import BadRequest, Conflict
from .gamelog import GameLog
from .records import Created, CreatedSeat, Seat, SeatSpec
from .values import hash_token, seat_token
from .values import now as _now
from .words import clean_title, default_title


def game_config(config: object) -> GameConfig:
    if not isinstance(config, dict):
        raise BadRequest.said(words.CONFIG_TYPE)
    try:
        return GameConfig.from_dict(config)
    except ConfigError as e:
        raise BadRequest(str(e)) from None
    except (TypeError, ValueError) as e:  # a field of the wrong shape
        raise BadRequest.said(words.CONFIG_BAD, reason=str(e)) from None


def new_seat_names(specs: Sequence[SeatSpec], names: Sequence[object] | None,
                   ) -> list[tuple[str, bool]]:
    """Each seat's name and whether it was chosen, for a new game: ``names`` (one per
    seat; None or an empty string: the default) checked by
    :func:`endeavor.web.names.clean_name` and unique in the game; a seat left unnamed is
    ``P<seat>``, or a bot's seat its level ("Medium bot", "Medium bot 2")."""
    if names is not None and (not isinstance(names, (list, tuple))
                              or len(names) != len(specs)):
        raise BadRequest.said(words.NAMES_LIST, count=len(specs))
    out: list[tuple[str, bool] | None] = []
    for i, spec in enumerate(specs):
        given = names[i] if names is not None else None
        if given is None or (isinstance(given, str) and not given.strip()):
            out.append(None if spec.kind == "bot" else (seat_names.default_name(i), False))
            continue
        try:
            name = seat_names.clean_name(given)
        except BadRequest as e:
            raise BadRequest.said(words.NAMES_SEAT, seat=Said(i),
                                  reason=str(e) if e.words is None else e.words) from None
        try:
            seat_names.check_unique(name, i, [x[0] if x else "" for x in out])
        except Conflict as e:
            raise BadRequest(str(e), words=e.words) from None
        out.append((name, True))
    taken = [x[0] for x in out if x is not None]
    done: list[tuple[str, bool]] = []
    for i, spec in enumerate(specs):
        x = out[i]
        if x is None:
            x = (seat_names.bot_name(spec.bot or "a", taken), False)
            taken.append(x[0])
        done.append(x)
    return done


class NewGames(GameLog):
    """Creating games (and importing them from records)."""

    def create(self, config: object, seats: Sequence[object], title: str | None = None,
               clock: object = None, names: Sequence[object] | None = None,
               then: Callable[[Connection, Created], None] | None = None,
               locale: str = "en") -> Created:
        """A new game with no entry in its log. ``config``: the ``GameConfig`` fields
        (:class:`BadRequest` with the engine's reason when impossible); ``seats``: one
        ``human`` / ``hotseat`` / ``bot:<name>`` per player; ``clock``: the
        :class:`ClockConfig` fields, or None for no clock; ``names``: the seats' names
        (see :func:`new_seat_names`). ``then``: more writes in the game's own transaction,
        given the new game (a rematch links the two games there; a :class:`StoreError`
        it raises creates nothing). ``locale``: the language of a title made when none
        is given (the creator's)."""
        cfg = game_config(config)
        specs = self._seats(cfg, seats)
        chosen = new_seat_names(specs, names)
        clock_cfg = ClockConfig.parse(clock)
        start = new_game(cfg)  # setup can't fail for a valid config; checked before writing
        return self._insert(cfg, specs, title, [], over=False,
                            player=start.current_player, clock=clock_cfg, names=chosen,
                            then=then, locale=locale)

    def import_record(self, record: object, seats: Sequence[object],
                      title: str | None = None, clock: object = None,
                      names: Sequence[object] | None = None, locale: str = "en") -> Created:
        """A new game from a record (as ``GET /record`` returns it): replayed by the
        engine (:class:`BadRequest` with its reason for a corrupt record), its log
        holding the record's actions, each attributed to the seat that decided it."""
        try:
            final = replay(record)
        except RecordError as e:
            raise BadRequest(str(e)) from None
        except EndeavorError as e:  # anything else the engine rejects a record for
            raise BadRequest(str(e)) from None
        cfg = final.config
        specs = self._seats(cfg, seats)
        chosen = new_seat_names(specs, names)
        clock_cfg = ClockConfig.parse(clock)
        state = new_game(cfg)
        entries: list[tuple[int, str]] = []
        for text_ in final.record()["actions"]:
            who = state.current_player
            if who is None:  # replay() accepted it, so this cannot happen
                raise BadRequest.said(words.RECORD_OVER)
            state.apply(text_)
            entries.append((who, text_))
        return self._insert(cfg, specs, title, entries, over=state.is_over,
                            player=state.current_player, clock=clock_cfg, names=chosen,
                            locale=locale)

    def _seats(self, cfg: GameConfig, seats: Sequence[object]) -> list[SeatSpec]:
        if not isinstance(seats, (list, tuple)):
            raise BadRequest.said(words.SEATS_TYPE)
        if len(seats) != cfg.players:
            raise BadRequest.said(words.SEATS_COUNT, players=cfg.players,
                                  seats=Count(len(seats), words.SEAT))
        return [SeatSpec.parse(s) for s in seats]

    def _insert(self, cfg: GameConfig, specs: list[SeatSpec], title: str | None,
                entries: list[tuple[int, str]], over: bool, player: int | None,
                clock: ClockConfig | None,
                names: Sequence[tuple[str, bool]] | None = None,
                then: Callable[[Connection, Created], None] | None = None,
                locale: str = "en") -> Created:
        game_id = secrets.token_urlsafe(9)
        host_token = secrets.token_urlsafe(32)
        created_seats = []
        seat_rows = []
        seat_values = []
        for i, spec in enumerate(specs):
            token: str | None = None
            if spec.kind != "bot":
                key = "hotseat" if spec.kind == "hotseat" else str(i)
                token = seat_token(host_token, game_id, key, 0)
            created_seats.append(CreatedSeat(i, spec.kind, spec.bot, token))
            seat_name, named = names[i] if names else (f"P{i}", False)
            seat_values.append(Seat(i, spec.kind, spec.bot, seat_name,
                                    hash_token(token) if token else None, named=named))
            seat_rows.append({"game_id": game_id, "seat": i, "kind": spec.kind,
                              "bot": spec.bot, "name": seat_name, "named": named,
                              "token_gen": 0,
                              "token_hash": hash_token(token) if token else None})
        now = _now()
        name = clean_title(title) or default_title(cfg, specs, locale)
        values: dict[str, Any] = {
            "id": game_id, "created": now, "config": cfg.to_dict(), "seats": len(specs),
            "seq": len(entries), "over": over, "title": name,
            "host_hash": hash_token(host_token), "current_player": player}
        if clock is not None:
            state = ClockState(clock, False, tuple(clock.bank for _ in specs))
            state = reclock(state, seat_values, player, now, stopped=over,
                             restart=True) or state
            values.update(clock=clock.to_dict(False), banks=list(state.banks),
                          turn_started=state.turn_started, deadline=state.deadline)
        with self.write_lock, self.engine.begin() as conn:
            conn.execute(insert(db.games).values(**values))
            conn.execute(insert(db.seats), seat_rows)
            if entries:
                conn.execute(insert(db.moves), [
                    {"game_id": game_id, "seq": n, "seat": who, "kind": "action",
                     "action": text_, "created": now}
                    for n, (who, text_) in enumerate(entries, 1)])
            if over and self.review_iterations > 0:
                conn.execute(*self.review_statement(game_id, len(entries)))
            created = Created(game_id, tuple(created_seats), host_token)
            if then is not None:
                then(conn, created)
        self._notify(game_id, len(entries))
        return created
