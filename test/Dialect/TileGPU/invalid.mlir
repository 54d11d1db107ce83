// Every verifier error of the tilegpu dialect (lib/Dialect/TileGPU/IR):
// layout attributes, tiles that do not fit their layout, shared buffers and
// ops, with the location they point at.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #tilegpu.mma
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Tiles in an #mma layout: 2-d, M a multiple of 16 * warps, N of 8
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{a 24x8 tile does not fit an #mma layout with 1 warps: M must be a multiple of 16 and N of 8}}
func.func @mma_tile_m(%t: tensor<24x8xf32, #tilegpu.mma<version = 2, warps = [1, 1]>>) {
  return
}

// -----

// Two warps need 32-row multiples: a 16x8 tile leaves warp 1 nothing.
// expected-error @+1 {{a 16x8 tile does not fit an #mma layout with 2 warps: M must be a multiple of 32 and N of 8}}
func.func @mma_tile_m_warps(%t: tensor<16x8xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>) {
  return
}

// -----

// expected-error @+1 {{a 64x12 tile does not fit an #mma layout with 4 warps: M must be a multiple of 64 and N of 8}}
func.func @mma_tile_n(%t: tensor<64x12xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>) {
  return
}

// -----

// expected-error @+1 {{an #mma layout needs a 2-d tile}}
func.func @mma_tile_rank(%t: tensor<16x8x8xf32, #tilegpu.mma<version = 2, warps = [1, 1]>>) {
  return
}

//===----------------------------------------------------------------------===//
// #tilegpu.slice
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{slice parent must be an #tilegpu.mma layout}}
func.func @slice_parent(%t: tensor<16x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>>>) {
  return
}

// -----

// expected-error @+1 {{slice dim must be 0 or 1}}
func.func @slice_dim(%t: tensor<16x1xf32, #tilegpu.slice<dim = 2, parent = #tilegpu.mma<version = 2, warps = [1, 1]>>>) {
  return
}

// -----

// expected-error @+1 {{a #slice layout with dim = 1 needs a 2-d tile with size 1 there}}
func.func @slice_not_unit(%t: tensor<16x8xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [1, 1]>>>) {
  return
}

// -----

// expected-error @+1 {{a #slice layout with dim = 0 needs a 2-d tile with size 1 there}}
func.func @slice_rank(%t: tensor<8xf32, #tilegpu.slice<dim = 0, parent = #tilegpu.mma<version = 2, warps = [1, 1]>>>) {
  return
}

// -----

// The rows of a [M, 1] slice must fit the parent: M a multiple of 16 * warps.
// expected-error @+1 {{a 16x8 tile does not fit an #mma layout with 4 warps: M must be a multiple of 64 and N of 8}}
func.func @slice_parent_rows(%t: tensor<16x1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<version = 2, warps = [4, 1]>>>) {
  return
}

//===----------------------------------------------------------------------===//
// #tilegpu.shared
//===----------------------------------------------------------------------===//

// -----

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

//===----------------------------------------------------------------------===//
// !tilegpu.smem
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{a shared buffer is a 2-d tile or a ring of them}}
func.func @smem_rank(%s: !tilegpu.smem<64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// expected-error @+1 {{shared buffer sizes must be positive}}
func.func @smem_empty(%s: !tilegpu.smem<0x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// expected-error @+1 {{shared buffer layout must be #tilegpu.shared}}
func.func @smem_layout(%s: !tilegpu.smem<64x64xf16, #tilegpu.mma<version = 2, warps = [4, 1]>>) {
  return
}

// -----

// expected-error @+1 {{shared buffer element type must be int or float}}
func.func @smem_element(%s: !tilegpu.smem<64x64xindex, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

// -----

// Shared buffers have static shapes.
// expected-error @+1 {{expected static shape}}
func.func @smem_dynamic(%s: !tilegpu.smem<?x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>) {
  return
}

//===----------------------------------------------------------------------===//
// tilegpu.load / tilegpu.store
//===----------------------------------------------------------------------===//

// -----

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

//===----------------------------------------------------------------------===//
// tilegpu.subview / tilegpu.async_copy
//===----------------------------------------------------------------------===//

// -----

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
  // expected-error @+1 {{'tilegpu.async_copy' op copies 16-bit elements only}}
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

//===----------------------------------------------------------------------===//
// tilegpu.mma
//===----------------------------------------------------------------------===//

// -----

#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_acc_layout(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tilegpu.mma' op accumulator and result need one #mma layout}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32>
  return
}

// -----

// Dynamic tiles are not checked against their layout, so the op checks
// the rank itself.
#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_acc_rank(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<?xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op the accumulator must be a 2-d tile}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<?xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_ring(%a: !tilegpu.smem<2x64x32xf16, #s>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op operand a must be a 2-d shared tile}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<2x64x32xf16, #s>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#mma2 = #tilegpu.mma<version = 2, warps = [2, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_layout(%a: tensor<64x32xf16, #mma2>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op a register operand a must have the accumulator's layout}}
  %d = tilegpu.mma %a, %b, %c : tensor<64x32xf16, #mma2>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_rank(%a: tensor<?xf16, #mma>, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op a register operand a must be a 2-d tile}}
  %d = tilegpu.mma %a, %b, %c : tensor<?xf16, #mma>, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_a_scalar(%a: f16, %b: !tilegpu.smem<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op operand a must be a shared tile or a register tile}}
  %d = tilegpu.mma %a, %b, %c : f16, !tilegpu.smem<32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_b_ring(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<2x32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op operand b must be a 2-d shared tile}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<2x32x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_shapes(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<16x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op shapes do not compose: a x b must be the accumulator's shape}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<16x64xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#s = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @mma_shapes_n(%a: !tilegpu.smem<64x32xf16, #s>, %b: !tilegpu.smem<32x128xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{'tilegpu.mma' op shapes do not compose: a x b must be the accumulator's shape}}
  %d = tilegpu.mma %a, %b, %c : !tilegpu.smem<64x32xf16, #s>, !tilegpu.smem<32x128xf16, #s>, tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @async_mma_sync(%a: !tilegpu.smem<64x64xf16, #pad>, %acc: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{only wgmma (#mma version 3) is asynchronous}}
  %d = tilegpu.mma %a, %a, %acc {async} : !tilegpu.smem<64x64xf16, #pad>, !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
  return
}

// -----

func.func @mma_wait_nothing() {
  // expected-error @+1 {{waits for at least one value}}
  "tilegpu.mma_wait"() <{pending = 0 : i32}> : () -> ()
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @tma_copy_layout(%map: !tilegpu.tensor_map, %i: i32) {
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %bar = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<1>
  // expected-error @+1 {{needs the 128B-swizzle layout with 64-element pieces}}
  tilegpu.tma_copy %map[%i, %i] dims [0, 1] into %buf, %bar[%i]
      : !tilegpu.smem<64x64xf16, #pad>, !tilegpu.mbarrier<1>
  return
}

// -----

#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
func.func @tma_copy_dims(%map: !tilegpu.tensor_map, %i: i32) {
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %bar = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<1>
  // expected-error @+1 {{dims must be two distinct view dimensions}}
  tilegpu.tma_copy %map[%i, %i] dims [1, 1] into %buf, %bar[%i]
      : !tilegpu.smem<64x64xf16, #wg>, !tilegpu.mbarrier<1>
  return
}

// -----

#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
func.func @tma_copy_rows(%map: !tilegpu.tensor_map, %i: i32) {
  %buf = tilegpu.alloc : !tilegpu.smem<512x64xf16, #wg>
  %bar = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<1>
  // expected-error @+1 {{a box has at most 256 rows, in whole 8-row swizzle atoms, got 512}}
  tilegpu.tma_copy %map[%i, %i] dims [0, 1] into %buf, %bar[%i]
      : !tilegpu.smem<512x64xf16, #wg>, !tilegpu.mbarrier<1>
  return
}
