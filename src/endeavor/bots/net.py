"""The ``expert`` bot's policy/value network: a small multilayer perceptron in numpy
(``float32``), its weights file, and inference on one position.

**Input**: the observation of :mod:`endeavor.rl` (``encode(state, player)``,
:data:`~endeavor.encoding.observation.SIZE` floats, seat-rotated) of the player to move, so
the network always sees the position from seat 0.

**Trunk**: ``len(hidden)`` fully connected layers with ReLU (``hidden=(128, 128)`` by
default). The first layer is computed on the observation's nonzero entries only (a few
hundred of 3,670), which is what makes one position cost ~30 µs.

**Policy head**: one logit per entry of the frozen action index
(:data:`~endeavor.encoding.actions.NUM_ACTIONS` = 3,471); only the rows of the legal actions
are computed, and the priors are their softmax, so an illegal action never gets any
probability.

**Value head**: five logits, one per relative seat (0: the player to move, then the
seats after it in seat order); the seats a game lacks are dropped and the rest go
through a softmax. The values are each seat's **win share**: the expected share of the
win (1 to a sole winner, a first place shared by k seats 1/k each), so they sum to 1, like
:func:`endeavor.bots.evaluate.values` and the tree's backups.

**Weights file** (``.npz``, read without pickle): the arrays ``W0, b0, W1, b1, ...``
(trunk; ``W`` is ``inputs x outputs``), ``Wp`` (``NUM_ACTIONS x hidden``), ``bp``,
``Wv`` (``5 x hidden``), ``bv``, and ``header``: JSON text (as bytes) with the format
(:data:`FORMAT`, :data:`FORMAT_VERSION`), the :data:`~endeavor.rl.OBSERVATION_VERSION`
and :data:`~endeavor.rl.ACTION_SPACE_VERSION` the network was trained on, the sizes, the
value kind and free-form ``training`` metadata. :meth:`Net.load` refuses a file of
another format, version or size with a :class:`NetError` that says why (a network
trained on another observation layout or action index would read garbage).

Needs numpy (the ``expert`` extra, ``pip install 'endeavor[expert]'``); importing this
module without it raises ``ImportError``.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ..encoding.actions import ACTION_SPACE_VERSION, NUM_ACTIONS
from ..encoding.observation import OBSERVATION_VERSION, SIZE

#: the weights file's format name and version
FORMAT = "endeavor-expert-net"
FORMAT_VERSION = 1
#: value outputs: one per relative seat (the most players of any ruleset)
SEATS = 5
#: what the value head estimates
VALUE_KIND = "win_share"
#: the hidden layers of a new network
DEFAULT_HIDDEN = (128, 128)

#: (an explicit alias: where numpy is missing, as when mypyc compiles the package, it
#: is an alias of Any rather than an invalid type)
Array: TypeAlias = npt.NDArray[np.float32]


class NetError(ValueError):
    """A weights file that cannot be used: unreadable, not an expert network, or made for
    another format, observation layout, action index or size."""


def _he(rng: np.random.Generator, fan_in: int, fan_out: int) -> Array:
    out: Array = (rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(
        np.float32)
    return out


class Net:
    """The network's parameters (``params``: name -> ``float32`` array) and its header
    (``header``: the JSON object stored with the weights). Build one with :meth:`new`,
    :meth:`load` or :meth:`from_bytes`; the arrays are shared, never copied, so a net
    can be trained in place by :mod:`endeavor.analysis.train`."""

    def __init__(self, params: Mapping[str, Any], header: Mapping[str, Any]) -> None:
        self.params: dict[str, Array] = {k: np.ascontiguousarray(v, dtype=np.float32)
                                         for k, v in params.items()}
        self.header: dict[str, Any] = dict(header)
        hidden = [int(h) for h in self.header["hidden"]]
        self.hidden: tuple[int, ...] = tuple(hidden)
        self._check()
        self._trunk = [(self.params[f"W{i}"], self.params[f"b{i}"]) for i in range(len(hidden))]
        self._wp = self.params["Wp"]
        self._bp = self.params["bp"]
        self._wv = self.params["Wv"]
        self._bv = self.params["bv"]

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Array], dict[str, Any]]]:
        """Pickled (and deep-copied) as its arrays and header."""
        return (Net, (self.params, self.header))

    # ------------------------------------------------------------------ building
    @classmethod
    def new(cls, hidden: Sequence[int] = DEFAULT_HIDDEN, seed: int = 0,
            training: Mapping[str, Any] | None = None) -> Net:
        """A network with fresh weights (He-initialised trunk, small heads)."""
        hidden = tuple(int(h) for h in hidden)
        if not hidden or any(h < 1 for h in hidden):
            raise NetError(f"hidden layers must be positive sizes, not {hidden!r}")
        rng = np.random.default_rng(seed)
        params: dict[str, Array] = {}
        fan_in = SIZE
        for i, h in enumerate(hidden):
            params[f"W{i}"] = _he(rng, fan_in, h)
            params[f"b{i}"] = np.zeros(h, np.float32)
            fan_in = h
        params["Wp"] = (_he(rng, fan_in, NUM_ACTIONS).T * 0.1).astype(np.float32)
        params["bp"] = np.zeros(NUM_ACTIONS, np.float32)
        params["Wv"] = (_he(rng, fan_in, SEATS).T * 0.1).astype(np.float32)
        params["bv"] = np.zeros(SEATS, np.float32)
        return cls(params, header_for(hidden, training))

    def copy(self) -> Net:
        """A deep copy (arrays and header)."""
        return Net({k: v.copy() for k, v in self.params.items()},
                   json.loads(json.dumps(self.header)))

    def _check(self) -> None:
        p = self.params
        fan_in = SIZE
        want: dict[str, tuple[int, ...]] = {}
        for i, h in enumerate(self.hidden):
            want[f"W{i}"] = (fan_in, h)
            want[f"b{i}"] = (h,)
            fan_in = h
        want.update(Wp=(NUM_ACTIONS, fan_in), bp=(NUM_ACTIONS,), Wv=(SEATS, fan_in),
                    bv=(SEATS,))
        missing = sorted(set(want) - set(p))
        if missing:
            raise NetError(f"the weights lack the arrays {', '.join(missing)}")
        extra = sorted(set(p) - set(want))
        if extra:
            raise NetError(f"unexpected arrays in the weights: {', '.join(extra)}")
        for name, shape in want.items():
            if p[name].shape != shape:
                raise NetError(f"array {name} has shape {p[name].shape}, the header's sizes "
                               f"need {shape}")
            if not np.all(np.isfinite(p[name])):
                raise NetError(f"array {name} holds values that are not finite")

    # ------------------------------------------------------------------ inference
    @property
    def size(self) -> int:
        """How many parameters the network has."""
        total = 0
        for v in self.params.values():
            total += int(v.size)
        return total

    def evaluate(self, obs: Array, legal: npt.NDArray[np.intp], players: int
                 ) -> tuple[Array, Array]:
        """Priors over the legal actions and the value per relative seat of one position.

        ``obs``: the observation of the player to move (seat-rotated); ``legal``: the
        action-index entries of the legal actions; ``players``: seats in the game. Returns
        ``(priors, values)``: ``priors[i]`` the probability of ``legal[i]`` (they sum to
        1), ``values[k]`` the win share of relative seat ``k`` (``players`` of them,
        summing to 1)."""
        nz = np.flatnonzero(obs)
        trunk = self._trunk
        w, b = trunk[0]
        h = obs[nz] @ w[nz]
        h += b
        np.maximum(h, 0.0, out=h)
        for w, b in trunk[1:]:
            h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        logits = self._wp[legal] @ h + self._bp[legal]
        logits -= logits.max()
        priors = np.exp(logits)
        priors /= priors.sum()
        v = self._wv[:players] @ h + self._bv[:players]
        v -= v.max()
        values = np.exp(v)
        values /= values.sum()
        return priors, values

    # ------------------------------------------------------------------ files
    def to_bytes(self, training: Mapping[str, Any] | None = None) -> bytes:
        """The weights file's bytes (``training`` replaces the header's training
        metadata when given)."""
        header = dict(self.header)
        if training is not None:
            header["training"] = dict(training)
        buf = io.BytesIO()
        text = json.dumps(header, sort_keys=True).encode("utf-8")
        arrays: dict[str, Any] = dict(self.params)
        arrays["header"] = np.frombuffer(text, dtype=np.uint8)
        np.savez_compressed(buf, **arrays)
        return buf.getvalue()

    def save(self, path: str | os.PathLike[str],
             training: Mapping[str, Any] | None = None) -> None:
        """Write the weights file to ``path`` (atomically: a temporary file beside it,
        then renamed)."""
        data = self.to_bytes(training)
        if training is not None:
            self.header["training"] = dict(training)
        tmp = f"{os.fspath(path)}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "weights") -> Net:
        """A network from a weights file's bytes (``name`` names it in errors)."""
        return _read(io.BytesIO(data), name)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Net:
        """The network in the weights file ``path``; :class:`NetError` says why a file
        cannot be used (``OSError`` if it cannot be read at all)."""
        with open(path, "rb") as f:
            return _read(io.BytesIO(f.read()), os.fspath(path))


