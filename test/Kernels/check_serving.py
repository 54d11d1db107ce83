#!/usr/bin/env python3
"""Checks the serving attention kernels (kernels/paged_decode.mlir,
kernels/varlen_fmha.mlir) on the CPU reference executor against a float64
reference written independently of the kernels, in pure Python (no numpy:
the project's test machines do not have it).

    check_serving.py --tile-exec BIN --kernels DIR paged --seq-lens 0,17,300 \
        --q-len 2 --kv-heads 2 --group 4 --head-dim 64 --page-size 16 \
        --splits 3 --dtype f16 [--params TILE_N=16,...] [--pipeline tile-O3]
    check_serving.py --tile-exec BIN --kernels DIR varlen --seqlens-q 1,0,77 \
        --seqlens-k 1,5,200 --heads 4 --kv-heads 2 --head-dim 64 --causal

What it does:
  1. makes seeded random inputs, rounded to the dtype, and writes them as
     .npy files (f32 values exactly representable in the dtype; i32 tables);
     outputs are poisoned with NaN. For paged decode the pages are a
     shuffled subset of a larger cache (page 0 and the last page in use:
     indices at the edges), every cache row that no sequence owns (free
     pages, rows past a sequence's length in its last page) is NaN, and
     block-table entries past a sequence's pages are -1 or past the cache:
     the kernel must neither read nor use them.
  2. runs tile-exec (grid from the kernel's rule, evaluated here) and reads
     the outputs back (--save);
  3. computes the float64 reference and FlashAttention's 2x rule: every
     output element finite (written) and |out - ref| <= 2 * e_lp + atol,
     e_lp the largest error of the same computation with P and O rounded
     to the dtype, atol two rounding steps of the dtype around the values;
     rows that see no key exactly 0; the natural-log LSE within 1e-4
     (relative to max(1, |lse|)), -inf for rows that see no key. Paged
     decode must also leave its ticket counters at 0.
Exit status 0 on PASS, 1 on FAIL, 2 on usage errors.
"""

import argparse
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

# --- rounding to the storage types --------------------------------------------


def round_f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def round_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def round_bf16(x):
    if math.isnan(x) or math.isinf(x):
        return x
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    bits += 0x7FFF + ((bits >> 16) & 1)  # round to nearest, ties to even
    return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF0000) & 0xFFFFFFFF))[0]


ROUND = {"f16": round_f16, "bf16": round_bf16, "f32": round_f32}

# --- .npy files -----------------------------------------------------------------


def write_npy(path, shape, values, descr):
    fmt = {"<f4": "f", "<i4": "i"}[descr]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape) if len(shape) != 1 else "%d," % shape[0])
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy(path):
    data = open(path, "rb").read()
    hlen = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hlen].decode()
    descr = re.search(r"'descr': '([^']*)'", header).group(1)
    shape = tuple(int(x) for x in re.findall(r"\d+", re.search(r"'shape': \(([^)]*)\)", header).group(1)))
    body = data[10 + hlen:]
    n = math.prod(shape)
    fmt = {"<f2": "e", "<f4": "f", "<i4": "i"}[descr]
    return shape, list(struct.unpack("<%d%s" % (n, fmt), body[:n * struct.calcsize(fmt)]))


# --- the kernel's launch metadata (as check_kernel.py) ---------------------------


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


def run_kernel(args, kernel, bind, views, outputs, tmp):
    """views: list of (name, shape, values, descr) or (name, 'f32', value)
    scalars, in argument order. Returns {name: values} of outputs."""
    params, grid_rule, requires = kernel_metadata(kernel)
    for kv in bind.split(","):
        if kv:
            k, v = kv.split("=")
            params[k] = v
    sizes = {v[0]: v[1] for v in views if len(v) == 4}
    for clause in requires:
        if not evaluate(clause, params, sizes):
            print("requires refused: %s" % clause)
            sys.exit(3)
    grid = [evaluate(g, params, sizes) for g in grid_rule]
    cmd = [args.tile_exec, kernel, "--bind=" + bind, "--grid=%d,%d,%d" % tuple(grid),
           "--print=__none__"]
    if args.pipeline:
        cmd.append("--pipeline=" + args.pipeline)
    for v in views:
        if len(v) == 3:
            cmd.append("--arg=%s=%r" % (v[1], v[2]))
            continue
        name, shape, values, descr = v
        path = os.path.join(tmp, name + ".npy")
        write_npy(path, shape, values, descr)
        cmd.append("--arg=@" + path)
    for name in outputs:
        cmd.append("--save=%s=%s" % (name, os.path.join(tmp, name + ".out.npy")))
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        print("tile-exec failed (%d): %s" % (proc.returncode, proc.stderr.strip()[:2000]))
        sys.exit(1)
    return grid, {n: read_npy(os.path.join(tmp, n + ".out.npy"))[1] for n in outputs}


