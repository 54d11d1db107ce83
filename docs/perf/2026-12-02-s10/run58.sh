#!/usr/bin/env bash
# Pinned P V waits (exponentials under their own P V) on the fastest
# configuration (persistent, TMA, stores through shared memory, causal
# split loop; with and without ping-pong) against the unpinned twins.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b58
timeout 100 bash bench/gpu.sh build | tail -1
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for b in pin-cs-n pin-cs-pp-n pin-cs-c pin-cs-pp-c; do $CUOBJ -sass $D/$b/kernel.cubin > $OUT/$b.sass; done
DTYPE=f16 D=128 timeout 230 python3 bench/ab_fmha.py --bundles $D --causal 0,1 --seqs 1024,2048,4096,16384 --rounds 4 --json $OUT/ab58.json 2>&1 | grep -v "^$"
