#!/usr/bin/env bash
# Compiles kernel bundles for the GPU machine (which has no MLIR) into one
# folder, from a list of variants. Run here, then carry the folder.
#
# usage: bench/compile_bundles.sh OUT_DIR SET
#   SET = check  : variants for the correctness sweep (dtypes, head dims,
#                  GQA, LSE, EVEN_K false/true, causal and not, two tilings)
#         perf   : the autotune space for B=4 H=32 D=128 fp16
#         ladder : the cuTile post's optimization ladder, one bundle a step
#         hopper : the Hopper steps of docs/perf/diary.md, one bundle a step
#                  (B=4 H=32 D=128 fp16, 128x128 tiles, 2 stages)
#         dtypes: fmha bf16 D=128 and fp16 D=64 (the perf set's best configurations)
#         kernels: gemm, softmax and layernorm (kernels/*.mlir): the variants
#                  bench/check_kernels.py checks and bench_kernels.py times
#         splitk : kernels/gemm_splitk.mlir for skinny GEMMs (M <= 128, long
#                  K): tiles x SPLIT_K x stages, f16 and bf16, and two sm_80
#                  variants, named splitk-DTYPE-mBMnBN-kSK[-sS]-CHIP:
#                  bench/check_splitk.py checks and times them
#         data   : the kernels of test/Pipelines/Inputs/data (gather, scatter,
#                  atomics, tile.read, element offsets, argmax) for sm_90a
#                  and sm_80, named NAME-CHIP: bench/check_data_ops.py
#         norms  : the memory-bound LLM kernels (add_norm and its backward,
#                  rope, embedding and its backward): bench/check_norms.py
#         moe    : the mixture-of-experts kernels (grouped GEMM, router,
#                  permute, un-permute) for sm_90a and sm_80: bench/check_moe.py
#         backward: the attention backward's kernels and the forward with
#                  LSE (every dtype, head dim, causal, GQA 1/4, EVEN_K), and
#                  main-kernel variants in variants/: bench/check_backward.py
#         transposed: C = A^T B^T with both mma operands read
#                  transposed from their loads' shared tiles (sm_90a wgmma
#                  and mma.sync, sm_80): bench/check_transposed.py
#         serving: kernels/paged_decode.mlir and kernels/varlen_fmha.mlir
#                  (and the dense fmha for comparison), named NAME-CHIP:
#                  bench/check_serving.py
#         xent   : cross-entropy, SwiGLU, GeLU and dropout (kernels/
#                  cross_entropy.mlir, swiglu.mlir, gelu.mlir, dropout.mlir)
#                  for sm_90a and sm_80, named KERNEL-TOKENS-CHIP (-a2/-a4:
#                  any row length; -time: also timed): bench/check_xent.py
#         fp8    : kernels/gemm_fp8.mlir (e4m3 GEMM with scales), sm_90a:
#                  bench/check_fp8.py
#         window : kernels/fmha.mlir with a sliding window and/or soft-cap
#                  (sm_90a timed, chkwindow-* checked; sm_80 too):
#                  bench/check_window.py
#         syntax : kernels/pool_mean.mlir (shape expressions, type aliases):
#                  bench/check_syntax.py
# Environment: CHIP (default sm_90a), BUILD_DIR (default build),
#   ALLOW_SPILLS (default 1): tile-compile refuses a kernel that ptxas
#   reports spilling unless --allow-spills; these sets keep spilling
#   candidates on purpose (the autotune space measures them, the causal
#   split-loop variants spill a few bytes), and the runner applies its own
#   spill policy when it runs them (--allow-spills there). ALLOW_SPILLS=0
#   makes a spilling variant a compile failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: compile_bundles.sh OUT_DIR SET}
set_name=${2:?usage: compile_bundles.sh OUT_DIR SET}
CHIP=${CHIP:-sm_90a}
BUILD_DIR=${BUILD_DIR:-$root/build}
compile="$BUILD_DIR/bin/tile-compile"
mkdir -p "$out"

# variant NAME PARAMS [tile-compile options...]; the kernel is $KERNEL
# (default fmha).
variant() {
  local name=$1 params=$2
  shift 2
  local spills=()
  [ "${ALLOW_SPILLS:-1}" = 1 ] && spills=(--allow-spills)
  if "$compile" "$root/kernels/${KERNEL:-fmha}.mlir" --quiet --chip="$CHIP" \
      --params="$params" -o "$out/$name" "${spills[@]}" "$@"; then
    printf '%-40s %s\n' "$name" "$(python3 -c "import json,sys;d=json.load(open('$out/$name/manifest.json'));p=d.get('ptxas',{});print('regs',p.get('registers'),'spills',p.get('spill_stores'),'smem',d['shared_bytes'],'warps',d['num_warps'],'wgmma' if d.get('mma_version')==3 else 'mma.sync')")"
  else
    echo "FAILED to compile $name" >&2
    return 1
  fi
}

O3="tile-O3"

# overlap_switches c|n [OPTIONS]: the overlapped pipeline of the fastest
# bundles (docs/perf/diary.md, 2026-12-02) into the array OVERLAP, with more
# tile-O3 options if given. Causal keeps the split loop, which needs the
# 24-register producer not to spill; non-causal runs unsplit.
overlap_switches() {
  local more=${2:+ $2}
  if [ "$1" = c ]; then
    OVERLAP=(--producer-regs=24 "--tile-pipeline=tile-O3{overlap-mma=true$more}")
  else
    OVERLAP=("--tile-pipeline=tile-O3{overlap-mma=true split-loop=false$more}")
  fi
}
# persistent_options c|n: the tile pipeline options that make one block an
# SM walk the tiles (tile-persistent, 132 blocks; causal query tiles in
# pairs) into PERSIST.
persistent_options() {
  PERSIST="persistent=132"
  [ "$1" = c ] && PERSIST="$PERSIST persistent-order=paired"
  return 0
}
case "$set_name" in
check)
  for causal in true false; do
    c=$([ $causal = true ] && echo c || echo n)
    variant "f16-d128-m128n64-$c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false"
    variant "f16-d128-m64n64-$c" "TILE_M=64,TILE_N=64,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false" --num-warps=4
    variant "bf16-d128-m128n64-$c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false,DTYPE=bf16"
    variant "f16-d64-m128n64-lse-$c" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=$causal,EVEN_K=false,WITH_LSE=true"
  done
  variant "f16-d128-m128n64-g3-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false,QUERY_GROUP_SIZE=3"
  variant "f16-d128-m128n64-g4-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false,QUERY_GROUP_SIZE=4"
  variant "f16-d128-m128n64-even-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=true"
  variant "f16-d128-m128n64-even-n" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=false,EVEN_K=true"
  # The optimized pipeline (fast math, split loop, remap) on ragged shapes.
  variant "o3-f16-d128-m128n64-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --tile-pipeline=$O3
  variant "o3-f16-d128-m128n32-w4-c" "TILE_M=128,TILE_N=32,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --num-warps=4 --tile-pipeline=$O3
  variant "o3-bf16-d128-m128n128-n" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=false,DTYPE=bf16" --tile-pipeline=$O3
  variant "o3-f16-d64-m128n64-lse-g4-c" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=true,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4" --tile-pipeline=$O3
  variant "o3-f16-d128-m64n64-sm80-c" "TILE_M=64,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --num-warps=4 --chip=sm_80 --tile-pipeline=$O3
  # On sm_90a the variants above use wgmma; these keep mma.sync covered there.
  variant "sync-f16-d128-m128n64-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --mma-version=2 --tile-pipeline=$O3
  variant "sync-bf16-d64-m128n64-lse-n" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=false,EVEN_K=false,WITH_LSE=true,DTYPE=bf16" --mma-version=2
  # tile-overlap-mma on ragged shapes, GQA, LSE, bf16, rows without keys.
  variant "ov-f16-d128-m128n64-n" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=false,EVEN_K=false" "--tile-pipeline=$O3{overlap-mma=true}"
  variant "ov-bf16-d64-m128n64-lse-g4-c" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=true,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4,DTYPE=bf16" "--tile-pipeline=$O3{overlap-mma=true}"
  variant "ov-nosplit-f16-d128-m128n128-c" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --stages=2 "--tile-pipeline=$O3{overlap-mma=true split-loop=false}"
  # The Hopper pipeline's switches on ragged shapes: mbarrier stages without
  # the producer warpgroup, and the block-wide barriers of before.
  variant "mb-f16-d128-m128n64-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --warp-specialize=off --tile-pipeline=$O3
  variant "mb-bf16-d64-m128n64-lse-g4-n" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=false,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4,DTYPE=bf16" --warp-specialize=off --tile-pipeline=$O3
  variant "bar-f16-d128-m128n64-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --warp-specialize=off --sync=barrier --tile-pipeline=$O3
  variant "ws-f16-d128-m128n128-s2-n" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=false" --stages=2 --tile-pipeline=$O3 --tma=off
  variant "ws-r24-bf16-d64-m128n64-lse-g4-c" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=true,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4,DTYPE=bf16" --producer-regs=24 --tile-pipeline=$O3 --tma=off
  # Ping-pong and pinned waits (opt-in, docs/perf/diary.md) and TMA loads on
  # ragged shapes, both causal alignments, GQA, LSE, bf16, D = 64.
  variant "pp-f16-d128-m128n128-s2-c" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --stages=2 --ping-pong=on --pin-waits=true "--tile-pipeline=$O3{overlap-mma=true split-loop=false}" --tma=off
  variant "pp-bf16-d64-m128n64-lse-g4-c" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=true,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4,DTYPE=bf16" --ping-pong=on --tile-pipeline=$O3 --tma=off
  variant "tma-f16-d128-m128n128-s2-n" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=false" --stages=2 --tma=on "--tile-pipeline=$O3{overlap-mma=true split-loop=false}"
  variant "tma-f16-d128-m128n64-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --tma=on --tile-pipeline=$O3
  variant "tma-bf16-d64-m128n64-lse-g4-n" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=false,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4,DTYPE=bf16" --tma=on --tile-pipeline=$O3
  # coalesce-stores on ragged shapes (each warp stores the rows it computed
  # through shared memory, warp barriers only): the fastest configuration
  # made persistent by tile-persistent (causal pairs; non-causal), bf16
  # D=64 GQA with LSE, and mma.sync on 4 warps (whose 128-row tiles repeat
  # the 64-row block tile).
  overlap_switches c "persistent=7 persistent-order=paired"
  variant "cs-pass-p-f16-d128-m128n128-s2-pp-c" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" \
    --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${OVERLAP[@]}"
  overlap_switches n "persistent=7"
  variant "cs-pass-p-f16-d128-m128n128-s2-pp-n" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=false" \
    --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${OVERLAP[@]}"
  variant "cs-bf16-d64-m128n64-lse-g4-n" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=false,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4,DTYPE=bf16" \
    --tma=on --coalesce-stores=on --tile-pipeline=$O3
  variant "cs-sync-f16-d64-m128n64-w4-c" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=true,EVEN_K=false" \
    --num-warps=4 --mma-version=2 --coalesce-stores=on --tile-pipeline=$O3
  # tile-persistent on ragged shapes: 7 or 5 blocks, several tiles each
  # (overlapped causal pairs; bf16 D=64 GQA 4 with LSE).
  variant "pass-p-f16-d128-m128n128-s2-c" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --stages=2 \
    --producer-regs=24 "--tile-pipeline=$O3{overlap-mma=true persistent=7 persistent-order=paired}"
  variant "pass-p-bf16-d64-m128n64-lse-g4-n" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=false,EVEN_K=false,WITH_LSE=true,QUERY_GROUP_SIZE=4,DTYPE=bf16" \
    "--tile-pipeline=$O3{persistent=5}"
  # wgmma with N = 96 (not a power of two) on ragged shapes.
  variant "o3-f16-d128-m128n96-c" "TILE_M=128,TILE_N=96,HEAD_DIM=128,CAUSAL=true,EVEN_K=false" --tile-pipeline=$O3
  ;;
