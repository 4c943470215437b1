"""The observation stays bit for bit what it was: a stored digest of the encoder's output
over seeded random games of every ruleset, player count, Exploit and the Silent Fleet
(``tools/observation_digest.py --games 1``), every position encoded for every seat,
incrementally and from scratch. Stdlib only: it runs without numpy.

When a change of the rules (not of the encoder) changes what random play reaches, the
digest moves with it: check the encoder with the tool on the builds before and after
the change (same games, same vectors), then store the new digest here. A change of the
layout or of what a field shows needs a new observation version."""

from __future__ import annotations

import importlib.util
from array import array
from pathlib import Path
from types import ModuleType

from endeavor import State
from endeavor.encoding import features as F

ROOT = Path(__file__).resolve().parents[2]
#: ``python tools/observation_digest.py --games 1``
LAYOUT = "e147a431da09df60f99a21f3ebd7d30f21a3e094899aa3c4300708abb14280c9"
ALL = "c357ebbcba1939fdbf002eb00b341dc4a6b82e2f2e60ffeb996d36def02f363f"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "observation_digest", ROOT / "tools" / "observation_digest.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_layout_is_unchanged() -> None:
    assert _tool().layout_digest() == LAYOUT


def test_the_vectors_are_unchanged() -> None:
    assert _tool().digest(1) == ALL


class _OneOff:
    """An encoder whose vectors differ from the real one's by one float in round 3."""

    def __init__(self, player: int) -> None:
        self.encoder = F.Encoder(player)

    def update(self, s: State) -> array[float]:
        out = array("f", self.encoder.update(s))
        if s.round == 3:
            out[0] += 1.0
        return out


def test_the_digest_sees_a_changed_float() -> None:
    tool = _tool()
    config = next(c for _, c in tool.configs(1))
    before, _ = tool.game_digest(config)
    after, _ = tool.game_digest(config, encoder=_OneOff)
    assert after != before
