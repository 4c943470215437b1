"""The evaluation and the greedy bot: legal choices in every ruleset and option, the
state left untouched, determinism, hints, the evaluation on finished games, and greedy
beating random players."""

from __future__ import annotations

import re
from typing import Any

import pytest

from endeavor import GameConfig, final_scores, new_game
from endeavor.bots import KINDS, GreedyBot, RandomBot, make
from endeavor.bots.evaluate import (
    MARGIN_SCALE,
    MARGIN_WEIGHT,
    MARGIN_WEIGHT_SETTLED,
    Weights,
    blend,
    evaluate,
    glory_now,
    margin_weights,
    margins,
    search_values,
    values,
)
from endeavor.state import State

_FLEET = {"silent_fleet": True}
#: every ruleset and option: both sides, 2-5 players, both phase orders, every Exploit
#: (five games of three), the 2009 game, the Silent Fleet and each of its options
CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 3, "options": {"phase_order": "by_player"}},
    {"players": 5, "board": "A"},
    {"players": 2, "board": "B", "options": {"plus_same_region": True}},
    {"players": 4, "exploits": ("saltpeter_stockpiles", "republic_of_pirates",
                                "imperialism")},
    {"players": 3, "exploits": ("spanish_main", "dutch_east_india_company",
                                "jesuit_missionaries")},
    {"players": 4, "exploits": ("south_sea_company", "manila_galleons",
                                "underground_railroad")},
    {"players": 5, "exploits": ("transit_of_venus", "sun_never_sets", "spice_trade")},
    {"players": 3, "exploits": ("globalisation", "letters_of_marque",
                                "haitian_revolution")},
    {"players": 3, "ruleset": "classic"},
    {"players": 5, "ruleset": "classic", "options": {"phase_order": "by_player"}},
    {"players": 2, "options": _FLEET},
    {"players": 2, "exploits": "random",
     "options": {**_FLEET, "limited_occupation": True, "building_shortage": True}},
    {"players": 2, "board": "B", "options": {**_FLEET, "no_token_reaction": True}},
]


def _ids(cfg: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in cfg.items())


@pytest.mark.parametrize("cfg", CONFIGS, ids=_ids)
def test_greedy_plays_only_legal_actions_in_every_ruleset(cfg: dict[str, Any]) -> None:
    state = new_game(GameConfig(seed=11, **cfg))
    # seat 0 plays greedy, seat 1 the easy (noisy) greedy, the rest random
    bots: list[Any] = [GreedyBot(1), GreedyBot(2, noise=1.5)]
    bots += [RandomBot(3 + i, pass_weight=0.3) for i in range(state.n - 2)]
    while not state.is_over:
        p = state.current_player
        assert p is not None
        action = bots[p].choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert [round(e) for e in evaluate(state)] == [s.total for s in final_scores(state)]


def _positions(cfg: dict[str, Any], seed: int, every: int) -> list[State]:
    """Positions of a random game, every ``every`` decisions (a copy of each)."""
    state = new_game(GameConfig(seed=seed, **cfg))
    bot = RandomBot(seed, pass_weight=0.2)
    out = []
    while not state.is_over:
        if state.num_actions % every == 0:
            out.append(state.copy())
        state.apply_code(bot.choose_code(state))
    out.append(state)
    return out


@pytest.mark.parametrize("cfg", [CONFIGS[0], CONFIGS[5], CONFIGS[9], CONFIGS[12]], ids=_ids)
def test_glory_now_is_the_score_pad(cfg: dict[str, Any]) -> None:
    for state in _positions(cfg, 5, 3):
        assert glory_now(state) == [s.total for s in final_scores(state)]


def test_choose_and_analyse_leave_the_state_untouched() -> None:
    bot = GreedyBot(3, noise=0.5)
    kinds = set()
    for state in _positions({"players": 4, "exploits": "random"}, 8, 7)[:-1]:
        before = state.to_json()
        legal = state.legal_actions()
        decision = state.decision()
        assert decision is not None
        kinds.add(decision.kind)
        assert bot.choose(state) in legal
        bot.analyse(state, top=2)
        assert state.to_json() == before
        assert state.legal_actions() == legal
    assert {"construction", "action", "effect"} <= kinds


def test_same_seed_same_game() -> None:
    def game(seed: int) -> list[str]:
        state = new_game(GameConfig(players=3, seed=4))
        bots = [GreedyBot(seed + i, noise=2.0) for i in range(3)]
        while not state.is_over:
            p = state.current_player
            assert p is not None
            state.apply_code(bots[p].choose_code(state))
        return [str(a) for a in state.history()]

    first = game(5)
    assert game(5) == first
    assert game(6) != first  # the noise comes from the seed


