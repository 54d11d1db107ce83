// tile-specialize evaluates shape expressions with the bound parameters
// (defaults, then bindings) and re-infers the tile types through the ops
// and loops that follow them.
//
// RUN: tile-opt %s -tile-specialize | FileCheck %s --check-prefix=DEFAULT
// RUN: tile-opt %s -tile-specialize='bind=R=8,G=4,N=1000' | FileCheck %s --check-prefix=BIND

// DEFAULT-LABEL: func.func @grouped
// DEFAULT: tile.iota shape [8, 1] dim 0 : tensor<8x1xi32>
// DEFAULT: tile.splat %{{.*}} shape [32, 1] : f32 -> tensor<32x1xf32>
// DEFAULT: tile.full 0.000000e+00 shape [4, 3] : tensor<4x3xf32>
// DEFAULT: scf.for {{.*}} -> (tensor<4x3xf32>)
// DEFAULT: tile.load %{{.*}} shape [2, 65] : <?x?xf32> -> tensor<2x65xf32>
// DEFAULT: tile.broadcast %{{.*}} shape [32, 8] : tensor<32x1xf32> -> tensor<32x8xf32>
// DEFAULT: tile.reshape %{{.*}} shape [256] : tensor<32x8xf32> -> tensor<256xf32>

// R * G = 32, TILE_M / 2 = 32, cdiv(1000, 64) * 2 = 32, (8 + 1) - 4 = 5,
// min(8, 4) = 4, max(64, 16) + 1 = 65.
// BIND-LABEL: func.func @grouped
// BIND: tile.iota shape [32, 1] dim 0 : tensor<32x1xi32>
// BIND: tile.full 0.000000e+00 shape [32, 5] : tensor<32x5xf32>
// BIND: scf.for {{.*}} -> (tensor<32x5xf32>)
// BIND: tile.load %{{.*}} shape [4, 65] : <?x?xf32> -> tensor<4x65xf32>
// BIND: tile.broadcast %{{.*}} shape [32, 32] : tensor<32x1xf32> -> tensor<32x32xf32>
// BIND: tile.reshape %{{.*}} shape [1024] : tensor<32x32xf32> -> tensor<1024xf32>
func.func @grouped(%X: !tile.view<?x?xf32> {tile.name = "X"}, %s: f32 {tile.name = "s"})
    attributes {tile.kernel = {},
                tile.params = {R = 4 : i32, G = 2 : i32, TILE_M = 64 : i32, N = 100 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = tile.iota shape [R * G, 1] dim 0 : tensor<?x1xi32>
  %b = tile.splat %s shape [TILE_M / 2, 1] : f32 -> tensor<?x1xf32>
  %init = tile.full 0.0 shape [cdiv(N, 64) * 2, (R + 1) - G] : tensor<?x?xf32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %init) -> (tensor<?x?xf32>) : i32 {
    %next = arith.addf %acc, %acc : tensor<?x?xf32>
    scf.yield %next : tensor<?x?xf32>
  }
  %d = tile.load %X[%c0, %c0] shape [min(R, G), max(TILE_M, 2 * R) + 1]
      : !tile.view<?x?xf32> -> tensor<?x?xf32>
  %e = tile.broadcast %b shape [TILE_M / 2, R * G] : tensor<?x1xf32> -> tensor<?x?xf32>
  %f = tile.reshape %e shape [TILE_M / 2 * (R * G)] : tensor<?x?xf32> -> tensor<?xf32>
  return
}
