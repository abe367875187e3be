#!/usr/bin/env bash
# scripts/bench.sh — the benchmarks, natively and in wasm under node, with ratios against a
# reference measured in the same run (tests/bench/bench.cpp), and the page's transfer size.
# Run after scripts/test.sh (or any build of the native and wasm presets).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NODE_PATH=/usr/share/nodejs
cmake --build build/native --target bench >/dev/null
cmake --build build/wasm --target bench >/dev/null
build/native/tests/bench
echo
# Emscripten 3.1.6 loads the .wasm with fetch() when node has it; node 20's fetch cannot read
# a file path, so turn it off (the same flag the wasm test emulator uses).
node --no-experimental-fetch build/wasm/tests/bench.js
echo
cmake -DDIR=build/wasm/site -P cmake/print_sizes.cmake
