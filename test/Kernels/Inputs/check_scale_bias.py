#!/usr/bin/env python3
"""float64 reference of test/Kernels/Inputs/scale_bias.mlir (the kernel of
docs/walkthrough.md): reads tile-exec's views X, B and Y, printed as bit
patterns (--hex: the exact values), from stdin and checks Y = alpha * X + B
within half an ulp of the storage type plus what the f32 math adds (a
multiply and an add, each rounded to f32, before the one rounding to the
storage type). Pure Python.

    tile-exec ... --hex | check_scale_bias.py ALPHA f16|bf16|f32
"""

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


alpha, dtype = float(sys.argv[1]), sys.argv[2]
# Half an ulp, relative; plus an absolute term for values near 0.
half_ulp = {"f16": 2.0**-11, "bf16": 2.0**-8, "f32": 2.0**-24}[dtype]
tiny = {"f16": 2.0**-25, "bf16": 2.0**-134, "f32": 2.0**-150}[dtype]

views = {}
for line in sys.stdin:
    m = re.match(r"(\w+)(?:\[(\d+)\])?: (.*)", line.strip())
    if m:
        views.setdefault(m.group(1), []).append([value(v, dtype) for v in m.group(3).split()])
x, (b,), y = views["X"], views["B"], views["Y"]
if len(x) != len(y) or any(len(r) != len(b) for r in x + y):
    sys.exit("shapes differ: X %d rows, Y %d rows, B %d" % (len(x), len(y), len(b)))
worst, count = 0.0, 0
for xr, yr in zip(x, y):
    for xv, bv, yv in zip(xr, b, yr):
        ref = alpha * xv + bv
        err = abs(yv - ref)
        # f32 rounding of the product and of the sum, then of the result.
        f32 = (abs(alpha * xv) + abs(ref)) * 2.0**-24
        if err > abs(ref) * half_ulp + f32 * (1 + half_ulp) + tiny:
            sys.exit("Y differs: %r, float64 reference %r" % (yv, ref))
        worst = max(worst, err)
        count += 1
print("ok: %d elements within half an ulp of %s, max error %g" % (count, dtype, worst))
