"""Events: what an action caused, in words, for logs, clients and replays.

:meth:`State.apply` returns the list of :class:`Event` it caused: first the action itself
(kind ``"action"``), then every automatic step in the order it happened. Records hold
only actions; events are produced again by replaying them. Bots use
:meth:`State.apply_code`, which records no events and pays nothing for them.

Kinds (``Event.kind``):

=================  ===================================================================
``action``         the decision just taken, described in words
``growth``         a player's Growth (discs from the supply to the Harbor)
``salary``         workers paid automatically in the Salary phase
``governor``       a Governor awarded when its region opens
``region``         a region opens (its track is full)
``card``           a card gained outside a Draw action (Exploit draws, Governors aside)
``bonus``          the disc a value-1 region card gives (R16)
``link``           a link token taken by the first player to control the link
``slot``           a Governor moved into the free Governor slot (P1)
``abolition``      Slavery is abolished (R17)
``exploit``        an Exploit becomes active (both its regions open)
``shield``         a player gains or loses a Shield on an Exploit (P13)
``turn``           the next player to act
``phase``          a new phase begins
``round``          a new round begins
``game_end``       the game is over, with the final scores
=================  ===================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .messages import Message

KINDS: Final = ("action", "growth", "salary", "governor", "region", "card", "bonus", "link",
                "slot", "abolition", "exploit", "shield", "turn", "phase", "round", "game_end")


class Event:
    """One thing that happened. ``player`` is the seat concerned, or None for the table
    (a region opening, a new round). ``data`` holds machine-readable details for some
    kinds (``game_end``: ``{"scores": [...]}``).

    ``message`` is what happened as a structured message (:mod:`endeavor.messages`): an
    id and its arguments, which :meth:`render` puts into words for a locale, a viewer and
    the client's seat names; ``text`` is its English words as the engine has always
    said them (seats as ``P0``..``P4``; an action's said to the seat acting, "your", and
    an event raised with a ``reader`` to that seat). An event a rule module raises with
    words only has no message (None) and renders as its words.

    The message costs nothing until it is read: rule code raises most events with a
    function ``make`` and the values ``args`` it needs, captured when the event happened
    (numbers, ids, strings, a copy of a finished game; never the live state); the
    message (or, from an older rule module, the words) is ``make(*args)``, made on first
    reading (then kept). Likewise ``data``, when the event has a ``make_data``:
    ``make_data(*args)`` on first reading."""

    __slots__ = ("kind", "player", "_text", "_data", "_make", "_args", "_make_data",
                 "_msg", "_reader")

    def __init__(self, kind: str, player: int | None, text: str | None,
                 data: dict[str, Any] | None = None,
                 make: Callable[..., str | Message] | None = None,
                 args: tuple[Any, ...] = (),
                 make_data: Callable[..., dict[str, Any]] | None = None,
                 message: Message | None = None, reader: int | None = None) -> None:
        self.kind = kind
        self.player = player
        self._text = text
        self._data = data
        self._make = make
        self._args = args
        self._make_data = make_data
        # the two below stay unset unless given (most events are made lazily and speak
        # to everyone): two stores fewer an event on the public loop
        if message is not None:
            self._msg = message
        if reader is not None:  # whom ``text`` speaks to, a few old texts say "your"
            self._reader = reader

    def _message_now(self) -> Message | None:
        """The message given or made so far (None: none yet, or words only)."""
        m: Message | None = getattr(self, "_msg", None)
        return m

    def _viewer(self) -> int | None:
        """Whom the English ``text`` speaks to: the reader given, or for an action its
        player (the seat acting reads "your"), else nobody in particular."""
        r: int | None = getattr(self, "_reader", None)
        if r is None and self.kind == "action":
            return self.player
        return r

    def _made(self) -> None:
        make = self._make
        assert make is not None
        made = make(*self._args)
        self._make = None
        if self._make_data is None:
            self._args = ()
        if isinstance(made, Message):
            self._msg = made
        else:
            self._text = made

    @property
    def message(self) -> Message | None:
        """What happened as a structured message; None for an event a rule module raised
        with words only."""
        if self._make is not None:
            self._made()
        return self._message_now()

    @property
    def text(self) -> str:
        """The event in English words (seats as ``P0``..``P4``)."""
        t = self._text
        if t is None:
            if self._make is not None:
                self._made()
                t = self._text
            if t is None:
                m = self._message_now()
                if m is None:
                    raise TypeError("an Event needs its text or a function making it, "
                                    "or a message")
                t = self._text = m.render(viewer=self._viewer())
        return t

    def render(self, locale: str = "en", viewer: int | None = None,
               seats: Callable[[int], str] | None = None) -> str:
        """The event in words for ``locale``, read by seat ``viewer`` (None: everyone),
        seats named by ``seats`` (see :func:`endeavor.messages.render`); an event
        without a message: its ``text``."""
        m = self.message
        return self.text if m is None else m.render(locale, viewer, seats)

    @property
    def data(self) -> dict[str, Any] | None:
        """Machine-readable details, or None."""
        make = self._make_data
        if make is not None:
            self._data = make(*self._args)
            self._make_data = None
            if self._make is None:
                self._args = ()
        return self._data

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.player!r}, {self.text!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Event) and other.kind == self.kind
                and other.player == self.player and other.text == self.text)

    def __hash__(self) -> int:
        return hash((self.kind, self.player, self.text))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (Event, (self.kind, self.player, self.text, self.data, None, (), None,
                        self.message, getattr(self, "_reader", None)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: kind, player, text (English), the message (``{"id", "args"}``,
        when the event has one) and data (when there is some)."""
        d: dict[str, Any] = {"kind": self.kind, "player": self.player, "text": self.text}
        if self.message is not None:
            d["message"] = self.message.to_dict()
        if self.data is not None:
            d["data"] = self.data
        return d
