"""Mutators of MLIR inputs: fn(text, rng) -> new text or None, each
marked `invalid` when the result is known to be invalid input."""

import re

from .values import HOSTILE_INTS, HUGE_INTS, HUGE_SIZES
from .corpus import read_text


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
