"""The game as numbers, shared by the bots, training and the research environments:

- :mod:`.actions`: the frozen, versioned action index (``ACTIONS``, ``NUM_ACTIONS``,
  ``index_of``, ``action_of``, ``mask``);
- :mod:`.observation`: the observation encoder (``encode``, ``describe``,
  ``observation_size``, ``OBSERVATION_VERSION``);
- :mod:`.features`: the encoder's core (stdlib only, compiled with the engine).

Nothing here imports :mod:`endeavor.bots` or :mod:`endeavor.rl`; both import it.
"""
