#!/usr/bin/env bash
# run48's sanitizer lines came back empty (rc 255): again, output kept.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner
D=.device/lead/b48
timeout 100 bash bench/gpu.sh build | tail -1
R=build-runner/bin/tile-runner
$R --backend=gpu --bundle $D/chk/gemm-f16-n256-p4 --problem gemm --shape M=1000,N=777,K=333 2>&1 | tail -3
S=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in racecheck synccheck memcheck; do timeout 60 $S --tool $t --error-exitcode 99 $R --backend=gpu --bundle $D/chk/gemm-f16-n256-p4 --problem gemm --shape M=1000,N=777,K=333 > $OUT/san49-$t.txt 2>&1; echo "$t rc=$?"; tail -4 $OUT/san49-$t.txt; done
