#!/usr/bin/env python3
"""scripts/device_inference.py — measure Hugging Face Transformers inference on the GPU machine
(issue 4): weights memory, device memory in use after generate(), time to first token and decode
speed, for catalog models built from their config.json (tests/data/hf) with random weights.

Random weights change no tensor shape, so memory and dense-model speed are those of the real
model; the output text is noise (min_new_tokens keeps generation going). MoE routing on random
weights is not the trained router's, so MoE speeds are marked as such.

Run from the repository root on the GPU machine (torch + transformers there):
    python3 scripts/device_inference.py --out $OUT/hf_inference.json
Writes one JSON document (schema gpuplan.device-inference/1) and prints one line per measurement.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

# (catalog model id, batches, prompt tokens, new tokens). Sizes chosen so the whole run stays
# under ~4 minutes on an H200: bf16 weights from 2.5 to 29 GB.
PLAN = [
    ("llama-3.2-1b", [1, 16], 512, 128),
    ("qwen2.5-3b", [1, 16], 512, 128),
    ("llama-3.1-8b", [1, 16], 512, 128),
    ("mistral-7b-v0.1", [1], 512, 128),
    ("qwen2.5-14b", [1, 8], 512, 128),
    ("gemma-2-9b", [1], 512, 128),
]

# --plan long: long prompts, where the KV cache and the prefill's activations, not the weights,
# decide the memory and the prefill decides the time to first token (2026-12-04 run). Mistral 7B
# v0.1 (sliding window 4,096 on every layer) and Gemma 2 9B (every other layer local, window
# 4,096) test whether a cache keeps only the window; Qwen2.5 14B (48 layers, 8 KV heads) and
# Llama 3.1 8B (32 layers, 8 KV heads) are full attention.
PLAN_LONG = [
    ("llama-3.1-8b", [1, 4], 8192, 32),
    ("llama-3.1-8b", [1], 32768, 32),
    ("qwen2.5-14b", [1], 16384, 32),
    ("mistral-7b-v0.1", [1], 16384, 32),
    ("gemma-2-9b", [1], 8192, 32),
    ("qwen2.5-7b", [2], 16384, 32),
]
PLANS = {"default": PLAN, "long": PLAN_LONG}


def gib(x):
    return x / 2**30


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget-s", type=float, default=240, help="stop starting new models after this")
    ap.add_argument("--plan", choices=sorted(PLANS), default="default",
                    help="default: short prompts, six models (2026-11-30); long: prompts of 8K-32K tokens")
    args = ap.parse_args()

    import torch
    import transformers
    from transformers import AutoConfig, AutoModelForCausalLM

    start = time.time()
    dev = torch.cuda.get_device_properties(0)
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:  # noqa: BLE001 - the driver line is informative only
        driver = "unknown"
    doc = {
        "schema": "gpuplan.device-inference/1",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "gpu": dev.name,
        "gpu_memory_bytes": dev.total_memory,
        "driver": driver,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "cuda": torch.version.cuda,
        "method": ("model = AutoModelForCausalLM.from_config(config.json from tests/data/hf, bf16, sdpa) on the GPU with "
                   "random weights; weights = torch.cuda.memory_allocated() after loading; for each batch: random "
                   "prompt ids, generate(max_new_tokens=1) timed (TTFT) and generate(max_new_tokens=N, "
                   "min_new_tokens=N, greedy) timed, decode tokens/s per sequence = (N-1) / (t_N - t_1); each "
                   "timing the median of 3 after 1 warm-up, torch.cuda.synchronize() around; device_used = "
                   "total - free (torch.cuda.mem_get_info) after the generate runs (caching allocator not emptied), "
                   "i.e. what nvidia-smi shows for the process"),
        "plan": args.plan,
        "runs": [],
    }
    for model_id, batches, prompt, new in PLANS[args.plan]:
        if time.time() - start > args.budget_s:
            doc["runs"].append({"model": model_id, "skipped": "time budget"})
            continue
        run = {"model": model_id, "prompt_tokens": prompt, "new_tokens": new, "dtype": "bf16"}
        model = None
        try:
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()
            before = torch.cuda.memory_allocated()
            with tempfile.TemporaryDirectory() as d:
                with open(f"tests/data/hf/{model_id}.config.json") as f:
                    cfg_json = json.load(f)
                with open(os.path.join(d, "config.json"), "w") as f:
                    json.dump(cfg_json, f)
                cfg = AutoConfig.from_pretrained(d)
            t0 = time.time()
            with torch.device("cuda"):
                model = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16,
                                                         attn_implementation="sdpa")
            model.eval()
            torch.cuda.synchronize()
            run["load_s"] = time.time() - t0
            run["weights_bytes"] = torch.cuda.memory_allocated() - before
            run["params"] = sum(p.numel() for p in model.parameters())
            run["sliding_window"] = getattr(cfg, "sliding_window", None)
            run["layer_types"] = sorted(set(getattr(cfg, "layer_types", None) or [])) or None
            vocab = cfg.vocab_size
            run["batches"] = []
            for b in batches:
                ids = torch.randint(0, vocab, (b, prompt), device="cuda")
                mask = torch.ones_like(ids)

                def gen(n):
                    torch.cuda.synchronize()
                    t = time.perf_counter()
                    with torch.no_grad():
                        model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=n, min_new_tokens=n,
                                       do_sample=False, pad_token_id=0)
                    torch.cuda.synchronize()
                    return time.perf_counter() - t

                gen(2)  # warm-up
                t1 = sorted(gen(1) for _ in range(3))[1]
                tn = sorted(gen(new) for _ in range(3))[1]
                free, total = torch.cuda.mem_get_info()
                rec = {
                    "batch": b,
                    "ttft_s": t1,
                    "generate_s": tn,
                    "decode_tokens_per_s_per_seq": (new - 1) / (tn - t1) if tn > t1 else None,
                    "peak_allocated_bytes": torch.cuda.max_memory_allocated(),
                    "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
                    "device_used_bytes": total - free,
                }
                run["batches"].append(rec)
                print(f"{model_id:<18} b={b:<3} weights {gib(run['weights_bytes']):6.2f} GiB  ttft {t1*1e3:7.1f} ms  "
                      f"decode {rec['decode_tokens_per_s_per_seq'] or 0:7.1f} tok/s/seq  "
                      f"used {gib(rec['device_used_bytes']):6.2f} GiB  peak alloc {gib(rec['peak_allocated_bytes']):6.2f} GiB",
                      flush=True)
        except Exception as e:  # noqa: BLE001 - record and go on with the next model
            run["error"] = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        finally:
            del model
            torch.cuda.empty_cache()
        doc["runs"].append(run)
        with open(args.out, "w") as f:  # after every model, so a timeout keeps what ran
            json.dump(doc, f, indent=1)
    doc["total_s"] = time.time() - start
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
