"""Our kernels and their peers side by side, in one process with one timer.

Bundles are launched on PyTorch tensors through python/tile_launcher; the
peers are PyTorch (cuBLAS, cuDNN, its own softmax and LayerNorm kernels) and
Triton (bench/triton_peers.py, bench/peers.py). Every timing is
triton.testing.do_bench's median (L2 flushed before each launch); every one
of our results is checked against a float64 PyTorch reference on the same
inputs before it is timed. For each problem and shape the fastest bundle
that fits (its `requires`, its alignment contract) is ours: an autotune
over the bundles given.

    python3 bench/bench_kernels.py --bundles DIR [--problems gemm,softmax,layernorm,attention]
        [--json OUT.json] [--md OUT.md] [--quick]

Environment: WARMUP_MS, REP_MS (do_bench), SEQS / B / H / D for attention.
"""

import argparse
import glob
import json
import math
import os
import sys
import time
import traceback

import torch
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, HERE)
import tile_launcher  # noqa: E402
import triton_peers  # noqa: E402

WARMUP_MS = int(os.environ.get("WARMUP_MS", 25))
REP_MS = int(os.environ.get("REP_MS", 100))
TORCH_DTYPE = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def bench(fn):
    return do_bench(fn, warmup=WARMUP_MS, rep=REP_MS, return_mode="median")


def rel_err(out, ref):
    """||out - ref|| / ||ref|| in float64; inf when out has NaN/Inf."""
    out = out.double()
    if not torch.isfinite(out).all():
        return float("inf")
    denom = ref.norm().item() or 1.0
    return (out - ref).norm().item() / denom


def poisoned(shape, dtype):
    return torch.full(shape, float("nan"), device="cuda", dtype=dtype)


class Result:
    def __init__(self):
        self.rows = []

    def add(self, **row):
        self.rows.append(row)
        cols = " ".join(f"{k}={v}" for k, v in row.items())
        print(cols, flush=True)


def load_bundles(root):
    kernels = []
    for manifest in sorted(glob.glob(os.path.join(root, "*", "manifest.json"))):
        try:
            kernels.append(tile_launcher.load(os.path.dirname(manifest)))
        except tile_launcher.BundleError as e:
            print(f"# skipped {manifest}: {e}", flush=True)
    return kernels


def autotune(cands, make_args, check, result_meta):
    """Times every candidate that accepts the arguments; checks each one's
    output first. Returns (best name, best ms, {name: ms or reason})."""
    times = {}
    for k in cands:
        try:
            args = make_args(k)
            k.plan(**args)
        except (tile_launcher.LaunchError, tile_launcher.BundleError) as e:
            times[k.name] = f"does not fit: {e}"
            continue
        try:
            k(**args)
            torch.cuda.synchronize()
            err = check(k, args)
            if err is not None:
                times[k.name] = f"WRONG: {err}"
                print(f"# {result_meta} {k.name}: WRONG: {err}", flush=True)
                continue
            times[k.name] = bench(lambda: k(**args))
        except Exception as e:  # a fault poisons the context: stop this problem
            times[k.name] = f"error: {type(e).__name__}: {e}"
            print(f"# {result_meta} {k.name}: {times[k.name]}", flush=True)
            if isinstance(e, tile_launcher.CudaError):
                raise
    timed = {n: t for n, t in times.items() if isinstance(t, float)}
    if not timed:
        return None, float("nan"), times
    best = min(timed, key=timed.get)
    return best, timed[best], times


# --------------------------------------------------------------------------
# GEMM: C = scale * A @ B (+ bias, act); compared with torch.matmul (cuBLAS)
# and a Triton matmul. TFLOPS = 2 M N K / t.

def gemm_shapes(quick):
    big = [(4096, 4096, 4096), (8192, 8192, 8192)]
    skinny = [(16, 8192, 8192), (8192, 128, 8192), (1000, 77, 4097)]
    return big[:1] if quick else big + skinny


