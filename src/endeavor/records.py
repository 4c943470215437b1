"""Game records and state serialization (one canonical, versioned format each).

A *record* is ``{"format": "endeavor-record", "version": 2, "config": {...},
"actions": ["start colonial-house", ...]}``: the config plus every action's notation.
:func:`replay` rebuilds the identical state.

A *state* JSON holds every field of a :class:`State`. :meth:`State.from_json` checks it
field by field (shape, ranges, every conservation invariant, each decision frame) and
then replays its ``history`` from setup: a state that its own history does not lead to
is rejected, so no state that no game can reach gets in. The one exception is a
position built by the test-support module (:mod:`endeavor.testing`), marked
``"built": true``, which is checked field by field only.

Version 1 (the engine before the rules object) is still read: a version-1 record or
state is migrated on load. Its config gets ``plus_same_region: true``, the "+" rule
it was played with (P5, before R23), so old records replay to the same game.

A state JSON is version 3 since its fields have readable names (``track_owner``,
``site_marks``, ``module_data``, a player's ``brown_tokens``...); a version-2 state
(``trk_owner``, ``smark``, ``exd``, ``btok``...) is migrated on load. Records keep
version 2: they never held those fields.
"""

from __future__ import annotations

import json
from typing import Any, Final

from . import actions as A
from . import data as D
from .config import GameConfig
from .data import REGION_STRIDE
from .errors import ConfigError, EndeavorError, IllegalActionError, NotationError, RecordError
from .frames import EFFECT_FLAGS, F_EFFECT, FL_MASK, PH_ACTIONS, PH_DISCARD, PH_END, PH_SETUP
from .rules.base import RULESETS, rules_for
from .rules.module import REGISTRY
from .rules.turns import TURN_OPEN
from .rules.words import region_words
from .state import Player, State, new_game

RECORD_FORMAT: Final = "endeavor-record"
STATE_FORMAT: Final = "endeavor-state"
VERSION: Final = 2
#: versions this engine reads (older ones are migrated)
READS: Final = (1, 2)
#: the version of the state JSON (the fields' readable names), and the versions read
STATE_VERSION: Final = 3
STATE_READS: Final = (1, 2, 3)
#: the state fields that version 3 renamed: version 2's name -> today's
_V2_FIELDS: Final = {"trk_owner": "track_owner", "trk_tok": "track_token",
                     "gov_avail": "region_governors", "bsupply": "building_supply",
                     "smark": "site_marks", "lmark": "link_marks", "exd": "module_data"}
#: the player fields that version 3 renamed
_V2_PLAYER_FIELDS: Final = {"btok": "brown_tokens", "mem": "base_discs",
                            "occ": "taken_circles"}
CONFIG_FIELDS: Final = ("players", "ruleset", "board", "exploits", "seed", "options")


def make_record(state: State) -> dict[str, Any]:
    return {"format": RECORD_FORMAT, "version": VERSION, "config": state.config.to_dict(),
            "actions": [a.text for a in state.history()]}


