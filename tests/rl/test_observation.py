"""The observation encoder (endeavor.encoding.observation): one fixed-size float32
layout for every config, seat-rotated, incremental, documented field by field in
docs/rl.md; every field changes when, and only when, the state changes what it shows."""

from __future__ import annotations

import ast
import json
import math
import random
from importlib import machinery
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from endeavor import GameConfig, State, new_game  # noqa: E402
from endeavor import actions as A  # noqa: E402
from endeavor import data as D  # noqa: E402
from endeavor.encoding import features as F  # noqa: E402
from endeavor.encoding.observation import (  # noqa: E402
    OBSERVATION_VERSION,
    ObservationEncoder,
    describe,
    encode,
    layout_table,
    observation_size,
)

ROOT = Path(__file__).resolve().parents[2]

#: every ruleset, player count, option and module kind, each a seeded random game
CONFIGS = {
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


def _again(config: GameConfig) -> GameConfig:
    """Another game of the same setting (the same rules object): another seed."""
    return GameConfig(players=config.players, ruleset=config.ruleset, board=config.board,
                      exploits=config.exploits, seed=config.seed + 1000,
                      options=dict(config.options))


#: games of the same settings as some above
AGAIN = {f"{name}-again": _again(CONFIGS[name]) for name in ("classic-4p", "aos-4p-tiles",
                                                             "fleet")}
_GAMES: dict[str, list[State]] = {}
_MODULE_VERBS = range(A.V_EXPLOIT, A.V_EXPLOIT + 16 * A.EXPLOIT_VERBS)
_SHIP_SOURCES = frozenset(
    [(A.V_ACT, b) for b, bd in enumerate(D.BUILDINGS) if D.SHIP in (bd.kind1, bd.kind2)]
    + [(A.V_USE, t + 4) for t, (_, k1, k2) in enumerate(D.TOKEN_ACTIONS) if D.SHIP in (k1, k2)])


def choose(s: State, rng: random.Random) -> int:
    """A seeded random player that makes things happen: it ships (so regions open and
    Exploits activate), takes a module's action when one is offered, rarely passes or
    declines."""
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


def game(name: str) -> list[State]:
    """Every position of a seeded game of ``CONFIGS[name]`` (a copy each), played by
    :func:`choose`."""
    if name not in _GAMES:
        config = CONFIGS[name] if name in CONFIGS else AGAIN[name]
        s = new_game(config)
        rng = random.Random(config.seed)
        states = [s.copy()]
        while not s.is_over:
            s.apply_code(choose(s, rng))
            states.append(s.copy())
        _GAMES[name] = states
    return _GAMES[name]


def fresh(state: State, player: int) -> Any:
    """The observation encoded from scratch (no cache)."""
    return ObservationEncoder(player).encode(state)


def block(v: Any, field: F.Field) -> Any:
    return v[field.offset:field.offset + field.size]


def row(v: Any, field: F.Field, k: int) -> Any:
    w = field.width
    return v[field.offset + k * w:field.offset + (k + 1) * w]


# --------------------------------------------------------------------------- shape
def test_the_size_is_the_same_for_every_config_seat_and_position() -> None:
    sizes = {observation_size(c) for c in CONFIGS.values()}
    assert sizes == {F.SIZE}
    for name in ("classic-3p", "aos-5p-exploits", "fleet"):
        states = game(name)
        for s in states[::25]:
            for p in range(s.config.players):
                v = encode(s, p)
                assert v.dtype == np.float32 and v.shape == (F.SIZE,)


def test_the_fields_tile_the_vector_without_gaps() -> None:
    off = 0
    for f in F.FIELDS:
        assert f.offset == off, f
        assert f.kind in ("onehot", "bits", "count"), f
        assert f.scale >= 1
        off += f.size
    assert off == F.SIZE
    assert len({f.name for f in F.FIELDS}) == len(F.FIELDS)


def test_out_is_filled_in_place_and_bad_seats_are_refused() -> None:
    s = game("aos-4p-exploits")[40]
    out = np.full(F.SIZE, 7.0, dtype=np.float32)
    assert encode(s, 2, out=out) is out
    assert (out == fresh(s, 2)).all()
    enc = ObservationEncoder(2)
    live = enc.encode(s, copy=False)
    assert (live == out).all() and not live.flags.writeable
    with pytest.raises(ValueError):
        live[0] = 1.0
    with pytest.raises(ValueError):
        encode(s, 4)
    with pytest.raises(ValueError):
        encode(s, -1)


# --------------------------------------------------------------------------- values
def check_values(v: Any) -> None:
    """Finite, and each field within its documented range: onehot rows have at most one
    1, bits are 0 or 1, counts are k / scale for an integer 0 <= k <= MAX_COUNT."""
    assert np.isfinite(v).all()
    for f in F.FIELDS:
        b = block(v, f)
        if f.kind in ("onehot", "bits"):
            assert set(np.unique(b)) <= {0.0, 1.0}, f.name
            if f.kind == "onehot":
                assert (b.reshape(-1, f.width).sum(axis=1) <= 1).all(), f.name
        else:
            k = b.astype(np.float64) * f.scale
            assert (k >= 0).all() and (k <= F.MAX_COUNT + 1e-3).all(), f.name
            assert np.allclose(k, np.round(k), atol=1e-3), f.name


@pytest.mark.parametrize("name", list(CONFIGS))
def test_every_config_encodes_every_position_incrementally_as_from_scratch(
        name: str) -> None:
    """Every position of a seeded game, for every seat: the cached encoder (which writes
    only what changed since the seat's last observation) gives exactly the vector
    encoded from scratch, and it is in range."""
    states = game(name)
    n = states[0].config.players
    enc = [ObservationEncoder(p) for p in range(n)]
    step = 1 if len(states) < 400 else 2
    for k, s in enumerate(states[::step]):
        p = s.current_player if s.current_player is not None else k % n
        v = enc[p].encode(s)
        w = fresh(s, p)
        diff = [f.name for f in F.FIELDS if not (block(v, f) == block(w, f)).all()]
        assert not diff, (name, k, p, diff)
        if k % 10 == 0:
            check_values(v)


@pytest.mark.parametrize("name", ["aos-4p-exploits", "rare-fleet-limited"])
def test_a_state_changed_in_place_is_encoded_right(name: str) -> None:
    """The encoder keeps copies of what it read, never the state's own lists: one state
    played on in place is encoded as from scratch at every step, for every seat."""
    config = CONFIGS[name]
    s = new_game(config)
    rng = random.Random(config.seed)
    enc = [ObservationEncoder(p) for p in range(config.players)]
    while not s.is_over:
        for p in range(config.players):
            assert (enc[p].encode(s, copy=False) == fresh(s, p)).all()
        s.apply_code(choose(s, rng))


def test_one_encoder_serves_positions_of_any_game_in_any_order() -> None:
    """Positions of games of other settings, and of other games of the same setting
    (another seed: other level-5 buildings, decks, tokens), shuffled."""
    pool = [(s, p) for name in ("classic-4p", "aos-3p-tiles", "fleet-options", "aos-5p-tiles",
                                "classic-4p-again", "aos-4p-tiles", "aos-4p-tiles-again",
                                "fleet", "fleet-again")
            for s in game(name)[::30] for p in range(s.config.players)]
    random.Random(1).shuffle(pool)
    enc = [ObservationEncoder(p) for p in range(5)]
    for s, p in pool:
        assert (enc[p].encode(s) == fresh(s, p)).all()
        assert (encode(s, p) == enc[p].encode(s)).all()


# --------------------------------------------------------------------------- describe
def test_describe_reads_back_what_the_state_shows() -> None:
    for name in ("aos-4p-exploits", "classic-5p-by-player", "fleet-options"):
        states = game(name)
        s = states[len(states) // 2]
        n = s.config.players
        for p in range(n):
            d = describe(encode(s, p), s.config)

            def rel(seat: int | None, p: int = p, n: int = n) -> Any:
                if seat is None or seat < 0:
                    return None
                return "fleet" if seat >= n else (seat - p) % n
            assert d["game"]["ruleset"] == s.config.ruleset
            assert d["game"]["players"] == n
            assert d["game"]["modules"] == sorted(
                (m.id for m in s.modules), key=F.MODULE_IDS.index)
            assert d["turn"]["round"] == s.round
            assert d["turn"]["current"] == rel(s.current_player)
            assert d["turn"]["crown"] == rel(s.crown)
            assert d["turn"]["passed"] == sorted(rel(q) for q in range(n) if s.has_passed(q))
            for r in range(1, 7):
                code = D.REGION_CODES[r]
                owners = s.track(r)
                tokens = s.track_tokens(r)
                for k in range(F.MAX_TRACK):
                    o = d["tracks"]["owner"][f"{code}{k + 1}"]
                    t = d["tracks"]["token"][f"{code}{k + 1}"]
                    if k < len(owners):
                        assert o == rel(owners[k])
                        assert t == (D.TOKEN_CODES[tokens[k]] if tokens[k] >= 0 else None)
                    else:
                        assert o is None and t is None
                assert d["tracks"]["open"].count(code) == int(s.is_open(r))
                for q in range(s.owners):
                    assert d["sea"][rel(q)][code] == s.sea_discs(q, r)
            for x, site in enumerate(D.SITES):
                assert d["sites"]["owner"][site.code] == rel(s.site_owner[x])
            for dk in range(8):
                assert d["decks"]["count"][D.DECK_CODES[dk]] == len(s.decks[dk])
            assert d["cards"]["pile"] == [D.CARDS[c].code for c in sorted(s.pile)]
            for k in range(n):
                pl = s.players[(p + k) % n]
                assert d["mats"]["supply"][k] == pl.supply
                assert d["mats"]["harbor"][k] == pl.harbor
                assert list(d["mats"]["marker"][k].values()) == [
                    s.marker((p + k) % n, a) for a in range(4)]
                assert d["mats"]["level"][k]["influence"] == pl.level(D.INFLUENCE)
                assert d["mats"]["cards"][k] == [D.CARDS[c].code for c in sorted(pl.cards)]
                owned = d["mats"]["buildings"][k]
                assert sum(owned.values()) == len(pl.buildings)
                assert d["mats"]["governor"][k] == (
                    D.REGION_CODES[D.CARDS[pl.gov].deck] if pl.gov >= 0 else None)
            assert set(d["mats"]["supply"]) == set(range(n))


# --------------------------------------------------------------------------- seats
#: fields whose values are seats (relative to the observer)
SEAT_VALUED = {f.name for f in F.FIELDS
               if f.labels is F.SEAT_LABELS or f.labels is F.OWNER_LABELS} | {
    "south_sea_company.shares"}
#: fields with one row per seat
SEAT_ROWS = {f.name for f in F.FIELDS if f.rows is F.SEAT_LABELS}


def rotate(d: dict[str, Any], by: int, n: int) -> dict[str, Any]:
    """A description of observer q's vector turned into observer (q + by)'s: every seat
    value moves ``by`` seats back, every seat row too."""
    def seat(x: Any) -> Any:
        return (x - by) % n if isinstance(x, int) else x

    out: dict[str, Any] = {}
    for f in F.FIELDS:
        *path, leaf = f.name.split(".")
        src: Any = d
        node = out
        for part in path:
            src = src[part]
            node = node.setdefault(part, {})
        v = src[leaf]
        if f.name in SEAT_VALUED and f.kind == "count":
            v = dict(sorted((seat(k), x) for k, x in v.items()))
        elif f.name in SEAT_VALUED:
            if isinstance(v, dict):
                v = {k: sorted(map(seat, x)) if isinstance(x, list) else seat(x)
                     for k, x in v.items()}
            elif isinstance(v, list):
                v = sorted(map(seat, v))
            else:
                v = seat(v)
        if f.name in SEAT_ROWS:
            v = {seat(k): x for k, x in v.items()}
            v = dict(sorted(v.items()))
        if f.name in ("sea", "presence"):
            v = {seat(k): x for k, x in v.items()}
            v = dict(sorted(v.items(), key=str))
        if f.name == "decision.a" and d["decision"]["module"] == "letters_of_marque" \
                and d["decision"]["step"] == 0:
            a = sum(1 << b for b in v)
            v = [b for b in range(8) if seat(a) >> b & 1]
        node[leaf] = v
    return out


def get(d: dict[str, Any], name: str) -> Any:
    for part in name.split("."):
        d = d[part]
    return d


def differing(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The fields two descriptions disagree on."""
    return [f.name for f in F.FIELDS if get(a, f.name) != get(b, f.name)]


@pytest.mark.parametrize("name", ["aos-4p-exploits", "classic-3p", "fleet-options",
                                  "aos-4p-tiles", "aos-5p-tiles"])
def test_the_observer_is_always_seat_0(name: str) -> None:
    """Observer p's vector is observer 0's with every seat turned p places."""
    states = game(name)
    n = states[0].config.players
    for s in states[5::40]:
        base = describe(encode(s, 0), s.config)
        for p in range(1, n):
            mine = describe(encode(s, p), s.config)
            turned = rotate(base, p, n)
            assert not differing(mine, turned), [
                (x, get(mine, x), get(turned, x)) for x in differing(mine, turned)][:3]


def test_my_own_mat_is_row_0() -> None:
    states = game("aos-5p-exploits")
    s = states[len(states) // 2]
    for p in range(5):
        v = encode(s, p)
        f = F.FIELD["mats.supply"]
        assert row(v, f, 0)[0] * f.scale == pytest.approx(s.players[p].supply)
        assert describe(v)["turn"]["current"] == (s.current_player - p) % 5


# --------------------------------------------------------------------------- changes
def seat_field_keys(field: str) -> tuple[str, ...]:
    """The JSON fields of a player (``players[q]``) that a mats field shows."""
    return {"mats.supply": ("supply",), "mats.harbor": ("harbor",),
            "mats.marker": ("attr",), "mats.level": ("attr",), "mats.brown": ("brown_tokens",),
            "mats.discs_at_base": ("base_discs",), "mats.blue": ("blue",),
            "mats.buildings": ("buildings",), "mats.occupied": ("buildings", "taken_circles"),
            "mats.cards": ("cards",), "mats.governor": ("gov",), "mats.aside": ("aside",),
            "mats.present": ()}[field]


#: the state JSON fields each (non-mats) field shows; module fields show their "module_data"
SOURCES: dict[str, tuple[str, ...]] = {
    "turn.round": ("round",), "turn.phase": ("phase",), "turn.crown": ("crown",),
    "turn.current": ("stack",), "turn.active": ("act_player",), "turn.passed": ("passed",),
    "turn.kinds": ("turn",), "turn.abolished": ("abolished",), "turn.spent": ("spent",),
    "turn.pending": ("stack",),
    "tracks.open": ("track_owner",), "tracks.length": (), "tracks.owner": ("track_owner",),
    "tracks.token": ("track_token",),
    "sites.owner": ("site_owner",), "sites.token": ("site_token",), "sites.marks": ("site_marks",),
    "links.token": ("link_token",), "links.blockade": ("link_marks",),
    "links.control": ("site_owner", "link_marks"),
    "sea": ("sea",), "presence": ("site_owner", "track_owner", "sea"),
    "decks.count": ("decks",), "decks.top_value": ("decks",), "decks.top_deck": ("decks",),
    "cards.in_deck": ("decks",), "cards.pile": ("pile",), "cards.removed": ("removed",),
    "cards.governors": ("region_governors",), "buildings.supply": ("building_supply",),
    "fleet.supply": ("neutral_supply",),
    "exploits.active": ("track_owner",), "exploits.shield": ("track_owner", "site_owner", "sea"),
    "spanish_main.used": ("module_data.spanish_main", "round"),
}
#: JSON fields the vector does not show: the history, the phase driver's place in the
#: round's schedule (shown by the phase, the Crown and who decides), the setting
NOT_SHOWN = {"history", "step", "format", "version", "config", "modules", "level5", "built"}


def sources(field: F.Field) -> tuple[str, ...]:
    if field.name.startswith(("game.", "decision.")):
        return ("stack",) if field.name.startswith("decision.") else ()
    if field.name in SOURCES:
        return SOURCES[field.name]
    module = field.name.split(".")[0]
    assert module in F.MODULE_IDS, field.name
    return (f"module_data.{module}",)


#: rows of a field that show one item of a JSON list (row k <-> key[index(k)])
def row_items(s: State) -> dict[str, tuple[str, list[int]]]:
    trk = []
    for r in range(1, 7):
        o = s.rules.board.trk_off[r]
        trk += [o + k if k < len(s.track(r)) else -1 for k in range(F.MAX_TRACK)]
    sites = list(range(D.NSITES))
    links = list(range(F.MAX_LINKS))
    return {"tracks.owner": ("track_owner", trk), "tracks.token": ("track_token", trk),
            "sites.owner": ("site_owner", sites), "sites.token": ("site_token", sites),
            "sites.marks": ("site_marks", sites), "links.token": ("link_token", links),
            "links.blockade": ("link_marks", links)}


def changed_keys(a: dict[str, Any], b: dict[str, Any]) -> set[str]:
    """The JSON fields that differ: top-level names, ``module_data.<module>``,
    ``players.<q>.<f>``."""
    out = set()
    for k in a.keys() | b.keys():
        if a.get(k) == b.get(k):
            continue
        if k == "players":
            for q, (x, y) in enumerate(zip(a[k], b[k], strict=True)):
                out |= {f"players.{q}.{f}" for f in x if x[f] != y[f]}
        elif k == "module_data":
            out |= {f"module_data.{m}" for m, x, y in zip(a["modules"], a[k], b[k], strict=True)
                    if x != y}
        else:
            out.add(k)
    return out


def check_change(s0: State, s1: State, d0: dict[str, Any], d1: dict[str, Any],
                 p: int) -> None:
    """Observer p's vector changes in a field when, and only when, the state changes
    what the field shows (row by row for the mats and the board's lists)."""
    v0, v1 = fresh(s0, p), fresh(s1, p)
    keys = changed_keys(d0, d1)
    n = s0.config.players
    items = row_items(s0)
    shown: set[str] = set()  # the changed keys some changed field shows
    for f in F.FIELDS:
        if f.name in SEAT_ROWS and f.name.startswith("mats."):
            for k in range(F.SEATS):
                moved = not (row(v0, f, k) == row(v1, f, k)).all()
                src = {f"players.{(p + k) % n}.{x}" for x in seat_field_keys(f.name)} \
                    if k < n else set()
                if moved:
                    assert src & keys, (f.name, k, sorted(keys))
                    shown |= src & keys
            continue
        if f.name in items:
            key, index = items[f.name]
            for k, x in enumerate(index):
                moved = not (row(v0, f, k) == row(v1, f, k)).all()
                differs = x >= 0 and x < len(d0[key]) and d0[key][x] != d1[key][x]
                assert moved == differs, (f.name, f.rows[k], d0[key][x], d1[key][x])
                if moved:
                    shown.add(key)
            continue
        moved = not (block(v0, f) == block(v1, f)).all()
        if moved:
            src = set(sources(f))
            assert src & keys, (f.name, sorted(keys))
            shown |= src & keys
    missing = {k for k in keys - shown if is_shown(k)}
    assert not missing, (missing, sorted(keys))


def is_shown(key: str) -> bool:
    """Whether the vector shows a JSON field (:func:`changed_keys` names)."""
    if key.split(".")[0] in NOT_SHOWN:
        return False
    if key.startswith("module_data."):
        return key[4:] not in SILENT_TILES
    return True


#: modules with no tile data
SILENT_TILES = {"spice_trade", "globalisation", "letters_of_marque"}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_each_field_changes_when_and_only_when_the_state_changes_it(name: str) -> None:
    states = game(name)
    n = states[0].config.players
    dicts = [json.loads(s.to_json()) for s in states]
    for k in range(len(states) - 1):
        p = k % n
        check_change(states[k], states[k + 1], dicts[k], dicts[k + 1], p)


def test_the_games_reach_every_field() -> None:
    """Every field but the setting's changes somewhere in the games above (so the test
    above sees it change), seen by seat 0."""
    seen: set[str] = set()
    for name in CONFIGS:
        enc = ObservationEncoder(0)
        states = game(name)
        prev = enc.encode(states[0])
        for s in states[1:]:
            v = enc.encode(s)
            seen |= {f.name for f in F.FIELDS if not (block(v, f) == block(prev, f)).all()}
            prev = v
    fixed = {f.name for f in F.FIELDS if f.name.startswith("game.")} | {
        "tracks.length", "mats.present"}
    assert {f.name for f in F.FIELDS} - seen == fixed


def test_setting_fields_never_change_during_a_game() -> None:
    states = game("fleet-options")
    v0 = fresh(states[0], 1)
    for s in states[::20]:
        v = fresh(s, 1)
        for f in F.FIELDS:
            if f.name.startswith("game.") or f.name in ("tracks.length", "mats.present"):
                assert (block(v, f) == block(v0, f)).all(), f.name


def test_module_data_layouts_match_the_modules() -> None:
    """The encoder reads each module's ``module_data`` by its documented layout: the lengths
    every module sets up (n players) are the ones it expects."""
    expect = {"saltpeter_stockpiles": lambda n: 1 + 3 * n,
              "republic_of_pirates": lambda n: 3, "imperialism": lambda n: 1 + n,
              "spanish_main": lambda n: 3, "dutch_east_india_company": lambda n: 1,
              "jesuit_missionaries": lambda n: 1, "south_sea_company": lambda n: 13,
              "manila_galleons": lambda n: 11, "underground_railroad": lambda n: 5 + 4 * n,
              "transit_of_venus": lambda n: 41, "sun_never_sets": lambda n: n,
              "spice_trade": lambda n: 0, "globalisation": lambda n: 0,
              "letters_of_marque": lambda n: 0, "haitian_revolution": lambda n: 0,
              "silent_fleet": lambda n: 4 + len(D.BUILDINGS) + 7 * n}
    assert set(expect) == set(F.MODULE_IDS)
    for name in CONFIGS:
        s = game(name)[0]
        for m, data in zip(s.modules, s.module_data, strict=True):
            assert len(data) == expect[m.id](s.config.players), m.id


# --------------------------------------------------------------------------- docs, build
def test_docs_show_the_layout_of_this_version() -> None:
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert f"`OBSERVATION_VERSION = {OBSERVATION_VERSION}`" in text
    assert f"{F.SIZE} floats" in text
    assert layout_table() in text, "docs/rl.md: paste endeavor.encoding.observation.layout_table()"


def test_the_core_is_stdlib_only_so_the_compiled_build_needs_no_numpy() -> None:
    tree = ast.parse((ROOT / "src" / "endeavor" / "encoding" / "features.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert all(a.name in ("array",) for a in node.names), ast.unparse(node)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            assert node.module in ("__future__", "typing", "array"), node.module


def test_the_core_is_compiled_with_the_engine_and_the_numpy_glue_is_not() -> None:
    import endeavor
    import endeavor.encoding.observation as glue

    suffixes = tuple(machinery.EXTENSION_SUFFIXES)
    assert str(F.__file__).endswith(suffixes) == endeavor.COMPILED
    assert not str(glue.__file__).endswith(suffixes)


def test_counts_are_exact_and_scaled() -> None:
    s = game("aos-4p-exploits")[-1]
    v = encode(s, 0)
    f = F.FIELD["mats.supply"]
    assert math.isclose(float(row(v, f, 0)[0]), s.players[0].supply / f.scale, rel_tol=1e-6)
