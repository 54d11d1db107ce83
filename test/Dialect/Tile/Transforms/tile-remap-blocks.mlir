// RUN: tile-opt %s -split-input-file -tile-remap-blocks | FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: tile-opt %s -split-input-file -tile-remap-blocks=mode=reverse | FileCheck %s --check-prefixes=CHECK,REVERSE
// RUN: tile-opt %s -split-input-file -tile-remap-blocks=mode=none | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: tile-opt %s -split-input-file -tile-remap-blocks='mode=none group-size=2' | FileCheck %s --check-prefixes=CHECK,GROUP
// RUN: tile-opt %s -split-input-file -tile-remap-blocks='mode=reverse group-size=4' | FileCheck %s --check-prefixes=CHECK,BOTH
// auto does not reverse a reversed kernel again (its work now shrinks with
// the block id):
// RUN: tile-opt %s -split-input-file -tile-remap-blocks -tile-remap-blocks | FileCheck %s --check-prefixes=CHECK,AUTO

// Causal attention: the trip count of the key loop grows with the query tile
// (block_id x), so auto reverses x.
// CHECK-LABEL: func.func @causal
// AUTO: %[[HW:.*]] = tile.block_id x
// AUTO: %[[N:.*]] = tile.num_blocks x
// AUTO: %[[ONE:.*]] = arith.constant 1 : i32
// AUTO: %[[LAST:.*]] = arith.subi %[[N]], %[[ONE]] : i32
// AUTO: %[[BX:.*]] = arith.subi %[[LAST]], %[[HW]] : i32
// AUTO-NOT: tile.block_id x
// AUTO: arith.muli %[[BX]], %{{.*}} : i32
// REVERSE: %[[HW:.*]] = tile.block_id x
// REVERSE: %[[BX:.*]] = arith.subi %{{.*}}, %[[HW]] : i32
// REVERSE: arith.muli %[[BX]], %{{.*}} : i32
// NONE-NOT: tile.num_blocks
// NONE: %[[BX:.*]] = tile.block_id x
// NONE: arith.muli %[[BX]], %{{.*}} : i32
//
// Grouping: L = x + nx * y, groups of G rows (y fastest inside).
// GROUP: %[[X:.*]] = tile.block_id x
// GROUP: %[[Y:.*]] = tile.block_id y
// GROUP: %[[X64:.*]] = arith.extsi %[[X]] : i32 to i64
// GROUP: %[[Y64:.*]] = arith.extsi %[[Y]] : i32 to i64
// GROUP: %[[NX:.*]] = tile.num_blocks x
// GROUP: %[[NX64:.*]] = arith.extsi %[[NX]] : i32 to i64
// GROUP: %[[NY:.*]] = tile.num_blocks y
// GROUP: %[[NY64:.*]] = arith.extsi %[[NY]] : i32 to i64
// GROUP: %[[G:.*]] = arith.constant 2 : i64
// GROUP: %[[T:.*]] = arith.muli %[[NX64]], %[[Y64]] : i64
// GROUP: %[[L:.*]] = arith.addi %[[X64]], %[[T]] : i64
// GROUP: %[[GN:.*]] = arith.muli %[[G]], %[[NX64]] : i64
// GROUP: %[[GI:.*]] = arith.divsi %[[L]], %[[GN]] : i64
// GROUP: %[[FIRST:.*]] = arith.muli %[[GI]], %[[G]] : i64
// GROUP: %[[LEFT:.*]] = arith.subi %[[NY64]], %[[FIRST]] : i64
// GROUP: %[[ROWS:.*]] = arith.minsi %[[G]], %[[LEFT]] : i64
// GROUP: %[[R:.*]] = arith.remsi %[[L]], %[[GN]] : i64
// GROUP: %[[RY:.*]] = arith.remsi %[[R]], %[[ROWS]] : i64
// GROUP: %[[NEWY:.*]] = arith.addi %[[FIRST]], %[[RY]] : i64
// GROUP: %[[NEWX:.*]] = arith.divsi %[[R]], %[[ROWS]] : i64
// GROUP: %[[BX:.*]] = arith.trunci %[[NEWX]] : i64 to i32
// GROUP: %[[BY:.*]] = arith.trunci %[[NEWY]] : i64 to i32
// GROUP-NOT: tile.block_id
// GROUP: arith.muli %[[BX]], %{{.*}} : i32
// GROUP: tile.load %{{.*}}[%[[BY]], %[[BX]]]
//
// Both: the reversal applies to the grouped x.
// BOTH: %[[R:.*]] = arith.remsi
// BOTH: %[[NEWX:.*]] = arith.divsi %[[R]], %{{.*}} : i64
// BOTH: %[[GX:.*]] = arith.trunci %[[NEWX]] : i64 to i32
// BOTH: %[[BY:.*]] = arith.trunci %{{.*}} : i64 to i32
// BOTH: %[[N:.*]] = tile.num_blocks x
// BOTH: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : i32
// BOTH: %[[BX:.*]] = arith.subi %[[LAST]], %[[GX]] : i32
// BOTH: tile.load %{{.*}}[%[[BY]], %[[BX]]]
func.func @causal(%Q: !tile.view<?x?xf32> {tile.name = "Q"}, %k_len: i32, %pos: i32)
    attributes {tile.kernel = {grid = ["cdiv(Q.1, 64)", "Q.0", "1"]}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %bx = tile.block_id x
  %by = tile.block_id y
  %row = arith.muli %bx, %c64 : i32
  %m_start = arith.addi %pos, %row : i32
  %m_end = arith.addi %m_start, %c64 : i32
  %end = arith.minsi %m_end, %k_len : i32
  %n = arith.ceildivsi %end, %c64 : i32
  %q = tile.load %Q[%by, %bx] shape [1, 64] : !tile.view<?x?xf32> -> tensor<1x64xf32>
  scf.for %j = %c0 to %n step %c1 : i32 {
    %e = tile.exp2 %q : tensor<1x64xf32>
    tile.store %e, %Q[%by, %j] : tensor<1x64xf32>, !tile.view<?x?xf32>
  }
  return
}

