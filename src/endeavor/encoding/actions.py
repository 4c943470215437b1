"""The action space every interface shares: ``Discrete(NUM_ACTIONS)`` over a frozen,
versioned index of the engine's action catalogue.

The index is the list of notations in ``action_space_v{ACTION_SPACE_VERSION}.txt`` (one
per line; index = line number - 1), checked into the repository. The engine's int codes
sort Exploit actions between the base game's and ``done`` / ``pass``, so a new Exploit
would shift them; this index never shifts: a new action is appended at the end with a
new version, and ``tests/rl/test_actions.py`` fails when the catalogue and the file
disagree. Masks are ``numpy.int8`` vectors of length ``NUM_ACTIONS``.
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import numpy.typing as npt

from ..actions import BY_CODE, CATALOGUE, Action, parse
from ..state import State

#: the version of the action index; bump it (and write a new file) when actions are added
ACTION_SPACE_VERSION = 1
FILE = f"action_space_v{ACTION_SPACE_VERSION}.txt"


def _load() -> tuple[str, ...]:
    text = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8")
    return tuple(line for line in text.splitlines() if line)


#: notation of each index
ACTIONS: tuple[str, ...] = _load()
NUM_ACTIONS = len(ACTIONS)
#: engine code of each index, and index of each engine code
CODES: tuple[int, ...] = tuple(parse(text).code for text in ACTIONS)
_INDEX: dict[int, int] = {c: i for i, c in enumerate(CODES)}
if len(_INDEX) != NUM_ACTIONS or set(_INDEX) != set(BY_CODE):  # pragma: no cover
    raise ImportError(f"{FILE} does not match the engine's {len(CATALOGUE)} actions: "
                      "regenerate it with a new ACTION_SPACE_VERSION")


def index_of(action: Action | int | str) -> int:
    """The index of an action (an :class:`~endeavor.actions.Action`, its int code or its
    notation)."""
    if isinstance(action, Action):
        return _INDEX[action.code]
    if isinstance(action, str):
        return _INDEX[parse(action).code]
    return _INDEX[action]


def action_of(index: int) -> Action:
    """The action at ``index`` (``IndexError`` outside ``0 .. NUM_ACTIONS - 1``)."""
    if not 0 <= index < NUM_ACTIONS:
        raise IndexError(f"action index {index} is outside 0..{NUM_ACTIONS - 1}")
    return BY_CODE[CODES[index]]


def legal_indices(state: State) -> list[int]:
    """The indices of the legal actions now (empty when the game is over)."""
    index = _INDEX
    return [index[c] for c in state.legal_codes()]


def mask(state: State, out: npt.NDArray[np.int8] | None = None) -> npt.NDArray[np.int8]:
    """The legal actions as an ``int8`` vector of length :data:`NUM_ACTIONS` (1: legal);
    ``out`` a vector to fill instead of a new one. A new one is built in a bytearray (a
    third of the time of numpy's scatter, at every step of a loop)."""
    if out is None:
        buf = bytearray(NUM_ACTIONS)
        for i in legal_indices(state):
            buf[i] = 1
        return np.frombuffer(buf, np.int8)
    out.fill(0)
    out[legal_indices(state)] = 1
    return out
