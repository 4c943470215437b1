"""The tree search is exactly the search it was: on seeded positions of several
rulesets and options (Exploits, the Silent Fleet, the 2009 game, rollouts, widening,
deeper follow-ups), the ``mcts`` bot's choices, every root child's visits, value,
glory and margin, and its counts of nodes and evaluations equal those stored from
the search before it was made faster (``tests/search_fingerprint.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from search_fingerprint import CASES, FIXTURE, fingerprint


@pytest.fixture(scope="module")
def found() -> list[dict]:
    return fingerprint()


def _numbers(x: Any, near: bool = True) -> Any:
    """The fingerprint with its floats (stored as exact hex) as floats, each within a
    relative 1e-9 (another platform's ``exp`` may differ in the last bits; the visits,
    choices and counts must be equal)."""
    if isinstance(x, list):
        return [_numbers(y, near) for y in x]
    if isinstance(x, dict):
        return {k: _numbers(y, near) for k, y in x.items()}
    if isinstance(x, str) and x.startswith(("0x", "-0x")):
        value = float.fromhex(x)
        return pytest.approx(value, rel=1e-9, abs=1e-12) if near else value
    return x


@pytest.mark.parametrize("k", range(len(CASES)))
def test_search_computes_what_it_computed(found: list[dict], k: int) -> None:
    stored = json.loads(FIXTURE.read_text())
    assert len(stored) == len(CASES)
    got = json.loads(json.dumps(found[k]))
    assert _numbers(got, near=False) == _numbers(stored[k])


def test_the_fingerprint_can_fail(found: list[dict]) -> None:
    """A different search (another seed and budget) gives a different fingerprint."""
    stored = json.loads(FIXTURE.read_text())
    from endeavor.bots import MCTSBot
    from search_fingerprint import position
    config, plies, _ = CASES[1]
    state = position(config, plies)
    bot = MCTSBot(99, iterations=7)
    rated = bot.analyse(state, top=1000)
    assert [[r.action.code, r.visits] for r in rated] != \
        [row[:2] for row in stored[1]["steps"][0]["rated"]]


def test_evaluations_do_not_depend_on_what_was_scored_before() -> None:
    """The evaluation reuses parts of the last positions it scored (the board, the
    Governor leaders, each seat's estimate): siblings scored in any order, and between
    positions of other games, get the same values."""
    from endeavor.bots.evaluate import search_values
    from search_fingerprint import position
    positions = []
    for config, plies, _ in CASES:
        parent = position(config, plies)
        for code in parent.legal_codes():
            child = parent.copy()
            child.apply_code(code)
            positions.append(child)
    forward = [search_values(s) for s in positions]
    backward = [search_values(s) for s in reversed(positions)][::-1]
    assert forward == backward
    mixed = [search_values(s) for s in positions[::3] + positions[1::3] + positions[2::3]]
    assert sorted(map(tuple, mixed)) == sorted(map(tuple, forward))
