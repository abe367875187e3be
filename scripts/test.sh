#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test:
#   native     core unit tests + CLI tests through the real binary      (ctest --preset native)
#   fuzz       clang-14: core unit tests, the CLI's tests and its golden outputs under
#              AddressSanitizer + UBSan, and each parser's libFuzzer target for a fixed
#              number of inputs from its seed corpus                      (ctest --preset fuzz)
#   wasm       core unit tests compiled to wasm, run under node           (ctest --preset wasm)
#   cuda       the CUDA device query and GPU probe build for real GPU architectures
#              and say "no CUDA device" cleanly where there is none; the probe's host
#              half and `gpuplan probe gpu` are tested too                (ctest --preset cuda)
#   browser    the page in headless Chromium (Playwright), equal to the CLI
#   window     the native window under Xvfb, equal to the CLI
# Every step runs even if one fails; the exit code is non-zero if any failed.
# Screenshots and reports go to build/artifacts/.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
./scripts/setup.sh || exit 1

export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs it for optimized links
# ccache: the cuda step compiles the same core as the native step, and a second run of the
# tests recompiles only what changed. Paths are hashed relative to the clone, so a fresh clone
# elsewhere reuses them; CMake (>= 3.17) reads the launchers from the environment.
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$top" CCACHE_NOHASHDIR=1
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_CUDA_COMPILER_LAUNCHER=ccache
fi
artifacts="$top/build/artifacts"
mkdir -p "$artifacts"
jobs=$(nproc)

passed=() failed=() skipped=()
step() {
  local name=$1; shift
  printf '\n=== %s\n' "$name"
  local t0=$SECONDS
  if "$@"; then passed+=("$name"); printf '=== %s: passed (%ds)\n' "$name" $((SECONDS - t0))
  else failed+=("$name"); printf '=== %s: FAILED (%ds)\n' "$name" $((SECONDS - t0)); fi
}

preset() {  # configure, build (optionally some targets, space-separated), test
  local name=$1 target=${2:-}
  cmake --preset "$name" >"build/configure-$name.log" 2>&1 || { cat "build/configure-$name.log"; return 1; }
  grep -E '^-- gpuplan:' "build/configure-$name.log"
  # shellcheck disable=SC2086  # the target list splits into words on purpose
  cmake --build --preset "$name" -j "$jobs" ${target:+--target $target} || return 1
  ctest --preset "$name" -j "$jobs"
}

mkdir -p build
step native preset native
step fuzz preset fuzz   # the g++ sanitizer build (preset asan) covers less: the core's tests only
step wasm preset wasm
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  step cuda preset cuda "gpuplan-cuda-query gpuplan-probe-gpu gpuplan unit-probe-host"
else
  skipped+=(cuda); printf '\n=== cuda: skipped (nvcc not found; install the CUDA toolkit to build the probes)\n'
fi
step browser env GPUPLAN_SITE="$top/build/wasm/site" GPUPLAN_CLI="$top/build/native/native/gpuplan" GPUPLAN_SOURCE_DIR="$top" \
  GPUPLAN_ARTIFACTS="$artifacts" node --test tests/e2e/
step window tests/gui/native_window.sh build/native/native/gpuplan-gui build/native/native/gpuplan "$artifacts"

printf '\nsteps passed: %s\n' "${passed[*]:-none}"
[ ${#skipped[@]} -eq 0 ] || printf 'steps skipped: %s\n' "${skipped[*]}"
[ ${#failed[@]} -eq 0 ] || printf 'steps FAILED: %s\n' "${failed[*]}"
printf 'gpuplan: %d passed, %d failed\n' ${#passed[@]} ${#failed[@]}
[ ${#failed[@]} -eq 0 ]
