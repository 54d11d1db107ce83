# Copied from the peers script the project started from (kept outside this
# repository, with the performance notes whose peer figures it measured), so
# that bench/run_gpu.sh times the peers in the same run as our kernel.
# Changes from the original: PROVIDERS (comma-separated names, default
# all) selects the providers, and WARMUP_MS / REP_MS set do_bench's warm-up
# and measuring time (defaults 50 and 200 ms, as in the original). The
# Triton kernel and the timing method are unchanged.
"""Side-by-side attention-forward peers on the GPU machine.

Times PyTorch SDPA backends and a Triton flash-attention forward (written here,
autotuned) on the seed's configuration: B=4, H=32, D=128, fp16, causal and not,
S = 1k..16k. TFLOPS use the FlashAttention convention: 4*B*H*S*S*D, halved for
causal. Prints one CSV line per (provider, causal, S).
"""
import math, os, sys, json
import torch
import triton
import triton.language as tl
from triton.testing import do_bench

B, H, D = int(os.environ.get("B", 4)), int(os.environ.get("H", 32)), int(os.environ.get("D", 128))
HKV = int(os.environ.get("HKV", H))  # KV heads; HKV < H is grouped-query attention
SEQS = [int(s) for s in os.environ.get("SEQS", "1024,2048,4096,8192,16384").split(",")]
# "f16" is bench_kernels.py's spelling (it imports this module with the same
# environment): DTYPE=f16 raised KeyError here.
DT = {"fp16": torch.float16, "f16": torch.float16,
      "bf16": torch.bfloat16}[os.environ.get("DTYPE", "fp16")]
PROVIDERS = [p for p in os.environ.get("PROVIDERS", "").split(",") if p]
WARMUP_MS = int(os.environ.get("WARMUP_MS", 50))
REP_MS = int(os.environ.get("REP_MS", 200))


@triton.jit
def _fa_fwd(Q, K, V, O, sm_scale, S,
            sqb, sqh, sqm, skb, skh, skn, svb, svh, svn, sob, soh, som,
            H: tl.constexpr, GROUP: tl.constexpr, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
            CAUSAL: tl.constexpr):
    pid_m = tl.program_id(0)
    if CAUSAL:  # heavy rows first
        pid_m = tl.num_programs(0) - 1 - pid_m
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    q_ptr = Q + b.to(tl.int64) * sqb + h.to(tl.int64) * sqh
    hk = h // GROUP
    k_ptr = K + b.to(tl.int64) * skb + hk.to(tl.int64) * skh
    v_ptr = V + b.to(tl.int64) * svb + hk.to(tl.int64) * svh
    o_ptr = O + b.to(tl.int64) * sob + h.to(tl.int64) * soh
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(q_ptr + offs_m[:, None] * sqm + offs_d[None, :])
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    scale = sm_scale * 1.4426950408889634
    if CAUSAL:
        hi_free = pid_m * BM
        hi = (pid_m + 1) * BM
    else:
        hi_free = S
        hi = S
    for start in range(0, hi_free, BN):
        start = tl.multiple_of(start, BN)
        k = tl.load(k_ptr + (start + offs_n)[None, :] * skn + offs_d[:, None])
        qk = tl.dot(q, k)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * scale)
        p = tl.math.exp2(qk * scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + (start + offs_n)[:, None] * svn + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    if CAUSAL:
        for start in range(hi_free, hi, BN):
            start = tl.multiple_of(start, BN)
            k = tl.load(k_ptr + (start + offs_n)[None, :] * skn + offs_d[:, None])
            qk = tl.dot(q, k)
            qk = tl.where(offs_m[:, None] >= (start + offs_n)[None, :], qk * scale, -float("inf"))
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            p = tl.math.exp2(qk - m_ij[:, None])
            alpha = tl.math.exp2(m_i - m_ij)
            l_i = l_i * alpha + tl.sum(p, 1)
            acc = acc * alpha[:, None]
            v = tl.load(v_ptr + (start + offs_n)[:, None] * svn + offs_d[None, :])
            acc = tl.dot(p.to(v.dtype), v, acc)
            m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * som + offs_d[None, :], acc.to(O.dtype.element_ty))


