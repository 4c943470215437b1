"""Computer players, an adapter beside the engine: bots use only the public API
(``legal_actions``/``legal_codes``, ``decision``, ``apply``/``apply_code``, ``copy``,
``final_scores``) and never modify the state they are given.

``make(name, seed=..., **budget)`` builds any of them by name (see :data:`NAMES`).
"""

from __future__ import annotations

from typing import Any, Final

from .base import Bot, Rated
from .greedy import GreedyBot
from .mcts import MCTSBot, make_mcts
from .random_bot import RandomBot

#: bot kinds, then difficulty levels (each level is a kind with a budget)
KINDS: Final = ("random", "greedy", "mcts")
LEVELS: Final = ("easy", "medium", "hard", "expert")
#: what each difficulty level is: a bot kind and its settings (the budget of ``hard`` and
#: ``expert`` may be overridden with ``seconds=`` or ``iterations=``)
LEVEL_SETTINGS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"noise": 2.0, "depth": 1}),
    "medium": ("greedy", {}),
    "hard": ("mcts", {"seconds": 1.0}),
    "expert": ("mcts", {"seconds": 4.0}),
}
NAMES: Final = KINDS + LEVELS


def make(name: str, seed: int = 0, **budget: Any) -> Bot:
    """A bot by name: ``random``, ``greedy``, ``mcts`` or a difficulty level
    (``easy``, ``medium``, ``hard``, ``expert``). ``budget`` is passed to the bot
    (e.g. ``seconds=1.0`` or ``iterations=2000`` for ``mcts``). Raises ``ValueError``
    for an unknown name or budget."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed, **budget)
    if key == "greedy":
        return GreedyBot(seed, **budget)
    if key == "mcts":
        return make_mcts(seed, **budget)
    if key in LEVEL_SETTINGS:
        kind, settings = LEVEL_SETTINGS[key]
        if kind == "greedy":
            if budget:
                raise ValueError(f"the {key} level takes no budget (it is a one-ply bot), "
                                 f"not {', '.join(sorted(budget))}")
            return GreedyBot(seed, **settings)
        if "seconds" in budget or "iterations" in budget:
            settings = {k: v for k, v in settings.items() if k != "seconds"}
        return make_mcts(seed, **settings, **budget)
    raise ValueError(f"unknown bot {name!r}: choose from {', '.join(NAMES)}")


__all__ = ["NAMES", "KINDS", "LEVELS", "LEVEL_SETTINGS", "Bot", "GreedyBot", "MCTSBot", "RandomBot",
           "Rated", "make"]
