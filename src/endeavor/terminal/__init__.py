"""The terminal adapter: the Rich screen of ``endeavor play`` (:mod:`.screen`) and the
plain-text rendering of a state that it, the replay and the RL environments' ``ansi``
mode share (:mod:`.render`). Uses only the engine's public API."""
