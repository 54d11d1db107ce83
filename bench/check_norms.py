#!/usr/bin/env python3
"""GPU check and timing of the memory-bound LLM kernels against PyTorch.

Runs every bundle of `bench/compile_bundles.sh OUT norms` through
tile_launcher (the kernel and its parameters read from each manifest):

- add_norm (residual add + RMSNorm / LayerNorm forward): H = X + Res, Y,
  Rstd (Mean) against a float64 reference computed by torch;
- add_norm_backward: DX (with and without the residual gradient DRes), DW
  and DB (f32, atomics; starting from random values they must add to);
- rope (in place, by position ids, GQA head counts, half rotation and
  interleaved, positions outside the table give zero rows, partial rotary
  leaves the other dims bitwise);
- embedding (bitwise, out-of-range and negative ids give zero rows) and
  embedding_backward (duplicate ids accumulate; out-of-range ids add
  nothing).

Shapes are ragged (odd token/row counts, N below BLOCK_N and not a power of
two, several column blocks) and not those the tiles were chosen for; rows
keep the bundles' 16-byte alignment contract. Outputs are poisoned with NaN
before each run. Then, at large sizes, times the fastest correct bundle of
each kernel against PyTorch eager with one timer (triton.testing.do_bench,
median) in this process, and prints GB/s (the bytes each kernel must move,
stated per row) and the fraction of the copy bandwidth measured here
(dst.copy_(src) of 512 MiB).

usage: check_norms.py BUNDLE_DIR [--no-timing]
Exit status 0 when every correctness check passed (the timing table is for
the notes; rows below 90% of copy or slower than torch are marked).
"""
import json
import math
import os
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the GPU machine has it; say so elsewhere
    print("check_norms.py needs PyTorch with CUDA (and triton for the timer)")
    sys.exit(2)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tile_launcher  # noqa: E402

DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
# Unit roundoff of each storage type (half an ulp of 1).
U = {"f16": 2.0**-11, "bf16": 2.0**-8, "f32": 2.0**-24}
# Budget of the kernels' f32 arithmetic relative to the size of the terms
# (sums of up to 8192 terms: far below 2^-14; the bugs the checks aim at,
# a wrong term or divisor, are O(1/N) or larger).
F32_BUDGET = 2.0**-14
DEV = "cuda"

failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}")
    if not ok:
        failures.append(name)


def within(name, got, ref, tol):
    """Every element finite and |got - ref| <= tol (tensors, float64)."""
    got = got.double()
    finite = bool(torch.isfinite(got).all())
    err = (got - ref).abs()
    ratio = (err / tol).max().item() if err.numel() else 0.0
    check(name, finite and ratio <= 1.0,
          f"max err {err.max().item() if err.numel() else 0:.3g}, err/tol {ratio:.3g}"
          + ("" if finite else ", NOT FINITE (unwritten?)"))


def nan_like(shape, dtype):
    return torch.full(shape, float("nan"), device=DEV, dtype=dtype)


# --- correctness ------------------------------------------------------------------


def check_add_norm(k, tag, p, m, n):
    dt, rms = p["DTYPE"], bool(p["RMS"])
    t = DT[dt]
    x = torch.randn(m, n, device=DEV).to(t)
    res = torch.randn(m, n, device=DEV).to(t)
    w = (torch.randn(n, device=DEV) * 0.5 + 1).to(t)
    b = torch.randn(n, device=DEV).to(t)
    h, y = nan_like((m, n), t), nan_like((m, n), t)
    mean, rstd = nan_like((m,), torch.float32), nan_like((m,), torch.float32)
    eps = 1e-5
    k(X=x, Res=res, W=w, B=b, H=h, Y=y, Mean=mean, Rstd=rstd, eps=eps)
    torch.cuda.synchronize()
    name = f"{tag} M={m} N={n}"
    h_ref = x.double() + res.double()
    within(f"{name} H", h, h_ref, 2 * U[dt] * h_ref.abs() + 1e-30)
    hd = h.double()  # the statistics are those of H as stored
    if rms:
        mu = torch.zeros(m, 1, device=DEV, dtype=torch.float64)
        r = 1 / torch.sqrt((hd * hd).mean(1, keepdim=True) + eps)
        check(f"{name} Mean untouched", bool(torch.isnan(mean).all()))
    else:
        mu = hd.mean(1, keepdim=True)
        r = 1 / torch.sqrt(((hd - mu) ** 2).mean(1, keepdim=True) + eps)
        within(f"{name} Mean", mean, mu[:, 0], F32_BUDGET * hd.abs().mean(1) + 1e-30)
    within(f"{name} Rstd", rstd, r[:, 0], F32_BUDGET * r[:, 0])
    hhat = (hd - mu) * r
    bias = 0 if rms else b.double()
    ref = hhat * w.double() + bias
    scale = (hhat * w.double()).abs() + (0 if rms else b.double().abs()) \
        + r * w.double().abs() * hd.abs().mean(1, keepdim=True)
    within(f"{name} Y", y, ref, 2 * U[dt] * ref.abs() + F32_BUDGET * scale + 1e-6)


