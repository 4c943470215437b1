"""The position, the pending decision, the scores and the events as JSON for clients.

Pure functions of an engine :class:`~endeavor.state.State` (no web framework, no Rich):
the browser app draws the board and the mats from :func:`position`, offers the options
of :func:`decision_view` (each with the ids of the board or mat elements it is clicked
on, its ``targets``), shows :func:`scores_view` at the end and logs :func:`event_view`.

Only the engine's public API is read: :meth:`State.decision`, the read-only queries
(``marker``, ``presence``, ``is_open``, ``track``, ``track_tokens``, ``sea_discs``,
``has_passed``, ``held_cards``, ``over_card_limit``, ``governor_winner``,
``controls_link``, ``exploit_active``, ``has_shield``), the mats ``state.players[p]``,
the ruleset's tables ``state.rules`` and the component tables of :mod:`endeavor.data`.

Element ids (``id`` in the position, ``targets`` in the options; the front end puts
them in ``data-target``)::

    track:FE  city:EU3  route:EUT1  sea:FE  deck:AF  pile:SA/1  card:SA/1
    building:<seat>:<index>  supply:<building>  token:<seat>:<kind>  slot:<card>
    slot:none  link:EU1-IN1  exploit:<id>  pass  done

Every id an option names exists in the position (tested), so a client can highlight
exactly the elements some legal action is clicked on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

from .. import actions as A
from .. import data as D
from ..events import Event
from ..rules.module import RuleModule
from ..rules.words import icons_label
from ..rules.words import word_player as player_name
from ..scoring import final_scores
from ..state import State
from .effects import option_effects
from .guide import exploit_rule, shield_text

if TYPE_CHECKING:
    from .store import LogLine

JSON = dict[str, Any]

#: a short label per verb, for grouping the options in a menu
VERB_GROUPS: Final[dict[int, str]] = {
    A.V_START: "Start tile", A.V_BUILD: "Build", A.V_PAY: "Pay", A.V_ACT: "Activate",
    A.V_USE: "Use token", A.V_SHIP: "Ship", A.V_ROUTE: "Ship", A.V_SEA: "Ship",
    A.V_OCCUPY: "Occupy", A.V_ATTACK: "Attack", A.V_DRAW: "Draw", A.V_DRAWP: "Draw",
    A.V_CASUALTY: "Casualty", A.V_SLOT: "Governor slot", A.V_DISCARD: "Discard",
    A.V_DONE: "Done", A.V_PASS: "Pass",
}
_KIND_WORDS: Final = ("Ship", "Occupy", "Attack", "Payment", "Draw")
_SITE_CODES: Final = frozenset(s.code for s in D.SITES)
_CARD_CODES: Final = frozenset(c.code for c in D.CARDS)
_REGION_INDEX: Final = {c: i for i, c in enumerate(D.REGION_CODES)}
_DECK_INDEX: Final = {c: i for i, c in enumerate(D.DECK_CODES)}


# =========================================================================== small parts
def _owner(state: State, p: int) -> int | None:
    """A disc owner as JSON: the seat, a neutral colour's owner number, or None."""
    return p if p >= 0 else None


def _attribute_names(state: State) -> tuple[str, ...]:
    """The four attribute names of the ruleset (2009: Finance, Politics)."""
    return tuple(state.rules.token_names[:4])


def _token(state: State, t: int) -> JSON | None:
    """A Trade token type as JSON (None for -1): code, name in the ruleset's words, and
    whether it is a brown (attribute) or blue (action) token."""
    if t < 0:
        return None
    cache = _per_rules(state)
    entry: JSON | None = cache.get(("token", t))
    if entry is None:
        entry = cache.setdefault(("token", t), {
            "kind": D.TOKEN_CODES[t], "name": state.rules.token_names[t],
            "colour": "brown" if t < 4 else "blue"})
    return dict(entry)  # a fresh copy: callers add to it


