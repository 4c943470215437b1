"""Decision-frame kinds, their flags and the phases of a round (engine constants).

A decision is a frame on the state's decision stack: a tuple of ints whose first item is
its kind and second the player who decides. Frames are immutable, so the stack copies
shallowly. Each kind has one :class:`~endeavor.decision.DecisionType` in the rules
object's dispatch table (``rules.decisions[kind]``) that lists its legal actions,
applies one, explains a refusal and describes the decision in words; clients read
:meth:`State.decision`, never the tuples.

Layouts::

    (F_START, p)                        choose the start tile (R3)
    (F_BUILD, p)                        Construction
    (F_SALARY, p, payments_left)        Salary, when there are more workers than payments
    (F_ACTION, p)                       Action phase: activate a building, use a token, pass
    (F_EFFECT, p, mode, k1, k2, region, deck, flags)
                                        the action(s) of the chosen source; mode SINGLE,
                                        CHOICE ("/"), BOTH ("+", first half) or SECOND
                                        (second half of a "+", or a follow-up); region /
                                        deck >= 0 restrict it; flags below
    (F_CASUALTY, p)                     Memorial: where a casualty goes
    (F_GOVSLOT, p)                      Discard phase: which Governor is in the free slot
    (F_DISCARD, p)                      Discard phase: discard one card
    (F_EXPLOIT, p, i, step, a, b)       step ``step`` of rule module ``i`` (its own decision)

Each layout is declared by a :class:`~typing.NamedTuple` below (:class:`EffectFrame`...),
and each field has an index constant (``f[EFFECT_MODE]``, ``f[EXPLOIT_STEP]``...) that
the engine reads a frame with: frames stay plain tuples built as tuple literals (a
NamedTuple costs more to build and to read, in pure Python and compiled), and the
constants are checked against the NamedTuples' fields (``tests/test_frames.py``).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .data import BOTH, CHOICE, SINGLE

F_START: Final = 0
F_BUILD: Final = 1
F_SALARY: Final = 2
F_ACTION: Final = 3
F_EFFECT: Final = 4
F_CASUALTY: Final = 5
F_GOVSLOT: Final = 6
F_DISCARD: Final = 7
F_EXPLOIT: Final = 8
NFRAMES: Final = 9
FRAME_NAMES: Final = ("start tile", "construction", "salary", "action", "effect", "casualty",
                      "governor slot", "discard", "exploit")
SECOND: Final = 3  # F_EFFECT mode: second half of a "+" source, or a follow-up action
#: F_EFFECT flags (low bits)
FL_NO_PRESENCE: Final = 1  # Occupy without presence (The Sun Never Sets)
FL_NORMAL_ONLY: Final = 2  # a "normal" action: no Exploit ability may replace it
FL_NO_EUROPE: Final = 4  # "any region": Europe is not a region (R24, The Sun Never Sets)
FL_MASK: Final = 0xFF
#: F_EFFECT flags, high bits: the source that was activated, for prompts only
#: (building index + 1, or SRC_TOKEN + blue token type; 0 unknown)
SRC_SHIFT: Final = 8
SRC_TOKEN: Final = 64


# ------------------------------------------------------------------ the frames' layouts
class PlayerFrame(NamedTuple):
    """A decision of ``player`` with nothing more: F_START, F_BUILD, F_ACTION,
    F_CASUALTY, F_GOVSLOT and F_DISCARD."""

    kind: int
    player: int


class SalaryFrame(NamedTuple):
    """F_SALARY: ``player`` pays a worker back, ``payments_left`` payments to go."""

    kind: int
    player: int
    payments_left: int


class EffectFrame(NamedTuple):
    """F_EFFECT: the action(s) of the chosen source. ``mode`` SINGLE, CHOICE, BOTH or
    SECOND; ``kind1``/``kind2`` the action kinds (``-1`` none); ``region``/``deck`` >= 0
    restrict it; ``flags`` the FL_* bits, and above SRC_SHIFT the source activated."""

    kind: int
    player: int
    mode: int
    kind1: int
    kind2: int
    region: int
    deck: int
    flags: int


class ExploitFrame(NamedTuple):
    """F_EXPLOIT: step ``step`` of rule module ``module`` (its index in the state's
    modules), with two ints ``a`` and ``b`` of the module's own."""

    kind: int
    player: int
    module: int
    step: int
    a: int
    b: int


#: the field indexes, for every kind (literal ints, so that mypyc inlines them)
FRAME_KIND: Final = 0
FRAME_PLAYER: Final = 1
SALARY_LEFT: Final = 2
EFFECT_MODE: Final = 2
EFFECT_KIND1: Final = 3
EFFECT_KIND2: Final = 4
EFFECT_REGION: Final = 5
EFFECT_DECK: Final = 6
EFFECT_FLAGS: Final = 7
EXPLOIT_MODULE: Final = 2
EXPLOIT_STEP: Final = 3
EXPLOIT_A: Final = 4
EXPLOIT_B: Final = 5

#: each frame kind's layout
FRAME_LAYOUTS: Final[dict[int, type[tuple[int, ...]]]] = {
    F_START: PlayerFrame, F_BUILD: PlayerFrame, F_SALARY: SalaryFrame,
    F_ACTION: PlayerFrame, F_EFFECT: EffectFrame, F_CASUALTY: PlayerFrame,
    F_GOVSLOT: PlayerFrame, F_DISCARD: PlayerFrame, F_EXPLOIT: ExploitFrame,
}

PH_SETUP: Final = 0
PH_CONSTRUCTION: Final = 1
PH_GROWTH: Final = 2
PH_SALARY: Final = 3
PH_ACTIONS: Final = 4
PH_DISCARD: Final = 5
PH_END: Final = 6
PHASE_NAMES: Final = ("Setup", "Construction", "Growth", "Salary", "Actions", "Discard",
                      "Game over")

__all__ = [
    "BOTH", "CHOICE", "EFFECT_DECK", "EFFECT_FLAGS", "EFFECT_KIND1", "EFFECT_KIND2",
    "EFFECT_MODE", "EFFECT_REGION", "EXPLOIT_A", "EXPLOIT_B", "EXPLOIT_MODULE",
    "EXPLOIT_STEP", "FRAME_KIND", "FRAME_LAYOUTS", "FRAME_PLAYER", "EffectFrame",
    "ExploitFrame", "PlayerFrame", "SALARY_LEFT", "SalaryFrame", "FL_MASK", "FL_NORMAL_ONLY",
    "FL_NO_EUROPE", "FL_NO_PRESENCE",
    "FRAME_NAMES", "F_ACTION", "F_BUILD", "F_CASUALTY", "F_DISCARD", "F_EFFECT",
    "F_EXPLOIT", "F_GOVSLOT", "F_SALARY", "F_START", "NFRAMES", "PHASE_NAMES",
    "PH_ACTIONS", "PH_CONSTRUCTION", "PH_DISCARD", "PH_END", "PH_GROWTH", "PH_SALARY",
    "PH_SETUP", "SECOND", "SINGLE", "SRC_SHIFT", "SRC_TOKEN",
]
