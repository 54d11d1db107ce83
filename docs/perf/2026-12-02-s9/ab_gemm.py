"""Interleaved A/B of gemm bundles and torch.matmul (rounds, rotated order;
checked against float64 first). usage: ab_gemm.py DIR ROUNDS"""
import os, sys, statistics
import torch
from triton.testing import do_bench
sys.path.insert(0, "bench")
from bench_kernels import TORCH_DTYPE, load_bundles, poisoned, rel_err
kernels = load_bundles(sys.argv[1]); rounds = int(sys.argv[2])
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
