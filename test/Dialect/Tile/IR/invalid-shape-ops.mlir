// Verifier and parse errors of the tile dialect, with the location they point
// at: broadcast, reshape, permute, select, astype.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

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
