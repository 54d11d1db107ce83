"""Values a hostile user types, and the oracle of which ones a tool must
accept (integer ranges, float edges, option kinds)."""

import fractions
import re


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
