#!/usr/bin/env python3
"""Checks the flash-attention forward (kernels/fmha.mlir) with a sliding
window (WINDOW_LEFT / WINDOW_RIGHT) and a logit soft-cap (SOFTCAP) on the CPU
reference executor against an independent float64 reference (pure Python,
no numpy).

    check_fmha_window.py --tile-exec BIN --kernels DIR --heads 4 \\
        --kv-heads 2 --seq-q 77 --seq-k 90 --head-dim 64 --causal \\
        --window 16,-1 --softcap 5 --input-pos bottom-right [--lse] \\
        [--params TILE_M=32,TILE_N=32] [--pipeline tile-O3]

What it does:
  1. makes random Q, K, V (uniform in [-std, std), rounded to the dtype);
  2. runs fmha.mlir with Out (and Lse) poisoned with NaN first, so an
     element the kernel does not write fails;
  3. computes in float64, from the rounded inputs, the attention the
     kernel must compute, written from FlashAttention's definitions and not
     from the kernel: the query at position p = input_pos + i sees the keys
     n < Sk with n <= p (causal), p - left <= n (left >= 0) and
     n <= p + right (right >= 0); scores s = q.k * scale, soft-capped as
     cap * tanh(s / cap) when cap > 0; softmax over the visible keys; a row
     that sees no key is 0 (and its LSE the largest float);
  4. checks every element: |got - ref| <= 4 u * sum_n P_n |V_n| + atol (u
     the dtype's unit roundoff: P is rounded to the dtype before P V, the
     output once more; the factor 2 beyond is margin), and the LSE (exp2
     domain, log2 of the softmax's denominator) within 1e-4 (1 + |lse|).
     A key counted or dropped at a window edge changes a row by P_n |V_n|,
     far above the bound; --perturb-window and --perturb-softcap give the
     kernel a window one key wider or a cap 10% off (the test suite expects
     those runs to fail).
Exit status 0 on PASS, 1 on FAIL, 2 on usage errors.
"""

import argparse
import math
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_fmha_backward import (  # noqa: E402
    ATOL, UNIT_ROUNDOFF, cdiv, read_npy, round_dtype, round_f32, run, write_npy)

FLT_MAX = 3.4028234663852886e38


def visible(a, m):
    """The keys query row m sees."""
    p = a.input_pos + m
    keys = []
    for n in range(a.seq_k):
        if a.causal and n > p:
            continue
        if a.left >= 0 and n < p - a.left:
            continue
        if a.right >= 0 and n > p + a.right:
            continue
        keys.append(n)
    return keys


