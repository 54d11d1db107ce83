#!/usr/bin/env bash
# Where ours spends its cycles at non-causal 2k: SASS of the best bundle, ncu
# source counters (stall samples per SASS instruction), and the warp-state
# and scheduler sections of ours and cuDNN side by side.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner
timeout 100 bash bench/gpu.sh build | tail -1
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
R=build-runner/bin/tile-runner
B=.device/lead/b52/base-cs-pp-n
A=(--backend=gpu --bundle $B --batch 4 --heads 32 --head-dim 128 --seq 2048 --no-check)
$CUOBJ -sass $B/kernel.cubin > $OUT/base53.sass; wc -l $OUT/base53.sass
timeout 150 $NCU --clock-control none --section SourceCounters --section WarpStateStats --section SchedulerStats --launch-count 1 -k regex:fmha -o /tmp/rep53 $R "${A[@]}" > /tmp/rep53.log 2>&1; echo "ncu rc $?"; tail -3 /tmp/rep53.log
$NCU --import /tmp/rep53.ncu-rep --page source --csv --print-source sass > $OUT/src53.csv 2> /tmp/src.err || { echo "source page failed:"; head -5 /tmp/src.err; $NCU --import /tmp/rep53.ncu-rep --page source --csv > $OUT/src53.csv 2>>/tmp/src.err; }
wc -c $OUT/src53.csv; head -c 1500 $OUT/src53.csv; echo
$NCU --import /tmp/rep53.ncu-rep --page details --csv > $OUT/ws53-ours.csv 2>&1
timeout 120 $NCU --clock-control none --section WarpStateStats --section SchedulerStats -k regex:cudnn --launch-skip 2 --launch-count 1 --page details --csv python3 bench/cudnn_once.py 2048 0 > $OUT/ws53-cudnn.csv 2>&1; echo "cudnn rc $?"
for f in ws53-ours ws53-cudnn; do echo "== $f"; grep -E '"(Warp Cycles Per Issued Instruction|Stall|One or More Eligible|No Eligible|Active Warps Per Scheduler|Eligible Warps Per Scheduler|Issued Warp Per Scheduler|Duration|SM Frequency)' $OUT/$f.csv | awk -F'","' '{print $(NF-2), "=", $NF}' | head -40; done
