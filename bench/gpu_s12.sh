#!/usr/bin/env bash
# One device call of the twelfth session: the GPU checks and timings of the
# new kernel families, each bounded in time, logs under $OUT.
# usage: bench/gpu_s12.sh PART   (PART: a = xent, moe, serving; b = backward, training)
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
case "$1" in
a)
  run xent 170 python3 bench/check_xent.py .device/xent
  run moe 170 python3 bench/check_moe.py .device/moe
  run serving 170 python3 bench/check_serving.py .device/serving
  ;;
b)
  run moe 110 python3 bench/check_moe.py .device/moe
  run backward 280 python3 bench/check_backward.py .device/backward --quick
  run train 140 python3 python/examples/train_tiny_transformer.py --bundles .device/backward
  ;;
esac
