// tilegpu-pipeline with mbarriers on a loop nested in a persistent loop
// over output tiles: outer iteration i numbers its slots from
// i * trips (trips = max(0, ceil((ub - lb) / step)) of the inner loop,
// computed before the outer loop), so the phases continue from one tile
// to the next and a producer may run ahead into the next tile; the inner
// loop's one wgmma accumulation stays in flight across its iterations. An
// inner loop whose bounds change with the outer iteration keeps
// block-wide barriers, as does one under two levels of loops.
//
// RUN: tile-opt %s -split-input-file -tilegpu-pipeline="chip=sm_90a" | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-pipeline="chip=sm_90a" -tilegpu-warp-specialize="chip=sm_90a" -canonicalize | FileCheck %s --check-prefix=WS
// RUN: not tile-opt %s -split-input-file -tilegpu-pipeline="chip=sm_90a" -tilegpu-warp-specialize="chip=sm_90a mode=on producer-regs=136" 2>&1 | FileCheck %s --check-prefix=ERRREGS

// Warp-specialized: the producer walks the same tiles (the outer loop
// without state) and runs ahead; at occupancy 2 a thread has 128 registers
// at entry (65536 / 2 / 256 threads), the producer gives back 88 of them
// to the consumers: (128 * 256 - 40 * 128) / 128 = 216.
// WS-LABEL: func.func @persistent
// WS-SAME: tilegpu.num_warps = 8 : i32, tilegpu.occupancy = 2 : i32
// WS: tilegpu.warp_specialize producer(warps = 4, regs = 40) {
// WS: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// WS-NOT: tilegpu.mma
// WS: tilegpu.async_copy
// WS: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// WS-NOT: tilegpu.mma
// WS: tilegpu.async_copy
// WS: } consumers(warps = 4, regs = 216) {
// WS: scf.for
// WS-NOT: tilegpu.async_copy
// WS: tilegpu.mma
// WS: tilegpu.store
// ERRREGS: error: cannot warp-specialize: the producer's 136 registers are more than the 128 a thread has at occupancy 2

// CHECK-LABEL: func.func @persistent
// CHECK-SAME: %[[NK:[^:]*]]: i32)
// CHECK: %[[AR:.*]] = tilegpu.alloc : <3x64x64xf16
// CHECK: %[[AF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <3>
// CHECK: %[[AE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <3>
// CHECK: tilegpu.barrier
// CHECK: %[[TRIPS:.*]] = arith.maxsi %{{.*}}, %c0
// CHECK: scf.for %[[T:.*]] = %[[FIRST:[^ ]*]] to %{{.*}} step %[[STEP:[^ ]*]] :
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[T]], %[[FIRST]]
// CHECK-NEXT: %[[I:.*]] = arith.divsi %[[D]], %[[STEP]]
// CHECK-NEXT: %[[BEFORE:.*]] = arith.muli %[[I]], %[[TRIPS]]
// CHECK-NEXT: %[[BASE:.*]] = arith.addi %c0{{.*}}, %[[BEFORE]]
// Prologue slots base + 0 and base + 1.
// CHECK: %[[N0:.*]] = arith.addi %[[BASE]], %c0
// CHECK-NEXT: scf.if
// CHECK: arith.remui %[[N0]], %c3
// CHECK: tilegpu.mbarrier_wait %[[AE]]
// CHECK: %[[N1:.*]] = arith.addi %[[BASE]], %c1
// CHECK-NEXT: scf.if
// CHECK: arith.remui %[[N1]], %c3
// The accumulation stays in flight: iteration k's wait leaves its own mma
// pending and releases slot n - 1 (not in the first iteration); after the
// loop a full wait, then the release of the last slot, base + trips - 1.
// CHECK: %[[R:.*]] = scf.for %[[K:.*]] = %c0{{.*}} to %[[NK]] {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NOT: tilegpu.barrier
// CHECK: %[[N:.*]] = arith.addi %[[BASE]], %{{.*}}
// CHECK: %[[ST:.*]] = arith.remui %[[N]], %c3
// CHECK: tilegpu.mbarrier_wait %[[AF]][%[[ST]]]
// CHECK: %[[M:.*]] = tilegpu.mma %{{.*}}, %{{.*}}, %[[ACC]] {async}
// CHECK-NEXT: tilegpu.mma_wait {pending = 1 : i32}
// CHECK: %[[LATER:.*]] = arith.cmpi ugt, %[[N]], %[[BASE]]
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK: %[[PREV:.*]] = arith.subi %[[N]], %c1
// CHECK: %[[PST:.*]] = arith.remui %[[PREV]], %c3
// CHECK: tilegpu.mbarrier_arrive %[[AE]][%[[PST]]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[M]]
// CHECK: %[[DONE:.*]] = tilegpu.mma_wait %[[R]] {pending = 0 : i32}
// CHECK: %[[RAN:.*]] = arith.cmpi sgt, %[[TRIPS]], %c0
// CHECK-NEXT: scf.if %[[RAN]] {
// CHECK: %[[END:.*]] = arith.addi %[[BASE]], %[[TRIPS]]
// CHECK: %[[LAST:.*]] = arith.subi %[[END]], %c1
// CHECK: %[[LST:.*]] = arith.remui %[[LAST]], %c3
// CHECK: tilegpu.mbarrier_arrive %[[AE]][%[[LST]]]
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.store %[[DONE]]
// CHECK-NEXT: }
// CHECK-NEXT: return
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @persistent(%A: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>,
                      %tiles: i32, %nk: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32,
                tilegpu.occupancy = 2 : i32} {
  %ab = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %first = tile.block_id x
  %blocks = tile.num_blocks x
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  scf.for %t = %first to %tiles step %blocks : i32 {
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %A[%t, %k] dims [0, 1] into %ab {tilegpu.latency = 4 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %ab, %ab, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      %s1 = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %s1 : tensor<64x64xf32, #mma>
    }
    tilegpu.store %r, %O[%t, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// The inner trip count depends on the tile: block-wide barriers, and the
// copies of the previous tile drained before the prologue.
// CHECK-LABEL: func.func @ragged
// CHECK-NOT: mbarrier
// CHECK: scf.for
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK: scf.for
// CHECK: tilegpu.async_wait 1
// CHECK-NEXT: tilegpu.barrier
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @ragged(%A: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>,
                  %tiles: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %ab = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  scf.for %t = %c0 to %tiles step %c1 : i32 {
    %r = scf.for %k = %c0 to %t step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %A[%t, %k] dims [0, 1] into %ab {tilegpu.latency = 4 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %ab, %ab, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      %s1 = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %s1 : tensor<64x64xf32, #mma>
    }
    tilegpu.store %r, %O[%t, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}