_CONFIGS = [triton.Config({"BM": bm, "BN": bn}, num_stages=s, num_warps=w)
            for (bm, bn, s, w) in [(64, 64, 3, 4), (128, 64, 3, 4), (128, 64, 3, 8), (128, 64, 4, 4),
                                   (128, 128, 2, 8), (128, 128, 3, 8)]]  # BN <= BM: the masked tail stays in bounds
_fa_fwd_tuned = triton.autotune(_CONFIGS, key=["S", "CAUSAL"])(_fa_fwd)


def triton_fa(q, k, v, causal):
    Bq, Hq, S, Dq = q.shape
    o = torch.empty_like(q)
    grid = lambda meta: (triton.cdiv(S, meta["BM"]), Bq * Hq)
    _fa_fwd_tuned[grid](q, k, v, o, 1.0 / math.sqrt(Dq), S,
                        *q.stride()[:3], *k.stride()[:3], *v.stride()[:3], *o.stride()[:3],
                        H=Hq, GROUP=Hq // k.shape[1], D=Dq, CAUSAL=causal)
    return o


def flops(S, causal):
    f = 4.0 * B * H * S * S * D
    return f / 2 if causal else f


def main():
    from torch.nn.attention import sdpa_kernel, SDPBackend
    F = torch.nn.functional
    print("# gpu", torch.cuda.get_device_name(), "torch", torch.__version__, "triton", triton.__version__,
          "cudnn", torch.backends.cudnn.version(), f"B={B} H={H} HKV={HKV} D={D} dtype={DT}", flush=True)
    print("provider,causal,S,ms,tflops,maxerr")
    causals = [c == "1" for c in os.environ.get("CAUSAL", "1,0").split(",")]
    backends = {"sdpa_auto": None, "sdpa_flash": SDPBackend.FLASH_ATTENTION,
                "sdpa_cudnn": SDPBackend.CUDNN_ATTENTION, "sdpa_efficient": SDPBackend.EFFICIENT_ATTENTION}
    torch.manual_seed(0)
    for causal in causals:
        for S in SEQS:
            q = torch.randn(B, H, S, D, device="cuda", dtype=DT)
            k, v = (torch.randn(B, HKV, S, D, device="cuda", dtype=DT) for _ in range(2))
            gqa = {"enable_gqa": True} if HKV != H else {}
            ref = None
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal, **gqa)
            runs = {}
            for name, be in backends.items():
                def fn(be=be):
                    if be is None:
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, **gqa)
                    with sdpa_kernel(be):
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, **gqa)
                runs[name] = fn
            runs["triton_fa"] = lambda: triton_fa(q, k, v, causal)
            if PROVIDERS:
                runs = {name: fn for name, fn in runs.items() if name in PROVIDERS}
            for name, fn in runs.items():
                try:
                    out = fn()
                    err = (out.float() - ref.float()).abs().max().item()
                    ms = do_bench(fn, warmup=WARMUP_MS, rep=REP_MS, return_mode="median")
                    print(f"{name},{int(causal)},{S},{ms:.4f},{flops(S, causal) / ms / 1e9:.1f},{err:.2e}", flush=True)
                except Exception as e:  # a backend may refuse a shape
                    print(f"{name},{int(causal)},{S},nan,nan,{type(e).__name__}: {str(e)[:80]}", flush=True)
            del q, k, v, ref
            torch.cuda.empty_cache()
    if os.environ.get("MATMUL", "1") == "0":
        return
    # dense matmul ceiling on this card, same dtype
    a = torch.randn(8192, 8192, device="cuda", dtype=DT)
    bm = torch.randn(8192, 8192, device="cuda", dtype=DT)
    ms = do_bench(lambda: a @ bm, warmup=WARMUP_MS, rep=REP_MS, return_mode="median")
    print(f"matmul_8192,0,8192,{ms:.4f},{2 * 8192**3 / ms / 1e9:.1f},0")


if __name__ == "__main__":
    main()
