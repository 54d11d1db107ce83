#!/usr/bin/env python3
"""Checks kernels/{gemm,gemm_splitk,gemm_fp8,softmax,layernorm}.mlir on the CPU reference executor
against an independent float64 reference (pure Python, no numpy).

    check_kernel.py --tile-exec BIN --kernels DIR softmax --m 3 --n 77 \
        --dtype f16 --params ROWS=2,BLOCK_N=128 [--pipeline tile-O3]

What it does:
  1. binds the kernel's parameters (the problem's dtypes and switches, then
     --params), evaluates the kernel's `requires` clauses and grid rule
     (read from the kernel source, contract C3) for the problem's shapes;
     a failing `requires` refuses the run (exit 3; --expect-refused turns
     that into the expected outcome);
  2. runs tile-exec with random inputs (`random:SEED:LO:HI`) and every
     output poisoned with NaN, and reads every view back as exact bit
     patterns (--hex): the reference sees exactly the inputs the kernel saw;
  3. computes the float64 reference from those inputs and checks every output
     element: finite (so every element was written: the poison is NaN), and
     |out - ref| <= tol, tol per element as stated in each check below.
     Outputs the kernel must not write (Mean with RMS) must still be NaN.
--dump FILE writes the outputs' bit patterns, for bitwise comparisons of
pipelines (cmp). Exit status 0 on PASS, 1 on FAIL, 2 on usage errors.

The reference shares no code with the kernels: it is the textbook formula
in float64 (math.fsum for sums).
"""

import argparse
import array
import math
import operator
import re
import struct
import subprocess
import sys

# Unit roundoff u (half an ulp of 1) of each storage type: rounding a value
# to the type changes it by at most u relative (normal range) ...
UNIT_ROUNDOFF = {"f16": 2.0**-11, "bf16": 2.0**-8, "f32": 2.0**-24}
# ... or by at most half the smallest subnormal in absolute terms (below the
# normal range); atol is one whole step, a factor 2 of margin.
ATOL = {"f16": 2.0**-24, "bf16": 2.0**-133, "f32": 2.0**-149}
# Error budget of the kernels' f32 arithmetic, relative to the size of the
# terms involved: 2^-16 ~ 1.5e-5 is 512 f32 ulps. Each kernel's f32 error is
# far below it: sums of up to 32768 terms accumulated in f32 (executor: in
# index order, error ~ u32 * sqrt(n) / 3 relative to the sum of magnitudes;
# GPU: a tree, smaller), a handful of rounded ops (exp2, division, rsqrt: a
# few ulps each). The smallest bugs the tests aim at are larger: one padded
# column counted in a softmax sum of 4097 terms is ~2^-12, a variance with
# the unbiased divisor at N = 77 is ~2^-7, a missing scale/bias/activation
# is O(1).
F32_BUDGET = 2.0**-16


def to_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def fp8_value(bits, exp_bits):
    """An fp8 bit pattern -> float: e4m3 in its FN form (no Inf, S.1111.111
    the only NaN) or e5m2 (IEEE-like)."""
    man_bits = 7 - exp_bits
    bias = (1 << (exp_bits - 1)) - 1
    sign = -1.0 if bits & 0x80 else 1.0
    exp, man = (bits & 0x7f) >> man_bits, bits & ((1 << man_bits) - 1)
    if exp_bits == 4 and bits & 0x7f == 0x7f:
        return math.nan
    if exp_bits == 5 and exp == 31:
        return sign * math.inf if man == 0 else math.nan
    if exp == 0:
        return sign * math.ldexp(man, 1 - bias - man_bits)
    return sign * math.ldexp(man + (1 << man_bits), exp - bias - man_bits)


FP8_EXP_BITS = {"f8E4M3FN": 4, "f8E5M2": 5}


