// tile-specialize: defaults, bindings of integers, booleans and types, shape
// re-inference through scf.for/scf.if, grid rules and launch-hint overrides.
//
// RUN: tile-opt %s -split-input-file -tile-specialize | FileCheck %s --check-prefix=DEFAULT
// RUN: tile-opt %s -split-input-file -tile-specialize='bind=TILE_M=128,CAUSAL=false,DTYPE=bf16' | FileCheck %s --check-prefix=BIND
// RUN: tile-opt %s -split-input-file -tile-specialize='bind=TILE_M=32 num-warps=8 occupancy=2' | FileCheck %s --check-prefix=HINTS
// RUN: tile-opt %s -split-input-file -tile-specialize='bind=CAUSAL=0' -canonicalize | FileCheck %s --check-prefix=FOLD

// DEFAULT-LABEL: func.func @kernel
// DEFAULT-SAME: (%{{.*}}: !tile.view<?x?xf16> {tile.name = "X"}, %{{.*}}: !tile.view<?x?xf16> {tile.name = "Y"})
// DEFAULT-SAME: tile.kernel = {grid = ["cdiv(X.0, 64)", "X.1 * 2", "1"], num_warps = 4 : i32}
// DEFAULT-SAME: tile.params = {CAUSAL = true, DTYPE = f16, TILE_M = 64 : i32, TILE_N = 16 : i32}
// DEFAULT-DAG: arith.constant 64 : i32
// DEFAULT-DAG: arith.constant true
// DEFAULT-DAG: arith.constant 64 : index
// DEFAULT-NOT: tile.param
// DEFAULT: tile.full 0.000000e+00 shape [64, 1] : tensor<64x1xf32>
// DEFAULT: tile.iota shape [1, 16] dim 1 : tensor<1x16xi32>
// DEFAULT: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x1xf32>)
// DEFAULT:   tile.load %{{.*}} shape [64, 16] : <?x?xf16> -> tensor<64x16xf16>
// DEFAULT:   tile.astype %{{.*}} : tensor<64x16xf16> -> tensor<64x16xf32>
// DEFAULT:   tile.reduce %{{.*}} sum axis 1 keepdims : tensor<64x16xf32> -> tensor<64x1xf32>
// DEFAULT:   %[[SEL:.*]] = scf.if %{{.*}} -> (tensor<64x1xf32>)
// DEFAULT:     arith.addf %{{.*}} : tensor<64x1xf32>
// DEFAULT:   scf.yield %[[SEL]] : tensor<64x1xf32>
// DEFAULT: tile.broadcast %[[R]] shape [64, 16] : tensor<64x1xf32> -> tensor<64x16xf32>
// DEFAULT: tile.permute %{{.*}} [1, 0] : tensor<64x16xf32> -> tensor<16x64xf32>
// DEFAULT: tile.reshape %{{.*}} shape [16, 1, 64] : tensor<16x64xf32> -> tensor<16x1x64xf32>
// DEFAULT: tile.exp2 %{{.*}} : tensor<16x1x64xf32>
// DEFAULT: tile.store %{{.*}} : tensor<64x16xf16>, <?x?xf16>

// BIND-LABEL: func.func @kernel
// BIND-SAME: !tile.view<?x?xbf16>
// BIND-SAME: grid = ["cdiv(X.0, 128)", "X.1 * 2", "1"]
// BIND-SAME: tile.params = {CAUSAL = false, DTYPE = bf16, TILE_M = 128 : i32, TILE_N = 16 : i32}
// BIND-DAG: arith.constant false
// BIND-DAG: arith.constant 128 : i32
// BIND: scf.for {{.*}} -> (tensor<128x1xf32>)
// BIND: tile.load %{{.*}} shape [128, 16] : <?x?xbf16> -> tensor<128x16xbf16>
// BIND: scf.if %{{.*}} -> (tensor<128x1xf32>)
// BIND: tile.store %{{.*}} : tensor<128x16xbf16>, <?x?xbf16>

// HINTS-LABEL: func.func @kernel
// HINTS-SAME: tile.kernel = {grid = ["cdiv(X.0, 32)", "X.1 * 2", "1"], num_warps = 8 : i32, occupancy = 2 : i32}

