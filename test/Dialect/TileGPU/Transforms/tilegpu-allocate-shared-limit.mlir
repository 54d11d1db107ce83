// tilegpu-allocate-shared: a total above the shared memory per block of the
// module's target chip (tilegpu.target; 166912 bytes on sm_80) is an error,
// and so is a module without a target.
//
// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tilegpu-allocate-shared -verify-diagnostics | FileCheck %s

#flat = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>
#swz = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>

// 1304 * 64 * 2 = 166912 bytes, then 128 more: over sm_80's limit.
// CHECK-NOT: func.func @over
module attributes {tilegpu.target = "sm_80"} {
  // expected-error @+1 {{the kernel needs 167040 bytes of shared memory; 166912 are available per block on sm_80 (smaller tiles or fewer pipeline stages)}}
  func.func @over() attributes {tile.kernel = {}} {
    %a = tilegpu.alloc : !tilegpu.smem<1304x64xf16, #flat>
    %b = tilegpu.alloc : !tilegpu.smem<8x8xf16, #swz>
    return
  }
}

// -----

// Exactly at the limit is fine; allocations nested in regions count too:
// 2 * 648 * 64 * 2 = 165888 bytes, then 8 * 64 * 2 = 1024.
// CHECK-LABEL: func.func @at_the_limit
// CHECK-SAME: tilegpu.shared_bytes = 166912 : i64
#swz = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>
module attributes {tilegpu.target = "sm_80"} {
  func.func @at_the_limit(%p: i1) attributes {tile.kernel = {}} {
    %a = tilegpu.alloc : !tilegpu.smem<2x648x64xf16, #swz>
    scf.if %p {
      %b = tilegpu.alloc : !tilegpu.smem<8x64xf16, #swz>
    }
    return
  }
}

// -----

// The same on sm_90a, which has 232448 bytes: fits.
// CHECK-LABEL: func.func @over_on_sm80
// CHECK-SAME: tilegpu.shared_bytes = 167040 : i64
#flat = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>
#swz = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>
module attributes {tilegpu.target = "sm_90a"} {
  func.func @over_on_sm80() attributes {tile.kernel = {}} {
    %a = tilegpu.alloc : !tilegpu.smem<1304x64xf16, #flat>
    %b = tilegpu.alloc : !tilegpu.smem<8x8xf16, #swz>
    return
  }
}

// -----

// Scratch after the buffers counts: the buffer alone fits (166912 bytes),
// the transposing move's scratch (32x16 f32, padded rows: 2544 bytes) after
// it does not.
// CHECK-NOT: func.func @scratch_over
#row = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#flat = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1>
module attributes {tilegpu.target = "sm_80"} {
  // expected-error @+1 {{the kernel needs 169456 bytes of shared memory; 166912 are available per block on sm_80 (smaller tiles or fewer pipeline stages)}}
  func.func @scratch_over(%x: tensor<32x16xf32, #row>) attributes {tile.kernel = {}} {
    %buf = tilegpu.alloc : !tilegpu.smem<1304x64xf16, #flat>
    %a = tilegpu.convert_layout %x : tensor<32x16xf32, #row> -> tensor<32x16xf32, #col>
    "test.use"(%a) : (tensor<32x16xf32, #col>) -> ()
    return
  }
}

// -----

// No target: a located error.
// expected-error @+1 {{no target chip: the module has no tilegpu.target attribute (tilegpu-set-target{target=sm_XY} or the tile-to-ptx pipeline's chip option sets it)}}
func.func @no_target() attributes {tile.kernel = {}} {
  %a = tilegpu.alloc : !tilegpu.smem<8x8xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>>
  return
}
