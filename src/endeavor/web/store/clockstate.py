"""A game's clock as values: its settings (:class:`ClockConfig`, chosen at creation) and
how it stands (:class:`ClockState`), and how an entry of the log moves it on
(:func:`reclock`, :func:`resumed`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from endeavor.bots import NAMES as BOT_NAMES

from ..view import checkwords as words
from .errors import BadRequest

if TYPE_CHECKING:
    from .records import Seat


#: what a clock does when a player's time runs out: a bot plays that decision (the
#: seat's consecutive decisions), or the rest of the game
ON_TIMEOUT: Final = ("decision", "game")
CLOCK_KINDS: Final = ("live", "turn")
#: the longest a clock may give (a bank, a decision, an extension): 60 days
MAX_CLOCK_SECONDS: Final = 60 * 24 * 3600.0
#: the bot that plays for a player whose time ran out, unless the host chose another
DEFAULT_TIMEOUT_BOT: Final = "medium"


@dataclass(frozen=True)
class ClockConfig:
    """A game's clock, chosen at creation: each decision gets ``per_decision`` seconds of
    its own, and time beyond that comes out of the seat's ``bank`` (seconds, for the
    whole game); when both are spent the player's time has run out and ``bot`` plays:
    that decision (with the seat's decisions right after it, until another seat is to
    move) or, ``on_timeout="game"``, the rest of the game, unless the player takes the
    seat back (``reclaim``). ``kind`` (``live`` or ``turn``) is how it is presented."""

    kind: str = "turn"
    bank: float = 0.0
    per_decision: float = 86_400.0
    on_timeout: str = "decision"
    bot: str = DEFAULT_TIMEOUT_BOT
    reclaim: bool = True

    @staticmethod
    def parse(obj: object) -> ClockConfig | None:
        """A clock from the JSON of a create request (None or ``{}``: no clock);
        :class:`BadRequest` says what is wrong."""
        if obj is None:
            return None
        if not isinstance(obj, Mapping):
            raise BadRequest.said(words.CLOCK_OBJECT, fields="{kind, bank, per_decision, "
                                  "on_timeout, bot, reclaim}")
        if not obj:
            return None
        known = {"kind", "bank", "per_decision", "on_timeout", "bot", "reclaim"}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise BadRequest.said(words.CLOCK_FIELD, field=repr(unknown[0]),
                                  fields=", ".join(sorted(known)))
        kind = obj.get("kind", "turn")
        if kind not in CLOCK_KINDS:
            raise BadRequest.said(words.CLOCK_KIND, value=repr(kind))
        bank = clock_seconds(obj.get("bank", 0), "bank")
        per = clock_seconds(obj.get("per_decision", 0), "per_decision")
        if bank + per < 1:
            raise BadRequest.said(words.CLOCK_EMPTY)
        on_timeout = obj.get("on_timeout", "decision")
        if on_timeout not in ON_TIMEOUT:
            raise BadRequest.said(words.CLOCK_ON_TIMEOUT, value=repr(on_timeout))
        bot = obj.get("bot", DEFAULT_TIMEOUT_BOT)
        if not isinstance(bot, str) or bot not in BOT_NAMES:
            raise BadRequest.said(words.CLOCK_BOT, value=repr(bot), bots=", ".join(BOT_NAMES))
        reclaim = obj.get("reclaim", True)
        if not isinstance(reclaim, bool):
            raise BadRequest.said(words.CLOCK_RECLAIM)
        return ClockConfig(kind, bank, per, on_timeout, bot, reclaim)

    def to_dict(self, paused: bool = False) -> dict[str, Any]:
        return {"kind": self.kind, "bank": self.bank, "per_decision": self.per_decision,
                "on_timeout": self.on_timeout, "bot": self.bot, "reclaim": self.reclaim,
                "paused": paused}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> ClockConfig:
        return ClockConfig(str(d.get("kind", "turn")), float(d.get("bank", 0.0)),
                           float(d.get("per_decision", 0.0)),
                           str(d.get("on_timeout", "decision")),
                           str(d.get("bot", DEFAULT_TIMEOUT_BOT)),
                           bool(d.get("reclaim", True)))


def clock_seconds(value: object, field: str) -> float:
    """``value`` in seconds, or :class:`BadRequest` in words: a clock's ``field``
    (``bank``, ``per_decision``), or ``extend`` (the host's extension)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if field == "extend":
            raise BadRequest.said(words.EXTEND_SECONDS, value=repr(value))
        raise BadRequest.said(words.CLOCK_SECONDS, field=field, value=repr(value))
    if not math.isfinite(value) or value < 0 or value > MAX_CLOCK_SECONDS:
        if field == "extend":
            raise BadRequest.said(words.EXTEND_RANGE)
        raise BadRequest.said(words.CLOCK_RANGE, field=field)
    return float(value)


@dataclass(frozen=True)
class ClockState:
    """A game's clock as it stands: its settings, whether the host stopped it, each
    seat's bank (seconds), and the running decision: whose (``running``), since when
    and until when (all None when no time runs: a bot or nobody to move, stopped, over).
    ``held``: while the host has stopped the clocks, the seat whose decision was running
    and what was left of that decision's own time (seconds), given back on restart.
    """

    config: ClockConfig
    paused: bool
    banks: tuple[float, ...]
    turn_started: datetime | None = None
    deadline: datetime | None = None
    running: int | None = None
    held: tuple[int, float] | None = None

    def left(self, seat: int, now: datetime) -> float:
        """Seconds ``seat`` has left now: its bank, plus what is left of the running
        decision's own time when it is that seat's (never below 0); while the clocks
        are stopped, plus what the stopped decision kept."""
        bank = self.banks[seat]
        if self.held is not None and self.held[0] == seat and self.running is None:
            return bank + self.held[1]
        if self.running != seat or self.turn_started is None:
            return bank
        spent = (now - self.turn_started).total_seconds()
        return max(0.0, bank + self.config.per_decision - spent)

    def charged(self, now: datetime, *, all_spent: bool = False) -> tuple[float, ...]:
        """The banks once the running decision's time is counted: what it took beyond
        its own time comes out of the running seat's bank (all of it: ``all_spent``)."""
        r = self.running
        if r is None or self.turn_started is None:
            return self.banks
        banks = list(self.banks)
        if all_spent:
            banks[r] = 0.0
        else:
            spent = (now - self.turn_started).total_seconds()
            banks[r] = max(0.0, banks[r] - max(0.0, spent - self.config.per_decision))
        return tuple(banks)

    def settings(self) -> dict[str, Any]:
        """The ``games.clock`` column: the settings, whether stopped, what a stopped
        decision kept."""
        out = self.config.to_dict(self.paused)
        if self.held is not None:
            out["held"] = [self.held[0], self.held[1]]
        return out

    def to_json(self, now: datetime) -> dict[str, Any]:
        """For a client: the settings, the seats' banks and time left, the running
        decision's seat, start and deadline, and the server's time."""
        return {**self.config.to_dict(self.paused),
                "banks": list(self.banks),
                "left": [self.left(s, now) for s in range(len(self.banks))],
                "running": self.running,
                "turn_started": self.turn_started.isoformat() if self.turn_started else None,
                "deadline": self.deadline.isoformat() if self.deadline else None,
                "now": now.isoformat()}


def reclock(clock: ClockState | None, seats: Sequence[Seat], player: int | None,
            now: datetime, *, stopped: bool, restart: bool, all_spent: bool = False,
            ) -> ClockState | None:
    """The clock after an entry: ``player`` is then to move (None: nobody), ``stopped``
    the game is over. ``restart``: a decision was made, so the running one is counted
    and a new one starts; else a running decision that goes on (same seat, still a
    person's, clock not stopped) keeps its start and deadline. ``all_spent``: the
    running seat's time ran out (its bank is spent)."""
    if clock is None:
        return None
    runs = not (stopped or clock.paused or player is None
                or seats[player].played_by is not None)
    if runs and not restart and clock.running == player and clock.deadline is not None:
        return clock
    if restart and clock.held is not None:  # a decision made: the stopped one is gone
        clock = replace(clock, held=None)
    banks = clock.charged(now, all_spent=all_spent)
    if not runs or player is None:
        return replace(clock, banks=banks, turn_started=None, deadline=None, running=None)
    deadline = now + timedelta(seconds=clock.config.per_decision + banks[player])
    return replace(clock, banks=banks, turn_started=now, deadline=deadline, running=player)


def resumed(clock: ClockState, seats: Sequence[Seat], player: int | None,
            now: datetime) -> ClockState | None:
    """The clock restarted by the host: the decision that was running when it stopped
    (still ``player``'s, a person's) goes on with the time it had left; otherwise a new
    decision's time starts (see :func:`reclock`)."""
    held = clock.held
    if (held is None or player is None or held[0] != player
            or seats[player].played_by is not None):
        return reclock(replace(clock, held=None), seats, player, now, stopped=False,
                       restart=True)
    own = min(held[1], clock.config.per_decision)
    started = now - timedelta(seconds=clock.config.per_decision - own)
    deadline = now + timedelta(seconds=own + clock.banks[player])
    return replace(clock, held=None, turn_started=started, deadline=deadline,
                   running=player)
