#!/bin/bash
# Issue #16's items 5-9 benchmark: checks every kernel of bench/items59/*.cu
# (one lockstep run per kernel, `--kernel NAME`) at --blockDim=256
# --gridDim=1024, RUNS times each (default 3), and prints one line per run:
# file, kernel, run, verdict, wall seconds, CPU seconds (user + system of
# lockstep and its solver processes, from /usr/bin/time).
#
# usage: bench/items59.sh [LOCKSTEP_BINARY] [RUNS]  (from the worktree root)
#   ITEMS59_FILTER=substring  only the files whose name contains it
#   ITEMS59_SIZES="..."       other launch flags
#   ITEMS59_ONLY=correct|bug  only the correct kernels, or only the _bug ones
# The _bug.cu files are the one-bug variants: their verdict must be errors
# or possible-errors. Run it while the machine runs another job (say which)
# for the stability figures the issue asks for.
set -u
BIN=${1:-target/release/lockstep}
RUNS=${2:-3}
SIZES=${ITEMS59_SIZES:---blockDim=256 --gridDim=1024}
DIR=$(dirname "$0")/items59
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf "%-26s %-18s %3s %-16s %7s %7s\n" file kernel run verdict wall_s cpu_s
for f in "$DIR"/*.cu; do
  name=$(basename "$f")
  case "$name" in *"${ITEMS59_FILTER:-}"*) ;; *) continue;; esac
  is_bug=no; case "$name" in *_bug.cu) is_bug=yes;; esac
  [ "${ITEMS59_ONLY:-}" = correct ] && [ $is_bug = yes ] && continue
  [ "${ITEMS59_ONLY:-}" = bug ] && [ $is_bug = no ] && continue
  for k in $(grep -oE '__global__ void [A-Za-z_0-9]+' "$f" | awk '{print $3}'); do
    for r in $(seq 1 "$RUNS"); do
      /usr/bin/time -f "%e %U %S" -o "$TMP/time" \
        "$BIN" check "$f" --kernel "$k" $SIZES --format=json > "$TMP/out.json" 2> "$TMP/err"
      verdict=$(python3 -c "
import json,sys
try:
    d=json.load(open('$TMP/out.json'))
    print(','.join(k['verdict'] for k in d['kernels']))
except Exception:
    print('no-output')")
      read -r wall user sys < <(tail -1 "$TMP/time")
      cpu=$(echo "$user + $sys" | bc)
      printf "%-26s %-18s %3s %-16s %7s %7s\n" "$name" "$k" "$r" "$verdict" "$wall" "$cpu"
    done
  done
done