// -----

// Not causal: every block visits every key tile; auto keeps the order.
// CHECK-LABEL: func.func @negative_not_causal
// AUTO-NOT: tile.num_blocks
// AUTO: tile.block_id x
// AUTO-NOT: tile.num_blocks
// REVERSE: tile.num_blocks x
// GROUP: tile.num_blocks y
func.func @negative_not_causal(%Q: !tile.view<?x?xf32>, %k_len: i32)
    attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %bx = tile.block_id x
  %by = tile.block_id y
  %n = arith.ceildivsi %k_len, %c64 : i32
  %q = tile.load %Q[%by, %bx] shape [1, 64] : !tile.view<?x?xf32> -> tensor<1x64xf32>
  scf.for %j = %c0 to %n step %c1 : i32 {
    %e = tile.exp2 %q : tensor<1x64xf32>
  }
  return
}

// -----

// Work that shrinks with the block id (the order is already heaviest first)
// and work that depends on it in no monotone way are left alone by auto.
// CHECK-LABEL: func.func @negative_shrinking
// AUTO-NOT: tile.num_blocks
// AUTO: return
func.func @negative_shrinking(%n: i32) attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bx = tile.block_id x
  %ub = arith.subi %n, %bx : i32
  scf.for %j = %c0 to %ub step %c1 : i32 {
  }
  %sq = arith.muli %bx, %bx : i32
  scf.for %j = %c0 to %sq step %c1 : i32 {
  }
  return
}

// -----

// A loop whose trip count grows with block_id y: auto looks at `dim` (x)
// only.
// CHECK-LABEL: func.func @negative_other_dim
// AUTO-NOT: tile.num_blocks
// AUTO: return
func.func @negative_other_dim(%n: i32) attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %by = tile.block_id y
  scf.for %j = %c0 to %by step %c1 : i32 {
  }
  return
}

// -----

// Functions that are not kernels are never rewritten.
// CHECK-LABEL: func.func @negative_not_a_kernel
// CHECK-NOT: tile.num_blocks
// CHECK: return
func.func @negative_not_a_kernel(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bx = tile.block_id x
  scf.for %j = %c0 to %bx step %c1 : i32 {
  }
  return
}