def _loads(text: Any, what: str) -> Any:
    """Parse JSON text, rejecting what is not text, not JSON, or absurdly deep."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"{what} is not UTF-8 text: {e}") from None
    if not isinstance(text, str):
        raise RecordError(f"{what} is not valid JSON: expected text, got "
                          f"{type(text).__name__}")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise RecordError(f"{what} is not valid JSON: {e}") from None


def _version(d: dict[str, Any], what: str, reads: tuple[int, ...] = READS) -> int:
    v = d.get("version")
    if type(v) is not int or v not in reads:
        raise RecordError(f"unsupported {what} version {v!r}; this engine reads versions "
                          f"{', '.join(map(str, reads))}")
    return v


def _migrate_config_v1(cfg: Any) -> Any:
    """A version-1 config was played with the classic "+" restriction (P5)."""
    if isinstance(cfg, dict):
        cfg = dict(cfg)
        opts = cfg.get("options")
        if isinstance(opts, dict) and "plus_same_region" not in opts:
            cfg["options"] = {**opts, "plus_same_region": True}
        elif opts is None:
            cfg["options"] = {"plus_same_region": True}
    return cfg


def replay(record: object, upto: int | None = None) -> State:
    """Rebuild the state a record describes (a dict, or its JSON as ``str`` or ``bytes``;
    optionally only its first ``upto`` actions). Raises :class:`RecordError` with the
    reason if the record is corrupt or not a record at all."""
    if isinstance(record, (str, bytes)):
        record = _loads(record, "record")
    if not isinstance(record, dict):
        raise RecordError("record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an endeavor record (format={record.get('format')!r})")
    version = _version(record, "record")
    cfg = record.get("config")
    if version == 1:
        cfg = _migrate_config_v1(cfg)
    try:
        config = GameConfig.from_dict(cfg)
    except (ConfigError, TypeError) as e:
        raise RecordError(f"bad config in record: {e}") from None
    acts = record.get("actions")
    if not isinstance(acts, list):
        raise RecordError("record has no 'actions' list")
    if upto is not None and (type(upto) is not int or upto < 0):
        raise RecordError(f"upto must be a non-negative int, got {upto!r}")
    state = new_game(config)
    for i, text in enumerate(acts if upto is None else acts[:upto]):
        try:
            state.apply_code(A.parse(text).code)
        except (NotationError, IllegalActionError) as e:
            raise RecordError(f"action #{i + 1} ({text!r}): {e}") from None
    return state


# --------------------------------------------------------------------------- state JSON
def state_dict(s: State) -> dict[str, Any]:
    """The state as a JSON-ready dict (the content of :meth:`State.to_json`)."""
    card = [c.code for c in D.CARDS]
    bld = [b.code for b in D.BUILDINGS]
    d: dict[str, Any] = {
        "format": STATE_FORMAT, "version": STATE_VERSION, "config": s.config.to_dict()}
    if s.origin is not None:
        d["built"] = True
    d.update({
        "players": [{
            "supply": pl.supply, "harbor": pl.harbor, "attr": pl.attr,
            "brown_tokens": pl.brown_tokens, "base_discs": pl.base_discs, "blue": pl.blue,
            "buildings": [bld[b] for b in pl.buildings], "taken_circles": pl.taken_circles,
            "cards": [card[c] for c in pl.cards],
            "gov": card[pl.gov] if pl.gov >= 0 else None,
            "aside": [card[c] for c in pl.aside]} for pl in s.players],
        "site_owner": s.site_owner, "site_token": s.site_token,
        "link_token": s.link_token, "track_owner": s.track_owner,
        "track_token": s.track_token,
        "sea": s.sea, "neutral_supply": s.neutral_supply,
        "decks": [[card[c] for c in dk] for dk in s.decks],
        "pile": [card[c] for c in s.pile], "removed": [card[c] for c in s.removed],
        "region_governors": [card[g] if g >= 0 else None for g in s.region_governors],
        "building_supply": {bld[b]: k for b, k in enumerate(s.building_supply) if k},
        "level5": [bld[b] for b in s.level5], "spent": s.spent,
        "abolished": s.abolished, "round": s.round, "step": s.step, "crown": s.crown,
        "act_player": s.act_player, "passed": s.passed, "phase": s.phase, "turn": s.turn,
        "stack": [list(f) for f in s.stack],
        "modules": [e.id for e in s.ex], "module_data": s.module_data,
        "site_marks": s.site_marks,
        "link_marks": s.link_marks,
        "history": [a.text for a in s.history()],
    })
    return d


def state_to_json(s: State) -> str:
    return json.dumps(state_dict(s), separators=(",", ":"))


def _ints(d: dict[str, Any], key: str, length: int, lo: int, hi: int) -> list[int]:
    v = d.get(key)
    if not isinstance(v, list) or len(v) != length:
        raise RecordError(f"field {key!r} must be a list of {length} ints")
    for x in v:
        if type(x) is not int or not lo <= x <= hi:
            raise RecordError(f"field {key!r} holds {x!r}, outside {lo}..{hi}")
    return list(v)


def _int(d: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if type(v) is not int or not lo <= v <= hi:
        raise RecordError(f"field {key!r} must be an int in {lo}..{hi}, got {v!r}")
    return v


def _cards(v: Any, key: str) -> list[int]:
    if not isinstance(v, list):
        raise RecordError(f"field {key!r} must be a list of card codes")
    out = []
    for c in v:
        if not isinstance(c, str) or c not in D.CARD_INDEX:
            raise RecordError(f"field {key!r}: unknown card {c!r}")
        out.append(D.CARD_INDEX[c])
    return out


def _blds(v: Any, key: str) -> list[int]:
    if not isinstance(v, list):
        raise RecordError(f"field {key!r} must be a list of building codes")
    out = []
    for b in v:
        if not isinstance(b, str) or b not in D.BUILDING_INDEX:
            raise RecordError(f"field {key!r}: unknown building {b!r}")
        out.append(D.BUILDING_INDEX[b])
    return out


def _migrate_state_v1(d: dict[str, Any]) -> dict[str, Any]:
    """Version 1 -> 2: the config's "+" rule, ``modules`` (was ``exploits``), the
    ``turn`` field, and each module's data layout."""
    d = dict(d)
    d["config"] = _migrate_config_v1(d.get("config"))
    if "modules" in d:
        raise RecordError("a version-1 state has no field 'modules'")
    d["modules"] = d.pop("exploits", None)
    stack = d.get("stack")
    in_turn = (d.get("phase") == PH_ACTIONS and isinstance(stack, list) and bool(stack)
               and type(d.get("act_player")) is int and d["act_player"] >= 0)
    d["turn"] = TURN_OPEN if in_turn else 0
    d["neutral_supply"] = []
    ids, exd, smark = d.get("modules"), d.get("exd"), d.get("smark")
    if (isinstance(ids, list) and isinstance(exd, list) and len(ids) == len(exd)
            and all(m in REGISTRY for m in ids) and isinstance(smark, list)):
        d["exd"] = [REGISTRY[m].migrate_v1(x, smark) if isinstance(x, list) else x
                    for m, x in zip(ids, exd, strict=True)]
    d["version"] = 2
    return d


