"""Random-play invariant suite for the Silent Fleet (R21, R22; P80-P90): seeded 2-player
games checked after every action, and the fleet in play with each of the 15 Exploits.

:data:`GAMES` games cycle through board sides A and B, every combination of the three
optional rules (``limited_occupation``, ``no_token_reaction``, ``building_shortage``),
both phase orders, and every fourth game draws 3 random Exploits. The seat bots share
one generator seeded by the game seed; they rarely pass and favour shipping, so regions
open and the fleet reacts to every kind of action.

After every action: :func:`check_invariants` (the fleet's 35 discs in its supply and on
the board, the 95 tokens, every card in one place, every building copy in the supply,
on a mat or discarded by the shortage), legal actions sorted and unique, the decider a
seat (never the fleet), and the fleet's decisions asked of the right seat (its
reactions of the acting player, the shortage of the player without the Crown). Each
action's state change is audited: a fleet disc arriving on a site or a track space
sends the token there out of the game (``spent`` grows by exactly those tokens), a
fleet reaction gives no player anything, and the fleet never decides after a pass.
Every :data:`SAMPLE_EVERY` steps and at the end: copy isolation, the JSON round trip and
every legal branch (``scenario.check_position``). At the end: the replay, the same
seeds giving the same game, and scores for the two seats only.

:func:`test_coverage` asserts that the suite reached every reaction and outcome it is
meant to test (each decision kind of the fleet, a Governor won by it, a fleet disc
attacked, a discard by the shortage...).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import sweep
from endeavor import GameConfig, State, final_scores, new_game, replay
from endeavor import actions as A
from endeavor import data as D
from endeavor.exploits import EXPLOIT_IDS, REGISTRY
from endeavor.invariants import check_invariants
from scenario import (
    SHIPPY_BUILDS,
    check_position,
    exploit_bot,
    fleet_owner,
    fleet_supply,
    notations,
    play_checked,
    tally_abilities,
)

GAMES = 112
CHUNKS = 4
SAMPLE_EVERY = 12
SEED_BASE = 70_000
OPTIONAL = ("limited_occupation", "no_token_reaction", "building_shortage")
PASS_KEEP = 0.04
DONE_KEEP = 0.2
SHIP_PREFER = 0.5
#: the Exploit games: each Exploit with the fleet, this many games each
PER_EXPLOIT = 4

_COVERAGE: dict[int, Counter[str]] = {}


def game_config(g: int) -> GameConfig:
    """Game number -> config: side A/B, then each optional-rule combination, then the
    phase order; every fourth game with 3 random Exploits."""
    combo = g // 2 % 8
    options: dict[str, object] = {"silent_fleet": True,
                                  "phase_order": ("by_phase", "by_player")[g // 16 % 2]}
    for k, name in enumerate(OPTIONAL):
        if combo >> k & 1:
            options[name] = True
    return GameConfig(players=2, board="AB"[g % 2], seed=SEED_BASE + g, options=options,
                      exploits="random" if g % 4 == 3 else ())


class Bot:
    """Both seats, one generator: rarely pass or decline, ship half the time it can."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed * 131 + 7)

    def choose(self, s: State) -> int:
        codes = s.legal_codes()
        if len(codes) == 1:
            return codes[0]
        rng = self.rng
        last = codes[-1] >> A.SHIFT
        if last == A.V_PASS and rng.random() >= PASS_KEEP:
            codes = codes[:-1]
        elif last == A.V_DONE and rng.random() >= DONE_KEEP:
            codes = codes[:-1]
        ships = [c for c in codes if c >> A.SHIFT in (A.V_SHIP, A.V_ROUTE)]
        if ships and rng.random() < SHIP_PREFER:
            return rng.choice(ships)
        return rng.choice(codes)


def play_fast(g: int) -> State:
    s = new_game(game_config(g))
    bot = Bot(s.config.seed)
    while not s.is_over:
        s.apply_code(bot.choose(s))
    return s


