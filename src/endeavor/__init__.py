"""endeavor: a rules engine for Endeavor: Age of Sail (stdlib only; optionally compiled
with mypyc from the same source, see :data:`COMPILED`).

Quick start::

    from endeavor import GameConfig, new_game, final_scores
    state = new_game(GameConfig(players=4, seed=1))
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    print([s.total for s in final_scores(state)])
"""

import sys as _sys
from importlib import machinery as _machinery

from . import config as _config
from . import records as _records
from . import state as _state
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
from .rules import base as _rules_base
from .rules import module as _rules_module
from .scoring import ScoreBreakdown, final_scores
from .state import State, new_game

# The engine is in layers (CONTRIBUTING.md, "The engine in layers"; the import-linter contracts in
# pyproject.toml): a module imports only from the layers below its own. Importing the
# package imports them all (the state imports the rules and registers the rule modules)
# and hands two lower modules what they use from above: the config validates the ruleset
# and the Exploits against the rules' registries, and State.record / to_json / from_json
# call the records.
_config.use_rules(_rules_base.RULESETS, _rules_module.exploit_ids)
_state.serialize_with(_records)

__version__ = "0.1.0"

#: whether the engine running is the mypyc-compiled build of this source (``pip install``
#: builds it where a C compiler exists) or pure Python
COMPILED: bool = str(getattr(_sys.modules[__name__ + ".state"], "__file__", "")).endswith(
    tuple(_machinery.EXTENSION_SUFFIXES))
#: the build in words, as ``endeavor --version`` and ``endeavor bench`` print it
BUILD: str = "compiled with mypyc" if COMPILED else "pure Python"

__all__ = [
    "BUILD", "COMPILED", "Action", "ConfigError", "Decision", "EndeavorError", "Event",
    "GameConfig", "IllegalActionError", "NotationError", "Option", "RecordError", "ScoreBreakdown",
    "State", "UndoError", "final_scores", "new_game", "replay", "__version__",
]
