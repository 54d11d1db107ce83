#!/usr/bin/env bash
# After the one-warp producer: instructions, branches, warps, L2 and
# shared counters, ours before (old, 352e3cb) and after (w1, 07a8486) and
# cuDNN, non-causal 2k, one cold launch each.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner
timeout 60 bash bench/gpu.sh build | tail -1
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__sass_inst_executed_op_branch.sum,sm__warps_active.avg.per_cycle_active,lts__t_sectors_op_read.sum,lts__t_requests.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
timeout 60 $NCU --clock-control none --metrics $M -k regex:fmha --launch-count 1 --csv --page raw build-runner/bin/tile-runner --backend=gpu --bundle .device/lead/b47/perf/old-p-tmaov-cs-pp-m128n128-w8-s2-n --batch 4 --heads 32 --head-dim 128 --seq 2048 --no-check > $OUT/old50.csv 2>&1; echo "old50 rc $?"
timeout 60 $NCU --clock-control none --metrics $M -k regex:fmha --launch-count 1 --csv --page raw build-runner/bin/tile-runner --backend=gpu --bundle .device/lead/b47/perf/w1-p-tmaov-cs-pp-m128n128-w8-s2-n --batch 4 --heads 32 --head-dim 128 --seq 2048 --no-check > $OUT/w150.csv 2>&1; echo "w150 rc $?"
timeout 60 $NCU --clock-control none --metrics $M -k regex:cudnn --launch-skip 2 --launch-count 1 --csv --page raw python3 bench/cudnn_once.py 2048 0 > $OUT/cudnn50.csv 2>&1; echo "cudnn rc $?"
for f in old50 w150 cudnn50; do echo "== $f"; python3 - $OUT/$f.csv <<'PY'
import csv, io, sys
t = open(sys.argv[1]).read()
i = t.find('"ID"')
if i < 0:
    print(t[-1500:]); sys.exit()
rows = list(csv.reader(io.StringIO(t[i:])))
h, u, v = rows[0], rows[1], rows[2]
for a, b, c in zip(h, u, v):
    if "__" in a:
        print(a, "=", c, b)
PY
done
