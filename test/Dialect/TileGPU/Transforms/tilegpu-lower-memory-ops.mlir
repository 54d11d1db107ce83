// tilegpu-lower-memory-ops: tile-space loads and stores become element-offset
// tilegpu.load/store; `order` and the unit-dimension reshapes fold into
// `dims`, and a load's latency hint is carried as `tilegpu.latency`.
//
// RUN: tile-opt %s -split-input-file -tilegpu-lower-memory-ops -verify-diagnostics | FileCheck %s

// K^T as attention loads it: tile dims 2 and 3 walk view dims 3 and 2, the
// unit dims 0 and 1 disappear, the offsets are index * tile size per view
// dimension, and the reshape that dropped the unit dims is gone.
// CHECK-LABEL: func.func @load_order_and_unit_dims
// CHECK-SAME: (%[[K:.*]]: !tile.view<?x?x?x?xf16>, %[[B:.*]]: i32, %[[H:.*]]: i32, %[[J:.*]]: i32)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : i32
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG: %[[OB:.*]] = arith.muli %[[B]], %{{.*}} : i32
// CHECK-DAG: %[[OH:.*]] = arith.muli %[[H]], %{{.*}} : i32
// CHECK-DAG: %[[OD:.*]] = arith.muli %[[C0]], %[[C128]] : i32
// CHECK-DAG: %[[ON:.*]] = arith.muli %[[J]], %[[C64]] : i32
// CHECK: %[[T:.*]] = tilegpu.load %[[K]][%[[OB]], %[[OH]], %[[ON]], %[[OD]]] dims [3, 2] {tilegpu.latency = 2 : i32} : <?x?x?x?xf16> -> tensor<128x64xf16>
// CHECK-NOT: tile.reshape
// CHECK-NOT: tile.load
// CHECK: return %[[T]] : tensor<128x64xf16>
func.func @load_order_and_unit_dims(%K: !tile.view<?x?x?x?xf16>, %b: i32, %h: i32,
                                    %j: i32) -> tensor<128x64xf16> {
  %c0 = arith.constant 0 : i32
  %k4 = tile.load %K[%b, %h, %c0, %j] shape [1, 1, 128, 64] order [0, 1, 3, 2] latency 2
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x128x64xf16>
  %k = tile.reshape %k4 shape [128, 64] : tensor<1x1x128x64xf16> -> tensor<128x64xf16>
  return %k : tensor<128x64xf16>
}

// -----

// Without `order` the tile dims walk the view dims in order; without a
// latency hint there is no tilegpu.latency. (The users get the load through
// a same-type tile.reshape, which canonicalization folds.)
// CHECK-LABEL: func.func @load_identity_order
// CHECK: %[[T:.*]] = tilegpu.load %{{.*}}[%{{.*}}, %{{.*}}] dims [0, 1] : <?x?xf16> -> tensor<64x32xf16>
// CHECK-NOT: tilegpu.latency
// CHECK-NOT: tile.load
// CHECK: return
func.func @load_identity_order(%A: !tile.view<?x?xf16>, %i: i32) -> tensor<64x32xf16> {
  %t = tile.load %A[%i, %i] shape [64, 32] : !tile.view<?x?xf16> -> tensor<64x32xf16>
  return %t : tensor<64x32xf16>
}

// -----

// A user other than the unit-dim reshape keeps the original type through a
// reshape back; the padding is kept.
// CHECK-LABEL: func.func @load_other_users
// CHECK: %[[T:.*]] = tilegpu.load %{{.*}}[%{{.*}}, %{{.*}}] dims [1] padding neg_inf : <?x?xf32> -> tensor<64xf32>
// CHECK: %[[BACK:.*]] = tile.reshape %[[T]] shape [1, 64] : tensor<64xf32> -> tensor<1x64xf32>
// CHECK: return %[[BACK]], %[[T]] : tensor<1x64xf32>, tensor<64xf32>
func.func @load_other_users(%A: !tile.view<?x?xf32>, %i: i32)
    -> (tensor<1x64xf32>, tensor<64xf32>) {
  %t = tile.load %A[%i, %i] shape [1, 64] padding neg_inf
      : !tile.view<?x?xf32> -> tensor<1x64xf32>
  %r = tile.reshape %t shape [64] : tensor<1x64xf32> -> tensor<64xf32>
  return %t, %r : tensor<1x64xf32>, tensor<64xf32>
}