perf)
  # The autotune space for B=4 H=32 D=128 fp16 (S a multiple of 128), tile-O3.
  # TMA is the sm_90a default since 2026-12-02; the wg-/ov-/ws- variants keep
  # cp.async (--tma=off), their tma- twins are below.
  # On sm_90a the tensor cores run wgmma (two warpgroups of 64 rows, 8
  # warps); the best mma.sync variants of the earlier search stay in the
  # space (--mma-version=2) so that the autotuner compares both.
  for causal in true false; do
    c=$([ $causal = true ] && echo c || echo n)
    common="HEAD_DIM=128,CAUSAL=$causal,EVEN_K=true"
    variant "wg-m128n128-w8-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --tile-pipeline=$O3 --tma=off
    variant "wg-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 --tile-pipeline=$O3 --tma=off
    variant "wg-m128n64-w8-$c" "TILE_M=128,TILE_N=64,$common" --num-warps=8 --tile-pipeline=$O3 --tma=off
    variant "wg-m128n64-w8-s4-$c" "TILE_M=128,TILE_N=64,$common" --num-warps=8 --stages=4 --tile-pipeline=$O3 --tma=off
    # 96 keys per tile: not every S is a multiple, so the masked tail stays.
    variant "wg-m128n96-w8-$c" "TILE_M=128,TILE_N=96,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false" \
      --num-warps=8 --tile-pipeline=$O3 --tma=off
    variant "wg-m64n128-w4-$c" "TILE_M=64,TILE_N=128,$common" --num-warps=4 --tile-pipeline=$O3 --tma=off
    # tile-overlap-mma (S of block j with P V of block j - 1 in flight). With
    # the split loop the causal kernel spills, so it is also tried unsplit.
    variant "ov-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      "--tile-pipeline=tile-O3{overlap-mma=true}" --tma=off
    variant "ov-nosplit-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      "--tile-pipeline=tile-O3{overlap-mma=true split-loop=false}" --tma=off
    variant "ov-m128n64-w8-$c" "TILE_M=128,TILE_N=64,$common" --num-warps=8 \
      "--tile-pipeline=tile-O3{overlap-mma=true}" --tma=off
    # The Hopper pipeline's switches (sm_90a defaults: mbarrier stages and a
    # producer warpgroup, 40/232 registers): without the producer, without
    # mbarriers, 3 stages, a 24-register producer.
    variant "mb-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --warp-specialize=off --tile-pipeline=$O3
    variant "bar-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --warp-specialize=off --sync=barrier --tile-pipeline=$O3
    variant "ws-m128n128-w8-s3-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=3 \
      --tile-pipeline=$O3 --tma=off
    variant "wsov-m128n128-w8-s2-r24-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --producer-regs=24 "--tile-pipeline=tile-O3{overlap-mma=true split-loop=false}" --tma=off
    # Ping-pong (the default where it applies) off, the waits unpinned, and
    # TMA loads (off by default: tile-runner does not build tensor maps).
    variant "ws-nopp-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --ping-pong=off --tile-pipeline=$O3 --tma=off
    variant "wsov-nopin-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --ping-pong=off --pin-waits=false "--tile-pipeline=tile-O3{overlap-mma=true split-loop=false}" --tma=off
    variant "tma-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --tma=on --tile-pipeline=$O3
    variant "tmaov-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --tma=on "--tile-pipeline=tile-O3{overlap-mma=true split-loop=false}"
    # O stored through shared memory in 16-byte accesses (2-9% faster at
    # S = 1k-4k, docs/perf/diary.md; where the scratch fits next to the rings).
    variant "wg-m128n128-w8-s2-cs-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --coalesce-stores=on --tile-pipeline=$O3 --tma=off
    variant "wg-m128n64-w8-cs-$c" "TILE_M=128,TILE_N=64,$common" --num-warps=8 \
      --coalesce-stores=on --tile-pipeline=$O3 --tma=off
    # TMA with the stores through shared memory (the best causal bundle at
    # S = 1k-8k, docs/perf/diary.md), and TMA with pinned overlapped waits.
    variant "tma-cs-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --tma=on --coalesce-stores=on --tile-pipeline=$O3
    variant "tmaovpin-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --tma=on --pin-waits=true "--tile-pipeline=tile-O3{overlap-mma=true split-loop=false}"
    # TMA, overlapped (unpinned), stores through shared memory: the best at
    # S >= 4k (docs/perf/diary.md, 2026-12-02); ping-pong on top.
    overlap_switches $c
    variant "tmaov-cs-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --tma=on --coalesce-stores=on "${OVERLAP[@]}"
    variant "tmaov-cs-pp-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
      --tma=on --coalesce-stores=on --ping-pong=on "${OVERLAP[@]}"
    # Persistent (tile-persistent: one block an SM walking tiles, causal
    # tiles in pairs): the best at S = 1k-8k (docs/perf/diary.md).
    persistent_options $c
    overlap_switches $c "$PERSIST"
    variant "p-tma-cs-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" \
      --num-warps=8 --stages=2 --producer-regs=56 --tma=on --coalesce-stores=on "--tile-pipeline=$O3{$PERSIST}"
    variant "p-tmaovpin-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" \
      --num-warps=8 --stages=2 --tma=on --pin-waits=true "--tile-pipeline=tile-O3{overlap-mma=true split-loop=false $PERSIST}"
    variant "p-tmaov-cs-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" \
      --num-warps=8 --stages=2 --tma=on --coalesce-stores=on "${OVERLAP[@]}"
    variant "p-tmaov-cs-pp-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" \
      --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${OVERLAP[@]}"
    # The same with the P V wait pinned after the exponentials (66 MUFU.EX2
    # under their own P V in the SASS): 0-3% behind the unpinned, the
    # fastest at non-causal 4k (run58, docs/perf/diary.md tenth session).
    variant "p-tmaovpin-cs-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" \
      --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --pin-waits=true "${OVERLAP[@]}"
    variant "p-tmaovpin-cs-pp-m128n128-w8-s2-$c" "TILE_M=128,TILE_N=128,$common" \
      --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --pin-waits=true --ping-pong=on \
      "${OVERLAP[@]}"
    variant "sync-m128n32-w4-$c" "TILE_M=128,TILE_N=32,$common" --num-warps=4 --mma-version=2 \
      --tile-pipeline=$O3
    # The causal one spills 20 bytes at ptxas -O3; -O1 schedules for fewer
    # registers and does not.
    variant "sync-m128n48-w4-o1-$c" "TILE_M=128,TILE_N=48,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=false" \
      --num-warps=4 --mma-version=2 --ptxas-O=1 --tile-pipeline=$O3
  done
  ;;
