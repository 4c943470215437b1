"""Helpers to build exact positions for scenario tests.

They move components through the engine's own primitives so every counter stays
consistent; call :func:`check` after building a position to be sure. Codes are the
printed ids: buildings "theater", cards "AF/1", sites "EU3" / "EUT1", regions "FE".
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from endeavor import GameConfig, IllegalActionError, State, final_scores, new_game, replay
from endeavor import actions as A
from endeavor import data as D
from endeavor.invariants import check_invariants
from endeavor.state import F_ACTION, F_BUILD, F_EFFECT, PH_ACTIONS, _schedule

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


# ---------------------------------------------------------------- random play for Exploits
#: a bot: picks one of ``s.legal_codes()`` using only ``rng`` for chance
Chooser = Callable[[State, random.Random], int]
#: a bot preference: the preferred subset (in legal order) of the legal codes
Pick = Callable[[State, list[int]], list[int]]
#: called after every action (and its :func:`check`) with the state, the action code and
#: the decision frame the action was taken in
OnAction = Callable[[State, int, tuple[int, ...] | None], None]

#: buildings whose activation can Ship
SHIPPERS = ("shipyard", "guild-hall", "docks", "cartographer", "merchant-dock")
#: builds the random-game bots favour: buildings that Ship or Attack, and the Market
SHIPPY_BUILDS = ("shipyard", "guild-hall", "docks", "cartographer", "barracks", "fortress",
                 "market")


def is_ability(c: int) -> bool:
    """Whether action code ``c`` is an Exploit ability (or an Exploit step)."""
    return A.V_EXPLOIT <= c >> A.SHIFT < A.V_DONE


def abilities(s: State, codes: list[int]) -> list[int]:
    return [c for c in codes if is_ability(c)]


def verbs(*vs: int) -> Pick:
    """Prefer the codes with one of the verbs ``vs``."""
    want = frozenset(vs)
    return lambda s, codes: [c for c in codes if c >> A.SHIFT in want]


def notations(*texts: str) -> Pick:
    """Prefer the actions written ``texts`` ("build fortress", "use attack", ...)."""
    want = frozenset(A.parse(t).code for t in texts)
    return lambda s, codes: [c for c in codes if c in want]


def by_frame(builds: Iterable[str] = (), effect: Iterable[int] = (),
             other: Iterable[int] = (A.V_ACT, A.V_USE)) -> Pick:
    """Prefer, by the decision at hand: in Construction the builds of ``builds``
    (building codes), on an effect the verbs ``effect``, anywhere else the verbs
    ``other``."""
    on_build = notations(*(f"build {b}" for b in builds))
    on_effect, elsewhere = verbs(*effect), verbs(*other)

    def pick(s: State, codes: list[int]) -> list[int]:
        f = s.frame
        if f is not None and f[0] == F_BUILD:
            return on_build(s, codes)
        if f is not None and f[0] == F_EFFECT:
            return on_effect(s, codes)
        return elsewhere(s, codes)
    return pick


def exploit_bot(ability_p: float = 0.9, ship_p: float = 0.8, *,
                ship_to: Iterable[str] = (), ship_to_p: float = 0.9,
                shippers: Iterable[str] = (),
                prefer: Sequence[tuple[Pick, float]] = (),
                prefer_builds: Iterable[str] = (), build_p: float = 0.8,
                pass_p: float = 0.1) -> Chooser:
    """A random player biased towards Exploits, for smoke tests. Tiers, in order, each
    taken (a random member) with its probability when it offers anything:

    1. Exploit abilities (``ability_p``);
    2. shipping to the track of one of the regions ``ship_to`` (``ship_to_p``);
    3. any Ship action, or activating one of ``shippers`` (``ship_p``);
    4. each ``(pick, p)`` of ``prefer``;
    5. building one of ``prefer_builds`` (``build_p``);

    otherwise any legal action, where "pass" (when not the only one) is kept only with
    probability ``pass_p`` (0: never, and without a draw). A tier of probability 0 is
    skipped without a draw, so a bot's games depend only on its seed and parameters.
    """
    ship_acts = frozenset(A.code(A.V_ACT, D.BUILDING_INDEX[b]) for b in shippers)

    def ships(s: State, codes: list[int]) -> list[int]:
        return [c for c in codes if c >> A.SHIFT == A.V_SHIP or c in ship_acts]

    tiers: list[tuple[Pick, float]] = [(abilities, ability_p)]
    to = tuple(ship_to)
    if to:
        tiers.append((notations(*(f"ship {r}" for r in to)), ship_to_p))
    tiers.append((ships, ship_p))
    tiers.extend(prefer)
    build_names = tuple(prefer_builds)
    if build_names:
        tiers.append((notations(*(f"build {b}" for b in build_names)), build_p))
    tiers = [(pick, p) for pick, p in tiers if p > 0]
    pass_code = A.PASS.code

    def choose(s: State, rng: random.Random) -> int:
        codes = s.legal_codes()
        for pick, p in tiers:
            picked = pick(s, codes)
            if picked and rng.random() < p:
                return rng.choice(picked)
        if len(codes) > 1 and codes[-1] == pass_code and (
                pass_p <= 0 or rng.random() < 1 - pass_p):
            codes = codes[:-1]
        return rng.choice(codes)
    return choose


def tally_abilities(used: Counter[str], words: int = 2) -> OnAction:
    """An ``on_action`` counting, in ``used``, the Exploit abilities taken by the first
    ``words`` words of their notation ("deic rebuild", "fortify", ...)."""
    def on_action(s: State, c: int, frame: tuple[int, ...] | None) -> None:
        if is_ability(c):
            used[" ".join(A.BY_CODE[c].text.split()[:words])] += 1
    return on_action


def play_checked(config: GameConfig, bot_seed: int, chooser: Chooser,
                 on_action: OnAction | None = None) -> State:
    """Play one whole game of ``config`` with ``chooser`` (seeded ``bot_seed``), checking
    the invariants after every action; then the JSON and replay round trips must be
    exact and the final scores computable. Returns the finished game."""
    s = new_game(config)
    rng = random.Random(bot_seed)
    while not s.is_over:
        c = chooser(s, rng)
        frame = s.frame
        s.apply_code(c)
        check(s)
        if on_action is not None:
            on_action(s, c, frame)
    js = s.to_json()
    assert State.from_json(js).to_json() == js
    assert replay(s.record()).to_json() == js
    final_scores(s)
    return s


def play_games(exploits: tuple[str, ...], games: int, bot_seed: int, chooser: Chooser,
               on_action: OnAction | None = None, *, boards: bool = False,
               options: Callable[[int], Mapping[str, object]] | None = None) -> list[State]:
    """:func:`play_checked` for games ``g`` in ``range(games)`` with ``exploits``: 2 to 5
    players in turn (``2 + g % 4``), game seed ``g``, bot seed ``bot_seed + g``; with
    ``boards``, the games with ``g % 4 == 2`` alternate the A and B sides; ``options(g)``
    gives each game's options. Returns the finished games."""
    return [play_checked(GameConfig(players=2 + g % 4, seed=g, exploits=exploits,
                                    board="AB"[g % 2] if boards and g % 4 == 2 else None,
                                    options=options(g) if options is not None else {}),
                         bot_seed + g, chooser, on_action)
            for g in range(games)]


