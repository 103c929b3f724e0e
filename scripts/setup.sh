#!/usr/bin/env bash
# Installs what lockstep needs, builds the release binary, and checks the
# examples. Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(clang-19 llvm-19-dev libpolly-19-dev libzstd-dev zlib1g-dev z3 cvc5 python3-pip)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run this, then run setup again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: no Rust toolchain found. Install one (1.80 or newer) with rustup:" >&2
  echo "  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh" >&2
  exit 1
fi

# The default CUDA toolkit (headers only, from NVIDIA's wheels on PyPI), for
# CUDA files that need more than lockstep's own headers declare.
scripts/install-cuda-headers.sh

# Microsoft's SARIF validator, for the test that validates lockstep's SARIF
# (crates/cli/tests/project.rs). Optional: without npm the test checks the
# log's structure only, so a failure here is a warning, never fatal.
scripts/install-sarif-multitool.sh || echo "setup: warning: the SARIF multitool is not installed (SARIF is then not schema-validated by the tests)" >&2

echo "setup: building the release binary"
cargo build --release --quiet --bin lockstep

echo "setup: checking the examples"
bin=target/release/lockstep
status=0
for f in examples/*.cu examples/*.cl; do
  expect=$(sed -n 's|^// expect: *||p' "$f" | head -1)
  flags=$(sed -n 's|^// flags: *||p' "$f" | head -1)
  # shellcheck disable=SC2086
  got=$("$bin" check "$f" $flags --format=json | sed -n 's/^  "verdict": "\(.*\)",\{0,1\}$/\1/p' | tail -1) || true
  if [ "$got" = "$expect" ]; then
    printf '  %-34s %-16s ok\n' "$f" "$got"
  elif [ "$expect" = errors ] && [ "$got" = verified ]; then
    printf '  %-34s %-16s WRONG: a defective kernel was verified\n' "$f" "$got"; status=1
  elif [ "$got" = rejected ] || [ -z "$got" ]; then
    printf '  %-34s %-16s WRONG: expected %s\n' "$f" "${got:-crash}" "$expect"; status=1
  else
    printf '  %-34s %-16s expected %s (not yet reached)\n' "$f" "$got" "$expect"
  fi
done
exit $status
