#!/usr/bin/env bash
# scripts/worst_case.sh — the stated worst case of import, fit and compare (issue 22, item 1):
# the largest inputs the limits allow (core/include/gpuplan/limits.h and the scenario's field
# table), timed through the CLI binary with /usr/bin/time (wall seconds, peak RSS). No timed
# assertion anywhere: speed is the benchmark's, and this prints what the machine did.
#   scripts/worst_case.sh [path/to/gpuplan] [GPUs in the generated catalog; default: what 16 MiB hold]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exe=$(realpath "${1:-build/native/native/gpuplan}")
gpus=${2:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# A mixture of experts at every limit: 1,024 layers, hidden 131,072, 4,096 query and KV heads,
# MLP width 2^20, 16,384 experts (all of them active), a vocabulary of 2^22 and a window of 2^27.
cat >"$dir/config.json" <<'JSON'
{"architectures": ["MixtralForCausalLM"], "model_type": "mixtral", "hidden_act": "silu",
 "num_hidden_layers": 1024, "hidden_size": 131072, "num_attention_heads": 4096, "num_key_value_heads": 4096,
 "intermediate_size": 1048576, "num_local_experts": 16384, "num_experts_per_tok": 16384,
 "vocab_size": 4194304, "max_position_embeddings": 134217728, "tie_word_embeddings": false}
JSON
# A catalog of as many GPUs as its 16 MiB allow (a file's limit; the number of entries has none
# besides): the H200's figures without their sources, under new ids. compare's cost grows with
# the number of GPUs, linearly. A second argument sets the count instead.
python3 - "$dir" "${gpus:-0}" <<'PY'
import glob, json, sys
out, n = sys.argv[1], int(sys.argv[2])
files = glob.glob("assets/catalog/gpus-nvidia-dc-ada*.json")
base = next(g for f in files for g in json.load(open(f))["gpus"] if g["id"] == "h200-sxm")
keep = ("vendor", "architecture", "year", "form_factor", "memory", "bandwidth", "dense_tflops", "tdp_w")
small = {k: base[k] for k in keep if k in base}
small["sources"] = [{"fields": [k for k in keep if k in base and k != "vendor" and k != "architecture"
                               and k != "form_factor"], "title": "worst case", "url": "https://example.com/", "read": "2026-12-03"}]
one = len(json.dumps(dict(small, id="worst-000000", name="Worst case GPU 000000"))) + 2
n = n or int(16 * 2**20 * 0.99 / one)
gpus = [dict(small, id=f"worst-{i}", name=f"Worst case GPU {i}") for i in range(n)]
json.dump({"schema": json.load(open(files[0]))["schema"], "gpus": gpus}, open(f"{out}/gpus.json", "w"))
print(n, file=open(f"{out}/count.txt", "w"))
PY

measure() {  # label, then the command
  local label=$1
  shift
  if /usr/bin/time -v -o "$dir/time.txt" "$@" >"$dir/out.txt" 2>"$dir/err.txt"; then rc=0; else rc=$?; fi
  local wall rss user
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
  user=$(sed -n 's/.*User time (seconds): //p' "$dir/time.txt")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
  printf '  %-58s exit %d  wall %8s  user %6ss  peak RSS %6.1f MiB\n' "$label" "$rc" "$wall" "$user" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
  if [ "$rc" -ne 0 ]; then sed 's/^/      /' "$dir/err.txt" | head -3; fi
}

gpus=$(cat "$dir/count.txt")
echo "worst cases under the limits ($exe):"
measure "import-hf (every limit at once)" "$exe" import-hf "$dir/config.json" --id worst --format json
"$exe" import-hf "$dir/config.json" --id worst --format json >"$dir/model.json"
big=(--catalog "$dir/model.json" --model worst --gpu h200-sxm)
measure "fit (that model, context 2^24, batch 65536, tp 4096, pp 64)" "$exe" fit "${big[@]}" --context 16777216 \
  --prompt 16777216 --batch 65536 --tp 4096 --pp 64 --format json
measure "speed (the same)" "$exe" speed "${big[@]}" --context 16777216 --prompt 16777216 --batch 65536 --tp 4096 \
  --pp 64 --format json
measure "train (the same, dp 64: 2^24 GPUs, zero 3)" "$exe" train "${big[@]}" --context 16777216 --tp 4096 --pp 64 \
  --dp 64 --zero 3 --format json
measure "compare (that model, built-in catalog)" "$exe" compare "${big[@]}" --context 16777216 --batch 65536 \
  --format json
measure "compare (llama-3.1-70b, $gpus more GPUs)" "$exe" compare --catalog "$dir/gpus.json" --model llama-3.1-70b \
  --format json
measure "compare (that model, $gpus more GPUs)" "$exe" compare --catalog "$dir/gpus.json" "${big[@]}" \
  --context 16777216 --batch 65536 --format json
measure "catalog validate ($gpus GPUs)" "$exe" catalog validate "$dir/gpus.json"