def test_analyse_orders_the_best_actions_with_words() -> None:
    state = new_game(GameConfig(players=4, seed=3))
    bot = GreedyBot(0)
    texts = re.compile(r"^about -?\d+ glory at the end(, (\d+ ahead of the next player|"
                       r"\d+ behind P\d|level with the leader))?$")
    seen_effect = False
    while state.round < 3:
        d = state.decision()
        assert d is not None
        top = bot.analyse(state, top=3)
        assert 1 <= len(top) <= min(3, len(d.options))
        assert [r.value for r in top] == sorted((r.value for r in top), reverse=True)
        assert top[0].action == bot.choose(state)
        assert all(texts.match(r.text) and r.visits == 0 for r in top), top
        assert len({r.action for r in top}) == len(top)
        seen_effect |= d.kind == "effect"
        state.apply(top[0].action)
    assert seen_effect
    assert len(bot.analyse(state, top=50)) == len(state.legal_actions())
    assert bot.analyse(state, top=0) == []


def test_a_building_is_rated_by_its_best_target() -> None:
    """Choosing a building looks through to its best follow-up: ``act X`` is rated as
    the best of X's targets."""
    state = new_game(GameConfig(players=4, seed=3))
    bot = GreedyBot(0)
    while not (state.phase_name == "Actions" and any(
            a.text.startswith("act ") for a in state.legal_actions())):
        state.apply(bot.choose(state))
    rated = {r.action.text: r.value for r in bot.analyse(state, top=99)}
    act = next(a for a in rated if a.startswith("act "))
    after = state.copy()
    after.apply(act)
    assert after.current_player == state.current_player
    inner = GreedyBot(0, depth=bot.depth - 1, wide=bot.beam).analyse(after, top=1)[0]
    assert rated[act] == pytest.approx(inner.value)


def test_the_evaluation_budget_bounds_the_look_through() -> None:
    """With a budget of one evaluation nothing is looked through: ``act X`` is rated by
    the position right after it, below its best target; the bot still plays legally."""
    state = new_game(GameConfig(players=2, seed=6))
    full, bare = GreedyBot(0), GreedyBot(0, evaluations=1)
    looked = 0
    while not state.is_over:
        d = state.decision()
        assert d is not None
        if d.kind == "action":
            a = {r.action: r.value for r in full.analyse(state, top=99)}
            b = {r.action: r.value for r in bare.analyse(state, top=99)}
            acts = [x for x in a if x.text.startswith("act ")]
            looked += sum(a[x] > b[x] for x in acts)
        action = bare.choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert looked > 10


def test_evaluate_and_values_on_finished_games() -> None:
    for seed in range(3):
        state = new_game(GameConfig(players=4, seed=seed))
        RandomBot(seed).play_out(state)
        totals = [s.total for s in final_scores(state)]
        assert evaluate(state) == [float(t) for t in totals]
        v = values(state)
        best = max(totals)
        winners = [p for p, t in enumerate(totals) if t == best]
        assert v == [1 / len(winners) if p in winners else 0.0 for p in range(4)]


def test_values_are_win_shares_that_follow_the_estimates() -> None:
    for state in _positions({"players": 4}, 2, 25)[1:-1]:
        est = evaluate(state)
        v = values(state)
        assert sum(v) == pytest.approx(1.0)
        assert all(0.0 < x < 1.0 for x in v)
        order = sorted(range(4), key=lambda p: est[p])
        assert [v[p] for p in order] == sorted(v)


def test_search_values_add_a_glory_margin_term_to_the_win_shares() -> None:
    """search_values: 3n numbers (values, win shares, glory); the value is the win share
    plus a margin term measured from ``center`` and weighted by ``weight``, within
    [0, 1]; on a finished game the win shares and glory are the real result."""
    assert margins([50.0, 45.0, 30.0]) == [5.0, -5.0, -20.0]
    assert margin_weights([0.0, 0.5, 1.0]) == pytest.approx(
        [MARGIN_WEIGHT_SETTLED, MARGIN_WEIGHT, MARGIN_WEIGHT_SETTLED])
    v = blend([1.0, 0.0], [60.0, 40.0])
    k = MARGIN_WEIGHT
    assert v[:2] == pytest.approx([1 - k + k, k * 0.0]) and v[2:] == [1.0, 0.0, 60.0, 40.0]
    # measured from the centre, a point gained 50 behind still counts
    lo = blend([0.0, 1.0], [10.0, 60.0], center=[-50.0, 50.0], weight=[0.9, 0.9])
    hi = blend([0.0, 1.0], [11.0, 60.0], center=[-50.0, 50.0], weight=[0.9, 0.9])
    assert hi[0] - lo[0] == pytest.approx(0.9 * 0.5 / MARGIN_SCALE)
    assert all(0.0 <= x <= 1.0 for x in lo[:2] + hi[:2])
    for state in _positions({"players": 3}, 4, 40):
        sv = search_values(state)
        assert sv[3:6] == values(state) and sv[6:] == evaluate(state)
        assert all(0.0 <= x <= 1.0 for x in sv[:3])


