#!/usr/bin/env python3
"""PyTorch reference for gpuplan-probe-gpu, and the probe / PyTorch comparison.

Measure (needs torch with CUDA):
    python3 native/cuda/torch_reference.py --out torch_reference.json [--quick]
  - device-to-device copy: dst.copy_(src) on min(2 GiB, free/8) float32 tensors, counting
    read + write bytes (2x the size), like the probe's hbm_copy and memcpy_d2d;
  - matmul at the probe's sizes on uniform random data in [-1, 1): BF16 and FP16 8192^3
    (both `a @ b` = cuBLAS NN and `a @ b.t()` = TN, the probe's layout), TF32 8192^3, FP32 and
    FP64 4096^3; FP8 E4M3 torch._scaled_mm and INT8 torch._int_mm where this torch has them.
  Each: warm-up 3, then 20 repetitions between CUDA events, median (quick: 1 and 5).

Compare (no torch needed):
    python3 native/cuda/torch_reference.py --compare probe.json torch_reference.json [--json-out FILE]
  prints probe / PyTorch per pair; the target is >= 0.98.
"""
import argparse
import datetime
import json
import statistics
import sys

SCHEMA = "gpuplan.torch-reference/1"
TARGET = 0.98


def measure(args):
    import torch

    if not torch.cuda.is_available():
        print("torch_reference: torch sees no CUDA device", file=sys.stderr)
        return 3
    dev = torch.device("cuda", args.device)
    torch.cuda.set_device(dev)
    warmup, reps = (1, 5) if args.quick else (3, 20)
    metrics, errors = [], []

    def timed(fn):
        for _ in range(warmup):
            fn()
        torch.cuda.synchronize()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
        for s, e in zip(starts, ends):
            s.record()
            fn()
            e.record()
        torch.cuda.synchronize()
        return [s.elapsed_time(e) / 1e3 for s, e in zip(starts, ends)]

    def add(mid, name, unit, work, times, method, **extra):
        med = statistics.median(times)
        m = {"id": mid, "name": name, "value": work / med, "unit": unit, "median_s": med,
             "min": work / max(times), "max": work / min(times), "reps": len(times), "warmup": warmup,
             "method": method}
        m.update(extra)
        metrics.append(m)
        print(f"  {mid:<28} {m['value']:.4g} {unit}", file=sys.stderr, flush=True)

    def uniform(shape, dtype):
        return (torch.rand(shape, device=dev, dtype=torch.float32) * 2 - 1).to(dtype)

    # Device-to-device copy.
    free, _ = torch.cuda.mem_get_info(dev)
    nbytes = min((256 if args.quick else 2048) << 20, free // 8)
    nbytes -= nbytes % (64 << 20)
    src = torch.rand(nbytes // 4, device=dev)
    dst = torch.empty_like(src)
    add("torch_copy", "PyTorch tensor.copy_ device to device", "B/s", 2.0 * nbytes, timed(lambda: dst.copy_(src)),
        f"dst.copy_(src), float32, {nbytes >> 20} MiB each, counting read + write bytes; CUDA events, median",
        bytes_per_rep=2.0 * nbytes, array_bytes=nbytes)
    del src, dst
    torch.cuda.empty_cache()

    big, small = (2048, 1024) if args.quick else (8192, 4096)

    def matmul(mid, name, dtype, n, tf32=False, layouts=("tn", "nn")):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        a = uniform((n, n), dtype)
        b = uniform((n, n), dtype)
        c = torch.empty((n, n), device=dev, dtype=dtype)
        flop = 2.0 * n * n * n
        for layout in layouts:
            rhs = b.t() if layout == "tn" else b
            expr = "a @ b.t() (cuBLAS TN, the probe's layout)" if layout == "tn" else "a @ b (cuBLAS NN)"
            add(f"{mid}_{layout}", f"{name} {layout.upper()}", "FLOP/s", flop,
                timed(lambda: torch.mm(a, rhs, out=c)),
                f"torch.mm {expr}, {dtype}, allow_tf32={tf32}, uniform random [-1,1); CUDA events, median",
                flop_per_rep=flop, m=n, n=n, k=n)
        del a, b, c
        torch.cuda.empty_cache()

    cases = [
        ("torch_mm_bf16", "PyTorch matmul BF16", torch.bfloat16, big, False),
        ("torch_mm_fp16", "PyTorch matmul FP16", torch.float16, big, False),
        ("torch_mm_tf32", "PyTorch matmul TF32", torch.float32, big, True),
        ("torch_mm_fp32", "PyTorch matmul FP32", torch.float32, small, False),
        ("torch_mm_fp64", "PyTorch matmul FP64", torch.float64, small, False),
    ]
    for mid, name, dtype, n, tf32 in cases:
        try:
            matmul(mid, name, dtype, n, tf32)
        except Exception as e:  # keep going: the other references still count
            errors.append(f"{mid}: {type(e).__name__}: {e}")
    torch.backends.cuda.matmul.allow_tf32 = False

    # FP8 E4M3: torch._scaled_mm needs B column-major (b.t() of a row-major N x K tensor).
    try:
        n = big
        a = uniform((n, n), torch.float32).to(torch.float8_e4m3fn)
        b = uniform((n, n), torch.float32).to(torch.float8_e4m3fn)
        one = torch.tensor(1.0, device=dev)
        flop = 2.0 * n * n * n
        for fast in (True, False):
            mid = "torch_scaled_mm_fp8" + ("" if fast else "_precise_accum")
            add(mid, f"PyTorch _scaled_mm FP8 E4M3 (fast accum {fast})", "FLOP/s", flop,
                timed(lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                               use_fast_accum=fast)),
                f"torch._scaled_mm(a, b.t()), e4m3 in, bf16 out, use_fast_accum={fast}; CUDA events, median",
                flop_per_rep=flop, m=n, n=n, k=n)
        del a, b
    except Exception as e:
        errors.append(f"torch_scaled_mm_fp8: {type(e).__name__}: {e}")

    # INT8: torch._int_mm, INT32 out.
    try:
        n = big
        a = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
        b = torch.randint(-128, 128, (n, n), device=dev, dtype=torch.int8)
        flop = 2.0 * n * n * n
        add("torch_int_mm_int8", "PyTorch _int_mm INT8", "OP/s", flop, timed(lambda: torch._int_mm(a, b.t())),
            "torch._int_mm(a, b.t()), int8 in, int32 out; CUDA events, median", flop_per_rep=flop, m=n, n=n, k=n)
        del a, b
    except Exception as e:
        errors.append(f"torch_int_mm_int8: {type(e).__name__}: {e}")

    props = torch.cuda.get_device_properties(dev)
    doc = {
        "schema": SCHEMA,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "device": {"index": args.device, "name": props.name, "compute_capability": f"{props.major}.{props.minor}",
                   "sm_count": props.multi_processor_count},
        "mode": "quick" if args.quick else "full",
        "metrics": metrics,
        "errors": errors,
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    for e in errors:
        print(f"torch_reference: {e}", file=sys.stderr)
    return 0


# Probe metric -> PyTorch metric. The first pairs are the targets (>= 0.98).
PAIRS = [
    ("hbm_copy", "torch_copy"),
    ("memcpy_d2d", "torch_copy"),
    ("gemm_bf16", "torch_mm_bf16_tn"),
    ("gemm_bf16", "torch_mm_bf16_nn"),
    ("gemm_fp16", "torch_mm_fp16_tn"),
    ("gemm_tf32", "torch_mm_tf32_tn"),
    ("gemm_fp32", "torch_mm_fp32_tn"),
    ("gemm_fp64", "torch_mm_fp64_tn"),
    ("gemm_fp8", "torch_scaled_mm_fp8"),
    ("gemm_fp8_precise_accum", "torch_scaled_mm_fp8_precise_accum"),
    ("gemm_int8", "torch_int_mm_int8"),
    ("wmma_bf16", "torch_mm_bf16_tn"),  # informational: the hand-written kernel
]


def fmt(v, unit):
    for scale, prefix in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1, "")):
        if abs(v) >= scale:
            return f"{v / scale:.3f} {prefix}{unit}"
    return f"{v:.3g} {unit}"


