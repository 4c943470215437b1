"""The bot levels' seed ratings: ``endeavor ratings calibrate RESULTS.json... --out
calibration.json`` rates the games of ``endeavor tournament`` results files (what its
``--out`` writes) with the model the server rates people with (:mod:`.model`), each
file's games in order, file after file; each family's levels start as newcomers. A game
with two seats of one level moves that level once, by the mean of the seats' results,
as on the server. The output (``calibration.json`` in this package is one) has each
family's levels with ``mu``, ``sigma``, the shown rating and the games they played,
whether the levels came out in the order ``easy < medium < hard < expert`` of the
levels measured, and the tournaments rated with the command that makes each again."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from . import model

FORMAT: Final = "endeavor-ratings-calibration"
VERSION: Final = 1


class CalibrationError(ValueError):
    """A results file that cannot be rated (not a tournament's, a bot that is not a
    level, a damaged game)."""


def command_of(settings: Mapping[str, Any], name: str) -> str:
    """The ``endeavor tournament`` command that plays the tournament of ``settings``
    again (its games are the same: iteration budgets, a fixed seed)."""
    config = settings.get("config", {})
    options = config.get("options", {})
    parts = ["endeavor tournament", f"--bots {','.join(settings['bots'])}",
             f"--players {config.get('players')}", f"--games {settings.get('games')}",
             f"--seed {settings.get('seed')}"]
    if config.get("ruleset") == "classic":
        parts.append("--ruleset classic")
    if options.get("silent_fleet"):
        parts.append("--silent-fleet")
    parts += ["--workers 1", f"--out {name}"]
    return " ".join(parts)


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise CalibrationError(f"{path}: {e.strerror or e}") from None
    except ValueError as e:
        raise CalibrationError(f"{path}: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != "endeavor-tournament":
        raise CalibrationError(f"{path}: not an endeavor tournament results file (what "
                               "endeavor tournament --out writes)")
    return data


def _levels_of(path: Path, settings: Mapping[str, Any]) -> dict[str, str]:
    """Entrant label -> level."""
    out = {}
    for e in settings.get("entrants", []):
        if e.get("name") not in model.LEVELS:
            raise CalibrationError(f"{path}: {e.get('label')!r} is not a bot level: "
                                   f"only {', '.join(model.LEVELS)} are rated")
        out[e["label"]] = e["name"]
    return out


def _rate_game(table: dict[str, list[Any]], seating: Sequence[str],
               ranks: Sequence[int]) -> None:
    """One game's ratings applied to ``table`` (level -> [mu, sigma, games])."""
    before = [(float(table[lv][0]), float(table[lv][1])) for lv in seating]
    after = model.rate(before, ranks)
    for lv in dict.fromkeys(seating):
        mine = [after[i] for i, x in enumerate(seating) if x == lv]
        table[lv][0] = sum(m for m, _ in mine) / len(mine)
        table[lv][1] = sum(s for _, s in mine) / len(mine)
        table[lv][2] += 1


def calibrate(paths: Sequence[str | Path]) -> dict[str, Any]:
    """The calibration of the results files ``paths`` (see the module's doc)."""
    tables: dict[str, dict[str, list[Any]]] = {}
    sources = []
    for p in paths:
        path = Path(p)
        data = _read(path)
        settings = data.get("settings", {})
        family = model.family_of(settings.get("config", {}))
        level_of = _levels_of(path, settings)
        table = tables.setdefault(family, {})
        for game in data.get("games", []):
            try:
                seating = [level_of[label] for label in game["seating"]]
                ranks = [int(r) for r in game["ranks"]]
            except (KeyError, TypeError, ValueError) as e:
                raise CalibrationError(f"{path}: a damaged game ({e})") from None
            for lv in seating:
                table.setdefault(lv, [model.MU, model.SIGMA, 0])
            _rate_game(table, seating, ranks)
        sources.append({"file": path.name, "family": family, "bots": settings.get("bots"),
                        "players": settings.get("config", {}).get("players"),
                        "games": len(data.get("games", [])),
                        "command": command_of(settings, path.name)})
    families: dict[str, Any] = {}
    for family in model.FAMILIES:
        if family not in tables:
            continue
        table = tables[family]
        levels = [lv for lv in model.LEVELS if lv in table]
        by_rating = sorted(levels, key=lambda lv: table[lv][0] - 3 * table[lv][1])
        families[family] = {
            "levels": {lv: {"mu": round(table[lv][0], 3), "sigma": round(table[lv][1], 3),
                            "rating": model.shown(table[lv][0], table[lv][1]),
                            "games": table[lv][2]} for lv in levels},
            "order": by_rating, "ordered": by_rating == levels}
    return {"format": FORMAT, "version": VERSION,
            "method": "OpenSkill Plackett-Luce (mu 25, sigma 25/3), the games in order",
            "families": {f: v["levels"] for f, v in families.items()},
            "order": {f: v["order"] for f, v in families.items()},
            "ordered": {f: v["ordered"] for f, v in families.items()},
            "sources": sources}


def run(files: Sequence[str], out: str | None) -> tuple[dict[str, Any], str | None]:
    """``endeavor ratings calibrate``: the calibration, written to ``out`` (if given)."""
    result = calibrate(files)
    if out is not None:
        Path(out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result, out
