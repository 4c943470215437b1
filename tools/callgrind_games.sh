#!/bin/bash
# usage: cg.sh TREE NGAMES [exploits]  -> prints instructions for the run
T=$1; N=$2; EX=${3:-none}
cd "$(dirname "$0")"
PYTHONPATH=$T/src valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p.out ${PY:-python3} random_play.py games $N $EX 2>&1 | grep -E "Collected|^[0-9]+$"
rm -f /tmp/cg.*.out
