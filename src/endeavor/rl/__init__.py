"""Endeavor as a research environment (the optional extra ``pip install 'endeavor[rl]'``:
numpy, Gymnasium, PettingZoo; OpenSpiel as the ``openspiel`` extra).

- :mod:`endeavor.encoding.actions`: one frozen, versioned action index shared by every
  interface (``ACTIONS``, ``ACTION_SPACE_VERSION``, ``mask``).
- :mod:`endeavor.encoding.observation`: one observation encoder (``encode``, ``describe``,
  ``observation_size``, ``OBSERVATION_VERSION``; docs/rl.md lists the layout).
- :mod:`endeavor.rl.pettingzoo_env`: the PettingZoo AEC environment (``env``, ``raw_env``).
- :mod:`endeavor.rl.gym_env`: the Gymnasium environment ``endeavor/Endeavor-v0``
  (``EndeavorEnv``: one seat against the bots), registered when this package is imported.
- :mod:`endeavor.rl.rewards`: the rewards, by name.
- :mod:`endeavor.rl.openspiel` (imported on purpose, the ``openspiel`` extra): registers
  ``python_endeavor`` with OpenSpiel.

An adapter: it uses only the engine's public API, and the engine never imports it.
"""

from __future__ import annotations

from typing import Any

from ..encoding.actions import ACTION_SPACE_VERSION, ACTIONS, NUM_ACTIONS, action_of, index_of, mask
from ..encoding.observation import OBSERVATION_VERSION, describe, encode, observation_size

__all__ = ["ACTIONS", "ACTION_SPACE_VERSION", "NUM_ACTIONS", "OBSERVATION_VERSION",
           "EndeavorEnv", "action_of", "describe", "encode", "env", "index_of", "mask",
           "observation_size", "raw_env"]

# The environments are imported when first asked for (``endeavor.rl.env``): Gymnasium and
# PettingZoo take a while to import. The Gymnasium id is registered now, when Gymnasium
# is installed (``gymnasium.make`` imports the module).
_LAZY = {"env": "pettingzoo_env", "raw_env": "pettingzoo_env", "EndeavorEnv": "gym_env"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _register() -> None:
    from importlib import import_module

    try:  # (not an import statement: the compiled build's mypy runs without Gymnasium)
        gymnasium = import_module("gymnasium")
    except ImportError:  # without the rl extra: no Gymnasium environment to register
        return
    if "endeavor/Endeavor-v0" not in gymnasium.registry:
        gymnasium.register(id="endeavor/Endeavor-v0",
                           entry_point="endeavor.rl.gym_env:EndeavorEnv")


_register()
