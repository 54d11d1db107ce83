#!/usr/bin/env bash
# wgmma descriptors as one add on a precomputed low word, warpgroup id
# broadcast from lane 0 (uniform): SASS of old/new, interleaved A/B of the
# best fmha bundles (non-causal and causal) and persistent gemm.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b54
timeout 100 bash bench/gpu.sh build | tail -1
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for b in old-p-pp-n new-p-pp-n old-gemm-f16-n256-p new-gemm-f16-n256-p; do $CUOBJ -sass $D/$b/kernel.cubin > $OUT/$b.sass; done
wc -l $OUT/*.sass
DTYPE=f16 D=128 timeout 260 python3 bench/ab_fmha.py --bundles $D --causal 0 --seqs 2048,4096,16384 --rounds 6 --json $OUT/ab54-n.json 2>&1 | grep -v "^$"
DTYPE=f16 D=128 timeout 150 python3 bench/ab_fmha.py --bundles $D --causal 1 --seqs 2048,16384 --rounds 4 --json $OUT/ab54-c.json 2>&1 | grep -v "^$"
timeout 150 python3 .device/lead/ab_gemm.py $D 4 2>&1 | grep -v "^$"
