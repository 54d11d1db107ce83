// Verifier and parse errors of the tile dialect, with the location they point
// at: Shape specs (shared by iota, full, splat, load, broadcast, reshape).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @shape_rank() {
  // expected-error @+1 {{'tile.full' op result has rank 2 but the shape lists 1 sizes}}
  %0 = tile.full 0.0 shape [64] : tensor<64x64xf32>
  return
}

// -----

func.func @shape_not_positive() {
  // expected-error @+1 {{'tile.full' op shape sizes must be positive, got 0}}
  %0 = tile.full 0.0 shape [0] : tensor<0xf32>
  return
}

// -----

func.func @shape_negative() {
  // expected-error @+1 {{'tile.iota' op shape sizes must be positive, got -4}}
  %0 = tile.iota shape [-4] dim 0 : tensor<?xi32>
  return
}

// -----

func.func @shape_mismatch() {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'tile.splat' op result dimension 1 is 32 but the shape says 64}}
  %0 = tile.splat %c shape [64, 64] : f32 -> tensor<64x32xf32>
  return
}

// -----

func.func @shape_dynamic_for_static() {
  // expected-error @+1 {{'tile.iota' op result dimension 0 is ? but the shape says 64}}
  %0 = tile.iota shape [64] dim 0 : tensor<?xi32>
  return
}

// -----

func.func @shape_static_for_param() attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  // expected-error @+1 {{'tile.iota' op result dimension 0 must be '?' while the shape names parameter "TILE_M"}}
  %0 = tile.iota shape [TILE_M] dim 0 : tensor<64xi32>
  return
}

// -----

func.func @shape_bad_entry() {
  // expected-error @+1 {{'tile.full' op shape entries must be integers or parameter names}}
  %0 = "tile.full"() <{shape = [1.0 : f32], value = 0.0 : f64}> : () -> tensor<1xf32>
  return
}

// -----

func.func @shape_entry_syntax() {
  // expected-error @+1 {{expected a size, a parameter name or an expression of them (R * G, cdiv(N, 64))}}
  %0 = tile.full 0.0 shape [64, "N"] : tensor<64x?xf32>
  return
}

// -----

func.func @shape_not_a_list() {
  // expected-error @+1 {{expected '['}}
  %0 = tile.full 0.0 shape 64 : tensor<64xf32>
  return
}
