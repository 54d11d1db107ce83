#!/usr/bin/env python3
"""GEMM, softmax and LayerNorm bundles on the GPU next to torch.

KERNELS_DIR holds one folder of bundle variants per (problem, dtype), named
PROBLEM[-anything]: gemm-f16/, softmax-bf16/, layernorm-f16/... For every
folder and shape, tile-runner autotunes over the folder's variants
(--problem PROBLEM --autotune, each variant in its own process), checks the
winner against the problem's GPU reference and times it; torch runs the same
operation on tensors of the winner's dtypes, timed the same way (CUDA events
around single launches, L2 flushed before each). Prints a markdown table and
writes one JSON line per run.

usage: kernels_gpu.py --runner BIN --kernels DIR [--out FILE.jsonl]
                      [--reps N] [--no-peers] [--quick]
Shapes: gemm M,N,K in GEMM_SHAPES (4096^3, 8192^3 and skinny ones); softmax
and layernorm M x N with N = 1024, 4096, 8192, 32768 and M * N = 128 Mi
(--quick: 16 Mi). Exit status: 0 when every run passed.
"""
import argparse
import json
import os
import subprocess
import sys

GEMM_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (16, 4096, 4096),
               (4096, 16, 4096), (1000, 77, 64)]
ROW_NS = [1024, 4096, 8192, 32768]


def shapes(problem, quick):
    if problem == "gemm":
        return [{"M": m, "N": n, "K": k} for m, n, k in
                (GEMM_SHAPES[:1] + GEMM_SHAPES[2:] if quick else GEMM_SHAPES)]
    total = (16 if quick else 128) << 20
    return [{"M": total // n, "N": n} for n in ROW_NS]


def run_ours(runner, folder, problem, shape, reps, work):
    shape_arg = ",".join(f"{k}={v}" for k, v in shape.items())
    cmd = [runner, "--backend=gpu", "--problem", problem, "--shape", shape_arg,
           "--autotune", "--bundles", folder, "--autotune-cache",
           os.path.join(work, "autotune.json"), "--bench", "--reps", str(reps),
           "--check-rows", "256", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    try:
        result = json.loads(proc.stdout)
    except ValueError:
        result = {"passed": False, "error": (proc.stderr or proc.stdout)[-500:]}
    result["command"] = " ".join(cmd)
    result["exit"] = proc.returncode
    return result


def torch_peer(problem, shape, args, params, reps):
    """Times torch on the same operation; returns ms (median) or None."""
    import torch
    import torch.nn.functional as F
    dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
    g = torch.Generator(device="cuda").manual_seed(1)

    def rand(spec_name, dims):
        dtype = dt[args[spec_name].split("[")[0]]
        return torch.randn(*dims, device="cuda", generator=g, dtype=dtype)

    if problem == "gemm":
        m, n, k = shape["M"], shape["N"], shape["K"]
        a = rand("A", (m, k))
        b = rand("B", (n, k) if params.get("TRANS_B") else (k, n))
        bias = rand("Bias", (n,)) if params.get("HAS_BIAS") else None
        act = params.get("ACTIVATION", 0)
        out_dtype = dt[args["C"].split("[")[0]]

        def fn():
            c = torch.matmul(a, b.t() if params.get("TRANS_B") else b)
            if bias is not None:
                c = c + bias
            if act == 1:
                c = torch.relu(c)
            elif act == 2:
                c = F.gelu(c, approximate="tanh")
            return c.to(out_dtype)
    elif problem == "softmax":
        x = rand("X", (shape["M"], shape["N"]))

        def fn():
            return torch.softmax(x, dim=-1)
    else:
        x = rand("X", (shape["M"], shape["N"]))
        w = rand("W", (shape["N"],))
        b = rand("B", (shape["N"],))
        if params.get("RMS"):
            def fn():
                return F.rms_norm(x, (shape["N"],), w, 1e-5)
        else:
            def fn():
                return F.layer_norm(x, (shape["N"],), w, b, 1e-5)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for i in range(reps):
        flush.fill_(i & 0xff)
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    work = os.path.dirname(os.path.abspath(args.out)) if args.out else "."
    out = open(args.out, "w") if args.out else None
    rows, failed = [], 0
    for name in sorted(os.listdir(args.kernels)):
        folder = os.path.join(args.kernels, name)
        problem = name.split("-")[0]
        if not os.path.isdir(folder) or problem not in ("gemm", "softmax", "layernorm"):
            continue
        for shape in shapes(problem, args.quick):
            r = run_ours(args.runner, folder, problem, shape, args.reps, work)
            t = r.get("timing", {})
            kernel = r.get("kernel", {})
            shape_args = r.get("shape", {}).get("arguments", {})
            peer_ms = None
            if not args.no_peers and shape_args:
                try:
                    peer_ms = torch_peer(problem, shape, shape_args,
                                         kernel.get("params", {}), args.reps)
                except Exception as e:  # a missing torch op is not our failure
                    print(f"torch {problem} {shape}: {e}", file=sys.stderr)
            r["torch_ms"] = peer_ms
            if out:
                out.write(json.dumps(r) + "\n")
            failed += not r.get("passed")
            rate = (f"{t['tflops']:.1f} TFLOPS" if problem == "gemm" and t.get("tflops")
                    else f"{t.get('gb_per_s', 0):.0f} GB/s" if t else "-")
            peer_rate = "-"
            if peer_ms and t.get("median_ms"):
                scale = t["median_ms"] / peer_ms
                peer_rate = (f"{t.get('tflops', 0) * scale:.1f} TFLOPS" if problem == "gemm"
                             else f"{t.get('gb_per_s', 0) * scale:.0f} GB/s")
            rows.append((name, " ".join(f"{k}={v}" for k, v in shape.items()),
                         kernel.get("name", "-"), f"{t.get('median_ms', float('nan')):.4f}",
                         rate, f"{peer_ms:.4f}" if peer_ms else "-", peer_rate,
                         "PASS" if r.get("passed") else
                         "FAIL " + (r.get("error") or "; ".join(r.get("failures", [])))[:120]))
    print("| kernels | shape | winner | ms | rate | torch ms | torch rate | check |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
