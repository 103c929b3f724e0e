#!/usr/bin/env bash
# Compile every conformance kernel with the front-end's clang command lines and
# the prelude headers in this folder; print, per suite, how many compiled and
# the failures with clang's first error.
#
# usage: check-conformance-compile.sh [CONFORMANCE_DIR]
#   CONFORMANCE_DIR defaults to $LOCKSTEP_CONFORMANCE, then ../shared/conformance
#   beside the checkout, then /work/shared/conformance.
# env:   JOBS (default 2), CLANG (default clang-19), OUTDIR (default a fresh
#        folder under /tmp), VERBOSE=1 also lists expected-rejected results.
set -u

PRELUDE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$PRELUDE/../../.." && pwd)"
CONF="${1:-${LOCKSTEP_CONFORMANCE:-}}"
if [ -z "$CONF" ]; then
  for c in "$REPO_ROOT/../shared/conformance" "$REPO_ROOT/shared/conformance" /work/shared/conformance; do
    if [ -d "$c" ]; then CONF="$c"; break; fi
  done
fi
[ -d "${CONF:-}" ] || { echo "conformance folder not found" >&2; exit 2; }
CONF="$(cd "$CONF" && pwd)"
CLANG="${CLANG:-clang-19}"
JOBS="${JOBS:-2}"
OUTDIR="${OUTDIR:-$(mktemp -d /tmp/lockstep-conf-compile.XXXXXX)}"
mkdir -p "$OUTDIR"
export PRELUDE CLANG OUTDIR CONF

# One job: SUITE FILE. Prints one result line:
#   suite<TAB>ok|fail<TAB>expect<TAB>file<TAB>first error
compile_one() {
  local suite="$1" file="$2" dir expect flags=() lang out err first
  local CUDA_FLAGS=(-x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_70
    -g -gcolumn-info -O0 -Xclang -disable-O0-optnone -fno-builtin
    -fno-discard-value-names -emit-llvm -c -I"$PRELUDE" -include lockstep_cuda.h)
  local CL_FLAGS=(-x cl -cl-std=CL1.2 --target=spir64 -Xclang -finclude-default-header
    -g -gcolumn-info -O0 -Xclang -disable-O0-optnone -fno-builtin
    -fno-discard-value-names -emit-llvm -c -I"$PRELUDE" -include lockstep_opencl.h)
  dir="$(dirname "$file")"
  expect=pass
  if [ "$suite" = esbmc-gpu ]; then
    expect="$(sed -n 3p "$dir/test.desc" | tr -d '\r^$')"
  fi
  if [ "$suite" = gpuverify ]; then
    expect="$(head -n1 "$file" | tr -d '\r' | sed 's#^//##')"
    # -D and --clang-opt= flags from line 2.
    local tok
    for tok in $(sed -n 2p "$file" | tr -d '\r' | sed 's#^//##'); do
      case "$tok" in
        -D*) flags+=("$tok") ;;
        --clang-opt=*) flags+=("${tok#--clang-opt=}") ;;
      esac
    done
  fi
  case "$file" in
    *.cl) lang=cl ;;
    *) lang=cuda ;;
  esac
  if [ ! -f "$file" ]; then
    printf '%s\tmissing\t%s\t%s\t%s\n' "$suite" "$expect" "${file#$CONF/}" "the test names a file that does not exist"
    return
  fi
  out="$OUTDIR/$(echo "${file#$CONF/}" | tr '/' '_').bc"
  if [ "$lang" = cl ]; then
    err="$("$CLANG" "${CL_FLAGS[@]}" -I"$dir" "${flags[@]}" "$file" -o "$out" 2>&1)"
  else
    err="$("$CLANG" "${CUDA_FLAGS[@]}" -I"$dir" "${flags[@]}" "$file" -o "$out" 2>&1)"
  fi
  local rc=$?
  first="$(printf '%s\n' "$err" | grep -m1 -E 'error:|fatal error:' | sed "s#$CONF/##")"
  if [ $rc -eq 0 ]; then
    printf '%s\tok\t%s\t%s\t\n' "$suite" "$expect" "${file#$CONF/}"
  else
    printf '%s\tfail\t%s\t%s\t%s\n' "$suite" "$expect" "${file#$CONF/}" "${first:-clang exited $rc}"
  fi
}
export -f compile_one
{
  find "$CONF/gpuverify" -type f \( -name kernel.cu -o -name kernel.cl \) | sort |
    sed 's#^#gpuverify #'
  find "$CONF/esbmc-gpu" -type f -name test.desc | sort | while read -r d; do
    f="$(head -n1 "$d" | tr -d '\r' | awk '{print $1}')"
    echo "esbmc-gpu $(dirname "$d")/$f"
  done
} | xargs -P "$JOBS" -L1 bash -c 'compile_one "$@"' _ > "$OUTDIR/results.tsv"

# A test "expects rejection" when line 1 names a front-end/tool rejection.
is_rejected() {
  case "$1" in
    xfail:CLANG_ERROR|xfail:BUGLE_ERROR|xfail:GPUVERIFYVCGEN_ERROR|xfail:COMMAND_LINE_ERROR) return 0 ;;
    *) return 1 ;;
  esac
}

status=0
for suite in gpuverify esbmc-gpu; do
  total=0; ok=0; rtotal=0; rok=0
  fails=(); rfails=(); missing=()
  while IFS=$'\t' read -r s st expect file msg; do
    [ "$s" = "$suite" ] || continue
    if [ "$st" = missing ]; then missing+=("  $file: $msg (not counted)"); continue; fi
    if is_rejected "$expect"; then
      rtotal=$((rtotal + 1))
      if [ "$st" = ok ]; then rok=$((rok + 1)); else rfails+=("  $file [$expect]: $msg"); fi
    else
      total=$((total + 1))
      if [ "$st" = ok ]; then ok=$((ok + 1)); else fails+=("  $file [$expect]: $msg"); fi
    fi
  done < <(sort -t$'\t' -k4 "$OUTDIR/results.tsv")
  pct=$(awk -v a="$ok" -v b="$total" 'BEGIN { if (b == 0) print "100.0"; else printf "%.1f", 100 * a / b }')
  echo "== $suite: $ok / $total compiled ($pct%) of kernels not expected to be rejected"
  for f in "${fails[@]+"${fails[@]}"}"; do echo "$f"; done
  for f in "${missing[@]+"${missing[@]}"}"; do echo "$f"; done
  echo "   expected-rejected: $rok / $rtotal compiled anyway"
  if [ "${VERBOSE:-0}" = 1 ]; then
    for f in "${rfails[@]+"${rfails[@]}"}"; do echo "$f"; done
  fi
  awk -v a="$ok" -v b="$total" 'BEGIN { exit !(b == 0 || a / b >= 0.98) }' || status=1
done
echo "(bitcode and results.tsv in $OUTDIR)"
exit $status
