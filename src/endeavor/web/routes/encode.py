"""The game views encoded as JSON: the hot path (every move and every refresh).

An endpoint returns the JSON bytes in a :class:`Response` (``schemas.GameView``
documents them, tests check they match it), and what depends only on the game and its
seq (the position, the scores, the decision, the legal actions) is encoded once per seq
and kept in the snapshot's ``memo``, so the views of the other seats at that seq reuse
it. Also the host's panel, the new-game form's choices and a new game's links."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from fastapi.responses import Response

from endeavor.bots import NAMES as BOT_NAMES
from endeavor.config import RULESETS as RULESET_IDS
from endeavor.rules import RULESETS

from .. import guide, schemas, seating, view
from ..bots import QUICK_BOTS
from ..lastseen import Activity
from ..links import Links
from ..store import (
    CLOCK_KINDS,
    DEFAULT_TIMEOUT_BOT,
    ON_TIMEOUT,
    Created,
    HostSeat,
    Seat,
    Snapshot,
    utcnow,
)
from .middleware import MAX_BODY


def dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (what Starlette's ``JSONResponse`` sends)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":")).encode("utf-8")


def _memo(snap: Snapshot, key: Any, make: Callable[[], Any]) -> bytes:
    """``make()`` encoded, computed once per (game, seq) in this process: kept in the
    snapshot's memo (which belongs to its position alone; see :class:`Snapshot`)."""
    value: bytes | None = snap.memo.get(key)
    if value is None:
        value = dumps(make())
        snap.memo[key] = value
    return value