// -----

// A reshape to another shape than the squeezed one is not folded.
// CHECK-LABEL: func.func @load_reshape_other_shape
// CHECK: %[[T:.*]] = tilegpu.load %{{.*}} dims [1, 2] : <?x?x?xf16> -> tensor<16x64xf16>
// CHECK: %[[BACK:.*]] = tile.reshape %[[T]] shape [1, 16, 64]
// CHECK: tile.reshape %[[BACK]] shape [32, 32] : tensor<1x16x64xf16> -> tensor<32x32xf16>
func.func @load_reshape_other_shape(%A: !tile.view<?x?x?xf16>, %i: i32) -> tensor<32x32xf16> {
  %t = tile.load %A[%i, %i, %i] shape [1, 16, 64] : !tile.view<?x?x?xf16> -> tensor<1x16x64xf16>
  %r = tile.reshape %t shape [32, 32] : tensor<1x16x64xf16> -> tensor<32x32xf16>
  return %r : tensor<32x32xf16>
}

// -----

// The attention output: the [64, 128] tile was reshaped only to add unit
// dims; it is stored as it was, along view dims 2 and 3, and the reshape
// dies.
// CHECK-LABEL: func.func @store_reshaped
// CHECK-SAME: (%[[O:.*]]: !tile.view<?x?x?x?xf16>, %[[X:.*]]: tensor<64x128xf16>, %[[I:.*]]: i32)
// CHECK-NOT: tile.reshape
// CHECK: tilegpu.store %[[X]], %[[O]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] dims [2, 3] : tensor<64x128xf16>, <?x?x?x?xf16>
// CHECK-NOT: tile.store
func.func @store_reshaped(%O: !tile.view<?x?x?x?xf16>, %x: tensor<64x128xf16>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %o4 = tile.reshape %x shape [1, 1, 64, 128] : tensor<64x128xf16> -> tensor<1x1x64x128xf16>
  tile.store %o4, %O[%i, %i, %i, %c0] : tensor<1x1x64x128xf16>, !tile.view<?x?x?x?xf16>
  return
}

// -----

// The log-sum-exp: a [64, 1] row tile reshaped to [1, 1, 64] is stored as
// the [64, 1] tile along view dim 2; a reshape with another user stays.
// CHECK-LABEL: func.func @store_reshaped_rows
// CHECK-SAME: (%[[L:.*]]: !tile.view<?x?x?xf32>, %[[X:.*]]: tensor<64x1xf32>, %[[I:.*]]: i32)
// CHECK: %[[R:.*]] = tile.reshape %[[X]] shape [1, 1, 64]
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG: %[[OM:.*]] = arith.muli %[[I]], %[[C64]] : i32
// CHECK: tilegpu.store %[[X]], %[[L]][%{{.*}}, %{{.*}}, %[[OM]]] dims [2] : tensor<64x1xf32>, <?x?x?xf32>
// CHECK: return %[[R]]
func.func @store_reshaped_rows(%L: !tile.view<?x?x?xf32>, %x: tensor<64x1xf32>, %i: i32)
    -> tensor<1x1x64xf32> {
  %r = tile.reshape %x shape [1, 1, 64] : tensor<64x1xf32> -> tensor<1x1x64xf32>
  tile.store %r, %L[%i, %i, %i] : tensor<1x1x64xf32>, !tile.view<?x?x?xf32>
  return %r : tensor<1x1x64xf32>
}

// -----

