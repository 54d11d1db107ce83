#!/usr/bin/env bash
# The pinned persistent kernel (P V wait after the exponentials) at the
# final compiler: SASS overlap count and an interleaved A/B with the
# unpinned best and cuDNN, fp16 D128, S = 1k..16k.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b57
timeout 100 bash bench/gpu.sh build | tail -1
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for b in p-tmaovpin-m128n128-w8-s2-n p-tmaovpin-m128n128-w8-s2-c; do
  $CUOBJ -sass $D/$b/kernel.cubin > $OUT/$b.sass; python3 scripts/sass-overlap.py $OUT/$b.sass --min-ex2 32 | head -1; echo "$b rc $?"
done
DTYPE=f16 D=128 timeout 330 python3 bench/ab_fmha.py --bundles $D --causal 0,1 --seqs 1024,2048,4096,8192,16384 --rounds 4 --json $OUT/ab57.json 2>&1 | grep -v "^$"
