// Every tile op, clause, type and kernel attribute round-trips through the
// custom syntax, the generic form and the bytecode-free verify-roundtrip.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

//===----------------------------------------------------------------------===//
// Kernel attributes, parameters, program ids, views and dtype parameters.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @kernel_attrs
// CHECK-SAME: %{{.*}}: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Q"}
// CHECK-SAME: %{{.*}}: !tile.view<?xf32> {tile.name = "Lse"}
// CHECK-SAME: %{{.*}}: i32 {tile.name = "input_pos"}
// CHECK-SAME: tile.kernel = {grid = ["cdiv(Q.0, TILE_M)", "Q.1", "1"], hints = {sm_80 = {num_warps = 4 : i32}, sm_90a = {num_warps = 8 : i32, occupancy = 2 : i32}}, num_warps = 4 : i32, occupancy = 1 : i32}
// CHECK-SAME: tile.params = {CAUSAL = true, DTYPE = f16, SCALE_T = f32, TILE_M = 64 : i32, WIDE = 7 : i64}
// GENERIC-LABEL: "func.func"() <{{{.*}}sym_name = "kernel_attrs"
func.func @kernel_attrs(
    %Q: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Q"},
    %Lse: !tile.view<?xf32> {tile.name = "Lse"},
    %pos: i32 {tile.name = "input_pos"})
    attributes {
      tile.kernel = {num_warps = 4 : i32, occupancy = 1 : i32,
                     grid = ["cdiv(Q.0, TILE_M)", "Q.1", "1"],
                     hints = {sm_80 = {num_warps = 4 : i32},
                              sm_90a = {num_warps = 8 : i32, occupancy = 2 : i32}}},
      tile.params = {TILE_M = 64 : i32, WIDE = 7 : i64, CAUSAL = true,
                     DTYPE = f16, SCALE_T = f32}} {
  // CHECK: tile.param "TILE_M" : i32
  %tm = tile.param "TILE_M" : i32
  // CHECK: tile.param "WIDE" : i64
  %w = tile.param "WIDE" : i64
  // CHECK: tile.param "TILE_M" : index
  %ti = tile.param "TILE_M" : index
  // CHECK: tile.param "CAUSAL" : i1
  %c = tile.param "CAUSAL" : i1
  // CHECK: tile.block_id x
  // CHECK: tile.block_id y
  // CHECK: tile.block_id z
  %bx = tile.block_id x
  %by = tile.block_id y
  %bz = tile.block_id z
  // CHECK: tile.num_blocks x
  // CHECK: tile.num_blocks y
  // CHECK: tile.num_blocks z
  %nx = tile.num_blocks x
  %ny = tile.num_blocks y
  %nz = tile.num_blocks z
  // GENERIC: "tile.block_id"() <{dim = #tile<grid_dim x>}> : () -> i32
  // GENERIC: "tile.num_blocks"() <{dim = #tile<grid_dim z>}> : () -> i32
  // CHECK: tile.dim %{{.*}}[1] : <?x?x!tile.dtype<"DTYPE">>
  %d = tile.dim %Q[1] : !tile.view<?x?x!tile.dtype<"DTYPE">>
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] shape [TILE_M, 64] : <?x?x!tile.dtype<"DTYPE">> -> tensor<?x64x!tile.dtype<"DTYPE">>
  %q = tile.load %Q[%bx, %by] shape [TILE_M, 64]
      : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x64x!tile.dtype<"DTYPE">>
  // GENERIC: "tile.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{padding = #tile<padding zero>, shape = ["TILE_M", 64]}>
  // CHECK: tile.astype %{{.*}} : tensor<?x64x!tile.dtype<"DTYPE">> -> tensor<?x64xf32>
  %qf = tile.astype %q : tensor<?x64x!tile.dtype<"DTYPE">> -> tensor<?x64xf32>
  // CHECK: tile.full 0.000000e+00 shape [TILE_M, 64] : tensor<?x64x!tile.dtype<"DTYPE">>
  %z = tile.full 0.0 shape [TILE_M, 64] : tensor<?x64x!tile.dtype<"DTYPE">>
  return
}

