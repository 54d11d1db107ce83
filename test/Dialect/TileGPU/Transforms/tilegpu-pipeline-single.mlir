// tilegpu-pipeline with mbarriers on staged copies outside the pipelined
// loops (the first K tile and the last V tile that tile-overlap-mma peels
// out of fmha's loop, and Q): a copy whose buffer is read only in its own
// block takes the next slot of the ring of its tile type, between the
// loops' slots (the counter advances by one when its branch runs); a copy
// in the kernel's top block that loops read (Q) gets a one-stage ring of
// its own. So the producer warpgroup issues them all, ahead of the
// consumers, and no block-wide barrier is left.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -canonicalize | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize -canonicalize | FileCheck %s --check-prefix=WS

// CHECK-LABEL: func.func @peeled
// CHECK-SAME: %[[N:arg4]]: i32)
// CHECK: %[[QR:.*]] = tilegpu.alloc : <1x64x64xf16
// CHECK: %[[QF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <1>
// CHECK: %[[QE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <1>
// CHECK: %[[KR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: %[[KF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <2>
// CHECK: %[[KE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <2>
// CHECK: %[[VR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: %[[VF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <2>
// CHECK: %[[VE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <2>
// CHECK-NOT: tilegpu.alloc
// CHECK: %[[HAS:.*]] = arith.cmpi sgt, %[[N]], %c0
// Q: its own ring, waited for where the copy's wait was.
// CHECK-NEXT: tilegpu.mbarrier_wait %[[QE]][%c0{{.*}}] parity %c1
// CHECK-NEXT: %[[QS:.*]] = tilegpu.subview %[[QR]][%c0
// CHECK-NEXT: tilegpu.async_copy %arg0[%c0{{.*}}, %c0{{.*}}] dims [0, 1] into %[[QS]]
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[QF]][%c0
// CHECK-NEXT: tilegpu.mbarrier_wait %[[QF]][%c0{{.*}}] parity %c0
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NEXT: %[[Q:.*]] = tilegpu.subview %[[QR]]
// K0 takes slot 0 of the K ring when the branch runs; the loop's K slots
// follow from 0 + (has ? 1 : 0).
// CHECK-NEXT: %[[KBASE:.*]] = arith.extui %[[HAS]] : i1 to i32
// CHECK-NEXT: scf.if %[[HAS]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[KE]][%c0{{.*}}] parity %c1
// CHECK: tilegpu.async_copy %arg1[%c0{{.*}}, %c0{{.*}}]
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[KF]][%c0
// CHECK-NEXT: tilegpu.mbarrier_wait %[[KF]][%c0{{.*}}] parity %c0
// CHECK: tilegpu.mma %[[Q]], %{{.*}}, %{{.*}} {async}
// CHECK-NEXT: tilegpu.mma_wait
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[KE]][%c0
// CHECK: %[[TRIPS:.*]] = arith.maxsi
// CHECK: scf.for %[[J:.*]] = %c1{{.*}} to %[[N]]
// CHECK: %[[K:.*]] = arith.subi %[[J]], %c1
// CHECK: %[[KN:.*]] = arith.addi %[[KBASE]], %[[K]]
// CHECK: tilegpu.mbarrier_wait %[[KF]]
// CHECK: tilegpu.mbarrier_wait %[[VF]]
// CHECK: scf.yield
// Q is released after the loops that read it.
// CHECK: tilegpu.mbarrier_arrive %[[QE]][%c0
// The last V tile takes the V ring's slot after the loop's: 0 + trips.
// CHECK-NEXT: scf.if %[[HAS]]
// CHECK: %[[VST:.*]] = arith.remui %[[TRIPS]], %c2
// CHECK: tilegpu.mbarrier_wait %[[VE]][%[[VST]]]
// CHECK: tilegpu.async_copy %arg2
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[VF]][%[[VST]]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[VF]][%[[VST]]]
// CHECK: tilegpu.mma_wait
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[VE]][%[[VST]]]
// CHECK-NOT: tilegpu.barrier
// CHECK: return

