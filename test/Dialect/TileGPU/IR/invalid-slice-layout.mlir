// Verifier errors of the tilegpu dialect (lib/Dialect/TileGPU/IR), with the
// location they point at: #tilegpu.slice.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{slice parent must be a register layout (#tilegpu.mma, #tilegpu.blocked or #tilegpu.slice)}}
func.func @slice_parent(%t: tensor<16x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>>>) {
  return
}

// -----

// expected-error @+1 {{slice dim must be less than the parent's rank (2)}}
func.func @slice_dim(%t: tensor<16x1xf32, #tilegpu.slice<dim = 2, parent = #tilegpu.mma<version = 2, warps = [1, 1]>>>) {
  return
}

// -----

// expected-error @+1 {{a #slice layout with dim = 1 of a rank-2 parent needs a tile of rank 1 (or 2 with size 1 at 1)}}
func.func @slice_not_unit(%t: tensor<16x8xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [1, 1]>>>) {
  return
}

// -----

// expected-error @+1 {{a #slice layout with dim = 0 of a rank-2 parent needs a tile of rank 1 (or 2 with size 1 at 0)}}
func.func @slice_rank(%t: tensor<8x1x1xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.mma<version = 2, warps = [1, 1]>>>) {
  return
}

// -----

// The rows of a [M, 1] slice must fit the parent: M a multiple of 16 * warps.
// expected-error @+1 {{a 16x1 tile does not fit an #mma layout with 4 warps: M must be a multiple of 64 and N of 8 (or either 1)}}
func.func @slice_parent_rows(%t: tensor<16x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>) {
  return
}
