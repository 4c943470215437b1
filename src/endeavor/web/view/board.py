"""The position as JSON (:func:`position`): the board's regions and links, the supply, the
mats; and the element ids a position holds (:func:`element_ids`).

Its words (region, deck, token, building and Exploit names, what a building does and a
card gives, the Exploits' rules and Shields) are in the locale asked: the engine's terms
and the board's own messages (ids ``board.``, their French in
``endeavor/locale/fr/parts/board.po``); codes, numbers and the places' proper names read
the same in every language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ... import data as D
from ...messages import define, msg
from ...rules.module import L_BLOCKADE
from ...rules.words import word_player as player_name
from ...scoring import final_scores
from ...state import State
from ..exploit_words import exploit_rule, shield_text

if TYPE_CHECKING:
    pass

from .pieces import (
    JSON,
    _attribute_names,
    _building,
    _deck,
    _governor,
    _next_glory_at,
    _next_level_at,
    _owner,
    _per_board,
    _site,
    _token,
    card_json,
    missionary_counts,
    term_words,
)

#: the board's own words (their French in ``endeavor/locale/fr/parts/board.po``): the
#: regions' names as the map writes them, the open sea's label, the neutral colour
REGION_LABELS: Final = tuple(define(f"board.region.{code}", name)
                             for code, name in zip(D.REGION_CODES, D.REGION_NAMES,
                                                   strict=True))
SEA_BESIDE: Final = define("board.sea.beside", "beside the track")
SEA_OPEN: Final = define("board.sea.open", "open sea")
SILENT_FLEET: Final = define("board.silent_fleet", "Silent Fleet")


def _region(state: State, r: int, held: list[list[int]] | None = None,
            missionaries: dict[int, int] | None = None, locale: str = "en") -> JSON:
    """A region (``held``: each player's :meth:`State.held_cards`, ``missionaries``: the
    Missionaries in each city, if known), its words in ``locale``."""
    if missionaries is None:
        missionaries = missionary_counts(state)
    info = state.info
    code = D.REGION_CODES[r]
    board = _per_board(state)
    cities: list[int] | None = board.get(("cities", r))
    if cities is None:
        cities = board.setdefault(("cities", r), [
            s for s in info.sites if D.SITES[s].region == r and D.SITES[s].city])
    out: JSON = {
        "id": code, "name": msg(REGION_LABELS[r]).render(locale), "open": state.is_open(r),
        "cities": [_site(state, s, missionaries, locale) for s in cities],
        "routes": [_site(state, s, missionaries, locale) for s in info.routes_in[r]],
        "presence": [state.presence(p, r) for p in range(state.owners)],
        "governor": _governor(state, r, held, locale),
    }
    if r == D.EUROPE:
        out["track"] = None
        out["sea"] = None
        out["decks"] = [_deck(state, D.EU_DECK, locale), _deck(state, D.SLAVERY_DECK, locale)]
        out["abolished"] = state.abolished
        return out
    owners = state.track(r)
    tokens = state.track_tokens(r)
    out["track"] = {
        "id": f"track:{code}", "length": len(owners),
        "filled": sum(1 for o in owners if o >= 0),
        # far from the deck first (space 1 is the nearest to the sea lane's start)
        "spaces": [{"space": len(owners) - i, "owner": _owner(state, o),
                    "token": _token(state, t, locale)}
                   for i, (o, t) in enumerate(zip(owners, tokens, strict=True))],
    }
    out["sea"] = {
        "id": f"sea:{code}",
        "label": msg(SEA_BESIDE if state.config.ruleset == "classic" else SEA_OPEN
                     ).render(locale),
        "discs": [{"owner": p, "count": state.sea_discs(p, r)}
                  for p in range(state.owners) if state.sea_discs(p, r)],
    }
    out["decks"] = [_deck(state, r, locale)]
    out["abolished"] = False
    return out


def _links(state: State, locale: str = "en") -> list[JSON]:
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
    marks = state.link_marks
    out = []
    for li, (x, y, lid, a, b, circular) in enumerate(static):
        # only the seat holding both ends can control a link
        p = owners[x]
        controller = p if 0 <= p < state.n and owners[y] == p and \
            state.controls_link(p, li) else None
        # a Blockade (Imperialism) covers the link's token: nobody may take or control it
        out.append({"id": lid, "a": a, "b": b, "circular": circular,
                    "token": _token(state, tokens[li], locale), "controller": controller,
                    "blockade": bool(marks[li] & L_BLOCKADE)})
    return out


def _supply(state: State, locale: str = "en") -> list[JSON]:
    """The buildings of the supply (levels 1-4 and the level-5 buildings in play)."""
    rules = state.rules
    kinds = list(rules.base_supply) + [b for b in state.level5 if b not in rules.base_supply]
    out = []
    for b in sorted(kinds, key=lambda b: (rules.buildings[b].level, b)):
        entry = _building(state, b, locale)
        entry["id"] = f"supply:{entry['code']}"
        entry["count"] = state.building_supply[b]
        out.append(entry)
    return out


def _start_tiles(state: State, locale: str = "en") -> list[JSON]:
    """The start tiles on offer during setup (Age of Sail's choice, R3), else []."""
    starts = state.rules.start_buildings
    if state.round != 0 or len(starts) < 2 or state.is_over:
        return []
    out = []
    for b in starts:
        entry = _building(state, b, locale)
        entry["id"] = f"supply:{entry['code']}"
        out.append(entry)
    return out


def _modules(state: State, locale: str = "en") -> tuple[list[JSON], list[JSON]]:
    """The Exploits in play and the variants (the Silent Fleet), named in ``locale``, with
    ``text``, the module's state, in words for ``locale`` too."""
    exploits: list[JSON] = []
    variants: list[JSON] = []
    for i, m in enumerate(state.modules):
        text = m.describe_in(state, i, locale)
        if not m.is_exploit:
            variants.append({"id": f"exploit:{m.id}",
                             "name": term_words("module", m.name, locale), "text": text})
            continue
        exploits.append({
            "id": f"exploit:{m.id}", "key": m.id, "number": m.number,
            "name": term_words("exploit", m.name, locale),
            "regions": [D.REGION_CODES[r] for r in m.regions],
            "active": state.exploit_active(i),
            "shields": [p for p in range(state.n) if state.has_shield(p, i)],
            "text": text,
            "rule": exploit_rule(m.id, locale), "shield": shield_text(m.id, locale),
        })
    return exploits, variants


# =========================================================================== the mats
def _mat(state: State, p: int, glory: int, locale: str = "en") -> JSON:
    pl = state.players[p]
    names = _attribute_names(state, locale)
    buildings = []
    for i, b in enumerate(pl.buildings):
        entry = _building(state, b, locale)
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
        entry = card_json(state, c, locale)
        entry["id"] = f"card:{entry['code']}"
        cards.append(entry)
    gov = None
    if pl.gov >= 0:
        gov = card_json(state, pl.gov, locale)
        gov["id"] = f"card:{gov['code']}"
    slot_choices: list[JSON] = [{"id": f"slot:{D.CARDS[c].code}", "card": D.CARDS[c].code}
                    for c in state.held_cards(p) if D.CARDS[c].governor]
    if state.current_player == p:
        slot_choices.append({"id": "slot:none", "card": None})
    tokens = []
    for t in range(8):
        count = pl.brown_tokens[t] if t < 4 else pl.blue[t - 4]
        token = _token(state, t, locale)
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
        "aside": [card_json(state, c, locale) for c in pl.aside],
    }


