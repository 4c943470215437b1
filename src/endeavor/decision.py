"""Typed decisions: the public description of a pending decision, and the per-kind
dispatch objects behind it.

Clients call :meth:`State.decision` and get a :class:`Decision`: who decides
(``.player``), what kind of decision it is (``.kind``, a short string), a prompt in words
(``.prompt``) and the ``.options``, one :class:`Option` per legal action (together
exactly :meth:`State.legal_actions`, in the same order) with the action's effect in words
(``.text``).

Inside the engine every frame kind (:mod:`endeavor.frames`) has one
:class:`DecisionType` in the rules object's table ``rules.decisions``: it generates the
legal codes, applies one, says why another is refused and describes the decision. The
state dispatches through that table; there is no ``if``/``elif`` on frame kinds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from . import actions as A
from .actions import Action
from .frames import (
    EFFECT_DECK,
    EFFECT_FLAGS,
    EFFECT_KIND1,
    EFFECT_KIND2,
    EFFECT_MODE,
    EFFECT_REGION,
    EXPLOIT_A,
    EXPLOIT_B,
    EXPLOIT_MODULE,
    EXPLOIT_STEP,
    F_EFFECT,
    F_EXPLOIT,
    F_SALARY,
    FL_MASK,
    FRAME_NAMES,
    SALARY_LEFT,
    SRC_SHIFT,
)
from .ids import ActionCode, PlayerId
from .messages import Message, SeatNames, define, msg

if TYPE_CHECKING:
    from .state import State

Frame = tuple[int, ...]


def said(what: str | Message, locale: str, viewer: int | None, seats: SeatNames | None
         ) -> str:
    """Words or a message, in words (see :func:`endeavor.messages.render`)."""
    return what if isinstance(what, str) else what.render(locale, viewer, seats)


class Option:
    """One legal action of a decision, what it does, and ``targets``: the ids of the
    elements of the table where it is taken (:mod:`endeavor.targets`: a city, a track, a
    deck, a building, a token, a card...), for a client to highlight and click.

    What it does is a structured message (``message``, :mod:`endeavor.messages`; None
    where a rule module gives words only), said to the seat deciding: ``text`` is its
    English words as the engine has always given them, :meth:`render` its words in a
    locale, for a viewer (the decider reads "your", the others "their"), with the
    client's seat names. ``player`` is the seat deciding."""

    __slots__ = ("action", "what", "targets", "player")

    def __init__(self, action: Action, what: str | Message, targets: tuple[str, ...] = (),
                 player: int | None = None) -> None:
        self.action = action
        self.what = what
        self.targets = targets
        self.player = player

    @property
    def text(self) -> str:
        """What the option does, in English, said to the seat deciding."""
        w = self.what
        return w if isinstance(w, str) else w.render(viewer=self.player)

    @property
    def message(self) -> Message | None:
        """What the option does as a message (None: a rule module's words only)."""
        w = self.what
        return w if isinstance(w, Message) else None

    def render(self, locale: str = "en", viewer: int | None = None,
               seats: SeatNames | None = None) -> str:
        """What the option does in ``locale``'s words, read by ``viewer``."""
        return said(self.what, locale, viewer, seats)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Option) and self.action == other.action
                and self.text == other.text and self.targets == other.targets)

    def __reduce__(self) -> tuple[Any, tuple[Action, str | Message, tuple[str, ...],
                                             int | None]]:
        return (Option, (self.action, self.what, self.targets, self.player))

    def __repr__(self) -> str:
        return f"Option({self.action.text!r}, {self.text!r})"


