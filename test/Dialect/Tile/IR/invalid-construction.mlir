// Verifier and parse errors of the tile dialect, with the location they point
// at: iota, full, splat.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @iota_dim() {
  // expected-error @+1 {{'tile.iota' op dimension 2 is out of range for a rank-2 tile}}
  %0 = tile.iota shape [4, 4] dim 2 : tensor<4x4xi32>
  return
}

// -----

func.func @iota_negative_dim() {
  // expected-error @+1 {{'tile.iota' op dimension -1 is out of range for a rank-2 tile}}
  %0 = tile.iota shape [4, 4] dim -1 : tensor<4x4xi32>
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

// -----

// Values that do not fit the element type are refused, not rounded to
// infinity or truncated (fuzzer, seed 20261208: a literal with a huge
// exponent filled an f32 tile with inf). FLT_MAX itself, 65504 in f16 and
// 255 in i8 (unsigned) fit.
func.func @full_literal_out_of_range() {
  // expected-error @+1 {{the number is out of range (write inf or -inf for infinity)}}
  %0 = tile.full 3.40282347e+340282366920938463463374607431768211456 shape [4] : tensor<4xf32>
  return
}

// -----

func.func @full_rounds_to_inf() {
  %ok = tile.full 3.40282347e+38 shape [4] : tensor<4xf32>
  %ok16 = tile.full 65504.0 shape [4] : tensor<4xf16>
  %ok8 = tile.full 255 shape [4] : tensor<4xi8>
  // expected-error @+1 {{'tile.full' op the value does not fit in 'f16' (it rounds to infinity; write inf for infinity)}}
  %0 = tile.full 65520.0 shape [4] : tensor<4xf16>
  return
}

// -----

func.func @full_int_rounds_to_inf() {
  // expected-error @+1 {{'tile.full' op the value does not fit in 'f16'}}
  %0 = tile.full 70000 shape [4] : tensor<4xf16>
  return
}

// -----

func.func @full_int_too_wide() {
  // expected-error @+1 {{'tile.full' op the value 4294967296 does not fit in 'i32'}}
  %0 = tile.full 4294967296 shape [4] : tensor<4xi32>
  return
}
