"""The observation encoder: ``encode(state, player)`` -> ``numpy.float32`` vector,
seat-rotated so that the observer is always seat 0.

Endeavor is a game of perfect information: the vector shows everything on the table
(docs/rl.md, "Observation", lists it field by field). One layout serves every game —
both rulesets, 2 to 5 players, any board side, any Exploits (named or drawn), the
Silent Fleet and its options — so :func:`observation_size` is the same for every
config: seats a smaller game lacks, and the data of the modules not in play, stay 0.

The layout is :data:`endeavor.encoding.features.FIELDS` (the stdlib-only core, compiled with
the engine in the mypyc build); this module adds numpy. :func:`encode` keeps one
:class:`~endeavor.encoding.features.Encoder` per observer seat and rewrites only what changed
since the last state it encoded for that seat (any state: another game, a copy, an
earlier position are all fine). It is not thread-safe: give each thread its own
:class:`ObservationEncoder`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..config import GameConfig
from ..state import State
from . import features as F

#: bump it when the layout changes (docs/rl.md keeps the layout of this version)
OBSERVATION_VERSION = 1
#: the observation length, the same for every config
SIZE = F.SIZE


#: every observation's bounds (:func:`observation_bounds`)
_LOW = np.zeros(SIZE, np.float32)
_HIGH = np.array([h for f in F.FIELDS for h in f.highs()], np.float32)
_LOW.flags.writeable = False
_HIGH.flags.writeable = False


def observation_bounds() -> tuple[Any, Any]:
    """``(low, high)``: two ``float32`` vectors of :data:`SIZE` between which every
    observation of every game lies (new arrays). ``low`` is 0 everywhere; ``high`` is 1
    for a ``onehot`` or ``bits`` float and, for a ``count``, the largest count the game's
    components allow (a seat's discs, the Trade tokens of a type, the copies of a
    building, the cards; or the largest a float shows, 255) divided by the field's
    scale: :meth:`~endeavor.encoding.features.Field.highs`."""
    return _LOW.copy(), _HIGH.copy()


def observation_size(config: GameConfig) -> int:
    """The length of every observation vector of games with this config (the same for
    every seat and every position of such a game; in this version, for every config)."""
    return SIZE


class ObservationEncoder:
    """Observations of one seat, kept up to date incrementally (what :func:`encode` uses,
    one per seat; make your own for a thread of your own)."""

    def __init__(self, player: int) -> None:
        self.core = F.Encoder(player)
        #: the core's vector as numpy, without a copy (it is never resized); read-only:
        #: the next encoding starts from what it shows
        self.view = np.frombuffer(self.core.vec, dtype=np.float32)
        self.view.flags.writeable = False

    @property
    def player(self) -> int:
        return self.core.player

    def __reduce__(self) -> tuple[type[ObservationEncoder], tuple[int]]:
        """Pickled (and copied) as its seat: the copy starts afresh (its first
        observation is encoded whole; an observation does not depend on the ones before
        it)."""
        return (ObservationEncoder, (self.player,))

    def encode(self, state: State, out: Any = None, copy: bool = True) -> Any:
        """The observation of ``state``: a new vector, or ``out`` filled, or with
        ``copy=False`` the encoder's own read-only vector (no copy; it changes at the
        next call)."""
        self.core.update(state)
        if out is not None:
            np.copyto(out, self.view)
            return out
        return self.view.copy() if copy else self.view


_ENCODERS: list[ObservationEncoder] = []


def encode(state: State, player: int, out: Any = None) -> Any:
    """The observation of ``player`` (a seat): a ``float32`` vector of
    :func:`observation_size` (``out``: a vector to fill instead of a new one)."""
    n = state.config.players
    if not 0 <= player < n:
        raise ValueError(f"player must be a seat 0..{n - 1}, got {player!r}")
    while len(_ENCODERS) <= player:
        _ENCODERS.append(ObservationEncoder(len(_ENCODERS)))
    return _ENCODERS[player].encode(state, out)


def _value(field: F.Field, row: Any, seats: int) -> Any:
    """One row of a field, decoded (the counts of seats past ``seats`` left out)."""
    if field.kind == "onehot":
        hot = np.flatnonzero(row)
        return field.labels[int(hot[0])] if len(hot) else None
    if field.kind == "bits":
        if field.width == 1:
            return bool(row[0])
        return [label for label, v in zip(field.labels, row, strict=True) if v]
    counts = [int(round(float(v) * field.scale)) for v in row]
    if field.width == 1:
        return counts[0]
    return {label: c for label, c in zip(field.labels, counts, strict=True)
            if not (field.labels is F.SEAT_LABELS and label >= seats)}  # type: ignore[operator]


def describe(vector: Any, config: GameConfig | None = None) -> dict[str, Any]:
    """The vector back as named fields, for debugging: a nested dict following the field
    names of docs/rl.md (``d["turn"]["round"]``, ``d["tracks"]["owner"]["AF1"]``).

    A ``onehot`` row becomes its label (or None), a ``bits`` row the list of its labels
    set (a single flag: a bool), a ``count`` row its integers (a dict by label, or one
    int). Fields with rows become a dict by row label (relative seats 0..4 for the mats).
    ``config`` (optional) drops the seats a smaller game lacks (rows and counts)."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    if v.shape[0] != SIZE:
        raise ValueError(f"an observation has {SIZE} values, not {v.shape[0]}")
    seats = config.players if config is not None else F.SEATS
    out: dict[str, Any] = {}
    for field in F.FIELDS:
        block = v[field.offset:field.offset + field.size]
        if field.rows:
            rows = block.reshape(len(field.rows), field.width)
            per_seat = field.rows is F.SEAT_LABELS or field.rows is F.OWNER_LABELS
            value: Any = {label: _value(field, rows[k], seats)
                          for k, label in enumerate(field.rows)
                          if not (per_seat and k < F.SEATS and k >= seats)}
        else:
            value = _value(field, block, seats)
        node = out
        *path, leaf = field.name.split(".")
        for part in path:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out


def layout_table() -> str:
    """The layout as a Markdown table (docs/rl.md shows it; a test keeps them equal):
    ``at most`` is a count's largest whole number (per item when they differ), its
    bound in the observation space divided by the scale."""
    lines = ["| offset | length | field | kind | rows x values | scale | at most | meaning |",
             "|---:|---:|---|---|---|---:|---:|---|"]
    for f in F.FIELDS:
        rows = f"{len(f.rows)} x " if f.rows else ""
        labels = _labels(f.labels)
        scale = f"/{f.scale}" if f.kind == "count" else ""
        most = ""
        if f.kind == "count":
            most = (str(f.most[0]) if len(set(f.most)) == 1
                    else ", ".join(str(m) for m in f.most))
        lines.append(f"| {f.offset} | {f.size} | `{f.name}` | {f.kind} | {rows}{labels} "
                     f"| {scale} | {most} | {f.doc} |")
    return "\n".join(lines) + "\n"


def _labels(labels: tuple[object, ...]) -> str:
    if len(labels) > 8:
        return f"{len(labels)} ({labels[0]} … {labels[-1]})"
    return f"{len(labels)} ({', '.join(str(x) for x in labels)})"


__all__ = ["OBSERVATION_VERSION", "ObservationEncoder", "SIZE", "describe", "encode",
           "layout_table", "observation_bounds", "observation_size"]