dtypes)
  # The other two shapes of issue 10's bar, bf16 D=128 and fp16 D=64, with
  # the fastest fp16 D=128 configurations (docs/perf/diary.md, 2026-12-02, run31):
  # TMA, output through shared memory, overlapped (causal: split loop and a
  # 24-register producer), one block a tile or persistent (causal pairs).
  for causal in true false; do
    c=$([ $causal = true ] && echo c || echo n)
    persistent_options $c
    for dd in "bf16-d128:DTYPE=bf16,HEAD_DIM=128" "f16-d64:DTYPE=f16,HEAD_DIM=64"; do
      n=${dd%%:*}
      common="${dd#*:},CAUSAL=$causal,EVEN_K=true"
      overlap_switches $c
      variant "$n-tmaov-cs-$c" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
        --tma=on --coalesce-stores=on "${OVERLAP[@]}"
      overlap_switches $c "$PERSIST"
      variant "$n-p-tmaov-cs-$c" "TILE_M=128,TILE_N=128,$common" \
        --num-warps=8 --stages=2 --tma=on --coalesce-stores=on "${OVERLAP[@]}"
      variant "$n-p-tma-cs-$c" "TILE_M=128,TILE_N=128,$common" \
        --num-warps=8 --stages=2 --producer-regs=56 --tma=on --coalesce-stores=on "--tile-pipeline=$O3{$PERSIST}"
      # Ping-pong: the fastest at most of these points (run43, docs/perf/diary.md,
      # ninth session; fp16 D=64 non-causal 0.99-1.00 of cuDNN against
      # 0.94-0.98 without).
      variant "$n-p-tmaov-cs-pp-$c" "TILE_M=128,TILE_N=128,$common" \
        --num-warps=8 --stages=2 --tma=on --coalesce-stores=on --ping-pong=on "${OVERLAP[@]}"
    done
  done
  ;;
ladder)
  # The cuTile post's ladder (its Table 7), causal D=128 fp16, one bundle a
  # step, each step one compiler option: 64x64 baseline (precise math, mask
  # on every iteration, grid order) -> the largest tile that fits (the post
  # uses 256x128; 128x128 on two warpgroups is the largest without spills)
  # -> + tile-fast-math -> + tile-split-loop -> + tile-remap-blocks. The
  # tensor-core instruction is the chip's (wgmma on sm_90a); step 2s is
  # step 2 with mma.sync, for the instruction's share of the gain.
  common="HEAD_DIM=128,CAUSAL=true,EVEN_K=true"
  variant "1-baseline-m64n64" "TILE_M=64,TILE_N=64,$common" --num-warps=4 --tile-pipeline=tile-O1
  variant "2-large-m128n128" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --tile-pipeline=tile-O1
  variant "2s-large-m128n128-mma-sync" "TILE_M=128,TILE_N=128,$common" --num-warps=8 \
    --mma-version=2 --tile-pipeline=tile-O1
  variant "3-fastmath" "TILE_M=128,TILE_N=128,$common" --num-warps=8 \
    "--tile-pipeline=tile-O1{fast-math=true}"
  variant "4-loopsplit" "TILE_M=128,TILE_N=128,$common" --num-warps=8 \
    "--tile-pipeline=tile-O1{fast-math=true split-loop=true}"
  variant "5-remap" "TILE_M=128,TILE_N=128,$common" --num-warps=8 \
    "--tile-pipeline=tile-O1{fast-math=true split-loop=true remap-blocks=true}"
  # Beyond the post: S of block j overlapping P V of block j - 1
  # (tile-overlap-mma, asynchronous wgmma), on the unsplit loop.
  variant "5o-overlap-nosplit" "TILE_M=128,TILE_N=128,$common" --num-warps=8 --stages=2 \
    "--tile-pipeline=tile-O1{fast-math=true remap-blocks=true overlap-mma=true}"
  ;;
kernels)
  # GEMM: the defaults (128x128x64, a producer warpgroup on sm_90a), wider
  # tiles, bf16, the epilogues, B transposed, f32 out.
  KERNEL=gemm
  variant "gemm-f16" ""
  variant "gemm-bf16" "IN_DTYPE=bf16,OUT_DTYPE=bf16"
  variant "gemm-f16-n256" "BLOCK_N=256"
  variant "gemm-bf16-n256" "BLOCK_N=256,IN_DTYPE=bf16,OUT_DTYPE=bf16"
  # The fastest on the H200 (TMA from the kernel's sm_90 hint): 256x128
  # tiles, and 128x256 with the consumer warpgroups taking turns.
  variant "gemm-f16-m256" "BLOCK_M=256"
  variant "gemm-bf16-m256" "BLOCK_M=256,IN_DTYPE=bf16,OUT_DTYPE=bf16"
  variant "gemm-f16-n256-pp" "BLOCK_N=256" --ping-pong=on
  variant "gemm-bf16-n256-pp" "BLOCK_N=256,IN_DTYPE=bf16,OUT_DTYPE=bf16" --ping-pong=on
  # Persistent (MAX_BLOCKS = the H200's 132 SMs): a block walks output tiles
  # in grouped order and its producer loads the next tile during this one's
  # epilogue; C is stored through shared memory (the kernel's
  # coalesce_stores hint). The fastest at 4096^3-8192^3 and, with 128x128
  # tiles and 4 stages, on skinny shapes (docs/perf/diary.md). -nc: the stores
  # straight from the accumulators, 4 stages. The -p4 variant (4 blocks)
  # makes every block walk several tiles at small sizes: the sanitizers'
  # case.
  variant "gemm-f16-n256-p" "BLOCK_N=256,MAX_BLOCKS=132"
  variant "gemm-bf16-n256-p" "BLOCK_N=256,MAX_BLOCKS=132,IN_DTYPE=bf16,OUT_DTYPE=bf16"
  variant "gemm-f16-m256-p" "BLOCK_M=256,MAX_BLOCKS=132"
  variant "gemm-bf16-m256-p" "BLOCK_M=256,MAX_BLOCKS=132,IN_DTYPE=bf16,OUT_DTYPE=bf16"
  variant "gemm-f16-m256-p-s4-nc" "BLOCK_M=256,MAX_BLOCKS=132" --stages=4 --coalesce-stores=off
  variant "gemm-bf16-m256-p-s4-nc" "BLOCK_M=256,MAX_BLOCKS=132,IN_DTYPE=bf16,OUT_DTYPE=bf16" --stages=4 --coalesce-stores=off
  variant "gemm-f16-p-s4" "MAX_BLOCKS=132" --stages=4
  variant "gemm-bf16-p-s4" "MAX_BLOCKS=132,IN_DTYPE=bf16,OUT_DTYPE=bf16" --stages=4
  variant "gemm-f16-n256-p4" "BLOCK_N=256,MAX_BLOCKS=4,GROUP_M=3"
  # The producer's copies through cp.async instead of TMA, for comparison.
  # Its producer needs 72 registers since the loop over tiles (at 40 it
  # spills 108 bytes).
  variant "gemm-f16-n256-cpasync" "BLOCK_N=256" --tma=off --coalesce-stores=off --producer-regs=72
  variant "gemm-f16-bias-relu" "HAS_BIAS=true,ACTIVATION=1"
  variant "gemm-bf16-tb-gelu-f32" "TRANS_B=true,ACTIVATION=2,IN_DTYPE=bf16,OUT_DTYPE=f32,HAS_BIAS=true"
  CHIP=sm_80 variant "gemm-f16-sm80" ""
  # Rows not 16-byte aligned (K or N odd, e.g. 65, 77, 100): 2-byte accesses.
  variant "gemm-f16-a2" "" --view-align=2 --warp-specialize=off --tma=off
  variant "gemm-bf16-bias-a2" "HAS_BIAS=true,ACTIVATION=1,IN_DTYPE=bf16,OUT_DTYPE=bf16" --view-align=2 --warp-specialize=off --tma=off
  # Softmax and LayerNorm: a whole row in registers (BLOCK_N >= N; several
  # rows a block for short rows), the online loop for any N, and 2-byte
  # aligned variants for odd N. About 32 f32 values per thread.
  for k in softmax layernorm; do
    KERNEL=$k
    p=${k:0:2}
    variant "$p-n128-r32-w4" "ROWS=32,BLOCK_N=128" --num-warps=4
    variant "$p-n1024-r4-w4" "ROWS=4,BLOCK_N=1024" --num-warps=4
    variant "$p-n2048-r2-w4" "ROWS=2,BLOCK_N=2048" --num-warps=4
    variant "$p-n4096-r1-w4" "ROWS=1,BLOCK_N=4096" --num-warps=4
    variant "$p-n4096-r2-w8" "ROWS=2,BLOCK_N=4096" --num-warps=8
    variant "$p-n8192-r1-w8" "ROWS=1,BLOCK_N=8192" --num-warps=8
    variant "$p-n16384-r1-w16" "ROWS=1,BLOCK_N=16384" --num-warps=16
    # A whole row of 32768: softmax fits 16 warps (64 values a thread);
    # LayerNorm's second pass spills there, so it takes the online loop.
    if [ $k = softmax ]; then
      variant "$p-n32768-r1-w16" "ROWS=1,BLOCK_N=32768" --num-warps=16
    fi
    variant "$p-online-n8192-w16" "ONLINE=true,ROWS=1,BLOCK_N=8192" --num-warps=16
    variant "$p-online-n4096-w8" "ONLINE=true,ROWS=1,BLOCK_N=4096" --num-warps=8
    # Fewer values a thread, more blocks an SM (the tuning of 2026-12-01).
    variant "$p-n1024-r2-w4" "ROWS=2,BLOCK_N=1024" --num-warps=4
    variant "$p-n4096-r1-w8" "ROWS=1,BLOCK_N=4096" --num-warps=8
    variant "$p-n8192-r1-w16" "ROWS=1,BLOCK_N=8192" --num-warps=16
    variant "$p-n128-r32-w4-a2" "ROWS=32,BLOCK_N=128" --num-warps=4 --view-align=2
    variant "$p-n1024-r4-w4-a2" "ROWS=4,BLOCK_N=1024" --num-warps=4 --view-align=2
    variant "$p-online-n2048-w8-a2" "ONLINE=true,ROWS=1,BLOCK_N=2048" --num-warps=8 --view-align=2
    variant "$p-bf16-n1024-r4-w4" "ROWS=4,BLOCK_N=1024,DTYPE=bf16" --num-warps=4
    variant "$p-f32-n1024-r4-w4" "ROWS=4,BLOCK_N=1024,DTYPE=f32" --num-warps=4
    CHIP=sm_80 variant "$p-n1024-r4-w4-sm80" "ROWS=4,BLOCK_N=1024" --num-warps=4
  done
  KERNEL=layernorm
  # More blocks an SM (the registers capped by --occupancy; no spills):
  # more bytes in flight for the LayerNorm's 32 values a thread.
  variant "la-n2048-r2-w4-o6" "ROWS=2,BLOCK_N=2048" --num-warps=4 --occupancy=6
  variant "la-n4096-r1-w4-o6" "ROWS=1,BLOCK_N=4096" --num-warps=4 --occupancy=6
  variant "la-n8192-r1-w8-o3" "ROWS=1,BLOCK_N=8192" --num-warps=8 --occupancy=3
  variant "la-n16384-r1-w32" "ROWS=1,BLOCK_N=16384" --num-warps=32
  variant "la-online-n8192-w8" "ONLINE=true,ROWS=1,BLOCK_N=8192" --num-warps=8
  variant "la-rms-n4096-r1-w4" "ROWS=1,BLOCK_N=4096,RMS=true" --num-warps=4
  variant "la-rms-online-n2048-w8-a2" "ONLINE=true,ROWS=1,BLOCK_N=2048,RMS=true" --num-warps=8 --view-align=2
  ;;
