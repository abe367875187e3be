#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz, one per parser) for long, in the fuzz preset's build:
#   scripts/fuzz.sh [SECONDS_PER_TARGET=600] [TARGET...]
# With FUZZ_RUNS=N in the environment a target also stops after N runs (whichever comes first).
# Each target starts from its seed corpus (tests/fuzz/corpus/<target>, read only) and keeps what
# it finds in build/fuzz/corpus/<target>; a crash, timeout (5 s), leak or out-of-memory (2 GB) is
# written to build/fuzz/findings/<target>/ and fails the run. The summary gives runs, runs/s
# and findings per target, and is also written to build/fuzz/summary.json.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(catalog hf_config state cpu_probe gpu_probe json import probe_host)

./scripts/setup.sh || exit 1
cmake --preset fuzz >build/configure-fuzz.log 2>&1 || { cat build/configure-fuzz.log; exit 1; }
cmake --build --preset fuzz -j "$(nproc)" --target $(printf 'fuzz-%s ' "${targets[@]}") || exit 1

# Allocation stacks are not recorded (malloc_context_size=0: about 20% more runs per second on the
# import target); a finding is re-run by hand for its full report: build/fuzz/tests/fuzz-T FILE.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:malloc_context_size=0 UBSAN_OPTIONS=print_stacktrace=1
out="$top/build/fuzz"
mkdir -p "$out"
summary="["
status=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t" "$out/findings/$t"
  log="$out/$t.log"
  start=$SECONDS
  build/fuzz/tests/fuzz-"$t" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$out/findings/$t/" \
    "$out/corpus/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
  findings=$(find "$out/findings/$t" -type f | wc -l)
  elapsed=$((SECONDS - start))
  rate=$(( elapsed > 0 ? runs / elapsed : runs ))
  printf '%-11s %12s runs  %8s runs/s  %3d findings  exit %d\n' "$t" "$runs" "$rate" "$findings" "$rc"
  [ "$rc" -eq 0 ] && [ "$findings" -eq 0 ] || { status=1; tail -n 30 "$log"; }
  summary+="$( [ "$summary" = "[" ] || echo ,){\"target\":\"$t\",\"runs\":$runs,\"seconds\":$elapsed,\"runs_per_s\":$rate,\"findings\":$findings,\"exit\":$rc}"
done
echo "$summary]" >"$out/summary.json"
exit $status
