"""Game records and state serialization (one canonical, versioned format each).

A *record* is ``{"format": "endeavor-record", "version": 1, "config": {...},
"actions": ["start colonial-house", ...]}``: the config plus every action's notation.
:func:`replay` rebuilds the identical state. A *state* JSON holds every field of a
:class:`State`; :meth:`State.from_json` validates it (shape, then every conservation
invariant) and rejects corrupt input with :class:`RecordError` naming the problem.
"""

from __future__ import annotations

import json
from typing import Any

from . import actions as A
from . import data as D
from . import exploits as EX
from .config import GameConfig
from .errors import ConfigError, EndeavorError, IllegalActionError, NotationError, RecordError
from .state import (
    _BOARD_INFO,
    F_ACTION,
    F_BUILD,
    F_CASUALTY,
    F_DISCARD,
    F_EFFECT,
    F_EXPLOIT,
    F_GOVSLOT,
    F_SALARY,
    F_START,
    PH_ACTIONS,
    PH_CONSTRUCTION,
    PH_DISCARD,
    PH_END,
    PH_GROWTH,
    PH_SALARY,
    PH_SETUP,
    Player,
    State,
    new_game,
)

RECORD_FORMAT = "endeavor-record"
STATE_FORMAT = "endeavor-state"
VERSION = 1
_FRAME_PHASES = {F_START: (PH_SETUP,), F_BUILD: (PH_CONSTRUCTION,), F_SALARY: (PH_SALARY,),
                 F_ACTION: (PH_ACTIONS,), F_EFFECT: (PH_ACTIONS,), F_CASUALTY: (PH_ACTIONS,),
                 F_GOVSLOT: (PH_DISCARD,), F_DISCARD: (PH_DISCARD,),
                 F_EXPLOIT: (PH_SETUP, PH_CONSTRUCTION, PH_GROWTH, PH_SALARY, PH_ACTIONS,
                             PH_DISCARD)}
_FRAME_LEN = {F_START: 2, F_BUILD: 2, F_SALARY: 3, F_ACTION: 2, F_EFFECT: 8,
              F_CASUALTY: 2, F_GOVSLOT: 2, F_DISCARD: 2, F_EXPLOIT: 6}
#: allowed ranges of the fields after the player: Salary payments left; Effect mode
#: (single, choice, both, second half), kinds, region restriction, deck restriction
_FRAME_RANGES = {F_SALARY: ((1, 5),),
                 F_EFFECT: ((0, 3), (0, 4), (-1, 4), (-1, D.NREGIONS - 1), (-1, D.PILE),
                            (0, 3)),
                 F_EXPLOIT: ((0, 2), (-1, 1 << 16), (-1, 1 << 16), (-1, 1 << 16))}


def make_record(state: State) -> dict[str, Any]:
    return {"format": RECORD_FORMAT, "version": VERSION, "config": state.config.to_dict(),
            "actions": [a.text for a in state.history()]}


