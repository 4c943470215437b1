"""Test support: build exact positions for scenario tests through the engine's own rule
code, so every derived counter stays consistent.

Tests (this project's and anyone's) set up positions with these functions instead of
writing a state's fields. Each moves components the way the rules do (a disc placed
on a city claims its token and links, a ship fills the track and can open the region
and award its Governor, a card gained raises the tracks). A position changed here is
marked *built by hand*: :meth:`State.to_json` writes ``"built": true``,
:meth:`State.from_json` then checks it field by field instead of replaying its
history, and :meth:`State.undo` stops at the last change made here.

Codes are the printed ids: buildings ``"theater"``, cards ``"AF/1"``, sites ``"EU3"`` /
``"EUT1"``, regions ``"FE"``; players are seats 0..n-1; Trade tokens are their type
numbers (``data.T_CULTURE`` ...). Call :func:`check` after building a position to be
sure it is consistent.

Typical use::

    from endeavor import testing as T
    s = T.fresh(4)                      # every start tile chosen: Colonial House
    T.give_building(s, 0, "docks")
    T.give_discs(s, 0, 3)
    T.at_actions(s, 0)                  # player 0 to act in the Action phase
    s.apply("act docks")
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from . import actions as A
from . import data as D
from .config import GameConfig
from .data import REGION_STRIDE
from .frames import F_ACTION, PH_ACTIONS
from .invariants import check_invariants
from .rules import board, construction, draw, salary
from .rules.abolition import abolish
from .rules.discard import discard as _discard
from .rules.turns import TURN_OPEN
from .state import State, new_game

REGION = {c: i for i, c in enumerate(D.REGION_CODES)}


def _touch(s: State) -> None:
    """After a hand-made change: forget cached legal actions; undo stops here; every
    mat counts as changed (``Player.changed``)."""
    s._legal = None
    for pl in s.players:
        pl.changed()
    s._shm = None  # the Shields may have changed by hand
    s._marks = None
    snap = s.copy()
    snap.origin = None
    s.origin = snap


def _region(region: str | int) -> int:
    return region if isinstance(region, int) else REGION[region]


def fresh(players: int = 4, board: str | None = None, seed: int = 0,
          starts: tuple[str, ...] | None = None, exploits: tuple[str, ...] = (),
          ruleset: str = "age_of_sail", **options: object) -> State:
    """A new game after every start tile is chosen (default: Colonial House for all);
    the Crown holder is about to build in round 1. This is a real game position (no
    hand-made change yet). A ruleset without start tiles (``"classic"``: the Colonial
    House is printed on every mat) is already there after setup."""
    s = new_game(GameConfig(players=players, ruleset=ruleset, board=board, seed=seed,
                            options=options, exploits=exploits))
    if not s.rules.start_buildings:
        return s
    for i in range(players):
        code = "colonial-house" if starts is None else starts[i]
        s.apply(f"start {code}")
    return s


def check(s: State) -> None:
    """Assert that ``s`` passes every consistency check."""
    problems = check_invariants(s)
    assert not problems, problems


def problems(s: State) -> list[str]:
    """Every consistency problem of ``s`` (empty when consistent)."""
    return check_invariants(s)


# --------------------------------------------------------------------------- flow
def at_actions(s: State, p: int, passed: int = 0) -> State:
    """Jump to the Action phase of the current round (round 1 at least) with ``p`` to
    act; ``passed`` is the bitmask of players who already passed."""
    s.round = max(s.round, 1)
    sched = s.rules.schedule(s.round)
    s.step = sched.index((PH_ACTIONS, 0))
    s.phase = PH_ACTIONS
    s.act_player = p
    s.passed = passed
    s.turn = TURN_OPEN
    s.stack = [(F_ACTION, p)]
    _touch(s)
    return s


def set_round(s: State, rnd: int) -> None:
    """Set the round number (1-7) without changing the phase or the decision."""
    assert 1 <= rnd <= s.rules.rounds
    s.round = rnd
    _touch(s)


def set_crown(s: State, p: int) -> None:
    """Give the Crown to ``p``."""
    s.crown = p
    _touch(s)


def set_passed(s: State, p: int, passed: bool = True) -> None:
    """Mark ``p`` as having passed (or not) in this round's Action phase."""
    if passed:
        s.passed |= 1 << p
    else:
        s.passed &= ~(1 << p)
    _touch(s)


