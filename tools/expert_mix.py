"""``expert`` at a given leaf mix against three ``hard``, 4 players: the match behind
the expert bot's rule for the player counts its network was never trained on
(docs/bots.md, "The expert level").

usage:
  python tools/expert_mix.py MIX GAMES BUDGET SEED OUT.json

The shipped network plays at ``MIX`` (the hand-made values' share at the leaves) in
4-player games whatever it was trained on: its header is made to claim every player
count, so that :func:`endeavor.bots.expert.mix_for` keeps the mix asked (the bot itself
plays ``mix=1`` where its network never saw the count). The tournament tool seats the
bots in rotation, each deal from every seat, on one worker, and writes its JSON to
``OUT.json``; ``BUDGET`` is a tournament budget (``0.25s-cpu``, ``1s-cpu``, ``300``)."""

from __future__ import annotations

import copy
import functools
import sys
from typing import Any

from endeavor.analysis.tournament import run_tournament
from endeavor.bots import make
from endeavor.bots.expert import load_net
from endeavor.bots.net import Net


def _every_count() -> Net:
    """The shipped network, its header saying it was trained on 2 to 5 players (the
    arrays shared, not copied)."""
    net = load_net()
    header = copy.deepcopy(net.header)
    header.setdefault("training", {}).setdefault("settings", {})["players"] = [2, 3, 4, 5]
    return Net(net.params, header)


def factory(name: str, seed: int = 0, mix: float = 0.5, **budget: Any) -> Any:
    """The tournament's bots: ``expert`` at ``mix`` on :func:`_every_count`'s network."""
    if name == "expert":
        return make("expert", seed=seed, mix=mix, weights=_every_count(), **budget)
    return make(name, seed=seed, **budget)


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    mix, games, budget, seed, out = float(argv[0]), int(argv[1]), argv[2], int(argv[3]), argv[4]
    result = run_tournament(["expert", "hard", "hard", "hard"], games=games, seed=seed,
                            players=4, budget=budget, workers=1,
                            factory=functools.partial(factory, mix=mix))
    result.write_json(out)
    for row in result.table:
        print(row.bot, row.wins, f"{row.win_share:.3f}", f"({row.ci_low:.3f}-{row.ci_high:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
