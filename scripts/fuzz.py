#!/usr/bin/env python3
"""Hostile-input fuzzer of the tile compiler's tools (`make fuzz`).

Mutates the kernels (kernels/*.mlir), the lit inputs (test/**/*.mlir), the
bundle manifests (test/Runner/Inputs/bundles/*/manifest.json) and the
command lines of the lit RUN lines and of the table below, runs the tools,
and classifies every run:

  crash          a signal, an exit status above 128, "PLEASE submit a bug
                 report", "LLVM ERROR", an uncaught exception, a sanitizer
                 report, a stack dump
  hang           still running after --timeout seconds (20)
  silent accept  exit status 0 after a mutation known to make the input
                 invalid (out-of-range integers, garbage, truncated files,
                 links to /dev/zero, duplicated bindings, negative or huge
                 sizes, ...)
  fine           anything else (a located error is fine)

Each failing run is saved as a reproducer (the input, the command line, the
output) under --out, and the exit status is 1 when any was found.

Everything is driven by tables, so that a tool or an option is added by
editing data, not code:
  INVOCATIONS    command lines beyond the lit RUN lines (tool, arguments,
                 which inputs they take)
  OPTIONS        per tool, the options whose values are mutated: the valid
                 range or choices, so that a value outside it must be refused
  MLIR_MUTATORS, MANIFEST_MUTATORS
                 mutations of the inputs, each marked `invalid` when the
                 result is known to be invalid input
  TARGETS        groups of invocations selectable with --targets

Pure Python 3, no third-party packages. Child processes run in their own
process group under an address-space limit (--memory-limit), so that a
memory bomb fails in the child instead of waking the OOM killer.

  scripts/fuzz.py --build build --seed 1 --seconds 60
  scripts/fuzz.py --seconds 1800 --targets all --out build/fuzz
"""

import argparse
import fractions
import glob
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------

# Output that means the tool crashed even when it exited with a small status.
CRASH_PATTERNS = [
    "PLEASE submit a bug report",
    "LLVM ERROR",
    "Stack dump:",
    "terminate called",
    "std::bad_alloc",
    "Assertion `",
    "AddressSanitizer",
    "LeakSanitizer",
    "UndefinedBehaviorSanitizer",
    "runtime error:",
    "Segmentation fault",
    "Traceback (most recent call last)",
]

# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

# Integers a hostile user types: edges of every integer type, and beyond.
HOSTILE_INTS = [
    "0", "1", "-1", "2", "3", "7", "31", "33", "64", "127", "128", "255",
    "256", "1000", "65535", "65536", "2147483647", "2147483648",
    "-2147483648", "-2147483649", "4294967295", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "99999999999999999999", "18446744073709551616",
]
# Text that is not an integer.
GARBAGE = ["", "abc", "1.5", "1e10", "nan", "inf", "-inf", "0x10", " 4",
           "4 ", "+", "-", "1,2", "NaN", "1/0", "((((", "\x01", "true"]
HUGE_INTS = ["99999999999999999999", "18446744073709551616",
             "340282366920938463463374607431768211456"]
HUGE_SIZES = ["2147483648", "4294967296", "1099511627776",
              "9223372036854775807"]
FLOATS = ["0", "1", "-1", "0.5", "1e-45", "65504", "65520", "1e10", "1e39",
          "3.4028235e38", "nan", "inf", "-inf", "1e400", "-0"]

INT_RANGES = {
    "i1": (0, 1), "i8": (-2**7, 2**7 - 1), "i16": (-2**15, 2**15 - 1),
    "i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1),
    "index": (-2**63, 2**63 - 1),
}
# The largest finite value of each float type plus half an ulp of it, exactly: a
# value rounds (to nearest even) to a finite value iff its magnitude is below
# this (the largest value's significand is odd, so the tie goes to infinity).
FLOAT_OVERFLOW = {"f16": 65504 + 16, "bf16": 2**128 - 2**120 + 2**119,
                  "f32": 2**128 - 2**104 + 2**103}


