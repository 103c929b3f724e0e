#!/usr/bin/env bash
# Thread-count independence benchmark.
#
# Times `lockstep check` on two kernels of bench/kernels/ at a small and a
# very large launch, and prints the median times and their ratio:
#
#   race_free.cu --mode=prove   --blockDim=2    --gridDim=1
#                               --blockDim=1024 --gridDim=65535
#                               --blockDim=1000 --gridDim=1000
#     goal: large / small <= 1.2 (the prover's cost does not depend on the
#     number of threads, nor on sizes that are no powers of two);
#   racy.cu      (default mode)  --blockDim=32   --gridDim=1
#                               --blockDim=1024 --gridDim=4096
#     goal: the bug is found at both sizes and the cost does not grow with
#     the thread count (the finder is symbolic in the thread ids; its
#     witness is confirmed by replaying only the witness threads' groups).
#
# Usage: scripts/bench.sh [RUNS]   (RUNS per configuration, default 10)
# Uses hyperfine when installed (apt-get install -y hyperfine), otherwise a
# loop timed with `date +%s%N`. Respects CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${1:-10}
TARGET=${CARGO_TARGET_DIR:-target}
BIN="$TARGET/release/lockstep"

echo "building $BIN ..." >&2
cargo build --release --quiet --bin lockstep
BIN=$(realpath "$BIN")

# name | kernel | flags | expected exit status (0 verified, 1 errors)
# Pairs: the small configuration, then the large one.
CASES=(
  "race_free.cu|--mode=prove|--blockDim=2 --gridDim=1|--blockDim=1024 --gridDim=65535|0|<= 1.20"
  "race_free.cu|--mode=prove|--blockDim=2 --gridDim=1|--blockDim=1000 --gridDim=1000|0|<= 1.20"
  "race_free_tile.cu|--mode=prove|--blockDim=2 --gridDim=1|--blockDim=1024 --gridDim=65535|0|<= 1.20"
  "racy.cu||--blockDim=32 --gridDim=1|--blockDim=1024 --gridDim=4096|1|no growth"
)

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Runs once and prints the verdict, flagged when it is not the expected
# one (a time of a wrong answer is still printed, but marked).
verdict() {
  local kernel=$1 flags=$2 expected=$3 status=0
  # shellcheck disable=SC2086
  "$BIN" check "$kernel" $flags >"$WORK/out" 2>&1 || status=$?
  local v
  v=$(grep -oE ": (verified|errors|possible-errors|unknown|rejected) \(" "$WORK/out" | tail -1 | sed 's/^: //; s/ ($//')
  if [[ $status -ne $expected ]]; then
    echo "${v:-exit $status} (UNEXPECTED)"
  else
    echo "$v"
  fi
}

# Median wall time in seconds of RUNS runs.
median_time() {
  local kernel=$1 flags=$2
  if command -v hyperfine >/dev/null 2>&1; then
    # -i: the racy kernel exits with status 1 by design.
    hyperfine -N -i --warmup 1 --runs "$RUNS" --export-json "$WORK/h.json" \
      "$BIN check $kernel $flags" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$WORK/h.json"
  else
    local times=() i start end
    # shellcheck disable=SC2086
    "$BIN" check "$kernel" $flags >/dev/null 2>&1 || true # warm-up
    for ((i = 0; i < RUNS; i++)); do
      start=$(date +%s%N)
      # shellcheck disable=SC2086
      "$BIN" check "$kernel" $flags >/dev/null 2>&1 || true
      end=$(date +%s%N)
      times+=($(((end - start) / 1000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f\n", m / 1e6}'
  fi
}

echo "timer: $(command -v hyperfine >/dev/null 2>&1 && echo hyperfine || echo 'date loop'), $RUNS runs each; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
ROWS=()
for c in "${CASES[@]}"; do
  IFS='|' read -r file mode small large expected goal <<<"$c"
  kernel="bench/kernels/$file"
  vs=$(verdict "$kernel" "$mode $small" "$expected")
  ts=$(median_time "$kernel" "$mode $small")
  vl=$(verdict "$kernel" "$mode $large" "$expected")
  tl=$(median_time "$kernel" "$mode $large")
  r=$(python3 -c "print('%.2f' % ($tl / $ts))")
  echo "  $file ${mode:-(default)}: $small ${ts}s [$vs]; $large ${tl}s [$vl]" >&2
  ROWS+=("$file|${mode:---mode=both}|$small|$ts|$vs|$large|$tl|$vl|$r|$goal")
done

printf '\n| kernel | mode | small launch | median | verdict | large launch | median | verdict | large/small | goal |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for row in "${ROWS[@]}"; do
  IFS='|' read -r a b c d e f g h i j <<<"$row"
  printf '| %s | %s | %s | %ss | %s | %s | %ss | %s | %s | %s |\n' "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h" "$i" "$j"
done