# --------------------------------------------------------------------------- discs
def give_discs(s: State, p: int, k: int) -> None:
    """``k`` discs from ``p``'s supply to the Harbor."""
    pl = s.players[p]
    assert pl.supply >= k
    pl.supply -= k
    pl.harbor += k
    _touch(s)


def set_harbor(s: State, p: int, k: int) -> None:
    """Exactly ``k`` discs in ``p``'s Harbor (the rest back to the supply)."""
    pl = s.players[p]
    pl.supply += pl.harbor
    pl.harbor = 0
    assert pl.supply >= k
    pl.supply -= k
    pl.harbor = k
    _touch(s)


def set_supply(s: State, p: int, k: int) -> None:
    """Leave exactly ``k`` discs in ``p``'s supply; the others go to the Harbor (or
    come from it when the supply is short)."""
    pl = s.players[p]
    total = pl.supply + pl.harbor
    assert total >= k
    pl.supply = k
    pl.harbor = total - k
    _touch(s)


def free_workers(s: State, p: int) -> None:
    """Pay every worker of ``p`` back to the Harbor (as a full Salary phase would)."""
    salary.pay_all(s, p)
    _touch(s)


def place(s: State, p: int, site: str, token: int | None = -1) -> None:
    """Put a disc of ``p`` from the supply on ``site`` (claiming links as the rules do).
    ``token=-1`` removes the site's token first (out of the game, nobody gains it);
    ``token=None`` leaves it to be gained."""
    x = D.SITE_INDEX[site]
    if token is not None:
        _drop_site_token(s, x)
    s.players[p].supply -= 1
    board.place(s, p, x)
    _touch(s)


def remove(s: State, site: str) -> int:
    """The disc on ``site`` returns to its owner's supply; returns the owner."""
    q = board.remove(s, D.SITE_INDEX[site])
    _touch(s)
    return q


def ship(s: State, p: int, region: str | int) -> None:
    """Ship a disc of ``p`` (from supply) to the region's track, as the rules do (the
    last space opens the region and awards its Governor)."""
    pl = s.players[p]
    pl.supply -= 1
    pl.harbor += 1
    board.ship_track(s, p, pl, _region(region))
    _touch(s)


def sea(s: State, p: int, region: str | int, k: int = 1) -> None:
    """``k`` discs of ``p`` (from supply) into the region's open sea."""
    r = _region(region)
    for _ in range(k):
        s.players[p].supply -= 1
        board.add_sea(s, p, r)
    _touch(s)


def open_region(s: State, region: str | int, *owners: int) -> None:
    """Fill the rest of ``region``'s track with discs of ``owners`` (cycled; default
    player 0), opening it and awarding its Governor as the rules do (R11)."""
    r = _region(region)
    who = owners or (0,)
    k = 0
    while not s.is_open(r):
        ship(s, who[k % len(who)], r)
        k += 1


def stock(s: State, p: int, attribute: int, k: int = 1) -> None:
    """``k`` discs of ``p`` (from supply) at the base of a track (as Memorial
    casualties or Spice Trade stock): +1 on that track each."""
    pl = s.players[p]
    pl.supply -= k
    pl.base_discs[attribute] += k
    pl.attr[attribute] += k
    _touch(s)


# --------------------------------------------------------------------------- buildings
def give_building(s: State, p: int, code: str, staffed: bool = False) -> None:
    """``p`` builds ``code`` from the supply (a level-5 building not in this game's pool
    is swapped into it; a start tile, in no supply, comes from the box); ``staffed``
    puts a disc from the supply on its circle."""
    b = D.BUILDING_INDEX[code]
    level = D.BUILDINGS[b].level
    if level == 5 and b not in s.level5:
        out = next(x for x in s.level5 if s.building_supply[x] == 1)
        s.building_supply[out] = 0
        s.level5 = tuple(sorted([x for x in s.level5 if x != out] + [b]))
        s.building_supply[b] = 1
    if level == 0:
        s.building_supply[b] += 1  # not counted in any supply: build takes it back at once
    construction.build(s, p, b)
    if staffed:
        pl = s.players[p]
        pl.supply -= 1
        pl.taken_circles |= 1 << (len(pl.buildings) - 1)
    _touch(s)


