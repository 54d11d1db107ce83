#!/usr/bin/env bash
# Tile N 128..192 for non-causal persistent ping-pong, and the wave-
# quantization test: H = 31/32/33 at S = 2k (1984/2048/2112 tiles of 128
# rows on 132 SMs: 15.03/15.52/16.0 rounds).
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b52
timeout 120 bash bench/gpu.sh build | tail -1
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
for H in 32 31 33; do
  echo "=== H=$H"
  H=$H DTYPE=f16 D=128 timeout 100 python3 bench/ab_fmha.py --bundles $D --causal 0 --seqs 2048 --rounds 6 --json $OUT/ab52-h$H.json 2>&1 | grep -v "^$"
done
echo "=== H=32 big"
H=32 DTYPE=f16 D=128 timeout 220 python3 bench/ab_fmha.py --bundles $D --causal 0 --seqs 4096,16384 --rounds 4 --json $OUT/ab52-big.json 2>&1 | grep -v "^$"