//===----------------------------------------------------------------------===//
// Tile construction.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @construction
func.func @construction(%s: f32, %i: i32, %x: index) {
  // CHECK: tile.iota shape [64, 1] dim 0 : tensor<64x1xi32>
  %rows = tile.iota shape [64, 1] dim 0 : tensor<64x1xi32>
  // CHECK: tile.iota shape [1, 128] dim 1 : tensor<1x128xi64>
  %cols = tile.iota shape [1, 128] dim 1 : tensor<1x128xi64>
  // GENERIC: "tile.iota"() <{dimension = 0 : i64, shape = [64, 1]}> : () -> tensor<64x1xi32>
  // CHECK: tile.full -inf shape [64, 1] : tensor<64x1xf32>
  %ninf = tile.full -inf shape [64, 1] : tensor<64x1xf32>
  // CHECK: tile.full inf shape [4] : tensor<4xf32>
  %inf = tile.full inf shape [4] : tensor<4xf32>
  // CHECK: tile.full nan shape [4] : tensor<4xf16>
  %nan = tile.full nan shape [4] : tensor<4xf16>
  // CHECK: tile.full 2.500000e-01 shape [4] : tensor<4xbf16>
  %quarter = tile.full 0.25 shape [4] : tensor<4xbf16>
  // CHECK: tile.full -1.500000e+00 shape [4] : tensor<4xf32>
  %neg = tile.full -1.5 shape [4] : tensor<4xf32>
  // CHECK: tile.full 3.4028234699999998E+38 shape [4] : tensor<4xf32>
  %big = tile.full 3.40282347e+38 shape [4] : tensor<4xf32>
  // An integer literal fills a float tile too.
  // CHECK: tile.full 1 shape [4] : tensor<4xf32>
  %one = tile.full 1 shape [4] : tensor<4xf32>
  // CHECK: tile.full -7 shape [2, 2] : tensor<2x2xi32>
  %ints = tile.full -7 shape [2, 2] : tensor<2x2xi32>
  // CHECK: tile.full true shape [8, 8] : tensor<8x8xi1>
  %t = tile.full true shape [8, 8] : tensor<8x8xi1>
  // CHECK: tile.full false shape [8, 8] : tensor<8x8xi1>
  %f = tile.full false shape [8, 8] : tensor<8x8xi1>
  // GENERIC: "tile.full"() <{shape = [8, 8], value = false}> : () -> tensor<8x8xi1>
  // CHECK: tile.splat %{{.*}} shape [64, 64] : f32 -> tensor<64x64xf32>
  %sp = tile.splat %s shape [64, 64] : f32 -> tensor<64x64xf32>
  // CHECK: tile.splat %{{.*}} shape [1, 64] : i32 -> tensor<1x64xi32>
  %spi = tile.splat %i shape [1, 64] : i32 -> tensor<1x64xi32>
  // CHECK: tile.splat %{{.*}} shape [4] : index -> tensor<4xindex>
  %spx = tile.splat %x shape [4] : index -> tensor<4xindex>
  return
}

//===----------------------------------------------------------------------===//
// Memory: every optional clause of load, and store.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @memory
func.func @memory(%V: !tile.view<?x?x?x?xf16>, %I: !tile.view<?x?xi32>,
                  %i: i32) {
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] shape [1, 1, 64, 128] : <?x?x?x?xf16> -> tensor<1x1x64x128xf16>
  %a = tile.load %V[%i, %i, %i, %i] shape [1, 1, 64, 128]
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x64x128xf16>
  // CHECK: tile.load %{{.*}} shape [1, 1, 128, 64] order [0, 1, 3, 2] : <?x?x?x?xf16>
  %b = tile.load %V[%i, %i, %i, %i] shape [1, 1, 128, 64] order [0, 1, 3, 2]
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x128x64xf16>
  // CHECK: tile.load %{{.*}} shape [1, 1, 64, 128] latency 4 : <?x?x?x?xf16>
  %c = tile.load %V[%i, %i, %i, %i] shape [1, 1, 64, 128] latency 4
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x64x128xf16>
  // CHECK: tile.load %{{.*}} shape [1, 1, 64, 128] padding neg_inf : <?x?x?x?xf16>
  %d = tile.load %V[%i, %i, %i, %i] shape [1, 1, 64, 128] padding neg_inf
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x64x128xf16>
  // CHECK: tile.load %{{.*}} shape [1, 1, 128, 64] order [0, 1, 3, 2] latency 2 padding nan : <?x?x?x?xf16>
  %e = tile.load %V[%i, %i, %i, %i] shape [1, 1, 128, 64] order [0, 1, 3, 2]
      latency 2 padding nan
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x128x64xf16>
  // CHECK: padding pos_inf
  %f = tile.load %V[%i, %i, %i, %i] shape [1, 1, 64, 128] padding pos_inf
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x64x128xf16>
  // The default padding is elided when printed.
  // CHECK: tile.load %{{.*}} shape [1, 1, 64, 128] : <?x?x?x?xf16>
  %g = tile.load %V[%i, %i, %i, %i] shape [1, 1, 64, 128] padding zero
      : !tile.view<?x?x?x?xf16> -> tensor<1x1x64x128xf16>
  // GENERIC: "tile.load"({{.*}}) <{latency = 2 : i32, order = array<i64: 0, 1, 3, 2>, padding = #tile<padding nan>, shape = [1, 1, 128, 64]}>
  // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] shape [16, 16] : <?x?xi32> -> tensor<16x16xi32>
  %h = tile.load %I[%i, %i] shape [16, 16] : !tile.view<?x?xi32> -> tensor<16x16xi32>
  // CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x1x64x128xf16>, <?x?x?x?xf16>
  tile.store %a, %V[%i, %i, %i, %i]
      : tensor<1x1x64x128xf16>, !tile.view<?x?x?x?xf16>
  // GENERIC: "tile.store"
  tile.store %h, %I[%i, %i] : tensor<16x16xi32>, !tile.view<?x?xi32>
  return
}

