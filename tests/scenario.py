"""Helpers to build exact positions for scenario tests.

The position builders come from the engine's documented test-support module
:mod:`endeavor.testing` (re-exported here); this file adds readers of the pending
decision through the public API (:func:`deciding`, :func:`decision_kind`,
:func:`payments_left`), the biased random bots and the checked random-play loops of the
Exploit suites.
"""

from __future__ import annotations

import builtins
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from endeavor import GameConfig, IllegalActionError, State, final_scores, new_game, replay
from endeavor import actions as A
from endeavor import data as D
from endeavor.invariants import check_invariants
from endeavor.testing import *  # noqa: F403  (the position builders)
from endeavor.testing import REGION, check  # noqa: F401


# ---------------------------------------------------------------- terminal input
def feed_input(monkeypatch: Any, answers: Iterable[str]) -> list[str]:
    """Answer ``input()`` with ``answers`` (EOF when they run out); return the prompts."""
    prompts: list[str] = []
    it: Iterator[str] = iter(answers)

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)
    return prompts


# ---------------------------------------------------------------- random play for Exploits
#: a bot: picks one of ``s.legal_codes()`` using only ``rng`` for chance
Chooser = Callable[[State, random.Random], int]
#: a bot preference: the preferred subset (in legal order) of the legal codes
Pick = Callable[[State, list[int]], list[int]]
#: called after every action (and its :func:`check`) with the state, the action code and
#: the kind of the decision the action answered (``Decision.kind``: "action", "effect"...)
OnAction = Callable[[State, int, str], None]

#: the decision kinds of a source's actions: its first (or only) action, the second half
#: of a "+" source, and a follow-up action (P16)
EFFECT_KINDS = frozenset({"effect", "second_action", "follow_up"})

#: buildings whose activation can Ship
SHIPPERS = ("shipyard", "guild-hall", "docks", "cartographer", "merchant-dock")
#: builds the random-game bots favour: buildings that Ship or Attack, and the Market
SHIPPY_BUILDS = ("shipyard", "guild-hall", "docks", "cartographer", "barracks", "fortress",
                 "market")


# ---------------------------------------------------------------- reading the decision
def deciding(s: State) -> tuple[str, int] | None:
    """``(kind, player)`` of the pending decision (:meth:`State.decision`), or None once
    the game is over."""
    d = s.decision()
    return None if d is None else (d.kind, d.player)


def decision_kind(s: State) -> str | None:
    """The kind of the pending decision (``Decision.kind``), or None once the game is
    over."""
    d = s.decision()
    return None if d is None else d.kind


def payments_left(s: State) -> int:
    """How many workers the pending Salary decision still asks to pay (its prompt says
    so: "Salary: pay 2 workers back ...", "Salary: pay 1 more worker back ...")."""
    d = s.decision()
    assert d is not None and d.kind == "salary", d
    m = re.match(r"Salary: pay (\d+) (?:more )?workers? ", d.prompt)
    assert m, d.prompt
    return int(m.group(1))


def is_ability(c: int) -> bool:
    """Whether action code ``c`` is an Exploit ability (or an Exploit step)."""
    return A.V_EXPLOIT <= c >> A.SHIFT < A.V_DONE


def abilities(s: State, codes: list[int]) -> list[int]:
    return [c for c in codes if is_ability(c)]


def verbs(*vs: int) -> Pick:
    """Prefer the codes with one of the verbs ``vs``."""
    want = frozenset(vs)
    return lambda s, codes: [c for c in codes if c >> A.SHIFT in want]


def notations(*wanted: str) -> Pick:
    """Prefer the actions written ``wanted`` ("build fortress", "use attack", ...)."""
    want = frozenset(A.parse(t).code for t in wanted)
    return lambda s, codes: [c for c in codes if c in want]


def by_frame(builds: Iterable[str] = (), effect: Iterable[int] = (),
             other: Iterable[int] = (A.V_ACT, A.V_USE)) -> Pick:
    """Prefer, by the decision at hand: in Construction the builds of ``builds``
    (building codes), on a source's action (:data:`EFFECT_KINDS`) the verbs ``effect``,
    anywhere else the verbs ``other``."""
    on_build = notations(*(f"build {b}" for b in builds))
    on_effect, elsewhere = verbs(*effect), verbs(*other)

    def pick(s: State, codes: list[int]) -> list[int]:
        # cheap public signals first: only a Construction decision offers builds, and
        # a source's actions are decided in the Action phase only
        if codes and codes[0] >> A.SHIFT == A.V_BUILD:
            return on_build(s, codes)
        if s.phase_name == "Actions":
            d = s.decision()
            if d is not None and d.kind in EFFECT_KINDS:
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
    def on_action(s: State, c: int, kind: str) -> None:
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
        d = s.decision() if on_action is not None else None
        s.apply_code(c)
        check(s)
        if on_action is not None:
            assert d is not None
            on_action(s, c, d.kind)
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


