"""The rating method and the bot levels' calibration: a newcomer's shown rating is 0.0,
a game's places move the ratings as OpenSkill's Plackett-Luce model does (ties share a
place), the family of a config; ``endeavor ratings calibrate`` on a tiny tournament's
results (the same output twice, errors in words); the shipped calibration covers every
family and orders the levels by their measured strength."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from endeavor.cli import main
from endeavor.web.ratings import model
from endeavor.web.ratings.calibrate import calibrate


def test_the_model_is_openskills_plackett_luce_by_places() -> None:
    assert model.shown(model.MU, model.SIGMA) == 0.0
    got = model.rate([(25.0, 25 / 3), (30.0, 5.0), (20.0, 6.0)], [2, 1, 2])
    pl = PlackettLuce()
    want = pl.rate([[pl.rating(mu=25.0, sigma=25 / 3)], [pl.rating(mu=30.0, sigma=5.0)],
                    [pl.rating(mu=20.0, sigma=6.0)]], ranks=[2, 1, 2])
    assert got == [(t[0].mu, t[0].sigma) for t in want]
    assert got[1][0] > 30.0 and got[0][0] < 25.0
    with pytest.raises(ValueError):
        model.rate([(25.0, 8.0)], [1])


@pytest.mark.parametrize(("config", "family"), [
    ({"players": 3}, "age-of-sail"),
    ({"players": 3, "exploits": ["imperialism"]}, "age-of-sail"),
    ({"players": 4, "ruleset": "classic"}, "classic"),
    ({"players": 2, "options": {"silent_fleet": True}}, "silent-fleet")])
def test_the_family_of_a_config(config: dict[str, object], family: str) -> None:
    assert model.family_of(config) == family


def test_calibrate_a_tiny_tournament(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     ) -> None:
    results = tmp_path / "tiny.json"
    assert main(["tournament", "--bots", "easy,medium", "--games", "4", "--seed", "5",
                 "--workers", "1", "--quiet", "--out", str(results)]) == 0
    out = tmp_path / "calibration.json"
    assert main(["ratings", "calibrate", str(results), "--out", str(out)]) == 0
    assert "Saved the calibration" in capsys.readouterr().out
    cal = json.loads(out.read_text())
    levels = cal["families"]["age-of-sail"]
    assert set(levels) == {"easy", "medium"} and set(cal["families"]) == {"age-of-sail"}
    assert levels["easy"]["games"] == levels["medium"]["games"] == 4
    for r in levels.values():
        assert r["rating"] == model.shown(r["mu"], r["sigma"])
        assert r["sigma"] < model.SIGMA
    assert cal["order"]["age-of-sail"] == sorted(levels, key=lambda lv: levels[lv]["rating"])
    [source] = cal["sources"]
    assert source["command"] == ("endeavor tournament --bots easy,medium --players 2 "
                                 "--games 4 --seed 5 --workers 1 --out tiny.json")
    assert calibrate([results]) == cal  # reproducible
    assert main(["ratings", "calibrate", str(out)]) == 2
    assert "not an endeavor tournament results file" in capsys.readouterr().err
    mixed = tmp_path / "mixed.json"
    assert main(["tournament", "--bots", "easy,random", "--games", "2", "--workers", "1",
                 "--quiet", "--out", str(mixed)]) == 0
    assert main(["ratings", "calibrate", str(mixed)]) == 2
    assert "'random' is not a bot level" in capsys.readouterr().err


def test_the_shipped_calibration_orders_the_levels_by_strength() -> None:
    cal = model.calibration()
    assert set(cal["families"]) == set(model.FAMILIES)
    for family, levels in cal["families"].items():
        by_rating = sorted(levels, key=lambda lv: levels[lv]["rating"])
        assert cal["order"][family] == by_rating
        assert by_rating.index("easy") < by_rating.index("medium") < by_rating.index("hard")
        for level, r in levels.items():
            assert model.seed(level, family) == (r["mu"], r["sigma"])
            assert r["games"] >= 10
    assert {s["family"] for s in cal["sources"]} == set(model.FAMILIES)
