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
