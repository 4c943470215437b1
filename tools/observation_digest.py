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
from typing import Any, Final

from endeavor import GameConfig, State, new_game
from endeavor import actions as A
from endeavor import data as D
from endeavor.encoding import features as F
from endeavor.exploits import EXPLOIT_IDS

try:
    from endeavor.encoding.observation import OBSERVATION_VERSION
except ImportError:  # numpy missing: the version is not part of the digest
    OBSERVATION_VERSION = -1


#: the seeded games of ``tests/rl/test_observation.py`` (played there by :func:`busy`),
#: chosen to reach every field: also played busy here
RARE: Final = {
    "classic-3p": GameConfig(players=3, ruleset="classic", seed=1),
    "classic-4p": GameConfig(players=4, ruleset="classic", seed=2),
    "classic-5p-by-player": GameConfig(players=5, ruleset="classic", seed=3,
                                       options={"phase_order": "by_player"}),
    "aos-2p": GameConfig(players=2, seed=4),
    "aos-3p-exploits": GameConfig(players=3, seed=5, exploits="random"),
    "aos-4p-exploits": GameConfig(players=4, seed=6, exploits="random"),
    "aos-5p-exploits": GameConfig(players=5, seed=7, exploits="random"),
    "aos-4p-A-options": GameConfig(players=4, board="A", seed=16, exploits=(
        "saltpeter_stockpiles", "republic_of_pirates", "imperialism"),
        options={"phase_order": "by_player", "discard_pile_bonus": False,
                 "plus_same_region": True}),
    "aos-3p-tiles": GameConfig(players=3, seed=7, exploits=(
        "spanish_main", "dutch_east_india_company", "jesuit_missionaries")),
    "aos-4p-tiles": GameConfig(players=4, seed=21, exploits=(
        "south_sea_company", "manila_galleons", "underground_railroad")),
    "aos-5p-forts": GameConfig(players=5, seed=20, exploits=(
        "spanish_main", "dutch_east_india_company", "imperialism")),
    "aos-5p-tiles": GameConfig(players=5, seed=11, exploits=(
        "transit_of_venus", "sun_never_sets", "haitian_revolution")),
    "aos-2p-tiles": GameConfig(players=2, seed=12, exploits=(
        "spice_trade", "globalisation", "letters_of_marque")),
    "fleet": GameConfig(players=2, seed=13, options={"silent_fleet": True}),
    "fleet-options": GameConfig(players=2, seed=4, exploits="random", options={
        "silent_fleet": True, "limited_occupation": True, "no_token_reaction": True,
        "building_shortage": True}),
    # seeds whose games reach what is rare in play: a decision waiting below another,
    # Fortifications, Blockades, discs at the track bases, Manila, Nassau's Governor,
    # the South Sea bubble bursting, a Saltpeter disc on the tile, limited occupation
    "rare-deic-4p": GameConfig(players=4, seed=105, exploits="random"),
    "rare-spice-5p": GameConfig(players=5, seed=106, exploits="random"),
    "rare-pending-5p": GameConfig(players=5, seed=112, exploits="random"),
    "rare-fleet-limited": GameConfig(players=2, seed=121, exploits="random", options={
        "silent_fleet": True, "limited_occupation": True}),
    "rare-manila-5p": GameConfig(players=5, seed=130, exploits="random"),
    "rare-saltpeter-4p": GameConfig(players=4, seed=131, exploits="random"),
    "rare-burst-5p": GameConfig(players=5, seed=133, exploits="random"),
    "rare-same-deck": GameConfig(players=2, seed=213, options={
        "silent_fleet": True, "limited_occupation": True, "plus_same_region": True}),
    "rare-fleet-occupied": GameConfig(players=2, seed=214, options={
        "silent_fleet": True, "limited_occupation": True, "plus_same_region": True}),
}


def configs(games: int) -> Iterator[tuple[str, GameConfig]]:
    """Every config the digest plays, named (``games`` seeds of each, then the seeds that
    reach what random play rarely does)."""
    yield from _configs(games)
    yield from RARE.items()
    # The Spanish Main's Payments used in a round that is over (played busy)
    yield "spanish-payments", GameConfig(players=5, seed=55, exploits=(
        "spanish_main", "south_sea_company", "manila_galleons"))
    # Letters of Marque's steal step (its first int a seat, shown relative)
    yield "letters-steal", GameConfig(players=3, seed=285, exploits=(
        "letters_of_marque", "spice_trade", "globalisation"))


def _configs(games: int) -> Iterator[tuple[str, GameConfig]]:
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


_MODULE_VERBS: Final = range(A.V_EXPLOIT, A.V_EXPLOIT + 16 * A.EXPLOIT_VERBS)
_SHIP_SOURCES: Final = frozenset(
    [(A.V_ACT, b) for b, bd in enumerate(D.BUILDINGS) if D.SHIP in (bd.kind1, bd.kind2)]
    + [(A.V_USE, t + 4) for t, (_, k1, k2) in enumerate(D.TOKEN_ACTIONS) if D.SHIP in (k1, k2)])


def busy(s: State, rng: random.Random) -> int:
    """A seeded random player that makes things happen: it ships (so regions open and
    Exploits activate), takes a module's action when one is offered, rarely passes or
    declines (the one of ``tests/rl/test_observation.py``)."""
    codes = s.legal_codes()
    if len(codes) > 1 and codes[-1] >> A.SHIFT in (A.V_PASS, A.V_DONE) and rng.random() < 0.9:
        codes = codes[:-1]
    modules = [c for c in codes if c >> A.SHIFT in _MODULE_VERBS]
    if modules and rng.random() < 0.8:
        return rng.choice(modules)
    ships = [c for c in codes if c >> A.SHIFT == A.V_SHIP]
    if ships and rng.random() < 0.75:
        return rng.choice(ships)
    sources = [c for c in codes if (c >> A.SHIFT, c & A.ARG) in _SHIP_SOURCES]
    if sources and rng.random() < 0.5:
        return rng.choice(sources)
    return rng.choice(codes)


def uniform(s: State, rng: random.Random) -> int:
    """A seeded uniformly random player."""
    return rng.choice(s.legal_codes())


def layout_digest() -> str:
    h = hashlib.sha256()
    for f in F.FIELDS:
        h.update(repr((f.name, f.kind, f.rows, f.labels, f.scale, f.doc, f.offset,
                       f.size)).encode())
    h.update(repr(F.SIZE).encode())
    return h.hexdigest()


def game_digest(config: GameConfig, cold_every: int = 7,
                encoder: Callable[[int], Any] | None = None,
                player: Callable[[State, random.Random], int] = uniform) -> tuple[str, int]:
    """The digest of one seeded random game's encodings, and its number of positions
    (``encoder``: what makes an observer's encoder, an object whose ``update(s)`` returns
    the vector as an ``array('f')``; the default, :class:`Encoder`; ``player`` chooses
    each action)."""
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
        s.apply_code(player(s, rng))
    return h.hexdigest(), k


def digest(games: int, verbose: bool = False) -> str:
    h = hashlib.sha256(layout_digest().encode())
    total = 0
    for name, config in configs(games):
        # every game played at random, those with rule modules also by a busy player
        for label, player in (("", uniform), ("busy ", busy)):
            if label and config.exploits == () and not config.options.get("silent_fleet"):
                continue
            d, k = game_digest(config, player=player)
            total += k
            if verbose:
                print(f"{d[:16]} {k:5d} {label}{name}")
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
