#!/usr/bin/env python3
"""Checks the memory-bound LLM kernels of kernels/ on the CPU reference
executor against an independent float64 reference (pure Python):

    add_norm             residual add + RMSNorm / LayerNorm forward
    add_norm_backward    its backward (DX per row; DW, DB by atomics)
    rope                 rotary embedding of Q and K by position ids
    embedding            out[t, :] = W[ids[t], :]
    embedding_backward   dW[ids[t], :] += dOut[t, :]

    check_llm_kernels.py --tile-exec BIN --kernels DIR add_norm --m 7 --n 1000 \
        --dtype bf16 --params ROWS=2,BLOCK_N=1024 [--layer] [--pipeline tile-O3]

As test/Kernels/check_kernel.py (whose launch-metadata evaluation, decoding
and per-element report it reuses): the kernel's `requires` and grid rule are
evaluated for the shapes; inputs are generated here (seeded) and handed to
tile-exec as .npy files, values exactly representable in the argument's
dtype, so the reference sees what the kernel saw; every output is poisoned
with NaN (or, for accumulated outputs, starts from known values) and read
back as bit patterns; every element is checked: finite, and within a
tolerance stated at each check. Exit status 0 on PASS, 1 on FAIL.
"""

import argparse
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_kernel import (ATOL, F32_BUDGET, UNIT_ROUNDOFF, Report,  # noqa: E402
                          decode, evaluate, kernel_metadata)


def to_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def to_dtype(dtype, x):
    """x rounded to dtype, nearest even (what the kernels' astype does)."""
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    if dtype == "bf16":
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def write_npy(path, shape, values, kind):
    """A .npy file of little-endian f4 ('f') or i4 ('i'), pure Python."""
    descr = "<f4" if kind == "f" else "<i4"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d," % s for s in shape))
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), kind), *values))


class View:
    """A kernel argument view: `data` (inputs, written to .npy) or `init`
    (a tile-exec initializer, outputs); `out` views are read back."""

    def __init__(self, name, dtype, shape, data=None, init=None, out=False):
        self.name, self.dtype, self.shape = name, dtype, shape
        self.data, self.init, self.out = data, init, out
        self.values = None

    def size(self):
        return math.prod(self.shape)


def rand_values(r, dtype, n, lo=-1.0, hi=1.0):
    return [to_dtype(dtype, r.uniform(lo, hi)) for _ in range(n)]


# --- problems -----------------------------------------------------------------


