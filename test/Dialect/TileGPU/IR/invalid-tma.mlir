// Verifier errors of tilegpu.tma_copy (the producer's TMA loads).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
func.func @tma_copy_layout(%map: !tilegpu.tensor_map, %i: i32) {
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xf16, #pad>
  %bar = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<1>
  // expected-error @+1 {{needs the 128B-swizzle layout with 128-byte pieces (64 16-bit or 128 8-bit elements)}}
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

// -----

#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
func.func @tma_copy_rank(%map: !tilegpu.tensor_map, %i: i32) {
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %bar = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<1>
  // expected-error @+1 {{a tensor map has 2 to 5 dimensions, got 6}}
  tilegpu.tma_copy %map[%i, %i, %i, %i, %i, %i] dims [0, 1] into %buf, %bar[%i]
      : !tilegpu.smem<64x64xf16, #wg>, !tilegpu.mbarrier<1>
  return
}
