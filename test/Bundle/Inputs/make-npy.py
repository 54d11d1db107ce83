#!/usr/bin/env python3
"""Writes hostile .npy files of issue 26 into OUT: a header whose shape
has no value, and one nested 100 levels deep; both of 5x64 <f4 data."""

import os
import sys

out = sys.argv[1]


def npy(name, header):
    header = header + " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    data = b"\0" * (5 * 64 * 4)
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        f.write(header.encode() + data)


npy("noshape.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': , }")
npy("deep.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': " +
    "(" * 100 + "5, 64" + ")" * 100 + ", }")
