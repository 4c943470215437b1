"""The decision frames' layouts: the NamedTuples of ``endeavor.frames`` declare each
kind's fields, the engine reads frames with index constants (plain tuples are cheaper
to build and read), and both must agree: every constant is its field's position, every
decision type validates the length its layout declares, and every frame the engine
pushes in play has that length."""

from __future__ import annotations

import inspect
import random

import pytest

from endeavor import GameConfig, new_game
from endeavor import frames as F
from endeavor.rules.base import RULESETS

#: each index constant and the (layout, field) it names
CONSTANTS = {
    "FRAME_KIND": (F.PlayerFrame, "kind"),
    "FRAME_PLAYER": (F.PlayerFrame, "player"),
    "SALARY_LEFT": (F.SalaryFrame, "payments_left"),
    "EFFECT_MODE": (F.EffectFrame, "mode"),
    "EFFECT_KIND1": (F.EffectFrame, "kind1"),
    "EFFECT_KIND2": (F.EffectFrame, "kind2"),
    "EFFECT_REGION": (F.EffectFrame, "region"),
    "EFFECT_DECK": (F.EffectFrame, "deck"),
    "EFFECT_FLAGS": (F.EffectFrame, "flags"),
    "EXPLOIT_MODULE": (F.ExploitFrame, "module"),
    "EXPLOIT_STEP": (F.ExploitFrame, "step"),
    "EXPLOIT_A": (F.ExploitFrame, "a"),
    "EXPLOIT_B": (F.ExploitFrame, "b"),
}


def fields(layout: type) -> list[str]:
    """A layout's field names, in order (its constructor's parameters)."""
    return list(inspect.signature(layout).parameters)


@pytest.mark.parametrize("name", sorted(CONSTANTS))
def test_index_constant_is_its_fields_position(name: str) -> None:
    layout, field = CONSTANTS[name]
    assert getattr(F, name) == fields(layout).index(field)


def test_every_index_constant_is_checked() -> None:
    prefixes = ("FRAME_", "SALARY_", "EFFECT_", "EXPLOIT_")
    named = {n for n in F.__all__ if n.startswith(prefixes) and isinstance(getattr(F, n), int)}
    named -= {"FRAME_NAMES", "FRAME_LAYOUTS"}
    assert named == set(CONSTANTS)


def test_layouts_share_the_header() -> None:
    for layout in set(F.FRAME_LAYOUTS.values()):
        assert fields(layout)[:2] == ["kind", "player"]
    assert sorted(F.FRAME_LAYOUTS) == list(range(F.NFRAMES))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_decision_types_validate_the_declared_length(ruleset: str) -> None:
    rules = new_game(GameConfig(ruleset=ruleset)).rules
    for kind, layout in F.FRAME_LAYOUTS.items():
        t = rules.decisions[kind]
        if t.frame == kind:  # a decision type of this ruleset (not ``never``)
            assert t.length == len(fields(layout)), F.FRAME_NAMES[kind]
            assert len(t.ranges) == len(fields(layout)) - 2, F.FRAME_NAMES[kind]


@pytest.mark.parametrize("seed", range(4))
def test_frames_pushed_in_play_have_their_layouts_length(seed: int) -> None:
    s = new_game(GameConfig(players=2 + seed, seed=seed, exploits="random"))
    rng = random.Random(seed)
    seen: set[int] = set()
    while not s.is_over:
        for f in s.stack:
            assert len(f) == len(fields(F.FRAME_LAYOUTS[f[F.FRAME_KIND]])), f
            seen.add(f[F.FRAME_KIND])
            layout = F.FRAME_LAYOUTS[f[F.FRAME_KIND]]
            named = layout(*f)  # the layout reads what the constants read
            assert named.player == f[F.FRAME_PLAYER]
        s.apply_code(rng.choice(s.legal_codes()))
    assert {F.F_START, F.F_BUILD, F.F_ACTION, F.F_EFFECT} <= seen


def test_region_stride_spans_the_regions() -> None:
    """The per-player, per-region lists are laid out with REGION_STRIDE per player: a
    player's presence in every region, and nothing else, between two strides."""
    from endeavor import api

    assert api.REGION_STRIDE == api.NREGIONS
    s = new_game(GameConfig(players=3, seed=5))
    assert len(s.region_presence) == s.n * api.REGION_STRIDE
    assert [s.presence(p, r) for p in range(s.n) for r in range(api.NREGIONS)] == s.region_presence
