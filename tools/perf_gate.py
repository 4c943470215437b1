"""The performance gate: fails when the engine executes more instructions per decision
than the checked-in baseline (tools/perf_baseline.json) allows.

usage: python tools/perf_gate.py [--builds pure,mypyc] [--update] [--baseline FILE]
                                 [--games N] [--warm N]

For each build (pure: ``.venv/bin/python`` with PYTHONPATH=src; mypyc: the compiled
wheel in ``.venv-mypyc``, built by ``make compiled``) it runs tools/perf_loop.py once
under callgrind and reads, per loop (the public ``legal_actions()``/``apply()`` loop and
the ``legal_codes()``/``apply_code()`` fast path, each without and with random
Exploits), the instructions of its counted phase divided by its decisions. Start-up,
warm-up games and exit are separate callgrind dumps, never in a figure, and the run is
deterministic (fixed seeds, PYTHONHASHSEED=0): a repeat run gives the same figures.

It always prints every figure beside its baseline and their ratio; it fails (exit 1)
when a ratio is above 1 + FAIL_PERCENT/100 and warns above 1 + WARN_PERCENT/100. Figures
taken with another Python version are not comparable: the ratios are printed, the gate
says so loudly and does not fail (re-take the baseline with that Python). ``--update``
measures and rewrites the baseline: do it in the commit that makes the engine faster or
accepts a slowdown, and say why in its message (docs/performance.md).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tools" / "perf_baseline.json"
DRIVER = ROOT / "tools" / "perf_loop.py"
#: the agreed thresholds, in percent above the baseline
FAIL_PERCENT = 5.0
WARN_PERCENT = 2.0
#: counted games per figure and warm-up games before them (when the baseline names none)
GAMES = 20
WARM = 2
#: the figures, in the order perf_loop.py plays them
FIGURES = ("public/none", "public/random", "codes/none", "codes/random")
BUILDS = ("pure", "mypyc")
VALGRIND = os.environ.get("VALGRIND", "valgrind")


@dataclass
class Report:
    """The comparison of measured figures with a baseline: the printed lines and the
    verdict (``ok``, ``warn``, ``fail`` or ``not comparable``)."""
    lines: list[str] = field(default_factory=list)
    status: str = "ok"
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if self.status == "fail" else 0


def compare(baseline: dict[str, Any], measured: dict[str, Any],
            fail: float = FAIL_PERCENT, warn: float = WARN_PERCENT) -> Report:
    """Compare ``measured`` (``{build: {"python", "valgrind", "figures": {name: n}}}``)
    with ``baseline`` (the same shape under ``"builds"``). Every measured figure gets a
    line with its ratio. A ratio above ``1 + fail/100`` fails, above ``1 + warn/100``
    warns; a figure without a baseline fails (take one with ``--update``); a build whose
    Python version differs from its baseline's is printed but judged not comparable."""
    r = Report()
    r.lines.append(f"{'build':6} {'figure':14} {'baseline':>9} {'now':>9} {'ratio':>7}")
    incomparable = False
    for build, m in measured.items():
        base = baseline.get("builds", {}).get(build)
        if base is None:
            r.failures.append(f"{build}: no baseline for this build (take one: --update)")
            for name, now in m["figures"].items():
                r.lines.append(f"{build:6} {name:14} {'-':>9} {now:>9,} {'-':>7}  no baseline")
            continue
        same_python = base.get("python") == m.get("python")
        if not same_python:
            incomparable = True
            r.notes.append(
                f"{build}: the baseline was taken with Python {base.get('python')}, this is "
                f"Python {m.get('python')}: instruction counts are NOT comparable across "
                "Python versions; these ratios decide nothing (re-take the baseline with "
                "this Python: --update)")
        if base.get("valgrind") != m.get("valgrind"):
            r.notes.append(f"{build}: baseline taken with {base.get('valgrind')}, this is "
                           f"{m.get('valgrind')} (counts should not depend on it)")
        for name, now in m["figures"].items():
            was = base.get("figures", {}).get(name)
            if not was:
                r.failures.append(f"{build} {name}: no baseline figure (take one: --update)")
                r.lines.append(f"{build:6} {name:14} {'-':>9} {now:>9,} {'-':>7}  no baseline")
                continue
            ratio = now / was
            verdict = "ok"
            what = f"{build} {name}: {ratio:.4f} ({(ratio - 1) * 100:+.2f} %)"
            if ratio > 1 + fail / 100:
                verdict = "SLOWER" if same_python else "slower (other Python)"
                (r.failures if same_python else r.warnings).append(what)
            elif ratio > 1 + warn / 100:
                verdict = "warning"
                r.warnings.append(what)
            elif ratio < 1 - fail / 100:
                verdict = "faster"
                r.notes.append(f"{what}: faster than the baseline; lock the gain in with "
                               "--update in the commit that made it")
            r.lines.append(f"{build:6} {name:14} {was:>9,} {now:>9,} {ratio:>7.4f}  {verdict}")
    if r.failures:
        r.status = "fail"
    elif incomparable:
        r.status = "not comparable"
    elif r.warnings:
        r.status = "warn"
    return r


