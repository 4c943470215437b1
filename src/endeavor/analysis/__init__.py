"""Analysis adapters: many games at once, above the bots.

- :mod:`.tournament`: bots against each other, seated fairly, with ratings;
- :mod:`.review`: a finished game's decisions searched again, mistakes and the best line;
- :mod:`.train`: the ``expert`` bot's network trained by self-play;
- :mod:`.parallel`: the process pools and Ray tasks the three share.

They use only the engine's public API, :mod:`endeavor.bots` and :mod:`endeavor.encoding`.
"""
