// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: tilegpu.subview / tilegpu.async_copy.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#t = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @subview_layout(%r: !tilegpu.smem<2x64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{'tilegpu.subview' op selects one 2-d stage of a 3-d ring buffer}}
  %s = tilegpu.subview %r[%i] : !tilegpu.smem<2x64x64xf16, #s> -> !tilegpu.smem<64x64xf16, #t>
  return
}

// -----

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @subview_not_ring(%r: !tilegpu.smem<64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{'tilegpu.subview' op selects one 2-d stage of a 3-d ring buffer}}
  %s = tilegpu.subview %r[%i] : !tilegpu.smem<64x64xf16, #s> -> !tilegpu.smem<64x64xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @copy_into_ring(%v: !tile.view<?x?xf16>, %r: !tilegpu.smem<2x64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op copies into one 2-d stage (use subview)}}
  tilegpu.async_copy %v[%i, %i] dims [0, 1] into %r : !tile.view<?x?xf16>, !tilegpu.smem<2x64x64xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @copy_element(%v: !tile.view<?x?xf16>, %b: !tilegpu.smem<64x64xbf16, #s>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op element type differs from the view's}}
  tilegpu.async_copy %v[%i, %i] dims [0, 1] into %b : !tile.view<?x?xf16>, !tilegpu.smem<64x64xbf16, #s>
  return
}

// -----

#s = #tilegpu.shared<order = [1, 0], vec = 4, perPhase = 1, maxPhase = 1, pad = 4>
func.func @copy_f32(%v: !tile.view<?x?xf32>, %b: !tilegpu.smem<64x64xf32, #s>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op copies 16-bit or 8-bit elements only}}
  tilegpu.async_copy %v[%i, %i] dims [0, 1] into %b : !tile.view<?x?xf32>, !tilegpu.smem<64x64xf32, #s>
  return
}

// -----

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @copy_offsets(%v: !tile.view<?x?x?xf16>, %b: !tilegpu.smem<64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op needs one offset per view dimension (3), got 2}}
  tilegpu.async_copy %v[%i, %i] dims [1, 2] into %b : !tile.view<?x?x?xf16>, !tilegpu.smem<64x64xf16, #s>
  return
}

// -----

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @copy_dims(%v: !tile.view<?x?x?xf16>, %b: !tilegpu.smem<64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op needs one view dimension per tile dimension}}
  tilegpu.async_copy %v[%i, %i, %i] dims [0, 1, 2] into %b : !tile.view<?x?x?xf16>, !tilegpu.smem<64x64xf16, #s>
  return
}
