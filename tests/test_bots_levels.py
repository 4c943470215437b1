"""Difficulty levels: names, what each is built from, budgets, and the ladder's order."""

from __future__ import annotations

import pytest

from endeavor import GameConfig, final_scores, new_game
from endeavor.bots import LEVELS, NAMES, GreedyBot, MCTSBot, make


def test_every_name_makes_a_bot_that_plays_a_legal_action() -> None:
    assert set(LEVELS) - {"expert"} == {"easy", "medium", "hard"}  # expert: with weights
    state = new_game(GameConfig(players=3, seed=4))
    before = state.to_json()
    for name in NAMES:
        budget = {"iterations": 20} if name in ("mcts", "hard", "expert") else {}
        bot = make(name, seed=1, **budget)
        assert bot.choose(state) in state.legal_actions(), name
    assert state.to_json() == before


def test_levels_are_kinds_with_settings() -> None:
    assert isinstance(make("easy"), GreedyBot) and isinstance(make("medium"), GreedyBot)
    hard = make("hard")
    assert isinstance(hard, MCTSBot) and hard.seconds == 1.0
    custom = make("hard", iterations=50)
    assert isinstance(custom, MCTSBot)
    assert custom.iterations == 50 and custom.seconds is None


@pytest.mark.parametrize("name", ["easy", "medium"])
def test_one_ply_levels_take_no_budget(name: str) -> None:
    with pytest.raises(ValueError, match="takes no budget"):
        make(name, seconds=1.0)


def test_unknown_name_lists_the_names() -> None:
    with pytest.raises(ValueError, match="easy, medium, hard"):
        make("grandmaster")


def test_medium_beats_easy_head_to_head() -> None:
    wins = 0.0
    games = 8
    for g in range(games):
        state = new_game(GameConfig(players=2, seed=200 + g // 2))
        seat = g % 2
        bots = {seat: make("medium", seed=g), 1 - seat: make("easy", seed=g + 50)}
        while not state.is_over:
            player = state.current_player
            assert player is not None
            state.apply_code(bots[player].choose(state).code)
        totals = [s.total for s in final_scores(state)]
        wins += 1.0 if totals[seat] > totals[1 - seat] else 0.5 * (totals[seat] == totals[1 - seat])
    assert wins >= 6
