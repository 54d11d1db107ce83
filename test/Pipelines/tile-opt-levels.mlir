// The optimization ladder of the cuTile post as pipelines, on the flash-
// attention kernel: tile-O0 (specialize), tile-O1 (+ cleanups, the baseline),
// tile-O2 (+ loop split, block remapping: exact), tile-O3 (+ fast math), and
// the switches that measure one step at a time.
//
// RUN: tile-opt %kernels/fmha.mlir --tile-O0='bind=CAUSAL=true,EVEN_K=false' | FileCheck %s --check-prefix=O0
// RUN: tile-opt %kernels/fmha.mlir --tile-O1='bind=CAUSAL=true,EVEN_K=false' | FileCheck %s --check-prefix=O1
// RUN: tile-opt %kernels/fmha.mlir --tile-O2='bind=CAUSAL=true,EVEN_K=false' | FileCheck %s --check-prefixes=O2,SPLIT
// RUN: tile-opt %kernels/fmha.mlir --tile-O3='bind=CAUSAL=true,EVEN_K=false' | FileCheck %s --check-prefixes=O3,SPLIT
// RUN: tile-opt %kernels/fmha.mlir --pass-pipeline='builtin.module(tile-O3{bind=CAUSAL=true,EVEN_K=false})' | FileCheck %s --check-prefixes=O3,SPLIT
// The ladder, step by step: + fast math, + loop split, + remapping (= O3).
// RUN: tile-opt %kernels/fmha.mlir --tile-O1='bind=CAUSAL=true fast-math=true' | FileCheck %s --check-prefix=FAST
// RUN: tile-opt %kernels/fmha.mlir --tile-O3='bind=CAUSAL=true split-loop=false remap-blocks=false' | FileCheck %s --check-prefix=FAST
// RUN: tile-opt %kernels/fmha.mlir --tile-O3='bind=CAUSAL=true remap-blocks=false' | FileCheck %s --check-prefix=SPLITONLY
// Already specialized input; grouping for GQA; launch-hint overrides.
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=true' --tile-O2='specialize=false group-size=2 remap-mode=none' | FileCheck %s --check-prefix=GROUP
// RUN: tile-opt %kernels/fmha.mlir --tile-O2='bind=CAUSAL=false num-warps=8 occupancy=2' | FileCheck %s --check-prefix=NONCAUSAL
// Bad bindings fail the pipeline with the pass's located error.
// RUN: not tile-opt %kernels/fmha.mlir --tile-O3='bind=CAUSAL=maybe' 2>&1 | FileCheck %s --check-prefix=ERROR

// O0-LABEL: func.func @fmha
// O0-NOT: tile.param "
// O0: scf.if
// O0: scf.for
// O0: scf.if
// O0-NOT: tile.num_blocks

// O1-LABEL: func.func @fmha
// O1-NOT: scf.if
// O1-NOT: tile.num_blocks
// O1-COUNT-1: scf.for
// O1: arith.cmpi sge
// O1: tile.select
// O1: tile.exp2 %{{.*}} : tensor<64x64xf32>
// O1-NOT: scf.for
// O1-NOT: math.fma
// O1: tile.div %{{.*}}, %{{.*}} : tensor<64x128xf32>

// SPLIT-LABEL: func.func @fmha
// SPLIT: %[[HW:.*]] = tile.block_id x
// SPLIT: %[[N:.*]] = tile.num_blocks x
// SPLIT: %[[BX:.*]] = arith.subi %{{.*}}, %[[HW]] : i32
// SPLIT: %[[SPLITPT:.*]] = arith.trunci %{{.*}} : i64 to i32
// SPLIT: %[[MAIN:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[SPLITPT]] step
// SPLIT-NOT: arith.cmpi
// O3: math.fma
// O3: tile.exp2 %{{.*}} flush_to_zero
// SPLIT: scf.yield
// SPLIT: scf.for %{{.*}} = %[[SPLITPT]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[MAIN]]#0
// SPLIT: arith.cmpi sge
// O3: math.fma
// O3: tile.exp2 %{{.*}} flush_to_zero
// SPLIT: } {tile.split_remainder}
// O2-NOT: flush_to_zero
// O2-NOT: math.fma
// O2: tile.div %{{.*}}, %{{.*}} : tensor<64x128xf32>
// O3: tile.div %{{.*}}, %{{.*}} rounding approx flush_to_zero : tensor<64x128xf32>

// FAST-LABEL: func.func @fmha
// FAST-NOT: tile.num_blocks
// FAST-COUNT-1: scf.for
// FAST: math.fma
// FAST: tile.exp2 %{{.*}} flush_to_zero
// FAST-NOT: scf.for
// FAST: tile.div %{{.*}}, %{{.*}} rounding approx flush_to_zero

// SPLITONLY-LABEL: func.func @fmha
// SPLITONLY-NOT: tile.num_blocks
// SPLITONLY: scf.for
// SPLITONLY: scf.for
// SPLITONLY: } {tile.split_remainder}

// GROUP-LABEL: func.func @fmha
// GROUP: arith.constant 2 : i64
// GROUP: tile.num_blocks y
// GROUP: arith.remsi
// GROUP: scf.for
// GROUP: } {tile.split_remainder}

// NONCAUSAL-LABEL: func.func @fmha
// NONCAUSAL-SAME: num_warps = 8 : i32, occupancy = 2 : i32
// NONCAUSAL-NOT: tile.num_blocks
// NONCAUSAL-COUNT-1: scf.for
// NONCAUSAL-NOT: scf.for

// ERROR: fmha.mlir:{{[0-9]+}}:1: error: parameter 'CAUSAL' is a boolean, got 'maybe'
