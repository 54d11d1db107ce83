// RUN: tile-opt %s -split-input-file -tile-split-loop | FileCheck %s
// Running the pass twice changes nothing more:
// RUN: tile-opt %s -split-input-file -tile-split-loop -tile-split-loop | FileCheck %s

//===----------------------------------------------------------------------===//
// Branches on the induction variable (the cuTile post's form)
//===----------------------------------------------------------------------===//

// `if (need_mask && j >= mask_start)`: [lb, s) takes the else branch,
// [s, ub) the then branch, with s = clamp(mask_start, lb, ub).
// CHECK-LABEL: func.func @split_if_ge
// CHECK-SAME: (%[[N:[^ :]+]]: i32, %[[START:[^ :]+]]: i32, %[[INIT:[^ :]+]]: tensor<4xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[LB:.*]] = arith.extsi %[[C0]] : i32 to i64
// CHECK: %[[UB:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[S:.*]] = arith.extsi %[[START]] : i32 to i64
// CHECK: %[[LOW:.*]] = arith.maxsi %[[LB]], %[[S]] : i64
// CHECK: %[[CLAMP:.*]] = arith.minsi %[[LOW]], %[[UB]] : i64
// CHECK: %[[SPLIT:.*]] = arith.trunci %[[CLAMP]] : i64 to i32
// CHECK: %[[A:.*]] = scf.for %[[J:.*]] = %[[C0]] to %[[SPLIT]] step %[[C1]] iter_args(%[[X:.*]] = %[[INIT]])
// CHECK-NOT: scf.if
// CHECK:   arith.mulf %[[X]], %[[X]]
// CHECK: %[[B:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step %[[C1]] iter_args(%[[Y:.*]] = %[[A]])
// CHECK-NOT: scf.if
// CHECK:   arith.addf %[[Y]], %[[Y]]
// CHECK-NOT: tile.split_remainder
// CHECK: return %[[B]]
func.func @split_if_ge(%n: i32, %start: i32, %init: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<4xf32>) : i32 {
    %ge = arith.cmpi sge, %j, %start : i32
    %cond = arith.andi %true, %ge : i1
    %next = scf.if %cond -> tensor<4xf32> {
      %a = arith.addf %acc, %acc : tensor<4xf32>
      scf.yield %a : tensor<4xf32>
    } else {
      %m = arith.mulf %acc, %acc : tensor<4xf32>
      scf.yield %m : tensor<4xf32>
    }
    scf.yield %next : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// `if (s > j)`, the swapped form of j < s: the then branch comes first.
// CHECK-LABEL: func.func @split_if_swapped_gt
// CHECK: %[[E:.*]] = arith.minsi %{{.*}}, %{{.*}} : i64
// CHECK: %[[CLAMP:.*]] = arith.maxsi %[[E]], %{{.*}} : i64
// CHECK: %[[SPLIT:.*]] = arith.trunci %[[CLAMP]] : i64 to i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SPLIT]]
// CHECK-NOT: scf.if
// CHECK: tile.exp2
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to
// CHECK-NOT: tile.exp2
// CHECK: return
func.func @split_if_swapped_gt(%n: i32, %s: i32, %x: tensor<4xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %j = %c0 to %n step %c1 : i32 {
    %lt = arith.cmpi sgt, %s, %j : i32
    scf.if %lt {
      %e = tile.exp2 %x : tensor<4xf32>
    }
  }
  return
}

// -----

// j * 4 + 3 <= s, i.e. j <= floor((s - 3) / 4): a prefix of the iterations.
// floor((s - 3) / 4) + 1 = floor((s + 1) / 4).
// CHECK-LABEL: func.func @split_if_affine_le
// CHECK-SAME: (%{{.*}}: i32, %[[SARG:[^ :]+]]: i32)
// CHECK: %[[S:.*]] = arith.extsi %[[SARG]] : i32 to i64
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: %[[B:.*]] = arith.addi %[[S]], %[[C1]] : i64
// CHECK: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: arith.floordivsi %[[B]], %[[C4]] : i64
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: arith.constant 1.0
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: arith.constant 2.0
func.func @split_if_affine_le(%n: i32, %s: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant 0.0 : f32
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %j4 = arith.muli %c4, %j : i32
    %end = arith.addi %j4, %c3 : i32
    %le = arith.cmpi sle, %end, %s : i32
    %v = scf.if %le -> f32 {
      %one = arith.constant 1.0 : f32
      scf.yield %one : f32
    } else {
      %two = arith.constant 2.0 : f32
      scf.yield %two : f32
    }
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  return %r : f32
}

// -----

// A constant step: the split point is rounded up to the next iteration
// lb + k * step (and clamped to ub).
// CHECK-LABEL: func.func @split_if_step
// CHECK: %[[LB:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[UB:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[CL:.*]] = arith.minsi %{{.*}}, %[[UB]] : i64
// CHECK: %[[OFF:.*]] = arith.subi %[[CL]], %[[LB]] : i64
// CHECK: %[[K:.*]] = arith.ceildivsi %[[OFF]], %[[C3:.*]] : i64
// CHECK: %[[M:.*]] = arith.muli %[[K]], %[[C3]] : i64
// CHECK: %[[AL:.*]] = arith.addi %[[LB]], %[[M]] : i64
// CHECK: %[[S:.*]] = arith.minsi %[[AL]], %[[UB]] : i64
// CHECK: %[[SPLIT:.*]] = arith.trunci %[[S]] : i64 to i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step %{{.*}}
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %{{.*}} step %{{.*}}
func.func @split_if_step(%lb: i32, %ub: i32, %s: i32, %x: tensor<4xf32>) {
  %c3 = arith.constant 3 : i32
  scf.for %j = %lb to %ub step %c3 : i32 {
    %ge = arith.cmpi sgt, %j, %s : i32
    scf.if %ge {
      %e = tile.exp2 %x : tensor<4xf32>
    }
  }
  return
}

// -----

// Two comparisons joined by andi: the branch is taken on [s, e), and the
// loop is split in three.
// CHECK-LABEL: func.func @split_if_window
// CHECK: scf.for
// CHECK-NOT: tile.exp2
// CHECK: scf.for
// CHECK: tile.exp2
// CHECK: scf.for
// CHECK-NOT: tile.exp2
// CHECK: return
func.func @split_if_window(%n: i32, %s: i32, %e: i32, %x: tensor<4xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %j = %c0 to %n step %c1 : i32 {
    %ge = arith.cmpi sge, %j, %s : i32
    %lt = arith.cmpi slt, %j, %e : i32
    %in = arith.andi %ge, %lt : i1
    scf.if %in {
      %p = tile.exp2 %x : tensor<4xf32>
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// Masks (tile.select) affine in the induction variable
//===----------------------------------------------------------------------===//

// -----

// The causal mask of flash attention: rows m_start + [0, 63] against columns
// 64 * j + [0, 63]; all true while 64 * j + 63 <= m_start, i.e. for
// j < floor((m_start + 1) / 64). The unmasked loop selects from an all-true
// tile (canonicalize folds it); the remainder keeps the mask.
// CHECK-LABEL: func.func @split_mask_causal
// CHECK-SAME: (%[[M:[^ :]+]]: i32, %[[N:[^ :]+]]: i32, %{{.*}}: tensor<64x64xf32>)
// CHECK: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: %[[M1:.*]] = arith.addi %[[M64]], %[[C1]] : i64
// CHECK: %[[C64:.*]] = arith.constant 64 : i64
// CHECK: %[[E:.*]] = arith.floordivsi %[[M1]], %[[C64]] : i64
// CHECK: %[[MIN:.*]] = arith.minsi %{{.*}}, %[[E]] : i64
// CHECK: %[[MAX:.*]] = arith.maxsi %[[MIN]], %{{.*}} : i64
// CHECK: %[[SPLIT:.*]] = arith.trunci %[[MAX]] : i64 to i32
// CHECK: %[[TRUE:.*]] = tile.full true shape [64, 64] : tensor<64x64xi1>
// CHECK: %[[A:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT]]
// CHECK:   tile.select %[[TRUE]], %{{.*}}, %{{.*}} : tensor<64x64xi1>, tensor<64x64xf32>
// CHECK: } 
// CHECK-NOT: tile.split_remainder
// CHECK: %[[B:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[A]])
// CHECK:   %[[GE:.*]] = arith.cmpi sge
// CHECK:   tile.select %[[GE]], %{{.*}}, %{{.*}} : tensor<64x64xi1>, tensor<64x64xf32>
// CHECK: } {tile.split_remainder}
// CHECK: return %[[B]]
func.func @split_mask_causal(%m_start: i32, %n: i32, %init: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %ninf = tile.full -inf shape [64, 64] : tensor<64x64xf32>
  %rows = tile.iota shape [64, 1] dim 0 : tensor<64x1xi32>
  %m_start_t = tile.splat %m_start shape [64, 1] : i32 -> tensor<64x1xi32>
  %offs_m = arith.addi %rows, %m_start_t : tensor<64x1xi32>
  %cols = tile.iota shape [1, 64] dim 1 : tensor<1x64xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64x64xf32>) : i32 {
    %n_start = arith.muli %j, %c64 : i32
    %n_start_t = tile.splat %n_start shape [1, 64] : i32 -> tensor<1x64xi32>
    %offs_n = arith.addi %cols, %n_start_t : tensor<1x64xi32>
    %offs_n_b = tile.broadcast %offs_n shape [64, 64] : tensor<1x64xi32> -> tensor<64x64xi32>
    %offs_m_b = tile.broadcast %offs_m shape [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
    %ge = arith.cmpi sge, %offs_m_b, %offs_n_b : tensor<64x64xi32>
    %s = tile.select %ge, %acc, %ninf : tensor<64x64xi1>, tensor<64x64xf32>
    scf.yield %s : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// -----

// The key-length mask (!EVEN_K) and the causal mask together, as the
// unspecialized kernel builds them: andi with an all-true tile, reshape and
// permute on the way. Two upper bounds: floor(k / 32) and
// floor((m_start + 1) / 32).
// CHECK-LABEL: func.func @split_mask_key_length
// CHECK-SAME: (%[[M:[^ :]+]]: i32, %[[K:[^ :]+]]: i32,
// CHECK: %[[K64:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK: %[[E1:.*]] = arith.floordivsi %[[K64]], %{{.*}} : i64
// CHECK: %[[MIN1:.*]] = arith.minsi %{{.*}}, %[[E1]] : i64
// CHECK: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
// CHECK: %[[M1:.*]] = arith.addi %[[M64]], %{{.*}} : i64
// CHECK: %[[E2:.*]] = arith.floordivsi %[[M1]], %{{.*}} : i64
// CHECK: arith.minsi %[[MIN1]], %[[E2]] : i64
// CHECK: %[[TRUE:.*]] = tile.full true shape [32, 32] : tensor<32x32xi1>
// CHECK: scf.for
// CHECK:   tile.select %[[TRUE]]
// CHECK: scf.for
// CHECK:   tile.select %{{.*}}
// CHECK: } {tile.split_remainder}
func.func @split_mask_key_length(%m_start: i32, %k_len: i32, %n: i32, %init: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %ninf = tile.full -inf shape [32, 32] : tensor<32x32xf32>
  %all = tile.full true shape [32, 32] : tensor<32x32xi1>
  %rows = tile.iota shape [32] dim 0 : tensor<32xi32>
  %m_start_t = tile.splat %m_start shape [32] : i32 -> tensor<32xi32>
  %offs_m1 = arith.addi %m_start_t, %rows : tensor<32xi32>
  %offs_m = tile.reshape %offs_m1 shape [32, 1] : tensor<32xi32> -> tensor<32x1xi32>
  %cols = tile.iota shape [32, 1] dim 0 : tensor<32x1xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<32x32xf32>) : i32 {
    %n_start = arith.muli %c32, %j : i32
    %n_start_t = tile.splat %n_start shape [32, 1] : i32 -> tensor<32x1xi32>
    %offs_n_col = arith.addi %cols, %n_start_t : tensor<32x1xi32>
    %offs_n = tile.permute %offs_n_col [1, 0] : tensor<32x1xi32> -> tensor<1x32xi32>
    %offs_n_b = tile.broadcast %offs_n shape [32, 32] : tensor<1x32xi32> -> tensor<32x32xi32>
    %k_t = tile.splat %k_len shape [32, 32] : i32 -> tensor<32x32xi32>
    %lt = arith.cmpi slt, %offs_n_b, %k_t : tensor<32x32xi32>
    %in_bounds = arith.andi %all, %lt : tensor<32x32xi1>
    %offs_m_b = tile.broadcast %offs_m shape [32, 32] : tensor<32x1xi32> -> tensor<32x32xi32>
    %le = arith.cmpi sle, %offs_n_b, %offs_m_b : tensor<32x32xi32>
    %mask = arith.andi %in_bounds, %le : tensor<32x32xi1>
    %s = tile.select %mask, %acc, %ninf : tensor<32x32xi1>, tensor<32x32xf32>
    scf.yield %s : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}

// -----

// A mask that holds on a window of iterations (a lower and an upper bound)
// splits the loop in three; only the middle loop is unmasked.
// CHECK-LABEL: func.func @split_mask_window
// CHECK: arith.ceildivsi
// CHECK: arith.floordivsi
// CHECK: %[[TRUE:.*]] = tile.full true shape [8] : tensor<8xi1>
// CHECK: scf.for
// CHECK:   tile.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xi1>
// CHECK: } {tile.split_remainder}
// CHECK: scf.for
// CHECK:   tile.select %[[TRUE]]
// CHECK: }
// CHECK-NEXT: scf.for
// CHECK:   tile.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xi1>
// CHECK: } {tile.split_remainder}
func.func @split_mask_window(%lo: i32, %hi: i32, %n: i32, %init: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero = tile.full 0.0 shape [8] : tensor<8xf32>
  %cols = tile.iota shape [8] dim 0 : tensor<8xi32>
  %lo_t = tile.splat %lo shape [8] : i32 -> tensor<8xi32>
  %hi_t = tile.splat %hi shape [8] : i32 -> tensor<8xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) : i32 {
    %start = arith.muli %j, %c8 : i32
    %start_t = tile.splat %start shape [8] : i32 -> tensor<8xi32>
    %pos = arith.addi %cols, %start_t : tensor<8xi32>
    %ge = arith.cmpi sge, %pos, %lo_t : tensor<8xi32>
    %lt = arith.cmpi sgt, %hi_t, %pos : tensor<8xi32>
    %in = arith.andi %ge, %lt : tensor<8xi1>
    %s = tile.select %in, %acc, %zero : tensor<8xi1>, tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// An index loop whose induction variable reaches the mask through
// arith.index_cast; the split point is cast back to index.
// CHECK-LABEL: func.func @split_mask_index
// CHECK: %[[UB:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[SPLIT:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %{{.*}} step
// CHECK: } {tile.split_remainder}
func.func @split_mask_index(%n: index, %k: i32, %init: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : i32
  %ninf = tile.full -inf shape [8] : tensor<8xf32>
  %cols = tile.iota shape [8] dim 0 : tensor<8xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) {
    %ji = arith.index_cast %j : index to i32
    %j8 = arith.muli %ji, %c8 : i32
    %js = tile.splat %j8 shape [8] : i32 -> tensor<8xi32>
    %pos = arith.addi %cols, %js : tensor<8xi32>
    %ks = tile.splat %k shape [8] : i32 -> tensor<8xi32>
    %in = arith.cmpi slt, %pos, %ks : tensor<8xi32>
    %s = tile.select %in, %acc, %ninf : tensor<8xi1>, tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Nested loops: the inner loop is split on its own induction variable; the
// outer loop, whose variable the mask does not use, is not.
// CHECK-LABEL: func.func @split_nested
// CHECK: scf.for
// CHECK-NOT: tile.split_remainder
// CHECK:   scf.for
// CHECK:     tile.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xi1>, tensor<8xf32>
// CHECK:   }
// CHECK:   scf.for
// CHECK:     tile.select
// CHECK:   } {tile.split_remainder}
// CHECK: }
// CHECK-NOT: tile.split_remainder
// CHECK: return
func.func @split_nested(%n: index, %k: i32, %init: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : i32
  %ninf = tile.full -inf shape [8] : tensor<8xf32>
  %cols = tile.iota shape [8] dim 0 : tensor<8xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) {
    %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (tensor<8xf32>) {
      %ji = arith.index_cast %j : index to i32
      %j8 = arith.muli %ji, %c8 : i32
      %js = tile.splat %j8 shape [8] : i32 -> tensor<8xi32>
      %pos = arith.addi %cols, %js : tensor<8xi32>
      %ks = tile.splat %k shape [8] : i32 -> tensor<8xi32>
      %in = arith.cmpi slt, %pos, %ks : tensor<8xi32>
      %s = tile.select %in, %acc2, %ninf : tensor<8xi1>, tensor<8xf32>
      scf.yield %s : tensor<8xf32>
    }
    scf.yield %r2 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

//===----------------------------------------------------------------------===//
// What must not be split
//===----------------------------------------------------------------------===//

// -----

// A branch on a loop-invariant condition: that is unswitching, not splitting.
// CHECK-LABEL: func.func @negative_invariant_branch
// CHECK: scf.for
// CHECK:   scf.if
// CHECK-NOT: scf.for
func.func @negative_invariant_branch(%n: i32, %s: i32, %x: tensor<4xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c = arith.cmpi sgt, %n, %s : i32
  scf.for %j = %c0 to %n step %c1 : i32 {
    scf.if %c {
      %e = tile.exp2 %x : tensor<4xf32>
    }
  }
  return
}

// -----

// Equality, unsigned comparisons and non-affine terms are not analysed.
// CHECK-LABEL: func.func @negative_predicates
// CHECK-COUNT-1: scf.for
// CHECK-COUNT-3: scf.if
// CHECK-NOT: scf.for
func.func @negative_predicates(%n: i32, %s: i32, %x: tensor<4xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %j = %c0 to %n step %c1 : i32 {
    %eq = arith.cmpi eq, %j, %s : i32
    scf.if %eq {
      %e = tile.exp2 %x : tensor<4xf32>
    }
    %ult = arith.cmpi ult, %j, %s : i32
    scf.if %ult {
      %e = tile.exp2 %x : tensor<4xf32>
    }
    %sq = arith.muli %j, %j : i32
    %lt = arith.cmpi slt, %sq, %s : i32
    scf.if %lt {
      %e = tile.exp2 %x : tensor<4xf32>
    }
  }
  return
}

// -----

// A mask of element-varying width tested with `ne` is not all-true on a
// range, and a branch on a mask's elements is not exact: neither splits.
// A mask read from memory says nothing about the iterations either.
// CHECK-LABEL: func.func @negative_masks
// CHECK-COUNT-1: scf.for
// CHECK-NOT: scf.for
// CHECK-NOT: tile.split_remainder
func.func @negative_masks(%n: i32, %k: i32, %v: !tile.view<?xi1>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %ninf = tile.full -inf shape [8] : tensor<8xf32>
  %cols = tile.iota shape [8] dim 0 : tensor<8xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) : i32 {
    %j8 = arith.muli %j, %c8 : i32
    %js = tile.splat %j8 shape [8] : i32 -> tensor<8xi32>
    %pos = arith.addi %cols, %js : tensor<8xi32>
    %ks = tile.splat %k shape [8] : i32 -> tensor<8xi32>
    %ne = arith.cmpi ne, %pos, %ks : tensor<8xi32>
    %a = tile.select %ne, %acc, %ninf : tensor<8xi1>, tensor<8xf32>
    %loaded = tile.load %v[%j] shape [8] : !tile.view<?xi1> -> tensor<8xi1>
    %b = tile.select %loaded, %a, %ninf : tensor<8xi1>, tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// A mask that depends on a loop-carried value.
// CHECK-LABEL: func.func @negative_loop_carried
// CHECK-COUNT-1: scf.for
// CHECK-NOT: scf.for
func.func @negative_loop_carried(%n: i32, %init: tensor<8xi32>, %x: tensor<8xf32>) -> tensor<8xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0 shape [8] : tensor<8xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<8xi32>) : i32 {
    %js = tile.splat %j shape [8] : i32 -> tensor<8xi32>
    %lt = arith.cmpi slt, %js, %acc : tensor<8xi32>
    %s = tile.select %lt, %acc, %zero : tensor<8xi1>, tensor<8xi32>
    %next = arith.addi %s, %js : tensor<8xi32>
    scf.yield %next : tensor<8xi32>
  }
  return %r : tensor<8xi32>
}

// -----

// Non-constant steps, unsigned loops and loops already split are left alone.
// CHECK-LABEL: func.func @negative_loops
// CHECK-COUNT-3: scf.for
// CHECK-NOT: scf.for
func.func @negative_loops(%n: i32, %step: i32, %s: i32, %x: tensor<4xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %j = %c0 to %n step %step : i32 {
    %ge = arith.cmpi sge, %j, %s : i32
    scf.if %ge {
      %e = tile.exp2 %x : tensor<4xf32>
    }
  }
  scf.for unsigned %j = %c0 to %n step %c1 : i32 {
    %ge = arith.cmpi sge, %j, %s : i32
    scf.if %ge {
      %e = tile.exp2 %x : tensor<4xf32>
    }
  }
  scf.for %j = %c0 to %n step %c1 : i32 {
    %ge = arith.cmpi sge, %j, %s : i32
    scf.if %ge {
      %e = tile.exp2 %x : tensor<4xf32>
    }
  } {tile.split_remainder}
  return
}

// -----

// A mask of a dynamic shape (a kernel not specialized yet) has no tile.full
// to stand for it.
// CHECK-LABEL: func.func @negative_dynamic_mask
// CHECK-COUNT-1: scf.for
// CHECK-NOT: scf.for
func.func @negative_dynamic_mask(%n: i32, %k: i32, %init: tensor<?xf32>) -> tensor<?xf32>
    attributes {tile.kernel = {}, tile.params = {N = 8 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ninf = tile.full -inf shape [N] : tensor<?xf32>
  %cols = tile.iota shape [N] dim 0 : tensor<?xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<?xf32>) : i32 {
    %js = tile.splat %j shape [N] : i32 -> tensor<?xi32>
    %pos = arith.addi %cols, %js : tensor<?xi32>
    %ks = tile.splat %k shape [N] : i32 -> tensor<?xi32>
    %in = arith.cmpi slt, %pos, %ks : tensor<?xi32>
    %s = tile.select %in, %acc, %ninf : tensor<?xi1>, tensor<?xf32>
    scf.yield %s : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Split points are computed in i64 from 32-bit values; a 64-bit bound could
// overflow there, so such masks are left alone.
// CHECK-LABEL: func.func @negative_wide_term
// CHECK-COUNT-1: scf.for
// CHECK-NOT: scf.for
func.func @negative_wide_term(%n: i64, %k: i64, %init: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c8 = arith.constant 8 : i64
  %ninf = tile.full -inf shape [8] : tensor<8xf32>
  %cols = tile.iota shape [8] dim 0 : tensor<8xi64>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) : i64 {
    %j8 = arith.muli %j, %c8 : i64
    %js = tile.splat %j8 shape [8] : i64 -> tensor<8xi64>
    %pos = arith.addi %cols, %js : tensor<8xi64>
    %ks = tile.splat %k shape [8] : i64 -> tensor<8xi64>
    %in = arith.cmpi slt, %pos, %ks : tensor<8xi64>
    %s = tile.select %in, %acc, %ninf : tensor<8xi1>, tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
