// Every verifier error of the tile dialect, and the parse errors of its
// custom syntax, with the location they point at.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// tile.param
//===----------------------------------------------------------------------===//

func.func @param_outside_kernel() {
  // expected-error @+1 {{'tile.param' op must be inside a kernel (a func.func with 'tile.kernel')}}
  %0 = tile.param "TILE_M" : i32
  return
}

// -----

func.func @param_without_params() attributes {tile.kernel = {}} {
  // expected-error @+1 {{parameter 'TILE_M' is not declared in the kernel's 'tile.params'}}
  %0 = tile.param "TILE_M" : i32
  return
}

// -----

func.func @param_not_declared() attributes {tile.kernel = {}, tile.params = {TILE_N = 64 : i32}} {
  // expected-error @+1 {{parameter 'TILE_M' is not declared in the kernel's 'tile.params'}}
  %0 = tile.param "TILE_M" : i32
  return
}

// -----

func.func @param_is_type() attributes {tile.kernel = {}, tile.params = {DTYPE = f16}} {
  // expected-error @+1 {{parameter 'DTYPE' is a type; use it as !tile.dtype<"DTYPE">}}
  %0 = tile.param "DTYPE" : i32
  return
}

// -----

func.func @param_bool_as_int() attributes {tile.kernel = {}, tile.params = {CAUSAL = true}} {
  // expected-error @+1 {{parameter 'CAUSAL' is a boolean (read it as i1), not 'i32'}}
  %0 = tile.param "CAUSAL" : i32
  return
}

// -----

func.func @param_int_as_bool() attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  // expected-error @+1 {{parameter 'TILE_M' is an integer (read it as an integer), not 'i1'}}
  %0 = tile.param "TILE_M" : i1
  return
}

// -----

func.func @param_int_as_float() attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  // expected-error @+1 {{parameter 'TILE_M' is an integer (read it as an integer), not 'f32'}}
  %0 = tile.param "TILE_M" : f32
  return
}

//===----------------------------------------------------------------------===//
// Shape specs (shared by iota, full, splat, load, broadcast, reshape)
//===----------------------------------------------------------------------===//

// -----

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
  // expected-error @+2 {{expected valid keyword}}
  // expected-error @+1 {{expected a size or a parameter name}}
  %0 = tile.full 0.0 shape [64, "N"] : tensor<64x?xf32>
  return
}

// -----

func.func @shape_not_a_list() {
  // expected-error @+1 {{expected '['}}
  %0 = tile.full 0.0 shape 64 : tensor<64xf32>
  return
}

//===----------------------------------------------------------------------===//
// iota, full, splat
//===----------------------------------------------------------------------===//

// -----

func.func @iota_dim() {
  // expected-error @+1 {{'tile.iota' op dimension 2 is out of range for a rank-2 tile}}
  %0 = tile.iota shape [4, 4] dim 2 : tensor<4x4xi32>
  return
}

// -----

func.func @iota_float() {
  // expected-error @+1 {{'tile.iota' op result #0 must be ranked tensor of signless integer values}}
  %0 = tile.iota shape [4] dim 0 : tensor<4xf32>
  return
}

// -----

func.func @full_bool_value() {
  // expected-error @+1 {{'tile.full' op an i1 tile is filled with true or false}}
  %0 = tile.full 1 shape [4] : tensor<4xi1>
  return
}

// -----

func.func @full_int_value() {
  // expected-error @+1 {{'tile.full' op an integer tile is filled with an integer}}
  %0 = tile.full 1.5 shape [4] : tensor<4xi32>
  return
}

// -----

func.func @full_int_with_bool() {
  // expected-error @+1 {{'tile.full' op an integer tile is filled with an integer}}
  %0 = tile.full true shape [4] : tensor<4xi32>
  return
}

// -----

func.func @full_float_value() {
  // expected-error @+1 {{'tile.full' op a float tile is filled with a number, inf or nan}}
  %0 = tile.full false shape [4] : tensor<4xf32>
  return
}

// -----

func.func @full_float_string() {
  // expected-error @+1 {{'tile.full' op a float tile is filled with a number, inf or nan}}
  %0 = "tile.full"() <{shape = [4], value = "zero"}> : () -> tensor<4xf32>
  return
}

// -----

func.func @full_index() {
  // expected-error @+1 {{'tile.full' op cannot fill a tile of 'index'}}
  %0 = tile.full 0 shape [4] : tensor<4xindex>
  return
}

// -----

func.func @full_value_syntax() {
  // expected-error @+1 {{expected floating point literal}}
  %0 = tile.full zero shape [4] : tensor<4xf32>
  return
}