# ---------------------------------------------------------------- seeded invariant suites
class ChooseBots(Protocol):
    def choose(self, state: State, legal: list[A.Action]) -> A.Action: ...


class Suite:
    """A seeded random-play invariant suite (the Age of Sail and the 2009 ones): games
    ``seed`` in ``range(games)``, in ``chunks`` test chunks; ``config(seed)`` gives a
    game's config, ``bots(seed, players)`` its seat bots; after every action
    ``check_step(state)`` and ``tally(before, action, after, coverage)``; every
    ``sample_every`` steps and at the end :func:`check_position`; at the end
    ``check_end(state, seed)``. :meth:`coverage` asserts that the suite as a whole
    reached every rule event named."""

    def __init__(self, label: str, games: int, chunks: int, sample_every: int,
                 config: Callable[[int], GameConfig],
                 bots: Callable[[int, int], ChooseBots],
                 check_step: Callable[[State], None],
                 tally: Callable[[State, A.Action, State, Counter[str]], None],
                 check_end: Callable[[State, int], None]) -> None:
        self.label = label
        self.games = games
        self.chunks = chunks
        self.per_chunk = games // chunks
        self.sample_every = sample_every
        self.config = config
        self.bots = bots
        self.check_step = check_step
        self.tally = tally
        self.check_end = check_end
        self.covered: dict[int, Counter[str]] = {}

    def seeds(self, chunk: int) -> range:
        return range(chunk * self.per_chunk, (chunk + 1) * self.per_chunk)

    def play_fast(self, seed: int) -> State:
        """The game of ``seed``, unchecked (for determinism)."""
        cfg = self.config(seed)
        s = new_game(cfg)
        bots = self.bots(seed, cfg.players)
        while not s.is_over:
            s.apply_code(bots.choose(s, s.legal_actions()).code)
        return s

    def play_checked(self, seed: int, cov: Counter[str]) -> State:
        cfg = self.config(seed)
        s = new_game(cfg)
        bots = self.bots(seed, cfg.players)
        self.check_step(s)
        check_position(s, 0)
        step = 0
        while not s.is_over:
            a = bots.choose(s, s.legal_actions())
            prev = s.copy()
            s.apply(a)
            step += 1
            self.check_step(s)
            self.tally(prev, a, s, cov)
            if step % self.sample_every == 0:
                check_position(s, step)
        check_position(s, step)
        self.check_end(s, seed)
        cov["games"] += 1
        cov["steps"] += step
        return s

    def run_chunk(self, chunk: int) -> Counter[str]:
        """Play and check the games of ``chunk``; a failure names its game."""
        cov: Counter[str] = Counter()
        for seed in self.seeds(chunk):
            try:
                self.play_checked(seed, cov)
            except Exception as e:  # name the game, whatever failed (engine errors too)
                cfg = self.config(seed)
                raise AssertionError(
                    f"seed {seed} ({cfg.players} players, board {cfg.board}, "
                    f"{cfg.options['phase_order']}): {type(e).__name__}: {e}") from e
        self.covered[chunk] = cov
        return cov

    def coverage(self, covered: Sequence[str]) -> None:
        """Assert that the suite reached every event of ``covered`` (chunks not run in
        this session are replayed here, tallied without the checks)."""
        total: Counter[str] = Counter()
        for chunk in range(self.chunks):
            cov = self.covered.get(chunk)
            if cov is None:
                cov = Counter()
                for seed in self.seeds(chunk):
                    cfg = self.config(seed)
                    s = new_game(cfg)
                    bots = self.bots(seed, cfg.players)
                    while not s.is_over:
                        a = bots.choose(s, s.legal_actions())
                        prev = s.copy()
                        s.apply(a)
                        self.tally(prev, a, s, cov)
                self.covered[chunk] = cov
            total += cov
        report = ", ".join(f"{k} {total[k]}" for k in covered)
        print(f"\ncoverage over {self.games} {self.label}: {report}")
        missing = [k for k in covered if total[k] <= 0]
        assert not missing, f"never exercised: {missing} ({report})"