class Decision:
    """The pending decision: ``player`` decides a decision of ``kind`` (e.g.
    ``"construction"``, ``"action"``, ``"effect"``, ``"discard"``, or a module's own
    step such as ``"manila_swap"``), asked with ``prompt`` (English words, said to the
    seat deciding; ``message`` the same as a structured message, :meth:`render` in a
    locale for a viewer); ``options`` lists every legal action with its effect.
    ``Decision.actions`` is ``[o.action for o in options]``."""

    __slots__ = ("player", "kind", "asks", "options")

    def __init__(self, player: PlayerId, kind: str, prompt: str | Message,
                 options: list[Option]) -> None:
        self.player = player
        self.kind = kind
        self.asks = prompt
        self.options = options

    @property
    def prompt(self) -> str:
        """The question in English, said to the seat deciding."""
        w = self.asks
        return w if isinstance(w, str) else w.render(viewer=self.player)

    @property
    def message(self) -> Message | None:
        """The question as a message (None: a rule module's words only)."""
        w = self.asks
        return w if isinstance(w, Message) else None

    def render(self, locale: str = "en", viewer: int | None = None,
               seats: SeatNames | None = None) -> str:
        """The question in ``locale``'s words, read by ``viewer`` (the decider reads the
        second person, the others the third)."""
        return said(self.asks, locale, viewer, seats)

    @property
    def actions(self) -> list[Action]:
        return [o.action for o in self.options]

    def option(self, action: Action | str) -> Option:
        """The option of ``action`` (an :class:`Action` or its notation); KeyError if it
        is not legal now."""
        text = action.text if isinstance(action, Action) else " ".join(action.split()).lower()
        for o in self.options:
            if o.action.text.lower() == text.lower():
                return o
        raise KeyError(f"{action} is not an option of this decision")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Decision) and self.player == other.player
                and self.kind == other.kind and self.prompt == other.prompt
                and self.options == other.options)

    def __reduce__(self) -> tuple[Any, tuple[PlayerId, str, str | Message, list[Option]]]:
        return (Decision, (self.player, self.kind, self.asks, self.options))

    def __repr__(self) -> str:
        return (f"Decision(player={self.player}, kind={self.kind!r}, prompt={self.prompt!r}, "
                f"{len(self.options)} options)")


#: refusals: the reason of an action whose verb this decision never takes, and what
#: a decision asks ("player 1 must <this>"), by frame kind
NOT_NOW: Final = define("error.not_now", "this is not the time for '{verb}'")
ASKS: Final = tuple(define(f"error.asks.{name.replace(' ', '_')}",
                           f"make {'an' if name[0] in 'aeiou' else 'a'} {name} decision")
                    for name in FRAME_NAMES)


def not_now(action: Action) -> Message:
    """The refusal of an action whose verb this decision never takes."""
    return msg(NOT_NOW, verb=A.VERB_NAMES[action.verb])


class DecisionType:
    """The behaviour of one frame kind. Subclasses set the class attributes and
    implement :meth:`codes` and :meth:`apply`; the wording methods have defaults.

    ``length`` and ``ranges`` (the allowed range of each field after the player) let
    :meth:`State.from_json` validate a frame; ``phases`` are the phases it can occur in.
    ``sort`` asks the state to sort and deduplicate the codes of :meth:`codes`."""

    frame: ClassVar[int] = -1
    kind: ClassVar[str] = ""
    length: ClassVar[int] = 2
    ranges: ClassVar[tuple[tuple[int, int], ...]] = ()
    phases: ClassVar[tuple[int, ...]] = ()
    sort: ClassVar[bool] = False

    def codes(self, s: State, f: Frame) -> list[ActionCode]:
        """The legal action codes of frame ``f`` (sorted unless :attr:`sort`)."""
        raise NotImplementedError

    def apply(self, s: State, f: Frame, c: ActionCode) -> None:
        """Carry out legal code ``c``; ``f`` is already popped from the stack."""
        raise NotImplementedError

    def why_not(self, s: State, f: Frame, action: Action) -> Message | None:
        """Why ``action`` (not legal) is refused here: a message said to the seat deciding
        (made only when an action is refused); None when the legal list says it all."""
        return None

    def kind_of(self, s: State, f: Frame) -> str:
        """The public kind of this decision (``Decision.kind``)."""
        return self.kind

    def prompt(self, s: State, f: Frame) -> str | Message:
        """The question, with what the choice costs: a message (or words) said to the
        seat deciding."""
        return self.kind

    def asks(self, s: State, f: Frame) -> str | Message:
        """What this decision asks, short, for refusals: "player 1 must <this>" (a
        message, or words)."""
        return msg(ASKS[f[0]])

    def option(self, s: State, f: Frame, action: Action) -> str | Message:
        """What legal ``action`` does: a message (or words) said to the seat deciding."""
        return action.text

    def check(self, s: State, f: Frame) -> str:
        """A problem with frame ``f`` in state ``s`` that no game can produce ("" if fine);
        used by :meth:`State.from_json` after the fields are range-checked."""
        return ""


