#!/usr/bin/env python3
"""scripts/device_to_reference.py — turn a device run of scripts/device_inference.py into
reference cases (tests/reference/inference_measurements.json), replacing earlier cases from
the same file by id. Each case cites the committed device JSON it came from.

    python3 scripts/device_to_reference.py tests/reference/device/h200-2026-11-30-hf-inference.json --gpu h200-sxm
"""
import argparse
import json

REF = "tests/reference/inference_measurements.json"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("device_json")
    ap.add_argument("--gpu", required=True, help="catalog id of the GPU the run used")
    args = ap.parse_args()
    run = json.load(open(args.device_json))
    day = run["date"][:10]
    source = {
        "title": f"gpuplan device run: Hugging Face Transformers {run['transformers']} generate(), torch {run['torch']}, "
                 f"{run['gpu']}, driver {run['driver']}, CUDA {run['cuda']} ({day})",
        "url": args.device_json,
        "date_read": day,
        "locator": "runs[model].batches[batch]",
        "quote": run["method"],
    }
    cases = []
    weighed = set()  # a model the plan runs twice (two prompt lengths) gives one weights case
    for r in run["runs"]:
        if "error" in r or "skipped" in r:
            continue
        base = {"engine": "hf-transformers", "model": r["model"], "weights": "bf16", "kv": "bf16", "gpu": args.gpu,
                "count": 1, "source": source}
        slug = f"device-{day}-{args.gpu}-hf-{r['model']}"
        if r["model"] not in weighed:
            weighed.add(r["model"])
            cases.append({**base, "id": f"{slug}-weights", "kind": "weights_gib", "measured": r["weights_bytes"] / 2**30,
                          "unit": "GiB", "notes": "torch.cuda.memory_allocated() after building the model on the GPU"})
        # Plans other than the first run's name the prompt length, as one model runs at several.
        if run.get("plan", "default") != "default":
            slug += f"-p{r['prompt_tokens']}"
        for b in r["batches"]:
            common = {**base, "batch": b["batch"], "prompt_tokens": r["prompt_tokens"], "output_tokens": r["new_tokens"]}
            if b.get("decode_tokens_per_s_per_seq"):
                cases.append({**common, "id": f"{slug}-b{b['batch']}-decode", "kind": "decode_tps",
                              "measured": b["decode_tokens_per_s_per_seq"], "unit": "tokens/s",
                              "notes": "per sequence, random weights (dense model: same shapes and speed)"})
            cases.append({**common, "id": f"{slug}-b{b['batch']}-ttft", "kind": "ttft_s", "measured": b["ttft_s"],
                          "unit": "s", "notes": "generate(max_new_tokens=1) for the whole batch"})
            cases.append({**common, "id": f"{slug}-b{b['batch']}-used", "kind": "total_memory_gib",
                          "context": r["prompt_tokens"] + r["new_tokens"],
                          "measured": b["device_used_bytes"] / 2**30, "unit": "GiB",
                          "notes": "device memory in use after generate (total - free): CUDA context + PyTorch's reserved pool"})
    doc = json.load(open(REF))
    ids = {c["id"] for c in cases}
    doc["cases"] = [c for c in doc["cases"] if c["id"] not in ids] + cases
    with open(REF, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(cases)} cases from {args.device_json}; {len(doc['cases'])} in {REF}")


if __name__ == "__main__":
    main()