def _icons_words(state: State, icons: tuple[int, int, int, int], glory: int) -> str:
    """``(0, 2, 0, 1)``, glory 1 -> ``"Culture 2, Influence 1, 1 glory"``."""
    names = _attribute_names(state)
    parts = [f"{names[k]} {icons[k]}" for k in range(4) if icons[k]]
    if glory:
        parts.append(f"{glory} glory")
    return ", ".join(parts)


def _per_rules(state: State) -> dict[Any, Any]:
    """A cache of what depends only on the ruleset's tables (``state.rules``: one object
    shared by every game of a ruleset): cards and buildings in JSON, each built once."""
    cache = _RULES_CACHE.get(state.rules)
    if cache is None:
        cache = _RULES_CACHE.setdefault(state.rules, {})
    return cache


#: ``state.rules`` -> its cache (a handful of rulesets: kept for the process's life)
_RULES_CACHE: dict[Any, dict[Any, Any]] = {}


def _per_board(state: State) -> dict[Any, Any]:
    """A cache of what depends only on the board side's tables (``state.info``, shared
    by every game on that side): the cities of each region, the links' ends."""
    cache = _BOARD_CACHE.get(state.info)
    if cache is None:
        cache = _BOARD_CACHE.setdefault(state.info, {})
    return cache


#: ``state.info`` -> its cache (a handful of board sides: kept for the process's life)
_BOARD_CACHE: dict[Any, dict[Any, Any]] = {}


def clear_caches() -> None:
    """Forget the per-ruleset and per-board caches (the next view builds them afresh)."""
    _RULES_CACHE.clear()
    _BOARD_CACHE.clear()


def card_json(state: State, c: int) -> JSON:
    """An Asset card (or Governor): code, deck, value, icons, glory, what it gives."""
    cache = _per_rules(state)
    entry: JSON | None = cache.get(("card", c))
    if entry is None:
        entry = cache.setdefault(("card", c), _card_json(state, c))
    # a fresh copy: callers add to it (an ``id``), and nobody shares the icons
    out = dict(entry)
    out["icons"] = dict(entry["icons"])
    return out


def _card_json(state: State, c: int) -> JSON:
    card = state.rules.cards[c]
    names = _attribute_names(state)
    return {
        "code": card.code, "deck": D.DECK_CODES[card.deck],
        "deck_name": D.DECK_NAMES[card.deck],
        "value": None if card.governor else card.value,
        "governor": card.governor, "slavery": card.deck == D.SLAVERY_DECK,
        "abolition": card.abolition,
        "icons": {names[k].lower(): card.icons[k] for k in range(4)},
        "glory": card.glory, "short": icons_label(card.icons, card.glory),
        "gives": _icons_words(state, card.icons, card.glory) or "nothing",
        "bonus_disc": bool(state.rules.card_bonus[c]),
    }


def building_does(state: State, b: int) -> str:
    """What a building does, in words: its action(s) and the icons and glory it gives."""
    bd = state.rules.buildings[b]
    parts: list[str] = []
    if bd.kind1 >= 0:
        k1 = _KIND_WORDS[bd.kind1]
        if bd.kind2 < 0:
            parts.append(f"{k1} action")
        elif bd.mode == D.CHOICE:
            parts.append(f"{k1} or {_KIND_WORDS[bd.kind2]}")
        else:
            parts.append(f"{k1} + {_KIND_WORDS[bd.kind2]}")
    gives = _icons_words(state, bd.icons, bd.glory)
    if gives:
        parts.append(gives)
    return "; ".join(parts) or "no action"


def _building(state: State, b: int) -> JSON:
    cache = _per_rules(state)
    entry: JSON | None = cache.get(("building", b))
    if entry is None:
        bd = state.rules.buildings[b]
        entry = cache.setdefault(("building", b), {
            "code": bd.code, "name": bd.name, "level": bd.level,
            "activatable": bd.activatable, "does": building_does(state, b),
            "icons": icons_label(bd.icons, bd.glory)})
    return dict(entry)  # a fresh copy: callers add to it