def as_int(text):
    """The integer `text` spells in decimal, or None."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        return None
    return int(text)


def int_in(text, lo, hi):
    value = as_int(text)
    return value is not None and lo <= value <= hi


def float_fits(text, dtype):
    """Whether `text` is a value of float type `dtype` a tool must accept."""
    if text in ("nan", "inf", "-inf", "+inf"):
        return True
    try:
        value = float(text)
    except ValueError:
        return False
    if text.strip() != text or text.lower().startswith(("0x", "nan", "inf")):
        return False
    # float() takes "1_0" and "infinity"; strtod does not.
    if "_" in text or "inf" in text.lower() or "nan" in text.lower():
        return False
    # The decimal's exact value, not float()'s double: a double rounding
    # could move a value just below the edge onto it.
    return abs(fractions.Fraction(text)) < FLOAT_OVERFLOW[dtype]


# Values of --max-work: out of range or not integers, and limits at most
# the default. 0 and larger limits are valid too, but they ask for the long
# runs the limit prevents (a run the user allowed hours is not a hang).
WORK_LIMITS = ["-1", "abc", "", "1.5", "1e10", " 4", "0x10",
               "99999999999999999999", "9223372036854775808",
               "18446744073709551616", "1", "1000", "4294967296"]


# Options of the tile levels (tile-O0..tile-O3{...}) that take values, set
# in tile-compile's --tile-pipeline: every level must check them, also one
# that does not run the pass that reads them (tile-O1{group-size=0} exited
# 0 until 2026-12-02).
TILE_LEVEL_OPTIONS = {
    "persistent": ("llvm-int", 0, 2**31 - 1),
    "persistent-order": ("choice", ["grid", "paired"]),
    "group-size": ("llvm-int", 1, 2**31 - 1),
    "remap-mode": ("choice", ["auto", "reverse", "none"]),
}


def value_for(rng, kind):
    """A hostile value for an option of `kind` and whether a tool must
    refuse it. kind: ("int", lo, hi) | ("choice", [valid...]) |
    ("float", dtype) | ("llvm-int", lo, hi): an integer option parsed by
    LLVM's command line, which also takes hex | ("int-values", lo, hi,
    [texts]): an integer option whose values come from `texts` |
    ("int-set", [valid ints]): an integer option (LLVM's parser) whose
    valid values are those, tried with values around them."""
    if kind[0] == "int-values":
        text = rng.choice(kind[3])
        return text, not int_in(text, kind[1], kind[2])
    if kind[0] == "int-set":
        valid = kind[1]
        near = [v + d for v in (valid[0], valid[-1]) for d in (-1, 1)]
        text = rng.choice([str(v) for v in valid + near + [0, -valid[-1]]]
                          + GARBAGE[:8] + HOSTILE_INTS[:4])
        value = as_int(text)
        if value is None and text.lower().startswith("0x"):
            value = int(text, 16)
        return text, value not in valid
    if kind[0] in ("int", "llvm-int"):
        lo, hi = kind[1], kind[2]
        text = rng.choice(HOSTILE_INTS + GARBAGE[:8] + [str(lo), str(hi)])
        valid = int_in(text, lo, hi)
        # LLVM's command-line parser reads 0x10 as 16 (and checks the range).
        if kind[0] == "llvm-int" and text.lower().startswith("0x"):
            valid = lo <= int(text, 16) <= hi
        return text, not valid
    if kind[0] == "choice":
        valid = kind[1]
        text = rng.choice(valid + ["", "garbage", valid[0] + "x",
                                   valid[0].upper() + "_"])
        return text, text not in valid
    if kind[0] == "float":
        text = rng.choice(FLOATS + GARBAGE[:6])
        return text, not float_fits(text, kind[1])
    raise ValueError(kind)

# ---------------------------------------------------------------------------
# Tables: tools, options, invocations
# ---------------------------------------------------------------------------

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
]

# Invocation groups for --targets (the seeded minute of `make check` runs
# all).
TARGETS = {
    "compiler": ["tile-opt", "tile-compile", "tile-exec"],
    "runner": ["tile-runner", "tile-bundle"],
    "all": ["tile-opt", "tile-compile", "tile-exec", "tile-runner",
            "tile-bundle"],
}

# ---------------------------------------------------------------------------
# MLIR text helpers
# ---------------------------------------------------------------------------


def strip_comments(text):
    """`text` without // comments (RUN lines, expected-error annotations):
    a mutation of a comment changes nothing."""
    out = []
    for line in text.split("\n"):
        in_string = False
        cut = len(line)
        i = 0
        while i < len(line):
            c = line[i]
            if c == '"' and (i == 0 or line[i - 1] != "\\"):
                in_string = not in_string
            elif not in_string and line.startswith("//", i):
                cut = i
                break
            i += 1
        kept = line[:cut].rstrip()
        if kept or not line.strip():
            out.append(kept)
    return "\n".join(out)


def code_positions(text):
    """Indices of `text` outside string literals."""
    inside = False
    positions = []
    for i, c in enumerate(text):
        if c == '"' and (i == 0 or text[i - 1] != "\\"):
            inside = not inside
            continue
        if not inside:
            positions.append(i)
    return positions


def integer_tokens(text):
    """(start, end) of the decimal integer literals outside strings: not
    parts of names (%c0, f32, sm_90, #map1), not parts of floats (1.5, 1e3);
    shape dimensions (4x8xf32) count."""
    code = set(code_positions(text))
    tokens = []
    for m in re.finditer(r"[0-9]+", text):
        s, e = m.start(), m.end()
        if s not in code:
            continue
        before = text[s - 1] if s > 0 else " "
        after = text[e] if e < len(text) else " "
        if before == "x" and s >= 2 and text[s - 2].isdigit():
            pass  # 4x8: the 8
        elif before.isalnum() or before in "_%#^@$.!":
            continue
        if after in ".eE":
            continue
        if after.isalpha() and after != "x" or after == "_":
            continue
        tokens.append((s, e))
    return tokens


def bracket_balance(text):
    depth = 0
    code = set(code_positions(text))
    for i, c in enumerate(text):
        if i not in code:
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
    return depth


def shape_spec_ints(text):
    """(start, end) of integers inside `shape [ ... ]` lists."""
    spans = []
    for m in re.finditer(r"shape\s*\[([^\]]*)\]", text):
        for n in re.finditer(r"-?[0-9]+", m.group(1)):
            spans.append((m.start(1) + n.start(), m.start(1) + n.end()))
    return spans


def encoded_types(text):
    """Distinct tile types with a layout (tensor<...x..., #...>) and shared
    buffer types (!tilegpu.smem<...>): the verifiers bound their sizes."""
    found = set()
    for m in re.finditer(r"tensor<[0-9x]+[a-z0-9]+,\s*#[^>]*>", text):
        found.add(m.group(0))
    for m in re.finditer(r"!tilegpu\.smem<[0-9x]+[a-z0-9]+,[^>]*>+", text):
        found.add(m.group(0))
    return sorted(found)

# ---------------------------------------------------------------------------
# Mutators of MLIR inputs: fn(text, rng) -> new text or None (does not
# apply). `invalid`: the result is known to be invalid input.
# ---------------------------------------------------------------------------


def mut_huge_integer(text, rng):
    tokens = integer_tokens(text)
    if not tokens:
        return None
    s, e = rng.choice(tokens)
    return text[:s] + rng.choice(HUGE_INTS) + text[e:]


def mut_interesting_integer(text, rng):
    tokens = integer_tokens(text)
    if not tokens:
        return None
    s, e = rng.choice(tokens)
    return text[:s] + rng.choice(HOSTILE_INTS[:20]).lstrip("-") + text[e:]


def mut_shape_nonpositive(text, rng):
    spans = shape_spec_ints(text)
    if not spans:
        return None
    s, e = rng.choice(spans)
    return text[:s] + rng.choice(["0", "-1", "-64", "-2147483648"]) + text[e:]


# The verifiers' bounds (include/tile/Dialect/TileGPU/IR/Layouts.h): a
# register tile of at most 2^20 elements, a shared buffer of at most the
# largest chip's shared memory.
MAX_REGISTER_TILE_ELEMENTS = 1 << 20
MAX_SHARED_BYTES = 232448
ELEMENT_BYTES = {"i1": 1, "i8": 1, "f16": 2, "bf16": 2, "i16": 2, "f32": 4,
                 "i32": 4, "f64": 8, "i64": 8}


def over_type_limit(type_text, sizes):
    """True when the type written as `type_text` with dimensions `sizes`
    exceeds its verifier's bound."""
    count = 1
    for d in sizes:
        count *= int(d)
    if type_text.startswith("!tilegpu.smem"):
        element = re.search(r"<[0-9x]+([a-z0-9]+)", type_text).group(1)
        return count * ELEMENT_BYTES.get(element, 1) > MAX_SHARED_BYTES
    return count > MAX_REGISTER_TILE_ELEMENTS


def mut_huge_tile(text, rng):
    """One dimension of a tile type with a layout, or of a shared buffer,
    made huge everywhere the type is written."""
    types = encoded_types(text)
    if not types:
        return None
    old = rng.choice(types)
    dims = re.search(r"<([0-9x]+)", old)
    sizes = [d for d in dims.group(1).split("x") if d]
    i = rng.randrange(len(sizes))
    sizes[i] = rng.choice(HUGE_SIZES + ["65536", "1048576"])
    # 65536 and 1048576 probe the limits, which a small tile stays within
    # (a 16x65536 register tile is 2^20 elements, the most the dialect
    # takes; a 1x65536 f16 buffer is 128 KiB): then a size past them.
    if not over_type_limit(old, sizes):
        sizes[i] = rng.choice(HUGE_SIZES)
    new = old[:dims.start(1)] + "x".join(sizes) + "x" + \
        old[dims.start(1) + len(dims.group(1)):]
    return text.replace(old, new)


def mut_truncate(text, rng):
    for _ in range(20):
        cut = rng.randrange(1, max(2, len(text)))
        prefix = text[:cut]
        if bracket_balance(prefix) > 0:
            return prefix
    return None


def mut_unbalanced(text, rng):
    positions = code_positions(text)
    if not positions:
        return None
    i = rng.choice(positions)
    return text[:i] + rng.choice([")", "]", "}", "(", "[", "{"]) + text[i:]


def mut_deep_nesting(text, rng):
    """An attribute or a type nested past the tools' limit of 512 (10^4
    deep overflowed the parser's stack), or strings and comments full of
    brackets (which do not count)."""
    depth = rng.choice([513, 10000, 30000])
    if rng.random() < 0.5:
        nested = "[" * depth + "]" * depth
        return '"builtin.module"() ({}) {x = %s} : () -> ()\n' % nested + text
    nested = "tuple<" * depth + "i32" + ">" * depth
    return "func.func private @deep(%%a: %s)\n" % nested + text


def mut_delete_line(text, rng):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def mut_duplicate_line(text, rng):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines)


def mut_swap_lines(text, rng):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


TYPE_WORDS = ["f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64", "index"]


def mut_swap_type(text, rng):
    spans = [(m.start(), m.end()) for m in
             re.finditer(r"\b(f16|bf16|f32|i1|i8|i32|i64|index)\b", text)]
    if not spans:
        return None
    s, e = rng.choice(spans)
    return text[:s] + rng.choice(TYPE_WORDS) + text[e:]


def mut_swap_op(text, rng):
    ops = re.findall(r"\b(?:tile|tilegpu|arith|math|scf)\.[a-z_0-9]+", text)
    if not ops:
        return None
    old = rng.choice(ops)
    new = rng.choice(ops)
    spans = [m.start() for m in re.finditer(re.escape(old), text)]
    s = rng.choice(spans)
    return text[:s] + new + text[s + len(old):]


def mut_grid_string(text, rng):
    """A grid rule or a requires expression replaced (the kernel verifier
    checks them; what they evaluate to is the launcher's business)."""
    m = re.search(r"grid\s*=\s*\[([^\]]*)\]", text)
    if not m:
        return None
    strings = list(re.finditer(r'"([^"]*)"', m.group(1)))
    if not strings:
        return None
    s = rng.choice(strings)
    choice = rng.choice(['(((((', '', 'Z.0', '1/0', 'cdiv(Q.2, 0)', '0',
                         'Q.99999999999999999999', 'Q.2 * Q.2 * Q.2',
                         '(' * 5000 + '1' + ')' * 5000, 'min(', '1 +',
                         'Q.-1', '99999999999999999999'])
    start = m.start(1) + s.start(1)
    return text[:start] + choice + text[m.start(1) + s.end(1):]


def mut_splice(text, rng, corpus):
    """A line of another corpus file inserted at a random line."""
    other = rng.choice(corpus)
    other_lines = [l for l in read_text(other).split("\n") if l.strip()]
    if not other_lines:
        return None
    lines = text.split("\n")
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(other_lines))
    return "\n".join(lines)


# name, invalid, function
MLIR_MUTATORS = [
    ("huge-integer", True, mut_huge_integer),
    ("nonpositive-shape", True, mut_shape_nonpositive),
    ("huge-tile", True, mut_huge_tile),
    ("truncate", True, mut_truncate),
    ("unbalanced-bracket", True, mut_unbalanced),
    ("deep-nesting", True, mut_deep_nesting),
    ("interesting-integer", False, mut_interesting_integer),
    ("delete-line", False, mut_delete_line),
    ("duplicate-line", False, mut_duplicate_line),
    ("swap-lines", False, mut_swap_lines),
    ("swap-type", False, mut_swap_type),
    ("swap-op", False, mut_swap_op),
    ("grid-string", False, mut_grid_string),
    ("splice", False, "splice"),
]
# Mutations of an input path rather than its text.
FILE_MUTATORS = [
    ("dev-zero", True, "/dev/zero"),
    ("directory", True, "dir"),
    ("missing", True, "missing"),
]

# ---------------------------------------------------------------------------
# Mutators of manifests: fn(manifest dict, rng) -> (dict, invalid) or None.
# invalid: True when no tool may accept the manifest (lib/Bundle's schema
# refuses it), LAUNCH when the manifest is well formed but tile-runner must
# refuse to launch it (grid, shared memory against the target), False when
# it may be fine.
# ---------------------------------------------------------------------------

LAUNCH = "launch"


def manifest_set(path, values, invalid_test):
    def fn(m, rng):
        cur = m
        for key in path[:-1]:
            cur = cur.get(key) if isinstance(cur, dict) else None
            if cur is None:
                return None
        if path[-1] not in cur and not isinstance(path[-1], int):
            return None
        value = rng.choice(values)
        cur[path[-1]] = value
        return m, invalid_test(value)
    return fn


def manifest_delete(key):
    def fn(m, rng):
        if key not in m:
            return None
        del m[key]
        return m, True
    return fn


def manifest_grid(m, rng):
    grid = m.get("grid")
    if not isinstance(grid, list) or not grid:
        return None
    bad = ['(((((', '', 'Z.0', '1/0', 'cdiv(Q.2, 0)', 'Q.99999999999999999999',
           '(' * 20000 + '1' + ')' * 20000, 'Q.2 * Q.2 * Q.2 * Q.2 * Q.2',
           'min(', '-1', '99999999999999999999', 'Q.4', 'K.-1', '1 +* 2',
           'max(1)', 'cdiv(Q.2)', 'Q.2 % 0', '!', 'Q.2 <', '0x10', '1e3']
    i = rng.randrange(len(grid))
    grid[i] = rng.choice(bad)
    # Every one of these is invalid, overflows or launches no block; the
    # last two only at launch.
    return m, LAUNCH if grid[i] in ('-1', 'Q.2 * Q.2 * Q.2 * Q.2 * Q.2') else True


def manifest_requires(m, rng):
    if not isinstance(m.get("requires"), list):
        return None
    bad = ['', '((((', 'Q.9 > 1', 'NO_SUCH == 1', '1 / 0 == 0', 'Q.0 <',
           '(' * 5000 + '1' + ')' * 5000, '!' * 100 + '1', 'Q.2 == 99999999999999999999',
           'Q.2 && ', '1 ==== 1']
    m["requires"] = m["requires"] + [rng.choice(bad + ['0 == 1', 'Q.2 < 0'])]
    # The last two are well formed and fail for every shape.
    return m, LAUNCH if m["requires"][-1] in ('0 == 1', 'Q.2 < 0') else True


def manifest_abi_entry(m, rng):
    abi = m.get("abi")
    views = [e for e in abi if isinstance(e, dict) and e.get("kind") == "view"] \
        if isinstance(abi, list) else []
    if not views:
        return None
    entry = rng.choice(views)
    key, values = rng.choice([
        ("align", [0, 3, 32, -16, 2**40, "16", 1.5, None]),
        ("access", ["rw", "", 1, None, "READ"]),
        ("dtype", ["f64", "", 3, "tensor<4xf32>", None]),
        ("rank", [0, 9, -1, 2**33, "4"]),
        ("name", ["", "1Q", "Q Q", None, abi[0].get("name", "Q") if entry is not abi[0] else "K"]),
        ("kind", ["tensor", "", None]),
    ])
    entry[key] = rng.choice(values)
    return m, True


def manifest_params(m, rng):
    if not isinstance(m.get("params"), dict):
        return None
    name = rng.choice(["", "1X", "A B", "TILE-M"])
    m["params"][name] = 1
    return m, True


def manifest_wrong_type(m, rng):
    keys = [k for k in ("num_warps", "shared_bytes", "occupancy", "block",
                        "grid", "abi", "params", "requires", "target", "entry")
            if k in m]
    if not keys:
        return None
    k = rng.choice(keys)
    # An empty abi, params or requires is well formed.
    values = ["four", None, True, -1.5]
    values += [{}] if k != "params" else [[]]
    values += [[]] if k not in ("abi", "params", "requires") else []
    if k in ("target", "entry"):
        values = [None, 1, [], ""]
    m[k] = rng.choice(values)
    return m, True


def manifest_files(m, rng):
    """`files`: malformed (refused by every reader) or digests that do not
    match the companion files (refused by the readers of the folder)."""
    ptx = m.get("ptx") if isinstance(m.get("ptx"), str) else "kernel.ptx"
    good_hex = "0" * 64
    malformed = [[], 3, {ptx: 1}, {ptx: {"sha256": "ABC", "bytes": 1}},
                 {ptx: {"sha256": good_hex}}, {ptx: {"sha256": good_hex, "bytes": -1}},
                 {"../" + ptx: {"sha256": good_hex, "bytes": 1}},
                 {ptx: {"sha256": good_hex, "bytes": 1, "md5": ""}}]
    mismatched = [{ptx: {"sha256": good_hex, "bytes": 1}},
                  {"kernel.cubin": {"sha256": good_hex, "bytes": 0}},
                  {"absent.bin": {"sha256": good_hex, "bytes": 0}}]
    if rng.random() < 0.5:
        m["files"] = rng.choice(malformed)
        return m, True
    m["files"] = rng.choice(mismatched)
    return m, LAUNCH


NON_NEGATIVE_32 = lambda v: not (isinstance(v, int) and 0 <= v < 2**31)

MANIFEST_MUTATORS = [
    ("shared-bytes", manifest_set(
        ["shared_bytes"], [-1, 2**32, 2**31, 10**20, 1.5, 232449, 10**6],
        lambda v: True if not (isinstance(v, int) and 0 <= v < 2**31)
        else LAUNCH if v > 232448 else False)),
    ("no-shared-bytes", manifest_delete("shared_bytes")),
    ("no-grid", manifest_delete("grid")),
    ("no-abi", manifest_delete("abi")),
    ("no-num-warps", manifest_delete("num_warps")),
    ("num-warps", manifest_set(
        ["num_warps"], [0, -1, 3, 33, 64, 2**32, 10**20],
        lambda v: True)),
    ("occupancy", manifest_set(["occupancy"], [-3, 0, 33, 2**32, 10**20],
                               lambda v: v != 0)),
    ("block", manifest_set(["block"], [[0, 1, 1], [2048, 1, 1], [-128, 1, 1],
                                       [128], [2**32, 1, 1], "128"],
                           lambda v: True)),
    ("grid-expr", manifest_grid),
    ("requires", manifest_requires),
    ("abi", manifest_abi_entry),
    ("params", manifest_params),
    ("wrong-type", manifest_wrong_type),
    ("format", manifest_set(["format"], ["tile-bundle-99", "", 1],
                            lambda v: True)),
    ("files", manifest_files),
]
MANIFEST_TEXT_MUTATORS = [
    ("truncate", True),
    ("dev-zero", True),
    ("duplicate-key", False),
    # A field nested 100,000 levels deep (segfaulted every reader) or just
    # past the limit of 64; a key twice in a nested object.
    ("deep-nesting", True),
    ("nested-duplicate-key", True),
]
# Mutations of an .npy header (the dict after the magic and the length):
# (name, invalid, header). The first is the valid one.
NPY_DESCR = "{'descr': '<f4', 'fortran_order': False, "
NPY_MUTATORS = [
    ("valid", False, NPY_DESCR + "'shape': (5, 64), }"),
    ("empty-shape", True, NPY_DESCR + "'shape': , }"),
    ("no-shape", True, "{'descr': '<f4', 'fortran_order': False, }"),
    ("scalar-shape", True, NPY_DESCR + "'shape': 5, }"),
    ("open-shape", True, NPY_DESCR + "'shape': (5, 64, }"),
    ("deep-shape", True, NPY_DESCR + "'shape': " + "(" * 70 + "5, 64" + ")" * 70 + ", }"),
    ("deep-dict", True, "{" * 100 + NPY_DESCR + "'shape': (5, 64), }" + "}" * 100),
    ("huge-shape", True, NPY_DESCR + "'shape': (99999999999999999999, 64), }"),
    ("wrong-shape", True, NPY_DESCR + "'shape': (64, 5, 1), }"),
    ("bad-descr", True, "{'descr': '>f4', 'fortran_order': False, 'shape': (5, 64), }"),
    ("empty-descr", True, "{'descr': , 'fortran_order': False, 'shape': (5, 64), }"),
    ("fortran", True, "{'descr': '<f4', 'fortran_order': True, 'shape': (5, 64), }"),
]


def npy_text(header, data_bytes=5 * 64 * 4):
    """An .npy file as text that materialize writes byte for byte
    (surrogateescape): magic, version 1.0, length, padded header, zeros."""
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    raw = (b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little")
           + header.encode() + b"\0" * data_bytes)
    return raw.decode("utf-8", errors="surrogateescape")


# Mutations of a bundle's PTX (cut short, empty, only comments, cut inside
# the entry's parameter list).
PTX_MUTATORS = ["truncate", "empty", "comments-only", "cut-parameters"]

# ---------------------------------------------------------------------------
# Corpus and RUN lines
# ---------------------------------------------------------------------------


def read_text(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def lit_run_commands(path):
    """The tool commands of the RUN lines of a lit test, as
    (tool, argv with %s/%S/%kernels/%t left in, expects failure, path,
    address-space limit in bytes of a `ulimit -v` earlier in the line or
    None): a command the test runs under a limit is fuzzed under it."""
    text = read_text(path)
    if re.search(r"REQUIRES:.*\bcuda\b", text):
        return []
    # lit's DEFINE: substitutions (`%{run}`), expanded in the RUN lines.
    defines = {}
    for m in re.finditer(r"DEFINE:\s*(%\{[A-Za-z0-9_-]+\})\s*=\s*(.*)", text):
        defines[m.group(1)] = m.group(2).strip()
    lines = []
    current = ""
    for m in re.finditer(r"RUN:(.*)", text):
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        line = current + part
        for name, value in defines.items():
            line = line.replace(name, value)
        lines.append(line)
        current = ""
    commands = []
    for line in lines:
        limit = None
        for segment in re.split(r"\|\|?|&&|;", line):
            try:
                words = shlex.split(segment)
            except ValueError:
                continue
            if words[:2] == ["ulimit", "-v"] and len(words) == 3 and words[2].isdigit():
                limit = int(words[2]) * 1024
                continue
            words = [w for w in words if w != "2>&1"]
            expect_fail = False
            while words and words[0] in ("not", "env", "-u", "CUDA_HOME"):
                expect_fail |= words[0] == "not"
                words = words[1:]
            if not words or words[0] not in OPTIONS:
                continue
            # --help prints the options and exits 0 whatever else the line
            # says: a mutation of its other arguments is no silent accept.
            if "--help" in words or "-help" in words:
                continue
            # Redirections and files the test reads back are dropped.
            argv = []
            skip = False
            for w in words[1:]:
                if skip:
                    skip = False
                    continue
                if w in (">", "2>", "<"):
                    skip = True
                    continue
                if w.startswith((">", "2>")):
                    continue
                argv.append(w)
            commands.append((words[0], argv, expect_fail, path, limit))
    return commands


class Corpus:
    def __init__(self):
        self.kernels = sorted(glob.glob(os.path.join(ROOT, "kernels", "*.mlir")))
        self.inputs = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                                       recursive=True))
        self.inputs = [p for p in self.inputs if "/Inputs/" not in p or p.endswith(".mlir")]
        self.bundles = sorted(os.path.dirname(p) for p in glob.glob(
            os.path.join(ROOT, "test", "Runner", "Inputs", "bundles", "*",
                         "manifest.json")))
        self.runs = []
        for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.*"),
                                     recursive=True)):
            if path.endswith((".mlir", ".test")) and "/Inputs/" not in path:
                self.runs.extend(lit_run_commands(path))
        # Long runs (sweeps, determinism on big shapes, benchmarks) would
        # spend the time budget; the fuzzer's own table covers the tools.
        self.runs = [r for r in self.runs if not any(
            w in ("--bench", "--autotune", "--determinism") for w in r[1])]

# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


class Case:
    """One command to run: tool, argv (with the mutated inputs in place),
    the files it needs (name -> text, or a special), what was mutated."""

    def __init__(self, tool, argv, note, invalid):
        self.tool = tool
        self.argv = argv
        self.note = note
        self.invalid = invalid
        self.files = {}  # relative name -> text | ("link", target) | ("dir",)
        # The address-space limit of the command's RUN line (bytes), if any.
        self.memory_limit = None
        self.bundles = {}  # relative dir -> (source bundle, manifest text)
        # relative dir -> {file name: bytes}: companion files replaced.
        self.bundle_files = {}


def limit_memory(limit_bytes):
    def apply():
        os.setsid()
        if limit_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def materialize(case, workdir):
    """Writes the case's files under workdir; returns argv with {w} paths."""
    for name, content in case.files.items():
        path = os.path.join(workdir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, tuple) and content[0] == "link":
            os.symlink(content[1], path)
        elif isinstance(content, tuple) and content[0] == "dir":
            os.makedirs(path, exist_ok=True)
        elif isinstance(content, tuple) and content[0] == "missing":
            pass
        else:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(content)
    for name, (source, manifest) in case.bundles.items():
        path = os.path.join(workdir, name)
        os.makedirs(path, exist_ok=True)
        for f in os.listdir(source):
            if f != "manifest.json":
                shutil.copy(os.path.join(source, f), path)
        for f, data in case.bundle_files.get(name, {}).items():
            with open(os.path.join(path, f), "wb") as out:
                out.write(data)
        target = os.path.join(path, "manifest.json")
        if isinstance(manifest, tuple) and manifest[0] == "link":
            os.symlink(manifest[1], target)
        else:
            with open(target, "w") as f:
                f.write(manifest)
    os.makedirs(os.path.join(workdir, "tmp"), exist_ok=True)
    return [a.replace("{w}", workdir) for a in case.argv]


