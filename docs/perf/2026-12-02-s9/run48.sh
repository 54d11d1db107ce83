#!/usr/bin/env bash
# GEMM under the one-warp TMA producer: correctness (check_kernels quick on
# 9 TMA gemm bundles), racecheck on the 4-block persistent one, and an
# interleaved A/B against the previous compiler's bundles and cuBLAS.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner PYTHONUNBUFFERED=1
D=.device/lead/b48
timeout 100 bash bench/gpu.sh build | tail -1
R=build-runner/bin/tile-runner
timeout 150 python3 bench/check_kernels.py --runner $R --bundles $D/chk --quick --out $OUT/check48.jsonl > $OUT/check48.log 2>&1; echo "check rc $?"; grep -v "^ok" $OUT/check48.log | tail -14
S=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in racecheck synccheck; do timeout 45 $S --tool $t --error-exitcode 99 $R --backend=gpu --bundle $D/chk/gemm-f16-n256-p4 --problem gemm --shape M=1000,N=777,K=333 > /tmp/san.txt 2>&1; echo "$t gemm rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|result' /tmp/san.txt | tr '\n' ' ')"; done
timeout 200 python3 .device/lead/ab_gemm.py $D/perf 6 2>&1 | grep -v "^$"
