#!/usr/bin/env bash
# Runs every test: the workspace's unit, golden and integration tests, then
# the conformance suites against the committed baseline. Installs what is
# missing first (through setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo test --workspace --quiet --no-fail-fast
cargo xtask conformance --check
