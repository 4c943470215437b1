"""The research environments travel: pickled and deep-copied mid-game with every kind of
opponent (the search bots with their trees, ``expert`` with its network), an unpickled
environment plays on exactly as the original does, and they run in spawned worker
processes (Gymnasium's AsyncVectorEnv with the spawn start method, a pickled environment
stepped in another process as Ray would). On both builds: the compiled lane runs these
tests too."""

from __future__ import annotations

import copy
import functools
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

import endeavor.bots as B  # noqa: E402
from endeavor import GameConfig, new_game  # noqa: E402
from endeavor.rl.gym_env import EndeavorEnv  # noqa: E402

EXPERT = B.expert_missing()
#: every opponent, with a budget that makes the searching ones deterministic (an
#: iteration budget: with seconds= the search depends on the machine's speed)
OPPONENTS: list[tuple[str, dict[str, Any] | None]] = [
    ("random", None), ("greedy", None), ("easy", None), ("medium", None),
    ("hard", {"iterations": 12}), ("mcts", {"iterations": 12}),
    pytest.param("expert", {"iterations": 12}, marks=pytest.mark.skipif(
        EXPERT is not None, reason=f"expert cannot play here: {EXPERT}")),
]


def _legal(mask: Any, rng: Any) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _play(env: Any, info: dict[str, Any], steps: int, seed: int) -> list[Any]:
    """``steps`` seeded random legal actions (fewer if the episode ends): what each step
    returned."""
    rng = np.random.default_rng(seed)
    out = []
    mask = info["action_mask"]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(_legal(mask, rng))
        mask = info["action_mask"]
        out.append((obs.tobytes(), reward, terminated, truncated, mask.tobytes(),
                    repr(info)))
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize(("opponent", "budget"), OPPONENTS)
def test_env_pickles_and_deep_copies_mid_game_and_plays_on_identically(
        opponent: str, budget: dict[str, Any] | None) -> None:
    env = EndeavorEnv(players=2, opponents=opponent, opponent_budget=budget)
    obs, info = env.reset(seed=11)
    _play(env, info, 4, seed=1)
    obs, info = env.step(_legal(env.action_masks(), np.random.default_rng(2)))[::4]
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for clone in clones:
        assert clone.game.to_json() == env.game.to_json()
        assert (clone.action_masks() == env.action_masks()).all()
        assert clone.observation_space == env.observation_space
    expected = _play(env, info, 8, seed=3)
    assert expected
    for clone in clones:
        assert _play(clone, info, 8, seed=3) == expected


def _mid_game(players: int, decisions: int, seed: int) -> Any:
    state = new_game(GameConfig(players=players, seed=seed))
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        codes = state.legal_codes()
        state.apply_code(codes[int(rng.integers(len(codes)))])
    return state


def _finish(players: int, seed: int) -> list[int]:
    """The codes of a whole seeded random game."""
    state = new_game(GameConfig(players=players, seed=seed))
    rng = np.random.default_rng(seed)
    while not state.is_over:
        codes = state.legal_codes()
        state.apply_code(codes[int(rng.integers(len(codes)))])
    return [a.code for a in state.history()]


#: how many decisions before the end of a random game the near-the-end search starts
END = 10


def _stats(bot: Any) -> tuple[Any, ...]:
    s = bot.last
    return (s.iterations, s.depth, s.nodes, s.evaluations, s.reused, s.exact)


def _bots() -> list[Any]:
    out = [functools.partial(B.make, "mcts", iterations=30, exact=0),
           functools.partial(B.make, "mcts", iterations=30, exact=0, rollout=4)]
    if EXPERT is None:
        out.append(functools.partial(B.make, "expert", iterations=30, exact=0))
        out.append(functools.partial(B.make, "expert", iterations=30, exact=0, noise=0.25))
    return out


def _roundtrip(bot: Any) -> Any:
    return pickle.loads(pickle.dumps(bot))


def _decisions(maker: Any, state: Any, travel: Any) -> list[Any]:
    """Six decisions of one bot in the game from ``state`` (seeded random moves played
    between them, so that the next position follows from the one searched and the tree
    is reused), the bot sent through ``travel`` before each: its choices and
    statistics."""
    bot = maker(seed=9)
    rng = np.random.default_rng(4)
    seen: list[Any] = []
    state = state.copy()
    while not state.is_over and len(seen) < 6:
        legal = state.legal_codes()
        if len(legal) == 1:
            state.apply_code(legal[0])
            continue
        bot = travel(bot)
        seen.append((bot.choose_code(state), _stats(bot)))
        state.apply_code(legal[int(rng.integers(len(legal)))])
    return seen


@pytest.mark.parametrize("at_end", [False, True], ids=["mid-game", "near-the-end"])
@pytest.mark.parametrize("maker", _bots(), ids=lambda m: "-".join(
    [m.args[0]] + [f"{k}={v}" for k, v in m.keywords.items() if k != "iterations"]))
