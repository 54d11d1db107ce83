#!/usr/bin/env python3
"""Gathers one bench/run_gpu.sh run into bench.md, bench.json and bench.png.

usage: report.py --work DIR --out DIR [--config JSON]
Reads from the work folder: ours-c{0,1}-s{S}.json (tile-runner --json of the
autotuned runs), peers.csv (bench/peers.py), checks.jsonl
(bench/check_bundles.py) and steps.tsv (step, status, seconds). Prints the
summary table last. Plain Python 3; the plot needs matplotlib.
"""
import argparse
import csv
import glob
import json
import os
import re
import sys

PEER_COLUMNS = [("sdpa_cudnn", "cuDNN"), ("sdpa_flash", "flash (FA2)"),
                ("triton_fa", "Triton")]


def read_ours(work):
    rows, runs = [], []
    for path in sorted(glob.glob(os.path.join(work, "ours-c*-s*.json"))):
        m = re.search(r"ours-c(\d)-s(\d+)\.json$", path)
        causal, seq = int(m.group(1)), int(m.group(2))
        try:
            with open(path) as f:
                result = json.load(f)
        except (OSError, ValueError) as e:
            result = {"passed": False, "error": f"unreadable output: {e}"}
        timing = result.get("timing", {})
        check = result.get("check", {})
        tune = result.get("autotune", {})
        run = {"causal": causal, "S": seq, "passed": result.get("passed", False),
               "error": result.get("error"), "failures": result.get("failures", []),
               "variant": result.get("kernel", {}).get("name"),
               "params": result.get("kernel", {}).get("params", {}),
               "median_ms": timing.get("median_ms"), "p10_ms": timing.get("p10_ms"),
               "p90_ms": timing.get("p90_ms"), "tflops": timing.get("tflops"),
               "max_error": check.get("max_error"), "tolerance": check.get("tolerance"),
               "rows_checked": check.get("rows_checked"),
               "resources": result.get("resources", {}),
               "autotune_why": tune.get("why"), "autotune_cached": tune.get("cached"),
               "variants": tune.get("variants", [])}
        runs.append(run)
        if run["tflops"]:
            rows.append({"provider": "ours", "causal": causal, "S": seq,
                         "ms": run["median_ms"], "tflops": run["tflops"],
                         "maxerr": run["max_error"], "passed": run["passed"],
                         "variant": run["variant"]})
    return rows, runs


def read_peers(work):
    rows, header = [], []
    path = os.path.join(work, "peers.csv")
    if not os.path.exists(path):
        return rows, header
    with open(path) as f:
        lines = f.read().splitlines()
    header = [l[2:] for l in lines if l.startswith("# ")]
    data = [l for l in lines if l and not l.startswith("#")]
    for rec in csv.DictReader(data):
        try:
            tflops = float(rec["tflops"])
            ms = float(rec["ms"])
        except (TypeError, ValueError):
            tflops = ms = None
        if tflops != tflops:  # nan
            tflops = ms = None
        rows.append({"provider": rec["provider"], "causal": int(rec["causal"]),
                     "S": int(rec["S"]), "ms": ms, "tflops": tflops,
                     "maxerr": rec.get("maxerr")})
    return rows, header


def read_checks(work):
    path = os.path.join(work, "checks.jsonl")
    if not os.path.exists(path):
        return None
    records = []
    with open(path) as f:
        for line in f:
            try:
                records.append(json.loads(line))
            except ValueError:
                pass
    bundles = {}
    for r in records:
        b = bundles.setdefault(r["bundle"], {"runs": 0, "passed": 0})
        b["runs"] += 1
        b["passed"] += bool(r["passed"])
    failed = [{"bundle": r["bundle"], "command": r["command"],
               "why": r["result"].get("error") or "; ".join(r["result"].get("failures", []))}
              for r in records if not r["passed"]]
    return {"runs": len(records), "passed": sum(r["passed"] for r in records),
            "bundles": bundles, "failed": failed}


