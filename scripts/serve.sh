#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), builds the page (WebAssembly) and serves it on
# http://127.0.0.1:${PORT:-8080}/ until Ctrl-C. The page needs no special headers: copy
# build/wasm/site/ to any static host (with COOP/COEP, as this server sends, its This machine
# panel measures on every core; without them on one).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
./scripts/setup.sh
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs it for optimized links
mkdir -p build
cmake --preset wasm >build/configure-wasm.log 2>&1 || { cat build/configure-wasm.log; exit 1; }
# The page and its two probe modules (loaded only when This machine measures).
cmake --build --preset wasm --target gpuplan_page gpuplan_probe_mt gpuplan_probe_st
exec node scripts/static_server.mjs build/wasm/site "${PORT:-8080}"