def run_gemm(kernels, res, quick):
    for dt in ["f16", "bf16"]:
        tdt = TORCH_DTYPE[dt]
        cands = [k for k in kernels if k.manifest.kernel == "gemm"
                 and k.manifest.params.get("IN_DTYPE") == dt
                 and k.manifest.params.get("OUT_DTYPE") == dt
                 and not k.manifest.params.get("TRANS_B", False)
                 and not k.manifest.params.get("HAS_BIAS", False)
                 and k.manifest.params.get("ACTIVATION", 0) == 0]
        for (M, N, K) in gemm_shapes(quick):
            torch.manual_seed(M + N + K)
            a = torch.randn(M, K, device="cuda", dtype=tdt)
            b = torch.randn(K, N, device="cuda", dtype=tdt)
            ref = None
            flop = 2.0 * M * N * K

            def make_args(k):
                return dict(A=a, B=b, C=poisoned((M, N), tdt),
                            Bias=torch.zeros(N, device="cuda", dtype=tdt), scale=1.0)

            def check(k, args):
                nonlocal ref
                if ref is None:
                    ref = a.double() @ b.double()
                err = rel_err(args["C"], ref)
                tol = 2e-3 if dt == "f16" else 1e-2
                return None if err <= tol else f"relative error {err:.2e} > {tol}"

            best, ms, times = autotune(cands, make_args, check, f"gemm {dt} {M}x{N}x{K}")
            peers = {"torch": bench(lambda: a @ b),
                     "triton": bench(lambda: triton_peers.matmul(a, b))}
            res.add(problem="gemm", dtype=dt, shape=f"{M}x{N}x{K}", ours=best,
                    ours_ms=ms, ours_tflops=flop / ms / 1e9 if best else None,
                    **{f"{p}_tflops": flop / t / 1e9 for p, t in peers.items()},
                    candidates=times)
            del a, b, ref
            torch.cuda.empty_cache()


# --------------------------------------------------------------------------
# Softmax and LayerNorm: memory bound; GB/s counting bytes read + written.

ROW_SHAPES = [(131072, 1024), (32768, 4096), (16384, 8192), (4096, 32768)]


def copy_bandwidth(res):
    x = torch.randn(128 << 20, device="cuda", dtype=torch.float16)
    y = torch.empty_like(x)
    ms = bench(lambda: y.copy_(x))
    gbs = 2 * x.numel() * 2 / ms / 1e6
    res.add(problem="copy", dtype="f16", shape="128Mi", ours=None, torch_gbs=gbs)
    return gbs


def run_softmax(kernels, res, quick):
    dt = "f16"
    tdt = TORCH_DTYPE[dt]
    cands = [k for k in kernels if k.manifest.kernel == "softmax"
             and k.manifest.params.get("DTYPE") == dt]
    for (M, N) in ROW_SHAPES[:2] if quick else ROW_SHAPES:
        torch.manual_seed(N)
        x = torch.randn(M, N, device="cuda", dtype=tdt) * 3
        nbytes = 2 * M * N * x.element_size()
        ref = None

        def make_args(k):
            return dict(X=x, Y=poisoned((M, N), tdt))

        def check(k, args):
            nonlocal ref
            if ref is None:
                ref = torch.softmax(x.double(), dim=1)
            err = rel_err(args["Y"], ref)
            return None if err <= 2e-3 else f"relative error {err:.2e} > 2e-3"

        best, ms, times = autotune(cands, make_args, check, f"softmax {M}x{N}")
        peers = {"torch": bench(lambda: torch.softmax(x, dim=1)),
                 "triton": bench(lambda: triton_peers.softmax(x))}
        res.add(problem="softmax", dtype=dt, shape=f"{M}x{N}", ours=best, ours_ms=ms,
                ours_gbs=nbytes / ms / 1e6 if best else None,
                **{f"{p}_gbs": nbytes / t / 1e6 for p, t in peers.items()},
                candidates=times)
        del x, ref
        torch.cuda.empty_cache()


