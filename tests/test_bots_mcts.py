"""The max-n MCTS bot: legal choices in every ruleset and option, the state untouched,
reproducible from its seed and iteration budget, budgets checked, hints, and a
constructed end-game position where one action wins, others tie and passing loses."""

from __future__ import annotations

import math
import pickle
import time
from typing import Any

import pytest

from endeavor import GameConfig, final_scores, new_game
from endeavor import testing as T
from endeavor.bots import KINDS, MCTSBot, RandomBot, make, mcts
from endeavor.config import EXPLOIT_IDS
from endeavor.state import State

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 2, "exploits": "random", "options": {"phase_order": "by_player"}},
    {"players": 3, "board": "B", "options": {"plus_same_region": True,
                                             "discard_pile_bonus": False}},
    {"players": 5, "exploits": "random"},
    {"players": 3, "ruleset": "classic"},
    {"players": 5, "ruleset": "classic", "options": {"phase_order": "by_player"}},
    {"players": 2, "options": {"silent_fleet": True, "limited_occupation": True,
                               "no_token_reaction": True, "building_shortage": True}},
    {"players": 2, "exploits": "random", "options": {"silent_fleet": True,
                                                     "building_shortage": True}},
] + [{"players": 4, "exploits": EXPLOIT_IDS[i:i + 3]} for i in range(0, 15, 3)]


def _play(config: dict[str, Any], seed: int, iterations: int = 6) -> State:
    """A whole game with one small-budget MCTS bot deciding for every seat; every
    choice is checked legal and the state unchanged by the search."""
    state = new_game(GameConfig(seed=seed, **config))
    bot = MCTSBot(seed, iterations=iterations, rollout=2)
    while not state.is_over:
        before = state.to_json()
        legal = state.legal_actions()
        action = bot.choose(state)
        assert action in legal
        assert state.to_json() == before
        state.apply(action)
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(
    f"{k}={v}" for k, v in c.items()))
def test_legal_choices_in_every_ruleset_and_option(config: dict[str, Any]) -> None:
    state = _play(config, seed=len(str(config)))
    assert len(final_scores(state)) == state.n


def test_same_seed_and_iterations_give_the_same_game() -> None:
    config = {"players": 3, "exploits": "random"}
    first = _play(config, seed=5).record()
    assert _play(config, seed=5).record() == first


def test_same_seed_same_choice_and_analysis_from_a_fresh_bot() -> None:
    state = _midgame(4, seed=3)
    a = MCTSBot(11, iterations=300)
    b = MCTSBot(11, iterations=300)
    assert a.choose(state) == b.choose(state)
    assert a.last_iterations == b.last_iterations == 300
    assert a.last.nodes == b.last.nodes and a.last.depth == b.last.depth
    ra, rb = a.analyse(state, top=5), b.analyse(state, top=5)
    assert ra == rb


def test_after_setup_the_game_is_deterministic() -> None:
    """R2: no chance after setup, so the tree needs no chance nodes: two copies that
    apply the same action reach the same position."""
    state = new_game(GameConfig(players=4, seed=8, exploits="random"))
    bot = RandomBot(8, pass_weight=0.1)
    checked = 0
    while not state.is_over:
        code = bot.choose_code(state)
        x, y = state.copy(), state.copy()
        x.apply_code(code)
        y.apply_code(code)
        assert x.to_json() == y.to_json()
        state.apply_code(code)
        checked += 1
    assert checked > 100


def _midgame(players: int, seed: int, rnd: int = 3) -> State:
    state = new_game(GameConfig(players=players, seed=seed))
    bot = RandomBot(seed, pass_weight=0.1)
    while state.round < rnd or state.phase_name != "Actions" or len(state.legal_codes()) < 3:
        state.apply_code(bot.choose_code(state))
    return state


def test_choose_and_analyse_leave_the_state_untouched() -> None:
    state = _midgame(4, seed=1)
    before, history = state.to_json(), state.num_actions
    bot = MCTSBot(1, iterations=200)
    bot.choose(state)
    bot.analyse(state)
    assert state.to_json() == before and state.num_actions == history
    state.undo()  # the undo history is intact too


