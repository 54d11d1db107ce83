#!/usr/bin/env python3
"""Checks the flash-attention backward (kernels/fmha_backward*.mlir) on the
CPU reference executor against an independent float64 reference (pure
Python, no numpy).

    check_fmha_backward.py --tile-exec BIN --kernels DIR --heads 4 \
        --kv-heads 2 --seq-q 77 --seq-k 90 --head-dim 64 --causal \
        --input-pos bottom-right --dtype bf16 [--params TILE_N=32]

What it does:
  1. makes random Q, K, V, dO (uniform in [-std, std), rounded to the
     dtype) and writes them as .npy files;
  2. runs the forward, kernels/fmha.mlir with WITH_LSE=true (its Out and
     Lse are what a training step hands the backward), then the three
     backward kernels in order: preprocess (Delta, DQacc zeroed), main
     (DQacc, dK, dV), postprocess (dQ). Every output starts as NaN (poison),
     DQacc included, so an element the kernels do not write fails;
  3. computes dQ, dK, dV in float64 from the rounded inputs with the
     textbook formulas (softmax, P^T dO, dS = P * (dP - Delta), GQA heads
     summed into their KV head), where Delta = rowsum(dO * O) takes the O
     the forward kernel wrote (the backward is a function of the O it is
     given; the forward has its own tests), and checks every element:
       |got - ref| <= tol, tol = 4 u * (the sum of the magnitudes of the
       terms) + one subnormal step,
     u the dtype's unit roundoff. Why 4 u: the kernels round P and dS to the
     dtype before the tensor-core products (u relative each), the f32
     arithmetic (P recomputed from the f32 LSE, dP, Delta, the sums) is far
     below u, and the output is rounded once more (u): the bound is 2 u
     times the sums of P |dO| (dV), scale |dS| |Q| (dK) and scale |dS| |K|
     (dQ), plus half a subnormal step (atol / 2) for each rounded P or dS
     below the normal range; the factor 2 beyond is margin. A missing scale, a wrong mask, a
     tile skipped or counted twice are errors of order one in these units
     (--perturb-scale shows one: the test suite expects that run to fail).
Exit status 0 on PASS, 1 on FAIL, 2 on usage errors.
"""

import argparse
import array
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

UNIT_ROUNDOFF = {"f16": 2.0**-11, "bf16": 2.0**-8}
ATOL = {"f16": 2.0**-24, "bf16": 2.0**-133}


# --- rounding and .npy files -------------------------------------------------


def round_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def round_dtype(x, dtype):
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    bits = struct.unpack("<I", struct.pack("<f", round_f32(x)))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def write_npy(path, shape, values):
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%s), }" % (
        "".join("%d, " % s for s in shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(array.array("d", values).tobytes())


def read_npy(path):
    data = open(path, "rb").read()
    length = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + length].decode("latin1")
    body = data[10 + length:]
    descr = header.split("'descr':")[1].split("'")[1]
    code = {"<f2": "e", "<f4": "f", "<f8": "d"}[descr]
    n = len(body) // struct.calcsize(code)
    return list(struct.unpack("<%d%s" % (n, code), body))


# --- the float64 reference ----------------------------------------------------


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def transpose(m):
    return [list(col) for col in zip(*m)]


def matmul_t(a, b):
    """a [I][K] times b^T, b [J][K]: [I][J]."""
    return [[dot(row, col) for col in b] for row in a]