def staff(s: State, p: int, code: str) -> None:
    """A disc from ``p``'s supply onto the leftmost free circle of building ``code``."""
    pl = s.players[p]
    b = D.BUILDING_INDEX[code]
    k = next(k for k, x in enumerate(pl.buildings) if x == b and not pl.taken_circles >> k & 1)
    pl.supply -= 1
    pl.taken_circles |= 1 << k
    _touch(s)


# --------------------------------------------------------------------------- tokens
def _into_play(s: State, t: int) -> None:
    """Take a Trade token of type ``t`` into play (the caller puts it somewhere): one
    out of the game if there is one, else the last one of that type still lying free
    on the board (a link, then an unoccupied site, then an unclaimed track space, each
    looked for from the end), whose place is left empty. The game has 95 tokens and no
    more (R2), so the count out of the game never goes below 0 and the position can be
    saved and loaded. ValueError when every token of the type is already held."""
    if s.spent[t] > 0:
        s.spent[t] -= 1
        return
    for arr in (s.track_token, s.site_token, s.link_token):
        for k in range(len(arr) - 1, -1, -1):
            if arr[k] == t:
                arr[k] = -1
                return
    raise ValueError(f"no {D.TOKEN_NAMES[t]} token is left to take: all "
                     f"{s.rules.token_counts[t]} are on mats or tiles")


def _drop_site_token(s: State, x: int) -> None:
    t = s.site_token[x]
    if t >= 0:
        s.site_token[x] = -1
        s.spent[t] += 1  # treated as out of the game for conservation


def set_site_token(s: State, site: str, token: int) -> None:
    """Replace the token on ``site`` by ``token`` (the old one leaves the game)."""
    x = D.SITE_INDEX[site]
    _drop_site_token(s, x)
    _into_play(s, token)
    s.site_token[x] = token
    _touch(s)


def clear_site_token(s: State, site: str) -> None:
    """The token on ``site`` leaves the game."""
    _drop_site_token(s, D.SITE_INDEX[site])
    _touch(s)


def link_index(s: State, a: str, b: str) -> int:
    """Index of the link between sites ``a`` and ``b`` on this board."""
    x, y = D.SITE_INDEX[a], D.SITE_INDEX[b]
    for li, (u, v) in enumerate(s.info.board.links):
        if {u, v} == {x, y}:
            return li
    raise KeyError(f"no link {a}-{b} on side {s.config.board}")


def set_link_token(s: State, a: str, b: str, token: int) -> int:
    """Replace the token on link ``a``-``b`` by ``token`` (-1: none); returns the link."""
    li = link_index(s, a, b)
    t = s.link_token[li]
    if t >= 0:
        s.link_token[li] = -1
        s.spent[t] += 1
    if token >= 0:
        _into_play(s, token)
    s.link_token[li] = token
    _touch(s)
    return li


def set_track_token(s: State, region: str | int, space: int, token: int) -> None:
    """Replace the token on a free track space (0 = farthest from the deck, the first
    one claimed) by ``token`` (-1: none); the old token leaves the game."""
    r = _region(region)
    assert space < s.info.trk_len[r]
    i = s.info.trk_off[r] + space
    assert s.track_owner[i] < 0, "space already claimed"
    if s.track_token[i] >= 0:
        s.spent[s.track_token[i]] += 1
        s.track_token[i] = -1
    if token >= 0:
        _into_play(s, token)
    s.track_token[i] = token
    _touch(s)


def give_token(s: State, p: int, t: int, k: int = 1) -> None:
    """``p`` gains ``k`` Trade tokens of type ``t``, each taken into play the way
    :func:`_into_play` says (out of the game first, else from the board)."""
    for _ in range(k):
        _into_play(s, t)
        board.gain_token(s, s.players[p], t)
    _touch(s)