def test_seconds_budget_is_respected_roughly() -> None:
    state = _midgame(4, seed=2)
    bot = make("mcts", seed=2, seconds=0.1, settle=False)
    start = time.perf_counter()
    bot.choose(state)
    elapsed = time.perf_counter() - start
    assert 0.1 <= bot.last_seconds < 0.6 and elapsed < 0.8
    assert bot.last_iterations > 5
    assert bot.last.per_second == pytest.approx(bot.last_iterations / bot.last_seconds)


def test_a_budget_in_processor_seconds_counts_this_process_only() -> None:
    """``clock="cpu"``: the budget is processor time, which sleeping does not spend; the
    search stops once it has used its seconds of it (whatever the wall clock says)."""
    state = _midgame(2, seed=3)
    bot = make("hard", seed=3, seconds=0.1, clock="cpu", settle=False)
    start = time.process_time()
    bot.choose(state)
    used = time.process_time() - start
    assert bot.clock == "cpu" and 0.1 <= used < 0.6 and bot.last_iterations > 5
    assert bot.last_seconds >= 0.1 * 0.5  # the wall clock: at least the share it had
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.clock == "cpu" and copy.seconds == 0.1 and copy.settle is False


class _Root:
    def __init__(self, cn: list[int] | None) -> None:
        self.cn = cn


@pytest.mark.parametrize(("visits", "more", "answer"), [
    ([10, 3, 2], 6, True),     # 3 + 6 < 10: the first stays first
    ([10, 3, 2], 7, False),    # 3 + 7 ties it: the tie could go either way
    ([4, 9, 9], 0.5, False),   # two children share the lead
    ([0, 12, 0], 11.5, True),  # the others never visited
    (None, 0, False),          # not expanded yet
])
def test_a_choice_is_settled_when_no_child_can_catch_up(
        visits: list[int] | None, more: float, answer: bool) -> None:
    assert mcts.settled(_Root(visits), more) is answer


@pytest.mark.parametrize("name", ["hard", "mcts"])
def test_a_settled_search_stops_early_with_the_same_choice(name: str, ticking_clock: str
                                                           ) -> None:
    """Under a time budget the search stops once the most visited child cannot be caught
    up in the time left: it plays what the whole budget would have, with fewer
    iterations, and never more."""
    shorter = 0
    for seed in range(4):
        state = _midgame(2 + seed % 3, seed=20 + seed)
        full = make(name, seed=seed, seconds=3.0, clock=ticking_clock, settle=False,
                    reuse=False)
        quick = make(name, seed=seed, seconds=3.0, clock=ticking_clock, reuse=False)
        assert quick.settle is True
        assert quick.choose(state) == full.choose(state)
        assert quick.last_iterations <= full.last_iterations
        shorter += quick.last_iterations < full.last_iterations
    assert shorter >= 1


def test_forced_move_returns_at_once() -> None:
    state = new_game(GameConfig(players=4, seed=4))
    bot = RandomBot(4, pass_weight=0.1)
    while len(state.legal_codes()) != 1:
        state.apply_code(bot.choose_code(state))
    search = MCTSBot(0, iterations=10**9)
    start = time.perf_counter()
    assert search.choose(state) == state.legal_actions()[0]
    assert time.perf_counter() - start < 0.05 and search.last_iterations == 0
    [only] = search.analyse(state)
    assert only.action == state.legal_actions()[0] and only.visits == 0


def test_analyse_rates_the_most_visited_actions() -> None:
    state = _midgame(4, seed=6)
    bot = MCTSBot(6, iterations=400)
    rated = bot.analyse(state, top=3)
    legal = state.legal_actions()
    assert 1 <= len(rated) <= 3 and len(rated) == min(3, len(legal))
    assert len({r.action for r in rated}) == len(rated)
    assert all(r.action in legal for r in rated)
    visits = [r.visits for r in rated]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 400
    assert visits[0] > 0
    for r in rated:
        assert 0.0 <= r.value <= 1.0
        if r.visits:
            assert f"{round(100 * r.value)}%" in r.text and f"({r.visits} visit" in r.text
    # the bot's choice is the analysis' first action for the same seed and budget
    assert MCTSBot(6, iterations=400).choose(state) == rated[0].action
    assert bot.analyse(state, top=0) == []


