#!/usr/bin/env python3
"""Checks kernels/{cross_entropy,swiglu,gelu,dropout}.mlir on the CPU
reference executor against independent float64 references (pure Python, no numpy).

    check_xent_kernels.py --tile-exec BIN --kernels DIR xent --t 5 --v 50257 \
        --dtype bf16 --tgt i32 --params BLOCK_N=4096 --seed 1
    check_xent_kernels.py ... swiglu --t 7 --f 1000 --backward
    check_xent_kernels.py ... gelu --t 7 --f 1000 --erf --backward
    check_xent_kernels.py ... dropout --m 7 --n 1000 --p 0.3
    check_xent_kernels.py ... philox     (the raw generator, test/Kernels/Inputs)

Inputs are random, rounded to the storage type here so that the reference
sees exactly what the kernel sees; outputs are poisoned with NaN (every
element must be written) and read back as exact bit patterns (--hex). The references
are the textbook formulas in float64 and share no code with the kernels;
dropout's mask comes from a Philox4x32-10 written here from Salmon et al.
(SC'11), itself checked against Random123's known-answer vectors, and the
kernel's outputs must equal it bit for bit. Exit 0 on PASS, 1 on FAIL.
"""

import argparse
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

U = {"f16": 2.0**-11, "bf16": 2.0**-8, "f32": 2.0**-24}
ATOL = {"f16": 2.0**-24, "bf16": 2.0**-133, "f32": 2.0**-149}
# The kernels' f32 arithmetic (sums of up to 256k terms in f32, exp2 and
# log2 of a few ulps) stays far below 2^-16 relative to the terms involved;
# the bugs aimed at (one padded column in a sum of 50257 terms, a target
# off by one, a missing scale) are 2^-12 or larger.
F32_BUDGET = 2.0**-16
MASK = 0xFFFFFFFF


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def round_to(x, dtype):
    """x rounded to the storage type (round to nearest even), as a float."""
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    if dtype == "bf16":
        b = f32_bits(f32(x))
        b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
        return struct.unpack("<f", struct.pack("<I", b & MASK))[0]
    return f32(x)


def decode(dtype, word):
    if dtype not in ("f16", "bf16", "f32"):
        return int(word, 0)                    # integers print as decimals
    b = int(word, 16)
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<H", b))[0]
    if dtype == "bf16":
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]
    return struct.unpack("<f", struct.pack("<I", b))[0]


def write_npy(path, descr, shape, values):
    fmt = {"<f4": "f", "<i4": "i", "<i8": "q"}[descr]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


class Run:
    def __init__(self, args):
        self.args = args
        self.dir = tempfile.mkdtemp(prefix="xent-")
        self.specs = []
        self.outs = {}

    def view(self, name, descr, shape, values):
        if descr == "<i8":   # .npy input takes float and i32 views only
            self.specs.append("--arg=i64[%s]=values:%s" % (
                "x".join(str(d) for d in shape), ",".join(str(e) for e in values)))
            return
        path = os.path.join(self.dir, name + ".npy")
        write_npy(path, descr, shape, values)
        self.specs.append("--arg=@" + path)

    def poison(self, name, dtype, shape):
        dims = "x".join(str(d) for d in shape)
        fill = "fill:nan" if dtype in ("f16", "bf16", "f32") else "fill:-7"
        self.specs.append("--arg=%s[%s]=%s" % (dtype, dims, fill))
        self.outs[name] = (dtype, math.prod(shape))

    def read_back(self, name, dtype, shape):
        """Print an input view after the run (written in place)."""
        self.outs[name] = (dtype, math.prod(shape))

    def scalar(self, dtype, value):
        self.specs.append("--arg=%s=%s" % (dtype, value))

    def run(self, kernel, params, grid):
        cmd = [self.args.tile_exec, os.path.join(self.args.kernels, kernel),
               "--bind=" + params, "--grid=" + ",".join(map(str, grid)),
               "--hex", "--print=" + ",".join(self.outs)] + self.specs
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print(" ".join(cmd))
            print(r.stdout[-2000:], r.stderr[-4000:])
            sys.exit(1)
        words = {name: [] for name in self.outs}
        for line in r.stdout.splitlines():
            head, _, rest = line.partition(":")
            name = head.split("[")[0].strip()
            if name in words:
                words[name].extend(rest.split())
        out = {}
        for name, (dtype, n) in self.outs.items():
            if len(words[name]) != n:
                print("tile-exec printed %d elements of %s, expected %d"
                      % (len(words[name]), name, n))
                sys.exit(1)
            out[name] = [decode(dtype, w) for w in words[name]]
        return out