// -----

func.func @splat_type(%x: f16) {
  // expected-error @+1 {{'tile.splat' op splats a 'f16' into a tile of 'f32'}}
  %0 = tile.splat %x shape [4] : f16 -> tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Views, dim, load, store
//===----------------------------------------------------------------------===//

// -----

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

//===----------------------------------------------------------------------===//
// mma, exp2, div, reduce
//===----------------------------------------------------------------------===//

// -----

func.func @mma_rank(%a: tensor<1x64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op operands must be rank-2 tiles}}
  %0 = tile.mma %a, %b, %c : tensor<1x64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  return
}

// -----

func.func @mma_operand_type(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op operand a must be f16 or bf16, got 'f32'}}
  %0 = tile.mma %a, %b, %c : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  return
}

// -----

func.func @mma_mixed(%a: tensor<64x64xf16>, %b: tensor<64x64xbf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op operands a and b must have one element type, got 'f16' and 'bf16'}}
  %0 = tile.mma %a, %b, %c : tensor<64x64xf16>, tensor<64x64xbf16>, tensor<64x64xf32>
  return
}

// -----

func.func @mma_acc_type(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf16>) {
  // expected-error @+1 {{'tile.mma' op the accumulator must be f32, got 'f16'}}
  %0 = tile.mma %a, %b, %c : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>
  return
}

// -----

func.func @mma_k(%a: tensor<64x128xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op a is 64x128 but b is 64x64: the K dimensions differ}}
  %0 = tile.mma %a, %b, %c : tensor<64x128xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  return
}

// -----

func.func @mma_acc_shape(%a: tensor<64x128xf16>, %b: tensor<128x32xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op the accumulator is 64x64 but a x b is 64x32}}
  %0 = tile.mma %a, %b, %c : tensor<64x128xf16>, tensor<128x32xf16>, tensor<64x64xf32>
  return
}

// -----

func.func @exp2_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tile.exp2' op needs a float tile, got 'i32'}}
  %0 = tile.exp2 %x : tensor<4xi32>
  return
}

// -----

func.func @div_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tile.div' op needs a float tile, got 'i32'}}
  %0 = tile.div %x, %x : tensor<4xi32>
  return
}

// -----

func.func @div_approx_f16(%x: tensor<4xf16>) {
  // expected-error @+1 {{'tile.div' op rounding approx is defined for f32, got 'f16'}}
  %0 = tile.div %x, %x rounding approx : tensor<4xf16>
  return
}

// -----

func.func @div_rounding_syntax(%x: tensor<4xf32>) {
  // expected-error @+2 {{expected ::mlir::tile::Rounding to be one of: nearest_even, approx, full}}
  // expected-error @+1 {{failed to parse Tile_RoundingAttr parameter 'value'}}
  %0 = tile.div %x, %x rounding fast : tensor<4xf32>
  return
}

// -----

func.func @reduce_axis(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for a rank-2 tile}}
  %0 = tile.reduce %x max axis 2 : tensor<4x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_axis_negative(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis -1 is out of range for a rank-2 tile}}
  %0 = tile.reduce %x max axis -1 : tensor<4x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_element(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'tile.reduce' op result element type must equal the source's}}
  %0 = tile.reduce %x sum axis 1 : tensor<4x4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @reduce_rank(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op result must have rank 2}}
  %0 = tile.reduce %x sum axis 1 keepdims : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_shape(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op result dimension 0 must be 8, got 4}}
  %0 = tile.reduce %x sum axis 0 : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_dynamic(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op result dimension 0 must be ?, got 4}}
  %0 = tile.reduce %x sum axis 1 : tensor<?x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_kind_syntax(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{expected ::mlir::tile::ReduceKind to be one of: max, sum}}
  // expected-error @+1 {{failed to parse Tile_ReduceKindAttr parameter 'value'}}
  %0 = tile.reduce %x min axis 0 : tensor<4x8xf32> -> tensor<8xf32>
  return
}

//===----------------------------------------------------------------------===//
// broadcast, reshape, permute, select, astype
//===----------------------------------------------------------------------===//

// -----

func.func @broadcast_rank(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast a rank-1 tile to rank 2 (reshape first)}}
  %0 = tile.broadcast %x shape [64, 64] : tensor<64xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @broadcast_element(%x: tensor<64x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op result element type must equal the source's}}
  %0 = tile.broadcast %x shape [64, 64] : tensor<64x1xf32> -> tensor<64x64xf16>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<64x2xf32>) {
  // expected-error @+1 {{'tile.broadcast' op source dimension 1 is 2; only size-1 dimensions broadcast, and the result's is 64}}
  %0 = tile.broadcast %x shape [64, 64] : tensor<64x2xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @broadcast_shape(%x: tensor<64x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op result dimension 1 is 64 but the shape says 32}}
  %0 = tile.broadcast %x shape [64, 32] : tensor<64x1xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @reshape_element(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.reshape' op result element type must equal the source's}}
  %0 = tile.reshape %x shape [4096] : tensor<64x64xf32> -> tensor<4096xf16>
  return
}

