#!/usr/bin/env bash
# The action's install step: lockstep's Debian packages (with sudo on a
# runner), the default CUDA headers, and the binary built from the action's
# own source, put on the job's PATH. Skipped when `lockstep` is on the PATH.
set -euo pipefail
if command -v lockstep >/dev/null 2>&1; then
  echo "lockstep: using $(command -v lockstep) ($(lockstep --version))"
  exit 0
fi
root="$(cd "$(dirname "$0")/../.." && pwd)"
packages=(clang-19 llvm-19-dev libpolly-19-dev libzstd-dev zlib1g-dev z3 cvc5)
sudo_=""
[ "$(id -u)" = 0 ] || sudo_=sudo
if ! apt-cache policy clang-19 | grep -q Candidate:.*[0-9]; then
  # Ubuntu runners take clang-19 from LLVM's repository.
  wget -qO- https://apt.llvm.org/llvm.sh | $sudo_ bash -s -- 19
fi
$sudo_ apt-get update -qq
$sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
"$root/scripts/install-cuda-headers.sh"
cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin lockstep
echo "$root/target/release" >> "${GITHUB_PATH:-/dev/null}"