//===----------------------------------------------------------------------===//
// Compute: mma, exp2, mulhiu, div (every rounding, flush_to_zero), reductions.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @compute
func.func @compute(%q: tensor<64x128xf16>, %k: tensor<128x64xf16>,
                   %qb: tensor<64x128xbf16>, %kb: tensor<128x64xbf16>,
                   %acc: tensor<64x64xf32>, %x: tensor<64x64xf32>,
                   %h: tensor<64x64xf16>, %i32: tensor<8x128xi32>,
                   %i64: tensor<16xi64>) {
  // CHECK: tile.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>
  %s = tile.mma %q, %k, %acc : tensor<64x128xf16>, tensor<128x64xf16>, tensor<64x64xf32>
  // CHECK: tile.mma %{{.*}} : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
  %sb = tile.mma %qb, %kb, %acc : tensor<64x128xbf16>, tensor<128x64xbf16>, tensor<64x64xf32>
  // CHECK: tile.exp2 %{{.*}} : tensor<64x64xf32>
  %e = tile.exp2 %x : tensor<64x64xf32>
  // CHECK: tile.exp2 %{{.*}} flush_to_zero : tensor<64x64xf32>
  %ef = tile.exp2 %x flush_to_zero : tensor<64x64xf32>
  // CHECK: tile.exp2 %{{.*}} : tensor<64x64xf16>
  %eh = tile.exp2 %h : tensor<64x64xf16>
  // GENERIC: "tile.exp2"(%{{.*}}) <{flush_to_zero}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
  // The default rounding is elided when printed.
  // CHECK: tile.div %{{.*}}, %{{.*}} : tensor<64x64xf32>
  %d0 = tile.div %x, %e : tensor<64x64xf32>
  // CHECK: tile.div %{{.*}}, %{{.*}} : tensor<64x64xf32>
  %d1 = tile.div %x, %e rounding nearest_even : tensor<64x64xf32>
  // CHECK: tile.div %{{.*}}, %{{.*}} rounding full : tensor<64x64xf32>
  %d2 = tile.div %x, %e rounding full : tensor<64x64xf32>
  // CHECK: tile.div %{{.*}}, %{{.*}} rounding approx : tensor<64x64xf32>
  %d3 = tile.div %x, %e rounding approx : tensor<64x64xf32>
  // CHECK: tile.div %{{.*}}, %{{.*}} rounding approx flush_to_zero : tensor<64x64xf32>
  %d4 = tile.div %x, %e rounding approx flush_to_zero : tensor<64x64xf32>
  // CHECK: tile.div %{{.*}}, %{{.*}} flush_to_zero : tensor<64x64xf16>
  %d5 = tile.div %h, %h flush_to_zero : tensor<64x64xf16>
  // GENERIC: "tile.div"(%{{.*}}, %{{.*}}) <{flush_to_zero, rounding = #tile<rounding approx>}> : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  // CHECK: tile.reduce %{{.*}} max axis 1 keepdims : tensor<64x64xf32> -> tensor<64x1xf32>
  %m = tile.reduce %x max axis 1 keepdims : tensor<64x64xf32> -> tensor<64x1xf32>
  // CHECK: tile.reduce %{{.*}} sum axis 0 : tensor<64x64xf32> -> tensor<64xf32>
  %l = tile.reduce %x sum axis 0 : tensor<64x64xf32> -> tensor<64xf32>
  // CHECK: tile.reduce %{{.*}} sum axis 0 keepdims : tensor<64x64xf16> -> tensor<1x64xf16>
  %lh = tile.reduce %h sum axis 0 keepdims : tensor<64x64xf16> -> tensor<1x64xf16>
  // GENERIC: "tile.reduce"(%{{.*}}) <{axis = 1 : i64, keepdims, kind = #tile<reduce_kind max>}>
  // CHECK: tile.mulhiu %{{.*}}, %{{.*}} : tensor<8x128xi32>
  // GENERIC: "tile.mulhiu"(%{{.*}}, %{{.*}}) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
  %hi = tile.mulhiu %i32, %i32 : tensor<8x128xi32>
  // CHECK: tile.mulhiu %{{.*}}, %{{.*}} : tensor<16xi64>
  %hi64 = tile.mulhiu %i64, %i64 : tensor<16xi64>
  return
}