def take_token(s: State, p: int, t: int, k: int = 1) -> None:
    """``k`` Trade tokens of type ``t`` leave ``p``'s mat (out of the game)."""
    pl = s.players[p]
    for _ in range(k):
        if t < 4:
            assert pl.brown_tokens[t] > 0
            pl.brown_tokens[t] -= 1
            pl.attr[t] -= 1
        else:
            assert pl.blue[t - 4] > 0
            pl.blue[t - 4] -= 1
        s.spent[t] += 1
    _touch(s)


# --------------------------------------------------------------------------- cards
def _take_card(s: State, c: int) -> None:
    for dk in s.decks:
        if c in dk:
            dk.remove(c)
            return
    if c in s.pile:
        s.pile.remove(c)
    elif c in s.region_governors:
        s.region_governors[s.region_governors.index(c)] = -1
    elif c in s.removed:
        s.removed.remove(c)
    else:
        raise ValueError(f"{D.CARDS[c].code} is not available")


def give_card(s: State, p: int, code: str, bonus: bool = False) -> None:
    """Move card ``code`` from its deck / the pile / the Governors to ``p`` and gain its
    icons (Abolition for Europe 5; the value-1 bonus disc only with ``bonus``)."""
    c = D.CARD_INDEX[code]
    _take_card(s, c)
    draw.gain_card(s, p, c, bonus)
    _touch(s)


def discard_card(s: State, p: int, code: str) -> None:
    """``p`` discards ``code`` as in the Discard phase (R18)."""
    _discard(s, p, D.CARD_INDEX[code])
    _touch(s)


def to_pile(s: State, code: str) -> None:
    """Move card ``code`` from its deck to the face-up discard pile."""
    c = D.CARD_INDEX[code]
    _take_card(s, c)
    s.pile.append(c)
    _touch(s)


def put_on_top(s: State, code: str) -> None:
    """Move card ``code`` to the top of its own deck (from anywhere in that deck)."""
    c = D.CARD_INDEX[code]
    deck = s.decks[D.CARDS[c].deck]
    deck.remove(c)
    deck.append(c)
    _touch(s)


def empty_deck(s: State, deck: str) -> None:
    """Every card of ``deck`` ("EU", "AF", ..., "SL") leaves the game."""
    d = D.DECK_CODES.index(deck)
    s.removed.extend(s.decks[d])
    s.decks[d] = []
    _touch(s)


def abolish_slavery(s: State) -> None:
    """Abolish Slavery now (R17)."""
    abolish(s)
    _touch(s)


# --------------------------------------------------------------------------- modules
def exploit(s: State, exploit_id: str) -> int:
    """Index of an Exploit (module) in play."""
    i = s.exploit_index(exploit_id)
    assert i >= 0, exploit_id
    return i


def set_module_data(s: State, module_id: str, data: Iterable[int]) -> None:
    """Replace a module's data (its tile) wholesale; call :func:`check` afterwards."""
    s.module_data[exploit(s, module_id)] = list(data)
    _touch(s)


def mark_site(s: State, site: str, bit: int, on: bool = True) -> None:
    """Set or clear an Exploit marker bit on ``site`` (``M_FORT``, ``M_MISSIONARY``...)."""
    x = D.SITE_INDEX[site]
    if on:
        s.site_marks[x] |= bit
    else:
        s.site_marks[x] &= ~bit
    _touch(s)


# --------------------------------------------------------------------------- playing
def ready_to_act(s: State, p: int, harbor: int, building: str = "shipyard") -> State:
    """``p`` to act in the Action phase with every worker paid, a free ``building``
    (given if missing) and exactly ``harbor`` discs in the Harbor."""
    free_workers(s, p)
    if D.BUILDING_INDEX[building] not in s.players[p].buildings:
        give_building(s, p, building)
    set_harbor(s, p, harbor)
    return at_actions(s, p)


def play_random(s: State, seed: int = 0, pass_weight: float = 0.1) -> State:
    """Finish the game with random legal actions, rarely passing."""
    rng = random.Random(seed)
    while not s.is_over:
        la = s.legal_actions()
        if len(la) > 1 and la[-1].text == "pass" and rng.random() > pass_weight:
            la = la[:-1]
        s.apply_code(rng.choice(la).code)
    return s


