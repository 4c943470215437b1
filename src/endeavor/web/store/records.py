"""The store's plain records: a game's seats (:class:`Seat`, and :class:`SeatSpec` as a
create request gives one), what a game is (:class:`Meta`), its log (:class:`Entry`,
:class:`Effective`, :class:`LogLine`), a game as of a version (:class:`Snapshot`), a new
game (:class:`Created`) and the rows of the lobby and the host panel."""

from __future__ import annotations

import hmac
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from endeavor import Event, State
from endeavor.bots import NAMES as BOT_NAMES
from endeavor.messages import Message

from ..view import checkwords as words
from ..view.journal import journal_text
from .errors import BadRequest
from .values import hash_token, utc_or_none
from .words import is_rename

if TYPE_CHECKING:
    from .clockstate import ClockState

SEAT_KINDS: Final = ("human", "hotseat", "bot")
#: the seat number of log entries made by the host (not by a seat)
HOST_SEAT: Final = -1


@dataclass(frozen=True)
class SeatSpec:
    """A parsed seat of a create request: ``human``, ``hotseat`` or ``bot:<name>``."""

    kind: str
    bot: str | None = None

    @staticmethod
    def parse(text: object) -> SeatSpec:
        """Parse a seat string; :class:`BadRequest` names what is wrong."""
        if not isinstance(text, str):
            raise BadRequest.said(words.SEAT_TYPE, value=repr(text))
        t = text.strip().lower()
        if t in ("human", "hotseat"):
            return SeatSpec(t)
        if t.startswith("bot:"):
            name = t[4:].strip()
            if name not in BOT_NAMES:
                raise BadRequest.said(words.SEAT_BOT, bot=repr(name), value=repr(text),
                                      bots=", ".join(BOT_NAMES))
            return SeatSpec("bot", name)
        raise BadRequest.said(words.SEAT_KIND, value=repr(text), bots=", ".join(BOT_NAMES))


@dataclass(frozen=True)
class Seat:
    """A seat of a stored game (``token_hash`` None for a bot, or a human seat the host
    gave to a bot). ``bot_override``: the bot playing for a human seat (``reason``
    ``host``: the host put it there; ``timeout``: the seat's clock ran out).
    ``override_at``: when the host put the bot there; while it plays, the seat's player
    keeps ``token_hash`` (the link opens the game to watch, not to move), and the host
    handing the seat back makes that link the seat's again (see :attr:`benched`)."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    token_gen: int = 0
    bot_override: str | None = None
    override_reason: str | None = None
    override_at: datetime | None = None
    #: the name was chosen (by the host or the seat's player), not given by default
    named: bool = False

    @property
    def benched(self) -> bool:
        """The host gave this person's seat to a bot: its link only watches."""
        return self.override_reason == "host" and self.kind != "bot"

    @property
    def played_by(self) -> str | None:
        """The bot that plays this seat now (None: a person)."""
        if self.bot_override is not None:
            return self.bot_override
        return self.bot if self.kind == "bot" else None

    @property
    def token_key(self) -> str:
        """What the seat's token is derived from beside its generation."""
        return "hotseat" if self.kind == "hotseat" else str(self.seat)