def cdiv(a, b):
    return -(-a // b)


def merged(params, extra):
    out = dict(kv.split("=") for kv in extra.split(",") if kv)
    out.update(dict(kv.split("=") for kv in params.split(",") if kv))
    return ",".join("%s=%s" % kv for kv in out.items())


def param(params, name, default):
    for kv in params.split(","):
        if kv.startswith(name + "="):
            return int(kv.split("=")[1])
    return default


failures = []


def check(name, out, ref, tol):
    """out, ref, tol: flat lists; every out finite and within tol."""
    bad = [i for i in range(len(ref))
           if not math.isfinite(out[i]) or abs(out[i] - ref[i]) > tol[i]]
    if bad:
        i = bad[0]
        failures.append("%s: %d of %d elements off; first at %d: got %r, want %r (tol %r)"
                        % (name, len(bad), len(ref), i, out[i], ref[i], tol[i]))
    else:
        err = max((abs(o - r) for o, r in zip(out, ref)), default=0.0)
        print("%s: %d elements ok, max err %.3g" % (name, len(ref), err))


def check_exact(name, out, ref):
    bad = [i for i in range(len(ref)) if out[i] != ref[i]]
    if bad:
        i = bad[0]
        failures.append("%s: %d of %d differ; first at %d: got %r, want %r"
                        % (name, len(bad), len(ref), i, out[i], ref[i]))
    else:
        print("%s: %d elements bitwise equal" % (name, len(ref)))


def float_view(run, name, dtype, shape, values):
    # The values are already rounded to dtype: f32 carries them exactly and
    # tile-exec converts them to the view's type without change.
    run.view(name, "<f4", shape, values)


# ---------------------------------------------------------------- xent

def xent(a, rng):
    t, v, dt = a.t, a.v, a.dtype
    x = [[round_to(rng.uniform(a.lo, a.hi), dt) for _ in range(v)] for _ in range(t)]
    y = [rng.randrange(v) for _ in range(t)]
    for r in range(0, t, 3):
        y[r] = a.ignore                     # every third row ignored
    if a.neg_inf_row:
        # A row of -inf (ignored: its loss is 0 and its lse -inf; torch's
        # loss is NaN where such a row counts, as is ours) and a row with
        # -inf in every other column but the target's.
        x[0] = [-math.inf] * v
        if t > 2:
            x[2] = [e if j % 2 or j == y[2] else -math.inf for j, e in enumerate(x[2])]
    if t > 4:
        y[4] = v - 1                        # the last column
    if t > 5:
        y[5] = 0
    if t > 7:
        y[7] = v                            # out of range: treated as ignored
    dloss = [f32(rng.uniform(-2, 2)) for _ in range(t)]
    run = Run(a)
    float_view(run, "Logits", dt, [t, v], [e for row in x for e in row])
    run.view("Targets", "<i4" if a.tgt == "i32" else "<i8", [t], y)
    run.view("DLoss", "<f4", [t], dloss)
    run.poison("Loss", "f32", [t])
    run.poison("Lse", "f32", [t])
    run.poison("DLogits", dt, [t, v])
    run.scalar("i32", a.ignore)
    if a.in_place:
        run.read_back("Logits", dt, [t, v])
    params = merged(a.params, "DTYPE=%s,TGT_DTYPE=%s,GRAD=%s,IN_PLACE=%s"
                    % (dt, a.tgt, "true" if a.grad else "false",
                       "true" if a.in_place else "false"))
    out = run.run("cross_entropy.mlir", params, [cdiv(t, param(params, "ROWS", 1))])

    loss_ref, lse_ref, tol, grad_ref, grad_tol = [], [], [], [], []
    for r in range(t):
        row = x[r]
        m = max(row)
        counts = y[r] != a.ignore and 0 <= y[r] < v
        if m == -math.inf:
            lse = -math.inf
        else:
            lse = m + math.log(math.fsum(math.exp(e - m) for e in row))
        big = max(abs(e) for e in row if math.isfinite(e)) if m != -math.inf else 0.0
        # lse: an f32 sum of V terms and a log2: F32_BUDGET relative to the
        # largest term involved.
        tol.append(F32_BUDGET * (big + abs(lse if math.isfinite(lse) else 0) + 1))
        lse_ref.append(lse)
        loss_ref.append(lse - row[y[r]] if counts else 0.0)
        live = counts and math.isfinite(lse)
        for j in range(v):
            p = math.exp(row[j] - lse) if math.isfinite(lse) else 0.0
            one = 1.0 if counts and j == y[r] else 0.0
            g = (p - one) * dloss[r] if live else 0.0
            grad_ref.append(g)
            grad_tol.append(abs(g) * 2 * U[dt] + F32_BUDGET * (p + one) * abs(dloss[r])
                            + ATOL[dt])
    lse_out = list(out["Lse"])
    for r in range(t):
        if lse_ref[r] == -math.inf:
            if lse_out[r] != -math.inf:
                failures.append("Lse[%d] of a row of -inf is %r, want -inf" % (r, lse_out[r]))
            lse_out[r] = lse_ref[r] = 0.0
    check("Lse", lse_out, lse_ref, tol)
    check("Loss", out["Loss"], loss_ref, tol)
    if a.grad:
        name = "Logits" if a.in_place else "DLogits"
        check(name, out[name], grad_ref, grad_tol)
        zero_rows = [r for r in range(t) if not (y[r] != a.ignore and 0 <= y[r] < v)]
        if any(out[name][r * v + j] != 0 for r in zero_rows for j in range(v)):
            failures.append("the gradient of ignored rows is not exactly 0")
        if a.in_place and not all(math.isnan(e) for e in out["DLogits"]):
            failures.append("DLogits written in place mode")
    elif not all(math.isnan(e) for e in out["DLogits"]):
        failures.append("DLogits written without GRAD")


# ---------------------------------------------------------------- swiglu, gelu

def rand_tile(rng, a, lo, hi):
    return [round_to(rng.uniform(lo, hi), a.dtype) for _ in range(a.t * a.f)]


def elementwise_run(a, kernel, inputs, outputs, extra):
    run = Run(a)
    for name, values in inputs:
        if values is None:
            run.poison(name, a.dtype, [a.t, a.f])
        else:
            float_view(run, name, a.dtype, [a.t, a.f], values)
    for name in outputs:
        run.poison(name, a.dtype, [a.t, a.f])
    params = merged(a.params, "DTYPE=%s,BACKWARD=%s%s"
                    % (a.dtype, "true" if a.backward else "false", extra))
    grid = [cdiv(a.t, param(params, "ROWS", 8)), cdiv(a.f, param(params, "BLOCK_N", 512))]
    return run.run(kernel, params, grid)


def out_tol(ref, terms, dt):
    return [abs(r) * 2 * U[dt] + F32_BUDGET * s + ATOL[dt] for r, s in zip(ref, terms)]


def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def swiglu(a, rng):
    dt = a.dtype
    g = rand_tile(rng, a, a.lo, a.hi)
    u = rand_tile(rng, a, -2, 2)
    do = rand_tile(rng, a, -2, 2)
    s = [sigmoid(e) for e in g]
    silu = [e * q for e, q in zip(g, s)]
    if a.backward:
        out = elementwise_run(a, "swiglu.mlir", [("G", g), ("U", u), ("Out", None), ("DOut", do)],
                              ["DG", "DU"], "")
        dg = [d * w * q * (1 + e * (1 - q)) for d, w, q, e in zip(do, u, s, g)]
        du = [d * l for d, l in zip(do, silu)]
        check("DG", out["DG"], dg, out_tol(dg, [abs(d * w) * (1 + abs(e)) for d, w, e in zip(do, u, g)], dt))
        check("DU", out["DU"], du, out_tol(du, [abs(d * e) for d, e in zip(do, g)], dt))
        if not all(math.isnan(e) for e in out["Out"]):
            failures.append("Out written by the backward")
    else:
        out = elementwise_run(a, "swiglu.mlir", [("G", g), ("U", u)], ["Out", "DOut", "DG", "DU"], "")
        ref = [l * w for l, w in zip(silu, u)]
        check("Out", out["Out"], ref, out_tol(ref, [abs(e * w) for e, w in zip(g, u)], dt))
        for name in ("DG", "DU"):
            if not all(math.isnan(e) for e in out[name]):
                failures.append(name + " written by the forward")


def gelu(a, rng):
    dt = a.dtype
    x = rand_tile(rng, a, a.lo, a.hi)
    dy = rand_tile(rng, a, -2, 2)
    extra = ",TANH=" + ("false" if a.erf else "true")
    y, d = [], []
    k = math.sqrt(2 / math.pi)
    for e in x:
        if a.erf:
            phi = 0.5 * math.erfc(-e / math.sqrt(2))
            y.append(e * phi)
            d.append(phi + e * math.exp(-e * e / 2) / math.sqrt(2 * math.pi))
        else:
            th = math.tanh(k * (e + 0.044715 * e**3))
            y.append(0.5 * e * (1 + th))
            d.append(0.5 * (1 + th) + 0.5 * e * (1 - th * th) * k * (1 + 3 * 0.044715 * e * e))
    # The erf form's erfc has relative error 1.2e-7 (~2^-23), inside the
    # budget; the terms: |x| and, for the derivative, |x|^3.
    if a.backward:
        out = elementwise_run(a, "gelu.mlir", [("X", x), ("Y", None), ("DY", dy)], ["DX"], extra)
        ref = [q * w for q, w in zip(dy, d)]
        check("DX", out["DX"], ref,
              out_tol(ref, [abs(q) * (1 + abs(e)) * (1 + e * e) for q, e in zip(dy, x)], dt))
    else:
        out = elementwise_run(a, "gelu.mlir", [("X", x)], ["Y", "DY", "DX"], extra)
        check("Y", out["Y"], y, out_tol(y, [abs(e) * (1 + abs(e)) for e in x], dt))


# ---------------------------------------------------------------- philox

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85


def philox4x32_10(c0, c1, c2, c3, k0, k1):
    """Philox4x32-10 (Salmon et al., SC'11; Random123's philox.h): ten
    rounds on the counter, the key bumped by the Weyl constants between
    them. Integers in [0, 2^32)."""
    c0, c1, c2, c3, k0, k1 = (z & MASK for z in (c0, c1, c2, c3, k0, k1))
    for rnd in range(10):
        if rnd:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        p0, p1 = M0 * c0, M1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & MASK,
                          (p0 >> 32) ^ c3 ^ k1, p0 & MASK)
    return c0, c1, c2, c3


