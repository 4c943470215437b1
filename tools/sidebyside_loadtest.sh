#!/bin/bash
# usage: tools/sidebyside_loadtest.sh BASE_TREE ROUNDS [extra loadtest args...]
#   this checkout's load test (`python -m tools.loadtest --games 200`) side by side: a
#   server of BASE_TREE (e.g. a worktree of acbedbb, the commit before the asynchronous
#   play), then of this tree plain, then of this tree with `--clock 86400 --notify`,
#   ROUNDS times in turn, each a fresh server on SQLite, run with this checkout's .venv
#   python (PYTHONPATH picks the server's tree; the load test is this checkout's). Prints
#   one JSON line per run and the median p99 of each. Run it on a quiet machine.
BASE=$1; ROUNDS=${2:-5}; shift 2
HERE="$(cd "$(dirname "$0")/.." && pwd)"
PY="$HERE/.venv/bin/python"
OUT=$(mktemp -d)
run() {  # tree label args...
  local tree=$1 label=$2; shift 2
  (cd "$OUT" && PYTHONPATH="$tree/src:$HERE" "$PY" -m tools.loadtest \
    --games 200 --json "$@") > "$OUT/run.json" 2> "$OUT/err.txt" || {
      echo "$label failed:"; tail -5 "$OUT/err.txt"; return; }
  "$PY" - "$label" "$OUT/run.json" <<'PYEOF' | tee -a "$OUT/all.txt"
import json, sys
d = json.load(open(sys.argv[2]))
rt = d.get("round_trip_ms") or d.get("latency_ms") or {}
print(json.dumps({"label": sys.argv[1], "moves_per_s": d.get("moves_per_s"),
                  "p50": rt.get("p50"), "p95": rt.get("p95"), "p99": rt.get("p99"),
                  "errors": d.get("errors"), "lost": d.get("lost_moves", d.get("lost"))}))
PYEOF
}
for r in $(seq "$ROUNDS"); do
  run "$BASE" base "$@"
  run "$HERE" now "$@"
  run "$HERE" now+clock+notify --clock 86400 --notify "$@"
done
"$PY" - "$OUT/all.txt" <<'PYEOF'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for label in dict.fromkeys(r["label"] for r in rows):
    p99 = [r["p99"] for r in rows if r["label"] == label and r["p99"] is not None]
    mps = [r["moves_per_s"] for r in rows if r["label"] == label and r["moves_per_s"]]
    print(f"{label}: median p99 {statistics.median(p99):.1f} ms ({min(p99):.1f}-{max(p99):.1f}), "
          f"median moves/s {statistics.median(mps):.1f}, runs {len(p99)}")
PYEOF
