#!/usr/bin/env bash
# scripts/bench.sh — the benchmarks, natively and in wasm under node, each with ratios against a
# reference measured in the same run:
#   bench        the page's and the CLI's computations against parsing the built-in catalog;
#   bench_gemm   the reference SGEMM/DGEMM against OpenBLAS (its SkylakeX kernel) and Eigen,
#                and against the FMA peak measured in the same run;
#   bench-stream the CPU probe's STREAM against a plain STREAM built with -O3 -march=native;
# and the page (scripts/bench_page.mjs: size, first frame, frame cost). Run after scripts/test.sh (or any build of the native and
# wasm presets). Timings on shared machines swing 20-25%: read the ratios.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NODE_PATH=/usr/share/nodejs
targets=(bench bench_gemm bench-stream)
cmake --build build/native --target "${targets[@]}" >/dev/null
cmake --build build/wasm --target "${targets[@]}" >/dev/null
# Emscripten 3.1.6 loads the .wasm with fetch() when node has it; node 20's fetch cannot read
# a file path, so turn it off (the same flag the wasm test emulator uses).
wasm() { node --no-experimental-fetch "$@"; }

build/native/tests/bench
echo
# How true the speed estimates are, per kind: in-sample and leave-one-source-out (one refit per
# source, about a minute natively). Issue 16's targets are on the held-out columns.
cmake --build build/native --target gpuplan >/dev/null
build/native/native/gpuplan calibrate --loso | sed -n '1,/^$/p;/Errors per kind/,/^$/p'
echo
wasm build/wasm/tests/bench.js
echo
# Debian's OpenBLAS 0.3.21 does not recognise newer CPUs and falls back to a slow kernel
# unless told which one to use; bench_gemm prints the kernel it got (TOOLCHAIN.md).
OPENBLAS_CORETYPE=SkylakeX build/native/tests/bench_gemm --min-n 256 --max-n 4096
echo
wasm build/wasm/tests/bench_gemm.js --min-n 256 --max-n 2048
echo
build/native/tests/bench-stream
echo
wasm build/wasm/tests/bench-stream.js --array-mib 128
echo
cmake -DDIR=build/wasm/site -P cmake/print_sizes.cmake
echo
# The page in headless Chromium: transfer size against the 400 KB budget, time to first frame,
# a Compare frame against a Fit frame.
node scripts/bench_page.mjs build/wasm/site
