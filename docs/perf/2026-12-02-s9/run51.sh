#!/usr/bin/env bash
# L2 reads by source unit, ours (07a8486 bundle) twice and cuDNN twice, to
# see whether the read-sector count is stable between launches and where
# ours' excess comes from. Non-causal 2k, one cold launch each.
cd "$(dirname "$0")/../.."
export BUILD_DIR=build-runner
timeout 60 bash bench/gpu.sh build | tail -1
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=sm__cycles_elapsed.max,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,dram__bytes_read.sum
B=.device/lead/b47/perf/w1-p-tmaov-cs-pp-m128n128-w8-s2-n
for i in 1 2; do
timeout 60 $NCU --clock-control none --metrics $M -k regex:fmha --launch-count 1 --csv --page raw build-runner/bin/tile-runner --backend=gpu --bundle $B --batch 4 --heads 32 --head-dim 128 --seq 2048 --no-check > $OUT/ours51-$i.csv 2>&1
timeout 60 $NCU --clock-control none --metrics $M -k regex:cudnn --launch-skip 2 --launch-count 1 --csv --page raw python3 bench/cudnn_once.py 2048 0 > $OUT/cudnn51-$i.csv 2>&1
done
for f in ours51-1 ours51-2 cudnn51-1 cudnn51-2; do echo "== $f"; python3 - $OUT/$f.csv <<'PY'
import csv, io, sys
t = open(sys.argv[1]).read()
i = t.find('"ID"')
if i < 0:
    print(t[-600:]); sys.exit()
rows = list(csv.reader(io.StringIO(t[i:])))
for a, b, c in zip(rows[0], rows[1], rows[2]):
    if a.endswith(".sum") or a.endswith(".max"):
        print(" ", a, "=", c, b)
PY
done