// A store of an unreshaped tile walks the view dims of its non-unit dims.
// CHECK-LABEL: func.func @store_plain
// CHECK-SAME: (%[[O:.*]]: !tile.view<?x?xf32>, %[[X:.*]]: tensor<64x1xf32>, %[[I:.*]]: i32)
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-DAG: %[[OM:.*]] = arith.muli %[[I]], %[[C64]] : i32
// CHECK-DAG: %[[ON:.*]] = arith.muli %[[I]], %{{.*}} : i32
// CHECK: tilegpu.store %[[X]], %[[O]][%[[OM]], %[[ON]]] dims [0] : tensor<64x1xf32>, <?x?xf32>
func.func @store_plain(%O: !tile.view<?x?xf32>, %x: tensor<64x1xf32>, %i: i32) {
  tile.store %x, %O[%i, %i] : tensor<64x1xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A reshape that changes the non-unit sizes is not looked through.
// CHECK-LABEL: func.func @negative_store_real_reshape
// CHECK: %[[R:.*]] = tile.reshape %{{.*}} shape [1, 32, 32]
// CHECK: tilegpu.store %[[R]], %{{.*}} dims [1, 2] : tensor<1x32x32xf16>
func.func @negative_store_real_reshape(%O: !tile.view<?x?x?xf16>, %x: tensor<16x64xf16>, %i: i32) {
  %r = tile.reshape %x shape [1, 32, 32] : tensor<16x64xf16> -> tensor<1x32x32xf16>
  tile.store %r, %O[%i, %i, %i] : tensor<1x32x32xf16>, !tile.view<?x?x?xf16>
  return
}

// -----

// Unspecialized shapes are an error at the op.
func.func @dynamic_shape(%A: !tile.view<?x?xf16>, %i: i32) -> tensor<?x64xf16> {
  // expected-error @+1 {{'tile.load' op needs a static shape: run tile-specialize}}
  %t = tile.load %A[%i, %i] shape [TILE_M, 64] : !tile.view<?x?xf16> -> tensor<?x64xf16>
  return %t : tensor<?x64xf16>
}

// -----

// A load without unit dimensions keeps its type: its users take the new load
// directly, with no identity reshape in between (an mma operand must come
// straight from a load to be staged in shared memory).
// CHECK-LABEL: func.func @no_unit_dims
// CHECK: %[[L:.*]] = tilegpu.load %{{.*}} dims [0, 1] : <?x?xf16> -> tensor<16x8xf16>
// CHECK-NOT: tile.reshape
// CHECK: tile.mma %{{.*}}, %[[L]],
func.func @no_unit_dims(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>, %a: tensor<16x16xf16>)
    -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : i32
  %b = tile.load %B[%c0, %c0] shape [16, 8] : !tile.view<?x?xf16> -> tensor<16x8xf16>
  %z = tile.full 0.0 shape [16, 8] : tensor<16x8xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x8xf16>, tensor<16x8xf32>
  return %d : tensor<16x8xf32>
}

// -----

// A one-element tile keeps its last dimension (rank 0 has no layout: the
// softmax with ROWS=1,BLOCK_N=1 crashed the layout assignment; fuzz seed
// 20261205).
// CHECK-LABEL: func.func @one_element
// CHECK: %[[L:.*]] = tilegpu.load %{{.*}} dims [1] : <?x?xf16> -> tensor<1xf16>
// CHECK: tile.reshape %[[L]] shape [1, 1] : tensor<1xf16> -> tensor<1x1xf16>
func.func @one_element(%A: !tile.view<?x?xf16>, %i: i32) -> tensor<1x1xf16> {
  %t = tile.load %A[%i, %i] shape [1, 1] : !tile.view<?x?xf16> -> tensor<1x1xf16>
  return %t : tensor<1x1xf16>
}

// -----