def compare(args):
    with open(args.compare[0]) as f:
        probe = json.load(f)
    with open(args.compare[1]) as f:
        ref = json.load(f)
    pm = {m["id"]: m for m in probe.get("metrics", [])}
    tm = {m["id"]: m for m in ref.get("metrics", [])}
    rows = []
    print(f"probe: {probe.get('device', {}).get('name')} driver {probe.get('driver')} "
          f"CUDA runtime {probe.get('cuda_runtime')}; torch {ref.get('torch')} (CUDA {ref.get('cuda')})")
    print(f"{'probe metric':<24} {'probe':>18} {'torch metric':<34} {'torch':>18} {'ratio':>7}  verdict")
    for p_id, t_id in PAIRS:
        p, t = pm.get(p_id), tm.get(t_id)
        if not p or not t or p.get("value") is None or t.get("value") is None:
            continue
        ratio = p["value"] / t["value"]
        same_size = all(p.get(x) == t.get(x) for x in ("m", "n", "k")) if "m" in p or "m" in t else True
        if p_id == "wmma_bf16":
            verdict = "info (hand-written kernel)"
        else:
            verdict = "ok" if ratio >= TARGET else f"BELOW {TARGET}"
        if not same_size:
            verdict += " (sizes differ)"
        rows.append({"probe": p_id, "probe_value": p["value"], "torch": t_id, "torch_value": t["value"],
                     "ratio": ratio, "verdict": verdict, "unit": p.get("unit")})
        print(f"{p_id:<24} {fmt(p['value'], p.get('unit', '')):>18} {t_id:<34} "
              f"{fmt(t['value'], t.get('unit', '')):>18} {ratio:7.3f}  {verdict}")
    if not rows:
        print("no comparable metrics")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"schema": "gpuplan.probe-vs-torch/1", "target": TARGET, "rows": rows}, f, indent=2)
            f.write("\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="torch_reference.json")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--compare", nargs=2, metavar=("PROBE_JSON", "TORCH_JSON"))
    ap.add_argument("--json-out")
    args = ap.parse_args()
    if args.compare:
        return compare(args)
    try:
        import torch  # noqa: F401
    except ImportError as e:
        print(f"torch_reference: torch not available: {e}", file=sys.stderr)
        return 3
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
