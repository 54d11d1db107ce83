// tile-remap-blocks on the flash-attention kernel: causal attention gives the
// blocks with more query rows more key tiles, so auto reverses x; without
// the causal mask every block does the same work and nothing changes.
//
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=true' -canonicalize -cse -tile-remap-blocks | FileCheck %s --check-prefix=CAUSAL
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=true,EVEN_K=false' -canonicalize -cse -tile-split-loop -canonicalize -cse -tile-remap-blocks | FileCheck %s --check-prefix=CAUSAL
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=false' -canonicalize -cse -tile-remap-blocks | FileCheck %s --check-prefix=NEGATIVE
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=false,QUERY_GROUP_SIZE=4' -canonicalize -cse -tile-remap-blocks='group-size=4' | FileCheck %s --check-prefix=GROUP

// CAUSAL-LABEL: func.func @fmha
// CAUSAL: %[[HW:.*]] = tile.block_id x
// CAUSAL: %[[N:.*]] = tile.num_blocks x
// CAUSAL: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CAUSAL: %[[BX:.*]] = arith.subi %[[LAST]], %[[HW]] : i32
// CAUSAL-NOT: tile.block_id x
// CAUSAL: arith.muli %[[BX]], %{{.*}} : i32
// CAUSAL: tile.load %{{.*}}[%{{.*}}, %{{.*}}, %[[BX]], %{{.*}}] shape [1, 1, 64, 128]
// CAUSAL: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %[[BX]], %{{.*}}]

// NEGATIVE-LABEL: func.func @fmha
// NEGATIVE-NOT: tile.num_blocks
// NEGATIVE: %[[BX:.*]] = tile.block_id x
// NEGATIVE-NOT: tile.num_blocks
// NEGATIVE: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %[[BX]], %{{.*}}]

// GQA, 4 query heads per K/V head: no reversal (not causal), grouping.
// GROUP-LABEL: func.func @fmha
// GROUP: tile.num_blocks y
// GROUP: arith.constant 4 : i64
// GROUP: %[[X:.*]] = arith.trunci %{{.*}} : i64 to i32
// GROUP: %[[Y:.*]] = arith.trunci %{{.*}} : i64 to i32
// GROUP-NOT: arith.subi %{{.*}}, %[[X]] : i32
// GROUP: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %[[X]], %{{.*}}]
