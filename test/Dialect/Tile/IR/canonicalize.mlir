// Folds and canonicalization patterns of the tile ops, each with a negative_
// case that must stay as it is.
//
// RUN: tile-opt %s -split-input-file -canonicalize | FileCheck %s

//===----------------------------------------------------------------------===//
// splat of a constant -> full
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @splat_float_constant
// CHECK-NEXT: %[[F:.*]] = tile.full 1.500000e+00 shape [64, 64] : tensor<64x64xf32>
// CHECK-NEXT: return %[[F]]
func.func @splat_float_constant() -> tensor<64x64xf32> {
  %c = arith.constant 1.5 : f32
  %0 = tile.splat %c shape [64, 64] : f32 -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @splat_neg_inf_f16
// CHECK-NEXT: %[[F:.*]] = tile.full -inf shape [4] : tensor<4xf16>
func.func @splat_neg_inf_f16() -> tensor<4xf16> {
  %c = arith.constant 0xFC00 : f16
  %0 = tile.splat %c shape [4] : f16 -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func.func @splat_int_constant
// CHECK-NEXT: %[[F:.*]] = tile.full -3 shape [1, 64] : tensor<1x64xi32>
func.func @splat_int_constant() -> tensor<1x64xi32> {
  %c = arith.constant -3 : i32
  %0 = tile.splat %c shape [1, 64] : i32 -> tensor<1x64xi32>
  return %0 : tensor<1x64xi32>
}

// CHECK-LABEL: func.func @splat_bool_constant
// CHECK-NEXT: %[[F:.*]] = tile.full true shape [8, 8] : tensor<8x8xi1>
func.func @splat_bool_constant() -> tensor<8x8xi1> {
  %c = arith.constant true
  %0 = tile.splat %c shape [8, 8] : i1 -> tensor<8x8xi1>
  return %0 : tensor<8x8xi1>
}

// A shape that names a parameter is kept.
// CHECK-LABEL: func.func @splat_param_shape
// CHECK-NEXT: %[[F:.*]] = tile.full 0.000000e+00 shape [TILE_M, 1] : tensor<?x1xf32>
func.func @splat_param_shape() -> tensor<?x1xf32>
    attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  %c = arith.constant 0.0 : f32
  %0 = tile.splat %c shape [TILE_M, 1] : f32 -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// CHECK-LABEL: func.func @negative_splat_of_argument
// CHECK-NEXT: %[[S:.*]] = tile.splat %{{.*}} shape [64, 64] : f32 -> tensor<64x64xf32>
// CHECK-NEXT: return %[[S]]
func.func @negative_splat_of_argument(%x: f32) -> tensor<64x64xf32> {
  %0 = tile.splat %x shape [64, 64] : f32 -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// tile.full has no index tiles: a splat of an index constant stays.
// CHECK-LABEL: func.func @negative_splat_index_constant
// CHECK: tile.splat %{{.*}} shape [4] : index -> tensor<4xindex>
func.func @negative_splat_index_constant() -> tensor<4xindex> {
  %c = arith.constant 3 : index
  %0 = tile.splat %c shape [4] : index -> tensor<4xindex>
  return %0 : tensor<4xindex>
}

//===----------------------------------------------------------------------===//
// broadcast
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @broadcast_identity
// CHECK-SAME: (%[[X:.*]]: tensor<64x64xf32>)
// CHECK-NEXT: return %[[X]]
func.func @broadcast_identity(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tile.broadcast %x shape [64, 64] : tensor<64x64xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @negative_broadcast
// CHECK: tile.broadcast
func.func @negative_broadcast(%x: tensor<64x1xf32>) -> tensor<64x64xf32> {
  %0 = tile.broadcast %x shape [64, 64] : tensor<64x1xf32> -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// Equal dynamic types say nothing about the sizes: not an identity yet.
// CHECK-LABEL: func.func @negative_broadcast_dynamic
// CHECK: tile.broadcast
func.func @negative_broadcast_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32>
    attributes {tile.kernel = {}, tile.params = {M = 4 : i32, N = 8 : i32}} {
  %0 = tile.broadcast %x shape [M, N] : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape_identity
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xf16>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_identity(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %0 = tile.reshape %x shape [64, 128] : tensor<64x128xf16> -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<1x1x64x128xf16>)
// CHECK-NEXT: %[[R:.*]] = tile.reshape %[[X]] shape [128, 64] : tensor<1x1x64x128xf16> -> tensor<128x64xf16>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%x: tensor<1x1x64x128xf16>) -> tensor<128x64xf16> {
  %0 = tile.reshape %x shape [64, 128] : tensor<1x1x64x128xf16> -> tensor<64x128xf16>
  %1 = tile.reshape %0 shape [128, 64] : tensor<64x128xf16> -> tensor<128x64xf16>
  return %1 : tensor<128x64xf16>
}

// A reshape there and back folds away entirely.
// CHECK-LABEL: func.func @reshape_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xf16>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_round_trip(%x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %0 = tile.reshape %x shape [1, 1, 64, 128] : tensor<64x128xf16> -> tensor<1x1x64x128xf16>
  %1 = tile.reshape %0 shape [64, 128] : tensor<1x1x64x128xf16> -> tensor<64x128xf16>
  return %1 : tensor<64x128xf16>
}

// CHECK-LABEL: func.func @negative_reshape
// CHECK: tile.reshape %{{.*}} shape [64, 128]
func.func @negative_reshape(%x: tensor<1x1x64x128xf16>) -> tensor<64x128xf16> {
  %0 = tile.reshape %x shape [64, 128] : tensor<1x1x64x128xf16> -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}

// CHECK-LABEL: func.func @negative_reshape_dynamic
// CHECK: tile.reshape %{{.*}} shape [M, N]
func.func @negative_reshape_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32>
    attributes {tile.kernel = {}, tile.params = {M = 4 : i32, N = 8 : i32}} {
  %0 = tile.reshape %x shape [M, N] : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

//===----------------------------------------------------------------------===//
// permute
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @permute_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4x8x16xf32>)
// CHECK-NEXT: return %[[X]]
func.func @permute_identity(%x: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %0 = tile.permute %x [0, 1, 2] : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// CHECK-LABEL: func.func @negative_permute
// CHECK: tile.permute %{{.*}} [1, 0]
func.func @negative_permute(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = tile.permute %x [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

//===----------------------------------------------------------------------===//
// select
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @select_all_true
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf32>, %[[B:.*]]: tensor<64x64xf32>)
// CHECK-NEXT: return %[[A]]
func.func @select_all_true(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = tile.full true shape [64, 64] : tensor<64x64xi1>
  %0 = tile.select %t, %a, %b : tensor<64x64xi1>, tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @select_all_false
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf32>, %[[B:.*]]: tensor<64x64xf32>)
// CHECK-NEXT: return %[[B]]
func.func @select_all_false(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %f = tile.full false shape [64, 64] : tensor<64x64xi1>
  %0 = tile.select %f, %a, %b : tensor<64x64xi1>, tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// A splat of a constant condition becomes a full, then the select folds.
// CHECK-LABEL: func.func @select_splat_true
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[A]]
func.func @select_splat_true(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %true = arith.constant true
  %t = tile.splat %true shape [4] : i1 -> tensor<4xi1>
  %0 = tile.select %t, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @select_same_values
// CHECK-SAME: (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[A]]
func.func @select_same_values(%c: tensor<4xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.select %c, %a, %a : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @negative_select
// CHECK: tile.select
func.func @negative_select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// astype
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @astype_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4xf16>)
// CHECK-NEXT: return %[[X]]
func.func @astype_identity(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tile.astype %x : tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// f32 -> f16 -> f32 rounds: it is not an identity.
// CHECK-LABEL: func.func @negative_astype_round_trip
// CHECK: tile.astype %{{.*}} : tensor<4xf32> -> tensor<4xf16>
// CHECK: tile.astype %{{.*}} : tensor<4xf16> -> tensor<4xf32>
func.func @negative_astype_round_trip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tile.astype %x : tensor<4xf32> -> tensor<4xf16>
  %1 = tile.astype %0 : tensor<4xf16> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
