"""Triton peers for the kernels of kernels/: a matmul with the same epilogue,
a fused row softmax and a LayerNorm forward, written for this comparison in
the way Triton's tutorials write them (autotuned matmul with grouped
ordering; one program per row, the whole row in registers, for softmax and
LayerNorm). Used by bench/bench_kernels.py on the GPU machine.
"""

import torch
import triton
import triton.language as tl


def _matmul_configs():
    configs = []
    for bm, bn, bk, stages, warps in [(128, 256, 64, 3, 8), (256, 128, 64, 3, 8),
                                      (128, 128, 64, 4, 4), (128, 128, 64, 3, 8),
                                      (64, 256, 64, 4, 4), (128, 64, 64, 4, 4),
                                      (64, 64, 64, 4, 4)]:
        configs.append(triton.Config({"BM": bm, "BN": bn, "BK": bk, "GROUP": 8},
                                     num_stages=stages, num_warps=warps))
    return configs


@triton.autotune(configs=_matmul_configs(), key=["M", "N", "K"])
@triton.jit
def _matmul(A, B, C, Bias, scale, M, N, K, sam, sak, sbk, sbn, scm, scn,
            HAS_BIAS: tl.constexpr, ACT: tl.constexpr,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    n_m = tl.cdiv(M, BM)
    n_n = tl.cdiv(N, BN)
    group = GROUP * n_n
    first_m = (pid // group) * GROUP
    size_m = min(n_m - first_m, GROUP)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptr = A + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptr = B + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        k_left = K - k * BK
        a = tl.load(a_ptr, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptr, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptr += BK * sak
        b_ptr += BK * sbk
    acc = acc * scale
    if HAS_BIAS:
        bias = tl.load(Bias + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
        acc = acc + bias[None, :]
    if ACT == 1:
        acc = tl.maximum(acc, 0.0)
    c = acc.to(C.dtype.element_ty)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(C + offs_m[:, None] * scm + offs_n[None, :] * scn, c, mask=mask)


def matmul(a, b, bias=None, scale=1.0, relu=False, out_dtype=None):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=out_dtype or a.dtype)
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]),)
    _matmul[grid](a, b, c, bias if bias is not None else c, scale, M, N, K,
                  a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                  c.stride(0), c.stride(1), HAS_BIAS=bias is not None,
                  ACT=1 if relu else 0)
    return c


@triton.jit
def _softmax(X, Y, n_cols, sx, sy, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * sx + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(Y + row * sy + cols, y.to(Y.dtype.element_ty), mask=cols < n_cols)


def softmax(x):
    M, N = x.shape
    y = torch.empty_like(x)
    block = triton.next_power_of_2(N)
    warps = 4 if block <= 2048 else 8 if block <= 8192 else 16
    _softmax[(M,)](x, y, N, x.stride(0), y.stride(0), BLOCK=block, num_warps=warps)
    return y


@triton.jit
def _layernorm(X, Y, W, B, Mean, Rstd, n_cols, sx, sy, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * sx + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    b = tl.load(B + cols, mask=mask).to(tl.float32)
    tl.store(Y + row * sy + cols, (d * rstd * w + b).to(Y.dtype.element_ty), mask=mask)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)


def layernorm(x, w, b, eps=1e-5):
    M, N = x.shape
    y = torch.empty_like(x)
    mean = torch.empty(M, device=x.device, dtype=torch.float32)
    rstd = torch.empty_like(mean)
    block = triton.next_power_of_2(N)
    warps = 4 if block <= 2048 else 8 if block <= 8192 else 16
    _layernorm[(M,)](x, y, w, b, mean, rstd, N, x.stride(0), y.stride(0), eps,
                     BLOCK=block, num_warps=warps)
    return y