@dataclass(frozen=True)
class Meta:
    """What a game is: id, config, title, its host's token digest and its seats. Seats
    change only through ``host`` entries of the log (a new :class:`Meta` each time)."""

    id: str
    created: datetime
    config: dict[str, Any]
    title: str
    seats: tuple[Seat, ...]
    host_hash: str | None = None
    #: a rated game (web/ratings): its human seats move only once claimed by an account
    rated: bool = False

    @property
    def players(self) -> int:
        return len(self.seats)

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats ``token`` plays in this game (empty for no token or a stranger's);
        compared in constant time. A seat the host gave to a bot is not played by its
        link meanwhile (see :meth:`benched_of`)."""
        return frozenset(s.seat for s in self._held(token) if not s.benched)

    def benched_of(self, token: str | None) -> tuple[Seat, ...]:
        """The seats of ``token`` that the host gave to a bot: the link watches them
        until the host hands them back."""
        return tuple(s for s in self._held(token) if s.benched)

    def _held(self, token: str | None) -> list[Seat]:
        if not token:
            return []
        h = hash_token(token)
        return [s for s in self.seats
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, h)]

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is this game's host token."""
        return bool(token) and self.host_hash is not None and hmac.compare_digest(
            self.host_hash, hash_token(token or ""))


@dataclass(frozen=True)
class Entry:
    """One log entry: who made it (:data:`HOST_SEAT` for the host), an ``action`` (with
    its notation), an ``undo`` or a ``host`` entry (its short notation in ``action``);
    ``note``: how an action came about when not by its player (``timeout:<bot>``)."""

    seq: int
    seat: int
    kind: str
    action: str | None
    note: str | None = None


@dataclass(frozen=True)
class Effective:
    """An effective action: its log entry and the events applying it caused."""

    seq: int
    seat: int
    action: str
    events: tuple[Event, ...]
    note: str | None = None


@dataclass(frozen=True)
class LogLine:
    """A line of the game's log that is not an engine event: an undo (``undo``), a change
    made by the host or a seat (``host``), a clock running out (``timeout``)."""

    seq: int
    kind: str
    player: int | None
    text: str
    #: the line as a structured message (put into the reader's words when the log is
    #: served: :func:`endeavor.web.view.log.line_view`); None: a line known only by
    #: its ``text``, shown as it is
    message: Message | None = None


def journal_line(seq: int, kind: str, player: int | None, message: Message) -> LogLine:
    """A journal line of ``message``, its ``text`` the English words."""
    return LogLine(seq, kind, player, journal_text(message), message)


@dataclass(frozen=True)
class CreatedSeat:
    seat: int
    kind: str
    bot: str | None
    token: str | None


@dataclass(frozen=True)
class Created:
    """A new game's id, seats with their tokens, and the host's token."""

    id: str
    seats: tuple[CreatedSeat, ...]
    host_token: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """A game as of ``seq``: a private copy of its position (callers may read it freely,
    the cache is untouched), its effective actions with their events, its log, the log
    lines that are not engine events (``journal``), the clock and how it ended.

    ``memo`` is shared by every snapshot of this game at this ``seq`` in this process
    (and by nothing else): a place to keep what is computed from the position alone,
    once for every seat that asks. Store only values that are a function of the
    position (never of a seat or a token) and never mutate one read from it."""

    meta: Meta
    seq: int
    state: State
    effective: tuple[Effective, ...]
    log: tuple[Entry, ...]
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    journal: tuple[LogLine, ...] = ()
    clock: ClockState | None = None
    ended: str | None = None

    @property
    def over(self) -> bool:
        """The game has ended: played to its end, or ended by the host."""
        return self.ended is not None or self.state.is_over

    @property
    def current_player(self) -> int | None:
        return None if self.ended is not None else self.state.current_player

    def seat(self, p: int) -> Seat:
        return self.meta.seats[p]

    def events(self, since: int = 0) -> list[tuple[int, Event]]:
        """The events of the effective actions, each with the seq of its entry (only
        those after ``since``)."""
        return [(e.seq, ev) for e in self.effective if e.seq > since for ev in e.events]

    def lines(self, since: int = 0) -> list[LogLine]:
        """The journal's lines after ``since``."""
        return [line for line in self.journal if line.seq > since]

    def undo_target(self, seats: Collection[int]) -> Effective | None:
        """The effective action ``seats`` may undo now: the last one, if one of ``seats``
        made it (not a bot playing for it) and every log entry after it was made by
        ``seats`` too (another seat, a bot or the host acting since closes the door).
        None otherwise, and once the game has ended."""
        if not seats or not self.effective or self.ended is not None:
            return None
        last = self.effective[-1]
        if last.seat not in seats or last.note is not None:
            return None
        if any(e.seat not in seats and not is_rename(e) for e in self.log
               if e.seq > last.seq):
            return None
        return last


@dataclass(frozen=True)
class LobbyRow:
    """A game as the lobby lists it."""

    id: str
    title: str
    created: datetime
    config: dict[str, Any]
    seats: tuple[Seat, ...]
    seq: int
    status: str
    current_player: int | None
    ended: str | None = None


@dataclass(frozen=True)
class MineRow:
    """A game this browser holds a token of, as "Your games" lists it: the seats the
    token plays (empty: it no longer works) and whether one of them is to move;
    ``benched``: the token's seats the host gave to a bot (the link watches them)."""

    id: str
    found: bool
    you: frozenset[int]
    row: LobbyRow | None
    benched: frozenset[int] = frozenset()


@dataclass(frozen=True)
class HostSeat:
    """A seat as the host panel shows it: who plays it and its link's token (None for
    a seat no person holds, or a game created before links were derived)."""

    seat: Seat
    token: str | None


@dataclass(frozen=True)
class Notification:
    """A seat's notification setting on one channel (``target``: URL or address)."""

    seat: int
    channel: str
    target: str
    #: the language of its messages (``en``, ``fr``)
    lang: str = "en"


def seat_from_row(row: Any) -> Seat:
    return Seat(int(row.seat), row.kind, row.bot, row.name, row.token_hash,
                int(row.token_gen or 0), row.bot_override, row.override_reason,
                override_at=utc_or_none(row.override_at), named=bool(row.named))
