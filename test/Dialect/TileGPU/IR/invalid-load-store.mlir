// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: tilegpu.load / tilegpu.store.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @load_element(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.load' op element type differs from the view's}}
  %x = tilegpu.load %v[%i, %i] dims [0, 1] : !tile.view<?x?xf16> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @load_offsets(%v: !tile.view<?x?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.load' op needs one offset per view dimension (3), got 2}}
  %x = tilegpu.load %v[%i, %i] dims [1, 2] : !tile.view<?x?x?xf16> -> tensor<64x64xf16, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @load_dims_count(%v: !tile.view<?x?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.load' op needs one view dimension per tile dimension}}
  %x = tilegpu.load %v[%i, %i, %i] dims [2] : !tile.view<?x?x?xf16> -> tensor<64x64xf16, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @load_dims_repeated(%v: !tile.view<?x?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.load' op dims must be distinct view dimensions}}
  %x = tilegpu.load %v[%i, %i, %i] dims [2, 2] : !tile.view<?x?x?xf16> -> tensor<64x64xf16, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @load_dims_range(%v: !tile.view<?x?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.load' op dims must be distinct view dimensions}}
  %x = tilegpu.load %v[%i, %i, %i] dims [1, 3] : !tile.view<?x?x?xf16> -> tensor<64x64xf16, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @store_element(%t: tensor<64x64xf32, #mma>, %v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.store' op element type differs from the view's}}
  tilegpu.store %t, %v[%i, %i] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf16>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @store_dims(%t: tensor<64x64xf16, #mma>, %v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.store' op needs a view dimension for each non-unit dimension of the value}}
  tilegpu.store %t, %v[%i, %i] dims [1] : tensor<64x64xf16, #mma>, !tile.view<?x?xf16>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @store_offsets(%t: tensor<64x64xf16, #mma>, %v: !tile.view<?x?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.store' op needs one offset per view dimension (3), got 2}}
  tilegpu.store %t, %v[%i, %i] dims [1, 2] : tensor<64x64xf16, #mma>, !tile.view<?x?x?xf16>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
func.func @store_dims_repeated(%t: tensor<64x64xf16, #mma>, %v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{'tilegpu.store' op dims must be distinct view dimensions}}
  tilegpu.store %t, %v[%i, %i] dims [1, 1] : tensor<64x64xf16, #mma>, !tile.view<?x?xf16>
  return
}
