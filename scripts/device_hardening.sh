#!/usr/bin/env bash
# scripts/device_hardening.sh — the CUDA probe's doors on a real GPU (issue 22, items 2 and 5).
#
# From the repository root on a GPU machine, after scripts/device_probe.sh has built the probe:
#   BIN=build/device-probe/gpuplan-probe-gpu OUT=/some/dir bash scripts/device_hardening.sh
# 1. Bad arguments and environments, each run through the real binary on a machine that has a GPU
#    (CI has none, so the branches after cudaGetDeviceCount succeeds are only reached here): a device
#    index past the last GPU, malformed indices, unknown probes, an --out that cannot be opened (it
#    must be refused before any measurement), /dev/full (the JSON cannot be written after the
#    measurement), hidden GPUs. Each case names the exit status and a phrase the message must
#    contain (native/cuda/README.md: 2 bad arguments, 3 no GPU, 1 CUDA or write error).
# 2. NVIDIA's compute-sanitizer over a quick run of the probe's own kernels and of the cuBLASLt
#    GEMMs: memcheck (with leak check), initcheck, racecheck, synccheck. A tool passes when it
#    reports 0 errors and the probe exits 0.
# Writes $OUT/hardening.json (schema gpuplan.device-hardening/1) and prints one line per case.
# Exit status 0 when every case and every tool passed, 1 otherwise. About 1-2 minutes on an H200.
set -uo pipefail

OUT="${OUT:?set OUT to an output folder}"
BIN="${BIN:?set BIN to the built gpuplan-probe-gpu}"
SANITIZER_TIMEOUT="${SANITIZER_TIMEOUT:-90}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec > >(tee -a "$OUT/hardening.log") 2>&1

if [[ ! -x "$BIN" ]]; then
  echo "device_hardening.sh: no probe binary at $BIN"
  exit 1
fi
count="$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | wc -l)"
[[ "$count" =~ ^[0-9]+$ && "$count" -gt 0 ]] || count=1
cases="$OUT/cases.tsv"
: >"$cases"

# case NAME EXPECTED_EXIT PHRASE ENV -- ARGS...   (ENV: "-" for none, else VAR=value)
run_case() {
  local name="$1" want="$2" phrase="$3" env="$4"
  shift 5
  local t0 t1 rc
  t0=$(date +%s.%N)
  if [[ "$env" == "-" ]]; then
    timeout 120 "$BIN" "$@" >"$OUT/case.stdout" 2>"$OUT/case.stderr"
  else
    env "$env" timeout 120 "$BIN" "$@" >"$OUT/case.stdout" 2>"$OUT/case.stderr"
  fi
  rc=$?
  t1=$(date +%s.%N)
  local msg
  msg="$(grep -v '^\s*$' "$OUT/case.stderr" | tail -1 | tr '\t' ' ')"
  local ok=1
  [[ "$rc" == "$want" ]] || ok=0
  [[ -z "$phrase" ]] || grep -qF -- "$phrase" "$OUT/case.stderr" || ok=0
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$env" "$*" "$want" "$rc" "$ok" \
    "$(awk "BEGIN{print $t1 - $t0}")" "$msg" >>"$cases"
  printf '%-26s exit %3s (want %s) %-4s %6.2f s  %s\n' "$name" "$rc" "$want" \
    "$([[ $ok == 1 ]] && echo ok || echo FAIL)" "$(awk "BEGIN{print $t1 - $t0}")" "$msg"
}

echo "=== bad arguments on a machine with $count GPU(s) ($(date -u +%H:%M:%S)) ==="
run_case device-past-last 2 "only $count CUDA device(s) visible" - -- --device "$count" --quick
run_case device-1023 2 "only $count CUDA device(s) visible" - -- --device 1023 --quick
run_case device-1024 2 "is not a device index" - -- --device 1024
run_case device-negative 2 "is not a device index" - -- --device -1
run_case device-hex 2 "is not a device index" - -- --device 0x1
run_case device-empty 2 "--device: empty value" - -- --device=
run_case device-missing 2 "--device" - -- --device
run_case only-unknown 2 "unknown probe 'nope'" - -- --only hbm,nope
run_case only-empty 2 "--only: empty value" - -- --only ''
run_case unknown-flag 2 "unknown argument '--frobnicate'" - -- --frobnicate
run_case out-missing-dir 2 "--out: cannot write" - -- --out /nonexistent-dir/probe.json
run_case out-directory 2 "--out: cannot write" - -- --out /tmp
run_case out-dev-full 1 "could not write the JSON" - -- --quick --only l2 --out /dev/full
run_case hidden-all 3 "no CUDA device" CUDA_VISIBLE_DEVICES= -- --quick
run_case hidden-index 3 "no CUDA device" CUDA_VISIBLE_DEVICES=7 -- --quick
run_case hidden-uuid 3 "no CUDA device" CUDA_VISIBLE_DEVICES=GPU-00000000-0000-0000-0000-000000000000 -- --quick
run_case quick-l2 0 "" - -- --quick --only l2 --out "$OUT/quick-l2.json"