# Random123's known-answer vectors (kat_vectors, philox4x32 10).
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((MASK, MASK, MASK, MASK), (MASK, MASK),
     (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def check_kat():
    for ctr, key, want in KAT:
        got = philox4x32_10(*ctr, *key)
        if got != want:
            failures.append("Python Philox on %s %s: %s != %s"
                            % (ctr, key, [hex(w) for w in got], [hex(w) for w in want]))
            return False
    print("Python Philox4x32-10 matches Random123's known answers")
    return True


def signed32(w):
    return w - (1 << 32) if w >= 1 << 31 else w


def philox_raw(a, rng):
    """The generator alone (test/Kernels/Inputs/philox.mlir) on the known-
    answer counters and random ones, against the Python one bit for bit."""
    check_kat()
    ctrs = [c for c, _, _ in KAT] + [tuple(rng.randrange(1 << 32) for _ in range(4))
                                     for _ in range(a.n)]
    for key in [(0, 0), (MASK, MASK), KAT[2][1],
                (rng.randrange(1 << 32), rng.randrange(1 << 32))]:
        run = Run(a)
        for i in range(4):
            run.view("C%d" % i, "<i4", [len(ctrs)], [signed32(c[i]) for c in ctrs])
        for i in range(4):
            run.poison("R%d" % i, "i32", [len(ctrs)])
        run.scalar("i32", signed32(key[0]))
        run.scalar("i32", signed32(key[1]))
        out = run.run("../test/Kernels/Inputs/philox.mlir", a.params, [cdiv(len(ctrs), 128)])
        want = [philox4x32_10(*c, *key) for c in ctrs]
        for i in range(4):
            check_exact("R%d key %s" % (i, [hex(k) for k in key]),
                        [w & MASK for w in out["R%d" % i]], [w[i] for w in want])
        for c, k, w in KAT:
            if k == key:
                j = ctrs.index(c)
                got = tuple(out["R%d" % i][j] & MASK for i in range(4))
                if got != w:
                    failures.append("executor Philox on %s %s: %s" % (c, k, got))
                else:
                    print("executor matches Random123's known answer for key %s" % (k,))


def dropout_keep(r, c, seed, seed_hi, offset, p):
    """keep[r, c] as kernels/dropout.mlir defines its stream."""
    g = (c // 512) * 128 + c % 128
    w = philox4x32_10(g, r, offset, 0, seed, seed_hi)[(c // 128) % 4]
    u = f32((w >> 8) * 2.0**-24)
    return u < f32(1.0 - f32(p))


def dropout(a, rng):
    dt = a.dtype
    if not check_kat():
        return
    m, n = a.m, a.n
    x = [round_to(rng.uniform(-3, 3), dt) for _ in range(m * n)]
    run = Run(a)
    float_view(run, "X", dt, [m, n], x)
    run.poison("Y", dt, [m, n])
    run.scalar("f32", repr(f32(a.p)))
    seed, seed_hi = a.seed_key & MASK, (a.seed_key >> 32) & MASK
    run.scalar("i32", signed32(seed))
    run.scalar("i32", signed32(seed_hi))
    run.scalar("i32", a.offset)
    params = merged(a.params, "DTYPE=%s" % dt)
    out = run.run("dropout.mlir", params, [cdiv(m, param(params, "ROWS", 16)), cdiv(n, 512)])
    keep = [dropout_keep(i // n, i % n, seed, seed_hi, a.offset & MASK, a.p) for i in range(m * n)]
    scale = f32(1.0 / f32(1.0 - f32(a.p))) if a.p < 1 else math.inf
    # Kept: the f32 product x * scale rounded to the storage type, exactly.
    y = [round_to(f32(e * scale), dt) if k else 0.0 for e, k in zip(x, keep)]
    check_exact("Y", out["Y"], y)
    frac = sum(keep) / len(keep)
    sd = math.sqrt(a.p * (1 - a.p) / len(keep))
    print("keep fraction %.4f (1 - p = %.4f, sd %.4f)" % (frac, 1 - a.p, sd))
    if len(keep) >= 1000 and abs(frac - (1 - a.p)) > 6 * sd + 1e-9:
        failures.append("keep fraction %r too far from %r" % (frac, 1 - a.p))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tile-exec", required=True)
    p.add_argument("--kernels", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--params", default="")
    common.add_argument("--seed", type=int, default=0)
    common.add_argument("--dtype", default="f16", choices=["f16", "bf16", "f32"])
    common.add_argument("--lo", type=float, default=-4.0)
    common.add_argument("--hi", type=float, default=4.0)
    sub = p.add_subparsers(dest="problem", required=True)
    s = sub.add_parser("xent", parents=[common])
    s.add_argument("--t", type=int, required=True)
    s.add_argument("--v", type=int, required=True)
    s.add_argument("--tgt", default="i64", choices=["i32", "i64"])
    s.add_argument("--ignore", type=int, default=-100)
    s.add_argument("--no-grad", dest="grad", action="store_false")
    s.add_argument("--neg-inf-row", action="store_true")
    s.add_argument("--in-place", action="store_true")
    for name in ("swiglu", "gelu"):
        s = sub.add_parser(name, parents=[common])
        s.add_argument("--t", type=int, required=True)
        s.add_argument("--f", type=int, required=True)
        s.add_argument("--backward", action="store_true")
        if name == "gelu":
            s.add_argument("--erf", action="store_true")
    s = sub.add_parser("dropout", parents=[common])
    s.add_argument("--m", type=int, required=True)
    s.add_argument("--n", type=int, required=True)
    s.add_argument("--p", type=float, default=0.25)
    s.add_argument("--seed-key", type=int, default=0x123456789ABCDEF0)
    s.add_argument("--offset", type=int, default=0)
    s = sub.add_parser("philox", parents=[common])
    s.add_argument("--n", type=int, default=300)
    a = p.parse_args()
    rng = random.Random(a.seed)
    {"xent": xent, "swiglu": swiglu, "gelu": gelu, "dropout": dropout,
     "philox": philox_raw}[a.problem](a, rng)
    if failures:
        for f in failures:
            print("FAIL:", f)
        print("seed %d" % a.seed)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