def decode(dtype, words):
    """Bit patterns (hex strings) of `dtype` -> floats, all at once."""
    n = len(words)
    if dtype in FP8_EXP_BITS:
        return [fp8_value(int(w, 16), FP8_EXP_BITS[dtype]) for w in words]
    if dtype == "f16":
        bits = array.array("H", (int(w, 16) for w in words))
        return list(struct.unpack("<%de" % n, bits.tobytes()))
    if dtype == "bf16":
        bits = array.array("I", (int(w, 16) << 16 for w in words))
    elif dtype == "f32":
        bits = array.array("I", (int(w, 16) for w in words))
    elif dtype == "i32":
        bits = array.array("I", (int(w, 16) for w in words))
        return [float(x) for x in struct.unpack("<%di" % n, bits.tobytes())]
    else:
        raise ValueError(dtype)
    return list(struct.unpack("<%df" % n, bits.tobytes()))


# --- the kernel's launch metadata (contract C3 grammar) ----------------------


def kernel_metadata(path):
    text = open(path).read()
    params = {}
    block = re.search(r"tile\.params\s*=\s*\{(.*?)\}\}", text, re.S)
    for name, value in re.findall(r"(\w+)\s*=\s*([\w.-]+)", block.group(1)):
        params[name] = value
    def strings(key):
        m = re.search(key + r"\s*=\s*\[(.*?)\]", text, re.S)
        return re.findall(r'"([^"]*)"', m.group(1)) if m else []
    return params, strings("grid"), strings("requires")