// -----

func.func @reshape_count(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.reshape' op cannot reshape 4096 elements into 2048}}
  %0 = tile.reshape %x shape [2048] : tensor<64x64xf32> -> tensor<2048xf32>
  return
}

// -----

func.func @reshape_shape(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.reshape' op result has rank 1 but the shape lists 2 sizes}}
  %0 = tile.reshape %x shape [64, 64] : tensor<64x64xf32> -> tensor<4096xf32>
  return
}

// -----

func.func @permute_size(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.permute' op permutation must list 2 dimensions, as must the result}}
  %0 = tile.permute %x [1, 0, 2] : tensor<64x32xf32> -> tensor<32x64xf32>
  return
}

// -----

func.func @permute_result_rank(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.permute' op permutation must list 2 dimensions, as must the result}}
  %0 = tile.permute %x [1, 0] : tensor<64x32xf32> -> tensor<32x64x1xf32>
  return
}

// -----

func.func @permute_repeat(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.permute' op permutation must be a permutation of [0, 2)}}
  %0 = tile.permute %x [0, 0] : tensor<64x32xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @permute_range(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.permute' op permutation must be a permutation of [0, 2)}}
  %0 = tile.permute %x [2, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  return
}

// -----

func.func @permute_shape(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.permute' op result dimension 0 must be source dimension 1 (32)}}
  %0 = tile.permute %x [1, 0] : tensor<64x32xf32> -> tensor<64x32xf32>
  return
}

// -----

func.func @permute_element(%x: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.permute' op result element type must equal the source's}}
  %0 = tile.permute %x [1, 0] : tensor<64x32xf32> -> tensor<32x64xf16>
  return
}

// -----

func.func @select_condition(%c: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'tile.select' op condition must be a tile of i1, got 'i32'}}
  %0 = tile.select %c, %a, %a : tensor<4xi32>, tensor<4xf32>
  return
}

// -----

func.func @select_shape(%c: tensor<8xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'tile.select' op condition and values must have one shape}}
  %0 = tile.select %c, %a, %a : tensor<8xi1>, tensor<4xf32>
  return
}

// -----

func.func @select_values(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'tile.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "tile.select"(%c, %a, %b) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @astype_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tile.astype' op changes only the element type; shapes differ}}
  %0 = tile.astype %x : tensor<4xf32> -> tensor<8xf16>
  return
}

// -----

func.func @astype_index(%x: tensor<4xindex>) {
  // expected-error @+1 {{'tile.astype' op converts between integer and float types only}}
  %0 = tile.astype %x : tensor<4xindex> -> tensor<4xi32>
  return
}