class PositionEncoder:
    """Encodes :func:`view.position` dicts as JSON, reusing the bytes of each part equal
    to the same part of the game's previous position (a move changes a region or two, a
    mat, a few links: the rest of the board is encoded once, not at every seq).

    The parts are the items of the position's lists (regions, links, supply, players,
    ...) and its other values; a part is reused only when it compares equal (``==``) to
    the previous one, so the result is always the JSON of ``pos`` (view.py's values keep
    their JSON type at every path: no ``1`` where a ``true`` was). The previous parts of
    the ``size`` games encoded last are kept."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._last: OrderedDict[str, dict[str, Any]] = OrderedDict()  # game id -> parts
        self._lock = threading.Lock()

    def encode(self, game_id: str, pos: Mapping[str, Any]) -> bytes:
        with self._lock:
            prev = self._last.get(game_id)
        # key -> (value, its JSON, the (item, JSON) of each item of a list value)
        parts: dict[str, tuple[Any, bytes, list[tuple[Any, bytes]] | None]] = {}
        out = []
        for key, value in pos.items():
            old = prev.get(key) if prev is not None else None
            if old is not None and old[0] == value:
                parts[key] = old
            elif isinstance(value, list):
                olds = old[2] if old is not None and old[2] is not None else []
                items = [olds[i] if i < len(olds) and olds[i][0] == item
                         else (item, dumps(item)) for i, item in enumerate(value)]
                parts[key] = (value, b"[" + b",".join(b for _, b in items) + b"]", items)
            else:
                parts[key] = (value, dumps(value), None)
            prefix = _KEYS.get(key)
            if prefix is None:
                prefix = _KEYS.setdefault(key, dumps(key) + b":")
            out.append(prefix + parts[key][1])
        with self._lock:
            self._last[game_id] = parts
            self._last.move_to_end(game_id)
            while len(self._last) > self.size:
                self._last.popitem(last=False)
        return b"{" + b",".join(out) + b"}"


#: a position's keys encoded, with their colon
_KEYS: dict[str, bytes] = {}

#: the position encoder of the game views (shared: parts are checked by equality, so
#: sharing across apps and databases is safe)
POSITIONS: Final = PositionEncoder()


def _seat_json(s: Seat) -> dict[str, Any]:
    return {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
            "named": s.named, "played_by": s.played_by, "replaced": s.override_reason}


def _events_json(snap: Snapshot, since: int, locale: str = "en") -> bytes:
    """The log after entry ``since``: the events of the effective actions
    (:func:`view.action_view`) and the journal's lines (undos, the host's changes,
    clocks running out), in log order (a clock's line before the move its bot made),
    the engine's words in ``locale``."""
    return dumps(log_view(snap, since, locale))


def log_view(snap: Snapshot, since: int = 0, locale: str = "en") -> list[dict[str, Any]]:
    """The game's log after entry ``since`` as the view's ``events`` (see
    :func:`_events_json`)."""
    out: list[dict[str, Any]] = []
    lines = snap.lines(since)
    i = 0
    for e in snap.effective:
        if e.seq <= since:
            continue
        while i < len(lines) and lines[i].seq <= e.seq:
            out.append(view.line_view(lines[i], locale))
            i += 1
        out.extend(view.action_view(e.seq, e.action, e.events, locale))
    out.extend(view.line_view(line, locale) for line in lines[i:])
    return out


def game_view_json(snap: Snapshot, you: frozenset[int], since: int = 0,
                   thinking: bool = False, benched: Sequence[Seat] = (),
                   locale: str = "en", ratings: Mapping[str, Any] | None = None) -> bytes:
    """The game view of docs/web.md (``schemas.GameView``) for a token playing ``you``
    (empty: a spectator), encoded as JSON from parts cached per (game, seq): only
    ``you``, ``events``, the clock's times and ``can_undo`` are encoded for each
    request. ``legal_actions`` and the decision's options only for the seat to move;
    the events of the entries after ``since``; ``thinking``: a bot is working on the
    game's next move; ``benched``: the token's seats the host gave to a bot (the token
    watches them); ``locale``: the language of the engine's words (the decision, the
    log); ``ratings``: a rated game's rating outcome (web/ratings)."""
    state = snap.state
    current = snap.current_player
    mine = current is not None and current in you
    over = snap.over
    reclaim = [p for p in sorted(you) if snap.meta.seats[p].override_reason == "timeout"
               and snap.clock is not None and snap.clock.config.reclaim and not over]
    head = dumps({"id": snap.meta.id, "title": snap.meta.title, "seq": snap.seq,
                   "over": over, "ended": snap.ended, "current_player": current,
                   "you": sorted(you), "thinking": thinking and not over,
                   "can_reclaim": reclaim, "rated": snap.meta.rated,
                   **({"ratings": ratings} if ratings is not None else {}),
                   **({"benched": seating.benched_view(benched, locale)} if benched else {}),
                   "clock": snap.clock.to_json(utcnow()) if snap.clock is not None else None})
    seats = _memo(snap, "seats", lambda: [_seat_json(s) for s in snap.meta.seats])
    config = _memo(snap, "config", lambda: snap.meta.config)
    legal = _memo(snap, "legal_actions",
                  lambda: [str(a) for a in state.legal_actions()]) if mine else b"[]"
    # decision_view shows the options exactly when the seat to move is one of ``you``
    decision = b"null" if current is None else _memo(
        snap, ("decision", mine, locale), lambda: view.decision_view(
            state, [current] if mine and current is not None else [], locale))
    events = _events_json(snap, since, locale)
    # the position's words are in the locale: one encoding per (seq, locale)
    key = "state" if locale == "en" else ("state", locale)
    position: bytes | None = snap.memo.get(key)
    if position is None:
        position = snap.memo[key] = POSITIONS.encode(
            snap.meta.id if locale == "en" else f"{snap.meta.id}/{locale}",
            view.position(state, locale))
    scores = _memo(snap, ("scores", locale),
                   lambda: view.scores_view(state, force=over, locale=locale))
    can_undo = b"true" if snap.undo_target(you) is not None else b"false"
    return b"".join((
        head[:-1], b',"seats":', seats, b',"config":', config,
        b',"actions":', str(len(snap.effective)).encode(), b',"legal_actions":', legal,
        b',"decision":', decision, b',"events":', events, b',"state":', position,
        b',"scores":', scores, b',"can_undo":', can_undo, b"}"))


def view_response(snap: Snapshot, you: frozenset[int], since: int = 0,
                  thinking: bool = False, benched: Sequence[Seat] = (),
                  locale: str = "en", ratings: Mapping[str, Any] | None = None) -> Response:
    """The 200 of a game view: :func:`game_view_json` as ``application/json`` (its
    ``Content-Language`` the locale of its words)."""
    return Response(game_view_json(snap, you, since, thinking, benched, locale, ratings),
                    media_type="application/json", headers={"Content-Language": locale})


def created_view(created: Created, links: Links) -> schemas.Created:
    return schemas.Created(
        id=created.id, spectate_url=links.spectate(created.id),
        host_token=created.host_token,
        host_url=links.host(created.id, created.host_token) if created.host_token else None,
        seats=[schemas.CreatedSeat(
            seat=s.seat, kind=s.kind,  # type: ignore[arg-type]
            bot=s.bot, token=s.token,
            url=links.seat(created.id, s.token) if s.token else None)
            for s in created.seats])


def host_panel_view(snap: Snapshot, seats: list[HostSeat], links: Links,
                    host_token: str, active: Mapping[int, Activity] | None = None,
                    ) -> schemas.HostPanel:
    """What the host sees: every seat with its link, the clock, how the game stands,
    when each seat last moved and opened the game (``active``)."""
    active = active or {}
    return schemas.HostPanel(
        now=utcnow(),
        id=snap.meta.id, title=snap.meta.title, seq=snap.seq, over=snap.over,
        ended=snap.ended, current_player=snap.current_player,
        host_url=links.host(snap.meta.id, host_token),
        spectate_url=links.spectate(snap.meta.id),
        clock=snap.clock.to_json(utcnow()) if snap.clock is not None else None,
        seats=[schemas.HostSeatView(
            seat=h.seat.seat, kind=h.seat.kind,  # type: ignore[arg-type]
            bot=h.seat.bot, name=h.seat.name, named=h.seat.named,
            played_by=h.seat.played_by,
            replaced=h.seat.override_reason,  # type: ignore[arg-type]
            token=h.token,
            url=links.seat(snap.meta.id, h.token) if h.token else None,
            last_moved=active.get(h.seat.seat, Activity()).moved,
            last_seen=active.get(h.seat.seat, Activity()).seen)
            for h in seats])


def meta_view(max_body: int = MAX_BODY, email: bool = False) -> schemas.Meta:
    """What the new-game form offers: rulesets with their player counts, boards and
    options, the Exploits, the bots, the phase orders."""
    rulesets = []
    for rid in RULESET_IDS:
        cls = RULESETS.get(rid)
        if cls is None:
            continue
        options = {name: {"values": list(values), "default": default}
                   for name, (values, default) in cls.options.items()}
        rulesets.append(schemas.RulesetMeta(
            id=rid, title=cls.title, players=list(cls.player_counts), boards=list(cls.boards),
            default_board={str(n): cls.default_board(n) for n in cls.player_counts},
            options=options,
            phase_orders=list(cls.options.get("phase_order", (("by_phase",), ""))[0])))
    boards = list(dict.fromkeys(b for r in rulesets for b in r.boards))
    orders = list(dict.fromkeys(o for r in rulesets for o in r.phase_orders))
    return schemas.Meta(
        rulesets=rulesets, boards=boards,
        exploits=[schemas.ExploitMeta(**e) for e in guide.exploits()],
        bots=list(BOT_NAMES), quick_bots=[b for b in BOT_NAMES if b in QUICK_BOTS],
        phase_orders=orders, seat_kinds=["human", "hotseat", "bot"], max_body=max_body,
        clock_kinds=list(CLOCK_KINDS), on_timeout=list(ON_TIMEOUT),
        default_timeout_bot=DEFAULT_TIMEOUT_BOT, email_notifications=email,
        email_available=email)