def _next_level_at(score: int) -> int | None:
    """The track score at which the level next goes up (None at level 5)."""
    try:
        return _NEXT_LEVEL[score]
    except KeyError:
        pass
    return _NEXT_LEVEL.setdefault(score, _find_next_level(score))


#: score -> :func:`_next_level_at` (a pure function of the score)
_NEXT_LEVEL: dict[int, int | None] = {}


def _find_next_level(score: int) -> int | None:
    level = D.track_level(score)
    for s in range(score + 1, len(D.TRACK_LEVEL)):
        if D.TRACK_LEVEL[s] > level:
            return s
    return None


def _next_glory_at(state: State, score: int) -> int | None:
    """The next track score with more end-game glory than ``score`` (None at the top of
    a capped track)."""
    cap = state.rules.track_cap
    try:
        return _NEXT_GLORY[cap, score]
    except KeyError:
        pass
    return _NEXT_GLORY.setdefault((cap, score), _find_next_glory(cap, score))


#: (track cap, score) -> :func:`_next_glory_at` (a pure function of them)
_NEXT_GLORY: dict[tuple[int, int], int | None] = {}


def _find_next_glory(cap: int, score: int) -> int | None:
    here = D.track_glory(min(score, cap))
    s = score + 1
    while s <= min(cap, 40):
        if D.track_glory(s) > here:
            return s
        s += 1
    return None


# =========================================================================== the board
def _site(state: State, s: int) -> JSON:
    static = _SITE_STATIC.get(s)
    if static is None:
        site = D.SITES[s]
        kind = "city" if site.city else "route"
        static = _SITE_STATIC.setdefault(s, (f"{kind}:{site.code}", site.code, site.name,
                                             kind, site.glory, site.code in D.TILE_SITES))
    owner = state.site_owner[s]
    return {"id": static[0], "code": static[1], "name": static[2], "kind": static[3],
            "glory": static[4], "tile": static[5], "owner": owner if owner >= 0 else None,
            "token": _token(state, state.site_token[s])}


#: site -> what its JSON always holds (id, code, name, kind, glory, tile)
_SITE_STATIC: dict[int, tuple[str, str, str, str, int, bool]] = {}


def _deck(state: State, d: int) -> JSON:
    deck = state.decks[d]
    return {"id": f"deck:{D.DECK_CODES[d]}", "code": D.DECK_CODES[d],
            "name": D.DECK_NAMES[d], "size": len(deck),
            "top": card_json(state, deck[-1]) if deck else None}


def _governor(state: State, r: int, held: list[list[int]] | None = None) -> JSON | None:
    """The region's Governor card: beside its deck (and who would win it now), held by a
    player, or out of the game."""
    g = state.rules.governors[r]
    if g < 0:
        return None
    holder: int | None = None
    if held is None:
        held = [state.held_cards(p) for p in range(state.n)]
    for p in range(state.n):
        if g in held[p]:
            holder = p
    if state.region_governors[r] >= 0:
        where = "board"
    elif holder is not None:
        where = "player"
    else:
        where = "gone"
    winner = state.governor_winner(r) if where == "board" else -1
    return {"card": card_json(state, g), "where": where, "holder": holder,
            "winner": winner if winner >= 0 else None}


