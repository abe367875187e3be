#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh), builds the page (WebAssembly) and serves it on
# http://127.0.0.1:${PORT:-8080}/ until Ctrl-C. The page needs no special headers: copy
# build/wasm/site/ to any static host.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
./scripts/setup.sh
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs it for optimized links
mkdir -p build
cmake --preset wasm >build/configure-wasm.log 2>&1 || { cat build/configure-wasm.log; exit 1; }
cmake --build --preset wasm --target gpuplan_page
exec node scripts/static_server.mjs build/wasm/site "${PORT:-8080}"