def _renamed(d: dict[str, Any], names: dict[str, str], what: str) -> dict[str, Any]:
    """``d`` with its fields renamed by ``names`` (old -> new); a field already under
    its new name is an error (a version-2 state never had one)."""
    clash = sorted(set(names.values()) & set(d))
    if clash:
        raise RecordError(f"a version-2 {what} has no field {clash[0]!r}")
    return {names.get(k, k): v for k, v in d.items()}


def _migrate_state_v2(d: dict[str, Any]) -> dict[str, Any]:
    """Version 2 -> 3: the fields' readable names."""
    d = _renamed(d, _V2_FIELDS, "state")
    players = d.get("players")
    if isinstance(players, list):
        d["players"] = [_renamed(pd, _V2_PLAYER_FIELDS, "player") if isinstance(pd, dict)
                        else pd for pd in players]
    d["version"] = STATE_VERSION
    return d


def _no_checks(s: State) -> list[str]:
    return []


def state_from_json(text: object, trusted: bool = False) -> State:
    """:meth:`State.from_json` (``trusted``: no replay of the history, no consistency
    checks; the shape and ranges of the fields are checked all the same)."""
    from .invariants import check_invariants
    d = _loads(text, "state")
    if not isinstance(d, dict) or d.get("format") != STATE_FORMAT:
        raise RecordError("not an endeavor state (missing format 'endeavor-state')")
    version = _version(d, "state", STATE_READS)
    v1 = version == 1
    if v1:
        d = _migrate_state_v1(d)
    if version < STATE_VERSION:
        d = _migrate_state_v2(d)
    cfg = d.get("config")
    if not isinstance(cfg, dict):
        raise RecordError("config must be an object")
    missing = [k for k in CONFIG_FIELDS if k not in cfg]
    if missing:
        raise RecordError(f"config lacks field(s) {', '.join(missing)}: a state's config "
                          "names every setting")
    try:
        config = GameConfig.from_dict(cfg)
        s = _build(d, config, _no_checks if trusted and not v1 else check_invariants)
    except RecordError:
        raise
    except (EndeavorError, KeyError, TypeError, ValueError, IndexError, AttributeError,
            AssertionError) as e:
        raise RecordError(f"corrupt state: {type(e).__name__}: {e}") from None
    built = d.get("built", False)
    if built is not True and built is not False:
        raise RecordError("field 'built' must be true when present")
    if built:
        snap = s.copy()
        snap.origin = None
        s.origin = snap
        return s
    if trusted and not v1:
        return s
    return _check_history(s, v1)


