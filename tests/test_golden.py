"""Golden playthroughs (OpenSpiel ``integration_tests/playthroughs`` style).

A seeded game is played by a seeded random chooser and written as text: one line per
decision (step, round, phase, player, the legal actions and the chosen one), a compact
summary of every player whenever the round changes, and the final score breakdown
(R19, R20). The test regenerates the text and compares it with the checked-in file in
``tests/golden/``; any change in rules, move generation, notation or scoring shows up
as a diff to review. After an intended change, regenerate with ``make golden``
(``ENDEAVOR_REGEN_GOLDEN=1 pytest tests/test_golden.py``) and read the diff.

Line format::

    0042 r3 Actions P2 effect | 9: ship SA, ship CA, ... | -> ship CA

``0042`` the step, ``r3`` the round (0 = setup), then the phase, the player to decide
and the kind of decision, the number of legal actions and their notations (separated by
commas since a notation holds a space), and the chosen action.
"""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path

import pytest

from endeavor import GameConfig, State, final_scores, new_game
from endeavor import actions as A
from endeavor import data as D

GOLDEN_DIR = Path(__file__).parent / "golden"
REGEN = os.environ.get("ENDEAVOR_REGEN_GOLDEN") == "1"
#: the chooser passes (or declines a "+" second half) with this probability only
PASS_PROBABILITY = 0.15

#: the decision kind as the golden files write it (``Decision.kind`` in words, both halves
#: of a source being an "effect"); other kinds are written as they are
KIND_WORDS = {"start_tile": "start tile", "governor_slot": "governor slot",
              "second_action": "effect", "follow_up": "effect"}

GAMES = {
    "age_of_sail_A_3p": (GameConfig(players=3, board="A", seed=2024), 1),
    "age_of_sail_B_4p": (GameConfig(players=4, board="B", seed=7,
                                    options={"phase_order": "by_player"}), 2),
    # the 2009 ruleset: no start tiles, discards when passing (P71), beside the track (P73)
    "classic_3p": (GameConfig(players=3, ruleset="classic", seed=2009), 3),
    "classic_5p": (GameConfig(players=5, ruleset="classic", seed=11,
                              options={"phase_order": "by_player"}), 4),
}


def choose(rng: random.Random, legal: list[A.Action]) -> A.Action:
    """RandomBot-like: uniform among the legal actions, except that pass / done (which
    sort last) is kept only with :data:`PASS_PROBABILITY` when there is another choice."""
    if len(legal) > 1 and legal[-1].verb in (A.V_PASS, A.V_DONE) and \
            rng.random() >= PASS_PROBABILITY:
        return rng.choice(legal[:-1])
    return rng.choice(legal)


def player_summary(s: State, p: int) -> str:
    pl = s.players[p]
    names = s.rules.token_names  # Industry, Culture, Wealth / Finance, Influence / Politics
    tracks = " ".join(f"{names[i][:3].lower()} {pl.attr[i]}" for i in range(4))
    blds = " ".join(D.BUILDINGS[b].code + ("*" if pl.occ >> i & 1 else "")
                    for i, b in enumerate(pl.blds)) or "-"
    cards = " ".join(D.CARDS[c].code for c in pl.cards) or "-"
    gov = D.CARDS[pl.gov].code if pl.gov >= 0 else "-"
    toks = [f"{D.TOKEN_CODES[t]} {k}" for t, k in enumerate(pl.btok + pl.blue) if k]
    aside = " ".join(D.CARDS[c].code for c in pl.aside)
    line = (f"  P{p} supply {pl.supply} harbor {pl.harbor} | {tracks} | {blds} | "
            f"cards {cards} | gov {gov} | tokens {', '.join(toks) or '-'}")
    if any(pl.mem):
        line += f" | memorial {pl.mem}"
    if aside:
        line += f" | set aside {aside}"
    return line


def _claimed(s: State, r: int) -> int:
    """Discs on the region's track."""
    return sum(1 for o in s.track(r) if o >= 0)


def board_summary(s: State) -> str:
    tracks = " ".join(
        f"{D.REGION_CODES[r]} {_claimed(s, r)}/{len(s.track(r))}" + ("*" if s.is_open(r) else "")
        for r in range(1, D.NREGIONS))
    on_board = s.rules.boards[str(s.config.board)].sites
    sites = " ".join(f"{D.SITES[x].code}:P{s.site_owner[x]}" for x in on_board
                     if s.site_owner[x] >= 0) or "-"
    pile = " ".join(D.CARDS[c].code for c in s.pile) or "-"
    beside = " ".join(f"{D.REGION_CODES[r]}:P{p}x{s.sea_discs(p, r)}"
                      for r in range(1, D.NREGIONS) for p in range(s.n) if s.sea_discs(p, r))
    more = f" | beside {beside}" if s.config.ruleset == "classic" and beside else ""
    return (f"  tracks {tracks} (* open) | abolished {'yes' if s.abolished else 'no'} | "
            f"pile {pile}{more}\n  sites {sites}")


def round_header(s: State) -> list[str]:
    title = "game over" if s.is_over else f"round {s.round}"
    return [f"== {title}: Crown P{s.crown} ==", board_summary(s)] + \
        [player_summary(s, p) for p in range(s.n)]


def playthrough(config: GameConfig, bot_seed: int) -> str:
    s = new_game(config)
    rng = random.Random(bot_seed)
    out = ["# Endeavor golden playthrough; regenerate with `make golden`",
           f"# config {json.dumps(config.to_dict())}",
           f"# chooser random.Random({bot_seed}); pass / done kept with probability "
           f"{PASS_PROBABILITY} when there is another choice",
           f"# level-5 pool: {' '.join(D.BUILDINGS[b].code for b in s.level5)}"]
    out += round_header(s)
    step = 0
    while not s.is_over:
        legal = s.legal_actions()
        a = choose(rng, legal)
        d = s.decision()
        assert d is not None
        step += 1
        out.append(f"{step:04d} r{s.round} {s.phase_name} P{d.player} "
                   f"{KIND_WORDS.get(d.kind, d.kind)} | {len(legal)}: "
                   f"{', '.join(x.text for x in legal)} | -> {a.text}")
        rnd = s.round
        s.apply(a)
        if s.round != rnd or s.is_over:
            out += round_header(s)
    out.append("== final scores ==")
    for sc in final_scores(s):
        lines = ", ".join(f"{k} {v}" for k, v in sc.lines.items())
        out.append(f"  P{sc.player}: {lines} = {sc.total} (rank {sc.rank})")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", list(GAMES))
def test_golden(name: str) -> None:
    config, bot_seed = GAMES[name]
    text = playthrough(config, bot_seed)
    path = GOLDEN_DIR / f"{name}.txt"
    if REGEN:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing; run `make golden` to create it"
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = difflib.unified_diff(want.splitlines(), text.splitlines(),
                                    f"{path.name} (checked in)", f"{path.name} (engine now)",
                                    lineterm="", n=2)
        shown = list(diff)
        more = f"\n... {len(shown) - 150} more diff lines" if len(shown) > 150 else ""
        pytest.fail(f"golden playthrough {name} changed (if intended: make golden)\n"
                    + "\n".join(shown[:150]) + more, pytrace=False)


def test_playthrough_is_deterministic() -> None:
    config, bot_seed = GAMES["age_of_sail_A_3p"]
    assert playthrough(config, bot_seed) == playthrough(config, bot_seed)
