#!/bin/sh
# Times `lockstep equiv` on every example pair in examples/equiv/*.equiv:
# for each, the verdict, the verdict its `# expect:` line states (a `!`
# marks a mismatch) and the median wall time of RUNS runs (default 3).
# Usage: scripts/bench_equiv.sh [path/to/lockstep] [RUNS]
# Run it on an otherwise idle machine: the figures are the issue's benchmark.
set -eu
cd "$(dirname "$0")/.."
bin=${1:-target/release/lockstep}
runs=${2:-3}
for f in examples/equiv/*.equiv; do
    args=$(grep -v '^#' "$f" | head -n 1)
    expect=$(sed -n 's/^# expect: *//p' "$f" | head -n 1)
    times=""
    verdict=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        start=$(date +%s%N)
        # Human output ends with "lockstep equiv: VERDICT (...)"; JSON has
        # a "verdict" field.
        # shellcheck disable=SC2086
        verdict=$("$bin" equiv $args 2>&1 | sed -n 's/.*"verdict": *"\([a-z]*\)".*/\1/p; s/^lockstep equiv: \([a-z]*\).*/\1/p' | head -n 1) || true
        end=$(date +%s%N)
        times="$times $(( (end - start) / 1000000 ))"
        i=$((i + 1))
    done
    median=$(echo $times | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}')
    mark=" "
    [ "$verdict" = "$expect" ] || mark="!"
    printf '%-40s %-11s %s%-11s %6s ms\n' "$(basename "$f" .equiv)" "$verdict" "$mark" "$expect" "$median"
done