def header_for(hidden: Sequence[int], training: Mapping[str, Any] | None = None
               ) -> dict[str, Any]:
    """The header of a network with these hidden layers, for this package's observation
    layout and action index."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION,
            "observation_version": OBSERVATION_VERSION, "observation_size": SIZE,
            "action_space_version": ACTION_SPACE_VERSION, "num_actions": NUM_ACTIONS,
            "seats": SEATS, "hidden": [int(h) for h in hidden], "activation": "relu",
            "value": VALUE_KIND, "dtype": "float32", "training": dict(training or {})}


def _read(source: io.BytesIO, name: str) -> Net:
    try:
        with np.load(source, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except Exception as e:  # not a zip, a truncated file, a pickled object...
        raise NetError(f"{name}: not an expert weights file (.npz): "
                       f"{type(e).__name__}: {e}") from None
    raw = arrays.pop("header", None)
    if raw is None:
        raise NetError(f"{name}: not an expert weights file: it has no header")
    try:
        header = json.loads(bytes(raw.astype(np.uint8)).decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise NetError(f"{name}: the header is not JSON: {e}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise NetError(f"{name}: not an expert weights file (format "
                       f"{header.get('format') if isinstance(header, dict) else None!r})")
    checks = (("format_version", FORMAT_VERSION, "the weights format"),
              ("observation_version", OBSERVATION_VERSION, "the observation layout"),
              ("observation_size", SIZE, "the observation size"),
              ("action_space_version", ACTION_SPACE_VERSION, "the action index"),
              ("num_actions", NUM_ACTIONS, "the number of actions"),
              ("seats", SEATS, "the value head's seats"))
    for key, mine, what in checks:
        theirs = header.get(key)
        if theirs != mine:
            raise NetError(f"{name}: made for {what} version/size {theirs!r}, but this "
                           f"endeavor uses {mine!r}: retrain it with 'endeavor train' "
                           "(or use weights made for this version)")
    hidden = header.get("hidden")
    if not isinstance(hidden, list) or not hidden or not all(
            isinstance(h, int) and h > 0 for h in hidden):
        raise NetError(f"{name}: bad hidden sizes in the header: {hidden!r}")
    if header.get("value") != VALUE_KIND:
        raise NetError(f"{name}: its value head estimates {header.get('value')!r}, "
                       f"not {VALUE_KIND!r}")
    for k, v in arrays.items():
        if v.dtype.kind != "f":
            raise NetError(f"{name}: array {k} is {v.dtype}, not floating point")
    try:
        return Net(arrays, header)
    except NetError as e:
        raise NetError(f"{name}: {e}") from None


__all__ = ["DEFAULT_HIDDEN", "FORMAT", "FORMAT_VERSION", "Net", "NetError", "SEATS",
           "VALUE_KIND", "header_for"]