def _region(state: State, r: int, held: list[list[int]] | None = None) -> JSON:
    """A region (``held``: each player's :meth:`State.held_cards`, if known)."""
    info = state.info
    code = D.REGION_CODES[r]
    board = _per_board(state)
    cities: list[int] | None = board.get(("cities", r))
    if cities is None:
        cities = board.setdefault(("cities", r), [
            s for s in info.sites if D.SITES[s].region == r and D.SITES[s].city])
    out: JSON = {
        "id": code, "name": D.REGION_NAMES[r], "open": state.is_open(r),
        "cities": [_site(state, s) for s in cities],
        "routes": [_site(state, s) for s in info.routes_in[r]],
        "presence": [state.presence(p, r) for p in range(state.owners)],
        "governor": _governor(state, r, held),
    }
    if r == D.EUROPE:
        out["track"] = None
        out["sea"] = None
        out["decks"] = [_deck(state, D.EU_DECK), _deck(state, D.SLAVERY_DECK)]
        out["abolished"] = state.abolished
        return out
    owners = state.track(r)
    tokens = state.track_tokens(r)
    out["track"] = {
        "id": f"track:{code}", "length": len(owners),
        "filled": sum(1 for o in owners if o >= 0),
        # far from the deck first (space 1 is the nearest to the sea lane's start)
        "spaces": [{"space": len(owners) - i, "owner": _owner(state, o),
                    "token": _token(state, t)}
                   for i, (o, t) in enumerate(zip(owners, tokens, strict=True))],
    }
    out["sea"] = {
        "id": f"sea:{code}",
        "label": "beside the track" if state.config.ruleset == "classic" else "open sea",
        "discs": [{"owner": p, "count": state.sea_discs(p, r)}
                  for p in range(state.owners) if state.sea_discs(p, r)],
    }
    out["decks"] = [_deck(state, r)]
    out["abolished"] = False
    return out


def _links(state: State) -> list[JSON]:
    cache = _per_board(state)
    static: list[tuple[int, int, str, str, str, bool]] | None = cache.get("links")
    if static is None:
        board = state.info.board
        static = cache.setdefault("links", [
            (x, y, f"link:{D.SITES[x].code}-{D.SITES[y].code}", D.SITES[x].code,
             D.SITES[y].code, bool(board.link_circular[li]))
            for li, (x, y) in enumerate(board.links)])
    owners = state.site_owner
    tokens = state.link_token
    out = []
    for li, (x, y, lid, a, b, circular) in enumerate(static):
        # only the seat holding both ends can control a link
        p = owners[x]
        controller = p if 0 <= p < state.n and owners[y] == p and \
            state.controls_link(p, li) else None
        out.append({"id": lid, "a": a, "b": b, "circular": circular,
                    "token": _token(state, tokens[li]), "controller": controller})
    return out


def _supply(state: State) -> list[JSON]:
    """The buildings of the supply (levels 1-4 and the level-5 buildings in play)."""
    rules = state.rules
    kinds = list(rules.base_supply) + [b for b in state.level5 if b not in rules.base_supply]
    out = []
    for b in sorted(kinds, key=lambda b: (rules.buildings[b].level, b)):
        entry = _building(state, b)
        entry["id"] = f"supply:{entry['code']}"
        entry["count"] = state.building_supply[b]
        out.append(entry)
    return out


def _start_tiles(state: State) -> list[JSON]:
    """The start tiles on offer during setup (Age of Sail's choice, R3), else []."""
    starts = state.rules.start_buildings
    if state.round != 0 or len(starts) < 2 or state.is_over:
        return []
    out = []
    for b in starts:
        entry = _building(state, b)
        entry["id"] = f"supply:{entry['code']}"
        out.append(entry)
    return out


def _modules(state: State) -> tuple[list[JSON], list[JSON]]:
    """The Exploits in play and the variants (the Silent Fleet)."""
    exploits: list[JSON] = []
    variants: list[JSON] = []
    for i, m in enumerate(state.modules):
        text = " ".join(m.describe(state, i).split())
        if not m.is_exploit:
            variants.append({"id": f"exploit:{m.id}", "name": m.name, "text": text})
            continue
        exploits.append({
            "id": f"exploit:{m.id}", "key": m.id, "number": m.number, "name": m.name,
            "regions": [D.REGION_CODES[r] for r in m.regions],
            "active": state.exploit_active(i),
            "shields": [p for p in range(state.n) if state.has_shield(p, i)],
            "text": text,
            "rule": exploit_rule(m.id), "shield": shield_text(m.id),
        })
    return exploits, variants


