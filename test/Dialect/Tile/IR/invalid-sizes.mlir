// Tile sizes are bounded in the verifiers (issue 11): a tile has at most
// tile::kMaxTileElements = 2^26 elements, checked without overflow, so that
// no later stage counts past int64 or allocates for a shape no chip holds.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @full_too_large() {
  // expected-error @+1 {{'tile.full' op result 'tensor<65536x65536xf32>' has more than 67108864 elements (the largest tile)}}
  %x = tile.full 1.0 shape [65536, 65536] : tensor<65536x65536xf32>
  return
}

// -----

// The product overflows int64 on the way: still refused, not wrapped.
func.func @iota_overflow() {
  // expected-error @+1 {{'tile.iota' op result 'tensor<4294967296x4294967296xi32>' has more than 67108864 elements}}
  %x = tile.iota shape [4294967296, 4294967296] dim 0 : tensor<4294967296x4294967296xi32>
  return
}

// -----

func.func @load_too_large(%v: !tile.view<?x?xf16>) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{'tile.load' op result 'tensor<2x4294967296xf16>' has more than 67108864 elements}}
  %x = tile.load %v[%c0, %c0] shape [2, 4294967296] : !tile.view<?x?xf16> -> tensor<2x4294967296xf16>
  return
}

// -----

// The largest tile is fine.
func.func @largest() {
  %x = tile.full 1.0 shape [8192, 8192] : tensor<8192x8192xf32>
  return
}
