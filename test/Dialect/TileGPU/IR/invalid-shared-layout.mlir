// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: #tilegpu.shared.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{shared layout order must be [1, 0] or [0, 1]}}
func.func @shared_order(%s: !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 1], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// expected-error @+1 {{shared layout order must be [1, 0] or [0, 1]}}
func.func @shared_order_rank(%s: !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [2, 1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// expected-error @+1 {{vec, perPhase and maxPhase must be powers of two}}
func.func @shared_vec(%s: !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 6, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// expected-error @+1 {{vec, perPhase and maxPhase must be powers of two}}
func.func @shared_phase(%s: !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 0>>) {
  return
}

// -----

// expected-error @+1 {{pad must be a multiple of vec (rows stay 16-byte aligned)}}
func.func @shared_pad(%s: !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 4>>) {
  return
}

// -----

// expected-error @+1 {{chunk must be a power of two holding whole swizzle rows (a multiple of vec * maxPhase)}}
func.func @shared_chunk_narrow(%s: !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 32>>) {
  return
}

// -----

// expected-error @+1 {{chunk must be a power of two holding whole swizzle rows (a multiple of vec * maxPhase)}}
func.func @shared_chunk_pow2(%s: !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 96>>) {
  return
}

// -----

// expected-error @+1 {{expected 'pad' or 'chunk' (in that order), got 'pad'}}
func.func @shared_field_order(%s: !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64, pad = 0>>) {
  return
}

// -----

// expected-error @+1 {{a chunked shared layout has no padding}}
func.func @shared_chunk_pad(%s: !tilegpu.smem<64x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8, chunk = 64>>) {
  return
}

// -----

// expected-error @+1 {{the contiguous tile dimension (96) must be a multiple of the layout's chunk (64)}}
func.func @smem_chunk_width(%s: !tilegpu.smem<2x64x96xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>) {
  return
}