//===----------------------------------------------------------------------===//
// Shapes and selection.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @shapes
func.func @shapes(%m: tensor<64x1xf32>, %q: tensor<1x1x64x128xf16>,
                  %k: tensor<64x128xf16>, %c: tensor<64x64xi1>,
                  %a: tensor<64x64xf32>, %b: tensor<64x64xf32>,
                  %i: tensor<64x64xi32>) {
  // CHECK: tile.broadcast %{{.*}} shape [64, 128] : tensor<64x1xf32> -> tensor<64x128xf32>
  %bc = tile.broadcast %m shape [64, 128] : tensor<64x1xf32> -> tensor<64x128xf32>
  // CHECK: tile.reshape %{{.*}} shape [64, 128] : tensor<1x1x64x128xf16> -> tensor<64x128xf16>
  %r = tile.reshape %q shape [64, 128] : tensor<1x1x64x128xf16> -> tensor<64x128xf16>
  // CHECK: tile.permute %{{.*}} [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
  %t = tile.permute %k [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
  // GENERIC: "tile.permute"(%{{.*}}) <{permutation = array<i64: 1, 0>}>
  // CHECK: tile.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xi1>, tensor<64x64xf32>
  %s = tile.select %c, %a, %b : tensor<64x64xi1>, tensor<64x64xf32>
  // CHECK: tile.astype %{{.*}} : tensor<64x64xf32> -> tensor<64x64xf16>
  %h = tile.astype %a : tensor<64x64xf32> -> tensor<64x64xf16>
  // CHECK: tile.astype %{{.*}} : tensor<64x64xf32> -> tensor<64x64xi32>
  %fi = tile.astype %a : tensor<64x64xf32> -> tensor<64x64xi32>
  // CHECK: tile.astype %{{.*}} : tensor<64x64xi32> -> tensor<64x64xi8>
  %ii = tile.astype %i : tensor<64x64xi32> -> tensor<64x64xi8>
  return
}

// Shapes that name parameters stay dynamic until tile-specialize binds them.
// CHECK-LABEL: func.func @param_shapes
// CHECK: tile.iota shape [TILE_M, 1] dim 0 : tensor<?x1xi32>
// CHECK: tile.splat %{{.*}} shape [1, TILE_N] : f32 -> tensor<1x?xf32>
// CHECK: tile.broadcast %{{.*}} shape [TILE_M, TILE_N] : tensor<1x?xf32> -> tensor<?x?xf32>
// CHECK: tile.reshape %{{.*}} shape [TILE_N, TILE_M] : tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: tile.permute %{{.*}} [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
// CHECK: tile.reduce %{{.*}} max axis 1 : tensor<?x?xf32> -> tensor<?xf32>
func.func @param_shapes(%s: f32) attributes {
    tile.kernel = {}, tile.params = {TILE_M = 64 : i32, TILE_N = 32 : i32}} {
  %rows = tile.iota shape [TILE_M, 1] dim 0 : tensor<?x1xi32>
  %row = tile.splat %s shape [1, TILE_N] : f32 -> tensor<1x?xf32>
  %b = tile.broadcast %row shape [TILE_M, TILE_N] : tensor<1x?xf32> -> tensor<?x?xf32>
  %r = tile.reshape %b shape [TILE_N, TILE_M] : tensor<?x?xf32> -> tensor<?x?xf32>
  %t = tile.permute %r [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %m = tile.reduce %t max axis 1 : tensor<?x?xf32> -> tensor<?xf32>
  return
}

// A kernel without parameters, with an empty launch-hint dictionary.
// CHECK-LABEL: func.func @plain_kernel
// CHECK-SAME: attributes {tile.kernel = {}}
func.func @plain_kernel() attributes {tile.kernel = {}} {
  return
}

// Views of every rank from 1 to 8 and of integer and float element types.
// CHECK-LABEL: func.func @view_types
// CHECK-SAME: !tile.view<?xi8>
// CHECK-SAME: !tile.view<?x?x?x?x?x?x?x?xbf16>
// CHECK-SAME: !tile.view<?x?x?xf64>
func.func @view_types(%a: !tile.view<?xi8>, %b: !tile.view<?x?x?x?x?x?x?x?xbf16>,
                      %c: !tile.view<?x?x?xf64>) {
  return
}

// The marker tile-split-loop leaves on remainder loops.
// CHECK-LABEL: func.func @split_remainder
// CHECK: scf.for
// CHECK: } {tile.split_remainder}
func.func @split_remainder(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.split_remainder}
  return
}