# --- the reference ----------------------------------------------------------------


def attend(q, keys, vals, scale, rnd):
    """One query row against its visible keys: (O in float64, O with P and O
    rounded to the dtype (the low-precision reference), natural-log LSE).
    No key: zeros and -inf."""
    d = len(q)
    if not keys:
        return [0.0] * d, [0.0] * d, -math.inf
    s = [math.fsum(q[c] * k[c] for c in range(d)) * scale for k in keys]
    mx = max(s)
    e = [math.exp(x - mx) for x in s]
    tot = math.fsum(e)
    out = [math.fsum(e[n] * vals[n][c] for n in range(len(keys))) / tot for c in range(d)]
    p_lp = [rnd(x / tot) for x in e]
    out_lp = [rnd(math.fsum(p_lp[n] * vals[n][c] for n in range(len(keys)))) for c in range(d)]
    return out, out_lp, mx + math.log(tot)


class Checker:
    def __init__(self, dtype):
        self.dtype = dtype
        self.rnd = ROUND[dtype]
        self.err = 0.0
        self.lp_err = 0.0
        self.atol_half = 0.0
        self.lse_err = 0.0
        self.failures = []
        self.elements = 0

    def fail(self, msg):
        if len(self.failures) < 10:
            self.failures.append(msg)

    def row(self, where, got, ref, ref_lp, got_lse, ref_lse):
        for c, (g, r, rl) in enumerate(zip(got, ref, ref_lp)):
            self.elements += 1
            if not math.isfinite(g):
                self.fail("%s[%d]: %r (not written or not finite)" % (where, c, g))
                continue
            self.err = max(self.err, abs(g - r))
            self.lp_err = max(self.lp_err, abs(rl - r))
            rr = self.rnd(r)
            self.atol_half = max(self.atol_half, abs(self.rnd(self.rnd(rr + 0.3) - 0.3) - rr))
        if ref_lse == -math.inf:
            if any(g != 0.0 for g in got):
                self.fail("%s: a row that sees no key is not 0" % where)
            if got_lse != -math.inf:
                self.fail("%s: LSE %r of a row that sees no key is not -inf" % (where, got_lse))
        elif not math.isfinite(got_lse):
            self.fail("%s: LSE %r not finite (ref %r)" % (where, got_lse, ref_lse))
        else:
            self.lse_err = max(self.lse_err, abs(got_lse - ref_lse) / max(1.0, abs(ref_lse)))

    def verdict(self):
        tol = 2 * self.lp_err + 2 * self.atol_half
        print("elements %d, max error %.3g, low-precision reference error %.3g, "
              "tolerance %.3g, LSE relative error %.3g"
              % (self.elements, self.err, self.lp_err, tol, self.lse_err))
        if self.err > tol:
            self.fail("max error %.3g exceeds 2 * %.3g + %.3g" % (self.err, self.lp_err,
                                                                2 * self.atol_half))
        if self.lse_err > 1e-4:
            self.fail("LSE error %.3g > 1e-4" % self.lse_err)
        for f in self.failures:
            print("  " + f)
        print("PASS" if not self.failures else "FAIL")
        return 0 if not self.failures else 1


def rand_values(rng, n, rnd, std):
    return [rnd(rng.gauss(0.0, std)) for _ in range(n)]


# --- paged decode -----------------------------------------------------------------


