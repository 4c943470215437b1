"""Helpers to build exact positions for scenario tests.

They move components through the engine's own primitives so every counter stays
consistent; call :func:`check` after building a position to be sure. Codes are the
printed ids: buildings "theater", cards "AF/1", sites "EU3" / "EUT1", regions "FE".
"""

from __future__ import annotations

import random

from endeavor import GameConfig, State, new_game
from endeavor import data as D
from endeavor.invariants import check_invariants
from endeavor.state import F_ACTION, PH_ACTIONS, _schedule

REGION = {c: i for i, c in enumerate(D.REGION_CODES)}


def fresh(players: int = 4, board: str | None = None, seed: int = 0,
          starts: tuple[str, ...] | None = None, exploits: tuple[str, ...] = (),
          **options: object) -> State:
    """A new game after every start tile is chosen (default: Colonial House for all);
    the Crown holder is about to build in round 1."""
    s = new_game(GameConfig(players=players, board=board, seed=seed, options=options,
                            exploits=exploits))
    for i in range(players):
        code = "colonial-house" if starts is None else starts[i]
        s.apply(f"start {code}")
    return s


def check(s: State) -> None:
    problems = check_invariants(s)
    assert not problems, problems


def at_actions(s: State, p: int, passed: int = 0) -> State:
    """Jump to the Action phase of the current round with ``p`` to act."""
    sched = _schedule(s.n, max(s.round, 1), s.config.options["phase_order"])
    s.round = max(s.round, 1)
    s.step = sched.index((PH_ACTIONS, 0))
    s.phase = PH_ACTIONS
    s.act_player = p
    s.passed = passed
    s.stack = [(F_ACTION, p)]
    s._legal = None
    return s


def give_building(s: State, p: int, code: str, staffed: bool = False) -> None:
    b = D.BUILDING_INDEX[code]
    if D.BUILDINGS[b].level == 5 and b not in s.level5:
        # swap it into this game's level-5 pool
        out = next(x for x in s.level5 if s.bsupply[x] == 1)
        s.bsupply[out] = 0
        s.level5 = tuple(sorted([x for x in s.level5 if x != out] + [b]))
        s.bsupply[b] = 1
    s._build(p, b)
    if staffed:
        pl = s.players[p]
        pl.supply -= 1
        pl.occ |= 1 << (len(pl.blds) - 1)
    s._legal = None


def give_discs(s: State, p: int, k: int) -> None:
    pl = s.players[p]
    assert pl.supply >= k
    pl.supply -= k
    pl.harbor += k
    s._legal = None


def place(s: State, p: int, site: str, token: int | None = -1) -> None:
    """Put a disc of ``p`` from supply on ``site`` (claiming links as the rules do).
    ``token=-1`` removes the site's token first (to the player who placed it is *not*
    credited); ``token=None`` leaves it to be gained."""
    x = D.SITE_INDEX[site]
    if token is not None:
        _drop_site_token(s, x)
    s.players[p].supply -= 1
    s._place(p, x)
    s._legal = None


def _drop_site_token(s: State, x: int) -> None:
    t = s.site_token[x]
    if t >= 0:
        s.site_token[x] = -1
        s.spent[t] += 1  # treated as out of the game for conservation


def set_site_token(s: State, site: str, token: int) -> None:
    """Replace the token on ``site`` by ``token`` (the old one leaves the game)."""
    x = D.SITE_INDEX[site]
    _drop_site_token(s, x)
    s.spent[token] -= 1
    s.site_token[x] = token


def set_link_token(s: State, a: str, b: str, token: int) -> int:
    li = link_index(s, a, b)
    t = s.link_token[li]
    if t >= 0:
        s.spent[t] += 1
    s.spent[token] -= 1
    s.link_token[li] = token
    return li


def link_index(s: State, a: str, b: str) -> int:
    x, y = D.SITE_INDEX[a], D.SITE_INDEX[b]
    for li, (u, v) in enumerate(s.info.board.links):
        if {u, v} == {x, y}:
            return li
    raise KeyError(f"no link {a}-{b} on side {s.config.board}")


def ship(s: State, p: int, region: str) -> None:
    """Ship a disc of ``p`` (from supply) to the region's track, as the rules do."""
    s.players[p].supply -= 1
    s.players[p].harbor += 1
    s._ship_track(p, s.players[p], REGION[region])
    s._legal = None


def sea(s: State, p: int, region: str) -> None:
    r = REGION[region]
    s.players[p].supply -= 1
    s.sea[p * 7 + r] += 1
    s.pres[p * 7 + r] += 1
    s._legal = None


def give_card(s: State, p: int, code: str, bonus: bool = False) -> None:
    """Move card ``code`` from its deck / the pile to ``p`` and gain its icons."""
    c = D.CARD_INDEX[code]
    for dk in s.decks:
        if c in dk:
            dk.remove(c)
            break
    else:
        if c in s.pile:
            s.pile.remove(c)
        elif c in s.gov_avail:
            s.gov_avail[s.gov_avail.index(c)] = -1
        else:
            raise ValueError(f"{code} is not available")
    s._gain_card(p, c, bonus)
    s._legal = None


def give_token(s: State, p: int, t: int) -> None:
    """``p`` gains a Trade token taken from outside the board (spent pile)."""
    s.spent[t] -= 1
    s._gain_token(s.players[p], t)
    s._legal = None


def play_random(s: State, seed: int = 0, pass_weight: float = 0.1) -> State:
    """Finish the game with random legal actions, rarely passing."""
    rng = random.Random(seed)
    while not s.is_over:
        la = s.legal_actions()
        if len(la) > 1 and la[-1].text == "pass" and rng.random() > pass_weight:
            la = la[:-1]
        s.apply(rng.choice(la))
    return s


def texts(s: State) -> list[str]:
    return [a.text for a in s.legal_actions()]


def set_track_token(s: State, region: str, space: int, token: int) -> None:
    """Replace the token on a free track space (0 = farthest from the deck, the first
    one claimed) by ``token``; the old token leaves the game."""
    r = REGION[region]
    assert space < s.info.trk_len[r]
    i = s.info.trk_off[r] + space
    assert s.trk_owner[i] < 0, "space already claimed"
    if s.trk_tok[i] >= 0:
        s.spent[s.trk_tok[i]] += 1
    s.spent[token] -= 1
    s.trk_tok[i] = token


def free_workers(s: State, p: int) -> None:
    """Pay every worker of ``p`` back to the Harbor (as a full Salary phase would)."""
    s._pay_all(p)
    s._legal = None


def open_region(s: State, region: str, *owners: int) -> None:
    """Fill the rest of ``region``'s track with discs of ``owners`` (cycled; default
    player 0), opening it and awarding its Governor as the rules do (R11)."""
    r = REGION[region]
    who = owners or (0,)
    k = 0
    while not s.is_open(r):
        ship(s, who[k % len(who)], region)
        k += 1


def exploit(s: State, exploit_id: str) -> int:
    """Index of an Exploit in play."""
    i = s.exploit_index(exploit_id)
    assert i >= 0, exploit_id
    return i