# =========================================================================== the mats
def _mat(state: State, p: int, glory: int) -> JSON:
    pl = state.players[p]
    names = _attribute_names(state)
    buildings = []
    for i, b in enumerate(pl.buildings):
        entry = _building(state, b)
        entry["id"] = f"building:{p}:{i}"
        entry["index"] = i
        entry["worker"] = bool(pl.taken_circles >> i & 1)
        buildings.append(entry)
    attributes = []
    for k in range(4):
        score = pl.attr[k]
        marker = state.marker(p, k)
        attributes.append({
            "key": D.ATTRIBUTES[k], "name": names[k], "score": score, "marker": marker,
            "level": pl.level(k), "next_level_at": _next_level_at(marker),
            "glory": D.track_glory(marker), "next_glory_at": _next_glory_at(state, marker),
        })
    cards = []
    for c in pl.cards:
        entry = card_json(state, c)
        entry["id"] = f"card:{entry['code']}"
        cards.append(entry)
    gov = None
    if pl.gov >= 0:
        gov = card_json(state, pl.gov)
        gov["id"] = f"card:{gov['code']}"
    slot_choices: list[JSON] = [{"id": f"slot:{D.CARDS[c].code}", "card": D.CARDS[c].code}
                    for c in state.held_cards(p) if D.CARDS[c].governor]
    if state.current_player == p:
        slot_choices.append({"id": "slot:none", "card": None})
    tokens = []
    for t in range(8):
        count = pl.brown_tokens[t] if t < 4 else pl.blue[t - 4]
        token = _token(state, t)
        if count and token is not None:
            token["id"] = f"token:{p}:{D.TOKEN_CODES[t]}"
            token["count"] = count
            tokens.append(token)
    limit = min(pl.level(D.INFLUENCE), state.rules.max_cards)
    return {
        "seat": p, "name": player_name(p),
        "crown": state.crown == p, "to_move": state.current_player == p,
        "passed": state.has_passed(p), "glory_now": glory,
        "buildings": buildings, "harbor": pl.harbor, "supply": pl.supply,
        "attributes": attributes,
        "cards": cards, "governor_slot": gov, "slot_choices": slot_choices,
        "card_limit": limit, "card_slots": state.rules.max_cards,
        "card_count": len(pl.cards), "over_limit": state.over_card_limit(p),
        "tokens": tokens,
        "on_tracks": {D.ATTRIBUTES[k]: pl.base_discs[k] for k in range(4) if pl.base_discs[k]},
        "aside": [card_json(state, c) for c in pl.aside],
    }


# =========================================================================== position
def position(state: State) -> JSON:
    """Everything a client needs to draw the board and the mats, with human names.

    Keys: ``ruleset``, ``title``, ``board`` (side), ``round``, ``rounds``, ``phase``,
    ``crown``, ``current_player``, ``over``, ``attributes`` (the four names),
    ``regions``, ``links``, ``pile``, ``supply``, ``start_tiles``, ``level5``,
    ``exploits``, ``variants``, ``players``, ``neutral``. Every clickable element has an
    ``id`` (see the module docstring)."""
    scores = final_scores(state)
    exploits, variants = _modules(state)
    held = [state.held_cards(p) for p in range(state.n)]
    pile = []
    for c in state.pile:
        entry = card_json(state, c)
        entry["id"] = f"pile:{entry['code']}"
        pile.append(entry)
    neutral = [{"owner": state.n + k, "name": "Silent Fleet", "short": "SF",
                "supply": state.neutral_supply[k]} for k in range(state.rules.neutrals)]
    return {
        "ruleset": state.config.ruleset, "title": state.rules.title,
        "board": state.info.side, "players_count": state.n,
        "round": state.round, "rounds": state.rules.rounds, "phase": state.phase_name,
        "crown": state.crown, "current_player": state.current_player,
        "over": state.is_over,
        "attributes": list(_attribute_names(state)),
        "regions": [_region(state, r, held) for r in range(D.NREGIONS)],
        "links": _links(state),
        "pile": pile,
        "supply": _supply(state),
        "start_tiles": _start_tiles(state),
        "level5": [state.rules.buildings[b].code for b in state.level5],
        "exploits": exploits, "variants": variants,
        "players": [_mat(state, p, scores[p].total) for p in range(state.n)],
        "neutral": neutral,
        "pass": {"id": "pass"}, "done": {"id": "done"},
    }