def reference(a, q, k, v, do, out):
    """dQ, dK, dV and their tolerances, per (b, h) or (b, kvh) block of
    rows: dicts of [rows][D] lists. `out` is the forward kernel's Out: the
    backward's Delta is a function of the O it is given."""
    B, H, HK, SQ, SK, D = a.batch, a.heads, a.kv_heads, a.seq_q, a.seq_k, a.head_dim
    group = H // HK
    u, atol = UNIT_ROUNDOFF[a.dtype], ATOL[a.dtype]
    scale = a.scale
    dq, tq, dk, tk, dv, tv = {}, {}, {}, {}, {}, {}
    for b in range(B):
        for kvh in range(HK):
            dk[b, kvh] = [[0.0] * D for _ in range(SK)]
            tk[b, kvh] = [[0.0] * D for _ in range(SK)]
            dv[b, kvh] = [[0.0] * D for _ in range(SK)]
            tv[b, kvh] = [[0.0] * D for _ in range(SK)]
        for h in range(H):
            kvh = h // group
            Q, K, V, dO = q[b, h], k[b, kvh], v[b, kvh], do[b, h]
            absK, absQ = [[abs(x) for x in r] for r in K], [[abs(x) for x in r] for r in Q]
            absdO = [[abs(x) for x in r] for r in dO]
            S = matmul_t(Q, K)
            P, dcap = [], []
            for m in range(SQ):
                p = a.input_pos + m
                seen = [n for n in range(SK)
                        if (not a.causal or n <= p)
                        and (a.left < 0 or n >= p - a.left)
                        and (a.right < 0 or n <= p + a.right)]
                row = [0.0] * SK
                # Soft-cap: s' = cap tanh(x / cap), ds'/dx = 1 - tanh^2.
                x = [S[m][n] * scale for n in range(SK)]
                t = [math.tanh(v / a.softcap) for v in x] if a.softcap > 0 else None
                sc = [a.softcap * v for v in t] if t else x
                dcap.append([1 - v * v for v in t] if t else [1.0] * SK)
                if seen:
                    mx = max(sc[n] for n in seen)
                    e = {n: math.exp(sc[n] - mx) for n in seen}
                    total = math.fsum(e.values())
                    for n in seen:
                        row[n] = e[n] / total
                P.append(row)
            dP = matmul_t(dO, V)
            delta = [dot(dO[m], out[b, h][m]) for m in range(SQ)]
            dS = [[P[m][n] * (dP[m][n] - delta[m]) * dcap[m][n] for n in range(SK)]
                  for m in range(SQ)]
            E = [[abs(x) for x in r] for r in dS]
            Kt, absKt = transpose(K), transpose(absK)
            dq[b, h] = [[scale * x for x in r] for r in matmul_t(dS, Kt)]
            tq[b, h] = [[2 * u * scale * x for x in r] for r in matmul_t(E, absKt)]
            Pt, dSt, Et = transpose(P), transpose(dS), transpose(E)
            Qt, absQt = transpose(Q), transpose(absQ)
            dOt, absdOt = transpose(dO), transpose(absdO)
            # P and dS below the dtype's normal range round with an absolute
            # error of up to half a subnormal step: atol / 2 per term.
            sum_absdO = [math.fsum(col) for col in absdOt]
            sum_absQ = [math.fsum(col) for col in absQt]
            sum_absK = [math.fsum(col) for col in absKt]
            for m in range(SQ):
                for d in range(D):
                    tq[b, h][m][d] += scale * atol / 2 * sum_absK[d]
            for n, (dv_n, tv_n, dk_n, tk_n) in enumerate(
                    zip(matmul_t([Pt[n] for n in range(SK)], dOt),
                        matmul_t([Pt[n] for n in range(SK)], absdOt),
                        matmul_t([dSt[n] for n in range(SK)], Qt),
                        matmul_t([Et[n] for n in range(SK)], absQt))):
                for d in range(D):
                    dv[b, kvh][n][d] += dv_n[d]
                    tv[b, kvh][n][d] += 2 * u * tv_n[d] + atol / 2 * sum_absdO[d]
                    dk[b, kvh][n][d] += scale * dk_n[d]
                    tk[b, kvh][n][d] += (2 * u * tk_n[d] + atol / 2 * sum_absQ[d]) * scale
    return (dq, tq), (dk, tk), (dv, tv)


# --- running the kernels ------------------------------------------------------


def run(a, kernel, bind, grid, args, saves, tmp, pipeline=""):
    cmd = [a.tile_exec, os.path.join(a.kernels, kernel), "--print=",
           "--num-threads=%d" % a.threads,
           "--bind=" + ",".join("%s=%s" % kv for kv in bind.items()),
           "--grid=" + ",".join(map(str, grid))]
    if pipeline:
        cmd.append("--tile-pipeline=" + pipeline)
    cmd += ["--arg=" + x for x in args]
    cmd += ["--save=%s=%s" % (name, os.path.join(tmp, name + ".npy")) for name in saves]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        print("FAIL: %s exited with %d\n%s%s" % (kernel, done.returncode,
                                                 done.stdout[-2000:], done.stderr))
        sys.exit(1)