# --------------------------------------------------------------------------- checks
def _fleet_places(s: State) -> tuple[set[int], set[int]]:
    """The sites and the track spaces (indices) holding a fleet disc."""
    q = fleet_owner(s)
    return ({x for x in s.info.sites if s.site_owner[x] == q},
            {k for k, o in enumerate(s.track_owner) if o == q})


def _mats(s: State) -> list[tuple[object, ...]]:
    """What each seat holds that a fleet reaction must never change (a Governor a seat
    wins when a fleet disc opens a region aside, R11)."""
    return [(pl.supply, pl.harbor, tuple(pl.brown_tokens), tuple(pl.blue), tuple(pl.base_discs),
             tuple(pl.buildings), pl.taken_circles) for pl in s.players]


def check_action(before: State, kind: str, player: int, c: int, after: State,
                 cov: Counter[str]) -> None:
    """Audit one action's change (see the module doc) and count what it reached."""
    sites0, track0 = _fleet_places(before)
    sites1, track1 = _fleet_places(after)
    gone: Counter[int] = Counter()
    for x in sites1 - sites0:
        assert after.site_token[x] < 0, f"a token left on {D.SITES[x].code} under the fleet"
        token = before.site_token[x]
        if token >= 0:
            gone[token] += 1
        cov["fleet disc on a " + ("city" if D.SITES[x].city else "trade route")] += 1
    for k in track1 - track0:
        if before.track_owner[k] < 0:  # a new space (not a disc pushed off by another)
            assert after.track_token[k] < 0
            token = before.track_token[k]
            if token >= 0:
                gone[token] += 1
            cov["fleet disc on a track"] += 1
    if kind.startswith("fleet_"):  # the reaction alone: exactly its tokens leave the game
        assert all(after.spent[t] - before.spent[t] == gone[t] for t in range(8)), \
            "a fleet reaction's tokens are not accounted for"
        assert _mats(after) == _mats(before), "a fleet reaction gave a seat something"
        opened = any(after.is_open(r) != before.is_open(r) for r in range(D.NREGIONS))
        for p in range(after.n):
            new = [c for c in after.held_cards(p) if c not in before.held_cards(p)]
            assert all(D.CARDS[c].governor for c in new) and (opened or not new), \
                f"a fleet reaction gave P{p} cards {new}"
        assert player == before.act_player, "the acting player makes the fleet's choices"
        cov[kind] += 1
    elif kind == "building_shortage":
        assert player == 1 - before.crown, "the shortage is for the player without the Crown"
        cov[kind] += 1
    else:
        for t in range(8):
            assert after.spent[t] - before.spent[t] >= gone[t]
    if fleet_supply(after) > fleet_supply(before):
        cov["fleet disc back to its supply"] += 1
    if c == A.PASS.code:
        d = after.decision()
        assert d is None or not d.kind.startswith("fleet_"), "the fleet reacted to a pass"
    if after.abolished and not before.abolished:
        cov["Abolition"] += 1
    for r in range(1, D.NREGIONS):
        if before.region_governors[r] >= 0 and after.region_governors[r] < 0:
            g = before.region_governors[r]
            if g in after.removed:
                cov["Governor won by the fleet"] += 1
                assert after.governor_winner(r) == fleet_owner(after)
    removed = len(after.removed) - len(before.removed)
    if kind == "fleet_draw":
        assert removed >= 1
        cov["fleet discarded a card"] += 1


def check_step(s: State) -> None:
    problems = check_invariants(s)
    assert not problems, problems
    codes = s.legal_codes()
    assert codes == sorted(set(codes))
    if s.is_over:
        assert codes == [] and s.current_player is None
        return
    assert codes and s.current_player is not None and 0 <= s.current_player < s.n


def check_end(s: State, g: int) -> None:
    rec = s.record()
    assert json.loads(json.dumps(rec)) == rec
    final = s.to_json()
    assert replay(rec).to_json() == final
    assert play_fast(g).record() == rec, "same seeds gave a different game"
    scores = final_scores(s)
    assert [sc.player for sc in scores] == [0, 1]  # the fleet is no seat (P87)
    for sc in scores:
        assert "The Silent Fleet" not in sc.lines and sc.total == sum(sc.lines.values())
    i = len(s.modules) - 1
    assert s.modules[i].id == "silent_fleet" and s.modules[i].describe_in(s, i)