//===----------------------------------------------------------------------===//
// Kernel attributes: tile.kernel
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' must be a dictionary}}
func.func @kernel_not_dict() attributes {tile.kernel = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': 'num_warps' must be an integer}}
func.func @kernel_warps_type() attributes {tile.kernel = {num_warps = "4"}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': num_warps must be a power of two in [1, 32], got 3}}
func.func @kernel_warps_pow2() attributes {tile.kernel = {num_warps = 3 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': num_warps must be a power of two in [1, 32], got 64}}
func.func @kernel_warps_range() attributes {tile.kernel = {num_warps = 64 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': occupancy must be in [1, 32], got 0}}
func.func @kernel_occupancy() attributes {tile.kernel = {occupancy = 0 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': 'occupancy' must be an integer}}
func.func @kernel_occupancy_type() attributes {tile.kernel = {occupancy = 1.0 : f32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_90a: warp_specialize must be 0 or 1 (or a bool)}}
func.func @kernel_warp_specialize() attributes {tile.kernel = {hints = {sm_90a = {warp_specialize = 2 : i32}}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': ping_pong must be 0 or 1 (or a bool)}}
func.func @kernel_ping_pong() attributes {tile.kernel = {ping_pong = 3 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel': unknown launch hint 'num_ctas'}}
func.func @kernel_unknown_hint() attributes {tile.kernel = {num_ctas = 1 : i32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_empty() attributes {tile.kernel = {grid = []}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_four() attributes {tile.kernel = {grid = ["1", "1", "1", "1"]}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_int() attributes {tile.kernel = {grid = [1, 2]}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' grid must list 1 to 3 expressions as strings}}
func.func @kernel_grid_string() attributes {tile.kernel = {grid = "Q.0"}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints must map architectures to dictionaries}}
func.func @kernel_hints_type() attributes {tile.kernel = {hints = ["sm_90"]}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints: 'hopper' is not an architecture like sm_90}}
func.func @kernel_hints_arch() attributes {tile.kernel = {hints = {hopper = {num_warps = 8 : i32}}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_90 must be a dictionary}}
func.func @kernel_hints_arch_value() attributes {tile.kernel = {hints = {sm_90 = 8 : i32}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_90a: num_warps must be a power of two in [1, 32], got 6}}
func.func @kernel_hints_arch_warps() attributes {tile.kernel = {hints = {sm_90a = {num_warps = 6 : i32}}}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' hints for sm_80: unknown launch hint 'grid'}}
func.func @kernel_hints_arch_grid() attributes {tile.kernel = {hints = {sm_80 = {grid = ["1"]}}}} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.kernel' belongs on a func.func}}
module attributes {tile.kernel = {}} {
}

//===----------------------------------------------------------------------===//
// Kernel attributes: tile.params, !tile.dtype, tile.name, unknown attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'func.func' op 'tile.params' must be a dictionary}}
func.func @params_not_dict() attributes {tile.kernel = {}, tile.params = [1]} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.params' type parameter 'T' must be an integer or float type, got 'index'}}
func.func @params_type() attributes {tile.kernel = {}, tile.params = {T = index}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.params' entry 'SCALE' must be an integer, a boolean or a type}}
func.func @params_float() attributes {tile.kernel = {}, tile.params = {SCALE = 1.0 : f32}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.params' entry 'NAME' must be an integer, a boolean or a type}}
func.func @params_string() attributes {tile.kernel = {}, tile.params = {NAME = "fmha"}} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.params' belongs on a func.func}}
module attributes {tile.params = {}} {
}

// -----

func.func @dtype_undeclared(%v: !tile.view<?xf16>, %i: i32) attributes {tile.kernel = {}, tile.params = {DTYPE = f16}} {
  // expected-error @+1 {{'tile.full' op uses !tile.dtype<"OTHER"> but the kernel's 'tile.params' declares no such type parameter}}
  %0 = tile.full 0.0 shape [4] : tensor<4x!tile.dtype<"OTHER">>
  return
}

// -----

// expected-error @+1 {{'func.func' op uses !tile.dtype<"TILE_M"> but the kernel's 'tile.params' declares no such type parameter}}
func.func @dtype_names_int(%v: !tile.view<?x!tile.dtype<"TILE_M">>) attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  return
}

// -----

// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse Tile_DTypeParamType parameter 'name'}}
func.func @dtype_syntax(%x: tensor<4x!tile.dtype<DTYPE>>) {
  return
}

// -----

// expected-error @+1 {{'func.func' op unknown tile dialect attribute 'tile.kernels'}}
func.func @unknown_attr() attributes {tile.kernels = {}} {
  return
}

// -----

// expected-error @+1 {{'func.func' op unknown tile dialect argument attribute 'tile.named'}}
func.func @unknown_arg_attr(%x: i32 {tile.named = "x"}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.name' of argument 1 must be a non-empty string}}
func.func @arg_name_empty(%x: i32 {tile.name = "x"}, %y: i32 {tile.name = ""}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.name' of argument 0 must be a non-empty string}}
func.func @arg_name_type(%x: i32 {tile.name = 3 : i32}) {
  return
}

// -----

// expected-error @+1 {{unknown attribute `grid_dimx` in dialect `tile`}}
%0 = "tile.block_id"() <{dim = #tile.grid_dimx}> : () -> i32

// -----

func.func @grid_dim_syntax() {
  // expected-error @+3 {{expected ::mlir::tile::GridDim to be one of: x, y, z}}
  // The second error points past the bad keyword, at the next token.
  // expected-error @+2 {{failed to parse Tile_GridDimAttr parameter 'value'}}
  %0 = tile.block_id w
  return
}

// -----

func.func @split_remainder_value(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'scf.for' op 'tile.split_remainder' must be a unit attribute}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.split_remainder = 1 : i32}
  return
}

// -----

// A kernel without 'tile.params' declares no type parameter either.
// expected-error @+1 {{'func.func' op uses !tile.dtype<"DTYPE"> but the kernel's 'tile.params' declares no such type parameter}}
func.func @dtype_without_params(%v: !tile.view<?x!tile.dtype<"DTYPE">>) attributes {tile.kernel = {}} {
  return
}