# =========================================================================== position
def position(state: State, locale: str = "en") -> JSON:
    """Everything a client needs to draw the board and the mats, with human names (in
    ``locale``: ``"en"``, ``"fr"``).

    Keys: ``ruleset``, ``title``, ``board`` (side), ``round``, ``rounds``, ``phase``,
    ``crown``, ``current_player``, ``over``, ``attributes`` (the four names),
    ``regions``, ``links``, ``pile``, ``supply``, ``start_tiles``, ``level5``,
    ``exploits``, ``variants``, ``players``, ``neutral``. Every clickable element has an
    ``id`` (see the module docstring)."""
    scores = final_scores(state)
    exploits, variants = _modules(state, locale)
    held = [state.held_cards(p) for p in range(state.n)]
    missionaries = missionary_counts(state)
    pile = []
    for c in state.pile:
        entry = card_json(state, c, locale)
        entry["id"] = f"pile:{entry['code']}"
        # R16: from the pile a value-1 card brings its disc only under the published rule
        entry["bonus_disc"] = entry["bonus_disc"] and state.rules.discard_pile_bonus
        pile.append(entry)
    fleet = msg(SILENT_FLEET).render(locale)
    neutral = [{"owner": state.n + k, "name": fleet, "short": "SF",
                "supply": state.neutral_supply[k]} for k in range(state.rules.neutrals)]
    return {
        "ruleset": state.config.ruleset, "title": state.rules.title,
        "board": state.info.side, "players_count": state.n,
        "round": state.round, "rounds": state.rules.rounds, "phase": state.phase_name,
        "crown": state.crown, "current_player": state.current_player,
        "over": state.is_over,
        "attributes": list(_attribute_names(state, locale)),
        "regions": [_region(state, r, held, missionaries, locale) for r in range(D.NREGIONS)],
        "links": _links(state, locale),
        "pile": pile,
        "supply": _supply(state, locale),
        "start_tiles": _start_tiles(state, locale),
        "level5": [state.rules.buildings[b].code for b in state.level5],
        "exploits": exploits, "variants": variants,
        "players": [_mat(state, p, scores[p].total, locale) for p in range(state.n)],
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
