#!/usr/bin/env bash
# scripts/device_probe.sh — the one prepared run on a GPU machine (issue 7, item 5).
#
# From the repository root, with $OUT set to an output folder:
#   OUT=/some/dir bash scripts/device_probe.sh
# 1. prints the GPU (nvidia-smi) and the toolchain;
# 2. builds gpuplan-probe-gpu with one nvcc line (CUDA toolkit only; falls back to other flags);
# 3. runs the probe, full mode, to $OUT/probe.json (progress in $OUT/probe.log);
# 4. runs the PyTorch reference in the same run to $OUT/torch_reference.json (even if the probe
#    failed): copy_ bandwidth and matmul, native/cuda/torch_reference.py;
# 5. prints probe / PyTorch ratios (target >= 0.98) and writes $OUT/comparison.json.
# Everything printed is also in $OUT/device_probe.log. Expected: about 2 minutes on an H200.
# Exit status: 0 when the probe and the reference both ran and the probe's checks passed; else
# the first non-zero status (the probe's codes: 1 CUDA error, 3 no GPU, 4 a check failed).
set -euo pipefail

OUT="${OUT:?set OUT to an output folder}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"  # absolute: the script changes directory below
exec > >(tee -a "$OUT/device_probe.log") 2>&1

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR="${BUILD_DIR:-build/device-probe}"
PROBE_TIMEOUT="${PROBE_TIMEOUT:-150}"
TORCH_TIMEOUT="${TORCH_TIMEOUT:-150}"
# The same sources as native/cuda/CMakeLists.txt: the probe's own and the core's GPUPLAN_TEXT_SOURCES
# (core/CMakeLists.txt). json_error.cpp needs nlohmann/json.hpp: the system's, or NLOHMANN_INCLUDE.
SRC=(-Icore/include -Icore/src ${NLOHMANN_INCLUDE:+-I"$NLOHMANN_INCLUDE"}
     native/cuda/probe_main.cu native/cuda/probe_memory.cu native/cuda/probe_gemm.cu native/cuda/probe_host.cpp
     core/src/catalog/units.cpp core/src/catalog/lang.cpp core/src/catalog/i18n.cpp core/src/catalog/json_error.cpp)
status=0
note_status() { if [[ $status -eq 0 && $1 -ne 0 ]]; then status=$1; fi; }
section() { printf '\n=== %s (%s) ===\n' "$1" "$(date -u +%H:%M:%S)"; }

section "machine"
date -u +%Y-%m-%dT%H:%M:%SZ
uname -a
git log -1 --format='commit %H %cd' 2>/dev/null || true
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi || true
  nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,compute_cap,memory.total,clocks.max.sm,clocks.max.mem,power.limit,pcie.link.gen.current,pcie.link.width.current,ecc.mode.current --format=csv || true
  nvidia-smi topo -m 2>/dev/null || true
else
  echo "nvidia-smi: not found (no NVIDIA driver here?)"
fi

section "toolchain"
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [[ -x "$NVCC" ]]; then "$NVCC" --version | tail -2 || true; else echo "nvcc: not found at $NVCC"; fi
python3 --version 2>&1 || true

section "build"
mkdir -p "$BUILD_DIR"
BIN="$BUILD_DIR/gpuplan-probe-gpu"
rm -f "$BIN"
cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .' || true)"
[[ "$cap" =~ ^[0-9]+$ ]] || cap=90
# Try 1: the GPU's own architecture (SASS) with warnings; 2: let nvcc pick (-arch=native);
# 3: sm_90 with the bare minimum of flags.
attempts=(
  "-O3 -std=c++17 -arch=sm_${cap} -Xcompiler=-Wall,-Wextra"
  "-O3 -std=c++17 -arch=native"
  "-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90"
)
built=0
for flags in "${attempts[@]}"; do
  read -r -a flag_list <<<"$flags"
  cmd=("$NVCC" "${flag_list[@]}" -o "$BIN" "${SRC[@]}" -lcublasLt -lcublas -ldl)
  echo "+ ${cmd[*]}"
  if timeout 300 "${cmd[@]}" >"$OUT/build.log" 2>&1; then
    built=1
    cat "$OUT/build.log"
    break
  fi
  echo "build failed with: $flags"
  tail -30 "$OUT/build.log"
done

section "probe"
if [[ $built -eq 1 ]]; then
  set +e
  GPUPLAN_PROBE_PROGRESS=1 timeout "$PROBE_TIMEOUT" "$BIN" --out "$OUT/probe.json" 2> >(tee "$OUT/probe.log" >&2)
  probe_rc=$?
  set -e
  sleep 0.2  # let the tee of the probe's stderr finish
  echo "probe exit code: $probe_rc"
  [[ $probe_rc -eq 124 ]] && echo "probe: timed out after ${PROBE_TIMEOUT} s"
  note_status "$probe_rc"
  if [[ -s "$OUT/probe.json" ]]; then
    python3 - "$OUT/probe.json" <<'PY' || true
import json, sys
d = json.load(open(sys.argv[1]))
g = lambda x: "null" if x is None else f"{x:.4g}"
print(f"{d['device'].get('name')}  driver {d.get('driver')}  CUDA {d.get('cuda_runtime')}  suite {g(d.get('suite_seconds'))} s")
print(f"clocks: {d.get('clocks')}")
for m in d.get("metrics", []):
    chk = m.get("check") or {}
    c = f"  check {g(chk.get('max_rel_err'))} <= {g(chk.get('tolerance'))}: {'ok' if chk.get('passed') else 'FAILED'}" if chk else ""
    r = f"  ratio {g(m['ratio_to_cublas_bf16'])}" if "ratio_to_cublas_bf16" in m else ""
    print(f"  {m['id']:<26} {g(m.get('value'))} {m.get('unit', ''):<7} [{g(m.get('min'))} .. {g(m.get('max'))}] sm {m.get('sm_mhz_during')}{c}{r}")
for s in d.get("skipped", []):
    print(f"  skipped {s['id']}: {s['reason']}")
if "error" in d:
    print("error:", d["error"])
PY
  fi
else
  echo "probe: not built (see $OUT/build.log)"
  note_status 1
fi

section "pytorch reference"
if python3 -c 'import torch' >/dev/null 2>&1; then
  set +e
  timeout "$TORCH_TIMEOUT" python3 native/cuda/torch_reference.py --out "$OUT/torch_reference.json"
  torch_rc=$?
  set -e
  echo "torch reference exit code: $torch_rc"
  note_status "$torch_rc"
else
  echo "torch: not importable with $(command -v python3 || echo 'no python3'): reference skipped"
  note_status 3
fi

section "comparison (probe / PyTorch, target >= 0.98)"
if [[ -s "$OUT/probe.json" && -s "$OUT/torch_reference.json" ]]; then
  python3 native/cuda/torch_reference.py --compare "$OUT/probe.json" "$OUT/torch_reference.json" \
    --json-out "$OUT/comparison.json" || note_status 1
else
  echo "comparison skipped: need both $OUT/probe.json and $OUT/torch_reference.json"
fi

section "after"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv || true
fi
ls -la "$OUT"
echo "device_probe.sh: exit status $status"
exit "$status"