def read_steps(work):
    path = os.path.join(work, "steps.tsv")
    steps = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    steps.append({"step": parts[0], "status": parts[1], "seconds": parts[2],
                                  "note": parts[3] if len(parts) > 3 else ""})
    return steps


def fmt(value, spec=".0f"):
    return "-" if value is None else format(value, spec)


def markdown(bench):
    cfg = bench["config"]
    rows = bench["rows"]
    lookup = {(r["provider"], r["causal"], r["S"]): r for r in rows}
    seqs = sorted({r["S"] for r in rows} | set(cfg.get("seqs", [])))
    out = [f"# Attention forward: B={cfg['B']} H={cfg['H']} D={cfg['D']} {cfg['dtype']}"
           f" on {bench.get('gpu', '?')}", ""]
    out.append("TFLOPS = 4·B·H·S²·D / time, halved for causal (FlashAttention convention). "
               "Ours: tile-runner, autotuned over the carried bundles, median of "
               f"{cfg.get('reps')} launches with L2 flushed before each (CUDA events). "
               "Peers: bench/peers.py (triton do_bench median). One run, one card.")
    out.append("")
    head = ["S"]
    for causal in (1, 0):
        mask = "causal" if causal else "non-causal"
        head += [f"{mask}: ours"] + [name for _, name in PEER_COLUMNS] + ["ours / best peer"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + " ---: |" * len(head))
    for s in seqs:
        line = [str(s)]
        for causal in (1, 0):
            ours = lookup.get(("ours", causal, s), {}).get("tflops")
            peers = [lookup.get((p, causal, s), {}).get("tflops") for p, _ in PEER_COLUMNS]
            best = max([p for p in peers if p] or [0])
            line += [fmt(ours)] + [fmt(p) for p in peers]
            line.append(f"{ours / best:.2f}" if ours and best else "-")
        out.append("| " + " | ".join(line) + " |")
    out.append("")
    others = sorted({r["provider"] for r in rows} - {"ours"} - {p for p, _ in PEER_COLUMNS})
    if others:
        out.append("Other providers (TFLOPS): " + "; ".join(
            f"{p} " + " / ".join(fmt(lookup.get((p, c, s), {}).get("tflops"))
                                  for c in (1, 0) for s in seqs) for p in others)
                   + " (causal then non-causal, by S).")
        out.append("")

    out.append("## Our kernel: autotune winners and checks")
    out.append("")
    out.append("| mask | S | winner | ms median (p10-p90) | TFLOPS | registers | "
               "max error / tolerance (rows) | result |")
    out.append("| --- | ---: | --- | --- | ---: | ---: | --- | --- |")
    for run in sorted(bench["ours_runs"], key=lambda r: (-r["causal"], r["S"])):
        mask = "causal" if run["causal"] else "non-causal"
        timing = (f"{run['median_ms']:.4f} ({run['p10_ms']:.4f}-{run['p90_ms']:.4f})"
                  if run["median_ms"] else "-")
        check = (f"{run['max_error']:.2e} / {run['tolerance']:.2e} ({run['rows_checked']})"
                 if run["tolerance"] else "-")
        result = "PASS" if run["passed"] else "FAIL: " + (
            run["error"] or "; ".join(run["failures"]))[:160].replace("|", "\\|")
        out.append(f"| {mask} | {run['S']} | {run['variant'] or '-'} | {timing} | "
                   f"{fmt(run['tflops'], '.1f')} | {run['resources'].get('registers', '-')} | "
                   f"{check} | {result} |")
    out.append("")
    for run in sorted(bench["ours_runs"], key=lambda r: (-r["causal"], r["S"])):
        if run["autotune_why"]:
            mask = "causal" if run["causal"] else "non-causal"
            cached = " (cached)" if run["autotune_cached"] else ""
            # Bundles built for the other mask are not candidates; list only
            # the real candidates that were skipped (spills, failures).
            skipped = [f"{v['name']}: {v.get('reason', v['status'])}"
                       for v in run["variants"] if v["status"] != "timed"
                       and "CAUSAL = " not in v.get("reason", "")]
            out.append(f"- {mask} S={run['S']}{cached}: {run['autotune_why']}"
                       + (f". Not timed: {'; '.join(skipped)}" if skipped else ""))
    out.append("")

    checks = bench.get("checks")
    out.append("## Correctness sweep (bench/check_bundles.py)")
    out.append("")
    if checks is None:
        out.append("Not run.")
    else:
        out.append(f"{checks['passed']} of {checks['runs']} runs passed over "
                   f"{len(checks['bundles'])} bundles.")
        for f in checks["failed"][:20]:
            out.append(f"- FAIL {f['bundle']}: {f['why'][:200]}  \n  `{f['command']}`")
    out.append("")
    if bench.get("steps"):
        out.append("## Steps")
        out.append("")
        out.append("| step | status | seconds | note |")
        out.append("| --- | --- | ---: | --- |")
        for s in bench["steps"]:
            out.append(f"| {s['step']} | {s['status']} | {s['seconds']} | {s['note']} |")
        out.append("")
    if bench.get("peers_header"):
        out.append("Peers: " + "; ".join(bench["peers_header"]))
        out.append("")
    return "\n".join(out)