def _check_history(s: State, v1: bool = False) -> State:
    """The state must be the one its history leads to from setup (no game can reach any
    other); returns the replayed state."""
    r = new_game(s.config)
    for k, a in enumerate(s.history()):
        if r.is_over:
            raise RecordError(f"history: action #{k + 1} ({a}) comes after the game ended")
        try:
            r.apply_code(a.code)
        except IllegalActionError as e:
            raise RecordError(f"history: action #{k + 1} ({a}) is illegal: {e}") from None
    mine, theirs = state_dict(s), state_dict(r)
    if v1:  # version 1 kept neither the kinds done this turn nor the effect's source
        for x in (mine, theirs):
            x["turn"] &= TURN_OPEN
            x["stack"] = [f[:EFFECT_FLAGS] + [f[EFFECT_FLAGS] & FL_MASK] if f[0] == F_EFFECT else f
                          for f in x["stack"]]
    if mine != theirs:
        field = next(k for k in mine if mine[k] != theirs.get(k))
        raise RecordError(f"the position does not follow from its history: field "
                          f"{field!r} differs from the game its history replays "
                          "(no game can reach this state)")
    return r


def _build(d: dict[str, Any], config: GameConfig, check: Any) -> State:
    n = config.players
    ids = d.get("modules")
    if not isinstance(ids, list) or any(not isinstance(e, str) or e not in REGISTRY
                                        for e in ids):
        raise RecordError("field 'modules' must list the ids of known rule modules")
    if len(set(ids)) != len(ids):
        raise RecordError("field 'modules' lists a module twice")
    exploits = tuple(m for m in ids if REGISTRY[m].is_exploit)
    if config.exploits == "random":
        if len(exploits) != 3:
            raise RecordError("a game with random Exploits has 3 of them in 'modules'")
    elif exploits != tuple(config.exploits):
        raise RecordError("field 'modules' does not match the config's Exploits")
    cls = RULESETS[config.ruleset]
    if tuple(ids) != cls.module_ids(config, exploits):
        raise RecordError("field 'modules' does not match the config")
    rules = rules_for(config, tuple(ids))
    info = rules.board
    discs = rules.discs
    s = State.__new__(State)
    s.config = config
    s.rules = rules
    s.n = n
    s.info = info
    s.ex = rules.modules
    s.ev = None
    s.origin = None
    players = d.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise RecordError(f"field 'players' must list {n} players")
    s.players = []
    for pd in players:
        if not isinstance(pd, dict):
            raise RecordError("each player must be an object")
        pl = Player(discs)
        pl.supply = _int(pd, "supply", 0, discs)
        pl.harbor = _int(pd, "harbor", 0, discs)
        pl.attr = _ints(pd, "attr", 4, 0, 999)
        pl.brown_tokens = _ints(pd, "brown_tokens", 4, 0, D.NTOKENS)
        pl.base_discs = _ints(pd, "base_discs", 4, 0, discs)
        pl.blue = _ints(pd, "blue", 4, 0, D.NTOKENS)
        pl.buildings = _blds(pd.get("buildings"), "buildings")
        pl.taken_circles = _int(pd, "taken_circles", 0, (1 << len(pl.buildings)) - 1)
        pl.cards = _cards(pd.get("cards"), "cards")
        g = pd.get("gov")
        pl.gov = -1 if g is None else _cards([g], "gov")[0]
        pl.aside = _cards(pd.get("aside"), "aside")
        extra = set(pd) - {"supply", "harbor", "attr", "brown_tokens", "base_discs", "blue",
                           "buildings", "taken_circles", "cards", "gov", "aside"}
        if extra:
            raise RecordError(f"unknown player field(s): {', '.join(sorted(extra))}")
        s.players.append(pl)
    owners = n + rules.neutrals
    s.site_owner = _ints(d, "site_owner", D.NSITES, -1, owners - 1)
    s.site_token = _ints(d, "site_token", D.NSITES, -1, 7)
    s.link_token = _ints(d, "link_token", info.nlinks, -1, 7)
    s.track_owner = _ints(d, "track_owner", info.ntrack, -1, owners - 1)
    s.track_token = _ints(d, "track_token", info.ntrack, -1, 7)
    s.sea = _ints(d, "sea", REGION_STRIDE * owners, 0, discs)
    s.neutral_supply = _ints(d, "neutral_supply", rules.neutrals, 0, discs)
    _derive_counters(s)
    decks = d.get("decks")
    if not isinstance(decks, list) or len(decks) != 8:
        raise RecordError("field 'decks' must list 8 decks")
    s.decks = [_cards(dk, "decks") for dk in decks]
    s.pile = _cards(d.get("pile"), "pile")
    s.removed = _cards(d.get("removed"), "removed")
    ga = d.get("region_governors")
    if not isinstance(ga, list) or len(ga) != 7:
        raise RecordError("field 'region_governors' must list 7 entries")
    s.region_governors = [-1 if g is None else _cards([g], "region_governors")[0] for g in ga]
    bs = d.get("building_supply")
    if not isinstance(bs, dict):
        raise RecordError("field 'building_supply' must map building codes to counts")
    s.building_supply = [0] * len(D.BUILDINGS)
    for code, k in bs.items():
        b = _blds([code], "building_supply")[0]
        if type(k) is not int or not 0 <= k <= 5:
            raise RecordError(f"field 'building_supply': bad count {k!r} for {code}")
        s.building_supply[b] = k
    s.level5 = tuple(_blds(d.get("level5"), "level5"))
    if (len(s.level5) != rules.level5_available or len(set(s.level5)) != len(s.level5)
            or any(b not in rules.level5_pool for b in s.level5)
            or list(s.level5) != sorted(s.level5)):
        raise RecordError(f"field 'level5' must name {rules.level5_available} different "
                          "level-5 buildings of the pool, in order")
    s.spent = _ints(d, "spent", 8, 0, D.NTOKENS)
    ab = d.get("abolished")
    if not isinstance(ab, bool):
        raise RecordError("field 'abolished' must be true or false")
    s.abolished = ab
    s.round = _int(d, "round", 0, rules.rounds)
    s.step = _int(d, "step", 0, 64)
    s.crown = _int(d, "crown", 0, n - 1)
    s.act_player = _int(d, "act_player", -1, n - 1)
    s.passed = _int(d, "passed", 0, (1 << n) - 1)
    s.phase = _int(d, "phase", 0, PH_END)
    s.turn = _int(d, "turn", 0, TURN_OPEN | 0xFF)
    s.stack = _frames(d, s)
    data = d.get("module_data")
    if (not isinstance(data, list) or len(data) != len(s.ex)
            or not all(isinstance(x, list) for x in data)):
        raise RecordError("field 'module_data' must hold one list of ints per module")
    s.module_data = [_ints({"module_data": x}, "module_data", len(x), -(1 << 20), 1 << 20)
                     for x in data]
    s.site_marks = _ints(d, "site_marks", D.NSITES, 0, 255)
    s.link_marks = _ints(d, "link_marks", info.nlinks, 0, 255)
    hist = d.get("history")
    if not isinstance(hist, list):
        raise RecordError("field 'history' must be a list of action notations")
    # built in a local: mypyc mis-types ``s.hist = (code, s.hist)`` in a loop (it checks
    # the attribute against mypy's narrowed type, a fixed depth of nested tuples)
    linked: tuple[Any, ...] | None = None
    for text in hist:
        try:
            a = A.parse(text)
        except NotationError as e:
            raise RecordError(f"history: {e}") from None
        linked = (a.code, linked)
    s.hist = linked
    s.nhist = len(hist)
    s._legal = None
    s._shm = None
    s._marks = None
    known = {"format", "version", "config", "built", "players", "site_owner", "site_token",
             "link_token", "track_owner", "track_token", "sea", "neutral_supply", "decks",
             "pile", "removed", "region_governors", "building_supply", "level5", "spent",
             "abolished", "round", "step", "crown", "act_player", "passed", "phase", "turn",
             "stack", "modules", "module_data", "site_marks", "link_marks", "history"}
    extra = set(d) - known
    if extra:
        raise RecordError(f"unknown state field(s): {', '.join(sorted(extra))}")
    problems = _position_problems(s) + check(s)
    if problems:
        raise RecordError("state fails consistency checks: " + "; ".join(problems[:5]))
    return s


