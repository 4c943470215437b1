"""Consistency checks of a state: conservation of discs, tokens, cards and buildings,
tracks equal to icons held, and the derived counters. Used by the test suite and by
:meth:`State.from_json` to reject corrupt input. Returns a list of problems (empty = ok).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from . import data as D
from .data import REGION_STRIDE
from .rules.board import controls_link
from .rules.salary import workers

if TYPE_CHECKING:
    from .state import State


def check_invariants(s: State) -> list[str]:
    out: list[str] = []
    n = s.n
    info = s.info
    owner = s.site_owner
    # discs (35 per player across supply, harbor, buildings, board, Memorial bases)
    for p, pl in enumerate(s.players):
        on_sites = sum(1 for x in info.sites if owner[x] == p)
        on_track = s.track_owner.count(p)
        at_sea = sum(s.sea[p * REGION_STRIDE:(p + 1) * REGION_STRIDE])
        on_blds = bin(workers(s, p)).count("1")  # workers, not components
        on_tiles = sum(e.tile_discs(s, i, p) for i, e in enumerate(s.ex))
        total = (pl.supply + pl.harbor + on_blds + on_sites + on_track + at_sea + sum(pl.base_discs)
                 + on_tiles)
        if total != s.rules.discs:
            out.append(f"player {p}: {total} discs, not {s.rules.discs}")
        if min(pl.supply, pl.harbor, *pl.base_discs, *pl.blue, *pl.brown_tokens) < 0:
            out.append(f"player {p}: negative count")
        if pl.taken_circles >> len(pl.buildings):
            out.append(f"player {p}: disc on a building that does not exist")
        for i, b in enumerate(pl.buildings):
            if pl.taken_circles >> i & 1 and not D.BUILDINGS[b].activatable:
                out.append(f"player {p}: disc on {D.BUILDINGS[b].name} (no circle)")
    # neutral discs (the Silent Fleet): supply + board = discs per colour
    owners = s.owners
    if len(s.neutral_supply) != owners - n:
        out.append(f"{len(s.neutral_supply)} neutral supplies for {owners - n} neutral colours")
    if s.neutral_supply and min(s.neutral_supply) < 0:
        out.append("a neutral supply below 0")
    for q in range(n, owners):
        on_board = (sum(1 for x in info.sites if owner[x] == q) + s.track_owner.count(q)
                    + sum(s.sea[q * REGION_STRIDE:(q + 1) * REGION_STRIDE]))
        if q - n < len(s.neutral_supply) and on_board + s.neutral_supply[q - n] != s.rules.discs:
            out.append(f"neutral colour {q}: {on_board + s.neutral_supply[q - n]} discs, not "
                       f"{s.rules.discs}")
    # derived presence counters, for every owner
    for p in range(owners):
        for r in range(7):
            sites_r = sum(1 for x in info.sites if owner[x] == p and D.SITES[x].region == r)
            tile_r = sum(1 for x in D.TILE_SITE_IDS
                         if x in info.sites and owner[x] == p and D.SITES[x].region == r)
            o = info.trk_off[r]
            trk_r = s.track_owner[o:o + info.trk_len[r]].count(p)
            if s.owned_sites[p * REGION_STRIDE + r] != sites_r - tile_r:
                out.append(f"player {p}: own[{r}] counter wrong")
            at = p * REGION_STRIDE + r
            if s.region_presence[at] != sites_r + trk_r + s.sea[at]:
                out.append(f"player {p}: presence[{r}] counter wrong")
    for x in range(D.NSITES):
        if owner[x] >= owners or owner[x] < -1 or (owner[x] >= 0 and x not in info.sites):
            out.append(f"site {x}: bad owner {owner[x]}")
    for r in range(7):
        cities = info.cities_in[r]
        routes = info.routes_in[r]
        if s.free_cities[r] != sum(1 for x in cities if owner[x] < 0):
            out.append(f"region {r}: free city counter wrong")
        if s.free_routes[r] != sum(1 for x in routes if owner[x] < 0):
            out.append(f"region {r}: free route counter wrong")
        if s.occupied_sites[r] != sum(1 for x in cities + routes if owner[x] >= 0):
            out.append(f"region {r}: occupied counter wrong")
        o = info.trk_off[r]
        trk = s.track_owner[o:o + info.trk_len[r]]
        k = s.filled[r]
        if any(v < 0 for v in trk[:k]) or any(v >= 0 for v in trk[k:]):
            out.append(f"region {r}: track not filled from the far end")
        if any(t >= 0 for t in s.track_token[o:o + k]):
            out.append(f"region {r}: token left on a claimed track space")
    # tokens (95, by type)
    tok: Counter[int] = Counter()
    for t in s.track_token + [s.site_token[x] for x in range(D.NSITES)] + s.link_token:
        if t >= 0:
            tok[t] += 1
    for x in range(D.NSITES):
        if s.site_token[x] >= 0 and owner[x] >= 0:
            out.append(f"site {D.SITES[x].code}: occupied but still holds a token")
    for pl in s.players:
        for t in range(4):
            tok[t] += pl.brown_tokens[t]
            tok[t + 4] += pl.blue[t]
    for i, e in enumerate(s.ex):
        tok.update(e.tile_tokens(s, i))
    if min(s.spent) < 0:
        out.append(f"a negative count of tokens out of the game: {s.spent}")
    for t in range(8):
        tok[t] += s.spent[t]
        if tok[t] != s.rules.token_counts[t]:
            out.append(f"token type {D.TOKEN_NAMES[t]}: {tok[t]} not "
                       f"{s.rules.token_counts[t]}")
    for li, t in enumerate(s.link_token):
        o = owner[info.board.links[li][0]]
        if t >= 0 and o >= 0 and controls_link(s, o, li):
            out.append(f"link {li}: controlled but token unclaimed")
    # cards: every card in exactly one place
    where: Counter[int] = Counter()
    for d in s.decks:
        where.update(d)
    where.update(s.pile)
    where.update(s.removed)
    where.update(g for g in s.region_governors if g >= 0)
    for i, e in enumerate(s.ex):
        where.update(e.tile_cards(s, i))
    for pl in s.players:
        where.update(pl.cards)
        where.update(pl.aside)
        if pl.gov >= 0:
            where[pl.gov] += 1
            if not D.CARDS[pl.gov].governor:
                out.append("non-Governor card in a free Governor slot")
    for c in range(D.NCARDS):
        if where[c] != 1:
            out.append(f"card {D.CARDS[c].code} is in {where[c]} places")
    if set(where) - set(range(D.NCARDS)):
        out.append("unknown card id")
    # tracks equal to icons held
    for p, pl in enumerate(s.players):
        icons = [pl.brown_tokens[k] + pl.base_discs[k] for k in range(4)]
        for b in pl.buildings:
            for k in range(4):
                icons[k] += D.BUILDINGS[b].icons[k]
        for c in s.held_cards(p):
            for k in range(4):
                icons[k] += D.CARDS[c].icons[k]
        for i, e in enumerate(s.ex):
            for k, v in enumerate(e.icons(s, i, p)):
                icons[k] += v
        if icons != pl.attr:
            out.append(f"player {p}: tracks {pl.attr} but icons held {icons}")
    # buildings
    built: Counter[int] = Counter()
    for pl in s.players:
        built.update(pl.buildings)
        if sum(1 for b in pl.buildings if D.BUILDINGS[b].level == 5) > 1:
            out.append("a player holds two level-5 buildings")
    for i, e in enumerate(s.ex):  # kept or put out of the game by a module
        built.update(e.tile_buildings(s, i))
    if min(s.building_supply) < 0:
        out.append("a negative count of buildings in the supply")
    for b, bd in enumerate(D.BUILDINGS):
        if bd.level == 0:
            continue
        copies = bd.copies if bd.level < 5 else (1 if b in s.level5 else 0)
        if s.building_supply[b] + built[b] != copies:
            out.append(f"building {bd.name}: {s.building_supply[b]} + {built[b]} != {copies}")
    for i, e in enumerate(s.ex):
        out += [f"{e.name}: {m}" for m in e.check(s, i)]
    out += s.rules.problems(s)  # the ruleset's own facts (the 2009 game: no open sea...)
    if not s.is_over:
        legal = s.legal_codes()
        if not legal:
            out.append("no legal action before the end")
        if legal != sorted(set(legal)):
            out.append("legal actions not sorted and unique")
    return out
