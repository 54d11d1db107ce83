#!/usr/bin/env python3
"""GPU check and timing of kernels/gemm_splitk.mlir against PyTorch.

Runs the bundles of `bench/compile_bundles.sh OUT splitk` (named
splitk-DTYPE-...-CHIP) through tile_launcher:

1. correctness on ragged shapes (M from 1 to 200, N and K not multiples of
   the tiles; rows a multiple of 8 elements, the bundles' 16-byte alignment
   contract), C poisoned with NaN, against a float64 torch.matmul, each
   bundle launched twice on the same workspace: the second launch must be
   as right as the first, and Work and Locks must be zero after each (the
   last block of each tile resets them);
2. timing at M = 16, 64, 128 and N = K = 8192 (the issue's bar), f16 and
   bf16: every sm_90a bundle of the dtype, then torch.matmul (cuBLAS), in
   one process with one timer (triton.testing.do_bench, median of ms);
   prints TFLOPS = 2 M N K / t of the best bundle, cuBLAS's, and the ratio.

usage: check_splitk.py BUNDLE_DIR [--rounds R]
Exit status 0 when every check passed.
"""
import argparse
import os
import sys

import torch
import triton.testing as tt

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tile_launcher  # noqa: E402

DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", flush=True)
    if not ok:
        failures.append(name)


def params(k):
    return k.manifest.params


def make_args(k, m, n, kk, seed):
    p = params(k)
    g = torch.Generator(device="cuda").manual_seed(seed)
    in_dt, out_dt = DT[p.get("IN_DTYPE", "f16")], DT[p.get("OUT_DTYPE", "f16")]
    a = torch.randn(m, kk, device="cuda", generator=g).to(in_dt)
    b_shape = (n, kk) if p.get("TRANS_B", False) else (kk, n)
    b = torch.randn(*b_shape, device="cuda", generator=g).to(in_dt)
    bias = torch.randn(n, device="cuda", generator=g).to(out_dt)
    tiles = -(-m // p["BLOCK_M"]) * -(-n // p["BLOCK_N"])
    return dict(A=a, B=b, C=torch.full((m, n), float("nan"), device="cuda", dtype=out_dt),
                Bias=bias, Work=torch.zeros(m, n, device="cuda"),
                Locks=torch.zeros(tiles, device="cuda", dtype=torch.int32), scale=0.5)


def reference(k, args):
    p = params(k)
    b = args["B"].double()
    c = args["scale"] * (args["A"].double() @ (b.t() if p.get("TRANS_B", False) else b))
    if p.get("HAS_BIAS", False):
        c = c + args["Bias"].double()
    act = p.get("ACTIVATION", 0)
    if act == 1:
        c = torch.relu(c)
    elif act == 2:
        c = torch.nn.functional.gelu(c, approximate="tanh")
    return c


def correctness(k, name):
    shapes = [(1, 8, 8), (16, 8192, 8192), (37, 1032, 4104), (128, 520, 8200),
              (200, 136, 72), (3, 264, 200)]
    for i, (m, n, kk) in enumerate(shapes):
        args = make_args(k, m, n, kk, 1000 + i)
        ref = reference(k, args)
        for launch in (1, 2):
            args["C"].fill_(float("nan"))
            k(**args)
            torch.cuda.synchronize()
            c = args["C"].double()
            err = ((c - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
            tol = 2e-3 if params(k).get("OUT_DTYPE", "f16") != "bf16" else 1e-2
            clean = bool((args["Work"] == 0).all()) and bool((args["Locks"] == 0).all())
            ok = torch.isfinite(c).all().item() and err <= tol and clean
            check(f"{name} {m}x{n}x{kk} launch {launch}", ok,
                  f"rel err {err:.2e}{'' if clean else ' (workspace not reset)'}")


def timing(kernels, rounds):
    print("\n| M x N x K | dtype | best bundle | ours TFLOPS | cuBLAS TFLOPS | ours / cuBLAS |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    rows = []
    for dt in ("f16", "bf16"):
        cands = [(n, k) for n, k in kernels if n.endswith("sm_90a")
                 and params(k).get("IN_DTYPE") == dt and params(k).get("OUT_DTYPE") == dt
                 and not params(k).get("TRANS_B", False) and not params(k).get("HAS_BIAS", False)
                 and params(k).get("ACTIVATION", 0) == 0]
        if not cands:
            continue
        for m in (16, 64, 128):
            n = kk = 8192
            flop = 2.0 * m * n * kk
            times = {}
            for name, k in cands:
                args = make_args(k, m, n, kk, 7)
                k(**args)
                times[name] = min(tt.do_bench(lambda: k(**args), return_mode="median")
                                  for _ in range(rounds))
            a = torch.randn(m, kk, device="cuda").to(DT[dt])
            b = torch.randn(kk, n, device="cuda").to(DT[dt])
            peer = min(tt.do_bench(lambda: a @ b, return_mode="median") for _ in range(rounds))
            best = min(times, key=times.get)
            ours = flop / times[best] / 1e9
            theirs = flop / peer / 1e9
            rows.append((m, dt, best, ours, theirs))
            print(f"| {m} x {n} x {kk} | {dt} | {best} | {ours:.1f} | {theirs:.1f} | "
                  f"{ours / theirs:.2f} |", flush=True)
            top = sorted(times.items(), key=lambda kv: kv[1])[:5]
            print("#   fastest: " + ", ".join(f"{nm} {flop / t / 1e9:.1f}" for nm, t in top))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundles")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--no-timing", action="store_true")
    a = ap.parse_args()
    kernels = []
    for entry in sorted(os.listdir(a.bundles)):
        if not entry.startswith("splitk-"):
            continue
        try:
            kernels.append((entry, tile_launcher.load(os.path.join(a.bundles, entry))))
        except Exception as e:  # noqa: BLE001 - reported, and the rest runs
            check(f"load {entry}", False, str(e))
    for name, k in kernels:
        try:
            correctness(k, name)
        except Exception as e:  # noqa: BLE001
            check(name, False, f"{type(e).__name__}: {e}")
            if isinstance(e, tile_launcher.CudaError):
                break
    if not a.no_timing and not failures:
        timing(kernels, a.rounds)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