def texts(s: State) -> list[str]:
    """The notations of the legal actions."""
    return [a.text for a in s.legal_actions()]


def is_module_action(c: int) -> bool:
    """Whether action code ``c`` belongs to a rule module (an Exploit's ability or step)."""
    return A.V_EXPLOIT <= c >> A.SHIFT < A.V_DONE


# --------------------------------------------------------------------------- supply, Governor slot
def pool_level5(s: State, code: str) -> None:
    """Make level-5 building ``code`` one of this game's three level-5 tiles (R2): the
    first pool tile still in the supply leaves the game in its place (nothing changes
    when ``code`` already is one)."""
    b = D.BUILDING_INDEX[code]
    assert D.BUILDINGS[b].level == 5, code
    if b not in s.level5:
        out = next(x for x in s.level5 if s.building_supply[x] == 1)
        s.building_supply[out] = 0
        s.level5 = tuple(sorted([x for x in s.level5 if x != out] + [b]))
        s.building_supply[b] = 1
    _touch(s)


def sell_out(s: State, *codes: str) -> None:
    """Every copy of the building types ``codes`` still in the supply leaves the game, to
    ask what an exhausted supply offers (RB: the next level up). No rule removes
    buildings, so :func:`check` then reports the missing copies."""
    for code in codes:
        s.building_supply[D.BUILDING_INDEX[code]] = 0
    _touch(s)


def slot_governor(s: State, p: int, code: str) -> None:
    """``p`` moves Governor ``code`` from a normal card slot to the free Governor slot, as
    in the Discard phase (P1); a Governor already there goes back to a normal slot."""
    c = D.CARD_INDEX[code]
    pl = s.players[p]
    assert D.CARDS[c].governor and c in pl.cards, code
    if pl.gov >= 0:
        pl.cards.append(pl.gov)
    pl.cards.remove(c)
    pl.gov = c
    _touch(s)


# --------------------------------------------------------------------------- Exploit components
def set_nassau(s: State, p: int) -> None:
    """A disc of ``p`` from the supply takes Nassau (The Republic of Pirates); a disc
    already there returns to its owner's supply. The Pirate does not move."""
    d = s.module_data[exploit(s, "republic_of_pirates")]
    q = d[1]  # tile data: [Pirate location, Nassau owner, Governor-space owner]
    if q >= 0:
        s.players[q].supply += 1
    s.players[p].supply -= 1
    d[1] = p
    _touch(s)


def swap_track_disc(s: State, region: str | int, space: int, p: int) -> None:
    """The disc on a claimed track space (0 = farthest from the deck) returns to its
    owner's supply and a disc of ``p`` from the supply takes the space: no token, and
    the Governor stays where it went."""
    r = _region(region)
    assert space < s.info.trk_len[r]
    x = s.info.trk_off[r] + space
    q = s.track_owner[x]
    assert q >= 0, "space not claimed"
    s.track_owner[x] = p
    s.region_presence[q * REGION_STRIDE + r] -= 1
    s.region_presence[p * REGION_STRIDE + r] += 1
    s.players[q].supply += 1
    s.players[p].supply -= 1
    _touch(s)


def saltpeter_tile_disc(s: State, p: int) -> None:
    """A disc of ``p`` from the supply onto the Saltpeter Stockpiles tile, where its
    Attack ability stores a casualty (``p`` has none there yet)."""
    d = s.module_data[exploit(s, "saltpeter_stockpiles")]
    k = 1 + 2 * s.n + p  # tile data: [tile, held[n], cannon masks[n], disc on tile[n]]
    assert d[k] == 0, "already a disc on the tile"
    s.players[p].supply -= 1
    d[k] = 1
    _touch(s)


def saltpeter_cannon_on(s: State, p: int, building: str) -> None:
    """One of ``p``'s held Improved Cannons (Saltpeter Stockpiles) onto the leftmost
    free circle of ``building``, as ``cannon <building>`` puts it there, without
    resolving the building."""
    from . import api

    d = s.module_data[exploit(s, "saltpeter_stockpiles")]
    assert d[1 + p] > 0, "no cannon held"
    k = api.take_circle(s, p, D.BUILDING_INDEX[building])
    d[1 + s.n + p] |= 1 << k
    d[1 + p] -= 1
    _touch(s)


