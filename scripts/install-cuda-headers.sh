#!/usr/bin/env bash
# Installs lockstep's default CUDA toolkit: the headers of NVIDIA's CUDA 12.4
# runtime, compiler (include/crt), CCCL 12.9 (CUB, Thrust, libcu++, nv/target),
# cuRAND, the profiler API and NVTX, taken from NVIDIA's wheels on PyPI and laid out as one toolkit
# folder that clang accepts with --cuda-path. lockstep looks for it at
#     ${XDG_CACHE_HOME:-$HOME/.cache}/lockstep/cuda-12.4-v3
# when no --cuda-path, CUDA_PATH, CUDA_HOME or /usr/local/cuda names another.
# Each layout (set of wheels) has a folder of its own (cuda-12.4 was the
# layout before NVTX), so that installing a new one never rewrites a folder
# that running checks read; lockstep uses an earlier layout while the current
# one is not installed.
# Only headers are kept (no libraries, no binaries): lockstep never runs CUDA.
#
# Safe to run again: an installed, complete toolkit is left as it is. The
# wheels are pinned by version and sha256, so every machine gets the same
# headers.
set -euo pipefail

# The same cache folder as lockstep's `toolkit::cache_dir`.
if [ -n "${XDG_CACHE_HOME:-}" ]; then
  cache="$XDG_CACHE_HOME"
elif [ -n "${HOME:-}" ]; then
  cache="$HOME/.cache"
else
  cache="${TMPDIR:-/tmp}"
fi
dest=${1:-$cache/lockstep/cuda-12.4-v3}
stamp="$dest/.lockstep-toolkit-v3"
if [ -f "$stamp" ]; then
  exit 0
fi

python=$(command -v python3 || true)
if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
  echo "install-cuda-headers: python3 with pip is needed (Debian: apt-get install python3-pip)" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/requirements.txt" <<'REQ'
nvidia-cuda-runtime-cu12==12.4.127 --hash=sha256:64403288fa2136ee8e467cdc9c9427e0434110899d07c779f25b5c068934faa5
nvidia-cuda-nvcc-cu12==12.4.131 --hash=sha256:e4c9a35435c3b0e36c6397c5696334c9ea6650e524736cbd1c5d345ea099bb04
nvidia-cuda-cccl-cu12==12.9.27 --hash=sha256:37869e17ce2e1ecec6eddf1927cca0f8c34e64fd848d40453df559091e2d7117
nvidia-curand-cu12==10.3.5.147 --hash=sha256:a88f583d4e0bb643c49743469964103aa59f7f708d862c3ddb0fc07f851e3b8b
nvidia-cuda-profiler-api-cu12==12.4.127 --hash=sha256:7d80d1d8cfedc4b31b3df260f75e339a51322b25ff41f2a47edb5b2139b8a58f
nvidia-nvtx-cu12==12.4.127 --hash=sha256:781e950d9b9f60d8241ccea575b32f5105a5baf4c2351cab5256a24869f12a1a
REQ
echo "install-cuda-headers: downloading NVIDIA's CUDA 12.4 header wheels from PyPI"
# The wheels are x86_64 builds; their headers are the same on every machine.
"$python" -m pip download --quiet --no-deps --require-hashes --only-binary=:all: \
  --platform manylinux2014_x86_64 --python-version 3.11 \
  -r "$work/requirements.txt" -d "$work/wheels"

# Each wheel keeps its headers under nvidia/<package>/include/; merge them into
# one include/ folder, as a toolkit installed by NVIDIA's installer has them.
staging="$work/toolkit"
"$python" - "$staging" "$work"/wheels/*.whl <<'PY'
import os, sys, zipfile
staging = sys.argv[1]
for wheel in sys.argv[2:]:
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            parts = name.split("/")
            if len(parts) < 4 or parts[0] != "nvidia" or parts[2] != "include":
                continue
            if name.endswith("/") or parts[-1] == "__init__.py":
                continue
            target = os.path.join(staging, "include", *parts[3:])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                out.write(z.read(name))
PY
# clang's toolkit detection wants a bin/ folder beside include/.
mkdir -p "$staging/bin"
echo "CUDA Version 12.4.131 (headers only, installed by lockstep)" > "$staging/version.txt"
touch "$staging/.lockstep-toolkit-v3"

mkdir -p "$(dirname "$dest")"
rm -rf "$dest.tmp.$$"
mv "$staging" "$dest.tmp.$$"
rm -rf "$dest"
mv "$dest.tmp.$$" "$dest"
echo "install-cuda-headers: installed in $dest ($(du -sh "$dest" | cut -f1))"
