// tilegpu-warp-specialize: after an mbarrier pipeline, a producer warpgroup
// keeps the pipelined copies (empty waits, copies, full arrivals, and the
// query copy the loop's first full barrier covers), with the loop and the
// index arithmetic they need and without the loop state; the consumers keep
// everything else. The full barriers expect the producer's 128 threads, the
// empty ones the consumers' (here 4 warps, 128 threads).
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize -canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize="mode=off" | FileCheck %s --check-prefix=OFF
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-set-target=target=sm_90 -tilegpu-warp-specialize="mode=on" 2>&1 | FileCheck %s --check-prefix=ERRCHIP
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline="sync=barrier" -tilegpu-warp-specialize="mode=on" 2>&1 | FileCheck %s --check-prefix=ERRSYNC
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-warp-specialize="producer-regs=20" 2>&1 | FileCheck %s --check-prefix=ERRREGS

// OFF-NOT: tilegpu.warp_specialize
// ERRCHIP: error: cannot warp-specialize: setmaxnreg needs chip sm_90a, got 'sm_90'
// ERRSYNC: error: cannot warp-specialize: the kernel has no mbarrier pipeline (sync=mbarrier)
// ERRREGS: error: producer-regs must be a multiple of 8 in [24, 256], got 20

// CHECK-LABEL: func.func @attention
// CHECK-SAME: tilegpu.num_warps = 8 : i32, tilegpu.occupancy = 1 : i32
// CHECK: %[[KF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"}
// CHECK: %[[KE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"}
// CHECK: tilegpu.mbarrier_init %[[KF]] arrivals 128
// CHECK: tilegpu.mbarrier_init %[[KE]] arrivals 128
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.warp_specialize producer(warps = 4, regs = 40) {
// CHECK-NOT: tilegpu.mma
// CHECK-NOT: tilegpu.store
// CHECK:   tilegpu.async_copy %{{.*}} {tilegpu.threads = array<i32: 128, 128>}
// CHECK-NEXT: tilegpu.async_commit
// CHECK:   scf.if
// CHECK:     tilegpu.mbarrier_wait %[[KE]]
// CHECK:     tilegpu.async_copy {{.*}} {tilegpu.threads = array<i32: 128, 128>}
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[KF]]
// CHECK:   scf.for %{{[^ ]*}} = %{{[^ ]*}} to %{{[^ ]*}} step %{{[^ ]*}} : i32 {
// CHECK-NOT: tilegpu.mma
// CHECK:     tilegpu.mbarrier_wait %[[KE]]
// CHECK:     tilegpu.mbarrier_arrive_copies %[[KF]]
// CHECK: } consumers(warps = 4, regs = 240) {
// CHECK-NOT: tilegpu.async_copy
// CHECK-NOT: tilegpu.mbarrier_arrive_copies
// CHECK:   scf.for
// CHECK:     tilegpu.mbarrier_wait %[[KF]]
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK:     tilegpu.mma
// CHECK:     tilegpu.mbarrier_arrive %[[KE]]
// CHECK:   tilegpu.store
// CHECK: }
// CHECK-NEXT: return

// The kernel hint warp_specialize = 0 keeps the kernel as it is (auto).
// CHECK-LABEL: func.func @hint_off
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: return
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#wgT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @attention(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                     %V: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wgT>
  %vb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
      : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
  tilegpu.async_commit
  tilegpu.async_wait 0
  tilegpu.barrier
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %kn = arith.muli %j, %c64 : i32
    tilegpu.barrier
    tilegpu.async_copy %K[%kn, %c0] dims [1, 0] into %kb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgT>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %qb, %kb, %zero {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wgT>, tensor<64x64xf32, #mma>
    %s1 = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %p = tile.astype %s1 : tensor<64x64xf32, #mma> -> tensor<64x64xf16, #mma>
    tilegpu.barrier
    tilegpu.async_copy %V[%kn, %c0] dims [0, 1] into %vb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %a = tilegpu.mma %p, %vb, %acc {async} : tensor<64x64xf16, #mma>,
        !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %a1, %p1 = tilegpu.mma_wait %a, %p {pending = 0 : i32} : tensor<64x64xf32, #mma>, tensor<64x64xf16, #mma>
    scf.yield %a1 : tensor<64x64xf32, #mma>
  }
  tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#wgT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @hint_off(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                     %V: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>, %n: i32)
    attributes {tile.kernel = {warp_specialize = 0 : i32}, tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wgT>
  %vb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
      : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
  tilegpu.async_commit
  tilegpu.async_wait 0
  tilegpu.barrier
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %kn = arith.muli %j, %c64 : i32
    tilegpu.barrier
    tilegpu.async_copy %K[%kn, %c0] dims [1, 0] into %kb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgT>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s = tilegpu.mma %qb, %kb, %zero {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wgT>, tensor<64x64xf32, #mma>
    %s1 = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %p = tile.astype %s1 : tensor<64x64xf32, #mma> -> tensor<64x64xf16, #mma>
    tilegpu.barrier
    tilegpu.async_copy %V[%kn, %c0] dims [0, 1] into %vb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %a = tilegpu.mma %p, %vb, %acc {async} : tensor<64x64xf16, #mma>,
        !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %a1, %p1 = tilegpu.mma_wait %a, %p {pending = 0 : i32} : tensor<64x64xf32, #mma>, tensor<64x64xf16, #mma>
    scf.yield %a1 : tensor<64x64xf32, #mma>
  }
  tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
