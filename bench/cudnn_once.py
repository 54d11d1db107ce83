#!/usr/bin/env python3
"""One cuDNN SDPA forward after two warm-ups, for a profiler (ncu
--launch-skip 2 --launch-count 1): bench/ncu_fmha.sh.

  python3 bench/cudnn_once.py S CAUSAL [B H D DTYPE]   (CAUSAL: 0 or 1)
"""
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

S, causal = int(sys.argv[1]), sys.argv[2] == "1"
B, H, D = (int(x) for x in (sys.argv[3:6] if len(sys.argv) > 5 else (4, 32, 128)))
dtype = getattr(torch, sys.argv[6] if len(sys.argv) > 6 else "float16")
q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=dtype) for _ in range(3))
with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
    for _ in range(3):
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
torch.cuda.synchronize()
print("ok", tuple(o.shape))
