#!/usr/bin/env python3
"""GPU check of mma operands read transposed from their loads' shared tiles
(tilegpu.mma transpose_a / transpose_b), against PyTorch.

Runs the bundles of test/Kernels/Inputs/mma_transposed.mlir (C = A^T B^T,
A [K, M], B [N, K], f32 C; compiled by `bench/compile_bundles.sh OUT
transposed`, named mmat-DTYPE-TILES-CHIP) through tile_launcher on fresh
random inputs of ragged shapes that nobody tuned on (M, N, K not multiples
of the tiles; rows kept 16-byte aligned, the bundles' contract), C
poisoned with NaN first, and compares with float64 A^T B^T: every element
within K * 2^-22 times the sum of its terms' magnitudes plus 1e-6 (the
products of 16-bit values are exact in f32; the accumulation order is the
tensor cores'). A wrong major-ness or a missing .trans gives errors of the
order of the values themselves.

Then times each sm_90a bundle at M = N = K = 4096 against torch's
`A.t() @ B.t()` (cuBLAS on the transposed views; its result is in DTYPE,
ours in f32) with one timer (triton.testing.do_bench, median; CUDA events
without triton), TFLOPS = 2 M N K / t. The kernel is a
plain one-tile-per-block GEMM (a correctness vehicle, not a tuned GEMM):
the figure says how far it is from cuBLAS, nothing more.

usage: check_transposed.py BUNDLE_DIR [--no-timing]
Exit status 0 when every check passed (timing never fails).
"""
import os
import sys

try:
    import torch
except ImportError:  # the script's syntax can be checked without torch
    torch = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

failures = []
DEVICE = "cuda"  # a dry run of the script's logic (no GPU) sets "cpu"
DTYPES = {"f16": "float16", "bf16": "bfloat16"}
# (M, N, K): ragged against every tile (64 and 128), rows 16-byte aligned
# (M and K multiples of 8 for the 16-bit A [K, M] and B [N, K], N of 4 for
# the f32 C [M, N]), one tile or less, and several along K.
TIMING_SIZE = 4096
SHAPES = [(200, 136, 328), (64, 64, 64), (8, 4, 8), (1000, 508, 96), (72, 1028, 1000)]


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", flush=True)
    if not ok:
        failures.append(name)


def run_case(kernel, name, dtype, m, n, k, gen):
    t = getattr(torch, DTYPES[dtype])
    a = torch.randn(k, m, generator=gen, device=DEVICE).to(t)
    b = torch.randn(n, k, generator=gen, device=DEVICE).to(t)
    c = torch.full((m, n), float("nan"), device=DEVICE, dtype=torch.float32)
    kernel(A=a, B=b, C=c)
    synchronize()
    a64, b64 = a.double(), b.double()
    ref = a64.t() @ b64.t()
    mag = a64.abs().t() @ b64.abs().t()
    err = (c.double() - ref).abs()
    bound = k * 2.0 ** -22 * mag + 1e-6
    bad = ~(err <= bound)  # NaN (an element not written) is bad
    worst = err.nan_to_num(float("inf")).max().item()
    check(f"{name} {m}x{n}x{k}", not bool(bad.any()),
          f"max err {worst:.2e}, {int(bad.sum())} bad")


def synchronize():
    if DEVICE == "cuda":
        torch.cuda.synchronize()


def bench(fn):
    try:
        import triton.testing as tt
        return tt.do_bench(fn, return_mode="median")
    except ImportError:
        for _ in range(3):
            fn()
        times = []
        for _ in range(20):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e))
        return sorted(times)[len(times) // 2]


def timing(kernels):
    size = TIMING_SIZE
    print(f"\ntiming C = A^T B^T, M = N = K = {size} (ms, median; TFLOPS = 2 M N K / t)")
    print(f"{'bundle':28} {'ours ms':>8} {'TFLOPS':>7} {'torch ms':>9} {'TFLOPS':>7} {'ours/torch':>10}")
    flops = 2.0 * size ** 3
    for name, (kernel, dtype) in sorted(kernels.items()):
        if not name.endswith("sm_90a"):
            continue
        t = getattr(torch, DTYPES[dtype])
        a = torch.randn(size, size, device=DEVICE).to(t)
        b = torch.randn(size, size, device=DEVICE).to(t)
        c = torch.empty(size, size, device=DEVICE, dtype=torch.float32)
        try:
            ours = bench(lambda: kernel(A=a, B=b, C=c))
            peer = bench(lambda: a.t() @ b.t())
            print(f"{name:28} {ours:8.3f} {flops / ours / 1e9:7.1f} {peer:9.3f} "
                  f"{flops / peer / 1e9:7.1f} {peer / ours:10.2f}", flush=True)
        except Exception as e:  # noqa: BLE001 - timing never fails the check
            print(f"{name:28} error: {type(e).__name__}: {str(e)[:80]}")


def main():
    if torch is None:
        print("check_transposed.py needs torch and a CUDA GPU")
        return 2
    import tile_launcher
    args = [x for x in sys.argv[1:] if not x.startswith("--")]
    if len(args) != 1:
        print("usage: check_transposed.py BUNDLE_DIR [--no-timing]")
        return 2
    bundle_dir = args[0]
    device = torch.cuda.get_device_name() if DEVICE == "cuda" else DEVICE
    print(f"torch {torch.__version__}, {device}, bundles {bundle_dir}")
    gen = torch.Generator(device=DEVICE).manual_seed(20261203)
    kernels = {}
    for entry in sorted(os.listdir(bundle_dir)):
        path = os.path.join(bundle_dir, entry)
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            continue
        try:
            kernel = tile_launcher.load(path)
            dtype = kernel.manifest.params.get("DTYPE", "f16")
        except Exception as e:  # noqa: BLE001
            check(f"load {entry}", False, f"{type(e).__name__}: {e}")
            continue
        kernels[entry] = (kernel, dtype)
        for m, n, k in SHAPES:
            try:
                run_case(kernel, entry, dtype, m, n, k, gen)
            except Exception as e:  # noqa: BLE001 - reported, the rest runs
                check(f"{entry} {m}x{n}x{k}", False, f"{type(e).__name__}: {e}")
    if not kernels:
        check("bundles", False, f"none in {bundle_dir}")
    if "--no-timing" not in sys.argv:
        timing(kernels)
    print(f"\n{len(failures)} failed" + (": " + ", ".join(failures) if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
