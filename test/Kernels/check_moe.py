#!/usr/bin/env python3
"""Checks the mixture-of-experts kernels (kernels/grouped_gemm.mlir,
moe_router.mlir, moe_permute.mlir, moe_unpermute.mlir) on the CPU reference
executor against an independent float64 reference (pure Python, no numpy),
the way check_kernel.py checks the others (its helpers: the kernel's grid
rule and `requires` evaluated for the shapes, inputs `random:SEED:LO:HI`
read back as exact bit patterns, outputs poisoned with NaN):

    check_moe.py --tile-exec BIN --kernels DIR grouped_gemm --sizes 0,1,77,5 \
        --k 65 --n 33 [--trans-w] [--swiglu] [--in-dtype bf16] [--out-dtype f32]
    check_moe.py ... router --t 77 --e 60 --topk 8 [--renorm] [--dtype f16]
    check_moe.py ... permute --t 77 --h 100 --topk 2 [--drop 3]
    check_moe.py ... unpermute --t 77 --h 100 --topk 2 [--drop 3]

--sizes lists the experts' token counts (sorted tokens: Offsets is their
prefix sum); --lead R and --tail R leave R rows of X outside every expert
before the first and after the last (Offsets[0] = R; rows nobody owns must
stay NaN). Exit status 0 on PASS, 1 on FAIL, 2 on usage errors, 3 when a
`requires` clause refuses the shapes.
"""

import argparse
import math
import random
import subprocess
import sys

from check_kernel import (ATOL, F32_BUDGET, UNIT_ROUNDOFF, Report, View,
                          evaluate, kernel_metadata, parse_views, poison, rng)


def values(xs):
    return "values:" + ",".join(str(int(x)) for x in xs)


def silu(g):
    return g / (1.0 + math.exp(-g)) if g > -700 else 0.0


class GroupedGemm:
    kernel = "grouped_gemm.mlir"

    def __init__(self, a):
        self.sizes = [int(s) for s in a.sizes.split(",")]
        e, k, n = len(self.sizes), a.k, a.n
        self.lead, self.tail = a.lead, a.tail
        self.t = a.lead + sum(self.sizes) + a.tail
        self.offsets = [a.lead]
        for s in self.sizes:
            self.offsets.append(self.offsets[-1] + s)
        self.k, self.n, self.e = k, n, e
        self.trans, self.swiglu = a.trans_w, a.swiglu
        self.out_dtype = a.out_dtype
        wshape = [e, n, k] if a.trans_w else [e, k, n]
        self.views = [
            View("X", a.in_dtype, [self.t, k], rng(a.seed, -1, 1)),
            View("W", a.in_dtype, wshape, rng(a.seed + 1000, -1, 1)),
            View("Wup", a.in_dtype, wshape if a.swiglu else [1, 1, 1],
                 rng(a.seed + 2000, -1, 1)),
            View("Offsets", "i32", [e + 1], values(self.offsets)),
            View("Y", a.out_dtype, [self.t, n], poison())]
        self.bind = {"TRANS_W": str(a.trans_w).lower(),
                     "SWIGLU": str(a.swiglu).lower(),
                     "IN_DTYPE": a.in_dtype, "OUT_DTYPE": a.out_dtype}

    def check(self, v, report):
        # Tolerance per element: atol + 2 u_out |ref| (rounding to the output
        # type) + 2^-16 of the magnitudes in play (check_kernel.py's f32
        # budget): sum_k |x w| for a plain product; with SwiGLU, silu's slope
        # (|silu'| < 1.1) times the gate's error times |up| plus |silu(gate)|
        # times up's error, and the rounded exp2 and division (|ref|).
        x, w, wu, y = (v[nm].values for nm in ("X", "W", "Wup", "Y"))
        k, n = self.k, self.n
        u = UNIT_ROUNDOFF[self.out_dtype]

        def wat(arr, e, kk, j):
            return arr[(e * n + j) * k + kk] if self.trans else arr[(e * k + kk) * n + j]
        owner = [None] * self.t
        for e in range(self.e):
            for r in range(self.offsets[e], self.offsets[e + 1]):
                owner[r] = e
        for r in range(self.t):
            e = owner[r]
            for j in range(n):
                idx = r * n + j
                if e is None:
                    if not math.isnan(y[idx]):
                        report.failures.append("Y[%d, %d] = %r written; row %d "
                                               "belongs to no expert" % (r, j, y[idx], r))
                    continue
                xs = x[r * k:(r + 1) * k]
                terms = [xs[kk] * wat(w, e, kk, j) for kk in range(k)]
                g = math.fsum(terms)
                mag = math.fsum(abs(t) for t in terms)
                if self.swiglu:
                    uterms = [xs[kk] * wat(wu, e, kk, j) for kk in range(k)]
                    up = math.fsum(uterms)
                    umag = math.fsum(abs(t) for t in uterms)
                    ref = silu(g) * up
                    err = F32_BUDGET * (1.1 * mag * abs(up) + abs(silu(g)) * umag
                                        + mag * umag + abs(ref))
                else:
                    ref = g
                    err = F32_BUDGET * mag
                tol = ATOL[self.out_dtype] + 2 * u * abs(ref) + err
                report.element("Y", idx, y[idx], ref, tol)


