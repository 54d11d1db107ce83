// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: #tilegpu.blocked.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
func.func @blocked_lanes(%t: tensor<16x16xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 4], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout parameters must be powers of two}}
func.func @blocked_power(%t: tensor<16x16xf32, #tilegpu.blocked<sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{blocked layout order must be a permutation of the dimensions}}
func.func @blocked_order(%t: tensor<16x16xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 1]>>) {
  return
}

// -----

// expected-error @+1 {{a blocked layout needs sizePerThread, threadsPerWarp, warpsPerCTA and order of one rank (at least 1)}}
func.func @blocked_ranks(%t: tensor<16x16xf32, #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{warpsPerCTA must multiply to at most 32, got 64}}
func.func @blocked_warps(%t: tensor<64x16xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [64, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{a #blocked layout of rank 2 needs a tile of rank 2, got 1}}
func.func @blocked_tile_rank(%t: tensor<16xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{a register layout needs positive tile sizes}}
func.func @blocked_empty(%t: tensor<0x16xf32, #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>>) {
  return
}
