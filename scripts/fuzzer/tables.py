"""The tables that drive the fuzzer: per-tool options and their valid
values, command lines beyond the lit RUN lines, target groups. A tool or
an option is added here, as data."""

import os

from . import ROOT
from .values import WORK_LIMITS


# Options whose values the command-line mutator replaces, per tool. `kind`
# as in value_for(); a value outside it must make the tool fail. Options of
# the form --name=value and "--name value" are both recognized in the lit
# RUN lines. Add the new tile-runner options here.
OPTIONS = {
    "tile-compile": {
        "--num-warps": ("choice", ["0", "1", "2", "4", "8", "16", "32"]),
        "--occupancy": ("llvm-int", 0, 32),
        "--stages": ("llvm-int", 0, 64),
        "--chip": ("choice", ["sm_80", "sm_86", "sm_87", "sm_89", "sm_90",
                              "sm_90a", "sm_100", "sm_120"]),
        "--shared-layout": ("choice", ["padded", "swizzled"]),
        "--sync": ("choice", ["auto", "barrier", "mbarrier"]),
        "--warp-specialize": ("choice", ["auto", "on", "off"]),
        "--ping-pong": ("choice", ["auto", "on", "off"]),
        "--tma": ("choice", ["auto", "on", "off"]),
        "--coalesce-stores": ("choice", ["auto", "on", "off"]),
        "--emit": ("choice", ["tile", "tilegpu", "nvvm", "ptx"]),
        "--producer-regs": ("int-set", list(range(24, 257, 8))),
        "--view-align": ("int-set", [1, 2, 4, 8, 16]),
        "--mma-version": ("int-set", [0, 2, 3]),
    },
    "tile-exec": {
        # tile-exec takes each size up to 2^31 - 1 (its work limit bounds
        # what runs).
        "--grid": ("int", 0, 2**31 - 1),
        "--num-threads": ("llvm-int", 0, 1024),
        "--max-work": ("int-values", 0, 2**63 - 1, WORK_LIMITS),
    },
    "tile-runner": {
        "--batch": ("int", 1, 2**31 - 1),
        "--heads": ("int", 1, 2**31 - 1),
        "--head-dim": ("int", 1, 2**31 - 1),
        "--seq": ("int", 1, 2**31 - 1),
        "--seq-q": ("int", 1, 2**31 - 1),
        "--seq-k": ("int", 1, 2**31 - 1),
        "--reps": ("int", 1, 2**31 - 1),
        "--dtype": ("choice", ["f16", "bf16"]),
        "--backend": ("choice", ["cpu", "gpu", "auto"]),
        "--problem": ("choice", ["attention", "gemm", "softmax", "layernorm"]),
        "--seed": ("int", 0, 2**63 - 1),
        "--max-work": ("int-values", 0, 2**63 - 1, WORK_LIMITS),
    },
    "tile-bundle": {
        "--num-warps": ("int", 1, 32),
        "--occupancy": ("int", 0, 32),
        "--shared-bytes": ("int", 0, 2**63 - 1),
    },
    "tile-opt": {},
}

# Command lines beyond the lit RUN lines. {kernel}: a kernels/*.mlir file
# (mutated), {input}: any .mlir of the corpus (mutated), {npy}: an .npy
# file of 5x64 floats (its header mutated), {bundle}: a copy of
# a test bundle with a mutated manifest, {bundle-problem}: the problem
# options that fit that bundle's params (--head-dim, --causal, --lse),
# {tmp}: a scratch folder.
INVOCATIONS = [
    ("tile-opt", ["{input}"]),
    ("tile-opt", ["{kernel}", "--tile-O3"]),
    ("tile-opt", ["{kernel}", "--pass-pipeline=builtin.module(tile-O3, tile-to-ptx)"]),
    ("tile-opt", ["{input}", "-test-tilegpu-layout-map"]),
    ("tile-opt", ["{input}", "--convert-tile-to-nvvm"]),
    ("tile-compile", ["{kernel}", "--emit=ptx", "--quiet"]),
    ("tile-compile", ["{kernel}", "--chip=sm_90a", "--num-warps=4",
                      "--tile-pipeline=tile-O3", "--emit=tilegpu", "--quiet"]),
    ("tile-compile", ["{kernel}", "--no-cubin", "--quiet", "-o", "{tmp}/b"]),
    ("tile-exec", ["{kernel}", "--compile-only"]),
    ("tile-exec", ["{input}", "--compile-only"]),
    ("tile-runner", ["--backend=gpu", "--dry-run", "--bundle", "{bundle}",
                     "{bundle-problem}"]),
    ("tile-runner", ["--backend=gpu", "--dry-run", "--json", "--bundle",
                     "{bundle}", "{bundle-problem}", "--seq", "1000"]),
    ("tile-runner", ["--backend=cpu", "--kernel", "{kernel}", "--params",
                     "TILE_M=32,TILE_N=32", "--seq", "40", "--head-dim", "64"]),
    ("tile-runner", ["--backend=cpu", "--kernel", "{kernel}", "--problem",
                     "gemm", "--shape", "M=37,N=24,K=40"]),
    ("tile-runner", ["--backend=cpu", "--kernel", "{kernel}", "--problem",
                     "softmax", "--shape", "M=5,N=100"]),
    ("tile-runner", ["--backend=cpu", "--kernel", "{kernel}", "--problem",
                     "layernorm", "--shape", "M=9,N=64"]),
    ("tile-bundle", ["check", "{bundle}"]),
    ("tile-bundle", ["format", "{bundle}/manifest.json"]),
    # {npy}: a 5x64 <f4 .npy file with a mutated header.
    ("tile-exec", [os.path.join(ROOT, "test/Runner/Inputs/kernels/softmax.mlir"),
                   "--bind=DTYPE=f32", "--grid=5", "--arg=@{npy}",
                   "--arg=f32[5x64]=zeros", "--print=none"]),
    ("tile-runner", ["--backend=cpu", "--kernel",
                     os.path.join(ROOT, "test/Runner/Inputs/kernels/softmax.mlir"),
                     "--arg", "X=@{npy}", "--arg", "Y=f32[5,64]"]),
    # The Python launcher: a fixture bundle (or its manifest or PTX) and a
    # call with fake tensors, either mutated (fuzzer/launcher.py).
    ("tile_launcher", []),
    ("tile_launcher", []),
]

# Invocation groups for --targets (the seeded minute of `make check` runs
# all).
TARGETS = {
    "compiler": ["tile-opt", "tile-compile", "tile-exec"],
    "runner": ["tile-runner", "tile-bundle"],
    # python/tile_launcher: load and plan (fuzzer/launcher.py).
    "launcher": ["tile_launcher"],
    "all": ["tile-opt", "tile-compile", "tile-exec", "tile-runner",
            "tile-bundle", "tile_launcher"],
}
