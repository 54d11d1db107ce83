#!/usr/bin/env python3
"""Interleaved A/B of gemm bundles and torch.matmul (cuBLAS): several rounds,
each timing every candidate once (do_bench's median), the order rotated from
round to round; every bundle checked against float64 first. The GEMM twin of
bench/ab_fmha.py.

    python3 bench/ab_gemm.py DIR ROUNDS [NAME,...]

DIR: gemm bundles (e.g. bench/compile_bundles.sh OUT kernels); NAME,...:
only these bundles (default: every gemm bundle in DIR). Shapes: f16 and
bf16, 4096^3 and 8192^3. Prints per shape each candidate's median, TFLOPS,
spread (min..max) and cuBLAS's median time over its (above 1: faster than
cuBLAS).
"""
import os, sys, statistics
import torch
from triton.testing import do_bench
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_kernels import TORCH_DTYPE, load_bundles, poisoned, rel_err
kernels = load_bundles(sys.argv[1]); rounds = int(sys.argv[2])
if len(sys.argv) > 3:
    only = set(sys.argv[3].split(","))
    kernels = [k for k in kernels if k.name in only]
for dt in ["f16", "bf16"]:
    tdt = TORCH_DTYPE[dt]
    cands = [k for k in kernels if k.manifest.params.get("IN_DTYPE") == dt]
    for (M, N, K) in [(4096, 4096, 4096), (8192, 8192, 8192)]:
        torch.manual_seed(M)
        a = torch.randn(M, K, device="cuda", dtype=tdt); b = torch.randn(K, N, device="cuda", dtype=tdt)
        ref = a.double() @ b.double()
        fns = {}
        for k in cands:
            args = dict(A=a, B=b, C=poisoned((M, N), tdt), Bias=torch.zeros(N, device="cuda", dtype=tdt), scale=1.0)
            k(**args); torch.cuda.synchronize()
            err = rel_err(args["C"], ref)
            if err > (2e-3 if dt == "f16" else 1e-2):
                print(f"# {dt} {M} {k.name} WRONG {err:.2e}"); continue
            fns[k.name] = (lambda k=k, args=args: k(**args))
        fns["cublas"] = lambda: a @ b
        names = list(fns); t = {n: [] for n in names}
        for r in range(rounds):
            s = r % len(names)
            for n in names[s:] + names[:s]:
                t[n].append(do_bench(fns[n], warmup=25, rep=100, return_mode="median"))
        refm = statistics.median(t["cublas"])
        print(f"## {dt} {M}x{N}x{K}")
        for n in sorted(names, key=lambda n: statistics.median(t[n])):
            m = statistics.median(t[n])
            print(f"{n:28s} {m*1e3:9.1f} us {2*M*N*K/m/1e9:6.1f} TFLOPS spread {min(t[n])*1e3:.1f}..{max(t[n])*1e3:.1f} cublas/this {refm/m:.3f}", flush=True)
        del a, b, ref, fns; torch.cuda.empty_cache()