# ---------------------------------------------------------------------- measuring
def valgrind_version() -> str:
    out = subprocess.run([VALGRIND, "--version"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def interpreter(build: str) -> Path:
    return ROOT / (".venv" if build == "pure" else ".venv-mypyc") / "bin" / "python"


def measure(build: str, games: int, warm: int, python: Path | None = None,
            extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    """One callgrind run of perf_loop.py on ``build`` (with ``python``, by default the
    project's venv of that build): its figures (instructions per decision of each loop's
    counted phase), Python and valgrind versions."""
    python = Path(os.path.abspath(python or interpreter(build)))  # a venv's link, kept
    if not python.exists():
        raise SystemExit(f"perf_gate: no {build} build at {python} (make "
                         f"{'dev' if build == 'pure' else 'compiled'}, or --builds)")
    # a fixed, small environment: its size moves the addresses of Python's objects,
    # and with them the probes of identity-hashed dicts (a few tenths of a percent)
    env = {"PYTHONHASHSEED": "0", "LC_ALL": "C.UTF-8", "PATH": os.defpath}
    if build == "pure":
        env["PYTHONPATH"] = str(ROOT / "src")
    plant = os.environ.get("ENDEAVOR_PERF_PLANT")  # for the driver (never the engine)
    if plant:
        env["ENDEAVOR_PERF_PLANT"] = plant
    env.update(extra_env or {})
    with tempfile.TemporaryDirectory(prefix="perf_gate.") as tmp:
        out = Path(tmp) / "cg.out"
        run = subprocess.run(
            [shutil.which(VALGRIND) or VALGRIND, "--tool=callgrind", "--dump-before=getppid",
             f"--callgrind-out-file={out}", str(python), str(DRIVER), str(warm), str(games)],
            capture_output=True, text=True, env=env, cwd=tmp)
        if run.returncode != 0:
            raise SystemExit(f"perf_gate: the {build} run failed:\n{run.stderr[-3000:]}")
        dumps = []
        for k in range(1, 2 * len(FIGURES) + 2):
            text = (Path(tmp) / f"cg.out.{k}").read_text() if (
                Path(tmp) / f"cg.out.{k}").exists() else ""
            hit = re.search(r"^totals: (\d+)", text, re.M) or re.search(
                r"^summary: (\d+)", text, re.M)
            if hit is None:
                raise SystemExit(f"perf_gate: callgrind dump {k} of the {build} run is "
                                 "missing: did something else call getppid()?")
            dumps.append(int(hit.group(1)))
        if (Path(tmp) / f"cg.out.{2 * len(FIGURES) + 2}").exists():
            raise SystemExit(f"perf_gate: the {build} run made more callgrind dumps than "
                             "phases: something else calls getppid()")
    info = json.loads(run.stdout.strip().splitlines()[-1])
    if info["build"] != build:
        raise SystemExit(f"perf_gate: {python} runs the {info['build']} build, not {build}")
    # dump 1 is the start-up; then per figure its warm-up, then its counted phase
    figures = {name: round(dumps[2 + 2 * i] / info["decisions"][name])
               for i, name in enumerate(FIGURES)}
    return {"python": info["python"], "valgrind": valgrind_version(), "figures": figures,
            "decisions": info["decisions"], "planted": info["planted"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--builds", default=",".join(BUILDS),
                    help="comma-separated builds to measure (pure, mypyc)")
    ap.add_argument("--update", action="store_true",
                    help="rewrite the baseline with the measured figures")
    ap.add_argument("--baseline", type=Path, default=BASELINE)
    ap.add_argument("--pure-python", type=Path, help="the pure build's interpreter "
                    "(default .venv/bin/python; it runs the engine of src/)")
    ap.add_argument("--mypyc-python", type=Path, help="the compiled build's interpreter "
                    "(default .venv-mypyc/bin/python)")
    ap.add_argument("--games", type=int, help="counted games per figure (with --update)")
    ap.add_argument("--warm", type=int, help="warm-up games per figure (with --update)")
    a = ap.parse_args(argv)
    builds = [b for b in a.builds.split(",") if b]
    if any(b not in BUILDS for b in builds):
        ap.error(f"--builds: one of {', '.join(BUILDS)}")
    if shutil.which(VALGRIND) is None:
        # like the web tests' services: only CI must have it (tools/ci_services.sh)
        ci = bool(os.environ.get("CI"))
        print(f"perf_gate: {VALGRIND} not found (apt-get install valgrind, or "
              f"tools/ci_services.sh): the performance gate is "
              f"{'FAILED under CI' if ci else 'SKIPPED'}", file=sys.stderr)
        return 2 if ci else 0
    baseline: dict[str, Any] = {}
    if a.baseline.exists():
        baseline = json.loads(a.baseline.read_text())
    if (a.games or a.warm) and not a.update:
        ap.error("--games and --warm change the figures: only with --update")
    games = a.games or baseline.get("games", GAMES)
    warm = a.warm if a.warm is not None else baseline.get("warm_games", WARM)
    t0 = time.monotonic()
    measured = {}
    for b in builds:
        t = time.monotonic()
        measured[b] = measure(b, games, warm, a.pure_python if b == "pure" else a.mypyc_python)
        print(f"perf_gate: {b} measured in {time.monotonic() - t:.1f} s "
              f"({sum(measured[b]['decisions'].values()):,} counted decisions)", flush=True)
    planted = [b for b in builds if measured[b]["planted"]]
    print(f"\nThe performance gate: CPU instructions per decision (callgrind), {games} "
          f"seeded 4-player games per figure after {warm} warm-up game(s); fails above "
          f"+{FAIL_PERCENT:g} %, warns above +{WARN_PERCENT:g} % ({a.baseline.name})")
    if planted:
        print("ENDEAVOR_PERF_PLANT is set: a slowdown is planted in the driver")
    if baseline and (baseline.get("games"), baseline.get("warm_games")) != (games, warm):
        print(f"the baseline counts {baseline.get('games')} games after "
              f"{baseline.get('warm_games')} warm-up: not comparable with these")
        report = Report(status="not comparable")
    else:
        report = compare(baseline, {b: measured[b] for b in builds})
    if a.update:
        print("against the baseline before this update:")
    for line in report.lines:
        print("  " + line)
    for n in report.notes:
        print("NOTE: " + n)
    for w in report.warnings:
        print("WARNING: " + w)
    for f in report.failures:
        print(("was: " if a.update else "FAIL: ") + f)
    if a.update:
        if planted:
            print("perf_gate: not updating the baseline with a planted slowdown")
            return 2
        new = dict(baseline)
        new["about"] = ("CPU instructions per decision of tools/perf_loop.py under callgrind "
                        "(tools/perf_gate.py; docs/performance.md)")
        new["games"], new["warm_games"] = games, warm
        new.setdefault("builds", {})
        for b in builds:
            new["builds"][b] = {k: measured[b][k] for k in ("python", "valgrind", "figures")}
            new["builds"][b]["platform"] = platform.machine()
        a.baseline.write_text(json.dumps(new, indent=2) + "\n")
        print(f"perf_gate: baseline {a.baseline} rewritten ({', '.join(builds)}); commit it "
              "and say why in the message")
        return 0
    verdict = {"ok": "passed", "warn": "passed with warnings",
               "not comparable": "NOT COMPARABLE (other Python or settings): not judged",
               "fail": "FAILED (the FAIL lines above say why)"}[report.status]
    print(f"perf_gate: {verdict} ({time.monotonic() - t0:.0f} s)")
    return report.exit_code


if __name__ == "__main__":
    sys.exit(main())