def play_suite_game(g: int, cov: Counter[str]) -> None:
    s = new_game(game_config(g))
    bot = Bot(s.config.seed)
    check_step(s)
    step = 0
    while not s.is_over:
        c = bot.choose(s)
        d = s.decision()
        assert d is not None
        before = s.copy()
        s.apply_code(c)
        step += 1
        check_step(s)
        check_action(before, d.kind, d.player, c, s, cov)
        if step % SAMPLE_EVERY == 0 or d.kind.startswith(("fleet_", "building")) and \
                step % 5 == 0:
            check_position(s, step)
    check_position(s, step)
    check_end(s, g)
    cov["games"] += 1
    cov["steps"] += step


@pytest.mark.parametrize("chunk", sweep.chunks(CHUNKS))
def test_fleet_games(chunk: int) -> None:
    cov: Counter[str] = Counter()
    for g in range(chunk, GAMES, CHUNKS):
        try:
            play_suite_game(g, cov)
        except Exception as e:  # name the game, whatever failed
            cfg = game_config(g)
            raise AssertionError(f"game {g} (seed {cfg.seed}, board {cfg.board}, "
                                 f"options {dict(cfg.options)}, exploits {cfg.exploits}): "
                                 f"{type(e).__name__}: {e}") from e
    _COVERAGE[chunk] = cov


@sweep.whole_sweep
def test_coverage() -> None:
    total: Counter[str] = Counter()
    for chunk in range(CHUNKS):
        if chunk not in _COVERAGE:
            test_fleet_games(chunk)
        total += _COVERAGE[chunk]
    assert total["games"] == GAMES
    wanted = ("fleet_react", "fleet_ship", "fleet_occupy", "fleet_draw", "building_shortage",
              "fleet disc on a city", "fleet disc on a trade route", "fleet disc on a track",
              "fleet disc back to its supply", "Governor won by the fleet",
              "fleet discarded a card", "Abolition")
    missing = [w for w in wanted if not total[w]]
    assert not missing, f"never reached: {missing}; {dict(total)}"


# --------------------------------------------------------------------------- with each Exploit
@pytest.mark.parametrize("exploit", EXPLOIT_IDS)
def test_the_fleet_with_each_exploit(exploit: str) -> None:
    """The fleet and one Exploit, in seeded games whose bots favour its abilities, its
    regions' tracks (so it becomes active) and cities, and Attack sources (for the
    Attack abilities): invariants after every action, exact JSON and replay round trips
    (``scenario.play_checked``); the Exploit became active, one of its abilities was
    used and the fleet reacted."""
    k = EXPLOIT_IDS.index(exploit)
    used: Counter[str] = Counter()
    active = 0
    for j in range(PER_EXPLOIT):
        g = k * PER_EXPLOIT + j
        options: dict[str, object] = {"silent_fleet": True, OPTIONAL[g % 3]: True}
        config = GameConfig(players=2, board="AB"[g % 2], seed=SEED_BASE + 500 + g,
                            exploits=(exploit,), options=options)
        regions = REGISTRY[exploit].regions
        occupy = notations(*(f"occupy {x.code}" for x in D.SITES
                             if x.city and x.region in regions))
        attack = notations("act barracks", "act fortress", "use attack")
        bot = exploit_bot(ability_p=0.9, ship_p=0.6, pass_p=0.02,
                          ship_to=[D.REGION_CODES[r] for r in regions],
                          prefer=[(occupy, 0.8), (attack, 0.5)],
                          prefer_builds=SHIPPY_BUILDS)
        s = play_checked(config, 900 + g, bot, tally_abilities(used))
        active += s.exploit_active(0)
        assert [sc.player for sc in final_scores(s)] == [0, 1]
    assert active, f"{exploit} never became active alongside the fleet"
    assert any(not k.startswith(("fleet", "shortage")) for k in used), \
        f"no ability of {exploit} was used: {dict(used)}"
    assert used["fleet ship"] and used["fleet draw"], dict(used)
