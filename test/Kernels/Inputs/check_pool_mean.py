#!/usr/bin/env python3
"""float64 reference of kernels/pool_mean.mlir (docs/walkthrough.md section
7): reads tile-exec's views X [M, N * P] and Y [M, N], printed as bit
patterns (--hex: the exact values), from stdin and checks
Y[i, j] = mean(X[i, P j .. P j + P - 1]) within half an ulp of the storage
type plus what the f32 math adds (P - 1 additions and a division, each
rounded to f32). Every element of Y must be written (Y is poisoned with NaN
before the run). Pure Python.

    tile-exec ... --hex | check_pool_mean.py P f16|bf16|f32
"""

import math
import re
import struct
import sys


def value(text, dtype):
    bits = int(text, 16)
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if dtype == "bf16":
        bits <<= 16
    return struct.unpack("<f", struct.pack("<I", bits))[0]


p, dtype = int(sys.argv[1]), sys.argv[2]
half_ulp = {"f16": 2.0**-11, "bf16": 2.0**-8, "f32": 2.0**-24}[dtype]
tiny = {"f16": 2.0**-25, "bf16": 2.0**-134, "f32": 2.0**-150}[dtype]

views = {}
for line in sys.stdin:
    m = re.match(r"(\w+)(?:\[(\d+)\])?: (.*)", line.strip())
    if m:
        views.setdefault(m.group(1), []).append([value(v, dtype) for v in m.group(3).split()])
x, y = views["X"], views["Y"]
if len(x) != len(y) or any(len(xr) != p * len(yr) for xr, yr in zip(x, y)):
    sys.exit("shapes differ: X %d rows of %d, Y %d rows of %d, P %d"
             % (len(x), len(x[0]), len(y), len(y[0]), p))
worst, count = 0.0, 0
for i, (xr, yr) in enumerate(zip(x, y)):
    for j, yv in enumerate(yr):
        run = xr[p * j: p * j + p]
        ref = math.fsum(run) / p
        if math.isnan(yv):
            sys.exit("Y[%d, %d] was not written (NaN)" % (i, j))
        err = abs(yv - ref)
        f32 = sum(abs(v) for v in run) / p * p * 2.0**-23
        if err > abs(ref) * half_ulp + f32 * (1 + half_ulp) + tiny:
            sys.exit("Y[%d, %d] = %r, float64 reference %r" % (i, j, yv, ref))
        worst = max(worst, err)
        count += 1
print("ok: %d elements within half an ulp of %s, max error %g" % (count, dtype, worst))
