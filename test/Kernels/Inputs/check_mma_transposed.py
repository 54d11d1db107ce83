#!/usr/bin/env python3
"""Runs test/Kernels/Inputs/mma_transposed.mlir (C = A^T B^T, A [K, M],
B [N, K]) on tile-exec and checks C against float64 (pure Python): every
element within K * 2^-24 times the sum of its terms' magnitudes (the bound
of an f32 accumulation of K exact products of 16-bit values). Inputs are
random and rounded to DTYPE first; C is poisoned with NaN, so an element
not written fails.

    check_mma_transposed.py --tile-exec BIN --kernel FILE --m 100 --n 70 --k 90
        [--dtype f16|bf16] [--params BLOCK_M=64,...] [--seed S] [--wrong]

--wrong compares with A^T B instead (B read untransposed; needs n == k), so
the test can show the check is not vacuous.
"""

import argparse
import array
import os
import random
import struct
import subprocess
import sys
import tempfile


def round_dtype(x, dtype):
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def write_npy(path, rows):
    shape = (len(rows), len(rows[0]))
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % shape
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(array.array("d", [v for r in rows for v in r]).tobytes())


def read_npy(path):
    data = open(path, "rb").read()
    length = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + length].decode("latin1")
    body = data[10 + length:]
    descr = header.split("'descr':")[1].split("'")[1]
    code = {"<f2": "e", "<f4": "f", "<f8": "d"}[descr]
    n = len(body) // struct.calcsize(code)
    return list(struct.unpack("<%d%s" % (n, code), body))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tile-exec", required=True)
    p.add_argument("--kernel", required=True)
    p.add_argument("--m", type=int, required=True)
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--k", type=int, required=True)
    p.add_argument("--dtype", default="f16")
    p.add_argument("--params", default="")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--wrong", action="store_true")
    args = p.parse_args()
    params = dict(kv.split("=") for kv in args.params.split(",") if kv)
    block_m = int(params.get("BLOCK_M", 64))
    block_n = int(params.get("BLOCK_N", 64))
    rng = random.Random(args.seed)
    M, N, K = args.m, args.n, args.k
    a = [[round_dtype(rng.uniform(-1, 1), args.dtype) for _ in range(M)] for _ in range(K)]
    b = [[round_dtype(rng.uniform(-1, 1), args.dtype) for _ in range(K)] for _ in range(N)]
    with tempfile.TemporaryDirectory() as tmp:
        f = lambda name: os.path.join(tmp, name + ".npy")
        write_npy(f("A"), a)
        write_npy(f("B"), b)
        write_npy(f("C"), [[float("nan")] * N for _ in range(M)])
        bind = ",".join(["DTYPE=" + args.dtype] + [k + "=" + v for k, v in params.items()])
        grid = "%d,%d,1" % (-(-M // block_m), -(-N // block_n))
        cmd = [args.tile_exec, args.kernel, "--bind=" + bind, "--grid=" + grid,
               "--arg=@" + f("A"), "--arg=@" + f("B"), "--arg=@" + f("C"),
               "--print=", "--save=C=" + f("out")]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("tile-exec failed:\n" + run.stderr)
        c = read_npy(f("out"))
    if args.wrong and N != K:
        sys.exit("--wrong needs n == k")
    # C[i][j] = sum_k A[k][i] * B[j][k]; --wrong: sum_k A[k][i] * B[k][j].
    bad, worst, first = 0, 0.0, None
    for i in range(M):
        for j in range(N):
            terms = [a[k][i] * (b[k][j] if args.wrong else b[j][k]) for k in range(K)]
            ref, mag = sum(terms), sum(abs(t) for t in terms)
            got = c[i * N + j]
            err = abs(got - ref)
            if not err <= K * 2.0**-24 * mag:  # NaN (not written) is bad too
                bad += 1
                first = first or (i, j, got, ref)
            elif err > worst:
                worst = err
    print("C %dx%d elements, max error %.3g" % (M, N, worst))
    if bad:
        print("FAIL: %d bad elements, first C[%d, %d] = %r, float64 %r" % ((bad,) + first))
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