def check_position(s: State, step: int) -> None:
    """Copy isolation, the JSON round-trip, every legal branch keeping the invariants and
    a few illegal actions rejected without a change, on one position (``step`` picks
    the sampled actions without touching any bot generator)."""
    before = s.to_json()
    legal = s.legal_actions()
    c = s.copy()
    assert c.to_json() == before
    r = State.from_json(before)
    assert r.to_json() == before
    assert r.legal_actions() == legal
    assert r.current_player == s.current_player and r.is_over == s.is_over
    if legal:
        a = legal[step * 7 % len(legal)]  # any legal action, without touching the bot rng
        assert A.parse(a.text) is a
        c.apply(a)
        assert s.to_json() == before, "applying an action to a copy changed the original"
        assert s.legal_actions() == legal
        r.apply(a)
        assert r.to_json() == c.to_json(), "a round-tripped state plays differently"
    for a in legal:  # every branch, not only the bots' choices, keeps the invariants
        child = s.copy()
        child.apply(a)
        problems = check_invariants(child)
        assert not problems, f"after {a}: {problems}"
    illegal = [x for x in A.CATALOGUE[step % 11::37] if x not in legal]
    for x in illegal[:3]:  # applying checks membership and leaves the state untouched
        try:
            s.apply(x)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"illegal {x} was applied")
    assert s.to_json() == before


def ready_to_act(s: State, p: int, harbor: int, building: str = "shipyard") -> State:
    """``p`` to act in the Action phase with every worker paid, a free ``building``
    (given if missing) and exactly ``harbor`` discs in the Harbor."""
    free_workers(s, p)
    if D.BUILDING_INDEX[building] not in s.players[p].blds:
        give_building(s, p, building)
    pl = s.players[p]
    pl.supply += pl.harbor
    pl.harbor = 0
    give_discs(s, p, harbor)
    return at_actions(s, p)
