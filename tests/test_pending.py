"""endeavor.decision.pending: the decision on top, as numbers (what the observation
encoder reads instead of the engine's frames)."""

from __future__ import annotations

import random

from endeavor import GameConfig, new_game
from endeavor.decision import NO_PENDING, Pending, pending
from endeavor.frames import FRAME_NAMES


def test_pending_follows_the_decisions_of_a_game() -> None:
    s = new_game(GameConfig(players=3, seed=5, exploits="random"))
    rng = random.Random(5)
    seen: set[str] = set()
    while not s.is_over:
        d = pending(s)
        assert d.player == s.current_player
        assert 0 <= d.kind < len(FRAME_NAMES)
        seen.add(FRAME_NAMES[d.kind])
        if FRAME_NAMES[d.kind] == "effect":
            assert d.mode >= 0 and d.kind1 >= 0 and d.module == -1
        elif FRAME_NAMES[d.kind] == "exploit":
            assert d.mode == -1 and 0 <= d.module < len(s.modules) and d.step >= 0
        else:
            assert d.mode == -1 and d.module == -1
        assert pending(s) == d and hash(pending(s)) == hash(d)
        s.apply_code(rng.choice(s.legal_codes()))
    assert pending(s) is NO_PENDING and NO_PENDING.player == -1 and NO_PENDING.kind == -1
    assert {"start tile", "construction", "action", "effect", "discard"} <= seen


def test_equal_when_every_field_is() -> None:
    assert Pending(4, 1, mode=0) == Pending(4, 1, mode=0)
    assert Pending(4, 1, mode=0) != Pending(4, 1, mode=1)
    assert "mode=0" in repr(Pending(4, 1, mode=0))