class Router:
    kernel = "moe_router.mlir"

    def __init__(self, a):
        self.t, self.e, self.topk, self.renorm = a.t, a.e, a.topk, a.renorm
        self.views = [View("Logits", a.dtype, [a.t, a.e], rng(a.seed, -4, 4)),
                      View("Ids", "i32", [a.t, a.topk], "fill:-1"),
                      View("Weights", "f32", [a.t, a.topk], poison())]
        block_k = 1
        while block_k < a.topk:
            block_k *= 2
        block_e = 1
        while block_e < a.e:
            block_e *= 2
        self.bind = {"TOPK": str(a.topk), "BLOCK_K": str(block_k),
                     "BLOCK_E": str(block_e), "RENORM": str(a.renorm).lower(),
                     "DTYPE": a.dtype}

    def check(self, v, report):
        # Ids exactly: the top-k by probability, descending, ties to the
        # lowest id (the reference sorts by (-logit, id): softmax is monotone,
        # so equal logits are the only ties). Weights: softmax in float64;
        # tolerance 2^-16 relative (a few f32 roundings in exp2, sum, division).
        lg = v["Logits"].values
        ids = [int(w, 0) for w in v["Ids"].words]  # integers print in decimal
        ws = v["Weights"].values
        for t in range(self.t):
            row = lg[t * self.e:(t + 1) * self.e]
            m = max(row)
            ex = [math.exp(z - m) for z in row]
            s = math.fsum(ex)
            p = [z / s for z in ex]
            order = sorted(range(self.e), key=lambda i: (-row[i], i))[:self.topk]
            chosen = [p[i] for i in order]
            if self.renorm:
                cs = math.fsum(chosen)
                chosen = [c / cs for c in chosen]
            for j in range(self.topk):
                idx = t * self.topk + j
                if ids[idx] != order[j]:
                    report.failures.append("Ids[%d, %d] = %d, expected %d"
                                           % (t, j, ids[idx], order[j]))
                report.element("Weights", idx, ws[idx], chosen[j],
                               2.0**-149 + F32_BUDGET * abs(chosen[j]))


