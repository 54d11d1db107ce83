#!/usr/bin/env python3
"""GPU check of the ops of memory that data decides, against PyTorch.

Runs the bundles of test/Pipelines/Inputs/data/*.mlir (compiled by
`bench/compile_bundles.sh OUT data`) through tile_launcher on fresh random
inputs of ragged shapes (rows whose byte size keeps the bundles' 16-byte
alignment contract), with PyTorch computing the reference independently:

- colsum_atomic: split-M column sums through tile atomics (X.sum(0));
- permute_rows: a gather of rows by ids (X[perm]) and the matching scatter,
  with out-of-range and negative ids (masked: zero, not written);
- argmax_rows: argmax (first index of ties, as torch.argmax) and min per
  row;
- varlen_copy: scalars read from memory (cu_seqlens) as loop bounds, loads
  and stores at element offsets, a scalar atomic ticket per block;
- locked_counter: a spin lock between blocks (cas acquire, xchg release)
  around a plain read-modify-write of a counter.

Outputs are poisoned before each run. Then times colsum_atomic and
permute_rows against torch (X.sum(0), X[perm]) with one timer
(triton.testing.do_bench, median), for the notes.

usage: check_data_ops.py BUNDLE_DIR   (bundles named NAME-CHIP inside)
Exit status 0 when every check passed.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tile_launcher  # noqa: E402

failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}")
    if not ok:
        failures.append(name)


def colsum(k, chip, m, n):
    x = torch.randn(m, n, device="cuda", dtype=torch.float32)
    s = torch.zeros(n, device="cuda", dtype=torch.float32)
    k(X=x, S=s)
    torch.cuda.synchronize()
    ref = x.double().sum(0)
    err = (s.double() - ref).abs().max().item()
    check(f"colsum_atomic-{chip} {m}x{n}", err <= 1e-3 * max(1.0, m ** 0.5),
          f"max err {err:.2e}")


def permute(k, chip, m, n):
    x = torch.randn(m, n, device="cuda").half()
    perm = torch.randperm(m, device="cuda", dtype=torch.int64).int()
    bad = [i for i in (3, 7) if i < m]
    if bad:
        perm[bad[0]] = m + 5
    if len(bad) > 1:
        perm[bad[1]] = -3
    out = torch.full((m, n), float("nan"), device="cuda").half()
    back = torch.full((m, n), float("nan"), device="cuda").half()
    k(X=x, Perm=perm, Out=out, Back=back)
    torch.cuda.synchronize()
    valid = (perm >= 0) & (perm < m)
    ref = torch.zeros_like(x)
    ref[valid] = x[perm[valid].long()]
    check(f"permute_rows gather-{chip} {m}x{n}", torch.equal(out, ref))
    ref_back = torch.full_like(x, float("nan"))
    ref_back[perm[valid].long()] = x[valid]
    same = torch.equal(torch.nan_to_num(back, nan=12345.0),
                       torch.nan_to_num(ref_back, nan=12345.0))
    check(f"permute_rows scatter-{chip} {m}x{n}", same)


def argmax(k, chip, m, n):
    x = torch.randn(m, n, device="cuda")
    x[:, n // 2] = x.max(1).values  # ties: the first index must win
    x = torch.round(x * 4) / 4  # more ties
    idx = torch.full((m,), -7, device="cuda", dtype=torch.int32)
    mn = torch.full((m,), float("nan"), device="cuda")
    k(X=x, Idx=idx, Min=mn)
    torch.cuda.synchronize()
    check(f"argmax_rows argmax-{chip} {m}x{n}",
          torch.equal(idx.long(), torch.argmax(x, dim=1)))
    check(f"argmax_rows min-{chip} {m}x{n}", torch.equal(mn, x.min(1).values))


def varlen(k, chip, batch, n=64, rows=8):
    lens = torch.randint(0, 50, (batch,))
    lens[0] = 0
    starts = torch.zeros(batch + 1, dtype=torch.int32)
    starts[1:] = torch.cumsum(lens, 0)
    total = int(starts[-1])
    maxlen = int(lens.max()) + rows
    x = torch.randn(total, n, device="cuda").half()
    out = torch.full((batch, maxlen, n + 8), float("nan"), device="cuda").half()
    count = torch.zeros(1, device="cuda", dtype=torch.int32)
    tickets = torch.full((batch,), -1, device="cuda", dtype=torch.int32)
    k(Starts=starts.cuda(), X=x, Out=out, Count=count, Tickets=tickets)
    torch.cuda.synchronize()
    ok = True
    for b in range(batch):
        s, e = int(starts[b]), int(starts[b + 1])
        ok &= torch.equal(out[b, : e - s, 1 : n + 1], x[s:e])
        ok &= bool(torch.isnan(out[b, :, 0]).all())
    check(f"varlen_copy rows-{chip} B={batch}", ok)
    check(f"varlen_copy tickets-{chip} B={batch}",
          int(count.item()) == batch and
          torch.equal(tickets.sort().values.cpu(),
                      torch.arange(batch, dtype=torch.int32)))


def locked(k, chip, blocks):
    lock = torch.zeros(1, device="cuda", dtype=torch.int32)
    count = torch.zeros(1, device="cuda", dtype=torch.int32)
    seen = torch.full((blocks,), -1, device="cuda", dtype=torch.int32)
    k(Lock=lock, Count=count, Seen=seen)
    torch.cuda.synchronize()
    check(f"locked_counter-{chip} blocks={blocks}",
          int(count.item()) == blocks and int(lock.item()) == 0 and
          torch.equal(seen.sort().values.cpu(),
                      torch.arange(blocks, dtype=torch.int32)),
          f"count {int(count.item())}")


def timing(bundles):
    import triton.testing as tt
    path = os.path.join(bundles, "colsum_atomic-sm_90a")
    if os.path.isdir(path):
        k = tile_launcher.load(path)
        m, n = 32768, 4096
        x = torch.randn(m, n, device="cuda")
        s = torch.zeros(n, device="cuda")
        ours = tt.do_bench(lambda: k(X=x, S=s), return_mode="median")
        peer = tt.do_bench(lambda: x.sum(0), return_mode="median")
        gb = m * n * 4 / 1e9
        print(f"time colsum {m}x{n} f32: ours {ours * 1e3:.1f} us "
              f"({gb / ours * 1e3:.0f} GB/s), torch.sum(0) {peer * 1e3:.1f} us "
              f"({gb / peer * 1e3:.0f} GB/s)")
    path = os.path.join(bundles, "permute_rows-sm_90a")
    if os.path.isdir(path):
        k = tile_launcher.load(path)
        m, n = 65536, 1024
        x = torch.randn(m, n, device="cuda").half()
        perm = torch.randperm(m, device="cuda").int()
        out = torch.empty_like(x)
        back = torch.empty_like(x)
        ours = tt.do_bench(lambda: k(X=x, Perm=perm, Out=out, Back=back),
                           return_mode="median")
        pl = perm.long()

        def peer_fn():
            out.copy_(x[pl])
            back[pl] = x
        peer = tt.do_bench(peer_fn, return_mode="median")
        gb = m * n * 2 * 4 / 1e9  # gather: read + write; scatter: the same
        print(f"time permute_rows {m}x{n} f16 (gather + scatter): ours "
              f"{ours * 1e3:.1f} us ({gb / ours * 1e3:.0f} GB/s), torch "
              f"{peer * 1e3:.1f} us ({gb / peer * 1e3:.0f} GB/s)")


def main():
    bundles = sys.argv[1]
    torch.manual_seed(20261203)
    for entry in sorted(os.listdir(bundles)):
        path = os.path.join(bundles, entry)
        name, chip = entry.rsplit("-", 1)
        try:
            k = tile_launcher.load(path)
        except Exception as e:  # noqa: BLE001
            check(f"load {entry}", False, str(e))
            continue
        try:
            run_checks(k, name, chip)
        except Exception as e:  # noqa: BLE001 - reported, and the rest runs
            check(f"{entry}", False, f"{type(e).__name__}: {e}")
    timing(bundles)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


def run_checks(k, name, chip):
    for _ in range(2):  # fresh inputs each round
        if name == "colsum_atomic":
            for m, n in [(1, 1), (77, 1000), (1000, 332), (4097, 68)]:
                colsum(k, chip, m, n)
        elif name == "permute_rows":
            for m, n in [(1, 8), (77, 104), (1000, 336)]:
                permute(k, chip, m, n)
        elif name == "argmax_rows":
            for m, n in [(1, 1), (77, 196), (1000, 256)]:
                argmax(k, chip, m, n)
        elif name == "varlen_copy":
            for batch in [1, 5, 37]:
                varlen(k, chip, batch)
        elif name == "locked_counter":
            for blocks in [1, 7, 1000]:
                locked(k, chip, blocks)

if __name__ == "__main__":
    sys.exit(main())