def run_layernorm(kernels, res, quick):
    dt = "f16"
    tdt = TORCH_DTYPE[dt]
    eps = 1e-5
    cands = [k for k in kernels if k.manifest.kernel == "layernorm"
             and k.manifest.params.get("DTYPE") == dt
             and not k.manifest.params.get("RMS", False)]
    for (M, N) in ROW_SHAPES[:2] if quick else ROW_SHAPES:
        torch.manual_seed(N + 1)
        x = torch.randn(M, N, device="cuda", dtype=tdt) * 2 + 0.5
        w = torch.randn(N, device="cuda", dtype=tdt)
        b = torch.randn(N, device="cuda", dtype=tdt)
        nbytes = 2 * M * N * x.element_size()
        ref = None

        def make_args(k):
            return dict(X=x, W=w, B=b, Y=poisoned((M, N), tdt),
                        Mean=poisoned((M,), torch.float32),
                        Rstd=poisoned((M,), torch.float32), eps=eps)

        def check(k, args):
            nonlocal ref
            if ref is None:
                xd = x.double()
                mean = xd.mean(dim=1)
                var = xd.var(dim=1, unbiased=False)
                rstd = 1 / torch.sqrt(var + eps)
                y = (xd - mean[:, None]) * rstd[:, None] * w.double() + b.double()
                ref = (y, mean, rstd)
            errs = [rel_err(args["Y"], ref[0]), rel_err(args["Mean"], ref[1]),
                    rel_err(args["Rstd"], ref[2])]
            tols = [4e-3, 1e-4, 1e-4]
            bad = [f"{n} {e:.2e} > {t}" for n, e, t in zip(["Y", "Mean", "Rstd"], errs, tols) if e > t]
            return "; ".join(bad) or None

        best, ms, times = autotune(cands, make_args, check, f"layernorm {M}x{N}")
        peers = {"torch": bench(lambda: torch.nn.functional.layer_norm(x, (N,), w, b, eps)),
                 "triton": bench(lambda: triton_peers.layernorm(x, w, b, eps))}
        res.add(problem="layernorm", dtype=dt, shape=f"{M}x{N}", ours=best, ours_ms=ms,
                ours_gbs=nbytes / ms / 1e6 if best else None,
                **{f"{p}_gbs": nbytes / t / 1e6 for p, t in peers.items()},
                candidates=times)
        del x, w, b, ref
        torch.cuda.empty_cache()


# --------------------------------------------------------------------------
# Attention forward (B, H, S, D), TFLOPS = 4 B H S^2 D, halved for causal.

def attention_candidates(kernels, dt, d, causal):
    """The fmha bundles for dtype `dt`, head dim `d`, causal or not, without
    GQA or LSE, sliding window or soft-cap: the problem bench_kernels.py and
    ab_fmha.py time."""
    return [k for k in kernels if k.manifest.kernel == "fmha"
            and k.manifest.params.get("DTYPE") == dt
            and k.manifest.params.get("HEAD_DIM") == d
            and bool(k.manifest.params.get("CAUSAL")) == causal
            and k.manifest.params.get("QUERY_GROUP_SIZE", 1) == 1
            and not k.manifest.params.get("WITH_LSE", False)
            and k.manifest.params.get("WINDOW_LEFT", -1) < 0
            and k.manifest.params.get("WINDOW_RIGHT", -1) < 0
            and k.manifest.params.get("SOFTCAP", 0) <= 0]


def attention_args(q, k, v):
    """One fmha launch's arguments: a poisoned output, top-left alignment."""
    B, H, S, D = q.shape
    return dict(Q=q, K=k, V=v, Out=poisoned((B, H, S, D), q.dtype),
                Lse=torch.empty(B, H, S, device="cuda", dtype=torch.float32),
                qk_scale=1 / math.sqrt(D), input_pos=0)