def cdiv(x, y):
    return -(-x // y)


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
    p.add_argument("--input-pos", default="0",
                   help="an integer, or bottom-right (Sk - Sq)")
    p.add_argument("--window", default="-1,-1",
                   help="LEFT,RIGHT sliding window (-1 unlimited), forward and backward")
    p.add_argument("--softcap", type=int, default=0, help="logit soft-cap (0: off)")
    p.add_argument("--std", type=float, default=1.0, help="inputs in [-std, std)")
    p.add_argument("--params", default="",
                   help="NAME=VALUE,... for the main kernel (TILE_M, TILE_N; "
                        "TILE_M also sizes the pre/postprocess blocks)")
    p.add_argument("--pipeline", default="",
                   help="tile-level pipeline for the backward kernels (tile-O3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--perturb-scale", type=float, default=1.0,
                   help="multiply the scale the backward kernels get (a "
                        "deliberate bug: the check must then fail)")
    p.add_argument("--perturb-window", action="store_true",
                   help="give the backward's main kernel a left window one "
                        "key wider than the forward's (the check must fail)")
    a = p.parse_args()
    a.kv_heads = a.kv_heads or a.heads
    a.seq_k = a.seq_k or a.seq_q
    a.left, a.right = (int(x) for x in a.window.split(","))
    if a.heads % a.kv_heads:
        print("error: --heads must be a multiple of --kv-heads")
        return 2
    a.input_pos = (a.seq_k - a.seq_q if a.input_pos == "bottom-right"
                   else int(a.input_pos))
    a.scale = round_f32(1.0 / math.sqrt(a.head_dim))
    B, H, HK, SQ, SK, D = a.batch, a.heads, a.kv_heads, a.seq_q, a.seq_k, a.head_dim
    main_bind = {"TILE_M": "64", "TILE_N": "64"}
    for item in filter(None, a.params.split(",")):
        name, _, value = item.partition("=")
        main_bind[name.strip()] = value.strip()
    tile_m, tile_n = int(main_bind["TILE_M"]), int(main_bind["TILE_N"])
    even_k = "true" if SK % tile_n == 0 else "false"
    main_bind.update({"HEAD_DIM": str(D), "QUERY_GROUP_SIZE": str(H // HK),
                      "CAUSAL": "true" if a.causal else "false",
                      "EVEN_K": even_k, "DTYPE": a.dtype})
    masks = {}
    if a.left >= 0 or a.right >= 0 or a.softcap > 0:
        masks = {"WINDOW_LEFT": str(a.left), "WINDOW_RIGHT": str(a.right),
                 "SOFTCAP": str(a.softcap)}
        main_bind.update(masks)
        if a.perturb_window and a.left >= 0:
            main_bind["WINDOW_LEFT"] = str(a.left + 1)
    print("check_fmha_backward: B %d H %d H_kv %d Sq %d Sk %d D %d %s %s "
          "input_pos %d, main %s" % (
              B, H, HK, SQ, SK, D, a.dtype,
              "causal" if a.causal else "no mask", a.input_pos,
              ",".join("%s=%s" % kv for kv in sorted(main_bind.items()))))

    rnd = random.Random(a.seed)
    def tensor(heads, rows):
        return {(b, h): [[round_dtype(rnd.uniform(-a.std, a.std), a.dtype)
                          for _ in range(D)] for _ in range(rows)]
                for b in range(B) for h in range(heads)}
    def flat(t, heads):
        return [x for b in range(B) for h in range(heads) for row in t[b, h] for x in row]
    q, k, v, do = tensor(H, SQ), tensor(HK, SK), tensor(HK, SK), tensor(H, SQ)

    with tempfile.TemporaryDirectory() as tmp:
        f = lambda name: os.path.join(tmp, name + ".npy")
        for name, t, heads, rows in (("q", q, H, SQ), ("k", k, HK, SK),
                                     ("v", v, HK, SK), ("do", do, H, SQ)):
            write_npy(f(name), [B, heads, rows, D], flat(t, heads))
        dt, qs, ks = a.dtype, "%s[%dx%dx%dx%d]" % (a.dtype, B, H, SQ, D), \
            "%s[%dx%dx%dx%d]" % (a.dtype, B, HK, SK, D)
        scale = "f32=%r" % a.scale
        bscale = "f32=%r" % round_f32(a.scale * a.perturb_scale)
        pos = "i32=%d" % a.input_pos
        fwd_bind = {"TILE_M": "64", "TILE_N": "64", "HEAD_DIM": str(D),
                    "QUERY_GROUP_SIZE": str(H // HK),
                    "CAUSAL": main_bind["CAUSAL"],
                    "EVEN_K": "true" if SK % 64 == 0 else "false",
                    "WITH_LSE": "true", "DTYPE": dt, **masks}
        run(a, "fmha.mlir", fwd_bind, [cdiv(SQ, 64), B * H, 1],
            ["@" + f("q"), "@" + f("k"), "@" + f("v"), qs + "=fill:nan",
             "f32[%dx%dx%d]=fill:nan" % (B, H, SQ), scale, pos],
            ["Out", "Lse"], tmp)
        # DQ_TRANSPOSED (the two-warpgroup main kernel): the accumulator is
        # [B, H, D, Sq], and the pre- and postprocess take the same flag.
        dq_t = main_bind.get("DQ_TRANSPOSED", "false")
        pp_bind = {"TILE_M": str(tile_m), "HEAD_DIM": str(D), "DTYPE": dt,
                   "DQ_TRANSPOSED": dq_t}
        acc_shape = (B, H, D, SQ) if dq_t == "true" else (B, H, SQ, D)
        run(a, "fmha_backward_preprocess.mlir", pp_bind, [cdiv(SQ, tile_m), B * H, 1],
            ["@" + f("Out"), "@" + f("do"), "f32[%dx%dx%d]=fill:nan" % (B, H, SQ),
             "f32[%dx%dx%dx%d]=fill:nan" % acc_shape],
            ["Delta", "DQacc"], tmp, a.pipeline)
        os.rename(f("DQacc"), f("dqacc0"))
        run(a, "fmha_backward.mlir", main_bind, [cdiv(SK, tile_n), B * HK, 1],
            ["@" + f("q"), "@" + f("k"), "@" + f("v"), "@" + f("do"),
             "@" + f("Lse"), "@" + f("Delta"), "@" + f("dqacc0"),
             ks + "=fill:nan", ks + "=fill:nan", bscale, pos],
            ["DQacc", "dK", "dV"], tmp, a.pipeline)
        run(a, "fmha_backward_postprocess.mlir", pp_bind, [cdiv(SQ, tile_m), B * H, 1],
            ["@" + f("DQacc"), qs + "=fill:nan", bscale], ["dQ"], tmp, a.pipeline)
        got = {name: read_npy(f(name)) for name in ("dQ", "dK", "dV")}
        out_flat = read_npy(f("Out"))
    out = {(b, h): [out_flat[((b * H + h) * SQ + m) * D:((b * H + h) * SQ + m + 1) * D]
                    for m in range(SQ)] for b in range(B) for h in range(H)}

    (dq, tq), (dk, tk), (dv, tv) = reference(a, q, k, v, do, out)
    atol = ATOL[a.dtype]
    failures = []
    for name, ref, tol, heads, rows in (("dQ", dq, tq, H, SQ), ("dK", dk, tk, HK, SK),
                                        ("dV", dv, tv, HK, SK)):
        values = got[name]
        refs, tols = flat(ref, heads), flat(tol, heads)
        worst = max_err = 0.0
        for i, (x, r, t) in enumerate(zip(values, refs, tols)):
            t = 2 * t + atol
            err = abs(x - r) if math.isfinite(x) else math.inf
            max_err = max(max_err, err)
            worst = max(worst, err / t)
            if not err <= t:
                failures.append("%s[%d] = %r, expected %r (tolerance %.3g)"
                                % (name, i, x, r, t))
        print("  %-3s %8d elements  max |err| %.3g  max err/tol %.3g"
              % (name, len(values), max_err, worst))
    if failures:
        for line in failures[:10]:
            print("  " + line)
        print("FAIL: %d bad elements" % len(failures))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
