#!/bin/bash
# usage: callgrind_public.sh TREE EXPLOITS API [N] [PYTHON]
#   CPU instructions per decision of tools/public_loop.py (N seeded 4-player games, default
#   30) for the source tree TREE (PYTHONPATH=TREE/src; give TREE "" and PYTHON a compiled
#   venv's python to measure an installed build), imports subtracted (a run of 0 games);
#   EXPLOITS none|random, API public|codes|mixed|read. Deterministic.
T=$1; EX=$2; API=$3; N=${4:-30}; PY=${5:-python3}
HERE="$(cd "$(dirname "$0")" && pwd)"
run() {
  PYTHONPATH=${T:+$T/src} valgrind --tool=callgrind --callgrind-out-file=/tmp/cgpl.%p.out \
    "$PY" "$HERE/public_loop.py" games "$1" "$EX" "$API" 2>&1 |
    grep -E 'Collected|^[0-9]+$' | awk '{print $NF}' | tr '\n' ' '
}
a=($(run 0)); b=($(run "$N"))
rm -f /tmp/cgpl.*.out
python3 -c "print('${T:-$PY} $EX $API', round((${b[1]} - ${a[1]}) / ${b[0]}), 'instructions per decision over', ${b[0]}, 'decisions')"
