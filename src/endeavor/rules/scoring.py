"""Final scoring in the Age of Sail score-pad order (R19) with a per-player breakdown (R20).

Lines, in order: one per Exploit in play (its name; only Shield holders score it), the
four status tracks (pad line A), cities
and links (B), glory on buildings and cards and the empty free Governor slot (C, two
lines), extra population (D) and the Slavery subtraction (E). Ties share the victory:
ranks use standard competition ranking (1, 1, 3) with no tie-break.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .. import data as D
from ..messages import term
from .board import controls_link
from .discard import held_cards

if TYPE_CHECKING:
    from ..state import State

LINE_NAMES: Final = ("Industry", "Culture", "Wealth", "Influence", "Cities & links",
                     "Buildings & cards", "Governor slot", "Extra population", "Slavery")
term("score_line", *LINE_NAMES)  # the score pad's lines, for a client's other languages


@dataclass(frozen=True)
class ScoreBreakdown:
    """One player's final score: ``lines`` maps line name to points in pad order."""

    player: int
    lines: dict[str, int]
    total: int
    rank: int


def cities_and_links(state: State, player: int) -> int:
    """Glory of controlled cities (1 or 2) plus 1 per controlled link, circular or square."""
    owner = state.site_owner
    pts = sum(D.SITES[s].glory for s in state.info.sites if owner[s] == player)
    for li in range(state.info.nlinks):
        if controls_link(state, player, li):
            pts += 1
    return pts


def buildings_and_cards(state: State, player: int) -> int:
    """Printed glory on buildings and held cards (Governors included), plus the Town
    Hall's 1 glory per Draw symbol on the player's buildings (RB fr)."""
    pl = state.players[player]
    pts = sum(D.BUILDINGS[b].glory for b in pl.buildings)
    if D.B_TOWN_HALL in pl.buildings:
        pts += sum(D.BUILDINGS[b].draw_symbols for b in pl.buildings)
    pts += sum(D.CARDS[c].glory for c in held_cards(state, player))
    return pts


def score_lines(state: State, player: int) -> dict[str, int]:
    pl = state.players[player]
    lines = {e.name: (e.score(state, i, player) if state.has_shield(player, i) else 0)
             for i, e in state.rules.exploits}
    for i, e in enumerate(state.ex):  # other rule modules (no Shield needed)
        if not e.is_exploit:
            pts = e.score(state, i, player)
            if pts:
                lines[e.name] = pts
    lines.update({name: D.track_glory(pl.attr[k]) for k, name in enumerate(LINE_NAMES[:4])})
    lines["Cities & links"] = cities_and_links(state, player)
    lines["Buildings & cards"] = buildings_and_cards(state, player)
    lines["Governor slot"] = 3 if pl.gov < 0 else 0
    lines["Extra population"] = pl.harbor // 3
    lines["Slavery"] = -len(pl.aside)
    return lines


def final_scores(state: State) -> list[ScoreBreakdown]:
    """Breakdowns for every player (index = seat). Callable before the end, in which
    case it scores the position as if the game ended now."""
    all_lines = [state.rules.score_lines(state, p) for p in range(state.n)]
    totals = [sum(ls.values()) for ls in all_lines]
    return [ScoreBreakdown(p, all_lines[p], totals[p],
                           1 + sum(1 for t in totals if t > totals[p]))
            for p in range(state.n)]