class AddNorm:
    kernel = "add_norm.mlir"

    def __init__(self, a, r):
        m, n, dt = a.m, a.n, a.dtype
        self.m, self.n, self.dtype, self.rms = m, n, dt, not a.layer
        self.eps = to_f32(a.eps)
        self.x = rand_values(r, dt, m * n, a.lo, a.hi)
        self.res = rand_values(r, dt, m * n, a.lo, a.hi)
        self.w = rand_values(r, dt, n, -2.0, 2.0)
        self.b = rand_values(r, dt, n, -1.0, 1.0)
        self.views = [View("X", dt, [m, n], self.x), View("Res", dt, [m, n], self.res),
                      View("W", dt, [n], self.w), View("B", dt, [n], self.b),
                      View("H", dt, [m, n], init="fill:nan", out=True),
                      View("Y", dt, [m, n], init="fill:nan", out=True),
                      View("Mean", "f32", [m], init="fill:nan", out=True),
                      View("Rstd", "f32", [m], init="fill:nan", out=True)]
        self.scalars = [("f32", repr(a.eps))]
        self.bind = {"DTYPE": dt, "RMS": "true" if self.rms else "false"}
        self.unwritten = ["Mean"] if self.rms else []

    def check(self, v, report):
        """H = x + res rounded once: within atol + u_out |ref| (plus one f32
        rounding of the sum, inside 2 u_out). Y, Mean, Rstd: the statistics of
        H as stored (the kernel's H, checked just above) with the tolerances
        of check_kernel.py's layernorm: Y within atol + 2 u_out |ref| +
        2^-16 (|hhat w| + |b| + rstd |w| mean|h|), Mean within 2^-16 mean|h|,
        Rstd within 2^-16 rstd."""
        n, dt = self.n, self.dtype
        u, atol = UNIT_ROUNDOFF[dt], ATOL[dt]
        h_out, y = v["H"].values, v["Y"].values
        for k in range(self.m * n):
            ref = self.x[k] + self.res[k]
            report.element("H", k, h_out[k], ref, atol + 2 * u * abs(ref))
        for i in range(self.m):
            row = h_out[i * n:(i + 1) * n]
            if not all(map(math.isfinite, row)):
                continue  # reported above
            mean_abs = math.fsum(abs(t) for t in row) / n
            if self.rms:
                mean = 0.0
                rstd = 1.0 / math.sqrt(math.fsum(t * t for t in row) / n + self.eps)
            else:
                mean = math.fsum(row) / n
                var = math.fsum((t - mean) ** 2 for t in row) / n
                rstd = 1.0 / math.sqrt(var + self.eps)
                report.element("Mean", i, v["Mean"].values[i], mean,
                               F32_BUDGET * mean_abs + ATOL["f32"])
            report.element("Rstd", i, v["Rstd"].values[i], rstd, F32_BUDGET * rstd)
            for j in range(n):
                hhat = (row[j] - mean) * rstd
                bias = 0.0 if self.rms else self.b[j]
                ref = hhat * self.w[j] + bias
                scale = abs(hhat * self.w[j]) + abs(bias) + rstd * abs(self.w[j]) * mean_abs
                report.element("Y", i * n + j, y[i * n + j], ref,
                               atol + 2 * u * abs(ref) + F32_BUDGET * scale)