def norm_backward_ref(dy, h, w, mean, rstd, dres, rms):
    """float64: DX, DW, DB and the scales of their terms."""
    n = h.shape[1]
    mu = torch.zeros_like(mean)[:, None] if rms else mean[:, None]
    r = rstd[:, None]
    hhat = (h - mu) * r
    g = dy * w
    c1 = (g * hhat).sum(1, keepdim=True) / n
    c1m = (g * hhat).abs().sum(1, keepdim=True) / n
    c2 = torch.zeros_like(c1) if rms else g.sum(1, keepdim=True) / n
    c2m = torch.zeros_like(c1) if rms else g.abs().sum(1, keepdim=True) / n
    dx = r * (g - hhat * c1 - c2) + dres
    dx_scale = r * (g.abs() + hhat.abs() * c1m + c2m) + dres.abs()
    return dx, dx_scale, (dy * hhat).sum(0), (dy * hhat).abs().sum(0), dy.sum(0), dy.abs().sum(0)


def check_add_norm_backward(k, tag, p, m, n):
    dt, rms, has_dres = p["DTYPE"], bool(p["RMS"]), bool(p["HAS_DRES"])
    t = DT[dt]
    dy = torch.randn(m, n, device=DEV).to(t)
    h = torch.randn(m, n, device=DEV).to(t)
    w = (torch.randn(n, device=DEV) * 0.5 + 1).to(t)
    hd = h.double()
    mean64 = hd.mean(1)
    var = ((hd - (0 if rms else mean64[:, None])) ** 2).mean(1)
    rstd = (1 / torch.sqrt(var + 1e-5)).float()
    mean = mean64.float()
    dres = torch.randn(m, n, device=DEV).to(t) if has_dres else torch.zeros(1, 8, device=DEV, dtype=t)
    dx = nan_like((m, n), t)
    dw0 = torch.randn(n, device=DEV)
    db0 = torch.randn(n, device=DEV)
    dw, db = dw0.clone(), db0.clone()
    k(DY=dy, H=h, W=w, Mean=mean, Rstd=rstd, DRes=dres, DX=dx, DW=dw, DB=db)
    torch.cuda.synchronize()
    name = f"{tag} M={m} N={n}"
    ref = norm_backward_ref(dy.double(), hd, w.double(), mean.double(), rstd.double(),
                            dres.double() if has_dres else torch.zeros_like(hd), rms)
    dx_ref, dx_scale, dw_ref, dw_mag, db_ref, db_mag = ref
    within(f"{name} DX", dx, dx_ref, 2 * U[dt] * dx_ref.abs() + F32_BUDGET * dx_scale + 1e-6)
    within(f"{name} DW", dw, dw0.double() + dw_ref,
           F32_BUDGET * (dw_mag + dw0.double().abs()) + 1e-6)
    if rms:
        check(f"{name} DB untouched", torch.equal(db, db0))
    else:
        within(f"{name} DB", db, db0.double() + db_ref,
               F32_BUDGET * (db_mag + db0.double().abs()) + 1e-6)


def rope_ref(x, cos, sin, pos, half, interleaved):
    """float64 rotation of x [T, H, D] (pos outside the table: zero rows)."""
    p_n = cos.shape[0]
    ok = (pos >= 0) & (pos < p_n)
    idx = torch.where(ok, pos, torch.zeros_like(pos)).long()
    c = torch.where(ok[:, None], cos.double()[idx], torch.zeros_like(cos.double()[idx]))[:, None, :]
    s = torch.where(ok[:, None], sin.double()[idx], torch.zeros_like(sin.double()[idx]))[:, None, :]
    y = x.double().clone()
    if interleaved:
        a, b = x.double()[..., 0:2 * half:2], x.double()[..., 1:2 * half:2]
        y[..., 0:2 * half:2] = a * c - b * s
        y[..., 1:2 * half:2] = b * c + a * s
        scale = (a * c).abs() + (b * s).abs() + (b * c).abs() + (a * s).abs()
        scale = torch.stack([scale, scale], -1).flatten(-2)
    else:
        a, b = x.double()[..., :half], x.double()[..., half:2 * half]
        y[..., :half] = a * c - b * s
        y[..., half:2 * half] = b * c + a * s
        scale = (a * c).abs() + (b * s).abs() + (b * c).abs() + (a * s).abs()
        scale = torch.cat([scale, scale], -1)
    return y, scale


