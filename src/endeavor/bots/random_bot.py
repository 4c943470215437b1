"""Computer players. A bot only chooses among :meth:`State.legal_codes`; it never
re-derives legality and never touches the global :mod:`random` generator."""

from __future__ import annotations

import random
from typing import Final

from .. import actions as A
from ..actions import Action
from ..state import State
from .base import Rated

_PASS: Final = A.PASS.code


class RandomBot:
    """Plays a uniformly random legal action, from its own ``random.Random(seed)``.

    ``pass_weight`` in [0, 1] damps passing: when "pass" is legal alongside other
    actions, it is dropped from the choices with probability ``1 - pass_weight``, which
    makes random games fuller. With the default 1.0 every legal action is equally likely.
    One bot may play every seat: its choices depend only on the states it is shown and
    on its own generator, so the same seed and the same states give the same game.
    """

    name = "random"

    def __init__(self, seed: int = 0, pass_weight: float = 1.0) -> None:
        if not 0.0 <= pass_weight <= 1.0:
            raise ValueError(f"pass_weight must be between 0 and 1, not {pass_weight}")
        self.rng = random.Random(seed)
        self.pass_weight = pass_weight

    def choose_code(self, state: State) -> int:
        """The code of the chosen action; ``state`` must not be over."""
        codes = state.legal_codes()
        rng = self.rng
        # codes are sorted and "pass" has the highest verb, so it can only be last
        if (self.pass_weight < 1.0 and len(codes) > 1 and codes[-1] == _PASS
                and rng.random() >= self.pass_weight):
            return codes[rng.randrange(len(codes) - 1)]
        return codes[rng.randrange(len(codes))]

    def choose(self, state: State) -> Action:
        """The chosen action; ``state`` must not be over."""
        return A.BY_CODE[self.choose_code(state)]

    def play_out(self, state: State) -> int:
        """Make every remaining decision of ``state`` (all seats) until the game is over;
        return how many decisions were made."""
        decisions = 0
        while not state.is_over:
            state.apply_code(self.choose_code(state))
            decisions += 1
        return decisions

    def analyse(self, state: State, top: int = 3) -> list[Rated]:
        """Every legal action is as good as any other to a random bot."""
        return [Rated(a, 0.0, 0, "random choice") for a in state.legal_actions()[:top]]
