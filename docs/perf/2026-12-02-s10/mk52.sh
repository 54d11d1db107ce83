#!/usr/bin/env bash
# Bundles of run52: non-causal persistent ping-pong fmha, fp16 D128, tile N
# 128/160/176/192 (EVEN_K=false, no epilogue scratch) against the perf set's best.
set -euo pipefail
cd /work/main
out=.device/lead/b52; rm -rf $out; mkdir -p $out
v() { local name=$1 params=$2; shift 2
  build/bin/tile-compile kernels/fmha.mlir --quiet --chip=sm_90a --params="$params" -o $out/$name "$@" || echo FAILED $name; }
PN=("--tile-pipeline=tile-O3{overlap-mma=true split-loop=false persistent=132}")
v base-cs-pp-n "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=true" --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${PN[@]}"
v base-cs-n "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=true" --num-warps=8 --stages=2 --tma=on --coalesce-stores=on "${PN[@]}"
v n128-nocs-pp-n "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=true" --num-warps=8 --stages=2 --tma=on --coalesce-stores=off --producer-regs=24 --ping-pong=on "${PN[@]}"
for n in 128 160 176 192; do
v n$n-ragged-pp-n "TILE_M=128,TILE_N=$n,HEAD_DIM=128,CAUSAL=false,EVEN_K=false" --num-warps=8 --stages=2 --tma=on --coalesce-stores=off --producer-regs=24 --ping-pong=on "${PN[@]}"
done
ls $out
