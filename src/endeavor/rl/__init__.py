"""Endeavor as a research environment (the optional extra ``pip install 'endeavor[rl]'``:
numpy, Gymnasium, PettingZoo; OpenSpiel as the ``openspiel`` extra).

- :mod:`endeavor.rl.actions`: one frozen, versioned action index shared by every
  interface (``ACTIONS``, ``ACTION_SPACE_VERSION``, ``mask``).
- :mod:`endeavor.rl.observation`: one observation encoder (``encode``, ``describe``,
  ``observation_size``, ``OBSERVATION_VERSION``; docs/rl.md lists the layout).

An adapter: it uses only the engine's public API, and the engine never imports it.
"""

from __future__ import annotations

from .actions import ACTION_SPACE_VERSION, ACTIONS, NUM_ACTIONS, action_of, index_of, mask
from .observation import OBSERVATION_VERSION, describe, encode, observation_size

__all__ = ["ACTIONS", "ACTION_SPACE_VERSION", "NUM_ACTIONS", "OBSERVATION_VERSION",
           "action_of", "describe", "encode", "index_of", "mask", "observation_size"]