def apply_ability(s: State, p: int, action: str) -> None:
    """Exploit ability ``action`` (its notation: ``"fortify NA1"``, ``"blockade
    IN3-FE2"``, ``"deic fortify BAT"``, ``"saltpeter cannon"``...) takes effect for
    ``p`` at once, exactly as its module carries it out (its own costs, such as a
    spent Trade token, are paid), without activating a source and whatever the Harbor,
    the Shield or the turn. Only for abilities that ask no further decision."""
    c = A.parse(action).code
    assert is_module_action(c), action
    i = next(k for k, e in enumerate(s.ex) if e.owns(c))
    depth = len(s.stack)
    s.ex[i].apply(s, i, p, c)
    assert len(s.stack) == depth, f"{action} asks a further decision"
    _touch(s)


# -------------------------------------------------------------- board tokens, cards, tiles, phases
def swap_board_token(s: State, site: str, token: int) -> None:
    """Exchange the Trade token on ``site`` with a token of type ``token`` lying elsewhere
    on the board (looked for on the sites, then the track spaces, then the links); no
    token enters or leaves the game."""
    x = D.SITE_INDEX[site]
    if s.site_token[x] != token:
        for arr in (s.site_token, s.track_token, s.link_token):
            k = next((k for k, v in enumerate(arr)
                      if v == token and not (arr is s.site_token and k == x)), -1)
            if k >= 0:
                arr[k], s.site_token[x] = s.site_token[x], token
                break
        else:
            raise ValueError(f"no {D.TOKEN_NAMES[token]} token on the board")
    _touch(s)


def mark_link(s: State, a: str, b: str, bit: int, on: bool = True) -> int:
    """Set or clear an Exploit marker bit (``L_BLOCKADE``) on the link ``a``-``b``;
    returns the link."""
    li = link_index(s, a, b)
    if on:
        s.link_marks[li] |= bit
    else:
        s.link_marks[li] &= ~bit
    _touch(s)
    return li
def remove_top_cards(s: State, deck: str, k: int = 1) -> None:
    """The top ``k`` cards of ``deck`` ("EU", "AF", ..., "SL") leave the game one by one,
    top first (as if drawn away)."""
    d = D.DECK_CODES.index(deck)
    assert len(s.decks[d]) >= k, f"the {deck} deck holds fewer than {k} cards"
    for _ in range(k):
        s.removed.append(s.decks[d].pop())
    _touch(s)


def remove_card(s: State, code: str) -> None:
    """Card ``code`` leaves the game from wherever it is (its deck, the pile, the
    Governors)."""
    c = D.CARD_INDEX[code]
    _take_card(s, c)
    s.removed.append(c)
    _touch(s)


def insert_card(s: State, code: str, deck: str, index: int = 0) -> None:
    """Move card ``code`` from wherever it is (a deck, the pile, the Governors, out of
    the game) into ``deck`` at position ``index`` (0: the bottom; the top is the end),
    as Globalisation returns a card into a region deck."""
    c = D.CARD_INDEX[code]
    _take_card(s, c)
    s.decks[D.DECK_CODES.index(deck)].insert(index, c)
    _touch(s)
def set_tile(s: State, module_id: str, data: Iterable[int]) -> None:
    """Replace a module's data (its tile) and move the components it counts the way its
    own rules do: discs the tile gains come from their owners' supply (those it loses go
    back there), the attribute tracks follow the icons of its components (Freedom or
    Transit tokens...), Trade tokens appearing on it come from outside the game (those
    leaving it leave the game), and cards appearing on it are taken from their deck, the
    pile or the Governors (those leaving it leave the game). :func:`set_module_data`
    changes the data alone."""
    from collections import Counter

    i = exploit(s, module_id)
    e = s.ex[i]
    discs = [e.tile_discs(s, i, p) for p in range(s.n)]
    icons = [e.icons(s, i, p) for p in range(s.n)]
    tokens = Counter(e.tile_tokens(s, i))
    cards = Counter(e.tile_cards(s, i))
    s.module_data[i] = list(data)
    for p, pl in enumerate(s.players):
        k = e.tile_discs(s, i, p) - discs[p]
        assert pl.supply >= k, f"player {p}: {k} discs needed, {pl.supply} in the supply"
        pl.supply -= k
        board.gain_icons(pl, icons[p], -1)
        board.gain_icons(pl, e.icons(s, i, p), 1)
    now = Counter(e.tile_tokens(s, i))
    for t in range(8):
        s.spent[t] += max(0, tokens[t] - now[t])
        for _ in range(now[t] - tokens[t]):
            _into_play(s, t)
    held = Counter(e.tile_cards(s, i))
    s.removed.extend((cards - held).elements())
    for c in (held - cards).elements():
        _take_card(s, c)
    _touch(s)
