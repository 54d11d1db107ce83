// tilegpu-pipeline with mbarriers on loops nested in a persistent loop
// over output tiles: the outer loop carries each ring's next slot as loop
// state (advanced by the inner loop's trip count, max(0, ceil((ub - lb) /
// step)), which may change from tile to tile), so the phases continue from
// one tile to the next and a producer may run ahead into the next tile; the
// inner loop's one wgmma accumulation stays in flight across its
// iterations. The outer loop's own copy becomes a two-stage ring (one
// stage where shared memory is short), released after the inner loops (and
// the wait that completes their last mma). A loop under two levels of
// loops keeps block-wide barriers.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize -canonicalize | FileCheck %s --check-prefix=WS
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize="mode=on producer-regs=136" 2>&1 | FileCheck %s --check-prefix=ERRREGS

// Warp-specialized: the producer walks the same tiles (the outer loop with
// only the slot numbering as state) and runs ahead; at occupancy 2 a thread has 128 registers
// at entry (65536 / 2 / 256 threads), the producer gives back 88 of them
// to the consumers: (128 * 256 - 40 * 128) / 128 = 216.
// WS-LABEL: func.func @persistent
// WS-SAME: tilegpu.num_warps = 8 : i32, tilegpu.occupancy = 2 : i32
// WS: tilegpu.warp_specialize producer(warps = 4, regs = 40) {
// WS: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32) : i32 {
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
// CHECK: %[[LOOP:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BASE:.*]] = %c0{{.*}}) -> (i32)
// CHECK: %[[TRIPS:.*]] = arith.maxsi %{{.*}}, %c0
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[BASE]], %[[TRIPS]]
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
// CHECK-NEXT: scf.yield %[[NEXT]] : i32
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

// The inner trip count depends on the tile (here t): the slot numbering
// advances by it.
// CHECK-LABEL: func.func @ragged
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BASE:.*]] = %c0{{.*}}) -> (i32)
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[T]], %c0
// CHECK-NEXT: %[[CEIL:.*]] = arith.ceildivsi %[[SPAN]], %c1
// CHECK: %[[TRIPS:.*]] = arith.maxsi %[[CEIL]], %c0
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[BASE]], %[[TRIPS]]
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[T]]
// CHECK: tilegpu.mbarrier_wait
// CHECK: scf.yield %[[NEXT]] : i32
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

// -----

