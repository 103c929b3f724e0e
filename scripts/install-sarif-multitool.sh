#!/usr/bin/env bash
# Installs Microsoft's SARIF multitool (`@microsoft/sarif-multitool` from
# npm) in ~/.cache/lockstep/npm, where the SARIF test looks for it. Installs
# nodejs and npm with apt-get when run as root and npm is missing. Exits
# non-zero when the tool cannot be installed or does not run.
set -euo pipefail
prefix="${XDG_CACHE_HOME:-$HOME/.cache}/lockstep/npm"
tool="$prefix/node_modules/.bin/sarif-multitool"
version=5.7.0
if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing nodejs npm (for the SARIF multitool)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
  else
    echo "setup: npm is missing; the SARIF multitool is not installed" >&2
    exit 1
  fi
fi
if [ ! -x "$tool" ]; then
  echo "setup: installing the SARIF multitool in $prefix"
  npm install --silent --no-audit --no-fund --prefix "$prefix" "@microsoft/sarif-multitool@$version" >/dev/null
fi
# npm may skip the package's install script, which makes the binary
# executable.
find "$prefix/node_modules/@microsoft" -name Sarif.Multitool -exec chmod u+x {} +
# It must run here (a self-contained .NET program; no ICU needed in
# invariant mode, which the test uses too).
probe=$(mktemp --suffix=.sarif)
echo '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "probe"}}, "results": []}]}' > "$probe"
if ! DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$tool" validate "$probe" >/dev/null 2>&1; then
  rm -f "$probe"
  echo "setup: the SARIF multitool does not run on this machine" >&2
  exit 1
fi
rm -f "$probe"
