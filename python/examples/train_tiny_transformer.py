#!/usr/bin/env python3
"""Trains a small causal transformer twice from one seed, once with
tile_launcher.attention (our forward and backward kernels) and once with
torch's scaled_dot_product_attention, and prints both loss curves and their
largest difference (issue 24: they agree within bf16 noise).

    bench/compile_bundles.sh build/bundles/backward backward   # where tile-compile is
    python3 python/examples/train_tiny_transformer.py --bundles build/bundles/backward

The model: byte-level language model on the repository's own Markdown
(docs/, README.md), 4 pre-norm blocks of d_model 256, 4 heads of D 64
(and with --kv-heads 1 or 2, GQA), MLP 4x, ~3.3M parameters, sequences of
256 (a multiple of the bundles' 64-key tiles), batch 32, AdamW, 300 steps.
Attention runs in bf16 (q, k, v cast, the output cast back), the rest in
f32, so the two runs differ only in the attention kernels. Exit status 1 if
a loss is not finite or the last losses (mean of the last 20 steps) differ
by more than --tolerance.
"""
import argparse
import glob
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(HERE, ".."))
import tile_launcher as tl  # noqa: E402


def corpus(device):
    files = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [
        os.path.join(ROOT, "README.md")]
    data = b"".join(open(f, "rb").read() for f in files if os.path.isfile(f))
    return torch.tensor(list(data), dtype=torch.long, device=device)


def sdpa(q, k, v):
    group = q.shape[1] // k.shape[1]
    if group > 1:
        k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    s = (q @ k.transpose(-1, -2)).float() / math.sqrt(q.shape[-1])
    n = q.shape[2]
    s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), -math.inf)
    return torch.softmax(s, -1).to(q.dtype) @ v


class Block(nn.Module):
    def __init__(self, d, heads, kv_heads, attend):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, d // heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, d + 2 * kv_heads * self.hd, bias=False)
        self.proj = nn.Linear(d, d, bias=False)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.attend = attend

    def forward(self, x):
        B, S, d = x.shape
        qkv = self.qkv(self.ln1(x))
        q, k, v = qkv.split([d, self.kv_heads * self.hd, self.kv_heads * self.hd], -1)
        q = q.view(B, S, self.heads, self.hd).transpose(1, 2)
        k = k.view(B, S, self.kv_heads, self.hd).transpose(1, 2)
        v = v.view(B, S, self.kv_heads, self.hd).transpose(1, 2)
        a = self.attend(q.bfloat16(), k.bfloat16(), v.bfloat16()).float()
        x = x + self.proj(a.transpose(1, 2).reshape(B, S, d))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, attend, d=256, layers=4, heads=4, kv_heads=4, seq=256):
        super().__init__()
        self.emb = nn.Embedding(256, d)
        self.pos = nn.Parameter(torch.zeros(seq, d))
        self.blocks = nn.ModuleList(Block(d, heads, kv_heads, attend) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, 256, bias=False)

    def forward(self, idx):
        x = self.emb(idx) + self.pos[: idx.shape[1]]
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln(x))


def train(attend, data, steps, seed, device, batch=32, seq=256, kv_heads=4, log_every=25):
    torch.manual_seed(seed)
    model = TinyLM(attend, kv_heads=kv_heads, seq=seq).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    g = torch.Generator(device="cpu").manual_seed(seed + 1)
    losses = []
    for step in range(steps):
        starts = torch.randint(0, len(data) - seq - 1, (batch,), generator=g)
        idx = torch.stack([data[s: s + seq] for s in starts.tolist()])
        tgt = torch.stack([data[s + 1: s + seq + 1] for s in starts.tolist()])
        loss = F.cross_entropy(model(idx).reshape(-1, 256), tgt.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if log_every and (step % log_every == 0 or step == steps - 1):
            print(f"  step {step:4d}  loss {losses[-1]:.4f}", flush=True)
    return losses, sum(p.numel() for p in model.parameters())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bundles", default=os.environ.get("TILE_ATTENTION_BUNDLES"),
                   help="folder of attention bundles (default: $TILE_ATTENTION_BUNDLES)")
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--kv-heads", type=int, default=4, choices=[1, 2, 4])
    p.add_argument("--tolerance", type=float, default=0.1,
                   help="largest allowed difference of the final mean losses")
    a = p.parse_args()
    if not torch.cuda.is_available():
        print("needs a CUDA GPU")
        return 2
    device = "cuda"
    bundles = tl.BundleSet(a.bundles) if a.bundles else None
    ours = lambda q, k, v: tl.attention(q, k, v, causal=True, bundles=bundles)  # noqa: E731
    data = corpus(device)
    print(f"corpus {len(data)} bytes; {a.steps} steps, seed {a.seed}, kv heads {a.kv_heads}")
    print("tile_launcher.attention:")
    l_ours, n = train(ours, data, a.steps, a.seed, device, kv_heads=a.kv_heads)
    print("scaled_dot_product_attention:")
    l_ref, _ = train(sdpa, data, a.steps, a.seed, device, kv_heads=a.kv_heads)
    return report(l_ours, l_ref, n, a.tolerance)


def report(l_ours, l_ref, params, tolerance):
    print(f"\n{params / 1e6:.2f}M parameters")
    print(f"{'step':>5} {'ours':>8} {'sdpa':>8} {'diff':>8}")
    for i in list(range(0, len(l_ours), 25)) + [len(l_ours) - 1]:
        print(f"{i:5d} {l_ours[i]:8.4f} {l_ref[i]:8.4f} {l_ours[i] - l_ref[i]:+8.4f}")
    diffs = [abs(x - y) for x, y in zip(l_ours, l_ref)]
    tail = min(20, len(l_ours))
    final = abs(sum(l_ours[-tail:]) - sum(l_ref[-tail:])) / tail
    print(f"max |loss difference| over all steps {max(diffs):.4f} (step "
          f"{diffs.index(max(diffs))}); mean of the last {tail}: ours "
          f"{sum(l_ours[-tail:]) / tail:.4f}, sdpa {sum(l_ref[-tail:]) / tail:.4f}, "
          f"difference {final:.4f} (tolerance {tolerance})")
    finite = all(math.isfinite(x) for x in l_ours + l_ref)
    ok = finite and final <= tolerance
    print("PASS" if ok else "FAIL" + ("" if finite else ": a loss is not finite"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