def _derive_counters(s: State) -> None:
    """Presence, own-site, occupancy, free-site and filled-track counters from the discs."""
    info = s.info
    n = s.n
    s.filled = [sum(1 for x in s.track_owner[info.trk_off[r]:info.trk_off[r] + info.trk_len[r]]
                    if x >= 0) for r in range(7)]
    owners = n + s.rules.neutrals
    s.region_presence = [0] * (REGION_STRIDE * owners)
    s.owned_sites = [0] * (REGION_STRIDE * owners)
    s.occupied_sites = [0] * 7
    s.free_cities = [0] * 7
    s.free_routes = [0] * 7
    for x in info.sites:
        r = D.SITES[x].region
        o = s.site_owner[x]
        if D.SITES[x].code in D.TILE_SITES:  # tile cities: presence only (board.place)
            if o >= 0:
                s.region_presence[o * REGION_STRIDE + r] += 1
        elif o >= 0:
            s.region_presence[o * REGION_STRIDE + r] += 1
            s.owned_sites[o * REGION_STRIDE + r] += 1
            s.occupied_sites[r] += 1
        elif D.SITES[x].city:
            s.free_cities[r] += 1
        else:
            s.free_routes[r] += 1
    for r in range(7):
        for i in range(info.trk_off[r], info.trk_off[r] + info.trk_len[r]):
            if s.track_owner[i] >= 0:
                s.region_presence[s.track_owner[i] * REGION_STRIDE + r] += 1
        for p in range(owners):
            s.region_presence[p * REGION_STRIDE + r] += s.sea[p * REGION_STRIDE + r]


