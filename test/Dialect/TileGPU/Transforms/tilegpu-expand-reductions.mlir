// tilegpu-expand-reductions: argmax/argmin become a max/min of the values
// and a min of the indices where a value is the extreme or NaN (f32, or
// widened to it; integers compare as i32). Other reductions stay.
//
// RUN: tile-opt %s -split-input-file -tilegpu-expand-reductions -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @argmax_f16
// CHECK-SAME: (%[[X:.*]]: tensor<16x256xf16>)
// CHECK: %[[W:.*]] = tile.astype %[[X]] : tensor<16x256xf16> -> tensor<16x256xf32>
// CHECK: %[[M:.*]] = tile.reduce %[[W]] max axis 1 keepdims : tensor<16x256xf32> -> tensor<16x1xf32>
// CHECK: %[[MB:.*]] = tile.broadcast %[[M]] shape [16, 256]
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[W]], %[[MB]] : tensor<16x256xf32>
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[W]], %[[W]] : tensor<16x256xf32>
// CHECK: %[[HIT:.*]] = arith.ori %[[EQ]], %[[NAN]] : tensor<16x256xi1>
// CHECK: %[[IOTA:.*]] = tile.iota shape [16, 256] dim 1 : tensor<16x256xi32>
// CHECK: %[[PAST:.*]] = tile.full 256 shape [16, 256] : tensor<16x256xi32>
// CHECK: %[[C:.*]] = tile.select %[[HIT]], %[[IOTA]], %[[PAST]]
// CHECK: %[[I:.*]] = tile.reduce %[[C]] min axis 1 : tensor<16x256xi32> -> tensor<16xi32>
// CHECK: return %[[I]]
func.func @argmax_f16(%x: tensor<16x256xf16>) -> tensor<16xi32> {
  %i = tile.reduce %x argmax axis 1 : tensor<16x256xf16> -> tensor<16xi32>
  return %i : tensor<16xi32>
}

// -----

// argmin of i32 along axis 0 with keepdims: a min, an integer compare, no
// NaN test, the index tile along axis 0.
// CHECK-LABEL: func.func @argmin_i32
// CHECK-NOT: tile.astype
// CHECK: tile.reduce %{{.*}} min axis 0 keepdims : tensor<8x4xi32> -> tensor<1x4xi32>
// CHECK: arith.cmpi eq
// CHECK-NOT: arith.cmpf
// CHECK: tile.iota shape [8, 4] dim 0
// CHECK: tile.full 8 shape [8, 4]
// CHECK: tile.reduce %{{.*}} min axis 0 keepdims : tensor<8x4xi32> -> tensor<1x4xi32>
// CHECK-NOT: argmin
func.func @argmin_i32(%x: tensor<8x4xi32>) -> tensor<1x4xi32> {
  %i = tile.reduce %x argmin axis 0 keepdims : tensor<8x4xi32> -> tensor<1x4xi32>
  return %i : tensor<1x4xi32>
}

// -----

// negative_: max, min and sum are left alone.
// CHECK-LABEL: func.func @negative_plain
// CHECK: tile.reduce %{{.*}} max axis 1
// CHECK-NEXT: tile.reduce %{{.*}} min axis 1
// CHECK-NEXT: return
func.func @negative_plain(%x: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %a = tile.reduce %x max axis 1 : tensor<8x4xf32> -> tensor<8xf32>
  %b = tile.reduce %x min axis 1 : tensor<8x4xf32> -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

func.func @i64(%x: tensor<8x4xi64>) -> tensor<8xi32> {
  // expected-error @+1 {{argmax of 'i64' is not lowered (f16, bf16, f32 and integers up to i32 are)}}
  %i = tile.reduce %x argmax axis 1 : tensor<8x4xi64> -> tensor<8xi32>
  return %i : tensor<8xi32>
}
