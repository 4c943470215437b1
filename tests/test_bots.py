"""RandomBot: legal choices only, reproducible from its seed, ``pass_weight`` damping."""

from __future__ import annotations

import random

import pytest

from endeavor import GameConfig, new_game
from endeavor.actions import PASS
from endeavor.bots import RandomBot


def test_same_seed_same_game_and_global_random_untouched() -> None:
    random.seed(123)
    expected = random.random()
    random.seed(123)
    games = []
    for _ in range(2):
        state = new_game(GameConfig(players=3, seed=4))
        made = RandomBot(4).play_out(state)
        assert state.is_over and made == len(state.history())
        games.append(state.record())
    assert games[0] == games[1]
    assert random.random() == expected


def test_choices_are_legal() -> None:
    state = new_game(GameConfig(players=4, seed=2))
    bot = RandomBot(2, pass_weight=0.5)
    while not state.is_over:
        action = bot.choose(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_pass_weight_zero_passes_only_when_nothing_else_is_legal() -> None:
    state = new_game(GameConfig(players=2, seed=9))
    bot = RandomBot(9, pass_weight=0.0)
    while not state.is_over:
        codes = state.legal_codes()
        code = bot.choose_code(state)
        assert code != PASS.code or codes == [PASS.code]
        state.apply_code(code)


@pytest.mark.parametrize("weight", [-0.1, 1.5])
def test_pass_weight_out_of_range(weight: float) -> None:
    with pytest.raises(ValueError, match="pass_weight"):
        RandomBot(0, weight)
