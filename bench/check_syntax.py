#!/usr/bin/env python3
"""GPU check of kernels/pool_mean.mlir (docs/walkthrough.md section 7: shape
expressions and type aliases) against PyTorch.

Runs every bundle of `bench/compile_bundles.sh OUT syntax` (named
pool_mean-DTYPE-pP[-a2][-time]-CHIP) through tile_launcher on fresh random
inputs of ragged shapes, outputs poisoned (NaN) first, with PyTorch
computing the reference independently in float64:
    Y = X.view(M, N, P).mean(-1)   (X is [M, N * P], Y is [M, N])
The 16-byte bundles get row lengths that keep their alignment contract;
the -a2 bundles any row length. Then times the -time bundles against the
PyTorch peer (the same view-and-mean) with one timer
(triton.testing.do_bench, median), next to a device copy of the same bytes,
and prints GB/s and the fraction of copy bandwidth.

usage: check_syntax.py BUNDLE_DIR
Exit status 0 when every check passed.
"""
import os
import sys

try:
    import torch
except ImportError:  # the parts below that need no GPU stay importable
    torch = None

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

failures = []
DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}
# Error bound: half an ulp of the storage type on the result, relative, and
# an absolute term for results near 0 (the sum of P values is f32).
TOL = {"f16": (2.0 ** -11, 1e-4), "bf16": (2.0 ** -8, 1e-3),
       "f32": (2.0 ** -22, 1e-6)}


def parse_name(entry):
    """pool_mean-f16-p2-a2-time-sm_90a -> ('f16', 2, True, True, 'sm_90a')."""
    parts = entry.split("-")
    if len(parts) < 4 or parts[0] != "pool_mean" or parts[1] not in DTYPES:
        return None
    dtype, p = parts[1], int(parts[2][1:])
    return dtype, p, "a2" in parts[3:-1], "time" in parts[3:-1], parts[-1]


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}")
    if not ok:
        failures.append(name)


def shapes(dtype, any_row):
    """(M, N) pairs: ragged, none a multiple of the 16 x 64 tile."""
    if any_row:
        return [(1, 1), (77, 33), (1000, 257), (4097, 1001)]
    # 16-byte rows for X and Y: N * size % 16 == 0.
    step = 16 // torch.tensor([], dtype=getattr(torch, DTYPES[dtype])).element_size()
    return [(1, step), (77, 5 * step), (1000, 37 * step), (4097, 125 * step)]


def run_one(k, entry, dtype, p, m, n):
    tdtype = getattr(torch, DTYPES[dtype])
    x = torch.randn(m, n * p, device="cuda").to(tdtype)
    y = torch.full((m, n), float("nan"), device="cuda").to(tdtype)
    k(X=x, Y=y)
    torch.cuda.synchronize()
    ref = x.double().view(m, n, p).mean(-1)
    err = (y.double() - ref).abs()
    rel, atol = TOL[dtype]
    ok = bool(torch.isfinite(y).all()) and bool(
        (err <= ref.abs() * rel + atol).all())
    check(f"{entry} {m}x{n}", ok, f"max err {err.max().item():.2e}")


def timing(k, entry, dtype, p):
    import triton.testing as tt
    tdtype = getattr(torch, DTYPES[dtype])
    m, n = 16384, 4096
    x = torch.randn(m, n * p, device="cuda").to(tdtype)
    y = torch.empty(m, n, device="cuda", dtype=tdtype)
    ours = tt.do_bench(lambda: k(X=x, Y=y), return_mode="median")
    peer = tt.do_bench(lambda: x.view(m, n, p).mean(-1), return_mode="median")
    dst = torch.empty_like(x)
    copy = tt.do_bench(lambda: dst.copy_(x), return_mode="median")
    moved = (x.numel() + y.numel()) * x.element_size() / 1e9
    copy_gbs = 2 * x.numel() * x.element_size() / 1e9 / copy * 1e3
    ours_gbs, peer_gbs = moved / ours * 1e3, moved / peer * 1e3
    return (f"| {entry} | {m}x{n * p} -> {m}x{n} | {ours * 1e3:.1f} us | "
            f"{ours_gbs:.0f} | {ours_gbs / copy_gbs:.0%} | {peer * 1e3:.1f} us | "
            f"{peer_gbs:.0f} | {peer / ours:.2f}x |")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if torch is None or not torch.cuda.is_available():
        sys.exit("check_syntax.py needs PyTorch with a CUDA device")
    import tile_launcher
    bundles = sys.argv[1]
    torch.manual_seed(20261203)
    rows = []
    entries = sorted(os.listdir(bundles))
    seen = 0
    for entry in entries:
        parsed = parse_name(entry)
        if parsed is None:
            continue
        seen += 1
        dtype, p, any_row, timed, _chip = parsed
        try:
            k = tile_launcher.load(os.path.join(bundles, entry))
            for _ in range(2):  # fresh inputs each round
                for m, n in shapes(dtype, any_row):
                    run_one(k, entry, dtype, p, m, n)
            if timed:
                rows.append(timing(k, entry, dtype, p))
        except Exception as e:  # noqa: BLE001 - reported, and the rest runs
            check(entry, False, f"{type(e).__name__}: {e}")
    check("bundles found", seen > 0, f"{seen} pool_mean bundles in {bundles}")
    if rows:
        print("| bundle | shape | ours | GB/s | of copy | torch view.mean | GB/s | speedup |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        print("\n".join(rows))
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
