"""One GPU call for the Hopper steps: correctness of every bundle on ragged
shapes, then each fmha bundle timed beside cuDNN and FA2, launched through
python/tile_launcher (which builds TMA tensor maps; no tile-runner build).

    python3 bench/hopper_gpu.py --bundles DIR [--check] [--time]
        [--seqs 1024,2048,...] [--json OUT.json]

--check: each bundle on B=2, H=4 (times its GQA group), S_q=300, S_k=333
(S_q = S_k = 384 for EVEN_K bundles), causal bundles with the top-left and
bottom-right alignment (input_pos 0 and S_k - S_q), against a float64
reference with explicit masking; rows that see no key must be 0 (and their
LSE the largest float). Inputs are fresh random numbers, Out is poisoned
with NaN first.
--sanitize: each bundle once on B=1, H=2 (times its group), S_q=300,
S_k=333, bottom-right (for compute-sanitizer: no reference, few launches).
--time: B=4, H=32, D=128 at each S: every bundle that fits (its CAUSAL,
DTYPE and HEAD_DIM, EVEN_K with S a multiple of its TILE_N), checked against
SDPA, timed by triton.testing.do_bench (median, L2 flushed), and cuDNN and
FA2 in the same process. TFLOPS = 4 B H S^2 D / t, halved for causal.
"""

import argparse
import glob
import json
import math
import os
import sys

import torch
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import tile_launcher  # noqa: E402

TDT = {"f16": torch.float16, "bf16": torch.bfloat16}
FLT_MAX = 3.4028234663852886e38


def reference(q, k, v, scale, causal, pos):
    """Float64 attention with explicit masking; also the exp2-domain LSE."""
    B, H, Sq, D = q.shape
    g = H // k.shape[1]
    kk = k.double().repeat_interleave(g, dim=1)
    vv = v.double().repeat_interleave(g, dim=1)
    s = torch.matmul(q.double(), kk.transpose(-1, -2)) * scale
    Sk = k.shape[2]
    if causal:
        i = torch.arange(Sq, device=q.device).view(-1, 1) + pos
        j = torch.arange(Sk, device=q.device).view(1, -1)
        s = s.masked_fill(j > i, float("-inf"))
    empty = torch.isinf(s).all(-1)
    p = torch.softmax(s.masked_fill(empty.unsqueeze(-1), 0.0), -1)
    o = torch.matmul(p, vv).masked_fill(empty.unsqueeze(-1), 0.0)
    lse = (torch.logsumexp(s, -1) / math.log(2)).masked_fill(empty, FLT_MAX)
    return o, lse