// Two inner loops (a split loop and its tail) share the A ring: the second
// continues from the slot where the first stopped. The outer loop's own
// copy (Q, the same tile type as A) gets a two-stage ring of its own,
// numbered by the outer iteration: a prologue copies tile 0's Q, and tile
// t copies tile t + 1's after its last inner loop (waiting for the release
// of tile t - 1's slot), so a producer loads it while the consumers finish
// tile t. Tile t's slot is released after the wait that completes the
// tail's last mma. The producer keeps the slot numbering (the outer loop's
// i32 state) and drops the accumulators.
// CHECK-LABEL: func.func @split
// CHECK: %[[AR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: %[[QR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: %[[QF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <2>
// CHECK: %[[QE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <2>
// CHECK: %[[FIRST:.*]] = tile.block_id x
// CHECK: %[[STEP:.*]] = tile.num_blocks x
// CHECK: %[[T0:.*]] = arith.addi %[[FIRST]], %{{.*}}
// CHECK-NEXT: arith.cmpi slt, %[[T0]]
// CHECK: scf.if
// CHECK: tilegpu.mbarrier_wait %[[QE]]
// CHECK: tilegpu.async_copy %{{.*}}[%[[T0]], %{{.*}}] dims [0, 1] into
// CHECK: tilegpu.mbarrier_arrive_copies %[[QF]]
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[TILES:[^ ]*]] step %[[STEP]] iter_args(%[[BASE:.*]] = %c0{{.*}}) -> (i32)
// CHECK: %[[TNEXT:.*]] = arith.addi %[[T]], %{{.*}}
// CHECK-NEXT: %[[AHEAD:.*]] = arith.cmpi slt, %[[TNEXT]], %[[TILES]]
// CHECK: %[[QN:.*]] = arith.addi %c0{{.*}}, %{{.*}}
// CHECK: %[[QST:.*]] = arith.remui %[[QN]], %c2
// CHECK: %[[QNEXT:.*]] = arith.addi %[[QN]], %c1
// CHECK: tilegpu.mbarrier_wait %[[QF]][%[[QST]]]
// CHECK: %[[Q:.*]] = tilegpu.subview %[[QR]][%[[QST]]]
// CHECK: %[[MID:.*]] = arith.addi %[[BASE]], %{{.*}}
// CHECK: %[[R:.*]] = scf.for
// CHECK: tilegpu.mma %[[Q]]
// CHECK: %[[R1:.*]] = tilegpu.mma_wait %[[R]] {pending = 0 : i32}
// CHECK: %[[END:.*]] = arith.addi %[[MID]], %{{.*}}
// CHECK: %[[R2:.*]] = scf.for %{{.*}} = %[[T]] to %{{.*}} iter_args(%{{.*}} = %[[R1]])
// CHECK: arith.addi %[[MID]], %{{.*}}
// CHECK: tilegpu.mma %[[Q]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[AHEAD]] {
// CHECK: %[[QNST:.*]] = arith.remui %[[QNEXT]], %c2
// CHECK: tilegpu.mbarrier_wait %[[QE]][%[[QNST]]]
// CHECK: %[[QS:.*]] = tilegpu.subview %[[QR]][%[[QNST]]]
// CHECK: tilegpu.async_copy %{{.*}}[%[[TNEXT]], %{{.*}}] dims [0, 1] into %[[QS]]
// CHECK: tilegpu.mbarrier_arrive_copies %[[QF]][%[[QNST]]]
// CHECK: %[[DONE:.*]] = tilegpu.mma_wait %[[R2]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[QE]][%[[QST]]]
// CHECK: tilegpu.store %[[DONE]]
// CHECK-NEXT: scf.yield %[[END]] : i32
// WS-LABEL: func.func @split
// WS: tilegpu.warp_specialize producer(warps = 4, regs = 40) {
// WS: scf.for %{{.*}} iter_args(%[[PBASE:.*]] = %{{.*}}) -> (i32) : i32 {
// WS: tilegpu.async_copy
// WS: scf.for %{{.*}} : i32 {
// WS: tilegpu.async_copy
// WS: scf.for %{{.*}} : i32 {
// WS: tilegpu.async_copy
// WS: scf.yield %{{.*}} : i32
// WS: } consumers(warps = 4, regs = 240) {
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @split(%A: !tile.view<?x?xf16>, %Q: !tile.view<?x?xf16>,
                 %O: !tile.view<?x?xf32>, %tiles: i32, %nk: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %ab = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %first = tile.block_id x
  %blocks = tile.num_blocks x
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  scf.for %t = %first to %tiles step %blocks : i32 {
    tilegpu.barrier
    tilegpu.async_copy %Q[%t, %c0] dims [0, 1] into %qb
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %r = scf.for %k = %c0 to %t step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %A[%t, %k] dims [0, 1] into %ab {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %ab, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      %s1 = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %s1 : tensor<64x64xf32, #mma>
    }
    %r2 = scf.for %k = %t to %nk step %c1 iter_args(%acc = %r) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %A[%t, %k] dims [0, 1] into %ab {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %s = tilegpu.mma %qb, %ab, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      %s1 = tilegpu.mma_wait %s {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %s1 : tensor<64x64xf32, #mma>
    }
    tilegpu.store %r2, %O[%t, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// A copy loop under two levels of loops: block-wide barriers.
// CHECK-LABEL: func.func @deep
// CHECK-NOT: mbarrier
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
// CHECK: tilegpu.async_wait 0
// CHECK-NEXT: tilegpu.barrier
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @deep(%A: !tile.view<?x?xf16>, %O: !tile.view<?x?xf16>, %n: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %ab = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  scf.for %i = %c0 to %n step %c1 : i32 {
    scf.for %t = %c0 to %n step %c1 : i32 {
      scf.for %k = %c0 to %n step %c1 : i32 {
        tilegpu.barrier
        tilegpu.async_copy %A[%t, %k] dims [0, 1] into %ab {tilegpu.latency = 2 : i32}
            : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
        tilegpu.async_commit
        tilegpu.async_wait 0
        tilegpu.barrier
        %s = tilegpu.mma %ab, %ab, %zero : !tilegpu.smem<64x64xf16, #wg>,
            !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      }
    }
  }
  return
}