def replay(record: dict[str, Any] | str, upto: int | None = None) -> State:
    """Rebuild the state a record describes (optionally only its first ``upto``
    actions). Raises :class:`RecordError` with the reason if the record is corrupt."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise RecordError(f"record is not valid JSON: {e}") from None
    if not isinstance(record, dict):
        raise RecordError("record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not an endeavor record (format={record.get('format')!r})")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}; "
                          f"this engine reads version {VERSION}")
    try:
        config = GameConfig.from_dict(record.get("config"))
    except (ConfigError, TypeError) as e:
        raise RecordError(f"bad config in record: {e}") from None
    acts = record.get("actions")
    if not isinstance(acts, list):
        raise RecordError("record has no 'actions' list")
    state = new_game(config)
    for i, text in enumerate(acts if upto is None else acts[:upto]):
        try:
            state.apply(A.parse(text))
        except (NotationError, IllegalActionError) as e:
            raise RecordError(f"action #{i + 1} ({text!r}): {e}") from None
    return state


def state_to_json(s: State) -> str:
    card = [c.code for c in D.CARDS]
    bld = [b.code for b in D.BUILDINGS]
    d: dict[str, Any] = {
        "format": STATE_FORMAT, "version": VERSION, "config": s.config.to_dict(),
        "players": [{
            "supply": pl.supply, "harbor": pl.harbor, "attr": pl.attr, "btok": pl.btok,
            "mem": pl.mem, "blue": pl.blue, "buildings": [bld[b] for b in pl.blds],
            "occ": pl.occ, "cards": [card[c] for c in pl.cards],
            "gov": card[pl.gov] if pl.gov >= 0 else None,
            "aside": [card[c] for c in pl.aside]} for pl in s.players],
        "site_owner": s.site_owner, "site_token": s.site_token,
        "link_token": s.link_token, "trk_owner": s.trk_owner, "trk_tok": s.trk_tok,
        "sea": s.sea,
        "decks": [[card[c] for c in dk] for dk in s.decks],
        "pile": [card[c] for c in s.pile], "removed": [card[c] for c in s.removed],
        "gov_avail": [card[g] if g >= 0 else None for g in s.gov_avail],
        "bsupply": {bld[b]: k for b, k in enumerate(s.bsupply) if k},
        "level5": [bld[b] for b in s.level5], "spent": s.spent,
        "abolished": s.abolished, "round": s.round, "step": s.step, "crown": s.crown,
        "act_player": s.act_player, "passed": s.passed, "phase": s.phase,
        "stack": [list(f) for f in s.stack],
        "exploits": [e.id for e in s.ex], "exd": s.exd, "smark": s.smark,
        "lmark": s.lmark,
        "history": [a.text for a in s.history()],
    }
    return json.dumps(d, separators=(",", ":"))


def _ints(d: dict[str, Any], key: str, length: int, lo: int, hi: int) -> list[int]:
    v = d.get(key)
    if not isinstance(v, list) or len(v) != length:
        raise RecordError(f"field {key!r} must be a list of {length} ints")
    for x in v:
        if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
            raise RecordError(f"field {key!r} holds {x!r}, outside {lo}..{hi}")
    return list(v)


def _int(d: dict[str, Any], key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RecordError(f"field {key!r} must be an int in {lo}..{hi}, got {v!r}")
    return v


def _cards(v: Any, key: str) -> list[int]:
    if not isinstance(v, list):
        raise RecordError(f"field {key!r} must be a list of card codes")
    out = []
    for c in v:
        if c not in D.CARD_INDEX:
            raise RecordError(f"field {key!r}: unknown card {c!r}")
        out.append(D.CARD_INDEX[c])
    return out


def _blds(v: Any, key: str) -> list[int]:
    if not isinstance(v, list):
        raise RecordError(f"field {key!r} must be a list of building codes")
    out = []
    for b in v:
        if b not in D.BUILDING_INDEX:
            raise RecordError(f"field {key!r}: unknown building {b!r}")
        out.append(D.BUILDING_INDEX[b])
    return out


def state_from_json(text: str) -> State:
    from .invariants import check_invariants
    try:
        d = json.loads(text)
    except (json.JSONDecodeError, TypeError) as e:
        raise RecordError(f"state is not valid JSON: {e}") from None
    if not isinstance(d, dict) or d.get("format") != STATE_FORMAT:
        raise RecordError("not an endeavor state (missing format 'endeavor-state')")
    if d.get("version") != VERSION:
        raise RecordError(f"unsupported state version {d.get('version')!r}; "
                          f"this engine reads version {VERSION}")
    try:
        config = GameConfig.from_dict(d.get("config"))
        return _build(d, config, check_invariants)
    except RecordError:
        raise
    except (EndeavorError, KeyError, TypeError, ValueError, IndexError, AttributeError,
            AssertionError) as e:
        raise RecordError(f"corrupt state: {type(e).__name__}: {e}") from None


def _build(d: dict[str, Any], config: GameConfig, check: Any) -> State:
    n = config.players
    ids = d.get("exploits")
    if not isinstance(ids, list) or len(ids) > 3 or any(e not in EX.REGISTRY for e in ids):
        raise RecordError("field 'exploits' must list up to 3 known Exploit ids")
    if not isinstance(config.exploits, str) and list(config.exploits) != ids:
        raise RecordError("field 'exploits' does not match the config")
    info = _BOARD_INFO[(str(config.board), "dutch_east_india_company" in ids)]
    s = State.__new__(State)
    s.config = config
    s.n = n
    s.info = info
    s.ex = tuple(EX.REGISTRY[e] for e in ids)
    players = d.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise RecordError(f"field 'players' must list {n} players")
    s.players = []
    for pd in players:
        if not isinstance(pd, dict):
            raise RecordError("each player must be an object")
        pl = Player()
        pl.supply = _int(pd, "supply", 0, D.DISCS_PER_PLAYER)
        pl.harbor = _int(pd, "harbor", 0, D.DISCS_PER_PLAYER)
        pl.attr = _ints(pd, "attr", 4, 0, 999)
        pl.btok = _ints(pd, "btok", 4, 0, 95)
        pl.mem = _ints(pd, "mem", 4, 0, D.DISCS_PER_PLAYER)
        pl.blue = _ints(pd, "blue", 4, 0, 95)
        pl.blds = _blds(pd.get("buildings"), "buildings")
        pl.occ = _int(pd, "occ", 0, (1 << max(len(pl.blds), 0)) - 1 if pl.blds else 0)
        pl.cards = _cards(pd.get("cards"), "cards")
        g = pd.get("gov")
        pl.gov = -1 if g is None else _cards([g], "gov")[0]
        pl.aside = _cards(pd.get("aside"), "aside")
        s.players.append(pl)
    s.site_owner = _ints(d, "site_owner", D.NSITES, -1, n - 1)
    s.site_token = _ints(d, "site_token", D.NSITES, -1, 7)
    s.link_token = _ints(d, "link_token", info.nlinks, -1, 7)
    s.trk_owner = _ints(d, "trk_owner", info.ntrack, -1, n - 1)
    s.trk_tok = _ints(d, "trk_tok", info.ntrack, -1, 7)
    s.sea = _ints(d, "sea", 7 * n, 0, D.DISCS_PER_PLAYER)
    s.filled = [sum(1 for x in s.trk_owner[info.trk_off[r]:info.trk_off[r] + info.trk_len[r]]
                    if x >= 0) for r in range(7)]
    s.pres = [0] * (7 * n)
    s.own = [0] * (7 * n)
    s.occ_sites = [0] * 7
    s.free_cities = [0] * 7
    s.free_routes = [0] * 7
    for x in info.sites:
        r = D.SITES[x].region
        o = s.site_owner[x]
        if D.SITES[x].code in D.TILE_SITES:  # tile cities: presence only (State._place)
            if o >= 0:
                s.pres[o * 7 + r] += 1
        elif o >= 0:
            s.pres[o * 7 + r] += 1
            s.own[o * 7 + r] += 1
            s.occ_sites[r] += 1
        elif D.SITES[x].city:
            s.free_cities[r] += 1
        else:
            s.free_routes[r] += 1
    for r in range(7):
        for i in range(info.trk_off[r], info.trk_off[r] + info.trk_len[r]):
            if s.trk_owner[i] >= 0:
                s.pres[s.trk_owner[i] * 7 + r] += 1
        for p in range(n):
            s.pres[p * 7 + r] += s.sea[p * 7 + r]
    decks = d.get("decks")
    if not isinstance(decks, list) or len(decks) != 8:
        raise RecordError("field 'decks' must list 8 decks")
    s.decks = [_cards(dk, "decks") for dk in decks]
    s.pile = _cards(d.get("pile"), "pile")
    s.removed = _cards(d.get("removed"), "removed")
    ga = d.get("gov_avail")
    if not isinstance(ga, list) or len(ga) != 7:
        raise RecordError("field 'gov_avail' must list 7 entries")
    s.gov_avail = [-1 if g is None else _cards([g], "gov_avail")[0] for g in ga]
    bs = d.get("bsupply")
    if not isinstance(bs, dict):
        raise RecordError("field 'bsupply' must map building codes to counts")
    s.bsupply = [0] * len(D.BUILDINGS)
    for code, k in bs.items():
        b = _blds([code], "bsupply")[0]
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 5:
            raise RecordError(f"field 'bsupply': bad count {k!r} for {code}")
        s.bsupply[b] = k
    s.level5 = tuple(_blds(d.get("level5"), "level5"))
    if len(s.level5) != D.LEVEL5_AVAILABLE or any(b not in D.LEVEL5_POOL for b in s.level5):
        raise RecordError("field 'level5' must name 3 level-5 buildings of the pool")
    s.spent = _ints(d, "spent", 8, 0, 95)
    ab = d.get("abolished")
    if not isinstance(ab, bool):
        raise RecordError("field 'abolished' must be true or false")
    s.abolished = ab
    s.round = _int(d, "round", 0, D.ROUNDS)
    s.step = _int(d, "step", 0, 64)
    s.crown = _int(d, "crown", 0, n - 1)
    s.act_player = _int(d, "act_player", -1, n - 1)
    s.passed = _int(d, "passed", 0, (1 << n) - 1)
    s.phase = _int(d, "phase", 0, PH_END)
    stack = d.get("stack")
    if not isinstance(stack, list):
        raise RecordError("field 'stack' must be a list of frames")
    s.stack = []
    for f in stack:
        if (not isinstance(f, list) or not f or f[0] not in _FRAME_LEN
                or len(f) != _FRAME_LEN[f[0]]
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in f)
                or not 0 <= f[1] < n):
            raise RecordError(f"bad decision frame {f!r}")
        for x, (lo, hi) in zip(f[2:], _FRAME_RANGES.get(f[0], ()), strict=True):
            if not lo <= x <= hi:
                raise RecordError(f"bad decision frame {f!r}: {x} is outside {lo}..{hi}")
        s.stack.append(tuple(f))
    if (s.phase == PH_END) != (not s.stack):
        raise RecordError("the decision stack must be empty exactly when the game is over")
    for f in s.stack:
        if s.phase not in _FRAME_PHASES[f[0]]:
            raise RecordError(f"decision frame {list(f)} cannot occur in phase {s.phase}")
    if s.step > len(s._schedule()):
        raise RecordError(f"field 'step' {s.step} is past the end of the round's schedule")
    if any(f[0] == F_EXPLOIT and f[2] >= len(s.ex) for f in s.stack):
        raise RecordError("an Exploit frame names an Exploit not in play")
    exd = d.get("exd")
    if (not isinstance(exd, list) or len(exd) != len(s.ex)
            or not all(isinstance(x, list) for x in exd)):
        raise RecordError("field 'exd' must hold one list of ints per Exploit")
    s.exd = [_ints({"exd": x}, "exd", len(x), -(1 << 20), 1 << 20) for x in exd]
    s.smark = _ints(d, "smark", D.NSITES, 0, 255)
    s.lmark = _ints(d, "lmark", info.nlinks, 0, 255)
    hist = d.get("history")
    if not isinstance(hist, list):
        raise RecordError("field 'history' must be a list of action notations")
    s.hist = None
    s.nhist = 0
    for text in hist:
        try:
            a = A.parse(text)
        except NotationError as e:
            raise RecordError(f"history: {e}") from None
        s.hist = (a.code, s.hist)
        s.nhist += 1
    s._legal = None
    problems = check(s)
    if problems:
        raise RecordError("state fails consistency checks: " + "; ".join(problems[:5]))
    return s