class Permute:
    kernel = "moe_permute.mlir"

    def __init__(self, a):
        self.t, self.h, self.topk = a.t, a.h, a.topk
        s = a.t * a.topk
        r = random.Random(a.seed)
        # A routing: each (token, slot) picks an expert; Order sorts the
        # slots by expert, stably (as torch.argsort(stable=True)).
        experts = [r.randrange(max(1, a.experts)) for _ in range(s)]
        order = sorted(range(s), key=lambda i: (experts[i], i))
        for i in r.sample(range(s), min(a.drop, s)):  # dropped slots
            order[i] = r.choice([-1, -7, s, s + 100])
        self.order = order
        self.views = [View("X", a.dtype, [a.t, a.h], rng(a.seed, -1, 1)),
                      View("Order", "i32", [s], values(order)),
                      View("Out", a.dtype, [s, a.h], poison()),
                      View("Pos", "i32", [s], "fill:-5")]
        self.bind = {"TOPK": str(a.topk), "DTYPE": a.dtype}

    def check(self, v, report):
        # Exact: a copy. Dropped slots: a zero row, and no Pos entry.
        x, out = v["X"].values, v["Out"].values
        pos = [int(w, 0) for w in v["Pos"].words]
        s = len(self.order)
        ref_pos = [-5] * s
        for row, slot in enumerate(self.order):
            ok = 0 <= slot < s
            if ok:
                ref_pos[slot] = row
            for c in range(self.h):
                ref = x[(slot // self.topk) * self.h + c] if ok else 0.0
                report.element("Out", row * self.h + c, out[row * self.h + c], ref,
                               2.0**-149)  # exact
        for i in range(s):
            if pos[i] != ref_pos[i]:
                report.failures.append("Pos[%d] = %d, expected %d" % (i, pos[i], ref_pos[i]))


class Unpermute:
    kernel = "moe_unpermute.mlir"

    def __init__(self, a):
        self.t, self.h, self.topk, self.dtype = a.t, a.h, a.topk, a.dtype
        s = a.t * a.topk
        r = random.Random(a.seed)
        pos = list(range(s))
        r.shuffle(pos)
        for i in r.sample(range(s), min(a.drop, s)):
            pos[i] = r.choice([-1, s, s + 3])
        self.pos = pos
        self.views = [View("Yexp", a.dtype, [s, a.h], rng(a.seed, -1, 1)),
                      View("Pos", "i32", [a.t, a.topk], values(pos)),
                      View("Weights", "f32", [a.t, a.topk], rng(a.seed + 1, 0, 1)),
                      View("Y", a.dtype, [a.t, a.h], poison())]
        self.bind = {"TOPK": str(a.topk), "DTYPE": a.dtype}

    def check(self, v, report):
        # Tolerance: rounding to the output type (2 u |ref| + atol) plus the
        # f32 sum of TOPK products (2^-16 of sum |w y|).
        ye, w, y = v["Yexp"].values, v["Weights"].values, v["Y"].values
        s = len(self.pos)
        u = UNIT_ROUNDOFF[self.dtype]
        for t in range(self.t):
            for c in range(self.h):
                terms = []
                for j in range(self.topk):
                    p = self.pos[t * self.topk + j]
                    if 0 <= p < s:
                        terms.append(w[t * self.topk + j] * ye[p * self.h + c])
                ref = math.fsum(terms)
                tol = ATOL[self.dtype] + 2 * u * abs(ref) + \
                    F32_BUDGET * math.fsum(abs(z) for z in terms)
                report.element("Y", t * self.h + c, y[t * self.h + c], ref, tol)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tile-exec", required=True)
    p.add_argument("--kernels", required=True, help="the kernels/ directory")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--params", default="", help="NAME=VALUE,... (after the problem's)")
    common.add_argument("--pipeline", default="", help="tile-exec --pipeline")
    common.add_argument("--seed", type=int, default=1)
    common.add_argument("--threads", type=int, default=1)
    common.add_argument("--expect-refused", action="store_true")
    sub = p.add_subparsers(dest="problem", required=True)
    s = sub.add_parser("grouped_gemm", parents=[common])
    s.add_argument("--sizes", required=True, help="tokens per expert, comma-separated")
    s.add_argument("--k", type=int, required=True)
    s.add_argument("--n", type=int, required=True)
    s.add_argument("--lead", type=int, default=0)
    s.add_argument("--tail", type=int, default=0)
    s.add_argument("--trans-w", action="store_true")
    s.add_argument("--swiglu", action="store_true")
    s.add_argument("--in-dtype", default="f16", choices=["f16", "bf16"])
    s.add_argument("--out-dtype", default="f16", choices=["f16", "bf16", "f32"])
    s = sub.add_parser("router", parents=[common])
    s.add_argument("--t", type=int, required=True)
    s.add_argument("--e", type=int, required=True)
    s.add_argument("--topk", type=int, required=True)
    s.add_argument("--renorm", action="store_true")
    s.add_argument("--dtype", default="f32", choices=["f16", "bf16", "f32"])
    for name in ("permute", "unpermute"):
        s = sub.add_parser(name, parents=[common])
        s.add_argument("--t", type=int, required=True)
        s.add_argument("--h", type=int, required=True)
        s.add_argument("--topk", type=int, required=True)
        s.add_argument("--experts", type=int, default=8)
        s.add_argument("--drop", type=int, default=0, help="slots dropped (invalid ids)")
        s.add_argument("--dtype", default="f16", choices=["f16", "bf16"])
    a = p.parse_args()

    problem = {"grouped_gemm": GroupedGemm, "router": Router, "permute": Permute,
               "unpermute": Unpermute}[a.problem](a)
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
    print("check_moe: %s %s, params %s" % (
        a.problem, " ".join("%s%s" % (vw.name, vw.shape) for vw in problem.views),
        ",".join("%s=%s" % kv for kv in sorted(params.items()))))
    failing = [r for r in requires if not evaluate(r, params, sizes)]
    if failing:
        print("requires: refused, '%s' does not hold" % failing[0])
        return 0 if a.expect_refused else 3
    if a.expect_refused:
        print("FAIL: every requires clause holds; expected a refusal")
        return 1
    grid_sizes = [evaluate(g, params, sizes) for g in grid]
    cmd = [a.tile_exec, kernel, "--hex", "--num-threads=%d" % a.threads,
           "--bind=" + ",".join("%s=%s" % kv for kv in sorted(bind.items())),
           "--grid=" + ",".join(map(str, grid_sizes))]
    if a.pipeline:
        cmd.append("--pipeline=" + a.pipeline)
    cmd += ["--arg=" + view.spec() for view in problem.views]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print("FAIL: tile-exec exited with %d\n%s" % (run.returncode, run.stderr))
        return 1
    int_views = [vw for vw in problem.views if vw.dtype == "i32"]
    float_views = [vw for vw in problem.views if vw.dtype != "i32"]
    parse_views(run.stdout, float_views)
    for vw in int_views:  # bit patterns, decoded by the problem
        words = []
        for line in run.stdout.splitlines():
            head, _, rest = line.partition(":")
            if head.split("[")[0].strip() == vw.name:
                words.extend(rest.split())
        if len(words) != vw.size():
            print("FAIL: tile-exec printed %d elements of %s, expected %d"
                  % (len(words), vw.name, vw.size()))
            return 1
        vw.words = words
    views = {vw.name: vw for vw in problem.views}
    report = Report()
    problem.check(views, report)
    for name, st in report.stats.items():
        print("  %-7s %8d elements  max |err| %.3g  max err/tol %.3g"
              % (name, st["n"], st["max_err"], st["max_ratio"]))
    if report.failures:
        for line in report.failures[:10]:
            print("  " + line)
        print("FAIL: %d bad elements (grid %s)" % (len(report.failures), grid_sizes))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
