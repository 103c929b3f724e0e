#!/usr/bin/env bash
# The action's check step: `lockstep check` on INPUT_PATHS with INPUT_ARGS,
# the human summary in the job's log, the SARIF log in INPUT_SARIF_FILE (the
# second run takes its reports from the first's cache), and the exit status
# and verdict as the step's outputs. It never fails itself: verdict.sh does.
set -uo pipefail
bin="${LOCKSTEP:-lockstep}"
read -r -a paths <<< "${INPUT_PATHS:-.}"
read -r -a args <<< "${INPUT_ARGS:-}"
sarif="${INPUT_SARIF_FILE:-lockstep.sarif}"
export CI=true
"$bin" check "${paths[@]}" "${args[@]}"
code=$?
"$bin" check "${paths[@]}" "${args[@]}" --progress=off --format=sarif > "$sarif"
verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["properties"]["verdict"])' "$sarif" 2>/dev/null || echo unknown)
{
  echo "exit-code=$code"
  echo "verdict=$verdict"
} >> "${GITHUB_OUTPUT:-/dev/null}"
echo "lockstep: verdict $verdict (exit status $code); SARIF in $sarif"
