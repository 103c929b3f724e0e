#!/usr/bin/env bash
# The action's last step: fail the job when lockstep's verdict is not
# `verified` (its exit status, EXIT_CODE, is not 0).
set -eu
code="${EXIT_CODE:-3}"
if [ "$code" != 0 ]; then
  echo "lockstep: the check failed (exit status $code: 1 errors, 2 rejected, 3 unknown)" >&2
  exit "$code"
fi
echo "lockstep: verified"
