#!/usr/bin/env python3
"""Checks that a ```mlir block of docs/walkthrough.md (the first, or the one
of index N counting from 0) is the kernel file it describes
(test/Kernels/Inputs/scale_bias.mlir; kernels/pool_mean.mlir is block 1),
so that the page and the tested kernel stay one.

    walkthrough_block.py docs/walkthrough.md test/Kernels/Inputs/scale_bias.mlir [N]
"""

import sys

page = open(sys.argv[1], encoding="utf-8").read()
index = int(sys.argv[3]) if len(sys.argv) > 3 else 0
start = -1
for _ in range(index + 1):
    start = page.index("```mlir\n", start + 1)
start += len("```mlir\n")
block = page[start:page.index("```", start)]
kernel = open(sys.argv[2], encoding="utf-8").read()
if block != kernel:
    sys.exit("%s: ```mlir block %d differs from %s" % (sys.argv[1], index, sys.argv[2]))
print("ok: the page's kernel is %s" % sys.argv[2])
