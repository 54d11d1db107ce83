#!/usr/bin/env bash
# One device call of the thirteenth session: the GPU checks and timings of the
# new families (bundles compiled here into .device/SET), each bounded in time,
# logs under $OUT.
# usage: bench/gpu_s13.sh
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
run() { # NAME SECONDS COMMAND...
  local name=$1 secs=$2
  shift 2
  local t0=$(date +%s)
  timeout "$secs" "$@" > "$out/$name.log" 2>&1
  echo "$name rc $? in $(( $(date +%s) - t0 )) s"
}
[ -d .device/fp8 ] && run fp8 80 python3 bench/check_fp8.py .device/fp8
[ -d .device/window ] && run window 130 python3 bench/check_window.py .device/window --dtypes f16 --seqs 8192,16384
[ -d .device/transposed ] && run transposed 40 python3 bench/check_transposed.py .device/transposed
[ -d .device/backward ] && run backward 90 python3 bench/check_backward.py .device/backward --quick
[ -d .device/headdim ] && run headdim 80 python3 bench/check_headdim.py .device/headdim
for f in "$out"/*.log; do
  echo "=== $f"
  grep -v '^ok' "$f" | tail -25
done
