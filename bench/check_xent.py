#!/usr/bin/env python3
"""GPU check and timing of the LLM-training elementwise and loss kernels
(kernels/cross_entropy.mlir, swiglu.mlir, gelu.mlir, dropout.mlir) against
PyTorch.

Runs the bundles compiled by `bench/compile_bundles.sh OUT xent` (named
KERNEL-...-CHIP, see that set) through tile_launcher on fresh random inputs
of ragged shapes that no bundle was tuned on, outputs poisoned (NaN) first:

- cross_entropy: F.cross_entropy(x.float(), y, reduction='none',
  ignore_index=-100) and its backward for a random per-row dloss, the LSE
  (torch.logsumexp), V = 50257, 32003, 1000 and 1, T = 1, 7, 129, ignored
  rows, f16/bf16/f32 logits, i32 targets, gradient in place or not;
- swiglu: F.silu(g) * u and its backward, from two tensors and from the two
  halves of one fused [T, 2F] tensor;
- gelu: F.gelu(x, approximate='tanh' | 'none') and its backward;
- dropout: the mask equals the Python Philox4x32-10 (the CPU reference of
  test/Kernels/check_xent_kernels.py) bit for bit; kept values are
  x * (1 / (1 - p)) exactly; the keep fraction is within 6 standard
  deviations of 1 - p; the backward (the kernel on dY with the same seed)
  regenerates the same mask.

Then times each against its PyTorch eager peer in one process with one
timer (triton.testing.do_bench, median), with the bytes each must move and
the fraction of the copy bandwidth measured here on the same bytes
(dst.copy_(src)).

usage: check_xent.py BUNDLE_DIR [--no-timing]
Exit status 0 when every check passed.
"""
import math
import os
import struct
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the pure-Python parts (Philox) stay importable
    torch = F = None

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tile_launcher  # noqa: E402

failures = []
DT = ({"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
      if torch is not None else {})
U = {"f16": 2.0**-11, "bf16": 2.0**-8, "f32": 2.0**-24}
IGNORE = -100


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}")
    if not ok:
        failures.append(name)


def close(name, out, ref, rtol, atol):
    """Every element finite and |out - ref| <= atol + rtol |ref|."""
    out, ref = out.double(), ref.double()
    finite = bool(torch.isfinite(out).all())
    err = (out - ref).abs()
    bad = err > atol + rtol * ref.abs()
    worst = err.max().item() if err.numel() else 0.0
    check(name, finite and not bool(bad.any()),
          f"max err {worst:.2e}" + ("" if finite else " (non-finite: unwritten?)"))


def parse(entry):
    """KERNEL-tok-tok-...-CHIP -> (kernel, set of tokens, chip)."""
    parts = entry.split("-")
    return parts[0], set(parts[1:-1]), parts[-1]


def dtype_of(tokens):
    return next(t for t in ("f16", "bf16", "f32") if t in tokens)


# ---------------------------------------------------------------- cross entropy

def xent_args(k, x, y, dloss, tokens):
    t, v = x.shape
    loss = torch.full((t,), float("nan"), device="cuda")
    lse = torch.full((t,), float("nan"), device="cuda")
    dlogits = torch.full_like(x, float("nan"))
    args = dict(Logits=x, Targets=y, DLoss=dloss, Loss=loss, Lse=lse,
                DLogits=dlogits, IgnoreIndex=IGNORE)
    return args, loss, lse, dlogits