class AddNormBackward:
    kernel = "add_norm_backward.mlir"

    def __init__(self, a, r):
        m, n, dt = a.m, a.n, a.dtype
        self.m, self.n, self.dtype, self.rms, self.dres = m, n, dt, not a.layer, a.dres
        self.dy = rand_values(r, dt, m * n)
        self.h = rand_values(r, dt, m * n, a.lo, a.hi)
        self.w = rand_values(r, dt, n, -2.0, 2.0)
        self.mean = [to_f32(r.uniform(a.lo, a.hi) / 2) for _ in range(m)]
        self.rstd = [to_f32(r.uniform(0.5, 2.0)) for _ in range(m)]
        self.dr = rand_values(r, dt, m * n) if a.dres else None
        # DW and DB start from values the kernel must add to (atomics).
        self.dw0 = [to_f32(r.uniform(-1, 1)) for _ in range(n)]
        self.db0 = [to_f32(r.uniform(-1, 1)) for _ in range(n)]
        self.views = [View("DY", dt, [m, n], self.dy), View("H", dt, [m, n], self.h),
                      View("W", dt, [n], self.w), View("Mean", "f32", [m], self.mean),
                      View("Rstd", "f32", [m], self.rstd),
                      View("DRes", dt, [m, n], self.dr) if a.dres
                      else View("DRes", dt, [1, 1], init="fill:nan"),
                      View("DX", dt, [m, n], init="fill:nan", out=True),
                      View("DW", "f32", [n], self.dw0, out=True),
                      View("DB", "f32", [n], self.db0, out=True)]
        self.scalars = []
        self.bind = {"DTYPE": dt, "RMS": "true" if self.rms else "false",
                     "HAS_DRES": "true" if a.dres else "false"}
        self.unwritten = []

    def check(self, v, report):
        """hhat = (h - mean) rstd, g = dy w, DX = rstd (g - hhat c1 - c2)
        (+ dres), c1 = sum(g hhat) / N, c2 = sum(g) / N (0 for RMSNorm).
        DX within atol + 2 u_out |ref| + 2^-16 (rstd (|g| + |hhat| sum|g
        hhat| / N + sum|g| / N) + |dres|): the f32 budget relative to the
        terms. DW (DB) = start + sum_rows dy hhat (dy) within 2^-16 (|start|
        + sum |dy hhat|) + f32 atol: f32 sums in any order (atomics). With
        RMS, DB must keep its start values bitwise."""
        n, dt = self.n, self.dtype
        u, atol = UNIT_ROUNDOFF[dt], ATOL[dt]
        dx = v["DX"].values
        dw_ref = [[self.dw0[j]] for j in range(n)]
        dw_mag = [abs(self.dw0[j]) for j in range(n)]
        db_ref = [[self.db0[j]] for j in range(n)]
        db_mag = [abs(self.db0[j]) for j in range(n)]
        for i in range(self.m):
            mean = 0.0 if self.rms else self.mean[i]
            rstd = self.rstd[i]
            hh = [(self.h[i * n + j] - mean) * rstd for j in range(n)]
            g = [self.dy[i * n + j] * self.w[j] for j in range(n)]
            c1 = math.fsum(a * b for a, b in zip(g, hh)) / n
            c1_mag = math.fsum(abs(a * b) for a, b in zip(g, hh)) / n
            c2 = 0.0 if self.rms else math.fsum(g) / n
            c2_mag = 0.0 if self.rms else math.fsum(map(abs, g)) / n
            for j in range(n):
                k = i * n + j
                dr = self.dr[k] if self.dres else 0.0
                ref = rstd * (g[j] - hh[j] * c1 - c2) + dr
                scale = rstd * (abs(g[j]) + abs(hh[j]) * c1_mag + c2_mag) + abs(dr)
                report.element("DX", k, dx[k], ref,
                               atol + 2 * u * abs(ref) + F32_BUDGET * scale)
                dw_ref[j].append(self.dy[k] * hh[j])
                dw_mag[j] += abs(self.dy[k] * hh[j])
                db_ref[j].append(self.dy[k])
                db_mag[j] += abs(self.dy[k])
        for j in range(n):
            report.element("DW", j, v["DW"].values[j], math.fsum(dw_ref[j]),
                           F32_BUDGET * dw_mag[j] + ATOL["f32"])
            if self.rms:
                if v["DB"].values[j] != self.db0[j]:
                    report.failures.append("DB[%d] changed with RMS" % j)
            else:
                report.element("DB", j, v["DB"].values[j], math.fsum(db_ref[j]),
                               F32_BUDGET * db_mag[j] + ATOL["f32"])