def rope_tables(p_n, half):
    theta = 10000.0 ** (-torch.arange(half, device=DEV, dtype=torch.float64) / half)
    ang = torch.arange(p_n, device=DEV, dtype=torch.float64)[:, None] * theta[None, :]
    return torch.cos(ang).float().contiguous(), torch.sin(ang).float().contiguous()


def check_rope(k, tag, p, tokens, hq, hk, d):
    dt, half, inter = p["DTYPE"], p["HALF"], bool(p["INTERLEAVED"])
    t = DT[dt]
    p_n = 4099
    cos, sin = rope_tables(p_n, half)
    pos = torch.randint(0, p_n, (tokens,), device=DEV, dtype=torch.int32)
    for i, bad in zip((1, 4), (p_n, -1)):
        if i < tokens:
            pos[i] = bad
    q0 = torch.randn(tokens, hq, d, device=DEV).to(t)
    k0 = torch.randn(tokens, hk, d, device=DEV).to(t)
    q, kk = q0.clone(), k0.clone()
    k(Q=q, K=kk, Cos=cos, Sin=sin, Pos=pos)
    torch.cuda.synchronize()
    name = f"{tag} T={tokens} HQ={hq} HK={hk} D={d}"
    for nm, x0, x in (("Q", q0, q), ("K", k0, kk)):
        ref, scale = rope_ref(x0, cos, sin, pos, half, inter)
        rot = 2 * half
        within(f"{name} {nm}", x[..., :rot], ref[..., :rot],
               2 * U[dt] * ref[..., :rot].abs() + F32_BUDGET * scale + 1e-30)
        if d > rot:
            check(f"{name} {nm} dims past ROT unchanged", torch.equal(x[..., rot:], x0[..., rot:]))


def make_ids(tokens, vocab):
    hot = torch.randint(0, vocab, (3,), device=DEV)
    ids = torch.randint(0, vocab, (tokens,), device=DEV)
    pick = torch.rand(tokens, device=DEV) < 0.4
    ids = torch.where(pick, hot[torch.randint(0, 3, (tokens,), device=DEV)], ids)
    for i, bad in zip((2, 5, 8), (vocab, -1, 1 << 30)):
        if i < tokens:
            ids[i] = bad
    return ids.int()


def check_embedding(k, tag, p, tokens, vocab, n):
    t = DT[p["DTYPE"]]
    w = torch.randn(vocab, n, device=DEV).to(t)
    ids = make_ids(tokens, vocab)
    out = nan_like((tokens, n), t)
    k(W=w, Ids=ids, Out=out)
    torch.cuda.synchronize()
    valid = (ids >= 0) & (ids < vocab)
    ref = torch.zeros(tokens, n, device=DEV, dtype=t)
    ref[valid] = w[ids[valid].long()]
    check(f"{tag} T={tokens} V={vocab} N={n}", torch.equal(out, ref))


def check_embedding_backward(k, tag, p, tokens, vocab, n):
    t = DT[p["DTYPE"]]
    d = torch.randn(tokens, n, device=DEV).to(t)
    ids = make_ids(tokens, vocab)
    dw0 = torch.randn(vocab, n, device=DEV)
    dw = dw0.clone()
    k(DOut=d, Ids=ids, DW=dw)
    torch.cuda.synchronize()
    valid = (ids >= 0) & (ids < vocab)
    ref = dw0.double().index_add(0, ids[valid].long(), d[valid].double())
    mag = dw0.double().abs().index_add(0, ids[valid].long(), d[valid].double().abs())
    within(f"{tag} T={tokens} V={vocab} N={n}", dw, ref, F32_BUDGET * mag + 1e-6)


