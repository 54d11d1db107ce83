# One cuDNN SDPA forward (after two warm-ups), for ncu: python3 cudnn_once.py S CAUSAL
import sys, torch
from torch.nn.attention import sdpa_kernel, SDPBackend
S, causal = int(sys.argv[1]), sys.argv[2] == "1"
q, k, v = (torch.randn(4, 32, S, 128, device="cuda", dtype=torch.float16) for _ in range(3))
with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
    for _ in range(3):
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
torch.cuda.synchronize()
print("ok", o.shape)
