#!/usr/bin/env python3
"""Row softmax from kernels/softmax.mlir: compiled from Python, autotuned
per shape, and used as a PyTorch custom op under torch.compile.

Needs a GPU and PyTorch, and a built tile-compile (TILE_COMPILE, PATH or
the repository's build/bin) or the bundles it made elsewhere:

    TILE_LAUNCHER_AUTOTUNE_VERBOSE=1 python3 python/examples/softmax_autotune.py

The GPU machine has no MLIR: compile the candidates on the build machine
into a cache folder (no GPU needed there), carry it, run with it:

    TILE_LAUNCHER_CACHE_DIR=softmax-cache python3 python/examples/softmax_autotune.py --compile-only --chip sm_90a
    TILE_LAUNCHER_CACHE_DIR=softmax-cache python3 python/examples/softmax_autotune.py   # GPU machine

A second run takes the choices from the cache (~/.cache/tile_launcher, or
TILE_LAUNCHER_CACHE_DIR) without compiling or timing.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import tile_launcher as tl  # noqa: E402

SOURCE = os.path.join(HERE, "..", "..", "kernels", "softmax.mlir")
Config = tl.Config

# The whole-row variants (BLOCK_N >= N, refused by `requires` for longer
# rows), the online loop for any N, and 2-byte aligned views for odd N
# (kernels/softmax.mlir explains the choice of ROWS and warps).
CONFIGS = [Config({"ROWS": 32, "BLOCK_N": 128}, num_warps=4),
           Config({"ROWS": 4, "BLOCK_N": 1024}, num_warps=4),
           Config({"ROWS": 2, "BLOCK_N": 1024}, num_warps=4),
           Config({"ROWS": 2, "BLOCK_N": 2048}, num_warps=4),
           Config({"ROWS": 1, "BLOCK_N": 4096}, num_warps=8),
           Config({"ROWS": 1, "BLOCK_N": 8192}, num_warps=16),
           Config({"ROWS": 1, "BLOCK_N": 16384}, num_warps=16),
           Config({"ONLINE": True, "ROWS": 1, "BLOCK_N": 4096}, num_warps=8),
           Config({"ONLINE": True, "ROWS": 1, "BLOCK_N": 2048}, num_warps=8,
                  options=["--view-align=2"])]


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chip", default="auto")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile the candidates into the cache and stop (no GPU needed)")
    opts = ap.parse_args()
    if opts.compile_only:
        for c in CONFIGS:
            try:
                k = tl.compile(SOURCE, c.params, c.num_warps, opts.chip, c.options)
                print(f"{c.label()}: {k.manifest.dir}")
            except tl.CompileError as e:  # autotune skips it too
                print(f"{c.label()}: FAILED\n{e}")
        return
    import torch
    softmax = tl.autotune(CONFIGS, source=SOURCE, chip=opts.chip, warmup=25, rep=100)
    softmax_op = tl.register_op("tile::softmax", softmax, outputs={"Y": "X"})
    torch.manual_seed(0)
    for M, N in [(4096, 1024), (4096, 4096), (1024, 16384), (1000, 77)]:
        x = torch.randn(M, N, device="cuda", dtype=torch.float16) * 3
        y = softmax_op(x)                           # tunes this shape, then runs
        ref = torch.softmax(x.float(), dim=1)
        err = (y.float() - ref).abs().max().item()
        key = softmax.key_of({"X": x, "Y": y})
        entry = softmax.results[key]
        print(f"{M}x{N}: {entry['best_label']} {entry['ms'] * 1e3:.1f} us, "
              f"max error {err:.2e}")
    # The op inside a compiled function: no graph break, CUDA graphs.
    x = torch.randn(4096, 1024, device="cuda", dtype=torch.float16)
    f = torch.compile(lambda x: softmax_op(x * 0.5) + 1, fullgraph=True,
                      mode="reduce-overhead")
    for _ in range(3):
        out = f(x)
    torch.testing.assert_close(out.float(), torch.softmax(x.float() * 0.5, 1) + 1,
                               atol=2e-3, rtol=2e-3)
    print("torch.compile(fullgraph=True, mode='reduce-overhead'): ok")


if __name__ == "__main__":
    main()
