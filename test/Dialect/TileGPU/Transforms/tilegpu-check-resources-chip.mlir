// tilegpu-check-resources refuses Hopper instructions on an older chip with
// a located error (the NVPTX backend stopped with "LLVM ERROR: Cannot
// select" instead: fuzzer, seed 20261208, a tilegpu.fence_async_shared
// spliced into a kernel built for sm_80). wgmma and setmaxnreg need sm_90a
// itself; TMA, mbarrier waits and async-proxy fences sm_90 or newer.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tilegpu-set-target=target=sm_80 -tilegpu-check-resources
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-check-resources | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90 -tilegpu-check-resources 2>&1 | FileCheck %s --check-prefix=SM90

// CHECK-LABEL: func.func @fence
// CHECK: tilegpu.fence_async_shared
// CHECK-LABEL: func.func @wait
// CHECK-LABEL: func.func @wgmma
// SM90-NOT: fence_async_shared' needs
// SM90-NOT: mbarrier_wait' needs
// SM90: error: 'tilegpu.mma' needs chip sm_90a, got 'sm_90'

func.func @fence() attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @+1 {{'tilegpu.fence_async_shared' needs chip sm_90 or newer, got 'sm_80'}}
  tilegpu.fence_async_shared
  return
}

// -----

func.func @wait(%i: i32) attributes {tilegpu.num_warps = 4 : i32} {
  %b = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<2>
  // expected-error @+1 {{'tilegpu.mbarrier_wait' needs chip sm_90 or newer, got 'sm_80'}}
  tilegpu.mbarrier_wait %b[%i] parity %i : !tilegpu.mbarrier<2>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
func.func @wgmma(%a: !tilegpu.smem<64x64xf16, #wg>, %acc: tensor<64x64xf32, #mma>)
    attributes {tilegpu.num_warps = 4 : i32} {
  // expected-error @+1 {{'tilegpu.mma' needs chip sm_90a, got 'sm_80'}}
  %d = tilegpu.mma %a, %a, %acc : !tilegpu.smem<64x64xf16, #wg>, !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
  return
}
