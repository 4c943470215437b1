"""Rulesets and rule areas.

:class:`~endeavor.rules.base.Rules` is the per-game rules object; each ruleset is a
subclass over its own tables (:class:`~endeavor.rules.age_of_sail.AgeOfSail`, and
:class:`~endeavor.rules.classic.Classic` for the 2009 game).
One module per rule area owns that rule's generator, effect, refusal reason and words:
:mod:`.construction`, :mod:`.growth`, :mod:`.salary`, :mod:`.ship`, :mod:`.occupy`,
:mod:`.attack`, :mod:`.payment`, :mod:`.draw`, :mod:`.discard`, :mod:`.abolition`,
:mod:`.scoring` and :mod:`.turns` (turn order), with :mod:`.sources` (the Action
phase's sources and effects) and :mod:`.board` (the shared board mechanics).
Rule modules (Exploits, variants) plug in through :mod:`.module`'s hooks and use only
:mod:`endeavor.api`.
"""

from __future__ import annotations

from .age_of_sail import AgeOfSail
from .base import RULESETS, BoardInfo, Rules, rules_for
from .classic import Classic

__all__ = ["RULESETS", "AgeOfSail", "BoardInfo", "Classic", "Rules", "rules_for"]