echo "=== compute-sanitizer ($(date -u +%H:%M:%S)) ==="
CS="$(command -v compute-sanitizer || true)"
for c in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  [[ -n "$CS" ]] || { [[ -x "$c" ]] && CS="$c"; }
done
tools="$OUT/tools.tsv"
: >"$tools"
sanitize() {  # NAME TOOL_ARGS -- PROBE_ARGS
  local name="$1" targs="$2"
  shift 3
  local t0 t1 rc summary
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086  # the tool's arguments are words
  timeout "$SANITIZER_TIMEOUT" "$CS" $targs --error-exitcode 99 "$BIN" "$@" --out "$OUT/cs-$name.json" \
    >"$OUT/cs-$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  # A tool that finds a fault on every access writes megabytes: keep the summary and the first reports.
  if [[ $(stat -c %s "$OUT/cs-$name.log") -gt 300000 ]]; then
    { head -c 200000 "$OUT/cs-$name.log"; echo; echo "[... cut ...]"; tail -c 50000 "$OUT/cs-$name.log"; } >"$OUT/cs-$name.cut"
    mv "$OUT/cs-$name.cut" "$OUT/cs-$name.log"
  fi
  summary="$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY' "$OUT/cs-$name.log" | tr '\n' ' ' | sed 's/=*//g; s/  */ /g')"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$targs" "$*" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$summary" >>"$tools"
  printf '%-22s exit %3s %7.1f s  %s\n' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$summary"
}
if [[ -n "$CS" ]]; then
  "$CS" --version | tail -1
  sanitize memcheck-own "--tool memcheck --leak-check full" -- --quick --only hbm,l2,host,wmma
  sanitize initcheck-own "--tool initcheck" -- --quick --only hbm,l2,host,wmma
  sanitize racecheck-own "--tool racecheck" -- --quick --only hbm,l2,wmma
  sanitize synccheck-own "--tool synccheck" -- --quick --only hbm,l2,wmma
  sanitize memcheck-cublas "--tool memcheck --leak-check full" -- --quick --only bf16,fp8,int8
else
  echo "compute-sanitizer: not found (PATH, /usr/local/cuda)"
fi

python3 - "$cases" "$tools" "$OUT/hardening.json" "$BIN" "${CS:-}" <<'PY'
import datetime, json, subprocess, sys
cases_tsv, tools_tsv, out, binary, cs = sys.argv[1:6]
def rows(path, n):
    for line in open(path, encoding="utf-8", errors="replace"):
        f = line.rstrip("\n").split("\t")
        yield f + [""] * (n - len(f))
cases = [{"name": f[0], "env": None if f[1] == "-" else f[1], "args": f[2], "want_exit": int(f[3]),
          "exit": int(f[4]), "passed": f[5] == "1", "seconds": float(f[6]), "message": f[7]}
         for f in rows(cases_tsv, 8)]
tools = []
for f in rows(tools_tsv, 6):
    rc = int(f[3])
    tools.append({"name": f[0], "tool_args": f[1], "probe_args": f[2], "exit": rc, "seconds": float(f[4]),
                  "summary": f[5],
                  # racecheck ends with "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)", the
                  # other tools with "ERROR SUMMARY: 0 errors"
                  "passed": rc == 0 and ("ERROR SUMMARY: 0 errors" in f[5] or "(0 errors, 0 warnings)" in f[5])})
def q(args):
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:  # noqa: BLE001 - informative only
        return None
doc = {"schema": "gpuplan.device-hardening/1",
       "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "gpu": q(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]),
       "compute_sanitizer": (q([cs, "--version"]) or "").splitlines()[-1:] if cs else None,
       "binary": binary, "cases": cases, "sanitizer": tools,
       "passed": all(c["passed"] for c in cases) and bool(tools) and all(t["passed"] for t in tools)}
json.dump(doc, open(out, "w"), indent=1)
print(f"cases passed {sum(c['passed'] for c in cases)}/{len(cases)}, "
      f"sanitizer tools passed {sum(t['passed'] for t in tools)}/{len(tools)}")
sys.exit(0 if doc["passed"] else 1)
PY
