"""endeavor: a rules engine for Endeavor: Age of Sail (pure Python, stdlib only).

Quick start::

    from endeavor import GameConfig, new_game, final_scores
    state = new_game(GameConfig(players=4, seed=1))
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    print([s.total for s in final_scores(state)])
"""

from .actions import Action
from .config import GameConfig
from .decision import Decision, Option
from .errors import (
    ConfigError,
    EndeavorError,
    IllegalActionError,
    NotationError,
    RecordError,
    UndoError,
)
from .events import Event
from .records import replay
from .scoring import ScoreBreakdown, final_scores
from .state import State, new_game

__version__ = "0.1.0"

__all__ = [
    "Action", "ConfigError", "Decision", "EndeavorError", "Event", "GameConfig",
    "IllegalActionError", "NotationError", "Option", "RecordError", "ScoreBreakdown",
    "State", "UndoError", "final_scores", "new_game", "replay", "__version__",
]
