"""Rounds and phases (RB fr "Principes du jeu", "Les trois premières phases", "Fin de la
manche", "Fin de la partie"; R5, R6)."""

from __future__ import annotations

import random

import pytest

from endeavor import GameConfig, IllegalActionError, new_game
from endeavor.state import (
    F_ACTION,
    F_BUILD,
    F_DISCARD,
    F_GOVSLOT,
    F_SALARY,
    F_START,
    PH_ACTIONS,
    PH_CONSTRUCTION,
    PH_DISCARD,
    PH_END,
    PH_SALARY,
)
from scenario import check, fresh, give_building, texts

Decision = tuple[int, int, int, int]  # round, phase, frame kind, player


def _play(players: int, seed: int, **options: object) -> tuple[object, int, list[Decision]]:
    """A whole game with random legal actions (rarely passing); every decision logged."""
    s = new_game(GameConfig(players=players, seed=seed, options=options))
    crown0 = s.crown
    rng = random.Random(seed)
    log: list[Decision] = []
    while not s.is_over:
        f = s.frame
        assert f is not None
        log.append((s.round, s.phase, f[0], f[1]))
        la = s.legal_actions()
        if len(la) > 1 and la[-1].text == "pass" and rng.random() < 0.9:
            la = la[:-1]
        s.apply(rng.choice(la))
    return s, crown0, log


GAMES = [(2, 1), (3, 2), (4, 3), (5, 4)]


@pytest.mark.parametrize("players, seed", GAMES)
@pytest.mark.parametrize("order", ["by_phase", "by_player"])
def test_seven_rounds_and_the_crown_passes_left(players: int, seed: int,
                                                order: str) -> None:  # R3, R5, R6, R8
    s, crown0, log = _play(players, seed, phase_order=order)
    # setup: start tiles from the Crown, in turn order (R3)
    setup = [d for d in log if d[2] == F_START]
    assert [d[3] for d in setup] == [(crown0 + i) % players for i in range(players)]
    assert {d[0] for d in log} == {0, 1, 2, 3, 4, 5, 6, 7}
    for r in range(1, 8):
        crown = (crown0 + r - 1) % players  # passed to the left after each round
        builds = [d[3] for d in log if d[0] == r and d[2] == F_BUILD]
        assert builds == [(crown + i) % players for i in range(players)], r
        actions = [d[3] for d in log if d[0] == r and d[2] == F_ACTION]
        assert actions[0] == crown  # the Crown holder acts first
        # every player takes part until passing; turn order skips passed players
        assert set(actions) == set(range(players))
    for pl in s.players:
        assert len(pl.blds) == 8  # start tile + one building per round
    assert s.crown == (crown0 + 6) % players  # round 7's holder keeps it at the end


@pytest.mark.parametrize("players, seed", GAMES[:2])
def test_phases_in_order_phase_by_phase(players: int, seed: int) -> None:  # R5
    _, _, log = _play(players, seed)
    for r in range(1, 8):
        phases = [d[1] for d in log if d[0] == r]
        assert phases == sorted(phases), r  # Construction, Growth, Salary, Actions, Discard
        assert phases[0] == PH_CONSTRUCTION
        assert PH_ACTIONS in phases
        kinds = {d[2]: d[1] for d in log if d[0] == r}
        assert kinds[F_BUILD] == PH_CONSTRUCTION
        if F_SALARY in kinds:
            assert kinds[F_SALARY] == PH_SALARY
        assert kinds[F_ACTION] == PH_ACTIONS
        for k in (F_DISCARD, F_GOVSLOT):
            if k in kinds:
                assert kinds[k] == PH_DISCARD


def test_game_ends_after_round_7() -> None:  # R5
    s, _, _ = _play(4, 11)
    assert s.is_over
    assert s.phase == PH_END
    assert s.round == 7
    assert s.current_player is None
    assert s.frame is None
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply("pass")
    check(s)


def test_growth_every_round() -> None:  # R5
    # a player who never acts nor gains Culture grows 2 discs in each of the 7 rounds
    s = fresh(players=3)
    idle = (s.crown + 1) % 3
    rng = random.Random(5)
    while not s.is_over:
        f = s.frame
        assert f is not None
        if f[1] == idle and f[0] == F_ACTION:
            s.apply("pass")
        elif f[1] == idle and f[0] == F_BUILD:
            s.apply(next(a for a in texts(s) if a.split()[1] not in
                         ("shipyard", "theater", "museum")))
        else:
            s.apply(rng.choice(s.legal_actions()))
    pl = s.players[idle]
    assert pl.attr[1] == 0
    assert pl.supply == 34 - 2 * 7
    assert pl.harbor == 1 + 2 * 7  # start disc paid in round 1, all Growth kept


def _salary_setup(order: str):  # type: ignore[no-untyped-def]
    """Every player has 3 workers and Salary Level 1: a Salary decision each."""
    s = fresh(phase_order=order)
    for p in range(4):
        give_building(s, p, "market", staffed=True)
        give_building(s, p, "guild-hall", staffed=True)
    return s


def _first_round_decisions(s):  # type: ignore[no-untyped-def]
    seq = []
    supply_seen = []
    while s.frame is not None and s.frame[0] != F_ACTION:
        f = s.frame
        seq.append((f[0], f[1]))
        supply_seen.append(tuple(pl.supply for pl in s.players))
        s.apply("build workshop" if f[0] == F_BUILD else texts(s)[0])
    return seq, supply_seen


def test_default_goes_phase_by_phase() -> None:  # R6
    s = _salary_setup("by_phase")
    c = s.crown
    seq, supplies = _first_round_decisions(s)
    order = [(c + i) % 4 for i in range(4)]
    assert seq == [(F_BUILD, p) for p in order] + [(F_SALARY, p) for p in order]
    # nobody has grown while players are still building
    assert all(sup == (32, 32, 32, 32) for sup in supplies[:4])
    # everybody has grown before the first Salary decision
    assert supplies[4] == (30, 30, 30, 30)
    assert s.frame == (F_ACTION, c)


def test_by_player_interleaves_construction_growth_salary() -> None:  # R6
    s = _salary_setup("by_player")
    c = s.crown
    seq, supplies = _first_round_decisions(s)
    order = [(c + i) % 4 for i in range(4)]
    expected = []
    for p in order:
        expected += [(F_BUILD, p), (F_SALARY, p)]
    assert seq == expected
    # the Crown holder has grown (Growth 2) before the next player builds
    second_build = supplies[2]
    assert second_build[c] == 30
    assert second_build[(c + 1) % 4] == 32
    # the Action phase waits for everyone
    assert s.frame == (F_ACTION, c)
    assert all(pl.supply == 30 for pl in s.players)


def test_by_player_skips_salary_decision_when_all_paid() -> None:  # R6, R7
    s = fresh(phase_order="by_player")
    c = s.crown
    seq, _ = _first_round_decisions(s)
    assert seq == [(F_BUILD, (c + i) % 4) for i in range(4)]


def test_round_counter_and_crown_between_rounds() -> None:  # R5
    s = fresh()
    c = s.crown
    assert s.round == 1
    while s.round == 1:
        f = s.frame
        assert f is not None
        s.apply("pass" if f[0] == F_ACTION else texts(s)[0])
    assert s.round == 2
    assert s.crown == (c + 1) % 4
    assert s.frame == (F_BUILD, (c + 1) % 4)