def evaluate(expr, params, sizes):
    """Evaluates a grid rule or a requires clause: integers, + - * / %,
    cdiv/min/max, NAME.d view sizes, parameters (booleans 1/0), comparisons
    and && || !. Division truncates (the operands are non-negative here)."""
    def word(m):
        name, dim = m.group(1), m.group(2)
        if dim is not None:
            return str(sizes[name][int(dim)])
        if name in ("cdiv", "min", "max"):
            return name
        value = params[name]
        if value in ("true", "false"):
            return "1" if value == "true" else "0"
        return str(int(value))
    py = re.sub(r"([A-Za-z_]\w*)(?:\.(\d+))?", word, expr)
    py = py.replace("&&", " and ").replace("||", " or ")
    py = re.sub(r"!(?!=)", " not ", py)
    py = py.replace("/", "//")
    env = {"cdiv": lambda a, b: -(-a // b), "min": min, "max": max}
    return int(eval(py, {"__builtins__": {}}, env))


# --- problems -----------------------------------------------------------------


class View:
    def __init__(self, name, dtype, shape, init):
        self.name, self.dtype, self.shape, self.init = name, dtype, shape, init
        self.values = None

    def size(self):
        return math.prod(self.shape)

    def spec(self):
        return "%s[%s]=%s" % (self.dtype, "x".join(map(str, self.shape)), self.init)


def rng(seed, lo, hi):
    return "random:%d:%r:%r" % (seed, lo, hi)


def poison():
    return "fill:nan"


class Softmax:
    kernel = "softmax.mlir"

    def __init__(self, a, params):
        self.m, self.n, self.dtype = a.m, a.n, a.dtype
        self.views = [View("X", a.dtype, [a.m, a.n], rng(a.seed, a.lo, a.hi)),
                      View("Y", a.dtype, [a.m, a.n], poison())]
        self.scalars = []
        self.bind = {"DTYPE": a.dtype}
        self.unwritten = []

    def check(self, v, report):
        """Y = softmax(X) per row; every term is positive, so the error is
        relative: tol = atol + |ref| (2 u_out + 2^-16 + 2^-23 |x - m| log2 e),
        the last term for the rounding of the exp2 argument (its relative
        error u32 becomes an absolute error |t| u32 in t, hence a relative one
        in 2^t)."""
        x, y = v["X"].values, v["Y"].values
        u, atol = UNIT_ROUNDOFF[self.dtype], ATOL[self.dtype]
        for i in range(self.m):
            row = x[i * self.n:(i + 1) * self.n]
            mx = max(row)
            if mx == -math.inf:
                ref = [0.0] * self.n
            else:
                e = [math.exp(t - mx) for t in row]
                s = math.fsum(e)
                ref = [t / s for t in e]
            for j in range(self.n):
                rel = 2 * u + F32_BUDGET + 2.0**-23 * (mx - row[j]) * 1.4427
                report.element("Y", i * self.n + j, y[i * self.n + j], ref[j],
                               atol + abs(ref[j]) * rel)


class LayerNorm:
    kernel = "layernorm.mlir"

    def __init__(self, a, params):
        m, n = a.m, a.n
        self.m, self.n, self.dtype, self.rms = m, n, a.dtype, a.rms
        self.eps = to_f32(a.eps)
        self.views = [View("X", a.dtype, [m, n], rng(a.seed, a.lo, a.hi)),
                      View("W", a.dtype, [n], rng(a.seed + 1, -2.0, 2.0)),
                      View("B", a.dtype, [n], rng(a.seed + 2, -1.0, 1.0)),
                      View("Y", a.dtype, [m, n], poison()),
                      View("Mean", "f32", [m], poison()),
                      View("Rstd", "f32", [m], poison())]
        self.scalars = [("f32", repr(a.eps))]
        self.bind = {"DTYPE": a.dtype, "RMS": "true" if a.rms else "false"}
        self.unwritten = ["Mean"] if a.rms else []

    def check(self, v, report):
        """LayerNorm: mean = sum x / N, var = sum (x - mean)^2 / N (biased),
        rstd = 1 / sqrt(var + eps), Y = (x - mean) rstd w + b; RMSNorm:
        rstd = 1 / sqrt(sum x^2 / N + eps), Y = x rstd w. Tolerances: Y within
        atol + 2 u_out |ref| + 2^-16 (|x - mean| rstd |w| + |b| +
        rstd |w| mean|x|): the f32 budget relative to the terms, including the
        mean's own f32 error (relative to mean|x|) scaled by rstd |w|; Mean
        within 2^-16 mean|x|; Rstd within 2^-16 rstd (the mean's error moves
        the variance only to second order)."""
        x, w, b = v["X"].values, v["W"].values, v["B"].values
        y, mean_out, rstd_out = v["Y"].values, v["Mean"].values, v["Rstd"].values
        n = self.n
        u, atol = UNIT_ROUNDOFF[self.dtype], ATOL[self.dtype]
        for i in range(self.m):
            row = x[i * n:(i + 1) * n]
            mean_abs = math.fsum(abs(t) for t in row) / n
            if self.rms:
                mean = 0.0
                rstd = 1.0 / math.sqrt(math.fsum(t * t for t in row) / n + self.eps)
            else:
                mean = math.fsum(row) / n
                var = math.fsum((t - mean) ** 2 for t in row) / n
                rstd = 1.0 / math.sqrt(var + self.eps)
                report.element("Mean", i, mean_out[i], mean,
                               F32_BUDGET * mean_abs + ATOL["f32"])
            report.element("Rstd", i, rstd_out[i], rstd, F32_BUDGET * rstd)
            for j in range(n):
                xhat = (row[j] - mean) * rstd
                bias = 0.0 if self.rms else b[j]
                ref = xhat * w[j] + bias
                scale = abs(xhat * w[j]) + abs(bias) + rstd * abs(w[j]) * mean_abs
                report.element("Y", i * n + j, y[i * n + j], ref,
                               atol + 2 * u * abs(ref) + F32_BUDGET * scale)


class Gemm:
    kernel = "gemm.mlir"

    def __init__(self, a, params):
        m, n, k = a.m, a.n, a.k
        self.m, self.n, self.k = m, n, k
        self.in_dtype, self.out_dtype = a.in_dtype, a.out_dtype
        self.trans_b, self.bias, self.act = a.trans_b, a.bias, a.act
        self.scale = to_f32(a.scale)
        b_shape = [n, k] if a.trans_b else [k, n]
        self.views = [View("A", a.in_dtype, [m, k], rng(a.seed, a.lo, a.hi)),
                      View("B", a.in_dtype, b_shape, rng(a.seed + 1, a.lo, a.hi)),
                      View("C", a.out_dtype, [m, n], poison()),
                      View("Bias", a.out_dtype, [n],
                           rng(a.seed + 2, -1.0, 1.0) if a.bias else poison())]
        self.scalars = [("f32", repr(a.scale))]
        self.bind = {"IN_DTYPE": a.in_dtype, "OUT_DTYPE": a.out_dtype,
                     "TRANS_B": "true" if a.trans_b else "false",
                     "HAS_BIAS": "true" if a.bias else "false",
                     "ACTIVATION": str(a.act)}
        self.unwritten = []

    @staticmethod
    def activation(kind, t):
        if kind == 1:
            return max(t, 0.0)
        if kind == 2:
            return 0.5 * t * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) *
                                              (t + 0.044715 * t ** 3)))
        return t

    def check(self, v, report):
        """C = act(scale (A @ B) + bias). The products of f16/bf16 inputs are
        exact in f32 and in float64, the sum is exact here (fsum). Tolerance:
        atol + 2 u_out |ref| + 2^-16 (|scale| sum_k |a b| + |bias|): the f32
        budget relative to the magnitude of the terms (K <= a few hundred
        f32 additions), which also covers the activation's f32 evaluation
        and its slope (at most 1.13 for GELU)."""
        a, b, c = v["A"].values, v["B"].values, v["C"].values
        bias = v["Bias"].values if self.bias else [0.0] * self.n
        m, n, k = self.m, self.n, self.k
        rows = [a[i * k:(i + 1) * k] for i in range(m)]
        if self.trans_b:
            cols = [b[j * k:(j + 1) * k] for j in range(n)]
        else:
            cols = [b[j::n] for j in range(n)]
        u, atol = UNIT_ROUNDOFF[self.out_dtype], ATOL[self.out_dtype]
        for i in range(m):
            for j in range(n):
                dot = math.fsum(map(operator.mul, rows[i], cols[j]))
                mag = math.fsum(map(abs, map(operator.mul, rows[i], cols[j])))
                ref = self.activation(self.act, self.scale * dot + bias[j])
                tol = atol + 2 * u * abs(ref) + F32_BUDGET * (
                    abs(self.scale) * mag + abs(bias[j]))
                report.element("C", i * n + j, c[i * n + j], ref, tol)