class Pending:
    """The decision on top of the stack, as the few numbers a client that sees the game as
    numbers (the observation encoder) needs; :func:`pending` makes it. A field that does
    not apply to the decision's kind is -1 (a code) or 0 (a count, a mask). Read only;
    equal when every field is."""

    __slots__ = ("kind", "player", "payments", "mode", "kind1", "kind2", "region", "deck",
                 "flags", "source", "module", "step", "a", "b")

    def __init__(self, kind: int, player: int, payments: int = 0, mode: int = -1,
                 kind1: int = -1, kind2: int = -1, region: int = -1, deck: int = -1,
                 flags: int = 0, source: int = 0, module: int = -1, step: int = -1,
                 a: int = 0, b: int = 0) -> None:
        #: its frame kind (0-8, named by ``frames.FRAME_NAMES``); -1: no decision
        self.kind = kind
        #: who decides (-1: nobody)
        self.player = player
        #: salary: payments left
        self.payments = payments
        #: effect: ``SINGLE``, ``CHOICE`` ("/"), ``BOTH`` ("+", first half) or ``SECOND``
        self.mode = mode
        #: effect: the first and second action kinds (-1: none)
        self.kind1 = kind1
        self.kind2 = kind2
        #: effect: the region and the deck it is restricted to (-1: none)
        self.region = region
        self.deck = deck
        #: effect: its flags (``FL_NO_PRESENCE``, ``FL_NORMAL_ONLY``, ``FL_NO_EUROPE``)
        self.flags = flags
        #: effect: what was activated (building index + 1, ``SRC_TOKEN`` + blue token
        #: type; 0 unknown)
        self.source = source
        #: a rule module's own step: the module's index in ``State.modules``, its step
        #: and the step's two ints
        self.module = module
        self.step = step
        self.a = a
        self.b = b

    def fields(self) -> tuple[int, ...]:
        """Every field, in the order above."""
        return (self.kind, self.player, self.payments, self.mode, self.kind1, self.kind2,
                self.region, self.deck, self.flags, self.source, self.module, self.step,
                self.a, self.b)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pending) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return "Pending(" + ", ".join(
            f"{k}={v}" for k, v in zip(_PENDING_FIELDS, self.fields(), strict=True)) + ")"


_PENDING_FIELDS: Final = ("kind", "player", "payments", "mode", "kind1", "kind2", "region",
                           "deck", "flags", "source", "module", "step", "a", "b")
#: no decision pending
NO_PENDING: Final = Pending(-1, -1)
#: the descriptors made so far, by frame (a frame is immutable, and few are distinct)
_PENDING: dict[Frame, Pending] = {}


def _describe(f: Frame) -> Pending:
    kind = f[0]
    p = f[1]
    if kind == F_SALARY:
        return Pending(kind, p, payments=f[SALARY_LEFT])
    if kind == F_EFFECT:
        flags = f[EFFECT_FLAGS]
        return Pending(kind, p, mode=f[EFFECT_MODE], kind1=f[EFFECT_KIND1],
                       kind2=f[EFFECT_KIND2], region=f[EFFECT_REGION], deck=f[EFFECT_DECK],
                       flags=flags & FL_MASK, source=flags >> SRC_SHIFT)
    if kind == F_EXPLOIT:
        return Pending(kind, p, module=f[EXPLOIT_MODULE], step=f[EXPLOIT_STEP],
                       a=f[EXPLOIT_A], b=f[EXPLOIT_B])
    return Pending(kind, p)


def pending(s: State) -> Pending:
    """The decision ``s`` waits for, as numbers (:data:`NO_PENDING` when the game is over).
    The same decision gives the same object while it is remembered (identity is a cheap
    first test of "unchanged"; equality the sure one)."""
    stack = s.stack
    if not stack:
        return NO_PENDING
    f = stack[-1]
    d = _PENDING.get(f)
    if d is None:
        d = _describe(f)
        if len(_PENDING) >= 4096:
            _PENDING.clear()
        _PENDING[f] = d
    return d
