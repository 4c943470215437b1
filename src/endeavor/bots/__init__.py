"""Computer players, an adapter beside the engine: bots use only the public API
(``legal_actions``/``legal_codes``, ``decision``, ``apply``/``apply_code``, ``copy``,
``final_scores``) and never modify the state they are given.

``make(name, seed=..., **budget)`` builds any of them by name (see :data:`NAMES`).
"""

from __future__ import annotations

from typing import Any, Final

from .base import Bot, Rated
from .random_bot import RandomBot

#: bot kinds, then difficulty levels (each level is a kind with a budget)
KINDS: Final = ("random",)
LEVELS: tuple[str, ...] = ()
NAMES: Final = KINDS + LEVELS


def make(name: str, seed: int = 0, **budget: Any) -> Bot:
    """A bot by name: ``random``, ``greedy``, ``mcts`` or a difficulty level
    (``easy``, ``medium``, ``hard``, ``expert``). ``budget`` is passed to the bot
    (e.g. ``seconds=1.0`` or ``iterations=2000`` for ``mcts``). Raises ``ValueError``
    for an unknown name or budget."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed, **budget)
    raise ValueError(f"unknown bot {name!r}: choose from {', '.join(NAMES)}")


__all__ = ["NAMES", "KINDS", "LEVELS", "Bot", "RandomBot", "Rated", "make"]
