// Verifier and parse errors of the tile dialect, with the location they point
// at: mma, exp2, mulhiu, div, reduce.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @mma_rank(%a: tensor<1x64x64xf16>, %b: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op operands must be rank-2 tiles}}
  %0 = tile.mma %a, %b, %c : tensor<1x64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
  return
}

// -----

func.func @mma_operand_type(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.mma' op operand a must be f16, bf16, f8E4M3FN or f8E5M2, got 'f32'}}
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

func.func @mulhiu_float(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tile.mulhiu' op needs an i32 or i64 tile, got 'f32'}}
  %0 = tile.mulhiu %x, %x : tensor<4xf32>
  return
}

// -----

func.func @mulhiu_i16(%x: tensor<4xi16>) {
  // expected-error @+1 {{'tile.mulhiu' op needs an i32 or i64 tile, got 'i16'}}
  %0 = tile.mulhiu %x, %x : tensor<4xi16>
  return
}

// -----

func.func @mulhiu_types(%x: tensor<4xi32>, %y: tensor<4xi64>) {
  // expected-error @+1 {{'tile.mulhiu' op requires the same type for all operands and results}}
  %0 = "tile.mulhiu"(%x, %y) : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi32>
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
  // expected-error @+2 {{expected ::mlir::tile::ReduceKind to be one of: max, sum, min, argmax, argmin}}
  // expected-error @+1 {{failed to parse Tile_ReduceKindAttr parameter 'value'}}
  %0 = tile.reduce %x prod axis 0 : tensor<4x8xf32> -> tensor<8xf32>
  return
}