def ragged_n(block_n):
    """Row lengths for a whole-row bundle: the block, less than it and not a
    power of two, small; multiples of 8 (16-byte rows of f16)."""
    return sorted({block_n, max(8, block_n - 104), max(8, (block_n // 3) // 8 * 8 + 8), 8})


def run_checks(k, tag, m):
    kern, p = m["kernel"], m["params"]
    for key in ("RMS", "HAS_DRES", "INTERLEAVED"):
        if key in p and isinstance(p[key], str):
            p[key] = p[key] == "true"
    if kern == "add_norm":
        for mm in (1, 77, 1000):
            for n in ragged_n(p["BLOCK_N"]):
                check_add_norm(k, tag, p, mm, n)
    elif kern == "add_norm_backward":
        for mm in (1, 77, 4097):
            for n in ragged_n(p["BLOCK_N"]):
                check_add_norm_backward(k, tag, p, mm, n)
    elif kern == "rope":
        d = 2 * p["HALF"]
        for tokens, hq, hk, dd in ((1, 1, 1, d), (77, 32, 8, d), (1000, 7, 1, d),
                                   (33, 12, 12, d + 64)):
            check_rope(k, tag, p, tokens, hq, hk, dd)
    elif kern == "embedding":
        bn = p["BLOCK_N"]
        for tokens, vocab, n in ((1, 1, 8), (77, 50, bn - 104), (1000, 1001, bn),
                                 (300, 7, 2 * bn + 24)):
            check_embedding(k, tag, p, tokens, vocab, n)
    elif kern == "embedding_backward":
        bn = p["BLOCK_N"]
        for tokens, vocab, n in ((1, 1, 8), (77, 50, bn - 104), (1000, 1001, bn),
                                 (3000, 7, 2 * bn + 24)):
            check_embedding_backward(k, tag, p, tokens, vocab, n)
    else:
        check(f"{tag}: unknown kernel {kern}", False)


# --- timing ------------------------------------------------------------------------


def bench(fn):
    try:
        import triton.testing as tt
        return tt.do_bench(fn, return_mode="median")
    except ImportError:  # CUDA events, median of 100 (no L2 flush)
        for _ in range(10):
            fn()
        times = []
        for _ in range(100):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            fn()
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b))
        return sorted(times)[len(times) // 2]


def copy_bandwidth():
    src = torch.randn(256 * 1024 * 1024, device=DEV).half()  # 512 MiB
    dst = torch.empty_like(src)
    ms = bench(lambda: dst.copy_(src))
    return 2 * src.numel() * 2 / ms / 1e6  # GB/s


ROWS = []


def report(what, shape, nbytes, ours_ms, bundle, torch_ms, copy_gbs):
    gbs = nbytes / ours_ms / 1e6
    tgbs = nbytes / torch_ms / 1e6
    frac = gbs / copy_gbs
    marks = []
    if frac < 0.9:
        marks.append("below 90% of copy")
    if ours_ms > torch_ms:
        marks.append("slower than torch")
    ROWS.append((what, shape, ours_ms * 1e3, gbs, 100 * frac, torch_ms * 1e3, tgbs,
                 torch_ms / ours_ms, bundle, "; ".join(marks)))


def fastest(cands, fn_of):
    """(ms, name) of the fastest bundle among cands [(name, kernel)] for the
    launch fn_of(kernel) (None: the bundle does not fit the shape)."""
    best = None
    for name, k in cands:
        fn = fn_of(k)
        if fn is None:
            continue
        try:
            fn()
            torch.cuda.synchronize()
            ms = bench(fn)
        except Exception as e:  # noqa: BLE001 - reported, the others still run
            print(f"timing {name}: {type(e).__name__}: {e}")
            continue
        if best is None or ms < best[0]:
            best = (ms, name)
    return best


def timing(bundles):
    """bundles: {kernel: [(name, Kernel, params)]} of correct sm_90a bundles."""
    copy_gbs = copy_bandwidth()
    print(f"copy bandwidth: {copy_gbs:.0f} GB/s (dst.copy_(src), 512 MiB f16)")
    f16 = torch.float16

    def cands(kern, **want):
        return [(n, k) for n, k, p in bundles.get(kern, [])
                if all(p.get(a) == b for a, b in want.items())]

    # Residual add + RMSNorm / LayerNorm forward: X, Res read, H, Y written.
    for rms in (True, False):
        for m, n in ((16384, 4096), (65536, 4096), (16384, 8192), (65536, 1024)):
            if not rms and n != 4096:
                continue
            x = torch.randn(m, n, device=DEV, dtype=f16)
            res = torch.randn(m, n, device=DEV, dtype=f16)
            w = torch.randn(n, device=DEV, dtype=f16)
            b = torch.randn(n, device=DEV, dtype=f16)
            h, y = torch.empty_like(x), torch.empty_like(x)
            mean = torch.empty(m, device=DEV)
            rstd = torch.empty(m, device=DEV)

            def ours(k, x=x, res=res, w=w, b=b, h=h, y=y, mean=mean, rstd=rstd, n=n):
                if k.manifest.params["BLOCK_N"] < n:
                    return None
                return lambda: k(X=x, Res=res, W=w, B=b, H=h, Y=y, Mean=mean, Rstd=rstd, eps=1e-5)
            best = fastest(cands("add_norm", RMS=rms, DTYPE="f16"), ours)
            if rms:
                def peer(x=x, res=res, w=w, n=n):
                    hh = x + res
                    return hh, F.rms_norm(hh, (n,), w, 1e-5)
            else:
                def peer(x=x, res=res, w=w, b=b, n=n):
                    hh = x + res
                    return hh, F.layer_norm(hh, (n,), w, b, 1e-5)
            if best:
                report(f"add+{'rms' if rms else 'layer'}norm fwd", f"{m}x{n}",
                       4 * m * n * 2 + m * 4, best[0], best[1], bench(peer), copy_gbs)
            del x, res, h, y

    # Backward: DY, H read, DX written (W, Rstd, Mean and the DW atomics
    # small); ours includes zeroing DW (and DB).
    for rms in (True, False):
        for m, n in ((16384, 4096), (65536, 4096), (16384, 8192)):
            if not rms and n != 4096:
                continue
            dy = torch.randn(m, n, device=DEV, dtype=f16)
            h = torch.randn(m, n, device=DEV, dtype=f16)
            w = torch.randn(n, device=DEV, dtype=f16)
            hd = h.float()
            mean = hd.mean(1)
            rstd = torch.rsqrt(((hd - (0 if rms else mean[:, None])) ** 2).mean(1) + 1e-5)
            del hd
            dx = torch.empty_like(dy)
            dw = torch.empty(n, device=DEV)
            db = torch.empty(n, device=DEV)
            dres = torch.zeros(1, 8, device=DEV, dtype=f16)

            def ours(k, dy=dy, h=h, w=w, mean=mean, rstd=rstd, dx=dx, dw=dw, db=db, n=n, dres=dres):
                if k.manifest.params["BLOCK_N"] < n:
                    return None

                def f():
                    dw.zero_()
                    db.zero_()
                    k(DY=dy, H=h, W=w, Mean=mean, Rstd=rstd, DRes=dres, DX=dx, DW=dw, DB=db)
                return f
            best = fastest(cands("add_norm_backward", RMS=rms, DTYPE="f16", HAS_DRES=False), ours)
            hg = h.clone().requires_grad_(True)
            wg = w.clone().requires_grad_(True)
            bg = torch.zeros(n, device=DEV, dtype=f16, requires_grad=True)
            yg = F.rms_norm(hg, (n,), wg, 1e-5) if rms else F.layer_norm(hg, (n,), wg, bg, 1e-5)
            inputs = (hg, wg) if rms else (hg, wg, bg)

            def peer(yg=yg, inputs=inputs, dy=dy):
                return torch.autograd.grad(yg, inputs, dy, retain_graph=True)
            if best:
                report(f"{'rms' if rms else 'layer'}norm bwd", f"{m}x{n}",
                       3 * m * n * 2 + m * 8, best[0], best[1], bench(peer), copy_gbs)
            del dy, h, dx, hg, yg

    # RoPE of Q and K (in place; torch: the usual eager rotate-half /
    # interleaved formulas, out of place): Q, K read and written, Pos read,
    # the tables' rows gathered (f32).
    for inter in (False, True):
        for tokens in (16384, 65536):
            hq, hk, d, half = 32, 8, 128, 64
            q = torch.randn(tokens, hq, d, device=DEV, dtype=f16)
            kk = torch.randn(tokens, hk, d, device=DEV, dtype=f16)
            cos, sin = rope_tables(8192, half)
            pos = torch.randint(0, 8192, (tokens,), device=DEV, dtype=torch.int32)

            def ours(k, q=q, kk=kk, cos=cos, sin=sin, pos=pos):
                return lambda: k(Q=q, K=kk, Cos=cos, Sin=sin, Pos=pos)
            best = fastest(cands("rope", INTERLEAVED=inter, DTYPE="f16", HALF=half), ours)
            pl = pos.long()

            def peer(q=q, kk=kk, cos=cos, sin=sin, pl=pl, inter=inter):
                c, s = cos[pl].to(f16), sin[pl].to(f16)
                if inter:
                    c = c.repeat_interleave(2, -1)[:, None, :]
                    s = s.repeat_interleave(2, -1)[:, None, :]

                    def rot(x):
                        return torch.stack((-x[..., 1::2], x[..., ::2]), -1).flatten(-2)
                else:
                    c = torch.cat((c, c), -1)[:, None, :]
                    s = torch.cat((s, s), -1)[:, None, :]

                    def rot(x):
                        return torch.cat((-x[..., half:], x[..., :half]), -1)
                return q * c + rot(q) * s, kk * c + rot(kk) * s
            if best:
                nbytes = 2 * tokens * (hq + hk) * d * 2 + tokens * 4 + tokens * d * 4
                report(f"rope {'interleaved' if inter else 'half'}",
                       f"T={tokens} H={hq}/{hk} D={d}", nbytes, best[0], best[1], bench(peer),
                       copy_gbs)
            del q, kk

    # Embedding: ids read, rows read and written.
    vocab, n = 32000, 4096
    wt = torch.randn(vocab, n, device=DEV, dtype=f16)
    for tokens in (16384, 65536):
        ids = torch.randint(0, vocab, (tokens,), device=DEV, dtype=torch.int32)
        out = torch.empty(tokens, n, device=DEV, dtype=f16)
        idl = ids.long()

        def ours(k, ids=ids, out=out):
            return lambda: k(W=wt, Ids=ids, Out=out)
        best = fastest(cands("embedding", DTYPE="f16"), ours)
        if best:
            report("embedding", f"T={tokens} V={vocab} N={n}", 2 * tokens * n * 2 + tokens * 4,
                   best[0], best[1], bench(lambda idl=idl: F.embedding(idl, wt)), copy_gbs)
        del out
    # Embedding backward: DOut read, the dense DW written (zeroed, then the
    # touched rows added to; torch's dense backward also returns all of
    # it, in f16); ours f32.
    for tokens in (16384, 65536):
        ids = torch.randint(0, vocab, (tokens,), device=DEV, dtype=torch.int32)
        d = torch.randn(tokens, n, device=DEV, dtype=f16)
        dw = torch.empty(vocab, n, device=DEV)
        idl = ids.long()

        def ours(k, ids=ids, d=d, dw=dw):
            def f():
                dw.zero_()
                k(DOut=d, Ids=ids, DW=dw)
            return f
        best = fastest(cands("embedding_backward", DTYPE="f16"), ours)

        def peer(d=d, idl=idl):
            return torch.ops.aten.embedding_dense_backward(d, idl, vocab, -1, False)
        if best:
            report("embedding bwd (DW f32 ours, f16 torch)", f"T={tokens} V={vocab} N={n}",
                   tokens * n * 2 + vocab * n * 4 + tokens * 4, best[0], best[1], bench(peer),
                   copy_gbs)
        del d, dw
    del wt

    print()
    print("| kernel | shape | ours us | ours GB/s | % of copy | torch us | torch GB/s | "
          "torch / ours | bundle | notes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for r in ROWS:
        print("| %s | %s | %.1f | %.0f | %.0f%% | %.1f | %.0f | %.2fx | `%s` | %s |" % r)


def main():
    bundles_dir = sys.argv[1]
    do_timing = "--no-timing" not in sys.argv[2:]
    torch.manual_seed(20261203)
    correct = {}
    for entry in sorted(os.listdir(bundles_dir)):
        path = os.path.join(bundles_dir, entry)
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            continue
        with open(os.path.join(path, "manifest.json")) as f:
            m = json.load(f)
        tag = f"{entry} ({m['target']})"
        try:
            k = tile_launcher.load(path)
        except Exception as e:  # noqa: BLE001
            check(f"load {entry}", False, str(e))
            continue
        before = len(failures)
        try:
            for _ in range(2):  # fresh inputs each round
                run_checks(k, tag, m)
        except Exception as e:  # noqa: BLE001 - reported, and the rest runs
            check(tag, False, f"{type(e).__name__}: {e}")
        if len(failures) == before and m["target"] == "sm_90a":
            correct.setdefault(m["kernel"], []).append((entry, k, m["params"]))
    if do_timing:
        timing(correct)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