def paged(args, tmp):
    rng = random.Random(args.seed)
    rnd = ROUND[args.dtype]
    lens = [int(x) for x in args.seq_lens.split(",")]
    B, Sq, Hkv, G, D, PS = len(lens), args.q_len, args.kv_heads, args.group, args.head_dim, args.page_size
    H = Hkv * G
    pages_of = [-(-L // PS) for L in lens]
    max_pages = max(pages_of + [1]) + args.extra_slots
    used = sum(pages_of)
    num_pages = used + args.free_pages
    # Page ids in use: a random subset of the cache, with 0 and the last page
    # among them when enough pages are in use.
    chosen = rng.sample(range(num_pages), used)
    for edge in (0, num_pages - 1):
        if used >= 2 and edge not in chosen:
            i = next(i for i, x in enumerate(chosen) if x not in (0, num_pages - 1))
            chosen[i] = edge
    rng.shuffle(chosen)
    table = []
    owner = {}
    it = iter(chosen)
    for b in range(B):
        row = []
        for p in range(max_pages):
            if p < pages_of[b]:
                pid = next(it)
                owner[pid] = (b, p)
                row.append(pid)
            else:
                row.append(-1 if (p + b) % 2 else num_pages + 7)  # never read
        table.append(row)
    nan = float("nan")
    kc = [nan] * (num_pages * PS * Hkv * D)
    vc = [nan] * (num_pages * PS * Hkv * D)
    for pid, (b, p) in owner.items():
        for r in range(PS):
            if p * PS + r >= lens[b]:
                continue
            for h in range(Hkv):
                base = ((pid * PS + r) * Hkv + h) * D
                kc[base:base + D] = rand_values(rng, D, rnd, args.std)
                vc[base:base + D] = rand_values(rng, D, rnd, 1.0)
    q = rand_values(rng, B * Sq * H * D, rnd, args.std)
    scale = round_f32(1.0 / math.sqrt(D))
    splits = args.splits
    qt = args.q_tile
    rows = qt * G
    bind = "PAGE_SIZE=%d,Q_TILE=%d,ROWS=%d,QUERY_GROUP_SIZE=%d,HEAD_DIM=%d,DTYPE=%s" % (
        PS, qt, rows, G, D, args.dtype)
    if args.params:
        bind += "," + args.params
    views = [
        ("Q", (B, Sq, H, D), q, "<f4"),
        ("KCache", (num_pages, PS, Hkv, D), kc, "<f4"),
        ("VCache", (num_pages, PS, Hkv, D), vc, "<f4"),
        ("BlockTable", (B, max_pages), [x for r in table for x in r], "<i4"),
        ("SeqLens", (B,), lens, "<i4"),
        ("Out", (B, Sq, H, D), [nan] * (B * Sq * H * D), "<f4"),
        ("Lse", (B, Sq, H), [nan] * (B * Sq * H), "<f4"),
        ("PartO", (B, Hkv, splits, rows, D), [nan] * (B * Hkv * splits * rows * D), "<f4"),
        ("PartLse", (B, Hkv, splits, rows), [nan] * (B * Hkv * splits * rows), "<f4"),
        ("Count", (B, Hkv), [0] * (B * Hkv), "<i4"),
        ("qk_scale", "f32", scale),
    ]
    grid, res = run_kernel(args, os.path.join(args.kernels, "paged_decode.mlir"), bind,
                           views, ["Out", "Lse", "Count"], tmp)
    print("paged_decode grid %s, B=%d Sq=%d H=%d Hkv=%d D=%d page %d, %s, lens %s"
          % (grid, B, Sq, H, Hkv, D, PS, args.dtype, lens))
    chk = Checker(args.dtype)
    out, lse, count = res["Out"], res["Lse"], res["Count"]
    if any(c != 0 for c in count):
        chk.fail("Count not reset to 0: %s" % count)
    for b in range(B):
        L = lens[b]
        keys_of = {}
        for h in range(Hkv):
            ks, vs = [], []
            for n in range(L):
                pid = table[b][n // PS]
                base = ((pid * PS + n % PS) * Hkv + h) * D
                ks.append(kc[base:base + D])
                vs.append(vc[base:base + D])
            keys_of[h] = (ks, vs)
        for s in range(Sq):
            visible = min(L - Sq + s + 1, L)
            for h in range(H):
                ks, vs = keys_of[h // G]
                qb = ((b * Sq + s) * H + h) * D
                o, olp, l = attend(q[qb:qb + D], ks[:max(visible, 0)], vs[:max(visible, 0)],
                                   scale, rnd)
                chk.row("Out[%d,%d,%d]" % (b, s, h), out[qb:qb + D], o, olp,
                        lse[(b * Sq + s) * H + h], l)
    return chk.verdict()


# --- varlen forward -------------------------------------------------------------


def varlen(args, tmp):
    rng = random.Random(args.seed)
    rnd = ROUND[args.dtype]
    lq = [int(x) for x in args.seqlens_q.split(",")]
    lk = [int(x) for x in args.seqlens_k.split(",")]
    if len(lq) != len(lk):
        print("--seqlens-q and --seqlens-k differ in length")
        return 2
    B, H, Hkv, D = len(lq), args.heads, args.kv_heads, args.head_dim
    G = H // Hkv
    cq = [0]
    ck = [0]
    for a, b in zip(lq, lk):
        cq.append(cq[-1] + a)
        ck.append(ck[-1] + b)
    tq, tk = max(cq[-1], 1), max(ck[-1], 1)
    q = rand_values(rng, tq * H * D, rnd, args.std)
    k = rand_values(rng, tk * Hkv * D, rnd, args.std)
    v = rand_values(rng, tk * Hkv * D, rnd, 1.0)
    nan = float("nan")
    scale = round_f32(1.0 / math.sqrt(D))
    bind = "HEAD_DIM=%d,QUERY_GROUP_SIZE=%d,CAUSAL=%s,DTYPE=%s" % (
        D, G, "true" if args.causal else "false", args.dtype)
    if args.params:
        bind += "," + args.params
    views = [
        ("Q", (tq, H, D), q, "<f4"),
        ("K", (tk, Hkv, D), k, "<f4"),
        ("V", (tk, Hkv, D), v, "<f4"),
        ("CuSeqlensQ", (B + 1,), cq, "<i4"),
        ("CuSeqlensK", (B + 1,), ck, "<i4"),
        ("Out", (tq, H, D), [nan] * (tq * H * D), "<f4"),
        ("Lse", (H, tq), [nan] * (tq * H), "<f4"),
        ("qk_scale", "f32", scale),
    ]
    grid, res = run_kernel(args, os.path.join(args.kernels, "varlen_fmha.mlir"), bind,
                           views, ["Out", "Lse"], tmp)
    print("varlen_fmha grid %s, H=%d Hkv=%d D=%d %s causal=%s, q lens %s, k lens %s"
          % (grid, H, Hkv, D, args.dtype, args.causal, lq, lk))
    chk = Checker(args.dtype)
    out, lse = res["Out"], res["Lse"]
    for b in range(B):
        for i in range(lq[b]):
            t = cq[b] + i
            visible = lk[b]
            if args.causal:  # bottom-right: the last query sees every key
                visible = max(0, min(lk[b], lk[b] - lq[b] + i + 1))
            for h in range(H):
                hk = h // G
                ks = [k[((ck[b] + n) * Hkv + hk) * D:((ck[b] + n) * Hkv + hk) * D + D]
                      for n in range(visible)]
                vs = [v[((ck[b] + n) * Hkv + hk) * D:((ck[b] + n) * Hkv + hk) * D + D]
                      for n in range(visible)]
                qb = (t * H + h) * D
                o, olp, l = attend(q[qb:qb + D], ks, vs, scale, rnd)
                chk.row("Out[%d,%d]" % (t, h), out[qb:qb + D], o, olp, lse[h * tq + t], l)
    if cq[-1] == 0 and any(math.isfinite(x) for x in out):
        chk.fail("an empty batch wrote Out")
    return chk.verdict()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tile-exec", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--pipeline", default="")
    sub = ap.add_subparsers(dest="problem", required=True)
    for name in ("paged", "varlen"):
        p = sub.add_parser(name)
        p.add_argument("--dtype", default="f16", choices=["f16", "bf16"])
        p.add_argument("--head-dim", type=int, default=64)
        p.add_argument("--kv-heads", type=int, default=2)
        p.add_argument("--params", default="")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--std", type=float, default=1.0)
    p = sub.choices["paged"]
    p.add_argument("--seq-lens", required=True)
    p.add_argument("--q-len", type=int, default=1)
    p.add_argument("--q-tile", type=int, default=4)
    p.add_argument("--group", type=int, default=4)
    p.add_argument("--page-size", type=int, default=16)
    p.add_argument("--splits", type=int, default=1)
    p.add_argument("--free-pages", type=int, default=2)
    p.add_argument("--extra-slots", type=int, default=1)
    p = sub.choices["varlen"]
    p.add_argument("--seqlens-q", required=True)
    p.add_argument("--seqlens-k", required=True)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--causal", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        return paged(args, tmp) if args.problem == "paged" else varlen(args, tmp)


if __name__ == "__main__":
    sys.exit(main())
