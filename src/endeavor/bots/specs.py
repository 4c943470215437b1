"""Bots named in text: ``"greedy"``, ``"mcts:800"``, ``"mcts:0.5s"``, with budgets.

What a tournament, a review, the Gymnasium environment's opponents and the command line
are given to name their bots: :func:`resolve_bots` turns the specs into
:class:`Entrant` s (a label, the name and the budget :func:`endeavor.bots.make` is
called with), :func:`parse_budget` and :func:`budget_text` read and write a budget.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import EndeavorError
from .base import Bot

MAX_BUDGET_SECONDS = 3_600.0
MAX_BUDGET_ITERATIONS = 1_000_000_000

Budget = dict[str, float | int | str]
#: how bots are built: ``factory(name, seed=..., **budget)``, like :func:`endeavor.bots.make`
BotFactory = Callable[..., Bot]


class BotSpecError(EndeavorError, ValueError):
    """A bot spec that cannot be played: an unknown bot, a bad or rejected budget."""


# --------------------------------------------------------------------------- budgets
def parse_budget(text: str) -> Budget:
    """``"0.5s"`` -> ``{"seconds": 0.5}``; ``"0.5s-cpu"`` -> ``{"seconds": 0.5,
    "clock": "cpu"}`` (seconds of processor time, which other work on the machine does
    not take away); ``"800"`` or ``"800it"`` -> ``{"iterations": 800}``. Raises
    :class:`BotSpecError` for anything else."""
    t = text.strip().lower()
    hint = "give seconds like 0.5s (0.5s-cpu: of processor time) or iterations like 800 " \
           "(or 800it)"
    if t.endswith("-cpu"):
        time_text = t[:-4]
        if time_text.endswith("s"):
            try:
                return {**parse_budget(time_text), "clock": "cpu"}
            except BotSpecError as e:
                raise BotSpecError(str(e).replace(repr(time_text), repr(text), 1)) from None
        raise BotSpecError(f"bad budget {text!r}: {hint}")
    if t.endswith("s"):
        try:
            seconds = float(t[:-1])
        except ValueError:
            raise BotSpecError(f"bad budget {text!r}: {hint}") from None
        if not math.isfinite(seconds) or not 0 < seconds <= MAX_BUDGET_SECONDS:
            raise BotSpecError(f"bad budget {text!r}: seconds must be more than 0 and "
                                  f"at most {MAX_BUDGET_SECONDS:g}")
        return {"seconds": seconds}
    digits = t[:-2] if t.endswith("it") else t
    if not digits.isdigit():
        raise BotSpecError(f"bad budget {text!r}: {hint}")
    iterations = int(digits)
    if not 1 <= iterations <= MAX_BUDGET_ITERATIONS:
        raise BotSpecError(f"bad budget {text!r}: iterations must be 1 to "
                              f"{MAX_BUDGET_ITERATIONS:,}")
    return {"iterations": iterations}


def budget_text(budget: Mapping[str, Any]) -> str:
    """A budget in the notation :func:`parse_budget` reads (``""`` for none)."""
    parts = []
    cpu = budget.get("clock") == "cpu" and "seconds" in budget
    for key, value in sorted(budget.items()):
        if key == "clock" and cpu:
            continue
        if key == "seconds":
            parts.append(f"{value:g}s" + ("-cpu" if cpu else ""))
        elif key == "iterations":
            parts.append(f"{value}it")
        else:
            parts.append(f"{key}={value}")
    return ",".join(parts)


def as_budget(budget: str | Mapping[str, Any] | None) -> Budget:
    """A budget given as text (:func:`parse_budget`), a mapping or nothing (``{}``)."""
    if budget is None:
        return {}
    if isinstance(budget, str):
        return parse_budget(budget) if budget.strip() else {}
    return dict(budget)


# --------------------------------------------------------------------------- entrants
@dataclass(frozen=True)
class Entrant:
    """One bot of the tournament: ``label`` names it in the table, ``name`` and
    ``budget`` are what :func:`endeavor.bots.make` is called with."""

    label: str
    name: str
    budget: Mapping[str, Any] = field(default_factory=dict)


def _try_make(name: str, budget: Mapping[str, Any], factory: BotFactory) -> str | None:
    """None if ``factory(name, seed=0, **budget)`` works, else the reason."""
    try:
        factory(name, seed=0, **budget)
    except (TypeError, ValueError) as e:
        return str(e) or type(e).__name__
    return None


def resolve_bots(specs: Sequence[str], budget: str | Mapping[str, Any] | None = None,
                 factory: BotFactory | None = None) -> list[Entrant]:
    """Entrants from bot specs: a name (``"greedy"``), or a name with its own budget
    (``"mcts:800"``, ``"mcts:0.5s"``). ``budget`` is the default budget: it goes to
    every bot that accepts it (``make`` does not reject it) and the others play
    without one. A budget given to one bot must be accepted. Raises
    :class:`BotSpecError` for an unknown bot or a rejected budget. ``factory``
    builds the bots (default :func:`endeavor.bots.make`)."""
    if factory is None:
        from . import make  # the package's make, defined after this module

        factory = make
    default = as_budget(budget)
    found: dict[str, Entrant] = {}
    out = []
    for spec in specs:
        text = spec.strip()
        if text in found:
            out.append(found[text])
            continue
        name, sep, own = text.partition(":")
        name = name.strip().lower()
        if not name:
            raise BotSpecError(f"empty bot name in {spec!r}")
        plain = _try_make(name, {}, factory)
        if sep:
            given = parse_budget(own)
            problem = _try_make(name, given, factory)
            if problem is not None:
                if plain is not None:
                    raise BotSpecError(plain)
                raise BotSpecError(f"bot {name!r} does not take the budget "
                                      f"{own.strip()!r}: {problem}")
            entrant = Entrant(f"{name}:{budget_text(given)}", name, given)
        elif default and _try_make(name, default, factory) is None:
            entrant = Entrant(name, name, dict(default))
        elif plain is not None:
            raise BotSpecError(plain)
        else:
            entrant = Entrant(name, name, {})
        found[text] = entrant
        out.append(entrant)
    return out
