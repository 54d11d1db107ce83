#!/usr/bin/env python3
"""Correctness sweep of gemm, softmax and LayerNorm bundles with tile-runner.

For every bundle in --bundles whose manifest names the kernel gemm, softmax
or layernorm, runs `tile-runner --problem KERNEL --shape ...` on the ragged
shapes of issue 9 (M, N, K of 1, 77, 1000, 4097, K = 65 and 100; N up to
32768 for the row kernels): the problem's independent GPU reference and
tolerance rule, outputs poisoned, NaN/Inf and unwritten elements failing.
A shape the bundle refuses before launching (its `requires`, the alignment
contract of its views, the launch limits: exit status 2 with "does not fit")
is recorded as refused, not failed: another variant runs it. Timing against
the peers is bench/bench_kernels.py's job. Plain Python 3.

usage: check_kernels.py --runner BIN --bundles DIR [--out FILE.jsonl]
                        [--quick] [--timeout SECONDS]
Exit status: 0 when no run failed (refusals are fine), 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys

SIZES = [1, 77, 1000, 4097]


def shapes(kernel, quick):
    if kernel == "gemm":
        out = [{"M": m, "N": n, "K": k} for m in SIZES for n in SIZES
               for k in [64, 65, 100]]
        out += [{"M": 1000, "N": 1000, "K": k} for k in SIZES]
        return out[::5] if quick else out
    out = [{"M": m, "N": n} for m in [1, 77, 1000]
           for n in [1, 77, 1000, 1024, 4097, 32768]]
    return out[::3] if quick else out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", required=True)
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--out")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--timeout", type=int, default=300)
    args = ap.parse_args()
    out = open(args.out, "w") if args.out else None
    counts = {"passed": 0, "refused": 0, "failed": 0}
    failures = []
    for name in sorted(os.listdir(args.bundles)):
        path = os.path.join(args.bundles, name)
        try:
            kernel = json.load(open(os.path.join(path, "manifest.json")))["kernel"]
        except (OSError, ValueError, KeyError):
            continue
        if kernel not in ("gemm", "softmax", "layernorm"):
            continue
        for shape in shapes(kernel, args.quick):
            cmd = [args.runner, "--backend=gpu", "--bundle", path, "--problem",
                   kernel, "--shape", ",".join(f"{k}={v}" for k, v in shape.items()),
                   "--json"]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      timeout=args.timeout)
                rc, text = proc.returncode, proc.stdout
            except subprocess.TimeoutExpired:
                rc, text = 124, ""
            try:
                result = json.loads(text)
            except ValueError:
                result = {"error": f"no report (exit {rc})"}
            error = result.get("error") or ""
            if rc == 0:
                status = "passed"
            elif rc == 2 and "does not fit" in error:
                status = "refused"
            else:
                status = "failed"
                failures.append((name, shape, error or "; ".join(result.get("failures", [])),
                                 " ".join(cmd)))
            counts[status] += 1
            if out:
                out.write(json.dumps({"bundle": name, "shape": shape, "status": status,
                                      "exit": rc, "result": result}) + "\n")
    print(f"check_kernels: {counts['passed']} passed, {counts['refused']} refused "
          f"(requires/alignment/limits), {counts['failed']} failed")
    for name, shape, why, cmd in failures[:30]:
        print(f"FAIL {name} {shape}: {why[:200]}\n    {cmd}")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
