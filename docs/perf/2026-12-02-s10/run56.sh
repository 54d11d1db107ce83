#!/usr/bin/env bash
# The bars at the final compiler (3bb9cac): fmha fp16 D128 S = 1k..16k
# causal and not, bf16 D128 and fp16 D64 at 2k/4k/16k, gemm 4096^3 and
# 8192^3 (interleaved with cuDNN / cuBLAS), and the SASS overlap check.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b56
timeout 100 bash bench/gpu.sh build | tail -1
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for b in p-tmaov-cs-pp-m128n128-w8-s2-n p-tmaov-cs-pp-m128n128-w8-s2-c; do
  $CUOBJ -sass $D/$b/kernel.cubin > /tmp/$b.sass; echo "== $b"; python3 scripts/sass-overlap.py /tmp/$b.sass --min-ex2 32 | tail -4; echo "rc $?"
done
cp /tmp/p-tmaov-cs-pp-m128n128-w8-s2-n.sass $OUT/sass56-pp-n.sass
DTYPE=f16 D=128 timeout 200 python3 bench/ab_fmha.py --bundles $D --causal 1,0 --seqs 1024,2048,4096,8192,16384 --rounds 5 --json $OUT/ab56-f16.json 2>&1 | grep -v "^$"
DTYPE=bf16 D=128 timeout 100 python3 bench/ab_fmha.py --bundles $D --causal 1,0 --seqs 2048,4096,16384 --rounds 4 --json $OUT/ab56-bf16.json 2>&1 | grep -v "^$"
DTYPE=f16 D=64 timeout 100 python3 bench/ab_fmha.py --bundles $D --causal 1,0 --seqs 2048,4096,16384 --rounds 4 --json $OUT/ab56-d64.json 2>&1 | grep -v "^$"
timeout 100 python3 .device/lead/ab_gemm.py .device/lead/g56 4 2>&1 | grep -v "^$" | tee $OUT/ab56-gemm.txt
