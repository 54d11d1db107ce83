// tile-fast-math on the flash-attention kernel: the post's "rescue" (ftz
// exp2, approximate division) and the FMA of the softmax shift.
//
// RUN: tile-opt %kernels/fmha.mlir -tile-specialize -canonicalize -cse -tile-fast-math | FileCheck %s

// CHECK-LABEL: func.func @fmha
// CHECK: scf.for
// qk * scale - m: the row maximum is negated before it is broadcast.
// CHECK: %[[QK:.*]] = tile.select
// CHECK: %[[M:.*]] = tile.select %{{.*}} : tensor<64x1xi1>, tensor<64x1xf32>
// CHECK: %[[NEG:.*]] = arith.negf %[[M]] : tensor<64x1xf32>
// CHECK: %[[NEGB:.*]] = tile.broadcast %[[NEG]] shape [64, 64]
// CHECK: %[[SHIFT:.*]] = math.fma %[[QK]], %{{.*}}, %[[NEGB]] : tensor<64x64xf32>
// CHECK: %[[P:.*]] = tile.exp2 %[[SHIFT]] flush_to_zero : tensor<64x64xf32>
// CHECK: %[[L:.*]] = tile.reduce %[[P]] sum
// CHECK: %[[ALPHA:.*]] = tile.exp2 %{{.*}} flush_to_zero : tensor<64x1xf32>
// l * alpha + l_ij.
// CHECK: math.fma %{{.*}}, %[[ALPHA]], %[[L]] : tensor<64x1xf32>
// CHECK-NOT: arith.subf %{{.*}} : tensor<64x64xf32>
// CHECK: scf.yield
// CHECK: tile.div %{{.*}}, %{{.*}} rounding approx flush_to_zero : tensor<64x128xf32>