def test_search_values_are_the_blend_of_values_and_estimates_exactly() -> None:
    """The search values a search scores with are exactly :func:`blend` of the win
    shares and the estimates, with a centre and weights, also where seats tie (the
    start of a game, two-player games)."""
    for cfg in (CONFIGS[0], CONFIGS[3], CONFIGS[4], CONFIGS[9]):
        for state in _positions(cfg, 6, 9):
            n = state.n
            center = [0.5 * q - 1.0 for q in range(n)]
            weight = [0.3 + 0.1 * q for q in range(n)]
            want = blend(values(state), evaluate(state), center, weight)
            assert search_values(state, None, center, weight) == want
            assert search_values(state) == blend(values(state), evaluate(state))


def test_evaluations_in_threads_are_those_of_one_thread() -> None:
    """The evaluation reuses what it made of the last positions it scored: threads that
    score positions side by side, each in its own order, get what one thread alone
    gets."""
    from concurrent.futures import ThreadPoolExecutor

    positions = [s for cfg in (CONFIGS[0], CONFIGS[4], CONFIGS[11])
                 for s in _positions(cfg, 7, 4)]
    alone = [search_values(s) for s in positions]
    orders = [list(range(len(positions))), list(range(len(positions)))[::-1],
              list(range(0, len(positions), 2)) + list(range(1, len(positions), 2))]

    def score(order: list[int]) -> list[tuple[int, list[float]]]:
        return [(i, search_values(positions[i])) for _ in range(3) for i in order]

    with ThreadPoolExecutor(3) as pool:
        for got in pool.map(score, orders):
            assert all(v == alone[i] for i, v in got)


def test_the_estimate_grows_with_the_engine() -> None:
    """Early in the game the estimate is well above the glory held; it closes in on it
    as the game runs out."""
    positions = _positions({"players": 4}, 4, 1)
    early = next(s for s in positions if s.round == 1)
    late = next(s for s in positions if s.round == 7 and s.phase_name == "Discard")
    gap_early = sum(evaluate(early)) - sum(glory_now(early))
    gap_late = sum(evaluate(late)) - sum(glory_now(late))
    assert gap_early > 40
    assert abs(gap_late) < gap_early / 4


def test_greedy_beats_random_players() -> None:
    wins = 0
    for seed in range(6):
        state = new_game(GameConfig(players=4, seed=100 + seed))
        seat = seed % 4
        greedy = GreedyBot(seed)
        rnd = RandomBot(seed)
        while not state.is_over:
            bot: Any = greedy if state.current_player == seat else rnd
            state.apply_code(bot.choose_code(state))
        totals = [s.total for s in final_scores(state)]
        wins += totals[seat] == max(totals)
    assert wins >= 5


def test_make_and_bad_settings() -> None:
    assert "greedy" in KINDS
    bot = make("greedy", seed=3, noise=0.5)
    assert isinstance(bot, GreedyBot) and bot.name == "greedy"
    for bad in ({"noise": -1.0}, {"noise": float("nan")}, {"depth": -1}, {"beam": 0},
                {"wide": 0}, {"evaluations": 0}, {"beam": 1.5}, {"rivalry": 2.0},
                {"exact": -1}, {"exact": 0.5}):
        with pytest.raises(ValueError):
            GreedyBot(0, **bad)
    with pytest.raises(ValueError, match="unknown weight"):
        Weights(speed=1.0)
    with pytest.raises(TypeError):
        make("greedy", seconds=1.0)
    over = new_game(GameConfig(players=2, seed=1))
    RandomBot(1).play_out(over)
    with pytest.raises(ValueError, match="over"):
        GreedyBot(0).choose(over)
    assert GreedyBot(0).analyse(over) == []
