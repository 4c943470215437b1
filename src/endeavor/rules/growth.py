"""Growth (FI): a player moves discs from the supply to the Harbor: their Culture
level + 1, as many as the supply holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import data as D
from ..events import Event
from .words import plural, word_player

if TYPE_CHECKING:
    from ..state import State


def growth(s: State, p: int) -> int:
    """Discs ``p`` gains in the Growth phase (before the supply runs out)."""
    return D.growth_level(s.players[p].attr[D.CULTURE])


def _growth_words(p: int, g: int, culture: int) -> str:
    return f"{word_player(p)} gains {plural(g, 'disc')} from the supply (Growth, Culture {culture})"


def grow(s: State, p: int) -> None:
    """``p``'s Growth step."""
    pl = s.players[p]
    g = min(pl.supply, D.growth_level(pl.attr[D.CULTURE]))
    pl.supply -= g
    pl.harbor += g
    if s.ev is not None:
        s.ev.append(Event("growth", p, None, None, _growth_words, (p, g, pl.attr[D.CULTURE])))