def element_ids(pos: JSON) -> set[str]:
    """Every element id in a :func:`position` (the ``id`` values at any depth)."""
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            v = x.get("id")
            if isinstance(v, str):
                out.add(v)
            for y in x.values():
                walk(y)
        elif isinstance(x, list):
            for y in x:
                walk(y)

    walk(pos)
    return out


# =========================================================================== decision
def _module_of(state: State, action: A.Action) -> RuleModule | None:
    for m in state.modules:
        if m.owns(action.code):
            return m
    return None


def group_of(state: State, action: A.Action) -> str:
    """A short label for the option's verb: Build, Activate, Use token, Ship, ..., or
    the name of the Exploit (or variant) whose action it is."""
    label = VERB_GROUPS.get(action.verb)
    if label is not None:
        return label
    m = _module_of(state, action)
    if m is None:
        return "Other"
    if m.id == "silent_fleet":
        return "Building shortage" if action.text.startswith("shortage") else "Silent Fleet"
    return m.name


def _mat_buildings(state: State, p: int, code: str, worker: bool | None) -> list[str]:
    """Ids of ``p``'s buildings of type ``code``; those with (``worker=True``) or
    without (False) a worker first, all of them if none matches."""
    pl = state.players[p]
    idx = [i for i, b in enumerate(pl.buildings) if state.rules.buildings[b].code == code]
    if worker is not None:
        pref = [i for i in idx if bool(pl.taken_circles >> i & 1) == worker]
        if pref:
            idx = pref
    return [f"building:{p}:{i}" for i in idx]


def _card_place(state: State, p: int, code: str) -> list[str]:
    """Where a card named in an action lies: in ``p``'s hand, the discard pile, or on
    top of a deck."""
    c = D.CARD_INDEX[code]
    if c in state.held_cards(p):
        return [f"card:{code}"]
    if c in state.pile:
        return [f"pile:{code}"]
    for d, deck in enumerate(state.decks):
        if deck and deck[-1] == c:
            return [f"deck:{D.DECK_CODES[d]}"]
    return []


def _site_target(code: str) -> str:
    return f"city:{code}" if D.SITES[D.SITE_INDEX[code]].city else f"route:{code}"


def _word_targets(state: State, p: int, words: list[str]) -> Iterator[str]:
    """Targets named by the words of a module's action (Exploits, the Silent Fleet):
    sites, regions (a track, or an open sea after ``sea``; Europe's deck), decks after
    ``draw``, cards, buildings (on the mat, else in the supply), tokens, links."""
    prev = ""
    for w in words:
        up = w.upper()
        if up in _SITE_CODES and D.SITE_INDEX[up] in state.info.site_set:
            yield _site_target(up)
        elif prev == "draw" and up in _DECK_INDEX:
            yield f"deck:{up}"
        elif up in _REGION_INDEX:
            r = _REGION_INDEX[up]
            if r == D.EUROPE:
                yield "deck:EU"
            elif prev == "sea":
                yield f"sea:{up}"
            else:
                yield f"track:{up}"
        elif up in _CARD_CODES:
            yield from _card_place(state, p, up)
        elif w in D.BUILDING_INDEX:
            on_mat = _mat_buildings(state, p, w, None)
            if on_mat:
                yield from on_mat
            elif w in {s["code"] for s in _supply(state)}:
                yield f"supply:{w}"
        elif w in D.TOKEN_CODES and D.TOKEN_CODES.index(w) >= 4:
            t = D.TOKEN_CODES.index(w)
            if state.players[p].blue[t - 4]:
                yield f"token:{p}:{w}"
        elif "-" in w and all(x.upper() in _SITE_CODES for x in w.split("-")):
            a, b = (x.upper() for x in w.split("-"))
            yield f"link:{a}-{b}"
        prev = w