def check_xent(k, entry, tokens, t, v):
    dt = dtype_of(tokens)
    x = (torch.randn(t, v, device="cuda") * 3).to(DT[dt])
    y = torch.randint(0, v, (t,), device="cuda")
    y[::3] = IGNORE
    if t > 4:
        y[4] = v - 1
    if t > 5:
        y[5] = 0
    # i32 targets: the bundle ABI carries no i64 views (the kernel takes
    # i64 on the CPU executor).
    y = y.to(torch.int32)
    dloss = torch.randn(t, device="cuda")
    x0 = x.clone()
    args, loss, lse, dlogits = xent_args(k, x, y, dloss, tokens)
    k(**args)
    torch.cuda.synchronize()
    xr = x0.float().requires_grad_()
    ref = F.cross_entropy(xr, y.long(), reduction="none", ignore_index=IGNORE)
    (g,) = torch.autograd.grad(ref, xr, dloss)
    ref_lse = torch.logsumexp(x0.double(), 1)
    shape = f"{t}x{v}"
    # f32 sums of V terms: 2^-16 relative to the terms (|x| <= ~15 here).
    close(f"{entry} loss {shape}", loss, ref.detach(), 1e-5, 1e-4)
    close(f"{entry} lse {shape}", lse, ref_lse, 1e-5, 1e-4)
    if "fwd" in tokens:
        check(f"{entry} no gradient written {shape}", bool(torch.isnan(dlogits).all()))
        return
    grad = x if "inplace" in tokens else dlogits
    close(f"{entry} dlogits {shape}", grad, g, 2 * U[dt], 1e-5 + 2 * U[dt] * 1e-3)
    ignored = (y.long() == IGNORE)
    check(f"{entry} ignored rows zero {shape}", bool((grad[ignored] == 0).all()))


def time_xent(k, entry, tokens, copy_gbs, rows):
    import triton.testing as tt
    dt = dtype_of(tokens)
    t = 4096
    odd = "a2" in tokens or "a4" in tokens
    for v in ((50257, 32003) if odd else (32000, 128256, 256000)):
        x = torch.randn(t, v, device="cuda").to(DT[dt])
        y = torch.randint(0, v, (t,), device="cuda").to(torch.int32)
        y[::7] = IGNORE
        dloss = torch.randn(t, device="cuda")
        args, *_ = xent_args(k, x, y, dloss, tokens)
        if "inplace" in tokens:
            xin = x.clone()
            args["Logits"] = xin
        ours = tt.do_bench(lambda: k(**args), return_mode="median")
        yl = y.long()
        if "fwd" in tokens:
            def peer():
                F.cross_entropy(x, yl, reduction="none", ignore_index=IGNORE)
            nbytes = t * v * x.element_size()        # one read
        else:
            def peer():
                xx = x.detach().requires_grad_()
                loss = F.cross_entropy(xx, yl, reduction="none", ignore_index=IGNORE)
                torch.autograd.grad(loss, xx, dloss)
            nbytes = 2 * t * v * x.element_size()    # one read, one write
        theirs = tt.do_bench(peer, return_mode="median")
        rows.append(report(f"{entry} T={t} V={v}", nbytes, ours, theirs, copy_gbs))
        del x, args
        torch.cuda.empty_cache()


# ---------------------------------------------------------------- swiglu, gelu

def poison(shape, dt):
    return torch.full(shape, float("nan"), device="cuda", dtype=DT[dt])


def swiglu_args(g, u, dout, dt):
    t, f = g.shape
    return dict(G=g, U=u, Out=poison((t, f), dt), DOut=dout,
                DG=poison((t, f), dt), DU=poison((t, f), dt))


def check_swiglu(k, entry, tokens, t, f, fused):
    dt = dtype_of(tokens)
    if fused:
        gu = (torch.randn(t, 2 * f, device="cuda") * 2).to(DT[dt])
        g, u = gu[:, :f], gu[:, f:]
    else:
        g = (torch.randn(t, f, device="cuda") * 2).to(DT[dt])
        u = torch.randn(t, f, device="cuda").to(DT[dt])
    dout = torch.randn(t, f, device="cuda").to(DT[dt])
    # (dG and dU as the two halves of one [T, 2F] gradient are refused by
    # the launcher: views a kernel writes may not share an address range.)
    args = swiglu_args(g, u, dout, dt)
    k(**args)
    torch.cuda.synchronize()
    gf = g.float().requires_grad_()
    uf = u.float().requires_grad_()
    ref = F.silu(gf) * uf
    name = f"{entry} {'fused ' if fused else ''}{t}x{f}"
    if "bwd" in tokens:
        dg, du = torch.autograd.grad(ref, (gf, uf), dout.float())
        close(f"{name} dG", args["DG"], dg, 2 * U[dt], 1e-5)
        close(f"{name} dU", args["DU"], du, 2 * U[dt], 1e-5)
    else:
        close(f"{name} out", args["Out"], ref.detach(), 2 * U[dt], 1e-5)