class GemmSplitK(Gemm):
    """kernels/gemm_splitk.mlir: the GEMM of Gemm with K split over SPLIT_K
    blocks whose f32 partial tiles meet in the workspace Work. Work and
    Locks start at zero and must be zero again after the launch (the block
    that adds the last partial tile resets them for the next launch)."""
    kernel = "gemm_splitk.mlir"

    def __init__(self, a, params):
        super().__init__(a, params)
        tiles = (-(-a.m // int(params["BLOCK_M"]))) * (-(-a.n // int(params["BLOCK_N"])))
        # One lock more than the tiles: a block that wrote past its own
        # lock would leave it non-zero.
        self.views += [View("Work", "f32", [a.m, a.n], "zeros"),
                       View("Locks", "i32", [tiles + 1], "zeros")]

    def check(self, v, report):
        super().check(v, report)
        for name in ("Work", "Locks"):
            left = [i for i, value in enumerate(v[name].values) if value != 0.0]
            if left:
                report.failures.append("%s: %d elements not reset to 0 (first "
                                       "%s[%d] = %r)" % (name, len(left), name, left[0],
                                                         v[name].values[left[0]]))


class GemmFp8:
    """kernels/gemm_fp8.mlir: C = act((A @ B^T) sa sb + bias), A [M, K] and
    B [N, K] fp8 (the executor rounds the random inputs to fp8, nearest
    even; the reference reads back those exact values), sa = ScaleA[m] with
    ROW_SCALE else ScaleA[0], sb = ScaleB[n] with COL_SCALE else ScaleB[0]."""
    kernel = "gemm_fp8.mlir"

    def __init__(self, a, params):
        m, n, k = a.m, a.n, a.k
        self.m, self.n, self.k = m, n, k
        self.out_dtype, self.bias, self.act = a.out_dtype, a.bias, a.act
        self.row_scale, self.col_scale = a.row_scale, a.col_scale
        # Scales away from 1 (and the per-tensor ones distinct), so that a
        # scale applied twice, to the wrong rows, or not at all shows.
        self.views = [View("A", a.in_dtype, [m, k], rng(a.seed, a.lo, a.hi)),
                      View("B", a.in_dtype, [n, k], rng(a.seed + 1, a.lo, a.hi)),
                      View("C", a.out_dtype, [m, n], poison()),
                      View("ScaleA", "f32", [m if a.row_scale else 1],
                           rng(a.seed + 3, 0.25, 4.0) if a.row_scale
                           else "values:%r" % a.scale_a),
                      View("ScaleB", "f32", [n if a.col_scale else 1],
                           rng(a.seed + 4, 0.25, 4.0) if a.col_scale
                           else "values:%r" % a.scale_b),
                      View("Bias", a.out_dtype, [n],
                           rng(a.seed + 2, -1.0, 1.0) if a.bias else poison())]
        self.scalars = []
        self.bind = {"IN_DTYPE": a.in_dtype, "OUT_DTYPE": a.out_dtype,
                     "ROW_SCALE": "true" if a.row_scale else "false",
                     "COL_SCALE": "true" if a.col_scale else "false",
                     "PROMOTE": "true" if a.promote else "false",
                     "HAS_BIAS": "true" if a.bias else "false",
                     "ACTIVATION": str(a.act)}
        self.unwritten = []

    def check(self, v, report):
        """The products of fp8 values are exact in f32 and float64, the sum
        is exact here (fsum). Tolerance as Gemm's: atol + 2 u_out |ref| +
        2^-16 (|sa sb| sum_k |a b| + |bias|)."""
        a, b, c = v["A"].values, v["B"].values, v["C"].values
        sa, sb = v["ScaleA"].values, v["ScaleB"].values
        bias = v["Bias"].values if self.bias else [0.0] * self.n
        m, n, k = self.m, self.n, self.k
        rows = [a[i * k:(i + 1) * k] for i in range(m)]
        cols = [b[j * k:(j + 1) * k] for j in range(n)]
        u, atol = UNIT_ROUNDOFF[self.out_dtype], ATOL[self.out_dtype]
        for i in range(m):
            for j in range(n):
                s = (sa[i] if self.row_scale else sa[0]) * \
                    (sb[j] if self.col_scale else sb[0])
                dot = math.fsum(map(operator.mul, rows[i], cols[j]))
                mag = math.fsum(map(abs, map(operator.mul, rows[i], cols[j])))
                ref = Gemm.activation(self.act, s * dot + bias[j])
                tol = atol + 2 * u * abs(ref) + F32_BUDGET * (
                    abs(s) * mag + abs(bias[j]))
                report.element("C", i * n + j, c[i * n + j], ref, tol)


# --- checking -------------------------------------------------------------------


class Report:
    def __init__(self):
        self.stats = {}
        self.failures = []

    def element(self, name, index, got, ref, tol):
        s = self.stats.setdefault(name, {"n": 0, "max_err": 0.0, "max_ratio": 0.0})
        s["n"] += 1
        if not math.isfinite(got):
            self.failures.append("%s[%d] = %r (not written, or not finite); "
                                 "expected %r" % (name, index, got, ref))
            s["max_ratio"] = math.inf
            return
        err = abs(got - ref)
        s["max_err"] = max(s["max_err"], err)
        ratio = err / tol
        s["max_ratio"] = max(s["max_ratio"], ratio)
        if ratio > 1.0:
            self.failures.append("%s[%d] = %r, expected %r: error %.3g > "
                                 "tolerance %.3g" % (name, index, got, ref, err, tol))


def parse_views(stdout, views):
    """tile-exec prints `NAME[i, j]: 0x... 0x...` (NAME: for rank 1)."""
    words = {view.name: [] for view in views}
    for line in stdout.splitlines():
        head, _, rest = line.partition(":")
        name = head.split("[")[0].strip()
        if name in words:
            words[name].extend(rest.split())
    for view in views:
        if len(words[view.name]) != view.size():
            raise RuntimeError("tile-exec printed %d elements of %s, expected %d"
                               % (len(words[view.name]), view.name, view.size()))
        view.words = words[view.name]
        view.values = decode(view.dtype, view.words)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tile-exec", required=True)
    p.add_argument("--kernels", required=True, help="the kernels/ directory")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--params", default="",
                        help="NAME=VALUE,... (after the problem's)")
    common.add_argument("--pipeline", default="", help="tile-exec --pipeline")
    common.add_argument("--seed", type=int, default=1)
    common.add_argument("--lo", type=float, default=-1.0, help="inputs from [lo, hi)")
    common.add_argument("--hi", type=float, default=1.0)
    common.add_argument("--threads", type=int, default=1)
    common.add_argument("--dump", help="write the outputs' bit patterns here")
    common.add_argument("--expect-refused", action="store_true",
                        help="succeed only if a `requires` clause refuses the run")
    sub = p.add_subparsers(dest="problem", required=True)
    s = sub.add_parser("softmax", parents=[common])
    s.add_argument("--m", type=int, required=True)
    s.add_argument("--n", type=int, required=True)
    s.add_argument("--dtype", default="f16", choices=["f16", "bf16", "f32"])
    s = sub.add_parser("layernorm", parents=[common])
    s.add_argument("--m", type=int, required=True)
    s.add_argument("--n", type=int, required=True)
    s.add_argument("--dtype", default="f16", choices=["f16", "bf16", "f32"])
    s.add_argument("--rms", action="store_true")
    s.add_argument("--eps", type=float, default=1e-5)
    for name in ("gemm", "gemm_splitk"):
        s = sub.add_parser(name, parents=[common])
        s.add_argument("--m", type=int, required=True)
        s.add_argument("--n", type=int, required=True)
        s.add_argument("--k", type=int, required=True)
        s.add_argument("--in-dtype", default="f16", choices=["f16", "bf16"])
        s.add_argument("--out-dtype", default="f16", choices=["f16", "bf16", "f32"])
        s.add_argument("--trans-b", action="store_true")
        s.add_argument("--bias", action="store_true")
        s.add_argument("--act", type=int, default=0, choices=[0, 1, 2])
        s.add_argument("--scale", type=float, default=1.0)
    s = sub.add_parser("gemm_fp8", parents=[common])
    s.add_argument("--m", type=int, required=True)
    s.add_argument("--n", type=int, required=True)
    s.add_argument("--k", type=int, required=True)
    s.add_argument("--in-dtype", default="f8E4M3FN", choices=["f8E4M3FN", "f8E5M2"])
    s.add_argument("--out-dtype", default="bf16", choices=["f16", "bf16", "f32"])
    s.add_argument("--row-scale", action="store_true")
    s.add_argument("--col-scale", action="store_true")
    s.add_argument("--scale-a", type=float, default=0.75)
    s.add_argument("--scale-b", type=float, default=1.5)
    s.add_argument("--promote", action="store_true")
    s.add_argument("--bias", action="store_true")
    s.add_argument("--act", type=int, default=0, choices=[0, 1, 2])
    a = p.parse_args()

    cls = {"softmax": Softmax, "layernorm": LayerNorm, "gemm": Gemm,
           "gemm_splitk": GemmSplitK, "gemm_fp8": GemmFp8}[a.problem]
    kernel = a.kernels.rstrip("/") + "/" + cls.kernel
    params, grid, requires = kernel_metadata(kernel)
    chosen = {}
    for item in filter(None, a.params.split(",")):
        name, _, value = item.partition("=")
        chosen[name.strip()] = value.strip()
    # Every problem sees the parameters (the split-K workspace's shape
    # depends on the tiles).
    problem = cls(a, {**params, **chosen})
    bind = dict(problem.bind)
    bind.update(chosen)
    unknown = set(bind) - set(params)
    if unknown:
        print("error: %s has no parameter %s" % (kernel, ", ".join(sorted(unknown))))
        return 2
    params.update(bind)
    sizes = {view.name: view.shape for view in problem.views}
    shape = " ".join("%s%s" % (view.name, view.shape) for view in problem.views)
    print("check_kernel: %s %s, params %s" % (a.problem, shape,
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
    cmd += ["--arg=%s=%s" % scalar for scalar in problem.scalars]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print("FAIL: tile-exec exited with %d\n%s" % (run.returncode, run.stderr))
        return 1
    parse_views(run.stdout, problem.views)
    views = {view.name: view for view in problem.views}

    report = Report()
    problem.check(views, report)
    for name in problem.unwritten:
        written = sum(1 for t in views[name].values if not math.isnan(t))
        if written:
            report.failures.append("%s: %d elements written, expected none"
                                   % (name, written))
    outputs = [view for view in problem.views if view.init == poison()
               and view.name in report.stats or view.name in problem.unwritten]
    if a.dump:
        with open(a.dump, "w") as f:
            for view in outputs:
                f.write("%s: %s\n" % (view.name, " ".join(view.words)))

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


if __name__ == "__main__":
    sys.exit(main())
