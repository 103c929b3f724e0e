#!/bin/sh
# Writes build/compile_commands.json with CMake (as a project's build does),
# then makes it relocatable: the folders become relative to build/, which
# lockstep resolves against the database's own folder, so the checked-in copy
# works from any checkout. Needs cmake and clang++-19 (tools/nvcc).
set -eu
cd "$(dirname "$0")"
here=$(pwd)
tmp=$(mktemp -d)
cmake -S . -B "$tmp" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_CXX_COMPILER="$here/tools/nvcc" >/dev/null
mkdir -p build
sed -e "s|\"directory\": \"$tmp\"|\"directory\": \".\"|" -e "s|$here/tools/nvcc|nvcc|" -e "s|$here/|../|g" "$tmp/compile_commands.json" > build/compile_commands.json
rm -rf "$tmp"