hopper)
  # The steps of docs/perf/diary.md (2026-12-01, later), switches explicit.
  for causal in true false; do
    c=$([ $causal = true ] && echo c || echo n)
    p="TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=true"
    ov="--tile-pipeline=tile-O3{overlap-mma=true split-loop=false}"
    w="--num-warps=8 --stages=2"
    variant "h8-ws-$c" "$p" $w --tma=off --ping-pong=off --pin-waits=false --tile-pipeline=$O3
    variant "h8o-ov-nopin-$c" "$p" $w --tma=off --ping-pong=off --pin-waits=false "$ov"
    variant "h9-ov-pin-$c" "$p" $w --tma=off --ping-pong=off --pin-waits=true "$ov"
    variant "h10-pp-$c" "$p" $w --tma=off --ping-pong=on --tile-pipeline=$O3
    variant "h10o-ov-pin-pp-$c" "$p" $w --tma=off --ping-pong=on --pin-waits=true "$ov"
    variant "h11-tma-$c" "$p" $w --tma=on --tile-pipeline=$O3
    variant "h11p-tma-pp-$c" "$p" $w --tma=on --ping-pong=on --tile-pipeline=$O3
    variant "h11q-ov-pin-tma-$c" "$p" $w --tma=on --pin-waits=true "$ov"
    variant "h11o-ov-pin-pp-tma-$c" "$p" $w --tma=on --pin-waits=true --ping-pong=on "$ov"
    # 2026-12-01/02: the output through shared memory; overlapped with the
    # peeled K/V tiles through the producer (automatic since 2026-12-02;
    # causal split, 24-register producer); persistent (two-stage Q, causal
    # pairs); ping-pong on the overlapped kernel.
    overlap_switches $c
    variant "h12-tma-cs-$c" "$p" $w --tma=on --coalesce-stores=on --tile-pipeline=$O3
    variant "h13-ov-tma-cs-$c" "$p" $w --tma=on --coalesce-stores=on "${OVERLAP[@]}"
    variant "h15-ov-tma-cs-pp-$c" "$p" $w --tma=on --coalesce-stores=on --ping-pong=on "${OVERLAP[@]}"
    persistent_options $c
    variant "h14-p-tma-cs-$c" "$p" $w --producer-regs=56 --tma=on \
      --coalesce-stores=on "--tile-pipeline=$O3{$PERSIST}"
    overlap_switches $c "$PERSIST"
    variant "h14o-p-ov-tma-cs-$c" "$p" $w --tma=on --coalesce-stores=on "${OVERLAP[@]}"
    variant "h15o-p-ov-tma-cs-pp-$c" "$p" $w --tma=on --coalesce-stores=on \
      --ping-pong=on "${OVERLAP[@]}"
  done
  ;;
splitk)
  # The sweep of 2026-12-03 (docs/perf.md): deep pipelines matter most (the
  # kernel streams B), splitting K only at M = 16.
  KERNEL=gemm_splitk
  for dt in f16 bf16; do
    dts="IN_DTYPE=$dt,OUT_DTYPE=$dt"
    for sk in 1 2 4; do
      for st in 6 8; do
        variant "splitk-$dt-m64n128-k$sk-s$st-sm_90a" "BLOCK_M=64,BLOCK_N=128,SPLIT_K=$sk,$dts" --stages=$st
      done
      variant "splitk-$dt-m64n128b128-k$sk-s4-sm_90a" "BLOCK_M=64,BLOCK_N=128,BLOCK_K=128,SPLIT_K=$sk,$dts" --stages=4
    done
    for sk in 1 2; do
      for st in 5 6; do
        variant "splitk-$dt-m128n128-k$sk-s$st-sm_90a" "BLOCK_M=128,BLOCK_N=128,SPLIT_K=$sk,$dts" --num-warps=8 --stages=$st
      done
    done
    for sk in 2 4; do
      variant "splitk-$dt-m64n256-k$sk-s4-sm_90a" "BLOCK_M=64,BLOCK_N=256,SPLIT_K=$sk,$dts" --stages=4
    done
    variant "splitk-$dt-m64n64-k2-s6-o2-sm_90a" "BLOCK_M=64,BLOCK_N=64,SPLIT_K=2,$dts" --stages=6 --occupancy=2
  done
  CHIP=sm_80 variant "splitk-f16-m64n64-k4-sm_80" "BLOCK_M=64,BLOCK_N=64,SPLIT_K=4"
  CHIP=sm_80 variant "splitk-bf16-m64n128-k3-sm_80" "BLOCK_M=64,BLOCK_N=128,SPLIT_K=3,IN_DTYPE=bf16,OUT_DTYPE=bf16,HAS_BIAS=true,ACTIVATION=2"
  variant "splitk-f16-m64n128-k4-epi-sm_90a" "BLOCK_M=64,BLOCK_N=128,SPLIT_K=4,TRANS_B=true,HAS_BIAS=true,ACTIVATION=2,OUT_DTYPE=f32"
  ;;
