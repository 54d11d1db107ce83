#!/usr/bin/env python3
"""Plots TFLOPS against sequence length from bench.json (bench/report.py).

usage: plot.py bench.json bench.png
One panel per mask (causal, non-causal); one line per provider: our kernel
(autotuned) and the peers that bench/peers.py times.
"""
import json
import sys

LABELS = {
    "ours": "ours (tile compiler, autotuned)",
    "sdpa_cudnn": "PyTorch SDPA cuDNN",
    "sdpa_flash": "PyTorch SDPA flash (FA2)",
    "triton_fa": "Triton flash attention",
    "sdpa_auto": "PyTorch SDPA default",
    "sdpa_efficient": "PyTorch SDPA mem-efficient",
}
STYLES = {
    "ours": dict(color="tab:red", marker="o", linewidth=2.5),
    "sdpa_cudnn": dict(color="tab:blue", marker="s"),
    "sdpa_flash": dict(color="tab:green", marker="^"),
    "triton_fa": dict(color="tab:purple", marker="D"),
    "sdpa_auto": dict(color="tab:gray", marker=".", linestyle="--"),
    "sdpa_efficient": dict(color="tab:olive", marker="x", linestyle=":"),
}


def plot(bench, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in bench["rows"] if r.get("tflops") is not None]
    cfg = bench.get("config", {})
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), sharey=True)
    for ax, causal in zip(axes, (1, 0)):
        providers = sorted({r["provider"] for r in rows if r["causal"] == causal},
                           key=lambda p: list(LABELS).index(p) if p in LABELS else 99)
        for provider in providers:
            points = sorted((r["S"], r["tflops"]) for r in rows
                            if r["causal"] == causal and r["provider"] == provider)
            if not points:
                continue
            xs, ys = zip(*points)
            ax.plot(xs, ys, label=LABELS.get(provider, provider),
                    **STYLES.get(provider, {}))
        ax.set_xscale("log", base=2)
        seqs = sorted({r["S"] for r in rows})
        if seqs:
            ax.set_xticks(seqs)
            ax.set_xticklabels([f"{s // 1024}k" if s >= 1024 else str(s) for s in seqs])
        ax.set_title("causal" if causal else "non-causal")
        ax.set_xlabel("sequence length S")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("TFLOPS (4·B·H·S²·D / t, halved for causal)")
    axes[0].legend(loc="lower right", fontsize=8)
    fig.suptitle(f"Attention forward on {bench.get('gpu', 'GPU')}: "
                 f"B={cfg.get('B')} H={cfg.get('H')} D={cfg.get('D')} {cfg.get('dtype')}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    with open(sys.argv[1]) as f:
        bench = json.load(f)
    plot(bench, sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