class Rope:
    kernel = "rope.mlir"

    def __init__(self, a, r):
        t, hq, hk, d, half, dt = a.tokens, a.hq, a.hk, a.d, a.half, a.dtype
        self.t, self.hq, self.hk, self.d, self.half, self.dtype = t, hq, hk, d, half, dt
        self.inter, self.p = a.interleaved, a.max_pos
        self.q = rand_values(r, dt, t * hq * d, a.lo, a.hi)
        self.k = rand_values(r, dt, t * hk * d, a.lo, a.hi)
        theta = [10000.0 ** (-i / half) for i in range(half)]
        self.cos = [to_f32(math.cos(pp * th)) for pp in range(self.p) for th in theta]
        self.sin = [to_f32(math.sin(pp * th)) for pp in range(self.p) for th in theta]
        # Positions: random (repeats included), and out-of-range ones (max_pos,
        # -1, far past) that must give zero rows.
        self.pos = [r.randrange(self.p) for _ in range(t)]
        for i, bad in zip((1, 4, 6), (self.p, -1, 1 << 30)):
            if i < t and a.bad_pos:
                self.pos[i] = bad
        self.views = [View("Q", dt, [t, hq, d], self.q, out=True),
                      View("K", dt, [t, hk, d], self.k, out=True),
                      View("Cos", "f32", [self.p, half], self.cos),
                      View("Sin", "f32", [self.p, half], self.sin),
                      View("Pos", "i32", [t], self.pos)]
        self.scalars = []
        self.bind = {"DTYPE": dt, "HALF": str(half), "ROT": str(2 * half),
                     "INTERLEAVED": "true" if self.inter else "false"}
        self.unwritten = []

    def check(self, v, report):
        """Per token, pair (a, b) of the rotated dims: y_a = x_a c - x_b s,
        y_b = x_b c + x_a s with (c, s) the f32 table entries of the token's
        position (0, 0 for a position outside the table). Within atol +
        2 u_out |ref| + 2^-16 (|x_a c| + |x_b s|) (two f32 products and a
        sum, then one rounding to the output type). Dims past ROT: unchanged,
        bitwise."""
        u, atol = UNIT_ROUNDOFF[self.dtype], ATOL[self.dtype]
        rot = 2 * self.half
        for name, x, heads in (("Q", self.q, self.hq), ("K", self.k, self.hk)):
            y = v[name].values
            for t in range(self.t):
                p = self.pos[t]
                ok = 0 <= p < self.p
                for h in range(heads):
                    base = (t * heads + h) * self.d
                    for i in range(self.half):
                        c = self.cos[p * self.half + i] if ok else 0.0
                        s = self.sin[p * self.half + i] if ok else 0.0
                        ia, ib = (2 * i, 2 * i + 1) if self.inter else (i, i + self.half)
                        xa, xb = x[base + ia], x[base + ib]
                        tol = F32_BUDGET * (abs(xa * c) + abs(xb * s) + abs(xb * c) + abs(xa * s))
                        ra, rb = xa * c - xb * s, xb * c + xa * s
                        report.element(name, base + ia, y[base + ia], ra, atol + 2 * u * abs(ra) + tol)
                        report.element(name, base + ib, y[base + ib], rb, atol + 2 * u * abs(rb) + tol)
                    for j in range(rot, self.d):
                        if y[base + j] != x[base + j]:
                            report.failures.append("%s[%d] past ROT changed" % (name, base + j))


def make_ids(r, t, v, bad):
    """Ids in [0, v) with duplicates (a few hot rows), and with `bad` some
    out of range (v, -1, 2^30)."""
    hot = [r.randrange(v) for _ in range(3)]
    ids = [r.choice(hot) if r.random() < 0.4 else r.randrange(v) for _ in range(t)]
    for i, b in zip((2, 5, 8), (v, -1, 1 << 30)):
        if bad and i < t:
            ids[i] = b
    return ids


class Embedding:
    kernel = "embedding.mlir"

    def __init__(self, a, r):
        t, v, n, dt = a.tokens, a.vocab, a.n, a.dtype
        self.t, self.v, self.n = t, v, n
        self.w = rand_values(r, dt, v * n, a.lo, a.hi)
        self.ids = make_ids(r, t, v, a.bad_ids)
        self.views = [View("W", dt, [v, n], self.w), View("Ids", "i32", [t], self.ids),
                      View("Out", dt, [t, n], init="fill:nan", out=True)]
        self.scalars = []
        self.bind = {"DTYPE": dt}
        self.unwritten = []

    def check(self, v, report):
        """Out[t] = W[ids[t]] bitwise (a copy), 0 for an id outside [0, V)."""
        out = v["Out"].values
        for t in range(self.t):
            i = self.ids[t]
            for j in range(self.n):
                ref = self.w[i * self.n + j] if 0 <= i < self.v else 0.0
                k = t * self.n + j
                # Exact: the tolerance is the smallest positive f32, so any
                # difference fails and the report keeps its ratio finite.
                report.element("Out", k, out[k], ref, ATOL["f32"])


