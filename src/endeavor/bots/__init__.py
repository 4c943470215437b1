"""Computer players, an adapter beside the engine: bots use only the public API
(``legal_actions``/``legal_codes``, ``decision``, ``apply``/``apply_code``, ``copy``,
``final_scores``) and never modify the state they are given.

``make(name, seed=..., **budget)`` builds any of them by name (see :data:`NAMES`).

The ``expert`` level (:mod:`.expert`: tree search on a policy/value network trained by
``endeavor train``, in numpy) is one of the names when it can play here: numpy is
installed (the ``expert`` extra) and the package has its weights
(``endeavor/bots/weights/expert_v1.npz``). Its modules are imported only when an
``expert`` bot is made, so the other bots never need numpy.
"""

from __future__ import annotations

from importlib import resources
from importlib.util import find_spec
from typing import Any, Final

from .base import Bot, Rated
from .greedy import GreedyBot
from .mcts import MCTSBot, make_mcts
from .random_bot import RandomBot
from .specs import BotSpecError, Entrant, budget_text, parse_budget, resolve_bots

#: the learned level, its weights file in this package and the extra it needs
EXPERT: Final = "expert"
EXPERT_WEIGHTS: Final = "weights/expert_v1.npz"
EXPERT_EXTRA: Final = "pip install 'endeavor[expert]'"


def expert_missing() -> str | None:
    """Why the ``expert`` level cannot play here (numpy or the shipped weights are
    missing), or None when it can. Cheap: nothing is imported or read."""
    if find_spec("numpy") is None:
        return f"the expert bot needs numpy: {EXPERT_EXTRA}"
    if not resources.files(__name__).joinpath(EXPERT_WEIGHTS).is_file():
        return (f"the expert bot's weights ({EXPERT_WEIGHTS} in the endeavor.bots "
                "package) are missing: train them with 'endeavor train' and pass "
                "weights=FILE, or install a release that ships them")
    return None


#: bot kinds, then difficulty levels (each level is a kind with a budget; ``expert``
#: only where it can play, see :func:`expert_missing`)
KINDS: Final = ("random", "greedy", "mcts")
LEVELS: Final = ("easy", "medium", "hard") + ((EXPERT,) if expert_missing() is None else ())
#: what each difficulty level is: a bot kind and its settings (the budget of ``hard`` may
#: be overridden with ``seconds=`` or ``iterations=``)
LEVEL_SETTINGS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"noise": 2.0, "depth": 1}),
    "medium": ("greedy", {}),
    "hard": ("mcts", {"seconds": 1.0}),
}
NAMES: Final = KINDS + LEVELS
#: the strongest level measured (docs/bots.md, "Strength"): the bot the post-game review
#: and the hints use, and name. ``hard`` until ``expert`` is measured stronger; a level
#: that cannot play here (``expert`` without numpy or its weights) falls back to ``hard``
#: (:func:`strongest`)
STRONGEST: Final = "hard"


def strongest() -> str:
    """The name of the strongest bot that can play here (:data:`STRONGEST`, else
    ``hard``)."""
    return STRONGEST if STRONGEST in NAMES else "hard"


def make(name: str, seed: int = 0, **budget: Any) -> Bot:
    """A bot by name: ``random``, ``greedy``, ``mcts`` or a difficulty level
    (``easy``, ``medium``, ``hard``, ``expert``). ``budget`` is passed to the bot
    (e.g. ``seconds=1.0`` or ``iterations=2000`` for ``mcts``, ``hard`` and ``expert``;
    ``expert`` also takes ``weights=FILE``). Raises ``ValueError`` for an unknown name
    or budget, and for ``expert`` where it cannot play (the message says why: numpy or
    the weights missing, or a weights file that does not fit)."""
    key = name.strip().lower()
    if key == EXPERT:
        if find_spec("numpy") is None or "weights" not in budget:
            problem = expert_missing()  # (weights of one's own need only numpy)
            if problem is not None:
                raise ValueError(problem)
        from .expert import make_expert  # here: numpy is needed by this bot alone

        return make_expert(seed, **budget)
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


__all__ = ["EXPERT", "NAMES", "KINDS", "LEVELS", "LEVEL_SETTINGS", "Bot", "BotSpecError",
           "Entrant", "GreedyBot", "MCTSBot", "RandomBot", "Rated", "budget_text",
           "expert_missing", "make", "parse_budget", "resolve_bots", "STRONGEST", "strongest"]
