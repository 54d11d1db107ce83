#!/usr/bin/env python3
"""GPU check and timing of the mixture-of-experts kernels, against PyTorch.

Runs the bundles of `bench/compile_bundles.sh OUT moe` (named
KERNEL-TAG-CHIP; the kernel and its parameters are read from each
manifest) through tile_launcher on fresh random inputs of ragged shapes,
with PyTorch computing the reference independently (float64):

- grouped_gemm: a loop of torch.matmul over the experts (expert groups of
  0 and 1 tokens, skewed sizes, rows before/after every expert that must
  stay unwritten, ragged K and N; SwiGLU through strided [gate | up] halves
  of one fused weight);
- moe_router: torch.softmax + torch.topk (weights compared sorted; ids
  checked through the probabilities they pick, so ties may go either way);
- moe_permute: x[order // k] and the inverse permutation, dropped slots;
- moe_unpermute: sum_j w[:, j] * yexp[pos[:, j]];
- an end-to-end MoE layer (router, permute, grouped gate-up GEMM with
  SwiGLU, grouped down GEMM, un-permute) against a torch MoE in float64.

Outputs are poisoned (NaN, -5) before each run. Then times, in one process
with one timer (triton.testing.do_bench, median), the sm_90a bundles:

- grouped GEMM at uniform expert sizes against the dense GEMM of the same
  total tokens (torch.matmul, bar: >= 0.9x its TFLOPS) and against the loop
  of torch.matmul over experts; at skewed sizes against the loop (bar:
  faster); SwiGLU fused against the loop of fused gate-up matmuls + silu*up;
- router, permute and un-permute against their torch expressions, in GB/s
  and as a fraction of the copy bandwidth measured on the same bytes.

usage: check_moe.py BUNDLE_DIR [--no-timing]
Exit status 0 when every check passed.
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tile_launcher  # noqa: E402

failures = []
DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
UNIT = {"f16": 2.0**-11, "bf16": 2.0**-8, "f32": 2.0**-24}
# Rounding to the output type near zero: half the spacing of its subnormals
# (f16 results under 2^-14 round with an absolute error up to 2^-25, which a
# relative tolerance alone refuses: K = 1 products of randn inputs land
# there a few times in 10^4).
SUBNORMAL_HALF_ULP = {"f16": 2.0**-25, "bf16": 2.0**-134, "f32": 2.0**-150}
# f32 accumulation budget relative to sum |x w| (tensor-core f32 sums of up
# to a few thousand terms: far below; a missing K step or a wrong expert's
# weight is O(1) relative).
BUDGET = 2.0**-12


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", flush=True)
    if not ok:
        failures.append(name)


def manifest(path):
    with open(os.path.join(path, "manifest.json")) as f:
        return json.load(f)


def view_align(m):
    abi = m["abi"]
    if isinstance(abi, str):  # never: the manifest holds a list
        return 16
    for entry in abi:
        if entry.get("kind") == "view" and entry.get("dtype") in ("f16", "bf16"):
            return int(entry.get("align", 16))
    return 16


def offsets_of(sizes, lead):
    off = [lead]
    for s in sizes:
        off.append(off[-1] + s)
    return off


# --- grouped GEMM -------------------------------------------------------------


def make_weights(p, e, k, n, gen_scale=1.0):
    """W (and Wup) as the kernel takes them; with SWIGLU, strided halves of
    one fused [gate | up] weight (no copy)."""
    dt = DT[p["IN_DTYPE"]]
    trans, swiglu = p["TRANS_W"], p["SWIGLU"]
    cols = 2 * n if swiglu else n
    shape = (e, cols, k) if trans else (e, k, cols)
    fused = (torch.randn(shape, device="cuda") * gen_scale).to(dt)
    if not swiglu:
        return fused, torch.zeros(1, 1, 1, device="cuda", dtype=dt), fused
    if trans:
        return fused[:, :n, :], fused[:, n:, :], fused
    return fused[..., :n], fused[..., n:], fused


def grouped_ref(x, w, wup, off, p):
    """float64 reference and its tolerance, per expert (torch.matmul)."""
    t = x.shape[0]
    n = w.shape[1] if p["TRANS_W"] else w.shape[2]
    ref = torch.full((t, n), float("nan"), device="cuda", dtype=torch.float64)
    tol = torch.zeros((t, n), device="cuda", dtype=torch.float64)
    u = UNIT[p["OUT_DTYPE"]]
    for e in range(len(off) - 1):
        s, f = off[e], off[e + 1]
        if s == f:
            continue
        xe = x[s:f].double()
        we = w[e].double()
        we = we.t() if p["TRANS_W"] else we
        g = xe @ we
        mg = xe.abs() @ we.abs()
        if p["SWIGLU"]:
            ue = wup[e].double()
            ue = ue.t() if p["TRANS_W"] else ue
            up = xe @ ue
            mu = xe.abs() @ ue.abs()
            sg = g * torch.sigmoid(g)
            r = sg * up
            err = BUDGET * (1.1 * mg * up.abs() + sg.abs() * mu + mg * mu * BUDGET)
        else:
            r, err = g, BUDGET * mg
        ref[s:f] = r
        tol[s:f] = 2 * u * r.abs() + err + SUBNORMAL_HALF_ULP[p["OUT_DTYPE"]] + 1e-30
    return ref, tol


def grouped_case(k_fn, name, p, sizes, kdim, ndim, lead=0, tail=0):
    dt = DT[p["IN_DTYPE"]]
    e = len(sizes)
    off = offsets_of(sizes, lead)
    t = off[-1] + tail
    x = torch.randn(t, kdim, device="cuda").to(dt)
    w, wup, _ = make_weights(p, e, kdim, ndim)
    y = torch.full((t, ndim), float("nan"), device="cuda", dtype=DT[p["OUT_DTYPE"]])
    offsets = torch.tensor(off, device="cuda", dtype=torch.int32)
    k_fn(X=x, W=w, Wup=wup, Offsets=offsets, Y=y)
    torch.cuda.synchronize()
    ref, tol = grouped_ref(x, w, wup, off, p)
    owned = ~torch.isnan(ref)
    yd = y.double()
    bad_written = int((~torch.isnan(yd) & ~owned).sum())
    err = (yd - ref).abs()
    ok_mask = (err <= tol) & owned
    bad = int(owned.sum() - ok_mask.sum())
    ratio = float((err[owned] / tol[owned]).max()) if bool(owned.any()) else 0.0
    check(f"{name} sizes={sizes if len(sizes) <= 8 else str(len(sizes)) + ' experts'} "
          f"lead={lead} tail={tail} K={kdim} N={ndim}",
          bad == 0 and bad_written == 0,
          f"bad {bad}, written outside {bad_written}, max err/tol {ratio:.3g}")


def grouped_checks(k_fn, name, p, align):
    if align >= 16:  # rows of 16 bytes: K and N multiples of 8
        shapes = [(200, 136), (1000, 264), (64, 8)]
    else:
        shapes = [(77, 65), (1001, 130), (1, 3)]
    g = torch.Generator().manual_seed(7)
    skew64 = [int(v) for v in (torch.rand(64, generator=g) ** 4 * 300).long()]
    skew64[3] = 0
    skew64[10] = 1
    cases = [
        ([0, 1, 300, 5, 0, 700, 1, 64], 0, 0),
        ([130, 0, 0, 1], 3, 11),
        ([0, 0, 0], 0, 9),
        ([1], 0, 0),
        (skew64, 0, 5),
        ([513, 2048, 127, 1000], 0, 0),
    ]
    for i, (sizes, lead, tail) in enumerate(cases):
        kdim, ndim = shapes[i % len(shapes)]
        grouped_case(k_fn, name, p, sizes, kdim, ndim, lead, tail)


# --- router, permute, un-permute ------------------------------------------------


def router_case(k_fn, name, p, t, e):
    topk, dt = p["TOPK"], DT[p["DTYPE"]]
    logits = (torch.randn(t, e, device="cuda") * 2).to(dt)
    ids = torch.full((t, topk), -5, device="cuda", dtype=torch.int32)
    w = torch.full((t, topk), float("nan"), device="cuda")
    k_fn(Logits=logits, Ids=ids, Weights=w)
    torch.cuda.synchronize()
    prob = torch.softmax(logits.double(), dim=-1)
    top = torch.topk(prob, topk, dim=-1).values
    ids_ok = bool(((ids >= 0) & (ids < e)).all())
    picked = prob.gather(1, ids.long().clamp(0, e - 1))
    distinct = bool((ids.sort(1).values[:, 1:] != ids.sort(1).values[:, :-1]).all()) \
        if topk > 1 else True
    if p["RENORM"]:
        top = top / top.sum(1, keepdim=True)
        picked = picked / picked.sum(1, keepdim=True)
    err_w = float((w.double() - top).abs().max())
    err_ids = float((picked - top).abs().max())
    check(f"{name} T={t} E={e}",
          ids_ok and distinct and err_w <= 1e-5 and err_ids <= 1e-5,
          f"weights err {err_w:.2e}, picked err {err_ids:.2e}, ids in range {ids_ok}, "
          f"distinct {distinct}")


def permute_case(k_fn, name, p, t, h, drop=0):
    topk, dt = p["TOPK"], DT[p["DTYPE"]]
    s = t * topk
    x = torch.randn(t, h, device="cuda").to(dt)
    experts = torch.randint(0, 8, (s,), device="cuda")
    order = torch.argsort(experts, stable=True).to(torch.int32)
    if drop:
        idx = torch.randperm(s, device="cuda")[:drop]
        order[idx] = torch.tensor([-1, s + 5], device="cuda", dtype=torch.int32)[
            torch.arange(drop, device="cuda") % 2]
    out = torch.full((s, h), float("nan"), device="cuda", dtype=dt)
    pos = torch.full((s,), -5, device="cuda", dtype=torch.int32)
    k_fn(X=x, Order=order, Out=out, Pos=pos)
    torch.cuda.synchronize()
    valid = (order >= 0) & (order < s)
    ref = torch.zeros_like(out)
    ref[valid] = x[order[valid].long() // topk]
    ref_pos = torch.full_like(pos, -5)
    ref_pos[order[valid].long()] = torch.arange(s, device="cuda", dtype=torch.int32)[valid]
    check(f"{name} T={t} H={h} drop={drop}",
          torch.equal(out, ref) and torch.equal(pos, ref_pos))


def unpermute_case(k_fn, name, p, t, h, drop=0):
    topk, dt = p["TOPK"], DT[p["DTYPE"]]
    s = t * topk
    yexp = torch.randn(s, h, device="cuda").to(dt)
    pos = torch.randperm(s, device="cuda").to(torch.int32).view(t, topk).contiguous()
    if drop:
        pos.view(-1)[torch.randperm(s, device="cuda")[:drop]] = -1
    w = torch.rand(t, topk, device="cuda")
    y = torch.full((t, h), float("nan"), device="cuda", dtype=dt)
    k_fn(Yexp=yexp, Pos=pos, Weights=w, Y=y)
    torch.cuda.synchronize()
    valid = (pos >= 0)
    rows = yexp.double()[pos.long().clamp(min=0)] * (w.double() * valid)[..., None]
    ref = rows.sum(1)
    tol = (2 * UNIT[p["DTYPE"]] * ref.abs() + 2.0**-16 * rows.abs().sum(1)
           + SUBNORMAL_HALF_ULP[p["DTYPE"]] + 1e-30)
    err = (y.double() - ref).abs()
    check(f"{name} T={t} H={h} drop={drop}", bool((err <= tol).all()),
          f"max err/tol {float((err / tol).max()):.3g}")


# --- end to end -----------------------------------------------------------------


def end_to_end(bundles, chip):
    names = {"router": f"moe_router-e8k2-{chip}", "permute": f"moe_permute-k2-{chip}",
             "unpermute": f"moe_unpermute-k2-{chip}",
             "up": (f"grouped_gemm-swiglu-p-{chip}" if chip == "sm_90a"
                    else f"grouped_gemm-swiglu-{chip}"),
             "down": f"grouped_gemm-n128-{chip}"}
    if not all(os.path.isdir(os.path.join(bundles, v)) for v in names.values()):
        return
    k = {key: tile_launcher.load(os.path.join(bundles, v)) for key, v in names.items()}
    t, hdim, inter, e, topk = 1000, 512, 704, 8, 2
    x = (torch.randn(t, hdim, device="cuda") * 0.5).half()
    wr = torch.randn(hdim, e, device="cuda") * 0.05
    logits = (x.float() @ wr).contiguous()
    w13 = (torch.randn(e, hdim, 2 * inter, device="cuda") * 0.05).half()
    w2 = (torch.randn(e, inter, hdim, device="cuda") * 0.05).half()
    ids = torch.empty(t, topk, device="cuda", dtype=torch.int32)
    wts = torch.empty(t, topk, device="cuda")
    k["router"](Logits=logits, Ids=ids, Weights=wts)
    order = torch.argsort(ids.view(-1), stable=True).to(torch.int32)
    counts = torch.bincount(ids.view(-1).long(), minlength=e)
    offsets = torch.zeros(e + 1, device="cuda", dtype=torch.int32)
    offsets[1:] = torch.cumsum(counts, 0)
    xs = torch.empty(t * topk, hdim, device="cuda").half()
    pos = torch.empty(t * topk, device="cuda", dtype=torch.int32)
    k["permute"](X=x, Order=order, Out=xs, Pos=pos)
    h = torch.empty(t * topk, inter, device="cuda").half()
    k["up"](X=xs, W=w13[..., :inter], Wup=w13[..., inter:], Offsets=offsets, Y=h)
    ys = torch.empty(t * topk, hdim, device="cuda").half()
    dummy = torch.zeros(1, 1, 1, device="cuda").half()
    k["down"](X=h, W=w2, Wup=dummy, Offsets=offsets, Y=ys)
    y = torch.empty(t, hdim, device="cuda").half()
    k["unpermute"](Yexp=ys, Pos=pos.view(t, topk), Weights=wts, Y=y)
    torch.cuda.synchronize()
    # torch MoE in float64 with the same routing (ids from torch.topk).
    prob = torch.softmax(logits.double(), -1)
    tw, tid = torch.topk(prob, topk, -1)
    ref = torch.zeros(t, hdim, device="cuda", dtype=torch.float64)
    for j in range(topk):
        for ex in range(e):
            sel = tid[:, j] == ex
            if not bool(sel.any()):
                continue
            a = x[sel].double() @ w13[ex].double()
            hh = torch.nn.functional.silu(a[:, :inter]) * a[:, inter:]
            ref[sel] += tw[sel, j, None] * (hh @ w2[ex].double())
    err = float((y.double() - ref).abs().max())
    scale = float(ref.abs().max())
    same_ids = bool((ids.long() == tid).all())
    check(f"moe layer end-to-end-{chip} T={t} H={hdim} I={inter} E={e} k={topk}",
          err <= 2e-2 * scale, f"max err {err:.3g} (max |ref| {scale:.3g}), "
          f"router ids equal torch.topk's: {same_ids}")


# --- timing ---------------------------------------------------------------------


def timing(bundles):
    import triton.testing as tt

    def bench(fn):
        return tt.do_bench(fn, return_mode="median")

    gg = []
    for entry in sorted(os.listdir(bundles)):
        if entry.startswith("grouped_gemm-") and entry.endswith("-sm_90a"):
            m = manifest(os.path.join(bundles, entry))
            if view_align(m) >= 16:
                gg.append((entry, m["params"], tile_launcher.load(os.path.join(bundles, entry))))
    plain = [g for g in gg if not g[1]["SWIGLU"] and not g[1]["TRANS_W"]
             and g[1]["IN_DTYPE"] == "f16" and g[1]["MAX_BLOCKS"] >= 132]
    dummy = torch.zeros(1, 1, 1, device="cuda").half()

    def run_grouped(sizes, kdim, ndim, label):
        e, t = len(sizes), sum(sizes)
        off = offsets_of(sizes, 0)
        x = torch.randn(t, kdim, device="cuda").half()
        w = (torch.randn(e, kdim, ndim, device="cuda") * 0.02).half()
        y = torch.empty(t, ndim, device="cuda").half()
        offsets = torch.tensor(off, device="cuda", dtype=torch.int32)
        flops = 2.0 * t * kdim * ndim
        ys = [y[off[i]:off[i + 1]] for i in range(e)]
        xs = [x[off[i]:off[i + 1]] for i in range(e)]

        def loop():
            for i in range(e):
                if xs[i].shape[0]:
                    torch.matmul(xs[i], w[i], out=ys[i])
        t_loop = bench(loop)
        w0 = w[0]
        t_dense = bench(lambda: torch.matmul(x, w0, out=y))
        print(f"time grouped GEMM {label}: E={e} T={t} K={kdim} N={ndim} "
              f"(sizes {sizes if e <= 8 else 'E=%d' % e})")
        print(f"  torch.matmul dense [T,K]@[K,N]   {t_dense * 1e3:8.1f} us "
              f"{flops / t_dense / 1e9:7.1f} TFLOPS")
        print(f"  torch.matmul loop over experts   {t_loop * 1e3:8.1f} us "
              f"{flops / t_loop / 1e9:7.1f} TFLOPS")
        best = None
        for entry, p, k in plain:
            t_ours = bench(lambda: k(X=x, W=w, Wup=dummy, Offsets=offsets, Y=y))
            print(f"  ours {entry:34s} {t_ours * 1e3:8.1f} us "
                  f"{flops / t_ours / 1e9:7.1f} TFLOPS  {t_dense / t_ours:5.2f}x dense "
                  f"{t_loop / t_ours:5.2f}x loop")
            best = t_ours if best is None else min(best, t_ours)
        return best, t_dense, t_loop

    # Uniform sizes: the bar is >= 0.9x the dense GEMM's TFLOPS.
    for kdim, ndim in [(4096, 14336 // 8), (4096, 14336), (14336, 4096)]:
        best, t_dense, t_loop = run_grouped([2048] * 8, kdim, ndim, "uniform")
        if best is not None:
            print(f"  bar uniform: best {t_dense / best:.2f}x dense (>= 0.90: "
                  f"{'met' if t_dense / best >= 0.9 else 'NOT met'})")
    run_grouped([256] * 64, 2048, 1408, "uniform, 64 experts")
    # Skewed sizes: the bar is faster than the loop of torch.matmul.
    for sizes in ([6000, 4000, 2500, 1500, 1000, 800, 400, 184],
                  [16000, 200, 100, 50, 20, 10, 3, 1],
                  [0, 0, 9000, 0, 7000, 384, 0, 0]):
        best, t_dense, t_loop = run_grouped(sizes, 4096, 14336 // 8, "skewed")
        if best is not None:
            print(f"  bar skewed: best {t_loop / best:.2f}x the torch loop (> 1: "
                  f"{'met' if t_loop / best > 1 else 'NOT met'})")

    # SwiGLU fused vs the loop of fused gate-up matmuls + silu * up.
    swi = [g for g in gg if g[1]["SWIGLU"] and not g[1]["TRANS_W"] and g[1]["IN_DTYPE"] == "f16"]
    for entry, p, k in swi:
        sizes, kdim, inter = [2048] * 8, 4096, 14336 // 8
        e, t = len(sizes), sum(sizes)
        off = offsets_of(sizes, 0)
        x = torch.randn(t, kdim, device="cuda").half()
        w13 = (torch.randn(e, kdim, 2 * inter, device="cuda") * 0.02).half()
        y = torch.empty(t, inter, device="cuda").half()
        offsets = torch.tensor(off, device="cuda", dtype=torch.int32)
        xs = [x[off[i]:off[i + 1]] for i in range(e)]
        flops = 2.0 * t * kdim * 2 * inter

        def loop13():
            for i in range(e):
                a = torch.matmul(xs[i], w13[i])
                torch.mul(torch.nn.functional.silu(a[:, :inter]), a[:, inter:],
                          out=y[off[i]:off[i + 1]])
        t_loop = bench(loop13)
        t_ours = bench(lambda: k(X=x, W=w13[..., :inter], Wup=w13[..., inter:],
                                 Offsets=offsets, Y=y))
        print(f"time grouped gate-up GEMM + SwiGLU E={e} T={t} K={kdim} I={inter}: "
              f"ours {entry} {t_ours * 1e3:.1f} us ({flops / t_ours / 1e9:.1f} TFLOPS), "
              f"torch loop {t_loop * 1e3:.1f} us ({flops / t_loop / 1e9:.1f} TFLOPS), "
              f"{t_loop / t_ours:.2f}x")

    # Memory-bound routing kernels: GB/s and the fraction of copy bandwidth.
    def copy_time(nbytes):
        # the same traffic: nbytes / 2 read and nbytes / 2 written
        a = torch.empty(nbytes // 4, device="cuda", dtype=torch.float16)
        b = torch.empty_like(a)
        return bench(lambda: b.copy_(a))

    def report(label, nbytes, t_ours, t_peer, peer):
        t_copy = copy_time(nbytes)
        print(f"time {label}: ours {t_ours * 1e3:.1f} us ({nbytes / t_ours / 1e6:.0f} GB/s, "
              f"{t_copy / t_ours:.0%} of copy), {peer} {t_peer * 1e3:.1f} us "
              f"({nbytes / t_peer / 1e6:.0f} GB/s), {t_peer / t_ours:.2f}x")

    t, h = 16384, 4096
    path = os.path.join(bundles, "moe_router-e64k8-renorm-sm_90a")
    if os.path.isdir(path):
        k = tile_launcher.load(path)
        e, topk = 64, 8
        logits = torch.randn(t, e, device="cuda")
        ids = torch.empty(t, topk, device="cuda", dtype=torch.int32)
        w = torch.empty(t, topk, device="cuda")

        def peer():
            v, i = torch.topk(torch.softmax(logits, -1), topk, -1)
            return v / v.sum(-1, keepdim=True), i
        report(f"router T={t} E={e} top{topk} renorm", t * e * 4 + t * topk * 8,
               bench(lambda: k(Logits=logits, Ids=ids, Weights=w)), bench(peer),
               "torch softmax+topk")
    for topk in (2, 8):
        tag = "k2" if topk == 2 else "k8-bf16"
        dt = torch.float16 if topk == 2 else torch.bfloat16
        tt_ = t if topk == 2 else t // 4
        s = tt_ * topk
        path = os.path.join(bundles, f"moe_permute-{tag}-sm_90a")
        if os.path.isdir(path):
            k = tile_launcher.load(path)
            x = torch.randn(tt_, h, device="cuda").to(dt)
            order = torch.argsort(torch.randint(0, 8, (s,), device="cuda"),
                                  stable=True).to(torch.int32)
            out = torch.empty(s, h, device="cuda", dtype=dt)
            pos = torch.empty(s, device="cuda", dtype=torch.int32)
            src = order.long() // topk
            report(f"permute T={tt_} H={h} top{topk} {dt}", 2 * s * h * x.element_size(),
                   bench(lambda: k(X=x, Order=order, Out=out, Pos=pos)),
                   bench(lambda: torch.index_select(x, 0, src, out=out)),
                   "torch index_select")
        path = os.path.join(bundles, f"moe_unpermute-{tag}-sm_90a")
        if os.path.isdir(path):
            k = tile_launcher.load(path)
            yexp = torch.randn(s, h, device="cuda").to(dt)
            pos = torch.randperm(s, device="cuda").to(torch.int32).view(tt_, topk)
            w = torch.rand(tt_, topk, device="cuda")
            y = torch.empty(tt_, h, device="cuda", dtype=dt)
            pl = pos.long()

            def peer_un():
                return (yexp[pl].float() * w[..., None]).sum(1).to(dt)
            report(f"un-permute T={tt_} H={h} top{topk} {dt}",
                   (s + tt_) * h * yexp.element_size(),
                   bench(lambda: k(Yexp=yexp, Pos=pos, Weights=w, Y=y)),
                   bench(peer_un), "torch gather+sum")


def run_checks(path, entry):
    m = manifest(path)
    name, p = m["kernel"], m["params"]
    k = tile_launcher.load(path)
    align = view_align(m)
    if name == "grouped_gemm":
        grouped_checks(k, entry, p, align)
    elif name == "moe_router":
        be = p["BLOCK_E"]
        for t, e in [(1, be), (77, max(p["TOPK"], be // 2 + 1)), (4097, be)]:
            router_case(k, entry, p, t, e)
    elif name == "moe_permute":
        for t, h, drop in [(1, 8, 0), (77, 136, 3), (1000, 1000, 0)]:
            permute_case(k, entry, p, t, h, drop)
    elif name == "moe_unpermute":
        for t, h, drop in [(1, 8, 0), (77, 136, 3), (1000, 1000, 0)]:
            unpermute_case(k, entry, p, t, h, drop)
    else:
        check(f"{entry}", False, f"unknown kernel '{name}'")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    bundles = sys.argv[1]
    torch.manual_seed(20261203)
    for entry in sorted(os.listdir(bundles)):
        path = os.path.join(bundles, entry)
        if not os.path.isfile(os.path.join(path, "manifest.json")):
            continue
        try:
            run_checks(path, entry)
        except Exception as e:  # noqa: BLE001 - reported, and the rest runs
            check(f"{entry}", False, f"{type(e).__name__}: {e}")
    for chip in ("sm_90a", "sm_80"):
        try:
            end_to_end(bundles, chip)
        except Exception as e:  # noqa: BLE001
            check(f"moe layer end-to-end-{chip}", False, f"{type(e).__name__}: {e}")
    if "--no-timing" not in sys.argv:
        try:
            timing(bundles)
        except Exception as e:  # noqa: BLE001
            check("timing", False, f"{type(e).__name__}: {e}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
