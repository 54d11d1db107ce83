// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: #tilegpu.mma.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{mma version must be 2 (mma.sync) or 3 (wgmma), got 1}}
func.func @mma_version(%t: tensor<16x8xf32, #tilegpu.mma<version = 1, warps = [1, 1]>>) {
  return
}

// -----

// expected-error @+1 {{mma version 3 (wgmma) needs whole warpgroups: warps[0] must be a multiple of 4}}
func.func @wgmma_warps(%t: tensor<32x8xf32, #tilegpu.mma<version = 3, warps = [2, 1]>>) {
  return
}

// -----

// expected-error @+1 {{mma version 3 splits M only: warps[1] must be 1}}
func.func @wgmma_warps_n(%t: tensor<64x16xf32, #tilegpu.mma<version = 3, warps = [4, 2]>>) {
  return
}

// -----

// expected-error @+1 {{mma layout needs warps = [M, N]}}
func.func @mma_warps_rank(%t: tensor<16x8xf32, #tilegpu.mma<version = 2, warps = [4]>>) {
  return
}

// -----

// expected-error @+1 {{mma version 2 splits M only: warps[1] must be 1}}
func.func @mma_warps_n(%t: tensor<16x16xf32, #tilegpu.mma<version = 2, warps = [1, 2]>>) {
  return
}

// -----

// expected-error @+1 {{warps[0] must be a power of two in [1, 32]}}
func.func @mma_warps_not_pow2(%t: tensor<48x8xf32, #tilegpu.mma<version = 2, warps = [3, 1]>>) {
  return
}

// -----

// expected-error @+1 {{warps[0] must be a power of two in [1, 32]}}
func.func @mma_warps_zero(%t: tensor<16x8xf32, #tilegpu.mma<version = 2, warps = [0, 1]>>) {
  return
}

// -----

// expected-error @+1 {{warps[0] must be a power of two in [1, 32]}}
func.func @mma_warps_too_many(%t: tensor<1024x8xf32, #tilegpu.mma<version = 2, warps = [64, 1]>>) {
  return
}