def gelu_args(x, dy, dt):
    return dict(X=x, Y=poison(x.shape, dt), DY=dy, DX=poison(x.shape, dt))


def check_gelu(k, entry, tokens, t, f):
    dt = dtype_of(tokens)
    approx = "tanh" if "tanh" in tokens else "none"
    x = (torch.randn(t, f, device="cuda") * 3).to(DT[dt])
    dy = torch.randn(t, f, device="cuda").to(DT[dt])
    args = gelu_args(x, dy, dt)
    k(**args)
    torch.cuda.synchronize()
    xf = x.float().requires_grad_()
    ref = F.gelu(xf, approximate=approx)
    name = f"{entry} {t}x{f}"
    if "bwd" in tokens:
        (dx,) = torch.autograd.grad(ref, xf, dy.float())
        close(f"{name} dX", args["DX"], dx, 2 * U[dt], 2e-5)
    else:
        close(f"{name} Y", args["Y"], ref.detach(), 2 * U[dt], 2e-5)


def time_elementwise(k, entry, tokens, copy_gbs, rows):
    import triton.testing as tt
    dt = dtype_of(tokens)
    t, f = 16384, 8192
    x = torch.randn(t, f, device="cuda").to(DT[dt])
    u = torch.randn(t, f, device="cuda").to(DT[dt])
    dy = torch.randn(t, f, device="cuda").to(DT[dt])
    e = x.element_size()
    if entry.startswith("swiglu"):
        args = swiglu_args(x, u, dy, dt)
        if "bwd" in tokens:
            nbytes = 5 * t * f * e

            def peer():
                g_ = x.detach().requires_grad_()
                u_ = u.detach().requires_grad_()
                torch.autograd.grad(F.silu(g_) * u_, (g_, u_), dy)
        else:
            nbytes = 3 * t * f * e

            def peer():
                F.silu(x) * u
    else:
        args = gelu_args(x, dy, dt)
        approx = "tanh" if "tanh" in tokens else "none"
        if "bwd" in tokens:
            nbytes = 3 * t * f * e

            def peer():
                x_ = x.detach().requires_grad_()
                torch.autograd.grad(F.gelu(x_, approximate=approx), x_, dy)
        else:
            nbytes = 2 * t * f * e

            def peer():
                F.gelu(x, approximate=approx)
    ours = tt.do_bench(lambda: k(**args), return_mode="median")
    theirs = tt.do_bench(peer, return_mode="median")
    rows.append(report(f"{entry} {t}x{f}", nbytes, ours, theirs, copy_gbs))


# ---------------------------------------------------------------- dropout

MASK32 = 0xFFFFFFFF


