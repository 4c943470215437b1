"""The recorded games the review's speed and label-agreement tables are measured on
(``tests/fixtures/review/game_{2,3,4,5}p.record.json``): one Age of Sail game per player
count, with seats of different strengths so the review has mistakes to find (seat 0
``hard`` at 200 iterations, then ``medium``, ``easy``, ``hard`` at 50 iterations,
``medium``), deals seeded 1..4.

    PYTHONPATH=src python tools/review_games.py [OUTDIR]   # default tests/fixtures/review
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from endeavor import GameConfig, new_game
from endeavor.bots import Bot, make

#: the seats' bots, in seat order (the first ``players`` of them)
SEATS: tuple[tuple[str, int | None], ...] = (
    ("hard", 200), ("medium", None), ("easy", None), ("hard", 50), ("medium", None))


def _bot(name: str, iterations: int | None, seed: int) -> Bot:
    return make(name, seed=seed) if iterations is None else make(
        name, seed=seed, iterations=iterations)


def play(players: int, deal: int) -> dict[str, object]:
    """The record of one game of ``players`` on deal ``deal``."""
    s = new_game(GameConfig(players=players, seed=deal))
    bots = [_bot(name, it, 100 * deal + i) for i, (name, it) in enumerate(SEATS[:players])]
    while not s.is_over:
        p = s.current_player
        assert p is not None
        s.apply(bots[p].choose(s))
    return s.record()


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "tests/fixtures/review")
    out.mkdir(parents=True, exist_ok=True)
    for players in (2, 3, 4, 5):
        record = play(players, players - 1)
        path = out / f"game_{players}p.record.json"
        path.write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{path}: {len(record['actions'])} actions")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
