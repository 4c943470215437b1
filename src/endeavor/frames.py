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
"""

from __future__ import annotations

from typing import Final

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
    "BOTH", "CHOICE", "FL_MASK", "FL_NORMAL_ONLY", "FL_NO_EUROPE", "FL_NO_PRESENCE",
    "FRAME_NAMES", "F_ACTION", "F_BUILD", "F_CASUALTY", "F_DISCARD", "F_EFFECT",
    "F_EXPLOIT", "F_GOVSLOT", "F_SALARY", "F_START", "NFRAMES", "PHASE_NAMES",
    "PH_ACTIONS", "PH_CONSTRUCTION", "PH_DISCARD", "PH_END", "PH_GROWTH", "PH_SALARY",
    "PH_SETUP", "SECOND", "SINGLE", "SRC_SHIFT", "SRC_TOKEN",
]