def targets_of(state: State, action: A.Action, p: int) -> list[str]:
    """The ids of the elements where ``p`` clicks to take ``action`` (see the module
    docstring); [] when it has no element (it stays reachable from the option list)."""
    verb = action.verb
    words = action.text.split()
    arg = words[-1] if len(words) > 1 else ""
    out: list[str]
    if verb == A.V_START:
        out = [f"supply:{arg}"]
    elif verb == A.V_BUILD:
        out = [f"supply:{arg}"]
    elif verb == A.V_PAY:
        out = _mat_buildings(state, p, arg, True)
    elif verb == A.V_ACT:
        out = _mat_buildings(state, p, arg, False)
    elif verb == A.V_USE:
        out = [f"token:{p}:{arg}"]
    elif verb == A.V_SHIP:
        out = [f"track:{arg}"]
    elif verb == A.V_SEA:
        out = [f"sea:{arg}"]
    elif verb in (A.V_ROUTE, A.V_OCCUPY, A.V_ATTACK):
        out = [_site_target(arg)]
    elif verb == A.V_DRAW:
        out = [f"deck:{arg}"]
    elif verb == A.V_DRAWP:
        out = [f"pile:{arg}"]
    elif verb == A.V_SLOT:
        out = [f"slot:{arg}"] if arg != "none" else ["slot:none"]
    elif verb == A.V_DISCARD:
        out = [f"card:{arg}"]
    elif verb == A.V_CASUALTY:
        out = []
    elif verb == A.V_PASS:
        out = ["pass"]
    elif verb == A.V_DONE:
        out = ["done"]
    else:
        m = _module_of(state, action)
        out = list(dict.fromkeys(_word_targets(state, p, words[1:])))
        if m is not None and m.is_exploit:
            out.append(f"exploit:{m.id}")
    return out


def decision_view(state: State, seats: list[int] | tuple[int, ...] | set[int]) -> JSON | None:
    """The pending decision for a client playing ``seats``: who decides, its kind, the
    prompt, the same in the third person for those who watch (``summary``), and (only
    when that player is one of ``seats``) the options, each with its notation, its
    words, a group label, its click targets, (``rules``, when there are some) the
    rulings its words cite, which are cut out of the words as out of the prompt's, and
    (``effect``, only on the options of a few decisions) what it changes that its words
    do not say: the final score of the last discards, the Harbor discs an activation
    leaves (:mod:`endeavor.web.effects`). None at the end."""
    d = state.decision()
    if d is None:
        return None
    options: list[JSON] = []
    if state.current_player in seats:
        effects = option_effects(state, d)
        for o in d.options:
            text, rules = plain_words(o.text)
            option: JSON = {"action": str(o.action), "text": text,
                            "group": group_of(state, o.action),
                            "targets": targets_of(state, o.action, d.player)}
            if rules:
                option["rules"] = rules
            effect = effects.get(option["action"])
            if effect:
                option["effect"] = effect
            options.append(option)
    return {"player": d.player, "kind": d.kind, "prompt": plain_words(d.prompt)[0],
            "summary": third_person(d.prompt, d.player), "options": options}


_SECOND_PERSON: Final = (
    (re.compile(r"^Your turn\b"), "{p}'s turn"), (re.compile(r"^You passed\b"), "{p} passed"),
    (re.compile(r"^Your\b"), "{p}'s"), (re.compile(r"\byou have\b"), "they have"),
    (re.compile(r"\byour\b"), "their"), (re.compile(r"\bYour\b"), "Their"),
    (re.compile(r"\byou\b"), "they"), (re.compile(r"\bYou\b"), "They"),
)


_PRONOUNS: Final = (
    (re.compile(r"\byourself\b"), "themselves"), (re.compile(r"\byours\b"), "theirs"),
    (re.compile(r"\byour\b"), "their"), (re.compile(r"\bYour\b"), "Their"),
    (re.compile(r"\byou\b"), "they"), (re.compile(r"\bYou\b"), "They"),
)