class EmbeddingBackward:
    kernel = "embedding_backward.mlir"

    def __init__(self, a, r):
        t, v, n, dt = a.tokens, a.vocab, a.n, a.dtype
        self.t, self.v, self.n = t, v, n
        self.d = rand_values(r, dt, t * n, a.lo, a.hi)
        self.ids = make_ids(r, t, v, a.bad_ids)
        self.dw0 = [to_f32(r.uniform(-1, 1)) for _ in range(v * n)]
        self.views = [View("DOut", dt, [t, n], self.d), View("Ids", "i32", [t], self.ids),
                      View("DW", "f32", [v, n], self.dw0, out=True)]
        self.scalars = []
        self.bind = {"DTYPE": dt}
        self.unwritten = []

    def check(self, v, report):
        """DW[i] = start[i] + sum over the tokens with id i of DOut[t] (ids
        outside [0, V) add nothing), f32 sums in any order: within
        2^-16 (|start| + sum |DOut|) + f32 atol; rows no token hits stay
        bitwise."""
        terms = {}
        for t in range(self.t):
            if 0 <= self.ids[t] < self.v:
                terms.setdefault(self.ids[t], []).append(t)
        dw = v["DW"].values
        for i in range(self.v):
            for j in range(self.n):
                k = i * self.n + j
                parts = [self.dw0[k]] + [self.d[t * self.n + j] for t in terms.get(i, [])]
                if i not in terms:
                    if dw[k] != self.dw0[k]:
                        report.failures.append("DW[%d] changed; no token has id %d" % (k, i))
                    continue
                report.element("DW", k, dw[k], math.fsum(parts),
                               F32_BUDGET * math.fsum(map(abs, parts)) + ATOL["f32"])


PROBLEMS = {"add_norm": AddNorm, "add_norm_backward": AddNormBackward,
            "rope": Rope, "embedding": Embedding,
            "embedding_backward": EmbeddingBackward}


# --- running --------------------------------------------------------------------


def decode_view(view, words):
    if view.dtype == "i32":
        return [int(w, 16) - (1 << 32) if int(w, 16) >> 31 else int(w, 16) for w in words]
    return decode(view.dtype, words)


