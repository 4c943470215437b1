"""Growth (FI): a player moves discs from the supply to the Harbor: their Culture
level + 1, as many as the supply holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import data as D
from ..events import Event
from ..messages import Count, Message, Seat, define, msg

if TYPE_CHECKING:
    from ..state import State


def growth(s: State, p: int) -> int:
    """Discs ``p`` gains in the Growth phase (before the supply runs out)."""
    return D.growth_level(s.players[p].attr[D.CULTURE])


GROWTH = define("event.growth", "{seat} gains {discs} from the supply (Growth, Culture {culture})",
                you="You gain {discs} from the supply (Growth, Culture {culture})")


def _growth_message(p: int, g: int, culture: int) -> Message:
    return msg(GROWTH, seat=Seat(p), discs=Count(g, "disc"), culture=culture)


def grow(s: State, p: int) -> None:
    """``p``'s Growth step."""
    pl = s.players[p]
    g = min(pl.supply, D.growth_level(pl.attr[D.CULTURE]))
    pl.supply -= g
    pl.harbor += g
    if s.ev is not None:
        s.ev.append(Event("growth", p, None, None, _growth_message, (p, g, pl.attr[D.CULTURE])))