def to_salary(s: State) -> State:
    """Jump to the start of the current round's Salary phase (round 1 at least) and let
    the phase driver run it as the rules do (R7), from the Crown holder on: workers are
    paid and the rule modules' Salary effects follow (Manila Galleons...); the game
    stops at the first decision (a Salary choice, a module's Salary step, or the Action
    phase). With ``phase_order="by_player"`` it starts at the Crown holder's Salary
    step."""
    from .frames import PH_SALARY
    from .rules import turns

    s.round = max(s.round, 1)
    s.step = s.rules.schedule(s.round).index((PH_SALARY, 0))
    s.phase = PH_SALARY
    s.act_player = -1
    s.passed = 0
    s.turn = 0
    s.stack = []
    s._legal = None
    turns.advance(s)
    _touch(s)
    return s


# ---- classic
def beside(s: State, p: int, region: str | int, k: int = 1) -> None:
    """The 2009 game (P73): ``k`` discs of ``p`` (from the supply) beside ``region``'s
    track, which must be full (the discs give presence there and take no token)."""
    r = _region(region)
    assert s.is_open(r) and r != D.EUROPE, "only beside a full track"
    sea(s, p, r, k)


# ---- Silent Fleet
def fleet_owner(s: State) -> int:
    """The Silent Fleet's disc owner (``s.n``: the neutral colour after the seats,
    R21); the game must have been set up with ``silent_fleet=True``."""
    assert s.rules.neutrals, "no Silent Fleet in this game"
    return s.n


def fleet_supply(s: State) -> int:
    """Discs left in the Silent Fleet's supply."""
    return s.neutral_supply[fleet_owner(s) - s.n]


def fleet_place(s: State, site: str, token: int | None = -1) -> None:
    """A fleet disc from its supply on free ``site``, as its reactions place one (no link
    is claimed). ``token=-1`` removes the site's token first; ``token=None`` leaves it
    on the site, so that it leaves the game as the disc arrives."""
    q = fleet_owner(s)
    x = D.SITE_INDEX[site]
    if token is not None:
        _drop_site_token(s, x)
    s.neutral_supply[q - s.n] -= 1
    board.place(s, q, x)
    _touch(s)


def fleet_ship(s: State, region: str | int, k: int = 1) -> None:
    """``k`` fleet discs from its supply onto ``region``'s track, one after another, as
    its Ship reaction puts them (each space's token leaves the game; the last space
    opens the region and its Governor goes to the winner, out of the game if it is the
    fleet, R11)."""
    q = fleet_owner(s)
    r = _region(region)
    for _ in range(k):
        s.neutral_supply[q - s.n] -= 1
        board.ship_track(s, q, None, r)
    _touch(s)


def fleet_sea(s: State, region: str | int, k: int = 1) -> None:
    """``k`` fleet discs from its supply into ``region``'s open sea (presence there), as
    Letters of Marque leaves one there; also a way to empty its supply."""
    q = fleet_owner(s)
    r = _region(region)
    for _ in range(k):
        s.neutral_supply[q - s.n] -= 1
        board.add_sea(s, q, r)
    _touch(s)


#: every public function of this module, for ``from endeavor.testing import *``
__all__ = ["REGION"] + sorted(
    name for name, value in list(globals().items())
    if callable(value) and getattr(value, "__module__", None) == __name__
    and not name.startswith("_"))