def reference(a, q, k, v):
    """Out, its tolerance and the exp2-domain LSE per (b, h)."""
    group = a.heads // a.kv_heads
    u, atol = UNIT_ROUNDOFF[a.dtype], ATOL[a.dtype]
    out, tol, lse = {}, {}, {}
    for (b, h), Q in q.items():
        K, V = k[b, h // group], v[b, h // group]
        o_rows, t_rows, l_rows = [], [], []
        for m in range(a.seq_q):
            seen = visible(a, m)
            if not seen:
                o_rows.append([0.0] * a.head_dim)
                t_rows.append([0.0] * a.head_dim)
                l_rows.append(FLT_MAX)
                continue
            s = {}
            for n in seen:
                x = math.fsum(qi * ki for qi, ki in zip(Q[m], K[n])) * a.scale
                s[n] = a.softcap * math.tanh(x / a.softcap) if a.softcap > 0 else x
            mx = max(s.values())
            e = {n: math.exp(s[n] - mx) for n in seen}
            total = math.fsum(e.values())
            o_rows.append([math.fsum(e[n] * V[n][d] for n in seen) / total
                           for d in range(a.head_dim)])
            t_rows.append([4 * u * math.fsum(e[n] * abs(V[n][d]) for n in seen) / total
                           + atol for d in range(a.head_dim)])
            l_rows.append((mx + math.log(total)) / math.log(2.0))
        out[b, h], tol[b, h], lse[b, h] = o_rows, t_rows, l_rows
    return out, tol, lse


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tile-exec", required=True)
    p.add_argument("--kernels", required=True, help="the kernels/ directory")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--heads", type=int, default=2)
    p.add_argument("--kv-heads", type=int, default=0, help="default: --heads")
    p.add_argument("--seq-q", type=int, required=True)
    p.add_argument("--seq-k", type=int, default=0, help="default: --seq-q")
    p.add_argument("--head-dim", type=int, default=64)
    p.add_argument("--dtype", default="f16", choices=["f16", "bf16"])
    p.add_argument("--causal", action="store_true")
    p.add_argument("--window", default="-1,-1",
                   help="LEFT,RIGHT (FlashAttention's window_size; -1 unlimited)")
    p.add_argument("--softcap", type=int, default=0, help="0: off")
    p.add_argument("--lse", action="store_true", help="WITH_LSE=true, check Lse")
    p.add_argument("--input-pos", default="0",
                   help="an integer, or bottom-right (Sk - Sq)")
    p.add_argument("--std", type=float, default=1.0, help="inputs in [-std, std)")
    p.add_argument("--params", default="", help="NAME=VALUE,... (TILE_M, TILE_N)")
    p.add_argument("--pipeline", default="", help="tile-level pipeline (tile-O3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--perturb-window", action="store_true",
                   help="give the kernel a window one key wider on each "
                        "limited side (a deliberate bug: the check must fail)")
    p.add_argument("--perturb-softcap", action="store_true",
                   help="give the kernel a cap 10%% (at least 1) larger (must fail)")
    a = p.parse_args()
    a.kv_heads = a.kv_heads or a.heads
    a.seq_k = a.seq_k or a.seq_q
    try:
        a.left, a.right = (int(x) for x in a.window.split(","))
    except ValueError:
        print("error: --window takes LEFT,RIGHT")
        return 2
    if a.heads % a.kv_heads:
        print("error: --heads must be a multiple of --kv-heads")
        return 2
    a.input_pos = (a.seq_k - a.seq_q if a.input_pos == "bottom-right"
                   else int(a.input_pos))
    a.scale = round_f32(1.0 / math.sqrt(a.head_dim))
    B, H, HK, SQ, SK, D = a.batch, a.heads, a.kv_heads, a.seq_q, a.seq_k, a.head_dim
    bind = {"TILE_M": "64", "TILE_N": "64"}
    for item in filter(None, a.params.split(",")):
        name, _, value = item.partition("=")
        bind[name.strip()] = value.strip()
    tile_m, tile_n = int(bind["TILE_M"]), int(bind["TILE_N"])
    widen = 1 if a.perturb_window else 0
    kernel_cap = a.softcap + max(1, a.softcap // 10) if a.perturb_softcap else a.softcap
    bind.update({"HEAD_DIM": str(D), "QUERY_GROUP_SIZE": str(H // HK),
                 "CAUSAL": "true" if a.causal else "false",
                 "EVEN_K": "true" if SK % tile_n == 0 else "false",
                 "WITH_LSE": "true" if a.lse else "false", "DTYPE": a.dtype,
                 "WINDOW_LEFT": str(a.left + widen if a.left >= 0 else -1),
                 "WINDOW_RIGHT": str(a.right + widen if a.right >= 0 else -1),
                 "SOFTCAP": str(kernel_cap)})
    print("check_fmha_window: B %d H %d H_kv %d Sq %d Sk %d D %d %s %s "
          "window (%d, %d) softcap %d input_pos %d, %s%s" % (
              B, H, HK, SQ, SK, D, a.dtype, "causal" if a.causal else "not causal",
              a.left, a.right, a.softcap, a.input_pos,
              ",".join("%s=%s" % kv for kv in sorted(bind.items())),
              " " + a.pipeline if a.pipeline else ""))

    rnd = random.Random(a.seed)

    def tensor(heads, rows):
        return {(b, h): [[round_dtype(rnd.uniform(-a.std, a.std), a.dtype)
                          for _ in range(D)] for _ in range(rows)]
                for b in range(B) for h in range(heads)}

    def flat(t, heads):
        return [x for b in range(B) for h in range(heads) for row in t[b, h]
                for x in (row if isinstance(row, list) else [row])]

    q, k, v = tensor(H, SQ), tensor(HK, SK), tensor(HK, SK)
    with tempfile.TemporaryDirectory() as tmp:
        f = lambda name: os.path.join(tmp, name + ".npy")  # noqa: E731
        for name, t, heads, rows in (("q", q, H, SQ), ("k", k, HK, SK), ("v", v, HK, SK)):
            write_npy(f(name), [B, heads, rows, D], flat(t, heads))
        qs = "%s[%dx%dx%dx%d]" % (a.dtype, B, H, SQ, D)
        run(a, "fmha.mlir", bind, [cdiv(SQ, tile_m), B * H, 1],
            ["@" + f("q"), "@" + f("k"), "@" + f("v"), qs + "=fill:nan",
             "f32[%dx%dx%d]=fill:nan" % (B, H, SQ), "f32=%r" % a.scale,
             "i32=%d" % a.input_pos],
            ["Out", "Lse"] if a.lse else ["Out"], tmp, a.pipeline)
        got = read_npy(f("Out"))
        got_lse = read_npy(f("Lse")) if a.lse else []

    out, tol, lse = reference(a, q, k, v)
    failures = []
    worst = max_err = 0.0
    for i, (x, r, t) in enumerate(zip(got, flat(out, H), flat(tol, H))):
        err = abs(x - r) if math.isfinite(x) else math.inf
        max_err = max(max_err, err)
        worst = max(worst, err / t if t > 0 else (0.0 if err == 0 else math.inf))
        if not err <= t:
            failures.append("Out[%d] = %r, expected %r (tolerance %.3g)" % (i, x, r, t))
    empty = sum(1 for m in range(SQ) if not visible(a, m))
    print("  Out %8d elements  max |err| %.3g  max err/tol %.3g  rows without "
          "keys %d of %d" % (len(got), max_err, worst, empty, SQ))
    if a.lse:
        lse_err = 0.0
        for i, (x, r) in enumerate(zip(got_lse, flat(lse, H))):
            if r == FLT_MAX:
                ok = x == round_f32(FLT_MAX)
                err = 0.0 if ok else math.inf
            else:
                err = abs(x - r) if math.isfinite(x) else math.inf
                ok = err <= 1e-4 * (1 + abs(r))
            lse_err = max(lse_err, err)
            if not ok:
                failures.append("Lse[%d] = %r, expected %r" % (i, x, r))
        print("  Lse %8d elements  max |err| %.3g" % (len(got_lse), lse_err))
    if failures:
        for line in failures[:10]:
            print("  " + line)
        print("FAIL: %d bad elements" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