// With CAUSAL bound to false the branch folds away.
// FOLD-LABEL: func.func @kernel
// FOLD-NOT: scf.if
// FOLD: scf.for
// FOLD-NEXT: tile.load
func.func @kernel(%X: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "X"},
                  %Y: !tile.view<?x?x!tile.dtype<"DTYPE">> {tile.name = "Y"})
    attributes {
      tile.kernel = {num_warps = 4 : i32,
                     grid = ["cdiv(X.0, TILE_M)", "X.1 * 2", "1"]},
      tile.params = {TILE_M = 64 : i32, TILE_N = 16 : i32, CAUSAL = true,
                     DTYPE = f16}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %tm = tile.param "TILE_M" : i32
  %causal = tile.param "CAUSAL" : i1
  %tmi = tile.param "TILE_M" : index
  %bx = tile.block_id x
  %init = tile.full 0.0 shape [TILE_M, 1] : tensor<?x1xf32>
  %cols = tile.iota shape [1, TILE_N] dim 1 : tensor<1x?xi32>
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %init)
      -> (tensor<?x1xf32>) : i32 {
    %x = tile.load %X[%bx, %j] shape [TILE_M, TILE_N]
        : !tile.view<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?x!tile.dtype<"DTYPE">>
    %xf = tile.astype %x : tensor<?x?x!tile.dtype<"DTYPE">> -> tensor<?x?xf32>
    %s = tile.reduce %xf sum axis 1 keepdims : tensor<?x?xf32> -> tensor<?x1xf32>
    %next = scf.if %causal -> tensor<?x1xf32> {
      %a = arith.addf %acc, %s : tensor<?x1xf32>
      scf.yield %a : tensor<?x1xf32>
    } else {
      scf.yield %s : tensor<?x1xf32>
    }
    scf.yield %next : tensor<?x1xf32>
  }
  %b = tile.broadcast %r shape [TILE_M, TILE_N] : tensor<?x1xf32> -> tensor<?x?xf32>
  %t = tile.permute %b [1, 0] : tensor<?x?xf32> -> tensor<?x?xf32>
  %flat = tile.reshape %t shape [TILE_N, 1, TILE_M] : tensor<?x?xf32> -> tensor<?x1x?xf32>
  %e = tile.exp2 %flat : tensor<?x1x?xf32>
  %o = tile.astype %b : tensor<?x?xf32> -> tensor<?x?x!tile.dtype<"DTYPE">>
  tile.store %o, %Y[%bx, %c0]
      : tensor<?x?x!tile.dtype<"DTYPE">>, !tile.view<?x?x!tile.dtype<"DTYPE">>
  return
}

// Functions without tile.kernel are left alone.
// DEFAULT-LABEL: func.func @not_a_kernel
// DEFAULT: tile.full 1.000000e+00 shape [8] : tensor<8xf32>
// BIND-LABEL: func.func @not_a_kernel
func.func @not_a_kernel() -> tensor<8xf32> {
  %0 = tile.full 1.0 shape [8] : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A grid word followed by '.' names a view dimension, never a parameter; a
// parameter is substituted as a whole word only; booleans become 1 and 0.
// The same substitution applies to `requires`.
// DEFAULT-LABEL: func.func @grid_words
// DEFAULT-SAME: grid = ["cdiv(TILE_M.0, 64) * 1", "2 + 64"]
// DEFAULT-SAME: requires = ["TILE_M.0 % 64 == 0 || 1 == 0"]
// BIND-LABEL: func.func @grid_words
// BIND-SAME: grid = ["cdiv(TILE_M.0, 128) * 0", "2 + 128"]
// BIND-SAME: requires = ["TILE_M.0 % 128 == 0 || 0 == 0"]
func.func @grid_words(%v: !tile.view<?xf32> {tile.name = "TILE_M"})
    attributes {tile.kernel = {grid = ["cdiv(TILE_M.0, TILE_M) * CAUSAL", "TILE_M_2 + TILE_M"],
                               requires = ["TILE_M.0 % TILE_M == 0 || CAUSAL == 0"]},
                tile.params = {TILE_M = 64 : i32, TILE_M_2 = 2 : i32, CAUSAL = true, DTYPE = f16}} {
  return
}
