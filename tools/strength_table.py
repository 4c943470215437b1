"""The `expert` targets' table of docs/bots.md ("At the targets' sample sizes"), from the
tournament results saved in docs/strength/ (`endeavor tournament --out/--resume`):
`python tools/strength_table.py` prints it as Markdown; a match not started yet says so.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

STRENGTH = Path(__file__).resolve().parent.parent / "docs" / "strength"


def _load(name: str) -> dict[str, Any] | None:
    path = STRENGTH / name
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _row(result: dict[str, Any], bot: str) -> dict[str, Any]:
    return next(r for r in result["summary"] if r["bot"] == bot)


def _share(result: dict[str, Any] | None, bot: str, target_games: int) -> tuple[str, str]:
    if result is None:
        return f"0 of {target_games}", "not started"
    r = _row(result, bot)
    lo, hi = r["ci95"]
    others = [x for x in result["summary"] if x["bot"] != bot]
    vs = ", ".join(f"{x['mean_score']:.1f}" for x in others)
    return (f"{len(result['games'])} of {target_games}",
            f"`{bot}` {round(r['wins'], 2):g}/{r['games']}: **{100 * r['win_share']:.1f}%** "
            f"({100 * lo:.1f}–{100 * hi:.1f}), mean score {r['mean_score']:.1f} against "
            f"{vs}")


def _mean(result: dict[str, Any] | None) -> tuple[int, float | None]:
    if result is None or not result["games"]:
        return 0, None
    scores = [s for g in result["games"] for s in g["scores"]]
    return len(result["games"]), sum(scores) / len(scores)


def table() -> str:
    two = _share(_load("expert-hard-2p.json"), "expert", 100)
    four = _share(_load("expert-3hard-4p.json"), "expert", 60)
    ne, me = _mean(_load("expert-selfplay-4p.json"))
    nh, mh = _mean(_load("hard-selfplay-4p.json"))
    selfplay = " against ".join(
        f"`{b}` {m:.1f}" if m is not None else f"`{b}` not started"
        for b, m in (("expert", me), ("hard", mh)))
    rows = [
        "| match | games so far | result | target |",
        "|---|---|---|---|",
        f"| `expert` against `hard`, 2 players | {two[0]} | {two[1]} | ≥ 60%, the "
        "interval's lower end above 50% |",
        f"| `expert` against three `hard`, 4 players | {four[0]} | {four[1]} | ≥ 35% |",
        f"| 4-player self-play, mean score per seat | {ne} and {nh} of 16 | {selfplay} | "
        "`expert`'s higher |",
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(table() + "\n")