def run_attention(kernels, res, quick):
    import peers  # bench/peers.py: the Triton flash attention
    from torch.nn.attention import SDPBackend, sdpa_kernel
    F = torch.nn.functional
    B, H, D = (int(os.environ.get(k, v)) for k, v in (("B", 4), ("H", 32), ("D", 128)))
    dt = os.environ.get("DTYPE", "f16")
    tdt = TORCH_DTYPE[dt]
    seqs = [int(s) for s in os.environ.get("SEQS", "1024,2048,4096,8192,16384").split(",")]
    if quick:
        seqs = seqs[:2]
    for causal in [True, False]:
        cands = attention_candidates(kernels, dt, D, causal)
        for S in seqs:
            torch.manual_seed(S)
            q, k_, v = (torch.randn(B, H, S, D, device="cuda", dtype=tdt) for _ in range(3))
            flop = 4.0 * B * H * S * S * D / (2 if causal else 1)
            ref = None

            def make_args(kern):
                return attention_args(q, k_, v)

            def check(kern, args):
                nonlocal ref
                if ref is None:
                    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                        ref = F.scaled_dot_product_attention(q, k_, v, is_causal=causal).double()
                err = rel_err(args["Out"], ref)
                return None if err <= 4e-3 else f"relative error {err:.2e} vs SDPA flash"

            best, ms, times = autotune(cands, make_args, check,
                                       f"fmha causal={int(causal)} S={S}")
            peer = {}
            for name, be in [("cudnn", SDPBackend.CUDNN_ATTENTION),
                             ("fa2", SDPBackend.FLASH_ATTENTION)]:
                def fn(be=be):
                    with sdpa_kernel(be):
                        return F.scaled_dot_product_attention(q, k_, v, is_causal=causal)
                try:
                    peer[name] = bench(fn)
                except Exception as e:
                    print(f"# {name} refused: {e}", flush=True)
            peer["triton"] = bench(lambda: peers.triton_fa(q, k_, v, causal))
            res.add(problem="attention", dtype=dt, shape=f"B{B}H{H}S{S}D{D}",
                    causal=int(causal), ours=best, ours_ms=ms,
                    ours_tflops=flop / ms / 1e9 if best else None,
                    **{f"{p}_tflops": flop / t / 1e9 for p, t in peer.items()},
                    candidates=times)
            del q, k_, v, ref
            torch.cuda.empty_cache()


def markdown(rows):
    out = []
    for problem, unit in [("gemm", "tflops"), ("softmax", "gbs"),
                          ("layernorm", "gbs"), ("attention", "tflops")]:
        sel = [r for r in rows if r["problem"] == problem]
        if not sel:
            continue
        peers = sorted({k[:-len(unit) - 1] for r in sel for k in r
                        if k.endswith("_" + unit) and not k.startswith("ours")})
        out.append(f"\n### {problem} ({'TFLOPS' if unit == 'tflops' else 'GB/s'})\n")
        out.append("| shape | dtype | " + ("causal | " if problem == "attention" else "")
                   + "ours | " + " | ".join(peers) + " | best bundle |")
        out.append("| --- " * (4 + len(peers) + (problem == "attention")) + "|")
        for r in sel:
            fmt = lambda v: "-" if v is None else f"{v:.0f}"
            out.append(f"| {r['shape']} | {r['dtype']} | "
                       + (f"{r['causal']} | " if problem == "attention" else "")
                       + fmt(r.get(f"ours_{unit}")) + " | "
                       + " | ".join(fmt(r.get(f"{p}_{unit}")) for p in peers)
                       + f" | {r['ours'] or 'none fits'} |")
    copy = [r for r in rows if r["problem"] == "copy"]
    if copy:
        out.append(f"\nDevice copy (f16, 128 Mi elements): {copy[0]['torch_gbs']:.0f} GB/s")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--problems", default="gemm,softmax,layernorm,attention")
    ap.add_argument("--json")
    ap.add_argument("--md")
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} "
          f"cudnn {torch.backends.cudnn.version()} {time.strftime('%Y-%m-%d %H:%M')}",
          flush=True)
    kernels = load_bundles(opts.bundles)
    print(f"# {len(kernels)} bundles", flush=True)
    res = Result()
    runners = {"gemm": run_gemm, "softmax": run_softmax,
               "layernorm": run_layernorm, "attention": run_attention}
    problems = opts.problems.split(",")
    if "softmax" in problems or "layernorm" in problems:
        copy_bandwidth(res)
    for p in problems:
        try:
            runners[p](kernels, res, opts.quick)
        except Exception:
            print(f"# {p} stopped:\n{traceback.format_exc()}", flush=True)
    md = markdown(res.rows)
    print(md, flush=True)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(res.rows, f, indent=1, default=str)
    if opts.md:
        with open(opts.md, "w") as f:
            f.write(md)


if __name__ == "__main__":
    main()
