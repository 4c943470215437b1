"""The one interface every bot has, and the rated actions behind hints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..actions import Action
from ..state import State


@dataclass(frozen=True)
class Rated:
    """One action as a bot sees it: ``value`` is the bot's estimate for the player to
    move (a win share in [0, 1] for search bots, an evaluation for one-ply bots),
    ``visits`` how much search backs it (0 for one-ply bots), ``text`` the estimate in
    words for a hint."""

    action: Action
    value: float
    visits: int
    text: str


class Bot(Protocol):
    """``choose`` returns a legal action of ``state`` and never modifies ``state``."""

    name: str

    def choose(self, state: State) -> Action: ...

    def analyse(self, state: State, top: int = 3) -> list[Rated]:
        """The ``top`` best actions for the player to move, best first."""
        ...
