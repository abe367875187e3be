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
# How true the training estimates are, per kind (issue 20's targets): peak memory and maximum
# context of fine-tuning recipes, throughput of published runs in-sample and leave-one-source-out.
cmake --build build/native --target unit-training >/dev/null
echo "training estimates against tests/reference/training_measurements.json:"
build/native/tests/unit-training "the training estimator against published numbers" | grep -E "median error|^band"
echo
wasm build/wasm/tests/bench.js
echo
# The CLI as a user meets it, the whole process: `fit` against `catalog gpus` and `--help`,
# medians of 21 runs each (every start reads the built-in catalog's compact form: core/src/catalog/compact.cpp).
python3 - build/native/native/gpuplan <<'PY'
import statistics, subprocess, sys, time
exe = sys.argv[1]
def median_ms(args):
    runs = []
    for _ in range(21):
        t = time.perf_counter()
        subprocess.run([exe, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        runs.append(time.perf_counter() - t)
    return statistics.median(runs) * 1e3
help_ms = median_ms(["--help"])
print("gpuplan CLI, whole process (median of 21 runs):")
print(f"  --help (reference)      {help_ms:7.2f} ms")
for label, args in (("catalog gpus", ["catalog", "gpus"]),
                    ("fit (70B on 2 x H100)", ["fit", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--tp", "2"])):
    ms = median_ms(args)
    print(f"  {label:<22}  {ms:7.2f} ms   x{ms / help_ms:.2f} of --help")
PY
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

echo
# The worst case under the limits (issue 22): import, fit, speed, train and compare at the largest
# inputs the limits allow, and compare over the most GPUs a 16 MiB catalog holds; wall time and peak RSS.
cmake --build build/native --target gpuplan >/dev/null
scripts/worst_case.sh build/native/native/gpuplan
