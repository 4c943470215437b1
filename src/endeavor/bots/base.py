"""The one interface every bot has, and the rated actions behind hints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .. import actions as A
from ..actions import Action
from ..state import State


@dataclass(frozen=True)
class Rated:
    """One action as a bot sees it: ``value`` is the bot's estimate for the player to
    move (a win share in [0, 1] for search bots, an evaluation for one-ply bots),
    ``visits`` how much search backs it (0 for one-ply bots and for an exact end-game
    answer), ``text`` the estimate in words for a hint. ``glory`` is the final glory
    the bot expects the player to reach through the action and ``margin`` that glory
    minus the best other player's (both exact when the rest of the game was searched
    to its end; None when the bot does not say)."""

    action: Action
    value: float
    visits: int
    text: str
    glory: float | None = None
    margin: float | None = None


def outlook_words(glory: list[float], p: int, exact: bool = False) -> str:
    """Player ``p``'s final glory among the seats' ``glory`` in words: ``"about 58
    glory at the end, 6 ahead of the next player"`` (``"exactly 58 glory..."`` when
    ``exact``), ``"..., 3 behind P2"``, ``"..., level with the leader"``."""
    mine = glory[p]
    text = f"{'exactly' if exact else 'about'} {round(mine)} glory at the end"
    others = [e for q, e in enumerate(glory) if q != p]
    if not others:
        return text
    best = max(others)
    gap = round(mine - best)
    if gap > 0:
        return f"{text}, {gap} ahead of the next player"
    if gap < 0:
        who = [q for q, e in enumerate(glory) if q != p and e == best][0]
        return f"{text}, {-gap} behind P{who}"
    return f"{text}, level with the leader"


def exact_rated(rows: list[tuple[int, list[float]]], p: int, n: int, top: int
                ) -> list[Rated]:
    """The first ``top`` of an exact end-game ranking (``rows``: codes with the search
    values of the finished games they lead to, :func:`~.endgame.exact_ranking`) as
    hints for player ``p`` of ``n``: exact win shares, glory and margins, 0 visits."""
    out = []
    for code, v in rows[:top]:
        glory = v[2 * n:]
        best = max((g for q, g in enumerate(glory) if q != p), default=glory[p])
        out.append(Rated(A.BY_CODE[code], v[n + p], 0,
                         f"{outlook_words(glory, p, exact=True)}; wins "
                         f"{round(100 * v[n + p])}% (the rest of the game searched)",
                         glory[p], glory[p] - best))
    return out


class Bot(Protocol):
    """``choose`` returns a legal action of ``state`` and never modifies ``state``."""

    name: str

    def choose(self, state: State) -> Action: ...

    def analyse(self, state: State, top: int = 3) -> list[Rated]:
        """The ``top`` best actions for the player to move, best first."""
        ...
