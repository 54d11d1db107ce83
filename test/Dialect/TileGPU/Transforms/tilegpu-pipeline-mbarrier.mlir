// tilegpu-pipeline with mbarriers (sync=mbarrier, the default on sm_90 and
// newer): each ring gets a full and an empty barrier per stage; no
// block-wide barrier or cp.async group wait is left in the loop. On sm_80
// sync=auto keeps the block-wide barriers, and sync=mbarrier is refused
// (mbarrier.try_wait needs sm_90).
//
// RUN: tile-opt %s -tilegpu-set-target=target=sm_90a -tilegpu-pipeline="sync=mbarrier" | FileCheck %s
// RUN: tile-opt %s -tilegpu-set-target=target=sm_90a -tilegpu-pipeline | FileCheck %s
// RUN: tile-opt %s -tilegpu-set-target=target=sm_80 -tilegpu-pipeline | FileCheck %s --check-prefix=SM80
// RUN: not tile-opt %s -tilegpu-set-target=target=sm_80 -tilegpu-pipeline="sync=mbarrier" 2>&1 | FileCheck %s --check-prefix=ERR80
// RUN: not tile-opt %s -tilegpu-set-target=target=sm_80 -tilegpu-pipeline="sync=fast" 2>&1 | FileCheck %s --check-prefix=ERRSYNC

// ERR80: error: sync=mbarrier needs sm_90 or newer (mbarrier.try_wait), got chip 'sm_80'
// ERRSYNC: error: sync must be auto, barrier or mbarrier, got 'fast'

// SM80-LABEL: func.func @attention
// SM80-NOT: mbarrier
// SM80: tilegpu.async_wait 1
// SM80-NEXT: tilegpu.barrier

// Two rings of two stages (K^T, V), each with a full and an empty group of
// two barriers; 4 warps: 128 arrivals per phase; one block-wide barrier
// after the initialization.
// CHECK-LABEL: func.func @attention
// CHECK-SAME: (%[[Q:.*]]: !tile.view<?x?xf16>, %[[K:.*]]: !tile.view<?x?xf16>, %[[V:.*]]: !tile.view<?x?xf16>, %{{.*}}: !tile.view<?x?xf32>, %[[N:.*]]: i32)
// CHECK: %[[QB:.*]] = tilegpu.alloc : <64x64xf16
// CHECK: %[[KR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: %[[KF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <2>
// CHECK: %[[KE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <2>
// CHECK: tilegpu.mbarrier_init %[[KF]] arrivals 128
// CHECK: tilegpu.mbarrier_init %[[KE]] arrivals 128
// CHECK: %[[VR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: %[[VF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <2>
// CHECK: %[[VE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <2>
// CHECK: tilegpu.mbarrier_init
// CHECK: tilegpu.mbarrier_init
// CHECK-NEXT: tilegpu.barrier
// Q, read only in the loop, keeps no wait: the loop's first full barrier
// covers it (cp.async.mbarrier.arrive tracks all earlier copies).
// CHECK: tilegpu.async_copy %[[Q]]{{.*}} into %[[QB]]
// CHECK-NEXT: tilegpu.async_commit
// CHECK-NOT: tilegpu.async_wait
// Prologue: slot 0 of each ring, if the loop runs; a copy into slot n waits
// for the empty barrier's parity (n / 2 + 1) % 2 (here 1: a fresh barrier's
// "previous phase", complete at once).
// CHECK: scf.if
// CHECK: %[[PS:.*]] = arith.remui
// CHECK: %[[PP:.*]] = arith.andi
// CHECK-NEXT: tilegpu.mbarrier_wait %[[KE]][%[[PS]]] parity %[[PP]]
// CHECK: %[[PKS:.*]] = tilegpu.subview %[[KR]][%[[PS]]]
// CHECK-NEXT: tilegpu.async_copy %[[K]]{{.*}} into %[[PKS]] :
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[KF]][%[[PS]]]
// CHECK: scf.if
// CHECK: tilegpu.mbarrier_wait %[[VE]]
// CHECK: tilegpu.async_copy %[[V]]
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[VF]]
// The loop: slot n = k, stage n % 2, full parity (n / 2) % 2; the readers
// publish the copies to the async proxy (wgmma), the copy of iteration
// k + 1 goes into the other stage, and the stage is released right after
// the wait of the asynchronous mma that reads it.
// CHECK: scf.for
// CHECK-NOT: tilegpu.barrier
// CHECK-NOT: tilegpu.async_wait
// CHECK: %[[ST:.*]] = arith.remui
// CHECK: %[[PH:.*]] = arith.andi
// CHECK-NEXT: tilegpu.mbarrier_wait %[[KF]][%[[ST]]] parity %[[PH]]
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: %[[KCUR:.*]] = tilegpu.subview %[[KR]][%[[ST]]]
// CHECK: scf.if
// CHECK: tilegpu.mbarrier_wait %[[KE]]
// CHECK: tilegpu.async_copy %[[K]]
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[KF]]
// CHECK: %[[S:.*]] = tilegpu.mma %[[QB]], %[[KCUR]], %{{.*}} {async}
// CHECK-NEXT: tilegpu.mma_wait %[[S]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[KE]][%[[ST]]]
// CHECK: tilegpu.mbarrier_wait %[[VF]]
// CHECK: tilegpu.mma {{.*}} {async}
// CHECK-NEXT: tilegpu.mma_wait
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[VE]]
// CHECK-NEXT: scf.yield
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
