#!/usr/bin/env python3
"""Ours against cuDNN under sustained load, with the SM clock and the power
sampled: does one kernel run at a lower clock than the other when each runs
for seconds (power), which ncu's single cold launches do not show
(docs/perf/diary.md, 2026-12-02, seventh session)?

    python3 bench/sustained_fmha.py BUNDLE [S] [CAUSAL] [SECONDS]

fp16, B=4, H=32, D=128. Ours is checked against SDPA's flash backend first.
Then three rounds of ours and cuDNN alternately, SECONDS (2) each, one
second apart; per phase: time per call from CUDA events over the phase,
TFLOPS, and the mean SM clock, mean power and highest temperature of the
`nvidia-smi -lms 50` samples of the phase (its first 0.3 s left out).
Run in run37 and run41 (docs/perf/diary.md, 2026-12-02, eighth session).
"""

import math
import os
import subprocess
import sys
import threading
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tile_launcher  # noqa: E402

B, H, D = 4, 32, 128


def sample_forever(samples):
    """Appends (time, SM clock MHz, power W, temperature C) every 50 ms."""
    proc = subprocess.Popen(
        ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu",
         "--format=csv,noheader,nounits", "-lms", "50"],
        stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        try:
            clock, power, temp = (float(x) for x in line.split(","))
        except ValueError:
            continue
        samples.append((time.time(), clock, power, temp))


def phase(fn, seconds):
    """Runs fn back to back for about `seconds`; (ms a call, start, end)."""
    torch.cuda.synchronize()
    start_event = torch.cuda.Event(enable_timing=True)
    end_event = torch.cuda.Event(enable_timing=True)
    t0 = time.time()
    start_event.record()
    calls = 0
    while time.time() - t0 < seconds:
        for _ in range(20):
            fn()
        calls += 20
        torch.cuda.synchronize()
    end_event.record()
    torch.cuda.synchronize()
    return start_event.elapsed_time(end_event) / calls, t0, time.time()


def main():
    bundle = sys.argv[1]
    seq = int(sys.argv[2]) if len(sys.argv) > 2 else 2048
    causal = len(sys.argv) > 3 and sys.argv[3] == "1"
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 2.0
    q, k, v = (torch.randn(B, H, seq, D, device="cuda", dtype=torch.float16)
               for _ in range(3))
    out = torch.empty_like(q)
    lse = torch.empty(B, H, seq, device="cuda", dtype=torch.float32)
    kernel = tile_launcher.load(bundle)
    flop = 4.0 * B * H * seq * seq * D / (2 if causal else 1)

    def ours():
        kernel(Q=q, K=k, V=v, Out=out, Lse=lse, qk_scale=1 / math.sqrt(D), input_pos=0)

    def cudnn():
        F.scaled_dot_product_attention(q, k, v, is_causal=causal)

    ours()
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    print(f"max |ours - flash| = {(out - ref).abs().max().item():.3g}", flush=True)

    samples = []
    threading.Thread(target=sample_forever, args=(samples,), daemon=True).start()
    time.sleep(1.0)
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        for rnd in range(3):
            for name, fn in (("ours", ours), ("cudnn", cudnn)):
                ms, t0, t1 = phase(fn, seconds)
                sel = [s for s in samples if t0 + 0.3 <= s[0] <= t1]
                n = max(len(sel), 1)
                print(f"round {rnd} {name:5s} {ms * 1e3:8.1f} us "
                      f"{flop / ms / 1e9:6.0f} TFLOPS "
                      f"clock {sum(s[1] for s in sel) / n:6.0f} MHz "
                      f"power {sum(s[2] for s in sel) / n:5.0f} W "
                      f"temp {max((s[3] for s in sel), default=0):3.0f} C "
                      f"({len(sel)} samples)", flush=True)
                time.sleep(1.0)


if __name__ == "__main__":
    main()