def run(a, problem):
    kernel = a.kernels.rstrip("/") + "/" + problem.kernel
    params, grid, requires = kernel_metadata(kernel)
    bind = dict(problem.bind)
    for item in filter(None, a.params.split(",")):
        name, _, value = item.partition("=")
        bind[name.strip()] = value.strip()
    unknown = set(bind) - set(params)
    if unknown:
        print("error: %s has no parameter %s" % (kernel, ", ".join(sorted(unknown))))
        return 2
    params.update(bind)
    sizes = {view.name: view.shape for view in problem.views}
    print("check_llm_kernels: %s %s, params %s" % (
        a.problem, " ".join("%s%s" % (v.name, v.shape) for v in problem.views),
        ",".join("%s=%s" % kv for kv in sorted(params.items()))))
    failing = [r for r in requires if not evaluate(r, params, sizes)]
    if failing:
        print("requires: refused, '%s' does not hold" % failing[0])
        return 0 if a.expect_refused else 3
    if a.expect_refused:
        print("FAIL: every requires clause holds; expected a refusal")
        return 1
    grid_sizes = [evaluate(g, params, sizes) for g in grid]

    with tempfile.TemporaryDirectory() as tmp:
        args = []
        for view in problem.views:
            if view.data is None:
                args.append("--arg=%s[%s]=%s" % (view.dtype, "x".join(map(str, view.shape)),
                                                 view.init))
                continue
            path = os.path.join(tmp, view.name + ".npy")
            write_npy(path, view.shape, view.data, "i" if view.dtype == "i32" else "f")
            args.append("--arg=@" + path)
        cmd = [a.tile_exec, kernel, "--hex", "--num-threads=%d" % a.threads,
               "--bind=" + ",".join("%s=%s" % kv for kv in sorted(bind.items())),
               "--grid=" + ",".join(map(str, grid_sizes)),
               "--print=" + ",".join(v.name for v in problem.views if v.out)]
        if a.pipeline:
            cmd.append("--pipeline=" + a.pipeline)
        cmd += args + ["--arg=%s=%s" % s for s in problem.scalars]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print("FAIL: tile-exec exited with %d\n%s" % (proc.returncode, proc.stderr))
        return 1
    outs = [v for v in problem.views if v.out]
    words = {v.name: [] for v in outs}
    for line in proc.stdout.splitlines():
        head, _, rest = line.partition(":")
        name = head.split("[")[0].strip()
        if name in words:
            words[name].extend(rest.split())
    for view in outs:
        if len(words[view.name]) != view.size():
            print("FAIL: tile-exec printed %d elements of %s, expected %d"
                  % (len(words[view.name]), view.name, view.size()))
            return 1
        view.values = decode_view(view, words[view.name])
    views = {v.name: v for v in problem.views}
    report = Report()
    problem.check(views, report)
    for name in problem.unwritten:
        written = sum(1 for t in views[name].values if not math.isnan(t))
        if written:
            report.failures.append("%s: %d elements written, expected none" % (name, written))
    for name, s in report.stats.items():
        print("  %-5s %8d elements  max |err| %.3g  max err/tol %.3g"
              % (name, s["n"], s["max_err"], s["max_ratio"]))
    for name in problem.unwritten:
        print("  %-5s not written (still NaN), as the ABI says" % name)
    if report.failures:
        for line in report.failures[:10]:
            print("  " + line)
        print("FAIL: %d bad elements (grid %s)" % (len(report.failures), grid_sizes))
        return 1
    print("PASS")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tile-exec", required=True)
    p.add_argument("--kernels", required=True, help="the kernels/ directory")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--params", default="", help="NAME=VALUE,... (after the problem's)")
    common.add_argument("--pipeline", default="", help="tile-exec --pipeline")
    common.add_argument("--seed", type=int, default=1)
    common.add_argument("--lo", type=float, default=-1.0, help="inputs from [lo, hi)")
    common.add_argument("--hi", type=float, default=1.0)
    common.add_argument("--threads", type=int, default=1)
    common.add_argument("--expect-refused", action="store_true",
                        help="succeed only if a `requires` clause refuses the run")
    common.add_argument("--dtype", default="f16", choices=["f16", "bf16", "f32"])
    sub = p.add_subparsers(dest="problem", required=True)
    for name in ("add_norm", "add_norm_backward"):
        s = sub.add_parser(name, parents=[common])
        s.add_argument("--m", type=int, required=True)
        s.add_argument("--n", type=int, required=True)
        s.add_argument("--layer", action="store_true", help="LayerNorm (default RMSNorm)")
        s.add_argument("--eps", type=float, default=1e-5)
        s.add_argument("--dres", action="store_true", help="backward: HAS_DRES")
    add_more_parsers(sub, common)
    a = p.parse_args()
    r = random.Random(a.seed)
    return run(a, PROBLEMS[a.problem](a, r))


def add_more_parsers(sub, common):
    s = sub.add_parser("rope", parents=[common])
    s.add_argument("--tokens", type=int, required=True)
    s.add_argument("--hq", type=int, required=True)
    s.add_argument("--hk", type=int, required=True)
    s.add_argument("--d", type=int, required=True, help="head dim")
    s.add_argument("--half", type=int, required=True, help="half the rotated dims")
    s.add_argument("--max-pos", type=int, default=37)
    s.add_argument("--interleaved", action="store_true")
    s.add_argument("--bad-pos", action="store_true", help="out-of-range positions")
    for name in ("embedding", "embedding_backward"):
        s = sub.add_parser(name, parents=[common])
        s.add_argument("--tokens", type=int, required=True)
        s.add_argument("--vocab", type=int, required=True)
        s.add_argument("--n", type=int, required=True)
        s.add_argument("--bad-ids", action="store_true", help="out-of-range ids")


if __name__ == "__main__":
    sys.exit(main())