def _frames(d: dict[str, Any], s: State) -> list[tuple[int, ...]]:
    stack = d.get("stack")
    if not isinstance(stack, list):
        raise RecordError("field 'stack' must be a list of frames")
    types = s.rules.decisions
    out = []
    for f in stack:
        if (not isinstance(f, list) or not f or type(f[0]) is not int
                or not 0 <= f[0] < len(types) or len(f) != types[f[0]].length
                or not all(type(x) is int for x in f) or not 0 <= f[1] < s.n):
            raise RecordError(f"bad decision frame {f!r}")
        t = types[f[0]]
        for x, (lo, hi) in zip(f[2:], t.ranges, strict=True):
            if not lo <= x <= hi:
                raise RecordError(f"bad decision frame {f!r}: {x} is outside {lo}..{hi}")
        out.append(tuple(f))
    if (s.phase == PH_END) != (not out):
        raise RecordError("the decision stack must be empty exactly when the game is over")
    for f in out:
        t = types[f[0]]
        if s.phase not in t.phases:
            raise RecordError(f"decision frame {list(f)} cannot occur in phase {s.phase}")
        problem = t.check(s, f)
        if problem:
            raise RecordError(f"decision frame {list(f)}: {problem}")
    if s.phase != PH_END and s.step > len(s.rules.schedule(s.round)):
        raise RecordError(f"field 'step' {s.step} is past the end of the round's schedule")
    return out


def _position_problems(s: State) -> list[str]:
    """Facts every reachable position shares that the conservation checks do not see."""
    out = []
    rules = s.rules
    # a round-start decision (on_round_start) of round 1 comes before its first phase
    if (s.round == 0) != (s.phase == PH_SETUP) and not (s.round == 1 and s.step == 0):
        out.append(f"round {s.round} does not match phase {s.phase}")
    for r in range(1, 7):
        opened = s.filled[r] == s.info.trk_len[r]
        if opened == (s.region_governors[r] >= 0):
            out.append(f"{region_words(r, True)} is {'open' if opened else 'closed'} but its "
                       f"Governor is {'still available' if opened else 'gone'}")
        elif not opened and s.region_governors[r] != rules.governors[r]:
            out.append(f"the Governor of {region_words(r)} is not {region_words(r)}'s")
    if s.region_governors[0] >= 0:
        out.append("Europe has no Governor")
    if s.abolished:
        if s.decks[D.SLAVERY_DECK]:
            out.append("Slavery is abolished but the Slavery deck is still in play")
        if any(D.CARDS[c].deck == D.SLAVERY_DECK for pl in s.players for c in pl.cards):
            out.append("Slavery is abolished but a player still holds a Slavery card")
    elif any(D.ABOLITION_CARD in s.held_cards(p) for p in range(s.n)):
        out.append("a player holds the Europe 5 card but Slavery is not abolished")
    if s.phase == PH_ACTIONS and s.stack and s.act_player < 0:
        out.append("an Action-phase decision outside anyone's turn")
    if s.turn and (s.phase != PH_ACTIONS or s.act_player < 0):
        out.append("a turn is open outside the Action phase")
    if s.turn and not s.turn & TURN_OPEN:
        out.append("field 'turn' records actions of no open turn")
    if s.phase != PH_ACTIONS and s.passed and s.phase != PH_DISCARD:
        out.append("players marked as passed outside the Action phase")
    return out
