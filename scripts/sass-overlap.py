#!/usr/bin/env python3
"""Where a kernel's exponentials fall relative to its wgmma (from SASS).

    cuobjdump -sass kernel.cubin > k.sass
    scripts/sass-overlap.py k.sass [--min-ex2 N]

For the loop that holds the `WARPGROUP.DEPBAR.LE gsb0, 0x1` (the wait that
leaves one wgmma group in flight: attention's S wait with P V pending),
prints the loop as a run-length list of the instructions that matter and
counts the MUFU.EX2 between the last HGMMA before the loop's full wait
(`gsb0, 0x0`) and that wait: the exponentials that run under P V. With
--min-ex2, exits 1 when fewer than N do (or no such loop exists).
"""

import argparse
import re
import sys

KEYS = ("HGMMA", "WARPGROUP", "MUFU.EX2", "SYNCS", "BAR.", "SHFL", "MEMBAR",
        "F2FP", "STS", "STL", "LDL")


def instructions(text):
    ins = []
    for line in text.splitlines():
        m = re.search(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
    return ins


def steady_loop(ins):
    """(start, end) indices of the loop around the first `gsb0, 0x1` wait."""
    waits = [i for i, (_, t) in enumerate(ins) if "gsb0, 0x1" in t]
    if not waits:
        return None
    k = waits[0]
    for i in range(k, len(ins)):
        t = ins[i][1]
        m = re.search(r"BRA\s+(?:`\(\.L_x_\d+\)\s*)?.*?0x([0-9a-f]+)", t)
        if "BRA" in t and m and int(m.group(1), 16) <= ins[k][0]:
            target = int(m.group(1), 16)
            starts = [j for j, (a, _) in enumerate(ins) if a == target]
            if starts:
                return starts[0], i
    return None


def summarize(body):
    seq = []
    for _, t in body:
        op = t.split()[1] if t.startswith("@") else t.split()[0]
        if "WARPGROUP.DEPBAR" in t:
            op = t[t.find("WARPGROUP"):]
        if not any(k in op for k in KEYS):
            continue
        if seq and seq[-1][0] == op:
            seq[-1][1] += 1
        else:
            seq.append([op, 1])
    return " ".join(f"{o}x{c}" if c > 1 else o for o, c in seq)


def exps_under_last_mma(body):
    """MUFU.EX2 between the last HGMMA and each full wait after it."""
    counts, ex, seen = [], 0, False
    for _, t in body:
        if "HGMMA" in t:
            ex, seen = 0, True
        elif "MUFU.EX2" in t and seen:
            ex += 1
        elif "gsb0, 0x0" in t and seen:
            counts.append(ex)
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sass")
    ap.add_argument("--min-ex2", type=int, default=None)
    opts = ap.parse_args()
    with open(opts.sass) as f:
        ins = instructions(f.read())
    loop = steady_loop(ins)
    if loop is None:
        print("no loop with a `gsb0, 0x1` wait")
        return 1 if opts.min_ex2 is not None else 0
    body = ins[loop[0]:loop[1] + 1]
    counts = exps_under_last_mma(body)
    print(f"loop of {len(body)} instructions; MUFU.EX2 under the last wgmma "
          f"at each full wait: {counts}")
    print(summarize(body))
    if opts.min_ex2 is not None and (not counts or max(counts) < opts.min_ex2):
        print(f"FAIL: fewer than {opts.min_ex2} exponentials run under the wgmma")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