def pronouns(text: str) -> str:
    """An engine text said to the player who acts, as the log says it to everyone:
    ``P2: Activate your Shipyard ...`` -> ``P2: Activate their Shipyard ...``."""
    for pattern, word in _PRONOUNS:
        text = pattern.sub(word, text)
    return text


def third_person(prompt: str, player: int) -> str:
    """A decision's prompt as those who watch read it: ``P1 to move: ...``, with its
    second person turned into the third (``Your turn in the Action phase: ... (1 Harbor
    disc; you have 7)`` -> ``P1 to move: P1's turn in the Action phase: ... (1 Harbor
    disc; they have 7)``), without ruling ids."""
    name = player_name(player)
    text, _ = plain_words(prompt)
    for pattern, words in _SECOND_PERSON:
        text = pattern.sub(words.format(p=name), text)
    return f"{name} to move: {text}"


# =========================================================================== scores, events
def scores_view(state: State, force: bool = False) -> list[JSON] | None:
    """The score pad when the game is over (None before; ``force``: counted as the game
    stands, for a game the host ended): per seat its total, rank and lines in pad
    order."""
    if not state.is_over and not force:
        return None
    return [{"seat": s.player, "name": player_name(s.player), "total": s.total,
             "rank": s.rank, "lines": [[name, pts] for name, pts in s.lines.items()]}
            for s in final_scores(state)]


#: a ruling's id in an engine text, e.g. `` (R16)`` or ``(R16, R21)``
_RULE_IDS: Final = re.compile(r"\s*\((R\d+(?:\s*,\s*R\d+)*)\)")


def plain_words(text: str) -> tuple[str, list[str]]:
    """An engine text for players: one line, without the ruling ids it cites (returned
    apart, for a tooltip): ``"... the track (R16)"`` -> ``("... the track", ["R16"])``."""
    rules: list[str] = []

    def cut(m: re.Match[str]) -> str:
        rules.extend(r.strip() for r in m.group(1).split(","))
        return ""

    return " ".join(_RULE_IDS.sub(cut, text).split()), rules


def event_view(event: Event, seq: int) -> JSON:
    """One engine event for the log: the log entry ``seq`` that caused it, its kind,
    the seat concerned (None for the table), its words in the third person (the log is
    everyone's) and (``rules``, only when there are some) the rulings they cite."""
    words, rules = plain_words(event.text)
    out: JSON = {"seq": seq, "kind": event.kind, "player": event.player,
                 "text": pronouns(words)}
    if rules:
        out["rules"] = rules
    return out


def action_view(seq: int, action: str, events: Iterable[Event]) -> list[JSON]:
    """The log of one effective action (its entry ``seq``, its notation, its events):
    :func:`event_view` of each, except that a choice made for the Silent Fleet is
    logged once (the fleet's own event, saying who chose), not twice."""
    out = [event_view(ev, seq) for ev in events]
    if action.startswith("fleet ") and any(e["kind"] == "fleet" for e in out):
        chooser = next((e["player"] for e in out if e["kind"] == "action"), None)
        out = [e for e in out if e["kind"] != "action"]
        if chooser is not None:
            first = next(e for e in out if e["kind"] == "fleet")
            first["text"] = f"{first['text']} ({player_name(chooser)}'s choice)"
            first["player"] = chooser
    return out


def line_view(line: LogLine) -> JSON:
    """A log line that is not an engine event (an undo, the host's change, a clock),
    shaped as :func:`event_view`'s."""
    return {"seq": line.seq, "kind": line.kind, "player": line.player, "text": line.text}


__all__ = ["VERB_GROUPS", "action_view", "building_does", "card_json", "clear_caches",
           "decision_view", "element_ids", "event_view", "group_of", "line_view", "plain_words",
           "player_name", "position", "pronouns", "scores_view", "targets_of",
           "third_person"]
