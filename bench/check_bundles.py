#!/usr/bin/env python3
"""Correctness sweep of kernel bundles on the GPU with tile-runner.

For every bundle folder under --bundles, runs tile-runner --backend=gpu on the
shapes of docs/testing.md that the bundle's params admit (head dim, query group,
causal or not, EVEN_K, dtype, LSE): ragged lengths, query/key length pairs,
top-left and bottom-right causal alignment, fresh seeds and two input scales,
and one determinism run. Writes one JSON line per run and prints a summary
with the command that reproduces each failure. Plain Python 3 (no packages).

usage: check_bundles.py --runner BIN --bundles DIR [--mode quick|full]
                        [--out FILE.jsonl] [--timeout SECONDS]
Exit status: 0 when every run passed, 1 otherwise.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

# (seq_q, seq_k) pairs from docs/testing.md.
QUICK = [(1, 1), (97, 97), (128, 128), (257, 257), (1000, 1000), (1023, 1024),
         (1024, 1023), (113, 203), (239, 1), (799, 3)]
FULL = QUICK + [(15, 15), (200, 200), (384, 384), (1025, 1025), (128, 217),
                (203, 113), (1, 1024), (2048, 2048)]


def load_bundles(root):
    bundles = []
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name)
        manifest = os.path.join(path, "manifest.json")
        if not os.path.isfile(manifest):
            continue
        try:
            with open(manifest) as f:
                bundles.append((name, path, json.load(f)))
        except (OSError, ValueError) as e:
            bundles.append((name, path, {"error": str(e)}))
    return bundles


def cases_for(params, mode):
    """The runs a bundle admits: dicts of tile-runner options."""
    d = params.get("HEAD_DIM")
    group = params.get("QUERY_GROUP_SIZE", 1)
    causal = bool(params.get("CAUSAL"))
    even_k = bool(params.get("EVEN_K"))
    tile_n = params.get("TILE_N", 64) or 64
    dtype = params.get("DTYPE", "f16")
    lse = bool(params.get("WITH_LSE"))
    pairs = FULL if mode == "full" else QUICK
    if even_k:
        # Keys must be a multiple of TILE_N: keep the query lengths, round the
        # key lengths up.
        pairs = [(q, max(tile_n, (k + tile_n - 1) // tile_n * tile_n))
                 for q, k in pairs]
        pairs = list(dict.fromkeys(pairs))
    cases = []
    for index, (sq, sk) in enumerate(pairs):
        base = {"--batch": 2, "--heads": 2 * group, "--kv-heads": 2,
                "--head-dim": d, "--seq-q": sq, "--seq-k": sk,
                "--dtype": dtype, "--seed": 1000 + index,
                "--std": 1 if index % 2 == 0 else 0.5}
        if lse:
            base["--lse"] = None
        if not causal:
            cases.append(base)
            continue
        base["--causal"] = None
        cases.append(dict(base, **{"--input-pos": 0}))
        if sq != sk:
            cases.append(dict(base, **{"--input-pos": "bottom-right"}))
    # Large-magnitude inputs and a determinism run on a mid-size shape.
    if cases:
        mid = dict(cases[min(4, len(cases) - 1)])
        cases.append(dict(mid, **{"--std": 4, "--seed": 7}))
        cases.append(dict(mid, **{"--determinism": None, "--seed": 8}))
    return cases


def command(runner, bundle_dir, case):
    # Spills are a performance matter, reported apart; correctness is checked
    # on every variant.
    cmd = [runner, "--backend=gpu", "--bundle", bundle_dir, "--json",
           "--allow-spills"]
    for key, value in case.items():
        cmd.append(key)
        if value is not None:
            cmd.append(str(value))
    return cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runner", required=True)
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--mode", choices=["quick", "full"], default="quick")
    ap.add_argument("--out", default=None)
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()

    bundles = load_bundles(args.bundles)
    if not bundles:
        print(f"check_bundles: no bundle folders in {args.bundles}")
        return 1
    out = open(args.out, "w") if args.out else None
    failures, total, start = [], 0, time.time()
    print(f"{'bundle':<48} {'runs':>5} {'pass':>5} {'fail':>5}  worst error/tolerance")
    for name, path, manifest in bundles:
        if "error" in manifest:
            print(f"{name:<48} {'-':>5} {'-':>5} {'1':>5}  manifest: {manifest['error']}")
            failures.append((name, "manifest.json: " + manifest["error"], ""))
            continue
        cases = cases_for(manifest.get("params", {}), args.mode)
        ptxas = manifest.get("ptxas", {})
        if ptxas.get("spill_stores", 0) or ptxas.get("spill_loads", 0):
            print(f"  note: {name} spills ({ptxas.get('spill_stores')} B stores, "
                  f"{ptxas.get('spill_loads')} B loads)")
        passed = failed = 0
        worst = 0.0
        for case in cases:
            cmd = command(args.runner, path, case)
            total += 1
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True,
                                      timeout=args.timeout)
                rc, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
            except subprocess.TimeoutExpired:
                rc, stdout, stderr = -1, "", f"timed out after {args.timeout} s"
            try:
                result = json.loads(stdout)
            except ValueError:
                result = {"passed": False, "error": stderr.strip()[-500:]}
            ok = rc == 0 and result.get("passed", False)
            check = result.get("check", {})
            if check.get("tolerance"):
                worst = max(worst, check.get("max_error", 0) / check["tolerance"])
            record = {"bundle": name, "case": case, "rc": rc, "passed": ok,
                      "command": shlex.join(cmd), "result": result}
            if out:
                out.write(json.dumps(record) + "\n")
                out.flush()
            if ok:
                passed += 1
                continue
            failed += 1
            why = result.get("error") or "; ".join(result.get("failures", [])) \
                or stderr.strip()[-300:] or f"exit status {rc}"
            failures.append((name, why, shlex.join(cmd)))
        print(f"{name:<48} {len(cases):>5} {passed:>5} {failed:>5}  {worst:.2f}", flush=True)
    print(f"check_bundles: {total} runs over {len(bundles)} bundles, "
          f"{len(failures)} failed, {time.time() - start:.0f} s")
    for name, why, cmd in failures[:40]:
        print(f"  FAIL {name}: {why}")
        if cmd:
            print(f"       {cmd}")
    if len(failures) > 40:
        print(f"  ... and {len(failures) - 40} more (see the JSON lines)")
    if out:
        out.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
