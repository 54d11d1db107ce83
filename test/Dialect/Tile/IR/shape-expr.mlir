// Shape sizes written as expressions of parameters and integers (`+ - * /`,
// cdiv, min, max, parentheses) on every op that takes a shape: they print as
// written (normalized spacing), survive the generic form, and an expression
// of integers alone folds to its value.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @expr_shapes
// GENERIC-LABEL: sym_name = "expr_shapes"
func.func @expr_shapes(%X: !tile.view<?x?xf32> {tile.name = "X"}, %s: f32 {tile.name = "s"})
    attributes {tile.kernel = {}, tile.params = {R = 4 : i32, G = 2 : i32, TILE_M = 64 : i32, N = 100 : i32}} {
  %c0 = arith.constant 0 : i32
  // CHECK: tile.iota shape [R * G, 64] dim 0 : tensor<?x64xi32>
  // GENERIC: shape = ["R * G", 64]
  %a = tile.iota shape [R*G, 64] dim 0 : tensor<?x64xi32>
  // CHECK: tile.splat %{{.*}} shape [TILE_M / 2, 1] : f32 -> tensor<?x1xf32>
  // GENERIC: shape = ["TILE_M / 2", 1]
  %b = tile.splat %s shape [TILE_M / 2, 1] : f32 -> tensor<?x1xf32>
  // CHECK: tile.full 0.000000e+00 shape [cdiv(N, 64) * 2, (R + 1) - G] : tensor<?x?xf32>
  %c = tile.full 0.0 shape [cdiv(N, 64) * 2, (R + 1) - G] : tensor<?x?xf32>
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] shape [min(R, G), max(TILE_M, 2 * R) + 1] latency 2 : <?x?xf32> -> tensor<?x?xf32>
  %d = tile.load %X[%c0, %c0] shape [min(R, G), max(TILE_M, 2 * R) + 1] latency 2
      : !tile.view<?x?xf32> -> tensor<?x?xf32>
  // CHECK: tile.broadcast %{{.*}} shape [TILE_M / 2, R * G] : tensor<?x1xf32> -> tensor<?x?xf32>
  %e = tile.broadcast %b shape [TILE_M / 2, R * G] : tensor<?x1xf32> -> tensor<?x?xf32>
  // CHECK: tile.reshape %{{.*}} shape [TILE_M / 2 * (R * G)] : tensor<?x?xf32> -> tensor<?xf32>
  %f = tile.reshape %e shape [TILE_M / 2 * (R * G)] : tensor<?x?xf32> -> tensor<?xf32>
  // Integers alone fold: [64 / 2, 3 * (1 + 1), cdiv(100, 64)] is [32, 6, 2].
  // CHECK: tile.full 1.000000e+00 shape [32, 6, 2] : tensor<32x6x2xf32>
  // GENERIC: shape = [32, 6, 2]
  %g = tile.full 1.0 shape [64 / 2, 3 * (1 + 1), cdiv(100, 64)] : tensor<32x6x2xf32>
  return
}