def rel(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return ((out - ref).norm() / (ref.norm() or 1.0)).item()


def check(kern, log):
    p = kern.manifest.params
    dt, D, g = p["DTYPE"], p["HEAD_DIM"], p.get("QUERY_GROUP_SIZE", 1)
    causal, lse = bool(p["CAUSAL"]), bool(p.get("WITH_LSE", False))
    Sq, Sk = (384, 384) if p.get("EVEN_K", True) else (300, 333)
    tol = 4e-3 if dt == "f16" else 2e-2
    fails = 0
    for pos in ([0, Sk - Sq] if causal else [0]):
        torch.manual_seed(1000 + pos + D)
        B, H = 2, 4 * g
        q = torch.randn(B, H, Sq, D, device="cuda", dtype=TDT[dt])
        k = torch.randn(B, H // g, Sk, D, device="cuda", dtype=TDT[dt])
        v = torch.randn(B, H // g, Sk, D, device="cuda", dtype=TDT[dt])
        out = torch.full_like(q, float("nan"))
        L = torch.full((B, H, Sq), float("nan"), device="cuda")
        scale = 1 / math.sqrt(D)
        kern(Q=q, K=k, V=v, Out=out, Lse=L, qk_scale=scale, input_pos=pos)
        torch.cuda.synchronize()
        ro, rl = reference(q, k, v, scale, causal, pos)
        err = rel(out, ro)
        msg = f"{kern.name:44s} Sq={Sq} Sk={Sk} pos={pos:3d} err={err:.2e}"
        ok = err <= tol
        if lse:
            lerr = rel(L, rl)
            msg += f" lse_err={lerr:.2e}"
            ok = ok and lerr <= 1e-4
        fails += not ok
        log(msg + (" PASS" if ok else " FAIL"))
    return fails


def sanitize(kern, log):
    p = kern.manifest.params
    dt, D, g = p["DTYPE"], p["HEAD_DIM"], p.get("QUERY_GROUP_SIZE", 1)
    Sq, Sk = (384, 384) if p.get("EVEN_K", True) else (300, 333)
    q = torch.randn(1, 2 * g, Sq, D, device="cuda", dtype=TDT[dt])
    k = torch.randn(1, 2, Sk, D, device="cuda", dtype=TDT[dt])
    out = torch.empty_like(q)
    L = torch.empty(1, 2 * g, Sq, device="cuda")
    kern(Q=q, K=k, V=k, Out=out, Lse=L, qk_scale=1 / math.sqrt(D), input_pos=Sk - Sq)
    torch.cuda.synchronize()
    log(f"{kern.name}: launched")


def bench(fn, rep):
    return do_bench(fn, warmup=10, rep=rep, return_mode="median")


def time_all(kernels, seqs, rep, log):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    F = torch.nn.functional
    B, H, D = 4, 32, 128
    rows = []
    for causal in (True, False):
        for S in seqs:
            torch.manual_seed(S)
            q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16)
                       for _ in range(3))
            flop = 4.0 * B * H * S * S * D / (2 if causal else 1)
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal).double()
            row = {"causal": int(causal), "S": S}
            for name, be in (("cudnn", SDPBackend.CUDNN_ATTENTION),
                             ("fa2", SDPBackend.FLASH_ATTENTION)):
                def fn(be=be):
                    with sdpa_kernel(be):
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                row[name] = flop / bench(fn, rep) / 1e9
            for kern in kernels:
                p = kern.manifest.params
                if (bool(p["CAUSAL"]) != causal or p["DTYPE"] != "f16" or p["HEAD_DIM"] != D
                        or p.get("QUERY_GROUP_SIZE", 1) != 1 or p.get("WITH_LSE")
                        or (p.get("EVEN_K") and S % p["TILE_N"])):
                    continue
                out = torch.full_like(q, float("nan"))
                L = torch.empty(B, H, S, device="cuda")
                args = dict(Q=q, K=k, V=v, Out=out, Lse=L, qk_scale=1 / math.sqrt(D),
                            input_pos=0)
                kern(**args)
                torch.cuda.synchronize()
                err = rel(out, ref)
                if err > 4e-3:
                    row[kern.name] = f"FAIL {err:.2e}"
                    continue
                row[kern.name] = flop / bench(lambda: kern(**args), rep) / 1e9
            rows.append(row)
            log(" ".join(f"{k}={v:.0f}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in row.items()))
            del q, k, v, ref
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--sanitize", action="store_true")
    ap.add_argument("--seqs", default="1024,2048,4096,8192,16384")
    ap.add_argument("--rep", type=int, default=60)
    ap.add_argument("--json")
    opts = ap.parse_args()
    log = lambda m: print(m, flush=True)  # noqa: E731
    kernels = [tile_launcher.load(os.path.dirname(m)) for m in
               sorted(glob.glob(os.path.join(opts.bundles, "*", "manifest.json")))]
    log(f"# {torch.cuda.get_device_name()} torch {torch.__version__} cudnn "
        f"{torch.backends.cudnn.version()}: {len(kernels)} bundles")
    result = {}
    if opts.check:
        fails = 0
        for kern in kernels:
            try:
                fails += check(kern, log)
            except Exception as e:  # a launch error is a failure, not a stop
                fails += 1
                log(f"{kern.name}: FAIL {type(e).__name__}: {e}")
        log(f"check: {len(kernels)} bundles, {fails} failed")
        result["check_failures"] = fails
    if opts.sanitize:
        for kern in kernels:
            sanitize(kern, log)
    if opts.time:
        result["timing"] = time_all(kernels, [int(s) for s in opts.seqs.split(",")],
                                    opts.rep, log)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
