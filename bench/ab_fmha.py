#!/usr/bin/env python3
"""Interleaved A/B timing of fmha bundles and cuDNN: several rounds, each
timing every candidate once (do_bench's median, as bench_kernels.py), the
order rotated from round to round, so that a slow drift of the clock or the
temperature lands on every candidate alike instead of on the last ones.
bench_kernels.py times its candidates one after another once, which leaves
a spread of a few percent between two runs of the same bundle; an A/B of
two compilers' bundles needs the rounds.

    python3 bench/ab_fmha.py --bundles DIR [--match SUBSTR,...] [--seqs 1024,2048]
        [--causal 1,0] [--rounds 5] [--json OUT.json]

Environment: B, H, D (4, 32, 128), DTYPE (f16), WARMUP_MS, REP_MS. Every
bundle whose params fit (dtype, head dim, causal, no GQA, no LSE) and whose
name contains one of the --match strings is checked against SDPA's flash
backend before it is timed (a wrong one is reported and left out). Per
shape it prints each candidate's median over the rounds, its spread
(min..max), and the ratio of cuDNN's median time to it (above 1: faster
than cuDNN).
"""

import argparse
import json
import os
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_kernels import (TORCH_DTYPE, attention_args, attention_candidates,  # noqa: E402
                           load_bundles, rel_err)

WARMUP_MS = int(os.environ.get("WARMUP_MS", 25))
REP_MS = int(os.environ.get("REP_MS", 100))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--match", default="", help="comma-separated name substrings")
    ap.add_argument("--seqs", default="2048")
    ap.add_argument("--causal", default="1,0")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    B, H, D = (int(os.environ.get(k, v)) for k, v in (("B", 4), ("H", 32), ("D", 128)))
    dt = os.environ.get("DTYPE", "f16")
    tdt = TORCH_DTYPE[dt]
    match = [m for m in args.match.split(",") if m]
    kernels = load_bundles(args.bundles)
    rows = []
    for causal in [c == "1" for c in args.causal.split(",")]:
        cands = [k for k in attention_candidates(kernels, dt, D, causal)
                 if not match or any(m in k.name for m in match)]
        if not cands:
            print(f"# no bundle fits dtype={dt} D={D} causal={int(causal)}", flush=True)
            continue
        for S in [int(s) for s in args.seqs.split(",")]:
            torch.manual_seed(S)
            q, k_, v = (torch.randn(B, H, S, D, device="cuda", dtype=tdt) for _ in range(3))
            flop = 4.0 * B * H * S * S * D / (2 if causal else 1)
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                ref = F.scaled_dot_product_attention(q, k_, v, is_causal=causal).double()
            fns = {}
            for kern in cands:
                call = attention_args(q, k_, v)
                kern(**call)
                torch.cuda.synchronize()
                err = rel_err(call["Out"], ref)
                if err > 4e-3:
                    print(f"# S={S} causal={int(causal)} {kern.name}: WRONG: relative "
                          f"error {err:.2e} vs SDPA flash (left out)", flush=True)
                    continue
                fns[kern.name] = (lambda kern=kern, call=call: kern(**call))

            def cudnn():
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    return F.scaled_dot_product_attention(q, k_, v, is_causal=causal)
            fns["cudnn"] = cudnn
            names = list(fns)
            times = {n: [] for n in names}
            for r in range(args.rounds):
                shift = r % len(names)
                for n in names[shift:] + names[:shift]:
                    times[n].append(do_bench(fns[n], warmup=WARMUP_MS, rep=REP_MS,
                                             return_mode="median"))
            ref_ms = statistics.median(times["cudnn"])
            print(f"## S={S} causal={int(causal)} rounds={args.rounds}", flush=True)
            for n in sorted(names, key=lambda n: statistics.median(times[n])):
                med = statistics.median(times[n])
                print(f"{n:40s} {med * 1e3:9.1f} us  {flop / med / 1e9:6.1f} TFLOPS  "
                      f"spread {min(times[n]) * 1e3:.1f}..{max(times[n]) * 1e3:.1f}  "
                      f"cudnn/this {ref_ms / med:.3f}", flush=True)
                rows.append(dict(S=S, causal=int(causal), name=n, median_ms=med,
                                 times_ms=times[n], tflops=flop / med / 1e9,
                                 vs_cudnn=ref_ms / med))
            del q, k_, v, ref, fns
            torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(B=B, H=H, D=D, dtype=dt, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
