"""How much of the seeded random-play sweeps a run plays.

Plain ``pytest`` plays every game of every sweep (``test_invariants.py``,
``test_classic_invariants.py``, ``test_exploit_invariants.py``,
``test_silent_fleet_invariants.py``) and asserts the sweeps' coverage. ``make test``
runs the suite twice, once per build, on a 2-core machine: its compiled lane plays
the sweeps whole, and its pure-Python lane sets ``ENDEAVOR_SWEEP=sample``, which plays
one chunk in five of each sweep and leaves the coverage assertions (which need every
game) to the whole sweep."""

from __future__ import annotations

import os

import pytest

_MODE = os.environ.get("ENDEAVOR_SWEEP", "") or "all"
if _MODE not in ("all", "sample"):
    raise ValueError(f"ENDEAVOR_SWEEP={_MODE!r}: expected 'all' or 'sample'")

SAMPLE = _MODE == "sample"
#: in a sample, the chunks ``c`` with ``c % STRIDE == 1`` run
STRIDE = 5


def chunks(n: int) -> list[int]:
    """The chunk numbers of a sweep of ``n`` chunks that this run plays."""
    return [c for c in range(n) if not SAMPLE or c % STRIDE == 1]


#: marks a test that needs every game of its sweep (a coverage assertion)
whole_sweep = pytest.mark.skipif(
    SAMPLE, reason="ENDEAVOR_SWEEP=sample plays part of the sweep: its coverage is "
    "asserted where the whole sweep runs (plain pytest; make test's compiled lane)")
