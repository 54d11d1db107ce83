// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: Tiles in an #mma layout: 2-d, M a multiple of 16 *
// warps, N of 8.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a 24x8 tile does not fit an #mma layout with 1 warps: M must be a multiple of 16 and N of 8 (or either 1)}}
func.func @mma_tile_m(%t: tensor<24x8xf32, #tilegpu.mma<version = 2, warps = [1, 1]>>) {
  return
}

// -----

// Two warps need 32-row multiples: a 16x8 tile leaves warp 1 nothing.
// expected-error @+1 {{a 16x8 tile does not fit an #mma layout with 2 warps: M must be a multiple of 32 and N of 8 (or either 1)}}
func.func @mma_tile_m_warps(%t: tensor<16x8xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>) {
  return
}

// -----

// expected-error @+1 {{a 64x12 tile does not fit an #mma layout with 4 warps: M must be a multiple of 64 and N of 8 (or either 1)}}
func.func @mma_tile_n(%t: tensor<64x12xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>) {
  return
}

// -----

// expected-error @+1 {{an #mma layout needs a 2-d tile}}
func.func @mma_tile_rank(%t: tensor<16x8x8xf32, #tilegpu.mma<version = 2, warps = [1, 1]>>) {
  return
}