// The producer issues every copy: the branches without their results.
// WS-LABEL: func.func @peeled
// WS: tilegpu.warp_specialize producer
// WS: tilegpu.async_copy %arg0
// WS: scf.if %{{.*}} {
// WS-NEXT: tilegpu.mbarrier_wait
// WS-NEXT: tilegpu.subview
// WS-NEXT: tilegpu.async_copy %arg1
// WS: scf.for
// WS: tilegpu.async_copy %arg1
// WS: tilegpu.async_copy %arg2
// WS: scf.if %{{.*}} {
// WS: tilegpu.async_copy %arg2
// WS: } consumers
// WS-NOT: tilegpu.async_copy
// WS-NOT: tilegpu.named_barrier
// WS: return
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#wgt = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @peeled(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                  %V: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %k0 = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wgt>
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wgt>
  %vb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %vl = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %has = arith.cmpi sgt, %n, %c0 : i32
  tilegpu.barrier
  tilegpu.async_copy %Q[%c0, %c0] dims [0, 1] into %qb
      : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
  tilegpu.async_commit
  tilegpu.async_wait 0
  tilegpu.barrier
  %s0 = scf.if %has -> (tensor<64x64xf32, #mma>) {
    tilegpu.barrier
    tilegpu.async_copy %K[%c0, %c0] dims [0, 1] into %k0 {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgt>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %m = tilegpu.mma %qb, %k0, %zero {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wgt>, tensor<64x64xf32, #mma>
    %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  } else {
    scf.yield %zero : tensor<64x64xf32, #mma>
  }
  %r = scf.for %j = %c1 to %n step %c1 iter_args(%acc = %s0) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.barrier
    tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgt>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %m = tilegpu.mma %qb, %kb, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wgt>, tensor<64x64xf32, #mma>
    %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
    %jv = arith.subi %j, %c1 : i32
    tilegpu.barrier
    tilegpu.async_copy %V[%jv, %c0] dims [0, 1] into %vb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %m2 = tilegpu.mma %qb, %vb, %w {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %w2 = tilegpu.mma_wait %m2 {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w2 : tensor<64x64xf32, #mma>
  }
  %last = scf.if %has -> (tensor<64x64xf32, #mma>) {
    %jl = arith.subi %n, %c1 : i32
    tilegpu.barrier
    tilegpu.async_copy %V[%jl, %c0] dims [0, 1] into %vl {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %m = tilegpu.mma %vl, %vl, %r {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  } else {
    scf.yield %r : tensor<64x64xf32, #mma>
  }
  tilegpu.store %last, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

// In a persistent loop over tiles: the single copies of the tile's body
// join the rings of its loops, numbered by the outer loop's slot state; Q
// (read by the loop) is the outer loop's own copy, a two-stage ring whose
// copy for tile t + 1 is issued after tile t's last ring copy (the last V
// tile's).
// CHECK-LABEL: func.func @persistent
// CHECK-COUNT-3: tilegpu.alloc : <2x64x64xf16
// CHECK-NOT: tilegpu.alloc
// CHECK: tilegpu.async_copy %arg0[
// CHECK: scf.for %[[T:.*]] = %{{.*}} iter_args(%[[KB:.*]] = %c0{{.*}}, %[[VB:.*]] = %c0{{.*}}) -> (i32, i32)
// CHECK: %[[TNEXT:.*]] = arith.addi %[[T]]
// CHECK-NOT: tilegpu.async_copy
// CHECK: scf.if
// CHECK: arith.remui %[[KB]], %c2
// CHECK: tilegpu.async_copy %arg1
// CHECK: scf.for
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: tilegpu.async_copy %arg2
// CHECK: scf.if
// CHECK: tilegpu.async_copy %arg0[%[[TNEXT]]
// CHECK: tilegpu.store
// CHECK-NEXT: scf.yield
// WS-LABEL: func.func @persistent
// WS: tilegpu.warp_specialize producer
// WS: tilegpu.async_copy %arg0
// WS: scf.for
// WS: scf.if %{{.*}} {
// WS: tilegpu.async_copy %arg1
// WS: scf.for
// WS: tilegpu.async_copy %arg2
// WS: scf.if %{{.*}} {
// WS: tilegpu.async_copy %arg2
// WS: tilegpu.async_copy %arg0
// WS: } consumers
// WS-NOT: tilegpu.async_copy
// WS: return
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#wgt = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @persistent(%Q: !tile.view<?x?xf16>, %K: !tile.view<?x?xf16>,
                  %V: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>, %n: i32,
                  %tiles: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %qb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %k0 = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wgt>
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wgt>
  %vb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %vl = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %first = tile.block_id x
  %blocks = tile.num_blocks x
  scf.for %t = %first to %tiles step %blocks : i32 {
    %has = arith.cmpi sgt, %n, %c0 : i32
    tilegpu.barrier
    tilegpu.async_copy %Q[%t, %c0] dims [0, 1] into %qb
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %s0 = scf.if %has -> (tensor<64x64xf32, #mma>) {
      tilegpu.barrier
      tilegpu.async_copy %K[%c0, %c0] dims [0, 1] into %k0 {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgt>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %m = tilegpu.mma %qb, %k0, %zero {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wgt>, tensor<64x64xf32, #mma>
      %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %w : tensor<64x64xf32, #mma>
    } else {
      scf.yield %zero : tensor<64x64xf32, #mma>
    }
    %r = scf.for %j = %c1 to %n step %c1 iter_args(%acc = %s0) -> (tensor<64x64xf32, #mma>) : i32 {
      tilegpu.barrier
      tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgt>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %m = tilegpu.mma %qb, %kb, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wgt>, tensor<64x64xf32, #mma>
      %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
      %jv = arith.subi %j, %c1 : i32
      tilegpu.barrier
      tilegpu.async_copy %V[%jv, %c0] dims [0, 1] into %vb {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %m2 = tilegpu.mma %qb, %vb, %w {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      %w2 = tilegpu.mma_wait %m2 {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %w2 : tensor<64x64xf32, #mma>
    }
    %last = scf.if %has -> (tensor<64x64xf32, #mma>) {
      %jl = arith.subi %n, %c1 : i32
      tilegpu.barrier
      tilegpu.async_copy %V[%jl, %c0] dims [0, 1] into %vl {tilegpu.latency = 2 : i32}
          : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %m = tilegpu.mma %vl, %vl, %r {async} : !tilegpu.smem<64x64xf16, #wg>,
          !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
      %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %w : tensor<64x64xf32, #mma>
    } else {
      scf.yield %r : tensor<64x64xf32, #mma>
    }
    tilegpu.store %last, %O[%t, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  }
  return
}

// -----

// A single copy in the else branch: the counter advances when the branch
// runs, i.e. when the condition is false (select(skip, 0, 1), which
// canonicalizes to extui(not skip)).
// CHECK-LABEL: func.func @in_else
// CHECK: %[[KE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <2>
// CHECK: %[[SKIP:.*]] = arith.cmpi sle, %arg2, %c0
// CHECK-NEXT: %[[RUNS:.*]] = arith.cmpi sgt, %arg2, %c0
// CHECK-NEXT: %[[ONE:.*]] = arith.extui %[[RUNS]] : i1 to i32
// CHECK-NEXT: scf.if %[[SKIP]]
// CHECK: } else {
// CHECK: tilegpu.mbarrier_wait %[[KE]][%c0
// CHECK: scf.for %[[J:.*]] =
// CHECK: arith.addi %[[ONE]], %{{.*}}
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @in_else(%K: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>, %n: i32)
    attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
  %k0 = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %kb = tilegpu.alloc : !tilegpu.smem<64x64xf16, #wg>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %skip = arith.cmpi sle, %n, %c0 : i32
  %s0 = scf.if %skip -> (tensor<64x64xf32, #mma>) {
    scf.yield %zero : tensor<64x64xf32, #mma>
  } else {
    tilegpu.barrier
    tilegpu.async_copy %K[%c0, %c0] dims [0, 1] into %k0 {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %m = tilegpu.mma %k0, %k0, %zero {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  %r = scf.for %j = %c1 to %n step %c1 iter_args(%acc = %s0) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.barrier
    tilegpu.async_copy %K[%j, %c0] dims [0, 1] into %kb {tilegpu.latency = 2 : i32}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.async_commit
    tilegpu.async_wait 0
    tilegpu.barrier
    %m = tilegpu.mma %kb, %kb, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
        !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
    %w = tilegpu.mma_wait %m {pending = 0 : i32} : tensor<64x64xf32, #mma>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  tilegpu.store %r, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