def run_case(case, bindir, workdir, timeout, memory_limit, env):
    argv = [os.path.join(bindir, case.tool)] + materialize(case, workdir)
    if case.memory_limit:
        memory_limit = min(memory_limit, case.memory_limit) if memory_limit \
            else case.memory_limit
    start = time.time()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, cwd=workdir, env=env,
                            preexec_fn=limit_memory(memory_limit))
    try:
        out, _ = proc.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = proc.communicate()
        hung = True
    elapsed = time.time() - start
    text = out.decode("utf-8", errors="replace")
    # Keep the head and the tail of long outputs.
    if len(text) > 20000:
        text = text[:10000] + "\n[... %d bytes ...]\n" % (len(text) - 20000) + text[-10000:]
    return proc.returncode, text, hung, elapsed


def unbounded_by_request(case):
    """True when the command turns the executors' work limit off
    (--max-work=0, as test/Executor/work.mlir's RUN lines do): a long run is
    then what was asked for (seed 20261210 mutated that file's loop bound
    to 2^31 + 1, a 2^31-step loop), not a hang."""
    argv = list(case.argv)
    for i, a in enumerate(argv):
        if a == "--max-work=0" or (a == "--max-work" and i + 1 < len(argv)
                                   and argv[i + 1] == "0"):
            return True
    return False