def _endgame() -> State:
    """Round 7, P1 has passed, P0 to act with the Colonial House and 2 Harbor discs.
    P0 holds EU9, P1 holds EU5 and 3 Harbor discs (1 glory of extra population):
    passing loses 4-5, occupying a Europe city ties 5-5, occupying EU10 (city, the
    EU9-EU10 link and its token) wins."""
    s = T.fresh(2)
    T.set_round(s, 7)
    T.place(s, 0, "EU9")
    T.set_harbor(s, 1, 3)
    T.place(s, 1, "EU5")
    T.ready_to_act(s, 0, 2, "colonial-house")
    T.set_passed(s, 1)
    T.check(s)
    return s


def test_finds_the_winning_action_and_avoids_the_losing_one() -> None:
    s = _endgame()
    lost = s.copy()
    lost.apply("pass")
    assert lost.is_over and [x.rank for x in final_scores(lost)] == [2, 1]
    bot = MCTSBot(0, iterations=300)
    rated = {str(r.action): r for r in bot.analyse(s, top=2)}
    assert rated["act colonial-house"].value > 0.9 and rated["pass"].value < 0.1
    assert str(bot.choose(s)) == "act colonial-house"
    s.apply("act colonial-house")
    assert str(bot.choose(s)) == "occupy EU10"
    s.apply("occupy EU10")
    while not s.is_over:
        s.apply(bot.choose(s))
    assert [x.rank for x in final_scores(s)] == [1, 2]


@pytest.mark.parametrize("budget, message", [
    ({"seconds": -1}, "seconds must be a positive"),
    ({"seconds": 0}, "seconds must be a positive"),
    ({"seconds": math.nan}, "seconds must be a positive"),
    ({"seconds": math.inf}, "seconds must be a positive"),
    ({"seconds": "1s"}, "seconds must be a number"),
    ({"iterations": 0}, "iterations must be a positive"),
    ({"iterations": -5}, "iterations must be a positive"),
    ({"iterations": 2.5}, "iterations must be a whole number"),
    ({"iterations": True}, "iterations must be a number"),
    ({"iterations": "800"}, "iterations must be a number"),
    ({"seconds": 1, "iterations": 100}, "not both"),
    ({"budget": 3}, "unknown mcts option"),
    ({"c": -1.0}, "c must be"),
    ({"rollout": 1.5}, "rollout must be"),
    ({"pass_weight": 2}, "pass_weight must be"),
    ({"exact": -1}, "exact must be"),
    ({"exact": 1.5}, "exact must be"),
    ({"follow": -1}, "follow must be"),
    ({"follow": True}, "follow must be"),
    ({"clock": "gpu"}, "clock must be one of wall, cpu"),
    ({"clock": None}, "clock must be"),
    ({"settle": 1}, "settle must be True or False"),
])
def test_bad_budget_is_a_clear_value_error(budget: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make("mcts", seed=0, **budget)


def test_make_builds_mcts_with_its_budget() -> None:
    assert "mcts" in KINDS
    bot = make("MCTS", seed=3, iterations=50)
    assert isinstance(bot, MCTSBot) and bot.name == "mcts" and bot.iterations == 50
    default = make("mcts")
    assert isinstance(default, MCTSBot) and default.seconds == 1.0


def test_tree_is_reused_along_the_game_and_only_there() -> None:
    state = _midgame(4, seed=7)
    bot = MCTSBot(7, iterations=200)
    fresh = MCTSBot(7, iterations=200, reuse=False)
    reused = 0
    for _ in range(16):
        action = state.legal_actions()[0]
        if state.current_player == 0 and len(state.legal_codes()) > 1:
            action = bot.choose(state)
            reused += bot.last.reused
            assert action in state.legal_actions()
            fresh.choose(state)
            assert fresh.last.reused == 0
        state.apply(action)
    assert reused > 0
    # a different position (built by hand, or another game) starts a new tree
    end = _endgame()
    assert str(bot.choose(end)) == "act colonial-house" and bot.last.reused == 0
    other = T.fresh(2)
    T.set_round(other, 7)
    T.ready_to_act(other, 0, 2, "shipyard")
    assert bot.choose(other) in other.legal_actions() and bot.last.reused == 0