def test_search_bots_travel_with_their_tree(maker: Any, at_end: bool) -> None:
    """A search bot pickled or deep-copied before each decision of a game keeps the
    tree it reuses (the next search starts from as many visits) and its generator
    (rollouts, root noise): its choices and statistics are those of a bot that stayed
    put. Near the end the tree holds finished games, which the copy must still tell
    apart from the positions it has yet to expand."""
    if at_end:
        state = new_game(GameConfig(players=2, seed=2))
        for code in _finish(2, seed=2)[:-END]:
            state.apply_code(code)
    else:
        state = _mid_game(2, 30, seed=5)
    stayed = _decisions(maker, state, lambda bot: bot)
    assert len(stayed) >= 4
    assert any(stats[4] > 0 for _, stats in stayed)  # a tree was reused
    assert _decisions(maker, state, _roundtrip) == stayed
    assert _decisions(maker, state, copy.deepcopy) == stayed


def test_a_deep_copy_shares_no_tree_with_the_original() -> None:
    """The original searching on first (growing the tree it kept) leaves a deep copy's
    tree as it was: the copy's search then starts from as many visits as the
    original's did."""
    state = _mid_game(2, 20, seed=8)
    bot = B.make("mcts", seed=3, iterations=40, exact=0)
    bot.choose_code(state)
    twins = [copy.deepcopy(bot), pickle.loads(pickle.dumps(bot))]
    legal = state.legal_codes()
    state.apply_code(legal[0])
    while len(state.legal_codes()) == 1:
        state.apply_code(state.legal_codes()[0])
    first = (bot.choose_code(state), _stats(bot))
    assert first[1][4] > 0  # it reused its tree
    for twin in twins:
        assert (twin.choose_code(state), _stats(twin)) == first


# =========================================================================== processes
def _env_fn(opponent: str, budget: dict[str, Any]) -> Any:
    return EndeavorEnv(players=2, opponents=opponent, opponent_budget=budget)


def test_async_vector_env_in_spawned_processes_with_a_search_opponent() -> None:
    """AsyncVectorEnv with the spawn start method (each worker imports endeavor afresh and
    makes its environment there): the vectorised episodes are the ones a single
    environment plays."""
    opponent = "expert" if EXPERT is None else "mcts"
    budget = {"iterations": 20}
    fns = [functools.partial(_env_fn, opponent, budget) for _ in range(2)]
    envs = gymnasium.vector.AsyncVectorEnv(fns, context="spawn")
    try:
        obs, infos = envs.reset(seed=[3, 4])
        single = [_env_fn(opponent, budget) for _ in range(2)]
        firsts = [e.reset(seed=s) for e, s in zip(single, [3, 4], strict=True)]
        for k in range(2):
            assert obs[k].tobytes() == firsts[k][0].tobytes()
        assert envs.single_observation_space == single[0].observation_space
        for _ in range(3):
            actions = np.array([int(np.flatnonzero(m)[0]) for m in infos["action_mask"]])
            obs, reward, terminated, truncated, infos = envs.step(actions)
            for k in range(2):
                o, r, *_ = single[k].step(actions[k])
                assert obs[k].tobytes() == o.tobytes() and reward[k] == r
    finally:
        envs.close()


def _step_pickled(blob: bytes, actions: list[int]) -> tuple[list[Any], bytes]:
    """In a worker process: unpickle an environment, step it, pickle it back."""
    env = pickle.loads(blob)
    out = []
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        out.append((obs.tobytes(), reward, terminated, truncated,
                    info["action_mask"].tobytes()))
    return out, pickle.dumps(env)


def test_a_pickled_env_steps_on_in_a_spawned_process() -> None:
    """What Ray does with an environment: pickle it mid-game, send it to another process
    (spawned: nothing inherited), step it there and bring it back; it plays as the
    original does here."""
    opponent = "expert" if EXPERT is None else "hard"
    env = EndeavorEnv(players=2, opponents=opponent, opponent_budget={"iterations": 20})
    obs, info = env.reset(seed=21)
    rng = np.random.default_rng(5)
    for _ in range(4):
        obs, _, _, _, info = env.step(_legal(info["action_mask"], rng))
    blob = pickle.dumps(env)
    local = pickle.loads(blob)
    actions = []
    here = []
    mask = info["action_mask"]
    for _ in range(4):
        a = _legal(mask, rng)
        actions.append(a)
        o, r, t, tr, i = local.step(a)
        mask = i["action_mask"]
        here.append((o.tobytes(), r, t, tr, mask.tobytes()))
        if t or tr:
            break
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there, back = pool.submit(_step_pickled, blob, actions).result(timeout=300)
    assert there == here
    returned = pickle.loads(back)
    assert returned.game.to_json() == local.game.to_json()
    assert (returned.action_masks() == local.action_masks()).all()