def classify(case, rc, text, hung):
    if hung:
        return "fine" if unbounded_by_request(case) else "hang"
    if rc < 0 or rc > 128:
        return "crash"
    for pattern in CRASH_PATTERNS:
        if pattern in text:
            return "crash"
    if case.invalid and rc == 0:
        return "silent-accept"
    return "fine"


def shell_command(case, workdir_name="."):
    argv = [case.tool] + [a.replace("{w}", workdir_name) for a in case.argv]
    return " ".join(shlex.quote(a) for a in argv)


def save_reproducer(outdir, index, kind, case, workdir, rc, text):
    name = "%04d-%s-%s" % (index, kind, case.tool)
    dest = os.path.join(outdir, name)
    os.makedirs(dest, exist_ok=True)
    for entry in os.listdir(workdir):
        src = os.path.join(workdir, entry)
        dst = os.path.join(dest, entry)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        elif os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy(src, dst)
    with open(os.path.join(dest, "command.sh"), "w") as f:
        f.write("#!/bin/sh\n# %s: %s\n# exit status %s\n" % (kind, case.note, rc))
        f.write("# run from this folder with the tools on PATH\n")
        limit = "ulimit -v %d && " % (case.memory_limit // 1024) if case.memory_limit else ""
        f.write("cd \"$(dirname \"$0\")\" && " + limit + shell_command(case) + "\n")
    with open(os.path.join(dest, "output.txt"), "w") as f:
        f.write(text)
    return dest

# ---------------------------------------------------------------------------
# Case generation
# ---------------------------------------------------------------------------


def kernel_params(text):
    """name -> kind ('i32', 'bool', 'type') of the kernel's tile.params."""
    m = re.search(r"tile\.params\s*=\s*\{(.*?)\}", text, re.S)
    params = {}
    if not m:
        return params
    for entry in re.finditer(r"([A-Za-z_][A-Za-z_0-9]*)\s*=\s*([^,]+)", m.group(1)):
        name, value = entry.group(1), entry.group(2).strip()
        if value in ("true", "false"):
            params[name] = "bool"
        elif re.match(r"-?[0-9]+\s*:\s*(i[0-9]+|index)", value):
            params[name] = re.search(r":\s*(i[0-9]+|index)", value).group(1)
        elif re.match(r"-?[0-9]+$", value):
            params[name] = "i64"
        else:
            params[name] = "type"
    return params


def binding_value(rng, kind):
    """A value for a parameter of `kind` and whether it must be refused."""
    if kind == "bool":
        text = rng.choice(["true", "false", "1", "0", "2", "yes", "", "TRUE"])
        return text, text.lower() not in ("true", "false", "1", "0")
    if kind == "type":
        text = rng.choice(["f16", "bf16", "f32", "f8", "i32", "tensor<4xf32>",
                           "", "!tile.view<?xf32>", "xyz"])
        return text, text in ("f8", "", "tensor<4xf32>", "!tile.view<?xf32>", "xyz")
    lo, hi = INT_RANGES.get(kind, INT_RANGES["i64"])
    text = rng.choice(HOSTILE_INTS + GARBAGE[:8])
    return text, not int_in(text, lo, hi)


def mutate_bindings(rng, argv, params, option):
    """Mutates or adds a NAME=VALUE list option (--params, --bind)."""
    idx = None
    for i, a in enumerate(argv):
        if a.startswith(option + "=") or a == option:
            idx = i
    names = sorted(params)
    if not names:
        return None
    name = rng.choice(names)
    choice = rng.randrange(4)
    if choice == 0:  # duplicate
        value1, _ = binding_value(rng, params[name])
        value2, _ = binding_value(rng, params[name])
        new = "%s=%s,%s=%s" % (name, value1, name, value2)
        note, invalid = "duplicate binding of " + name, True
    elif choice == 1:  # unknown name
        new = "NO_SUCH_PARAM=1"
        note, invalid = "unknown parameter", True
    else:
        value, invalid = binding_value(rng, params[name])
        new = "%s=%s" % (name, value)
        note = "binding %s" % new
    if idx is None:
        return argv + ["%s=%s" % (option, new)], note, invalid
    if argv[idx] == option:
        argv = argv[:idx] + ["%s=%s" % (option, new)] + argv[idx + 2:]
    else:
        argv = argv[:idx] + ["%s=%s" % (option, new)] + argv[idx + 1:]
    return argv, note, invalid


def mutate_option(rng, tool, argv):
    """Replaces (or adds) the value of one option of the OPTIONS table."""
    table = OPTIONS.get(tool, {})
    if not table:
        return None
    present = [o for o in table if any(a == o or a.startswith(o + "=") for a in argv)]
    option = rng.choice(present) if present and rng.random() < 0.7 else rng.choice(sorted(table))
    value, invalid = value_for(rng, table[option])
    out = []
    skip = False
    replaced = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == option:
            skip = True
            continue
        if a.startswith(option + "="):
            continue
        out.append(a)
    out.append("%s=%s" % (option, value))
    return out, "%s=%r" % (option, value), invalid


def mutate_pipeline_option(rng, argv):
    """tile-compile: --tile-pipeline replaced by a tile level with one
    option of TILE_LEVEL_OPTIONS set."""
    option = rng.choice(sorted(TILE_LEVEL_OPTIONS))
    value, invalid = value_for(rng, TILE_LEVEL_OPTIONS[option])
    level = rng.choice(["tile-O0", "tile-O1", "tile-O2", "tile-O3"])
    out = [a for a in argv if not a.startswith("--tile-pipeline")]
    out.append("--tile-pipeline=%s{%s=%s}" % (level, option, value))
    return out, "%s{%s=%r}" % (level, option, value), invalid


def scalar_arg_mutation(rng, argv):
    """tile-exec: a --arg value replaced by one its type may not hold."""
    idxs = [i for i, a in enumerate(argv) if a.startswith("--arg=")]
    if not idxs:
        return None
    i = rng.choice(idxs)
    spec = argv[i][len("--arg="):]
    lhs, _, init = spec.partition("=")
    m = re.fullmatch(r"([a-z0-9]+)\[([^\]]*)\]", lhs)
    if m:
        dtype, dims = m.group(1), m.group(2)
        what = rng.randrange(3)
        if what == 0:
            parts = dims.split("x")
            j = rng.randrange(len(parts))
            parts[j] = rng.choice(HUGE_SIZES + ["-1", "abc", ""])
            new = "%s[%s]=%s" % (dtype, "x".join(parts), init)
            return argv[:i] + ["--arg=" + new] + argv[i + 1:], "view size " + new, True
        if what == 1 and dtype in FLOAT_OVERFLOW:
            value = rng.choice(FLOATS + GARBAGE[:6])
            new = "%s[%s]=fill:%s" % (dtype, dims, value)
            return (argv[:i] + ["--arg=" + new] + argv[i + 1:], "fill " + new,
                    not float_fits(value, dtype))
        if dtype in INT_RANGES:
            value = rng.choice(HOSTILE_INTS + GARBAGE[:6])
            lo, hi = INT_RANGES[dtype]
            new = "%s[%s]=values:%s" % (dtype, dims, value)
            return (argv[:i] + ["--arg=" + new] + argv[i + 1:], "values " + new,
                    not int_in(value, lo, hi) and not (dtype == "i1" and value in ("true", "false")))
        return None
    dtype = lhs
    # tile-exec trims the value: " 4" is 4.
    if dtype in INT_RANGES:
        value = rng.choice(HOSTILE_INTS + GARBAGE)
        lo, hi = INT_RANGES[dtype]
        invalid = not int_in(value.strip(), lo, hi) and not (dtype == "i1" and value in ("true", "false"))
    elif dtype in FLOAT_OVERFLOW:
        value = rng.choice(FLOATS + GARBAGE)
        invalid = not float_fits(value.strip(), dtype)
    else:
        return None
    new = "%s=%s" % (dtype, value)
    return argv[:i] + ["--arg=" + new] + argv[i + 1:], "scalar " + new, invalid


class Generator:
    def __init__(self, corpus, rng, tools):
        self.corpus = corpus
        self.rng = rng
        self.tools = tools
        self.invocations = [(t, list(a)) for t, a in INVOCATIONS if t in tools]
        self.runs = [r for r in corpus.runs if r[0] in tools]
        self.bundle_problem = []

    def mutate_mlir(self, text):
        rng = self.rng
        text = strip_comments(text)
        for _ in range(10):
            name, invalid, fn = rng.choice(MLIR_MUTATORS)
            if fn == "splice":
                new = mut_splice(text, rng, self.corpus.inputs + self.corpus.kernels)
            else:
                new = fn(text, rng)
            if new is not None and new != text:
                return new, name, invalid
        return text, "none", False

    def mlir_input(self, case, path, name, mutate):
        """Puts `path` into the case as `name` (mutated when `mutate`);
        returns the note and whether the mutation is known invalid."""
        if not mutate:
            case.files[name] = read_text(path)
            return "", False
        if self.rng.random() < 0.06:
            kind, invalid, what = self.rng.choice(FILE_MUTATORS)
            if what == "/dev/zero":
                case.files[name] = ("link", "/dev/zero")
            elif what == "dir":
                case.files[name] = ("dir",)
            else:
                case.files[name] = ("missing",)
            return kind, invalid
        new, kind, invalid = self.mutate_mlir(read_text(path))
        case.files[name] = new
        return kind + " of " + os.path.relpath(path, ROOT), invalid

    def manifest_input(self, case, bundle, name):
        rng = self.rng
        text = read_text(os.path.join(bundle, "manifest.json"))
        if rng.random() < 0.2:
            kind, invalid = rng.choice(MANIFEST_TEXT_MUTATORS)
            if kind == "truncate":
                cut = rng.randrange(1, len(text) - 2)
                case.bundles[name] = (bundle, text[:cut])
            elif kind == "dev-zero":
                case.bundles[name] = (bundle, ("link", "/dev/zero"))
            elif kind == "deep-nesting":
                depth = rng.choice([65, 1000, 100000])
                case.bundles[name] = (bundle, text.replace(
                    "{", '{"deep": ' + "[" * depth + "]" * depth + ", ", 1))
                kind += " %d" % depth
            elif kind == "nested-duplicate-key":
                case.bundles[name] = (bundle, text.replace(
                    '{"name":', '{"name": "x", "name":', 1))
            else:
                case.bundles[name] = (bundle, text.replace("{", '{"kernel": "x", ', 1))
            return "manifest " + kind, invalid
        if rng.random() < 0.1:
            ptx_path = os.path.join(bundle, "kernel.ptx")
            if os.path.exists(ptx_path):
                with open(ptx_path, "rb") as f:
                    ptx = f.read()
                kind = rng.choice(PTX_MUTATORS)
                entry = ptx.find(b".entry")
                if kind == "truncate":
                    ptx = ptx[:rng.randrange(1, max(2, len(ptx) - 2))]
                elif kind == "empty":
                    ptx = b""
                elif kind == "comments-only":
                    ptx = b"// .target sm_80\n/* .entry fmha( */\n"
                elif entry >= 0:
                    ptx = ptx[:ptx.find(b")", entry) - 10]
                case.bundles[name] = (bundle, text)
                case.bundle_files[name] = {"kernel.ptx": ptx}
                # Refused by the readers of the PTX (tile-bundle check of a
                # folder, the gpu backend and its --dry-run) but not read by
                # the cpu backend, nor by tile-bundle format: crashes only.
                return "kernel.ptx " + kind, False
        manifest = json.loads(text)
        for _ in range(10):
            kind, fn = rng.choice(MANIFEST_MUTATORS)
            result = fn(json.loads(text), rng)
            if result is not None:
                manifest, invalid = result
                case.bundles[name] = (bundle, json.dumps(manifest, indent=1))
                return "manifest %s: %s" % (kind, json.dumps(manifest.get(kind.replace("-", "_"), ""))[:80]), invalid
        case.bundles[name] = (bundle, text)
        return "manifest unchanged", False

    def substitute(self, case, argv, source, mutate_inputs):
        """Replaces placeholders and lit substitutions by case files."""
        rng = self.rng
        notes = []
        invalid = False
        out = []
        for a in argv:
            for key in ("{kernel}", "{input}"):
                if key in a:
                    pool = self.corpus.kernels if key == "{kernel}" else \
                        self.corpus.inputs + self.corpus.kernels
                    path = rng.choice(pool)
                    name = "input.mlir"
                    note, bad = self.mlir_input(case, path, name, mutate_inputs)
                    if not mutate_inputs:
                        note = os.path.relpath(path, ROOT)
                    notes.append(note)
                    invalid |= bad
                    a = a.replace(key, "{w}/" + name)
            if "{bundle}" in a:
                bundle = rng.choice(self.corpus.bundles)
                params = json.loads(read_text(os.path.join(bundle, "manifest.json"))).get("params", {})
                self.bundle_problem = ["--head-dim", str(params.get("HEAD_DIM", 64))]
                self.bundle_problem += ["--causal"] if params.get("CAUSAL") else []
                self.bundle_problem += ["--lse"] if params.get("WITH_LSE") else []
                note, bad = self.manifest_input(case, bundle, "bundle") if mutate_inputs \
                    else ("bundle " + os.path.basename(bundle), False)
                # tile-bundle checks the manifest, not a launch.
                bad = bad is True if case.tool == "tile-bundle" else bool(bad)
                if not mutate_inputs:
                    case.bundles["bundle"] = (bundle, read_text(os.path.join(bundle, "manifest.json")))
                notes.append(note)
                invalid |= bad
                a = a.replace("{bundle}", "{w}/bundle")
            if a == "{bundle-problem}":
                out.extend(self.bundle_problem)
                continue
            if "{npy}" in a:
                kind, bad, header = rng.choice(NPY_MUTATORS) if mutate_inputs \
                    else NPY_MUTATORS[0]
                data = 5 * 64 * 4
                if mutate_inputs and rng.random() < 0.1:
                    kind, bad, data = "truncated-data", True, rng.randrange(5 * 64 * 4)
                case.files["input.npy"] = npy_text(header, data)
                notes.append("npy " + kind)
                invalid |= bad
                a = a.replace("{npy}", "{w}/input.npy")
            if "{tmp}" in a:
                a = a.replace("{tmp}", "{w}/tmp")
            if source is not None:
                if "%s" in a:
                    note, bad = self.mlir_input(case, source, "input.mlir", mutate_inputs)
                    notes.append(note or os.path.relpath(source, ROOT))
                    invalid |= bad
                    a = a.replace("%s", "{w}/input.mlir")
                m = re.search(r"%S/Inputs/bundles/([A-Za-z0-9_.-]+)", a)
                if m:
                    bundle = os.path.join(os.path.dirname(source), "Inputs", "bundles", m.group(1))
                    if os.path.isdir(bundle):
                        if mutate_inputs:
                            note, bad = self.manifest_input(case, bundle, "bundle-" + m.group(1))
                            notes.append(note)
                            invalid |= bad is True if case.tool == "tile-bundle" else bool(bad)
                        else:
                            case.bundles["bundle-" + m.group(1)] = (
                                bundle, read_text(os.path.join(bundle, "manifest.json")))
                        a = a.replace(m.group(0), "{w}/bundle-" + m.group(1))
                a = a.replace("%S", os.path.dirname(source))
                a = a.replace("%kernels", os.path.join(ROOT, "kernels"))
                a = a.replace("%t", "{w}/tmp/t")
                a = a.replace("%tile_src_root", ROOT)
            out.append(a)
        return out, notes, invalid

    def next_case(self):
        rng = self.rng
        use_run = self.runs and rng.random() < 0.5
        if use_run:
            tool, argv, expect_fail, source, limit = rng.choice(self.runs)
        else:
            tool, argv = rng.choice(self.invocations)
            expect_fail, source, limit = False, None, None
        # Half the cases mutate an input, half the command line.
        mutate_inputs = rng.random() < 0.5
        case = Case(tool, [], "", False)
        case.memory_limit = limit
        argv, notes, invalid = self.substitute(case, list(argv), source, mutate_inputs)
        if not mutate_inputs:
            kernel_text = next((c for c in case.files.values() if isinstance(c, str)), "")
            params = kernel_params(kernel_text)
            what = rng.randrange(4)
            result = None
            if tool == "tile-compile" and what < 2 and params:
                if what == 0:
                    result = mutate_bindings(rng, argv, params, "--params")
                else:
                    # A second binding in the pipeline: tile-compile has
                    # specialized the kernel already.
                    name = rng.choice(sorted(params))
                    value, _ = binding_value(rng, params[name])
                    argv = [a for a in argv if not a.startswith("--tile-pipeline")]
                    result = (argv + ["--params=%s=%s" % (name, value),
                                      "--tile-pipeline=tile-O3{bind=%s=%s}" % (name, value)],
                              "rebinding of " + name, True)
            elif tool == "tile-compile" and what == 2:
                result = mutate_pipeline_option(rng, argv)
            elif tool == "tile-exec" and what < 2:
                result = scalar_arg_mutation(rng, argv)
                if result is None and params:
                    result = mutate_bindings(rng, argv, params, "--bind")
            if result is None:
                result = mutate_option(rng, tool, argv)
            if result is not None:
                argv, note, bad = result
                notes.append(note)
                invalid |= bad
        case.argv = argv
        case.note = "; ".join(n for n in notes if n)
        case.invalid = invalid
        return case


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="build folder (tools in BUILD/bin)")
    parser.add_argument("--seed", type=int, default=None,
                        help="random seed (default: from the clock, printed)")
    parser.add_argument("--seconds", type=float, default=60,
                        help="time budget (no new run starts after it)")
    parser.add_argument("--runs", type=int, default=0,
                        help="stop after this many runs (0: no limit)")
    parser.add_argument("--timeout", type=float, default=20,
                        help="a run longer than this is a hang")
    parser.add_argument("--targets", default="all",
                        help="comma-separated tools or groups: %s" % ", ".join(TARGETS))
    parser.add_argument("--out", default=None,
                        help="folder for reproducers (default BUILD/fuzz/seed-N)")
    parser.add_argument("--memory-limit", type=int, default=4096,
                        help="address-space limit of each run in MiB (0: none)")
    parser.add_argument("--verbose", action="store_true",
                        help="print every run")
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else int(time.time()) % 1000000
    bindir = os.path.join(os.path.abspath(args.build), "bin")
    tools = []
    for t in args.targets.split(","):
        tools.extend(TARGETS.get(t, [t]))
    available = [t for t in dict.fromkeys(tools) if os.access(os.path.join(bindir, t), os.X_OK)]
    missing = [t for t in dict.fromkeys(tools) if t not in available]
    if not available:
        print("fuzz: no tools in %s (build first)" % bindir, file=sys.stderr)
        return 2
    outdir = args.out or os.path.join(os.path.abspath(args.build), "fuzz", "seed-%d" % seed)
    rng = random.Random(seed)
    corpus = Corpus()
    gen = Generator(corpus, rng, available)
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env.pop("LLVM_SYMBOLIZER_PATH", None)

    print("fuzz: seed %d, %.0f s, tools %s%s, reproducers in %s" % (
        seed, args.seconds, ", ".join(available),
        " (not built: %s)" % ", ".join(missing) if missing else "", outdir))
    sys.stdout.flush()
    counts = {"runs": 0, "crash": 0, "hang": 0, "silent-accept": 0}
    found = []
    deadline = time.time() + args.seconds
    scratch = tempfile.mkdtemp(prefix="tile-fuzz-")
    interrupted = False
    try:
        while time.time() < deadline and (not args.runs or counts["runs"] < args.runs):
            case = gen.next_case()
            workdir = os.path.join(scratch, "case")
            shutil.rmtree(workdir, ignore_errors=True)
            os.makedirs(workdir)
            rc, text, hung, elapsed = run_case(case, bindir, workdir, args.timeout,
                                               args.memory_limit << 20, env)
            counts["runs"] += 1
            kind = classify(case, rc, text, hung)
            if args.verbose:
                print("[%d] %s %.1fs rc=%s %s :: %s" % (counts["runs"], kind, elapsed, rc,
                                                        shell_command(case, "W"), case.note))
            if kind != "fine":
                counts[kind] += 1
                dest = save_reproducer(outdir, counts["runs"], kind, case, workdir, rc, text)
                last = [l for l in text.strip().split("\n") if l.strip()][-1:] or [""]
                print("%s: %s (%s)\n  %s\n  -> %s" % (kind, shell_command(case, "W"),
                                                     case.note, last[0][:200],
                                                     os.path.relpath(dest)))
                sys.stdout.flush()
                found.append(dest)
    except KeyboardInterrupt:
        # The counts so far still count.
        interrupted = True
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("fuzz: seed %d: %d runs, %d crashes, %d hangs, %d silent accepts%s" % (
        seed, counts["runs"], counts["crash"], counts["hang"], counts["silent-accept"],
        " (interrupted)" if interrupted else ""))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
