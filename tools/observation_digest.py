"""A digest of the observation encoder's output over many seeded random games.

    python tools/observation_digest.py [--games N] [--verbose]

Plays seeded random games of every ruleset, player count, Exploit (each in several
combinations), the Silent Fleet and its options, and encodes every position for every
seat, incrementally (one :class:`~endeavor.encoding.features.Encoder` per seat, as an RL
loop does) and, every few positions, from scratch. It prints a SHA-256 of all those
vectors (their float32 bytes), of the layout (every field's name, kind, rows, labels,
scale, doc and offset): two builds that print the same
digest encode every one of those positions bit for bit alike. Stdlib only (no numpy);
the observation version is printed beside it when numpy is there.
``tests/rl/test_observation_digest.py`` keeps the digest of ``--games 1``.
"""

from __future__ import annotations

import argparse
import hashlib
import random
from collections.abc import Callable, Iterator
from typing import Any

from endeavor import GameConfig, new_game
from endeavor.encoding import features as F
from endeavor.exploits import EXPLOIT_IDS

try:
    from endeavor.encoding.observation import OBSERVATION_VERSION
except ImportError:  # numpy missing: the version is not part of the digest
    OBSERVATION_VERSION = -1


def configs(games: int) -> Iterator[tuple[str, GameConfig]]:
    """Every config the digest plays, named (``games`` seeds of each)."""
    ex = EXPLOIT_IDS
    trios = [tuple(ex[(k + j * 5) % len(ex)] for j in range(3)) for k in range(len(ex))]
    for g in range(games):
        seed = 1000 + g
        for n in (3, 4, 5):
            yield f"classic-{n}p-{g}", GameConfig(players=n, ruleset="classic", seed=seed)
        yield f"classic-5p-by-player-{g}", GameConfig(
            players=5, ruleset="classic", seed=seed, options={"phase_order": "by_player"})
        for n in (2, 3, 4, 5):
            yield f"aos-{n}p-{g}", GameConfig(players=n, seed=seed)
            yield f"aos-{n}p-random-{g}", GameConfig(players=n, seed=seed + 7,
                                                      exploits="random")
        for k, trio in enumerate(trios):
            n = 2 + (k + g) % 4
            yield f"aos-{n}p-{'+'.join(trio)}-{g}", GameConfig(players=n, seed=seed + k,
                                                                exploits=trio)
        yield f"fleet-{g}", GameConfig(players=2, seed=seed, options={"silent_fleet": True})
        yield f"fleet-options-{g}", GameConfig(players=2, seed=seed, exploits="random", options={
            "silent_fleet": True, "limited_occupation": True, "no_token_reaction": True,
            "building_shortage": True, "plus_same_region": True})
        yield f"aos-4p-A-options-{g}", GameConfig(players=4, board="A", seed=seed,
                                                  exploits="random", options={
            "phase_order": "by_player", "discard_pile_bonus": False,
            "plus_same_region": True})


def layout_digest() -> str:
    h = hashlib.sha256()
    for f in F.FIELDS:
        h.update(repr((f.name, f.kind, f.rows, f.labels, f.scale, f.doc, f.offset,
                       f.size)).encode())
    h.update(repr(F.SIZE).encode())
    return h.hexdigest()


def game_digest(config: GameConfig, cold_every: int = 7,
                encoder: Callable[[int], Any] | None = None) -> tuple[str, int]:
    """The digest of one seeded random game's encodings, and its number of positions
    (``encoder``: what makes an observer's encoder, an object whose ``update(s)`` returns
    the vector as an ``array('f')``; the default, :class:`Encoder`)."""
    make = encoder or F.Encoder
    s = new_game(config)
    rng = random.Random(config.seed)
    encoders = [make(p) for p in range(s.n)]
    h = hashlib.sha256()
    k = 0
    while True:
        for enc in encoders:
            h.update(enc.update(s).tobytes())
        if k % cold_every == 0:
            h.update(make(k % s.n).update(s).tobytes())
        k += 1
        if s.is_over:
            break
        s.apply_code(rng.choice(s.legal_codes()))
    return h.hexdigest(), k


def digest(games: int, verbose: bool = False) -> str:
    h = hashlib.sha256(layout_digest().encode())
    total = 0
    for name, config in configs(games):
        d, k = game_digest(config)
        total += k
        if verbose:
            print(f"{d[:16]} {k:5d} {name}")
        h.update(d.encode())
    if verbose:
        print(f"{total} positions")
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="seeds of each config")
    parser.add_argument("--verbose", action="store_true", help="a digest per game")
    args = parser.parse_args()
    print("version", OBSERVATION_VERSION)
    print("layout", layout_digest())
    print("all   ", digest(args.games, args.verbose))


if __name__ == "__main__":
    main()