data)
  for chip in sm_90a sm_80; do
    for f in "$root"/test/Pipelines/Inputs/data/*.mlir; do
      name=$(basename "$f" .mlir)
      "$compile" "$f" --quiet --chip="$chip" -o "$out/$name-$chip"
      echo "$name-$chip"
    done
  done
  ;;
norms)
  # The memory-bound kernels of an LLM layer (docs/kernels.md), sm_90a and
  # a few sm_80, none spilling: the candidates bench/check_norms.py checks
  # and times (the fastest that passes is ours). Rows whole in registers,
  # 16-byte vectors along N, 8-32 f32 values a thread.
  KERNEL=add_norm
  for rms in true false; do
    r=$([ $rms = true ] && echo rms || echo ln)
    variant "an-$r-n1024-r2-w4" "ROWS=2,BLOCK_N=1024,RMS=$rms" --num-warps=4
    variant "an-$r-n2048-r1-w4" "ROWS=1,BLOCK_N=2048,RMS=$rms" --num-warps=4
    variant "an-$r-n4096-r1-w4" "ROWS=1,BLOCK_N=4096,RMS=$rms" --num-warps=4
    variant "an-$r-n4096-r1-w8" "ROWS=1,BLOCK_N=4096,RMS=$rms" --num-warps=8
    variant "an-$r-n4096-r2-w8" "ROWS=2,BLOCK_N=4096,RMS=$rms" --num-warps=8
    variant "an-$r-n8192-r1-w8" "ROWS=1,BLOCK_N=8192,RMS=$rms" --num-warps=8
    variant "an-$r-n8192-r1-w16" "ROWS=1,BLOCK_N=8192,RMS=$rms" --num-warps=16
  done
  variant "an-rms-n16384-r1-w16" "ROWS=1,BLOCK_N=16384" --num-warps=16
  variant "an-rms-n16384-r1-w32" "ROWS=1,BLOCK_N=16384" --num-warps=32
  variant "an-rms-bf16-n4096-r1-w8" "ROWS=1,BLOCK_N=4096,DTYPE=bf16" --num-warps=8
  variant "an-rms-n4096-r1-w4-o6" "ROWS=1,BLOCK_N=4096" --num-warps=4 --occupancy=6
  CHIP=sm_80 variant "an-rms-n4096-r1-w8-sm80" "ROWS=1,BLOCK_N=4096" --num-warps=8
  # Backward: MAX_BLOCKS blocks walk the rows (2-8 per SM of the H200's
  # 132), each adds its DW (DB) partial once by atomics.
  # The next row block's loads one step ahead (PREFETCH, the default: two
  # row blocks in flight a block, a block an SM at N = 4096) or not (-nopf:
  # fewer registers, two blocks an SM at 8 warps).
  KERNEL=add_norm_backward
  for b in 132 264 528 1056; do
    variant "anb-rms-n4096-r1-w8-b$b" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=$b" --num-warps=8
    variant "anb-rms-nopf-n4096-r1-w8-b$b" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=$b,PREFETCH=false" --num-warps=8
  done
  variant "anb-rms-n4096-r1-w16-b132" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=132" --num-warps=16
  variant "anb-rms-n4096-r1-w16-b264" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=264" --num-warps=16
  variant "anb-rms-nopf-n4096-r1-w16-b264" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=264,PREFETCH=false" --num-warps=16
  variant "anb-rms-n1024-r4-w8-b1056" "ROWS=4,BLOCK_N=1024,MAX_BLOCKS=1056" --num-warps=8
  variant "anb-rms-nopf-n1024-r4-w4-b1056" "ROWS=4,BLOCK_N=1024,MAX_BLOCKS=1056,PREFETCH=false" --num-warps=4
  variant "anb-rms-n2048-r2-w8-b1056" "ROWS=2,BLOCK_N=2048,MAX_BLOCKS=1056" --num-warps=8
  variant "anb-rms-n8192-r1-w16-b264" "ROWS=1,BLOCK_N=8192,MAX_BLOCKS=264" --num-warps=16
  variant "anb-rms-nopf-n8192-r1-w32-b132" "ROWS=1,BLOCK_N=8192,MAX_BLOCKS=132,PREFETCH=false" --num-warps=32
  variant "anb-rms-dres-n4096-r1-w8-b528" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=528,HAS_DRES=true" --num-warps=8
  variant "anb-rms-bf16-n4096-r1-w8-b528" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=528,DTYPE=bf16" --num-warps=8
  variant "anb-ln-n4096-r1-w8-b528" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=528,RMS=false" --num-warps=8
  variant "anb-ln-n4096-r1-w16-b264" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=264,RMS=false" --num-warps=16
  variant "anb-ln-n1024-r4-w8-b1056" "ROWS=4,BLOCK_N=1024,MAX_BLOCKS=1056,RMS=false" --num-warps=8
  variant "anb-ln-nopf-n1024-r4-w4-b1056" "ROWS=4,BLOCK_N=1024,MAX_BLOCKS=1056,RMS=false,PREFETCH=false" --num-warps=4
  CHIP=sm_80 variant "anb-rms-n4096-r1-w8-b528-sm80" "ROWS=1,BLOCK_N=4096,MAX_BLOCKS=528" --num-warps=8
  # RoPE, head dim 128 (HALF = 64) and 64 (HALF = 32).
  KERNEL=rope
  for il in false true; do
    r=$([ $il = true ] && echo gptj || echo neox)
    variant "rope-$r-d128-r4-h8-w4" "ROWS=4,BLOCK_H=8,INTERLEAVED=$il" --num-warps=4
    variant "rope-$r-d128-r2-h8-w4" "ROWS=2,BLOCK_H=8,INTERLEAVED=$il" --num-warps=4
    variant "rope-$r-d128-r8-h8-w8" "ROWS=8,BLOCK_H=8,INTERLEAVED=$il" --num-warps=8
    variant "rope-$r-d128-r2-h16-w8" "ROWS=2,BLOCK_H=16,INTERLEAVED=$il" --num-warps=8
    variant "rope-$r-d128-r1-h32-w8" "ROWS=1,BLOCK_H=32,INTERLEAVED=$il" --num-warps=8
  done
  variant "rope-neox-bf16-d128-r4-h8-w4" "ROWS=4,BLOCK_H=8,DTYPE=bf16" --num-warps=4
  variant "rope-neox-d64-r8-h8-w4" "ROWS=8,BLOCK_H=8,HALF=32,ROT=64" --num-warps=4
  CHIP=sm_80 variant "rope-neox-d128-r4-h8-w4-sm80" "ROWS=4,BLOCK_H=8" --num-warps=4
  CHIP=sm_80 variant "rope-gptj-d128-r4-h8-w4-sm80" "ROWS=4,BLOCK_H=8,INTERLEAVED=true" --num-warps=4
  # Embedding and its backward.
  KERNEL=embedding
  variant "emb-n4096-r1-w4" "ROWS=1,BLOCK_N=4096" --num-warps=4
  variant "emb-n4096-r2-w4" "ROWS=2,BLOCK_N=4096" --num-warps=4
  variant "emb-n4096-r4-w4" "ROWS=4,BLOCK_N=4096" --num-warps=4
  variant "emb-n4096-r1-w8" "ROWS=1,BLOCK_N=4096" --num-warps=8
  variant "emb-n2048-r1-w4" "ROWS=1,BLOCK_N=2048" --num-warps=4
  variant "emb-n1024-r4-w4" "ROWS=4,BLOCK_N=1024" --num-warps=4
  variant "emb-bf16-n4096-r1-w4" "ROWS=1,BLOCK_N=4096,DTYPE=bf16" --num-warps=4
  CHIP=sm_80 variant "emb-n4096-r1-w4-sm80" "ROWS=1,BLOCK_N=4096" --num-warps=4
  KERNEL=embedding_backward
  # One element a lane (coalesced atomics, the default) and 16-byte vector
  # loads (-vec: 8 consecutive atomics a thread).
  variant "embb-n4096-r1-w4" "ROWS=1,BLOCK_N=4096" --num-warps=4
  variant "embb-n4096-r4-w4" "ROWS=4,BLOCK_N=4096" --num-warps=4
  variant "embb-n4096-r1-w8" "ROWS=1,BLOCK_N=4096" --num-warps=8
  variant "embb-n1024-r4-w4" "ROWS=4,BLOCK_N=1024" --num-warps=4
  variant "embb-n2048-r2-w8" "ROWS=2,BLOCK_N=2048" --num-warps=8
  variant "embb-vec-n4096-r1-w4" "ROWS=1,BLOCK_N=4096,LANE_ATOMICS=false" --num-warps=4
  variant "embb-vec-n1024-r4-w4" "ROWS=4,BLOCK_N=1024,LANE_ATOMICS=false" --num-warps=4
  variant "embb-bf16-n4096-r1-w4" "ROWS=1,BLOCK_N=4096,DTYPE=bf16" --num-warps=4
  CHIP=sm_80 variant "embb-n4096-r1-w4-sm80" "ROWS=1,BLOCK_N=4096" --num-warps=4
  ;;
moe)
  # The mixture-of-experts kernels (kernels/grouped_gemm.mlir,
  # moe_router.mlir, moe_permute.mlir, moe_unpermute.mlir) for
  # bench/check_moe.py, named KERNEL-TAG-CHIP. sm_90a: the grouped GEMM as
  # the fastest GEMM tiles (128x256 persistent over 132 SMs, TMA and a
  # producer warpgroup), SwiGLU at 128x128 (two accumulators: the same
  # registers as 128x256); sm_80: 128x128 mma.sync (SwiGLU 128x64); -a2
  # variants for rows that are not 16-byte aligned (odd K or N).
  for chip in sm_90a sm_80; do
    CHIP=$chip
    KERNEL=grouped_gemm
    if [ "$chip" = sm_90a ]; then
      variant "grouped_gemm-n256p-$chip" "BLOCK_N=256,MAX_BLOCKS=132"
      # C straight from the accumulators (no 16-byte stores through shared
      # memory): one pipeline stage more.
      variant "grouped_gemm-n256p-nc-$chip" "BLOCK_N=256,MAX_BLOCKS=132" --coalesce-stores=off
      variant "grouped_gemm-n128p-$chip" "MAX_BLOCKS=132"
      variant "grouped_gemm-n128-$chip" ""
      variant "grouped_gemm-tw-n256p-$chip" "TRANS_W=true,BLOCK_N=256,MAX_BLOCKS=132"
      variant "grouped_gemm-swiglu-p-$chip" "SWIGLU=true,MAX_BLOCKS=132"
      variant "grouped_gemm-bf16-tw-swiglu-p-$chip" "SWIGLU=true,TRANS_W=true,MAX_BLOCKS=132,IN_DTYPE=bf16,OUT_DTYPE=bf16"
      variant "grouped_gemm-p4-$chip" "BLOCK_N=256,MAX_BLOCKS=4,GROUP_M=3"
    else
      variant "grouped_gemm-n128-$chip" ""
      variant "grouped_gemm-tw-$chip" "TRANS_W=true"
      variant "grouped_gemm-swiglu-$chip" "SWIGLU=true,BLOCK_N=64"
      variant "grouped_gemm-bf16-tw-swiglu-$chip" "SWIGLU=true,TRANS_W=true,BLOCK_N=64,IN_DTYPE=bf16,OUT_DTYPE=bf16"
    fi
    variant "grouped_gemm-a2-$chip" "" --view-align=2 --warp-specialize=off --tma=off
    variant "grouped_gemm-tw-swiglu-f32-a2-$chip" "SWIGLU=true,TRANS_W=true,BLOCK_N=64,OUT_DTYPE=f32" --view-align=2 --warp-specialize=off --tma=off
    # The router's rows are E logits (any E: 2-byte aligned), the routing
    # tables' rows TOPK ids or weights (8 bytes at TOPK = 2): compiled for
    # the alignment those rows have (the launcher refuses less).
    KERNEL=moe_router
    variant "moe_router-e8k2-$chip" "BLOCK_E=8,TOPK=2,BLOCK_K=2,ROWS=16" --view-align=2
    variant "moe_router-e64k8-renorm-$chip" "BLOCK_E=64,TOPK=8,BLOCK_K=8,RENORM=true,ROWS=4" --view-align=2
    variant "moe_router-e256k8-bf16-$chip" "BLOCK_E=256,TOPK=8,BLOCK_K=8,DTYPE=bf16,ROWS=2" --view-align=2
    variant "moe_router-e128k1-f16-$chip" "BLOCK_E=128,TOPK=1,BLOCK_K=1,DTYPE=f16,ROWS=4" --view-align=2
    KERNEL=moe_permute
    variant "moe_permute-k2-$chip" "TOPK=2,ROWS=16,BLOCK_N=256" --view-align=8
    variant "moe_permute-k8-bf16-$chip" "TOPK=8,ROWS=16,BLOCK_N=256,DTYPE=bf16"
    KERNEL=moe_unpermute
    variant "moe_unpermute-k2-$chip" "TOPK=2,ROWS=16,BLOCK_N=256" --view-align=8
    variant "moe_unpermute-k8-bf16-$chip" "TOPK=8,ROWS=16,BLOCK_N=256,DTYPE=bf16"
  done
  ;;
backward)
  # The attention backward (issue 24) and the forward it needs (WITH_LSE),
  # for tile_launcher.attention and bench/check_backward.py: every
  # combination of dtype, head dim, causal, GQA group (1, 4) and EVEN_K in
  # the top folder (the launcher picks bundles by their params), and, in
  # variants/, other pipelines of the main kernel at the timed shape (fp16
  # D=128, no GQA, EVEN_K) that the check times next to the default. Spills
  # are refused (ALLOW_SPILLS=0): none of these spills on sm_90a or sm_80.
  for dtype in f16 bf16; do
    for d in 64 128; do
      KERNEL=fmha_backward_preprocess ALLOW_SPILLS=0 variant "pre-$dtype-d$d" \
        "DTYPE=$dtype,HEAD_DIM=$d" --tile-pipeline=$O3
      KERNEL=fmha_backward_postprocess ALLOW_SPILLS=0 variant "post-$dtype-d$d" \
        "DTYPE=$dtype,HEAD_DIM=$d" --tile-pipeline=$O3
      for causal in true false; do
        c=$([ $causal = true ] && echo c || echo n)
        for g in 1 4; do
          for even in true false; do
            e=$([ $even = true ] && echo even || echo ragged)
            common="HEAD_DIM=$d,CAUSAL=$causal,EVEN_K=$even,QUERY_GROUP_SIZE=$g,DTYPE=$dtype"
            KERNEL=fmha ALLOW_SPILLS=0 variant "fwd-$dtype-d$d-$c-g$g-$e" \
              "TILE_M=128,TILE_N=64,WITH_LSE=true,$common" --tile-pipeline=$O3
            KERNEL=fmha_backward ALLOW_SPILLS=0 variant "bwd-$dtype-d$d-$c-g$g-$e" \
              "TILE_M=64,TILE_N=64,$common" --tile-pipeline=$O3
          done
        done
      done
    done
  done
  mkdir -p "$out/variants"
  for causal in true false; do
    c=$([ $causal = true ] && echo c || echo n)
    common="HEAD_DIM=128,CAUSAL=$causal,EVEN_K=true,DTYPE=f16"
    # (No --tma=off variant: the transposed main kernel spills 48 bytes on
    # cp.async without the producer warpgroup's registers.)
    KERNEL=fmha_backward ALLOW_SPILLS=0 variant "variants/bwd-nows-$c" "$common" \
      --tile-pipeline=$O3 --warp-specialize=off
    KERNEL=fmha_backward ALLOW_SPILLS=0 variant "variants/bwd-o2-$c" "$common" \
      --tile-pipeline=tile-O2
    # Two consumer warpgroups (FlashAttention-3's shape): 128 keys a block
    # on 8 warps (and the producer warpgroup), dQ^T = K^T dS^T added into
    # a transposed accumulator; the pre- and postprocess with
    # DQ_TRANSPOSED=true (below) go with it.
    KERNEL=fmha_backward ALLOW_SPILLS=0 variant "variants/bwd-2wg-$c" \
      "$common,TILE_M=64,TILE_N=128,DQ_TRANSPOSED=true" --tile-pipeline=$O3 --num-warps=8
  done
  KERNEL=fmha_backward_preprocess ALLOW_SPILLS=0 variant "pre-t-f16-d128" \
    "DTYPE=f16,HEAD_DIM=128,DQ_TRANSPOSED=true" --tile-pipeline=$O3
  KERNEL=fmha_backward_postprocess ALLOW_SPILLS=0 variant "post-t-f16-d128" \
    "DTYPE=f16,HEAD_DIM=128,DQ_TRANSPOSED=true" --tile-pipeline=$O3
  ;;
transposed)
  # Transposed mma operands read from the load's shared tile (tilegpu.mma
  # transpose_a / transpose_b): C = A^T B^T, A [K, M], B [N, K]
  # (test/Kernels/Inputs/mma_transposed.mlir), named NAME-CHIP for
  # bench/check_transposed.py: wgmma (MN-major A, K-major B) and mma.sync
  # (ldmatrix .trans for A) on sm_90a, mma.sync on sm_80; f16 and bf16;
  # 64x64 tiles on 4 warps and 128x128 on 8.
  KERNEL_FILE="$root/test/Kernels/Inputs/mma_transposed.mlir"
  for chip in sm_90a sm_80; do
    for dtype in f16 bf16; do
      "$compile" "$KERNEL_FILE" --quiet --chip="$chip" --params="DTYPE=$dtype" \
        -o "$out/mmat-$dtype-t64-$chip"
      echo "mmat-$dtype-t64-$chip"
    done
    "$compile" "$KERNEL_FILE" --quiet --chip="$chip" \
      --params="BLOCK_M=128,BLOCK_N=128,BLOCK_K=64" --num-warps=8 -o "$out/mmat-f16-t128-$chip"
    echo "mmat-f16-t128-$chip"
  done
  "$compile" "$KERNEL_FILE" --quiet --chip=sm_90a --mma-version=2 \
    --params="DTYPE=f16" -o "$out/mmat-f16-t64sync-sm_90a"
  echo "mmat-f16-t64sync-sm_90a"
  ;;
serving)
  # The serving attention kernels (issue 23), named NAME-CHIP for
  # bench/check_serving.py, which reads each bundle's params from its
  # manifest. Paged decode: one warp a block, 16 or 32 mma rows (the GQA
  # group times the query tokens), key tiles of 16 (page 16) or 32 keys;
  # correctness bundles on both chips, the timed ones (D 128, groups 4 and
  # 8, pages 16 / 64 / 256 and contiguous: one page per sequence) on sm_90a.
  KERNEL=paged_decode
  for chip in sm_90a sm_80; do
    CHIP=$chip variant "pd-f16-d128-g4-p16-$chip" "PAGE_SIZE=16,TILE_N=16,Q_TILE=4,ROWS=16,QUERY_GROUP_SIZE=4,HEAD_DIM=128"
    CHIP=$chip variant "pd-bf16-d128-g8-p64-$chip" "PAGE_SIZE=64,TILE_N=32,Q_TILE=2,ROWS=16,QUERY_GROUP_SIZE=8,HEAD_DIM=128,DTYPE=bf16"
    CHIP=$chip variant "pd-f16-d64-g4q8-p256-$chip" "PAGE_SIZE=256,TILE_N=32,Q_TILE=8,ROWS=32,QUERY_GROUP_SIZE=4,HEAD_DIM=64"
    CHIP=$chip variant "pd-bf16-d64-g8-p16-$chip" "PAGE_SIZE=16,TILE_N=16,Q_TILE=2,ROWS=16,QUERY_GROUP_SIZE=8,HEAD_DIM=64,DTYPE=bf16"
    # 64 rows on 4 warps (8 query tokens of a group of 8).
    CHIP=$chip variant "pd-f16-d128-g8q8-w4-p64-$chip" "PAGE_SIZE=64,TILE_N=32,Q_TILE=8,ROWS=64,QUERY_GROUP_SIZE=8,HEAD_DIM=128" --num-warps=4
  done
  # 64 rows with a TMA producer warpgroup (the fastest decode at B = 16).
  CHIP=sm_90a variant "pd-f16-d128-g4q16-ws64-p256-sm_90a" "PAGE_SIZE=256,TILE_N=64,Q_TILE=16,ROWS=64,QUERY_GROUP_SIZE=4,HEAD_DIM=128" \
    --num-warps=4 --warp-specialize=on --tma=on --occupancy=2 --stages=2
  CHIP=sm_90a variant "pd-bf16-d128-g8q8-ws128-p128-sm_90a" "PAGE_SIZE=128,TILE_N=128,Q_TILE=8,ROWS=64,QUERY_GROUP_SIZE=8,HEAD_DIM=128,DTYPE=bf16" \
    --num-warps=4 --warp-specialize=on --tma=on --occupancy=1 --stages=3
  for g in 4 8; do
    qt=$((16 / g))
    for ps in 16 64 256 4096 32768; do
      tn=$([ $ps = 16 ] && echo 16 || echo 32)
      common="PAGE_SIZE=$ps,TILE_N=$tn,Q_TILE=$qt,ROWS=16,QUERY_GROUP_SIZE=$g,HEAD_DIM=128"
      variant "perf-pd-f16-d128-g$g-p$ps-sm_90a" "$common"
      # Two stages: less shared memory a block, more blocks an SM.
      variant "perf-pd-f16-d128-g$g-p$ps-s2-sm_90a" "$common" --stages=2
      # 64 rows (the group padded with query tokens) on 4 warps: 4x the
      # mma work, but 4 warps a block to issue copies and hide latency.
      variant "perf-pd-f16-d128-g$g-p$ps-w4-sm_90a" \
        "PAGE_SIZE=$ps,TILE_N=$tn,Q_TILE=$((64 / g)),ROWS=64,QUERY_GROUP_SIZE=$g,HEAD_DIM=128" --num-warps=4
      # The same 64 rows with a TMA producer warpgroup: 64-key tiles at 2
      # blocks an SM, or 128-key tiles (pages of 128 keys or more) at 1.
      ws="--num-warps=4 --warp-specialize=on --tma=on"
      w64="PAGE_SIZE=$ps,Q_TILE=$((64 / g)),ROWS=64,QUERY_GROUP_SIZE=$g,HEAD_DIM=128"
      if [ "$ps" -ge 64 ]; then
        # shellcheck disable=SC2086
        variant "perf-pd-f16-d128-g$g-p$ps-ws64-sm_90a" "$w64,TILE_N=64" $ws --occupancy=2 --stages=2
      fi
      if [ "$ps" -ge 128 ]; then
        # shellcheck disable=SC2086
        variant "perf-pd-f16-d128-g$g-p$ps-ws128-sm_90a" "$w64,TILE_N=128" $ws --occupancy=1 --stages=3
      fi
    done
  done
  # Varlen forward: fmha's Hopper configurations (TMA producer warpgroup,
  # 128x128 tiles, the mmas overlapped), GQA, bf16 D 64, and sm_80; the
  # dense fmha bundle of the same configuration for the TFLOPS comparison.
  KERNEL=varlen_fmha
  for causal in true false; do
    c=$([ $causal = true ] && echo c || echo n)
    overlap_switches $c
    variant "vf-f16-d128-ov-$c-sm_90a" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=$causal" \
      --num-warps=8 --stages=2 --tma=on "${OVERLAP[@]}"
    variant "vf-f16-d128-ws-$c-sm_90a" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=$causal" \
      --num-warps=8 --stages=2 --tma=on --tile-pipeline=$O3
    variant "vf-bf16-d64-g4-$c-sm_90a" "TILE_M=128,TILE_N=128,HEAD_DIM=64,CAUSAL=$causal,DTYPE=bf16,QUERY_GROUP_SIZE=4" \
      --num-warps=8 --stages=2 --tma=on "${OVERLAP[@]}"
    CHIP=sm_80 variant "vf-f16-d128-$c-sm_80" "TILE_M=64,TILE_N=64,HEAD_DIM=128,CAUSAL=$causal" \
      --num-warps=4 --tile-pipeline=$O3
    KERNEL=fmha
    variant "fmha-f16-d128-tmaov-cs-$c-sm_90a" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=true" \
      --num-warps=8 --stages=2 --tma=on --coalesce-stores=on "${OVERLAP[@]}"
    KERNEL=varlen_fmha
  done
  ;;
xent)
  # Spills are refused here: these kernels must not spill. Targets are
  # i32: the bundle ABI carries no i64 views yet.
  for chip in sm_90a sm_80; do
    t=$([ $chip = sm_90a ] && echo "-time" || echo "")
    CHIP=$chip
    KERNEL=cross_entropy
    for dt in f16 bf16 f32; do
      ALLOW_SPILLS=0 variant "xent-$dt-i32-grad-n4096w8$t-$chip" "DTYPE=$dt,BLOCK_N=4096,TGT_DTYPE=i32" --num-warps=8
    done
    ALLOW_SPILLS=0 variant "xent-f16-i32-grad-n4096w8-a2-$chip" "DTYPE=f16,BLOCK_N=4096,TGT_DTYPE=i32" --num-warps=8 --view-align=2
    ALLOW_SPILLS=0 variant "xent-bf16-i32-grad-n4096w8-a2$t-$chip" "DTYPE=bf16,TGT_DTYPE=i32,BLOCK_N=4096" --num-warps=8 --view-align=2
    ALLOW_SPILLS=0 variant "xent-f32-i32-grad-n2048w8-a4-$chip" "DTYPE=f32,BLOCK_N=2048,TGT_DTYPE=i32" --num-warps=8 --view-align=4
    ALLOW_SPILLS=0 variant "xent-bf16-i32-inplace-n4096w8$t-$chip" "DTYPE=bf16,TGT_DTYPE=i32,BLOCK_N=4096,IN_PLACE=true" --num-warps=8
    ALLOW_SPILLS=0 variant "xent-bf16-i32-fwd-n4096w8$t-$chip" "DTYPE=bf16,BLOCK_N=4096,GRAD=false,TGT_DTYPE=i32" --num-warps=8
    ALLOW_SPILLS=0 variant "xent-bf16-i32-grad-n8192w8$t-$chip" "DTYPE=bf16,BLOCK_N=8192,TGT_DTYPE=i32" --num-warps=8
    ALLOW_SPILLS=0 variant "xent-bf16-i32-grad-n2048w4$t-$chip" "DTYPE=bf16,BLOCK_N=2048,TGT_DTYPE=i32" --num-warps=4
    KERNEL=swiglu
    for dt in f16 bf16 f32; do
      for dir in fwd bwd; do
        b=$([ $dir = bwd ] && echo true || echo false)
        ALLOW_SPILLS=0 variant "swiglu-$dt-$dir-r8n512$t-$chip" "DTYPE=$dt,BACKWARD=$b,ROWS=8,BLOCK_N=512" --num-warps=4
      done
    done
    # Smaller tiles: fewer registers, more blocks an SM (for the autotune).
    ALLOW_SPILLS=0 variant "swiglu-bf16-fwd-r4n256$t-$chip" "DTYPE=bf16,ROWS=4,BLOCK_N=256" --num-warps=4
    ALLOW_SPILLS=0 variant "swiglu-bf16-bwd-r4n256$t-$chip" "DTYPE=bf16,BACKWARD=true,ROWS=4,BLOCK_N=256" --num-warps=4
    ALLOW_SPILLS=0 variant "swiglu-bf16-fwd-r4n1024-$chip" "DTYPE=bf16,ROWS=4,BLOCK_N=1024" --num-warps=4
    ALLOW_SPILLS=0 variant "swiglu-f16-bwd-r8n512-a2-$chip" "DTYPE=f16,BACKWARD=true" --num-warps=4 --view-align=2
    KERNEL=gelu
    for dt in f16 bf16 f32; do
      for form in tanh erf; do
        tf=$([ $form = tanh ] && echo true || echo false)
        for dir in fwd bwd; do
          b=$([ $dir = bwd ] && echo true || echo false)
          ALLOW_SPILLS=0 variant "gelu-$dt-$form-$dir-r8n512$t-$chip" "DTYPE=$dt,TANH=$tf,BACKWARD=$b" --num-warps=4
        done
      done
    done
    ALLOW_SPILLS=0 variant "gelu-bf16-tanh-fwd-r4n256$t-$chip" "DTYPE=bf16,ROWS=4,BLOCK_N=256" --num-warps=4
    ALLOW_SPILLS=0 variant "gelu-bf16-erf-bwd-r4n256$t-$chip" "DTYPE=bf16,TANH=false,BACKWARD=true,ROWS=4,BLOCK_N=256" --num-warps=4
    ALLOW_SPILLS=0 variant "gelu-bf16-erf-fwd-r8n512-a2-$chip" "DTYPE=bf16,TANH=false" --num-warps=4 --view-align=2
    KERNEL=dropout
    for dt in f16 bf16 f32; do
      ALLOW_SPILLS=0 variant "dropout-$dt-r16$t-$chip" "DTYPE=$dt,ROWS=16" --num-warps=4
    done
    ALLOW_SPILLS=0 variant "dropout-bf16-r8$t-$chip" "DTYPE=bf16,ROWS=8" --num-warps=4
    ALLOW_SPILLS=0 variant "dropout-bf16-r32w8$t-$chip" "DTYPE=bf16,ROWS=32" --num-warps=8
    ALLOW_SPILLS=0 variant "dropout-f16-r16-a2-$chip" "DTYPE=f16,ROWS=16" --num-warps=4 --view-align=2
  done
  ;;
fp8)
  # kernels/gemm_fp8.mlir (e4m3 A [M, K] x B [N, K], f32 accumulation,
  # scales in the epilogue), sm_90a only (fp8 wgmma). The f16 GEMM's
  # fastest configurations (kernels set: persistent 128x256 and 256x128
  # tiles, 128x128 with 4 stages, ping-pong) with BLOCK_K = 128 fp8
  # elements (one 128-byte swizzled row, as f16's 64), then the epilogue
  # variants (row/column scales at 128x256 spill 16 bytes: 256x128 and
  # 128x128 tiles instead). ALLOW_SPILLS=0: a spilling bundle is a compile
  # failure.
  # bench/check_fp8.py checks every bundle and times the bf16 ones.
  KERNEL=gemm_fp8
  ALLOW_SPILLS=0 variant "fp8-n256-p" "BLOCK_N=256,MAX_BLOCKS=132"
  ALLOW_SPILLS=0 variant "fp8-m256-p" "BLOCK_M=256,MAX_BLOCKS=132"
  ALLOW_SPILLS=0 variant "fp8-p-s4" "MAX_BLOCKS=132" --stages=4
  ALLOW_SPILLS=0 variant "fp8-n256-pp" "BLOCK_N=256" --ping-pong=on
  ALLOW_SPILLS=0 variant "fp8-n256" "BLOCK_N=256"
  ALLOW_SPILLS=0 variant "fp8-m128n128" ""
  ALLOW_SPILLS=0 variant "fp8-m256-p-rowcol" "BLOCK_M=256,MAX_BLOCKS=132,ROW_SCALE=true,COL_SCALE=true"
  ALLOW_SPILLS=0 variant "fp8-p-s4-rowcol" "MAX_BLOCKS=132,ROW_SCALE=true,COL_SCALE=true" --stages=4
  ALLOW_SPILLS=0 variant "fp8-p-s4-promote" "MAX_BLOCKS=132,PROMOTE=true" --stages=4
  ALLOW_SPILLS=0 variant "fp8-bias-gelu-f32" "HAS_BIAS=true,ACTIVATION=2,OUT_DTYPE=f32,ROW_SCALE=true"
  ALLOW_SPILLS=0 variant "fp8-f16-bias-relu" "HAS_BIAS=true,ACTIVATION=1,OUT_DTYPE=f16,COL_SCALE=true"
  ;;
window)
  # Sliding window and logit soft-cap (kernels/fmha.mlir WINDOW_LEFT,
  # WINDOW_RIGHT, SOFTCAP; issue 28) for bench/check_window.py. Spills are
  # refused (ALLOW_SPILLS=0): every bundle here compiles without.
  # Timed, B=4 H=32 D=128 (EVEN_K, TILE_M=128, the perf set's fastest
  # options): for f16 and bf16, causal (c) and not (n), the plain forward
  # (-, the reference for the soft-cap's cost), the soft-cap 50 (sc),
  # the window 1024 (w: causal + 1024 keys back; not causal: 1024 on both
  # sides) and both (wsc). Two configurations each: TMA + overlapped + O
  # through shared memory (tmaov-cs; the split loop, a 24-register
  # producer) and persistent TMA without the overlap (p-tma-cs): the
  # persistent overlapped bundles spill 32-64 bytes with the window's three
  # loops. Named window-DTYPE-MASK-CONFIG, MASK = c, n, sc-c, w-n, ...
  export ALLOW_SPILLS=0
  for dt in f16 bf16; do
    for causal in true false; do
      c=$([ $causal = true ] && echo c || echo n)
      for mk in "-:" "sc:SOFTCAP=50" "w:WINDOW_LEFT=1024" "wsc:WINDOW_LEFT=1024,SOFTCAP=50"; do
        m=${mk%%:*}
        extra=${mk#*:}
        [ $causal = false ] && extra=${extra/WINDOW_LEFT=1024/WINDOW_LEFT=1024,WINDOW_RIGHT=1024}
        mask=$([ "$m" = - ] && echo "$c" || echo "$m-$c")
        common="TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=$causal,EVEN_K=true,DTYPE=$dt${extra:+,$extra}"
        if [ "$m" = - ] || [ "$m" = sc ]; then overlap_switches $c; else overlap_switches c; fi
        variant "window-$dt-$mask-tmaov-cs" "$common" --num-warps=8 --stages=2 \
          --tma=on --coalesce-stores=on "${OVERLAP[@]}"
        variant "window-$dt-$mask-p-tma-cs" "$common" --num-warps=8 --stages=2 \
          --producer-regs=56 --tma=on --coalesce-stores=on "--tile-pipeline=$O3{persistent=132}"
        # Without the window, the fastest perf bundle too (persistent,
        # overlapped, ping-pong; causal tiles in pairs).
        if [ "$m" = - ] || [ "$m" = sc ]; then
          persistent_options $c
          overlap_switches $c "$PERSIST"
          variant "window-$dt-$mask-p-tmaov-cs-pp" "$common" --num-warps=8 --stages=2 \
            --tma=on --coalesce-stores=on --ping-pong=on "${OVERLAP[@]}"
        fi
      done
    done
  done
  # Checked only, on ragged shapes (EVEN_K false, both causal alignments):
  # small windows that cut tiles, GQA 4 with LSE, mma.sync, and sm_80.
  overlap_switches c
  variant "chkwindow-f16-w100-c-tmaov" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=true,EVEN_K=false,WINDOW_LEFT=100,SOFTCAP=20" \
    --num-warps=8 --stages=2 --tma=on --coalesce-stores=on "${OVERLAP[@]}"
  variant "chkwindow-bf16-w77r33-n-p" "TILE_M=128,TILE_N=128,HEAD_DIM=128,CAUSAL=false,EVEN_K=false,WINDOW_LEFT=77,WINDOW_RIGHT=33,DTYPE=bf16" \
    --num-warps=8 --stages=2 --producer-regs=56 --tma=on --coalesce-stores=on "--tile-pipeline=$O3{persistent=132}"
  variant "chkwindow-f16-w300-g4-lse-c" "TILE_M=128,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false,WINDOW_LEFT=300,SOFTCAP=30,QUERY_GROUP_SIZE=4,WITH_LSE=true" \
    --tile-pipeline=$O3
  variant "chkwindow-f16-sc30-n-sync" "TILE_M=128,TILE_N=64,HEAD_DIM=64,CAUSAL=false,EVEN_K=false,SOFTCAP=30" \
    --mma-version=2 --tile-pipeline=$O3
  variant "chkwindow-f16-w64r64-n-sm80" "TILE_M=64,TILE_N=64,HEAD_DIM=128,CAUSAL=false,EVEN_K=false,WINDOW_LEFT=64,WINDOW_RIGHT=64,SOFTCAP=50" \
    --num-warps=4 --chip=sm_80 --tile-pipeline=$O3
  variant "chkwindow-bf16-w200-c-sm80" "TILE_M=64,TILE_N=64,HEAD_DIM=128,CAUSAL=true,EVEN_K=false,WINDOW_LEFT=200,DTYPE=bf16" \
    --num-warps=4 --chip=sm_80 --tile-pipeline=$O3
  ;;
syntax)
  # kernels/pool_mean.mlir, the kernel of docs/walkthrough.md section 7
  # (shape expressions, type aliases): every dtype, windows P = 2 and 4, for
  # sm_90a and sm_80, named pool_mean-DTYPE-pP[-a2][-time]-CHIP (-a2: any
  # row length): bench/check_syntax.py checks and times them. No spills.
  KERNEL=pool_mean
  for chip in sm_90a sm_80; do
    t=$([ $chip = sm_90a ] && echo "-time" || echo "")
    CHIP=$chip
    for dt in f16 bf16 f32; do
      for p in 2 4; do
        ALLOW_SPILLS=0 variant "pool_mean-$dt-p$p$t-$chip" "DTYPE=$dt,P=$p,ROWS=16,BLOCK_N=64" --num-warps=4
      done
    done
    ALLOW_SPILLS=0 variant "pool_mean-f16-p2-a2-$chip" "DTYPE=f16,P=2,ROWS=16,BLOCK_N=64" --num-warps=4 --view-align=2
    ALLOW_SPILLS=0 variant "pool_mean-bf16-p4-a2-$chip" "DTYPE=bf16,P=4,ROWS=16,BLOCK_N=64" --num-warps=4 --view-align=2
  done
  ;;
*)
  echo "unknown set '$set_name' (check, perf, dtypes, ladder, kernels, hopper, splitk, data, norms, moe, backward, serving, xent, fp8, window, syntax, transposed)" >&2
  exit 2
  ;;
esac