// Element offsets (`at`): the indices are the offsets, per view dimension
// through `order`, with no multiplication.
// CHECK-LABEL: func.func @at_offsets
// CHECK-SAME: (%[[Q:.*]]: !tile.view<?x?x?xf16>, %[[B:.*]]: i32, %[[R:.*]]: i32)
// CHECK-NOT: arith.muli
// CHECK: %[[T:.*]] = tilegpu.load %[[Q]][%[[B]], %{{.*}}, %[[R]]] dims [2, 1] : <?x?x?xf16> -> tensor<16x128xf16>
// CHECK: tilegpu.store %[[T]], %[[Q]][%[[B]], %[[R]], %{{.*}}] dims [1, 2] : tensor<16x128xf16>
func.func @at_offsets(%Q: !tile.view<?x?x?xf16>, %b: i32, %r: i32) {
  %c0 = arith.constant 0 : i32
  %t = tile.load %Q at [%b, %r, %c0] shape [1, 16, 128] order [0, 2, 1]
      : !tile.view<?x?x?xf16> -> tensor<1x16x128xf16>
  tile.store %t, %Q at [%b, %r, %c0] : tensor<1x16x128xf16>, !tile.view<?x?x?xf16>
  return
}

// -----

// A tile atomic is addressed as a store: tile-space indices times the tile
// sizes, unit dimensions squeezed from the value, the mask and the result
// (through reshapes), the kind and order kept. A scalar atomic stays.
// CHECK-LABEL: func.func @atomics
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %[[OI:.*]] = arith.muli %{{.*}}, %[[C64]] : i32
// CHECK-DAG: %[[V:.*]] = tile.reshape %{{.*}} shape [64, 32] : tensor<1x64x32xf32> -> tensor<64x32xf32>
// CHECK-DAG: %[[M:.*]] = tile.reshape %{{.*}} shape [64, 32] : tensor<1x64x32xi1> -> tensor<64x32xi1>
// CHECK: %[[OLD:.*]] = tilegpu.atomic add %[[V]], %{{.*}}[%{{.*}}, %[[OI]], %{{.*}}] dims [1, 2] mask %[[M]] : tensor<64x32xi1> sem release : tensor<64x32xf32>, <?x?x?xf32> -> tensor<64x32xf32>
// CHECK: tile.reshape %[[OLD]] shape [1, 64, 32] : tensor<64x32xf32> -> tensor<1x64x32xf32>
// CHECK: tile.atomic cas %{{.*}}, %{{.*}}[%{{.*}}] compare %{{.*}} : i32 : i32, <?xi32> -> i32
func.func @atomics(%A: !tile.view<?x?x?xf32>, %L: !tile.view<?xi32>,
                   %v: tensor<1x64x32xf32>, %m: tensor<1x64x32xi1>, %i: i32)
    -> (tensor<1x64x32xf32>, i32) {
  %old = tile.atomic add %v, %A[%i, %i, %i] mask %m : tensor<1x64x32xi1> sem release
      : tensor<1x64x32xf32>, !tile.view<?x?x?xf32> -> tensor<1x64x32xf32>
  %c1 = arith.constant 1 : i32
  %was = tile.atomic cas %c1, %L[%i] compare %i : i32 : i32, !tile.view<?xi32> -> i32
  return %old, %was : tensor<1x64x32xf32>, i32
}

// -----

// An atomic of a tile that a reshape only gave unit dimensions takes the tile
// as it was computed (as a store does), so that its layout (an mma
// accumulator's, which no reshape carries) reaches the atomic unconverted
// (the attention backward's dQ partials); the reshape goes.
// CHECK-LABEL: func.func @atomic_of_unit_reshape
// CHECK-SAME: (%{{.*}}: !tile.view<?x?x?x?xf32>, %[[DQ:.*]]: tensor<64x128xf32>
// CHECK-NOT: tile.reshape
// CHECK: tilegpu.atomic add %[[DQ]], %{{.*}} dims [2, 3] : tensor<64x128xf32>, <?x?x?x?xf32>
// CHECK-NOT: tile.reshape
func.func @atomic_of_unit_reshape(%A: !tile.view<?x?x?x?xf32>, %dq: tensor<64x128xf32>,
                                  %i: i32) {
  %dq4 = tile.reshape %dq shape [1, 1, 64, 128] : tensor<64x128xf32> -> tensor<1x1x64x128xf32>
  tile.atomic add %dq4, %A[%i, %i, %i, %i] : tensor<1x1x64x128xf32>, !tile.view<?x?x?x?xf32>
  return
}
