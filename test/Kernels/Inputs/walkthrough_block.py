#!/usr/bin/env python3
"""Checks that the first ```mlir block of docs/walkthrough.md is the kernel
file it describes (test/Kernels/Inputs/scale_bias.mlir), so that the page
and the tested kernel stay one.

    walkthrough_block.py docs/walkthrough.md test/Kernels/Inputs/scale_bias.mlir
"""

import sys

page = open(sys.argv[1], encoding="utf-8").read()
start = page.index("```mlir\n") + len("```mlir\n")
block = page[start:page.index("```", start)]
kernel = open(sys.argv[2], encoding="utf-8").read()
if block != kernel:
    sys.exit("%s: the ```mlir block differs from %s" % (sys.argv[1], sys.argv[2]))
print("ok: the page's kernel is %s" % sys.argv[2])
