"""Rounds and phases (RB fr "Principes du jeu", "Les trois premières phases", "Fin de la
manche", "Fin de la partie"; R5, R6)."""

from __future__ import annotations

import random

import pytest

from endeavor import GameConfig, IllegalActionError, new_game
from scenario import check, deciding, decision_kind, fresh, give_building, texts

Decision = tuple[int, str, str, int]  # round, phase name, decision kind, player
#: the phases of a round in the order they are played (R5)
PHASES = ("Construction", "Growth", "Salary", "Actions", "Discard")


def _play(players: int, seed: int, **options: object) -> tuple[object, int, list[Decision]]:
    """A whole game with random legal actions (rarely passing); every decision logged."""
    s = new_game(GameConfig(players=players, seed=seed, options=options))
    crown0 = s.crown
    rng = random.Random(seed)
    log: list[Decision] = []
    while not s.is_over:
        d = s.decision()
        assert d is not None
        log.append((s.round, s.phase_name, d.kind, d.player))
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
    setup = [d for d in log if d[2] == "start_tile"]
    assert [d[3] for d in setup] == [(crown0 + i) % players for i in range(players)]
    assert {d[0] for d in log} == {0, 1, 2, 3, 4, 5, 6, 7}
    for r in range(1, 8):
        crown = (crown0 + r - 1) % players  # passed to the left after each round
        builds = [d[3] for d in log if d[0] == r and d[2] == "construction"]
        assert builds == [(crown + i) % players for i in range(players)], r
        actions = [d[3] for d in log if d[0] == r and d[2] == "action"]
        assert actions[0] == crown  # the Crown holder acts first
        # every player takes part until passing; turn order skips passed players
        assert set(actions) == set(range(players))
    for pl in s.players:
        assert len(pl.buildings) == 8  # start tile + one building per round
    assert s.crown == (crown0 + 6) % players  # round 7's holder keeps it at the end


@pytest.mark.parametrize("players, seed", GAMES[:2])
def test_phases_in_order_phase_by_phase(players: int, seed: int) -> None:  # R5
    _, _, log = _play(players, seed)
    for r in range(1, 8):
        phases = [d[1] for d in log if d[0] == r]
        assert phases == sorted(phases, key=PHASES.index), r  # in the order of PHASES
        assert phases[0] == "Construction"
        assert "Actions" in phases
        kinds = {d[2]: d[1] for d in log if d[0] == r}
        assert kinds["construction"] == "Construction"
        if "salary" in kinds:
            assert kinds["salary"] == "Salary"
        assert kinds["action"] == "Actions"
        for k in ("discard", "governor_slot"):
            if k in kinds:
                assert kinds[k] == "Discard"


def test_game_ends_after_round_7() -> None:  # R5
    s, _, _ = _play(4, 11)
    assert s.is_over
    assert s.phase_name == "Game over"
    assert s.round == 7
    assert s.current_player is None
    assert s.decision() is None
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
        f = deciding(s)
        assert f is not None
        if f == ("action", idle):
            s.apply("pass")
        elif f == ("construction", idle):
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
    while (f := deciding(s)) is not None and f[0] != "action":
        seq.append(f)
        supply_seen.append(tuple(pl.supply for pl in s.players))
        s.apply("build workshop" if f[0] == "construction" else texts(s)[0])
    return seq, supply_seen


def test_default_goes_phase_by_phase() -> None:  # R6
    s = _salary_setup("by_phase")
    c = s.crown
    seq, supplies = _first_round_decisions(s)
    order = [(c + i) % 4 for i in range(4)]
    assert seq == [("construction", p) for p in order] + [("salary", p) for p in order]
    # nobody has grown while players are still building
    assert all(sup == (32, 32, 32, 32) for sup in supplies[:4])
    # everybody has grown before the first Salary decision
    assert supplies[4] == (30, 30, 30, 30)
    assert deciding(s) == ("action", c)


def test_by_player_interleaves_construction_growth_salary() -> None:  # R6
    s = _salary_setup("by_player")
    c = s.crown
    seq, supplies = _first_round_decisions(s)
    order = [(c + i) % 4 for i in range(4)]
    expected = []
    for p in order:
        expected += [("construction", p), ("salary", p)]
    assert seq == expected
    # the Crown holder has grown (Growth 2) before the next player builds
    second_build = supplies[2]
    assert second_build[c] == 30
    assert second_build[(c + 1) % 4] == 32
    # the Action phase waits for everyone
    assert deciding(s) == ("action", c)
    assert all(pl.supply == 30 for pl in s.players)


def test_by_player_skips_salary_decision_when_all_paid() -> None:  # R6, R7
    s = fresh(phase_order="by_player")
    c = s.crown
    seq, _ = _first_round_decisions(s)
    assert seq == [("construction", (c + i) % 4) for i in range(4)]


def test_round_counter_and_crown_between_rounds() -> None:  # R5
    s = fresh()
    c = s.crown
    assert s.round == 1
    while s.round == 1:
        kind = decision_kind(s)
        assert kind is not None
        s.apply("pass" if kind == "action" else texts(s)[0])
    assert s.round == 2
    assert s.crown == (c + 1) % 4
    assert deciding(s) == ("construction", (c + 1) % 4)
