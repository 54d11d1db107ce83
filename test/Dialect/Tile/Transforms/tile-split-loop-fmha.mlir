// tile-split-loop on the flash-attention kernel (the post's baseline, mask on
// every iteration): the masked loop becomes an unmasked main loop and a
// short masked tail.
//
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=true,EVEN_K=true' -canonicalize -cse -tile-split-loop -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,CAUSAL
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=true,EVEN_K=false' -canonicalize -cse -tile-split-loop -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,RAGGED
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=false,EVEN_K=false' -canonicalize -cse -tile-split-loop -canonicalize -cse | FileCheck %s --check-prefix=KEYS
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=false,EVEN_K=true' -canonicalize -cse -tile-split-loop -canonicalize -cse | FileCheck %s --check-prefix=NONE
// Right after tile-specialize (the masks still inside scf.if on constants):
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize='bind=CAUSAL=true,EVEN_K=false' -tile-split-loop -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,RAGGED

// CHECK-LABEL: func.func @fmha
// CHECK-SAME: %[[POS:[^ :]+]]: i32 {tile.name = "input_pos"}
// CHECK: %[[BX:.*]] = tile.block_id x
// CHECK: %[[ROW:.*]] = arith.muli %[[BX]], %{{.*}} : i32
// CHECK: %[[MSTART:.*]] = arith.addi %[[POS]], %[[ROW]] : i32
// CHECK: %[[KLEN:.*]] = tile.dim %{{.*}}[2]
// CHECK: %[[NK:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : i32
// CHECK: %[[UB:.*]] = arith.extsi %[[NK]] : i32 to i64
//
// Causal: all keys of tile j are visible to all rows while
// 64 * j + 63 <= m_start, i.e. j < floor((m_start + 1) / 64).
// CAUSAL: %[[M64:.*]] = arith.extsi %[[MSTART]] : i32 to i64
// CAUSAL: %[[M1:.*]] = arith.addi %[[M64]], %{{.*}} : i64
// CAUSAL: %[[E:.*]] = arith.floordivsi %[[M1]], %{{.*}} : i64
// CAUSAL: %[[MIN:.*]] = arith.minsi %[[UB]], %[[E]] : i64
//
// Causal and ragged: also the key-length mask, all in bounds while
// 64 * j + 63 < k_len, i.e. j < floor(k_len / 64).
// RAGGED: %[[K64:.*]] = arith.extsi %[[KLEN]] : i32 to i64
// RAGGED: %[[EK:.*]] = arith.floordivsi %[[K64]], %{{.*}} : i64
// RAGGED: %[[MINK:.*]] = arith.minsi %[[UB]], %[[EK]] : i64
// RAGGED: %[[M64:.*]] = arith.extsi %[[MSTART]] : i32 to i64
// RAGGED: %[[M1:.*]] = arith.addi %[[M64]], %{{.*}} : i64
// RAGGED: %[[E:.*]] = arith.floordivsi %[[M1]], %{{.*}} : i64
// RAGGED: %[[MIN:.*]] = arith.minsi %[[MINK]], %[[E]] : i64
//
// CHECK: %[[MAX:.*]] = arith.maxsi %[[MIN]], %{{.*}} : i64
// CHECK: %[[SPLIT:.*]] = arith.trunci %[[MAX]] : i64 to i32
//
// The main loop: no iota, no comparison, no select of a 64x64 mask.
// CHECK: %[[MAIN:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step
// CHECK-NOT: arith.cmpi
// CHECK-NOT: tensor<64x64xi1>
// CHECK: %[[QK:.*]] = tile.mma
// CHECK-NEXT: tile.reduce %[[QK]] max axis 1 keepdims
// CHECK-NOT: arith.cmpi
// CHECK-NOT: tensor<64x64xi1>
// CHECK: scf.yield
// CHECK-NEXT: }
//
// The tail keeps the mask and carries the state on.
// CHECK-NEXT: %[[TAIL:.*]]:3 = scf.for %{{.*}} = %[[SPLIT]] to %[[NK]] step %{{.*}} iter_args(%{{.*}} = %[[MAIN]]#0, %{{.*}} = %[[MAIN]]#1, %{{.*}} = %[[MAIN]]#2)
// RAGGED: arith.cmpi slt
// CHECK: %[[GE:.*]] = arith.cmpi sge
// CHECK: %[[MASK:.*]] = arith.andi %{{.*}}, %[[GE]] : tensor<64x64xi1>
// CHECK: tile.select %[[MASK]], %{{.*}}, %{{.*}} : tensor<64x64xi1>, tensor<64x64xf32>
// CHECK: } {tile.split_remainder}
// CHECK: tile.div %[[TAIL]]#2

// Not causal, ragged: the key-length mask only; the tail is the last tile.
// KEYS-LABEL: func.func @fmha
// KEYS: %[[KLEN:.*]] = tile.dim %{{.*}}[2]
// KEYS: %[[NK:.*]] = arith.ceildivsi %[[KLEN]], %{{.*}} : i32
// KEYS: %[[UB:.*]] = arith.extsi %[[NK]] : i32 to i64
// KEYS: %[[K64:.*]] = arith.extsi %[[KLEN]] : i32 to i64
// KEYS: %[[EK:.*]] = arith.floordivsi %[[K64]], %{{.*}} : i64
// KEYS: %[[MIN:.*]] = arith.minsi %[[UB]], %[[EK]] : i64
// KEYS: %[[MAX:.*]] = arith.maxsi %[[MIN]], %{{.*}} : i64
// KEYS: %[[SPLIT:.*]] = arith.trunci %[[MAX]] : i64 to i32
// KEYS: scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step
// KEYS-NOT: arith.cmpi
// KEYS: scf.for %{{.*}} = %[[SPLIT]] to %[[NK]] step
// KEYS: arith.cmpi slt
// KEYS: } {tile.split_remainder}

// Not causal, every key tile full: no mask, nothing to split.
// NONE-LABEL: func.func @fmha
// NONE-COUNT-1: scf.for
// NONE-NOT: scf.for
// NONE-NOT: arith.cmpi
// NONE-NOT: tile.split_remainder
