"""Times in relative words, as people say them: how long ("3 days 12 hours"), how long
until a deadline ("in 3 days 12 hours") and how long ago ("3 h ago", the host panel's
short form). The two largest units that matter are said, rounded down, so a deadline is
never said later than it is."""

from __future__ import annotations

from datetime import datetime
from typing import Final

_UNITS: Final = (("day", 86_400), ("hour", 3_600), ("minute", 60))
_SHORT: Final = (("d", 86_400), ("h", 3_600), ("min", 60))


def duration_words(seconds: float, parts: int = 2) -> str:
    """``seconds`` in words: ``3 days 12 hours``, ``1 hour 5 minutes``, ``4 minutes``,
    ``less than a minute`` (the ``parts`` largest non-zero units, from the largest one
    present; seconds are not said)."""
    left = int(max(0.0, seconds))
    if left < 60:
        return "less than a minute"
    out: list[str] = []
    for name, size in _UNITS:
        n, left = divmod(left, size)
        if n and len(out) < parts:
            out.append(f"{n} {name}{'s' if n != 1 else ''}")
        elif out:
            break  # "3 days 5 minutes" would skip the hours: stop at the first gap
    return " ".join(out)


def until_words(deadline: datetime, now: datetime) -> str:
    """How long until ``deadline``: ``in 3 days 12 hours``, ``in less than a minute``,
    or ``now`` once it has passed."""
    seconds = (deadline - now).total_seconds()
    if seconds <= 0:
        return "now"
    return f"in {duration_words(seconds)}"


def ago_words(then: datetime, now: datetime) -> str:
    """How long ago, briefly: ``just now``, ``5 min ago``, ``3 h ago``, ``2 d ago``
    (one unit)."""
    seconds = (now - then).total_seconds()
    if seconds < 60:
        return "just now"
    for name, size in _SHORT:
        if seconds >= size:
            return f"{int(seconds // size)} {name} ago"
    return "just now"  # unreachable: 60 s is a minute