def philox4x32_10(c0, c1, c2, c3, k0, k1):
    """Philox4x32-10 (Random123), as test/Kernels/check_xent_kernels.py."""
    m0, m1, w0, w1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
    for rnd in range(10):
        if rnd:
            k0, k1 = (k0 + w0) & MASK32, (k1 + w1) & MASK32
        p0, p1 = m0 * c0, m1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & MASK32,
                          (p0 >> 32) ^ c3 ^ k1, p0 & MASK32)
    return c0, c1, c2, c3


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def keep_ref(m, n, seed, seed_hi, offset, p):
    """The mask kernels/dropout.mlir defines, in pure Python (rows of
    bools): u = (w >> 8) 2^-24 (exact in f32) < 1 - p rounded to f32."""
    keep_prob = f32(1.0 - f32(p))
    out = []
    for r in range(m):
        row = []
        for c in range(n):
            g = (c // 512) * 128 + c % 128
            w = philox4x32_10(g, r, offset & MASK32, 0, seed, seed_hi)[(c // 128) % 4]
            row.append((w >> 8) * 2.0**-24 < keep_prob)
        out.append(row)
    return out


def signed32(w):
    return w - (1 << 32) if w >= 1 << 31 else w


def dropout_args(x, p, seed, seed_hi, offset, dt):
    return dict(X=x, Y=poison(x.shape, dt), P=p, Seed=signed32(seed), SeedHi=signed32(seed_hi), Offset=offset)


def check_dropout(k, entry, tokens, m, n, p, exact_mask):
    dt = dtype_of(tokens)
    seed, seed_hi, offset = 0x9E3779B9, 0x12345678, 77
    x = torch.randn(m, n, device="cuda").to(DT[dt])
    x[x == 0] = 1.0                             # kept values are then nonzero
    args = dropout_args(x, p, seed, seed_hi, offset, dt)
    k(**args)
    torch.cuda.synchronize()
    y = args["Y"]
    keep = y != 0
    name = f"{entry} {m}x{n} p={p}"
    check(f"{name} written", bool(torch.isfinite(y.float()).all()))
    scale = torch.tensor(1.0, dtype=torch.float32) / (
        torch.tensor(1.0, dtype=torch.float32) - torch.tensor(p, dtype=torch.float32))
    want = (x.float() * scale.cuda()).to(DT[dt])
    check(f"{name} kept values scaled exactly", torch.equal(y[keep], want[keep]))
    frac = keep.float().mean().item()
    sd = math.sqrt(p * (1 - p) / keep.numel())
    check(f"{name} keep fraction", abs(frac - (1 - p)) <= 6 * sd + 1e-9,
          f"{frac:.5f} vs {1 - p:.5f} (sd {sd:.5f})")
    if exact_mask:
        ref = torch.tensor(keep_ref(m, n, seed, seed_hi, offset, p), dtype=torch.bool)
        check(f"{name} mask == Python Philox bit for bit", torch.equal(keep.cpu(), ref))
    # Backward: the same kernel on dY, same seed and offset: the same mask.
    dy = torch.randn(m, n, device="cuda").to(DT[dt])
    dy[dy == 0] = 1.0
    bargs = dropout_args(dy, p, seed, seed_hi, offset, dt)
    k(**bargs)
    torch.cuda.synchronize()
    check(f"{name} backward regenerates the mask", torch.equal(bargs["Y"] != 0, keep))
    # Another offset: another mask.
    oargs = dropout_args(x, p, seed, seed_hi, offset + 1, dt)
    k(**oargs)
    torch.cuda.synchronize()
    if keep.numel() >= 1000 and 0 < p < 1:
        check(f"{name} another offset, another mask", not torch.equal(oargs["Y"] != 0, keep))


def time_dropout(k, entry, tokens, copy_gbs, rows):
    import triton.testing as tt
    dt = dtype_of(tokens)
    t, f = 16384, 8192
    x = torch.randn(t, f, device="cuda").to(DT[dt])
    args = dropout_args(x, 0.1, 1, 2, 0, dt)
    ours = tt.do_bench(lambda: k(**args), return_mode="median")
    theirs = tt.do_bench(lambda: F.dropout(x, 0.1, training=True), return_mode="median")
    nbytes = 2 * t * f * x.element_size()
    rows.append(report(f"{entry} {t}x{f} p=0.1 (torch also writes a bool mask)",
                       nbytes, ours, theirs, copy_gbs))


# ---------------------------------------------------------------- driver

def copy_bandwidth():
    """GB/s of dst.copy_(src) on 2 GiB read + written (read + write bytes)."""
    import triton.testing as tt
    src = torch.empty(1 << 30, device="cuda", dtype=torch.float16)
    dst = torch.empty_like(src)
    ms = tt.do_bench(lambda: dst.copy_(src), return_mode="median")
    gbs = 2 * src.numel() * 2 / ms / 1e6
    del src, dst
    torch.cuda.empty_cache()
    return gbs


def report(name, nbytes, ours, theirs, copy_gbs):
    gbs = nbytes / ours / 1e6
    line = (f"| {name} | {ours * 1e3:.1f} | {theirs * 1e3:.1f} | {theirs / ours:.2f}x | "
            f"{gbs:.0f} | {100 * gbs / copy_gbs:.0f}% |")
    print(line)
    return line


def run_checks(k, entry):
    kernel, tokens, chip = parse(entry)
    for _ in range(2):  # fresh inputs each round
        # Bundles of the default alignment take rows of a multiple of 16
        # bytes (the launcher checks); -a2/-a4 bundles take any length.
        odd = "a2" in tokens or "a4" in tokens
        if kernel == "xent":
            shapes = ([(7, 50257), (129, 32003), (1, 1), (5, 1000), (3, 100003)] if odd
                      else [(7, 32008), (129, 1000), (1, 8), (3, 100008)])
            for t, v in shapes:
                check_xent(k, entry, tokens, t, v)
        elif kernel == "swiglu":
            for t, f in ([(1, 1), (77, 1001), (129, 5503)] if odd
                         else [(1, 8), (77, 1000), (129, 5504)]):
                check_swiglu(k, entry, tokens, t, f, fused=False)
                check_swiglu(k, entry, tokens, t, f, fused=True)
        elif kernel == "gelu":
            for t, f in ([(1, 1), (77, 1001), (129, 4103)] if odd
                         else [(1, 8), (77, 1000), (129, 4104)]):
                check_gelu(k, entry, tokens, t, f)
        elif kernel == "dropout":
            check_dropout(k, entry, tokens, 3, 1000, 0.3, exact_mask=True)
            for m, n, p in ([(77, 1001, 0.1), (1000, 4103, 0.5), (5, 7, 0.0), (9, 521, 1.0)]
                            if odd else
                            [(77, 1000, 0.1), (1000, 4104, 0.5), (5, 8, 0.0), (9, 520, 1.0)]):
                check_dropout(k, entry, tokens, m, n, p, exact_mask=False)
        else:
            check(f"{entry}: unknown kernel", False)


def main():
    if torch is None or not torch.cuda.is_available():
        print("check_xent.py needs PyTorch with a CUDA device")
        return 2
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    bundles = sys.argv[1]
    timing = "--no-timing" not in sys.argv[2:]
    torch.manual_seed(20261203)
    loaded = []
    for entry in sorted(os.listdir(bundles)):
        path = os.path.join(bundles, entry)
        try:
            k = tile_launcher.load(path)
        except Exception as e:  # noqa: BLE001
            check(f"load {entry}", False, str(e))
            continue
        loaded.append((entry, k))
        try:
            run_checks(k, entry)
        except Exception as e:  # noqa: BLE001 - reported, and the rest runs
            check(f"{entry}", False, f"{type(e).__name__}: {e}")
    if timing:
        copy_gbs = copy_bandwidth()
        print(f"\ncopy bandwidth (dst.copy_(src), 2 GiB each way): {copy_gbs:.0f} GB/s\n")
        rows = ["| kernel, shape | ours us | torch eager us | speedup | GB/s | of copy |",
                "| --- | --- | --- | --- | --- | --- |"]
        print("\n".join(rows))
        for entry, k in loaded:
            kernel, tokens, chip = parse(entry)
            if chip != "sm_90a" or "time" not in tokens:
                continue
            try:
                if kernel == "xent":
                    time_xent(k, entry, tokens, copy_gbs, rows)
                elif kernel in ("swiglu", "gelu"):
                    time_elementwise(k, entry, tokens, copy_gbs, rows)
                elif kernel == "dropout":
                    time_dropout(k, entry, tokens, copy_gbs, rows)
            except Exception as e:  # noqa: BLE001
                check(f"time {entry}", False, f"{type(e).__name__}: {e}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
