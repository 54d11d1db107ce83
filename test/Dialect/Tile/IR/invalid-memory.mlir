// Verifier and parse errors of the tile dialect, with the location they point
// at: Views, dim, load, store.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{view dimensions are known only at run time: write them as '?'}}
func.func @view_static(%v: !tile.view<4x?xf16>) {
  return
}

// -----

// expected-error @+1 {{view rank must be between 1 and 8, got 0}}
func.func @view_rank_zero(%v: !tile.view<f16>) {
  return
}

// -----

// expected-error @+1 {{view rank must be between 1 and 8, got 9}}
func.func @view_rank_nine(%v: !tile.view<?x?x?x?x?x?x?x?x?xf16>) {
  return
}

// -----

// expected-error @+1 {{view element type must be an integer, a float or a !tile.dtype parameter, got 'index'}}
func.func @view_element(%v: !tile.view<?xindex>) {
  return
}

// -----

// expected-error @+1 {{expected '>'}}
func.func @view_syntax(%v: !tile.view<?xf16, 4>) {
  return
}

// -----

func.func @dim_range(%v: !tile.view<?x?xf16>) {
  // expected-error @+1 {{'tile.dim' op dimension 2 is out of range for a rank-2 view}}
  %0 = tile.dim %v[2] : !tile.view<?x?xf16>
  return
}

// -----

func.func @dim_negative(%v: !tile.view<?x?xf16>) {
  // expected-error @+1 {{'tile.dim' op dimension -1 is out of range for a rank-2 view}}
  %0 = tile.dim %v[-1] : !tile.view<?x?xf16>
  return
}

// -----

func.func @load_indices(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op takes 2 tile indices for a rank-2 view, got 1}}
  %0 = tile.load %v[%i] shape [64, 64] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_rank(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op loads a rank-3 tile from a rank-2 view}}
  %0 = tile.load %v[%i, %i] shape [1, 64, 64] : !tile.view<?x?xf16> -> tensor<1x64x64xf16>
  return
}

// -----

func.func @load_shape(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op result dimension 1 is 32 but the shape says 64}}
  %0 = tile.load %v[%i, %i] shape [64, 64] : !tile.view<?x?xf16> -> tensor<64x32xf16>
  return
}

// -----

func.func @load_element(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op loads 'bf16' from a view of 'f16'}}
  %0 = tile.load %v[%i, %i] shape [64, 64] : !tile.view<?x?xf16> -> tensor<64x64xbf16>
  return
}

// -----

func.func @load_order_size(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op order must list 2 dimensions}}
  %0 = tile.load %v[%i, %i] shape [64, 64] order [0, 1, 2] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_order_repeat(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op order must be a permutation of [0, 2)}}
  %0 = tile.load %v[%i, %i] shape [64, 64] order [1, 1] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_order_range(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op order must be a permutation of [0, 2)}}
  %0 = tile.load %v[%i, %i] shape [64, 64] order [0, 2] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_order_negative(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op order must be a permutation of [0, 2)}}
  %0 = tile.load %v[%i, %i] shape [64, 64] order [-1, 0] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_latency_low(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op latency must be in [1, 10], got 0}}
  %0 = tile.load %v[%i, %i] shape [64, 64] latency 0 : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_latency_high(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tile.load' op latency must be in [1, 10], got 11}}
  %0 = tile.load %v[%i, %i] shape [64, 64] latency 11 : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_padding_int(%v: !tile.view<?x?xi32>, %i: i32) {
  // expected-error @+1 {{'tile.load' op padding neg_inf needs a float element type}}
  %0 = tile.load %v[%i, %i] shape [64, 64] padding neg_inf : !tile.view<?x?xi32> -> tensor<64x64xi32>
  return
}

// -----

func.func @load_padding_syntax(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+2 {{expected ::mlir::tile::Padding to be one of: zero, neg_inf, pos_inf, nan}}
  // expected-error @+1 {{failed to parse Tile_PaddingAttr parameter 'value'}}
  %0 = tile.load %v[%i, %i] shape [64, 64] padding ninf : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @load_index_type(%v: !tile.view<?x?xf16>, %i: index) {
  // expected-error @+2 {{use of value '%i' expects different type than prior uses: 'i32' vs 'index'}}
  // expected-note @-2 {{prior use here}}
  %0 = tile.load %v[%i, %i] shape [64, 64] : !tile.view<?x?xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @store_indices(%v: !tile.view<?x?xf16>, %t: tensor<64x64xf16>, %i: i32) {
  // expected-error @+1 {{'tile.store' op takes 2 tile indices for a rank-2 view, got 3}}
  tile.store %t, %v[%i, %i, %i] : tensor<64x64xf16>, !tile.view<?x?xf16>
  return
}

// -----

func.func @store_rank(%v: !tile.view<?x?xf16>, %t: tensor<64xf16>, %i: i32) {
  // expected-error @+1 {{'tile.store' op stores a rank-1 tile into a rank-2 view}}
  tile.store %t, %v[%i, %i] : tensor<64xf16>, !tile.view<?x?xf16>
  return
}

// -----

func.func @store_element(%v: !tile.view<?x?xf16>, %t: tensor<64x64xf32>, %i: i32) {
  // expected-error @+1 {{'tile.store' op stores 'f32' into a view of 'f16'}}
  tile.store %t, %v[%i, %i] : tensor<64x64xf32>, !tile.view<?x?xf16>
  return
}
