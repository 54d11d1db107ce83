// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: tilegpu.convert_layout and tilegpu.local_store.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

#b = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
func.func @convert_shape(%t: tensor<16x16xf32, #b>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op changes the layout only: the shape and element type must stay}}
  %u = tilegpu.convert_layout %t : tensor<16x16xf32, #b> -> tensor<16x8xf32, #b>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @local_store_shape(%t: tensor<16x16xf16, #b>, %s: !tilegpu.smem<16x32xf16, #pad>) {
  // expected-error @+1 {{'tilegpu.local_store' op the value and the shared tile need one shape and element type}}
  tilegpu.local_store %t, %s : tensor<16x16xf16, #b>, !tilegpu.smem<16x32xf16, #pad>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @local_store_ring(%t: tensor<16x16xf16, #b>, %s: !tilegpu.smem<2x16x16xf16, #pad>) {
  // expected-error @+1 {{'tilegpu.local_store' op stores into one 2-d stage (use subview)}}
  tilegpu.local_store %t, %s : tensor<16x16xf16, #b>, !tilegpu.smem<2x16x16xf16, #pad>
  return
}