def summary(bench):
    """The short table printed last."""
    lookup = {(r["provider"], r["causal"], r["S"]): r for r in bench["rows"]}
    seqs = sorted({r["S"] for r in bench["rows"]})
    lines = ["TFLOPS        " + "".join(f"{s:>8}" for s in seqs)]
    for causal in (1, 0):
        for provider in ["ours"] + [p for p, _ in PEER_COLUMNS]:
            vals = [lookup.get((provider, causal, s), {}).get("tflops") for s in seqs]
            if any(vals):
                label = f"{'c' if causal else 'nc'} {provider}"
                lines.append(f"{label:<14}" + "".join(f"{fmt(v):>8}" for v in vals))
    checks = bench.get("checks")
    if checks is not None:
        lines.append(f"checks: {checks['passed']}/{checks['runs']} runs passed")
    ours_fail = [r for r in bench["ours_runs"] if not r["passed"]]
    lines.append(f"our sweep: {len(bench['ours_runs']) - len(ours_fail)}/"
                 f"{len(bench['ours_runs'])} runs passed their checks")
    for s in bench.get("steps", []):
        if s["status"] != "ok":
            lines.append(f"step {s['step']}: {s['status']} {s['note']}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--config", default="{}")
    args = ap.parse_args()
    config = json.loads(args.config)
    ours_rows, ours_runs = read_ours(args.work)
    peer_rows, peers_header = read_peers(args.work)
    gpu = next((h.split("gpu ", 1)[1].split(" torch")[0] for h in peers_header
                if h.startswith("gpu ")), None)
    for path in glob.glob(os.path.join(args.work, "ours-*.json")):
        if gpu:
            break
        try:
            with open(path) as f:
                gpu = json.load(f).get("device", {}).get("name")
        except (OSError, ValueError, AttributeError):
            pass
    bench = {"config": config, "gpu": gpu or "GPU", "rows": ours_rows + peer_rows,
             "ours_runs": ours_runs, "peers_header": peers_header,
             "checks": read_checks(args.work), "steps": read_steps(args.work)}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(bench, f, indent=1)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(markdown(bench) + "\n")
    try:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import plot
        plot.plot(bench, os.path.join(args.out, "bench.png"))
    except Exception as e:  # the table and JSON stand without the plot
        print(f"report: no plot ({type(e).__name__}: {e})")
    print(summary(bench))
    return 0


if __name__ == "__main__":
    sys.exit(main())
