// tilegpu-pipeline errors, located at the loop at fault.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -verify-diagnostics

// A loop that copies into a staged buffer it never reads: no stage to release.
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#wgT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
func.func @unread(%K: !tile.view<?x?xf16>, %n: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wgT>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  // expected-error @+1 {{tilegpu-pipeline: a staged buffer is never read in its loop}}
  scf.for %j = %c0 to %n step %c1 : i32 {
    %kn = arith.muli %j, %c64 : i32
    tilegpu.barrier
    tilegpu.async_copy %K[%kn, %c0] dims [1, 0] into %kb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgT>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
  }
  return
}
