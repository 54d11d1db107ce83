// tilegpu-tma: the producer's copies become TMA. Each ring copy is issued
// by the producer's first thread, which announces the stage's bytes on the
// full barrier (expect_tx, the barrier's only arrival: arrivals 1); the
// query copy that the first full barrier covered gets a barrier of its own,
// waited for by the consumers before the loop that reads it. Each view gets
// a tensor-map argument named VIEW@tma0 (dims: the buffer's inner view
// dimension first; box: a 64-element piece by the tile's rows). The
// consumers' proxy fences after the TMA barriers go.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize -tilegpu-tma | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize -tilegpu-tma="mode=off" | FileCheck %s --check-prefix=OFF
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -tilegpu-warp-specialize="mode=off" -tilegpu-tma="mode=on" 2>&1 | FileCheck %s --check-prefix=ERRWS
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-tma="mode=on" 2>&1 | FileCheck %s --check-prefix=ERRCHIP

// OFF-NOT: tilegpu.tma_copy
// OFF-NOT: tensor_map
// ERRWS: error: cannot use TMA: the kernel has no producer warpgroup (warp-specialize; or compile with --tma=off)
// ERRCHIP: error: cannot use TMA: TMA needs sm_90 or newer, got 'sm_80'

// CHECK-LABEL: func.func @attention
// CHECK-SAME: %[[QMAP:[^:]*]]: !tilegpu.tensor_map {tile.name = "Q@tma0", tilegpu.tensor_map = {box = [64, 64], dims = [1, 0], swizzle = 128 : i64, view = "Q"}}
// CHECK-SAME: %[[KMAP:[^:]*]]: !tilegpu.tensor_map {tile.name = "K@tma0", tilegpu.tensor_map = {box = [64, 64], dims = [1, 0], swizzle = 128 : i64, view = "K"}}
// CHECK-SAME: %[[VMAP:[^:]*]]: !tilegpu.tensor_map {tile.name = "V@tma0", tilegpu.tensor_map = {box = [64, 64], dims = [1, 0], swizzle = 128 : i64, view = "V"}}
// CHECK: %[[QB:.*]] = tilegpu.alloc : {{.*}}<64x64xf16
// CHECK: %[[KF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"}
// CHECK: tilegpu.mbarrier_init %[[KF]] arrivals 1
// CHECK: %[[VF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"}
// CHECK: tilegpu.mbarrier_init %[[VF]] arrivals 1
// CHECK: %[[QF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "tma"} : {{.*}}<1>
// CHECK-NEXT: tilegpu.mbarrier_init %[[QF]] arrivals 1
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.warp_specialize producer(warps = 4, regs = 40) {
// CHECK-NEXT: %[[TID:.*]] = tilegpu.thread_id
// CHECK-NEXT: %[[FIRST:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[FIRST]], %[[C32]] : i32
// CHECK-NEXT: %[[ONEWARP:.*]] = arith.cmpi ult, %[[TID]], %[[END]] : i32
// CHECK-NEXT: scf.if %[[ONEWARP]] {
// CHECK-NEXT: %[[LEADER:.*]] = arith.cmpi eq, %[[TID]], %[[FIRST]] : i32
// CHECK-NOT: tilegpu.async_copy
// CHECK: scf.if %[[LEADER]] {
// CHECK-NEXT: tilegpu.mbarrier_expect_tx %[[QF]][%{{.*}}], 8192
// CHECK-NEXT: tilegpu.tma_copy %[[QMAP]][%{{.*}}, %{{.*}}] dims [0, 1] into %[[QB]], %[[QF]][%{{.*}}]
// CHECK: scf.for
// CHECK:   tilegpu.mbarrier_wait
// CHECK:   scf.if %[[LEADER]] {
// CHECK-NEXT: tilegpu.mbarrier_expect_tx %[[KF]][%{{.*}}], 8192
// CHECK-NEXT: tilegpu.tma_copy %[[KMAP]][%{{.*}}, %{{.*}}] dims [1, 0] into %{{.*}}, %[[KF]][%{{.*}}]
// CHECK-NOT: tilegpu.async_copy
// CHECK-NOT: mbarrier_arrive_copies
// CHECK: } consumers(warps = 4, regs = 240) {
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK: tilegpu.mbarrier_wait %[[QF]][%{{.*}}] parity %{{.*}}
// CHECK-NEXT: scf.for
// CHECK:   tilegpu.mbarrier_wait %[[KF]]
// CHECK-NOT: tilegpu.fence_async_shared
// CHECK:   tilegpu.mma
// CHECK: return
#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#wgT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @attention(%Q: !tile.view<?x?xf16> {tile.name = "Q"}, %K: !tile.view<?x?xf16> {tile.name = "K"},
                     %V: !tile.view<?x?xf16> {tile.name = "V"}, %O: !tile.view<?x?xf32> {tile.name = "O"}, %n: i32)
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

// A producer op that counts every producer thread (here a per-thread
// arrival) keeps the whole warpgroup in the producer.
// CHECK-LABEL: func.func @whole_producer
// CHECK: tilegpu.warp_specialize producer
// CHECK-NEXT: tilegpu.thread_id
// CHECK-NOT: arith.cmpi ult
// CHECK: tilegpu.tma_copy
// CHECK: tilegpu.mbarrier_arrive %{{.*}}[%{{.*}}] :
// CHECK: } consumers
#wgT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

func.func @whole_producer(%K: !tile.view<?x?xf16> {tile.name = "K"}, %n: i32)
    attributes {tilegpu.num_warps = 8 : i32, tilegpu.mma_version = 3 : i32} {
  %kb = tilegpu.alloc : !tilegpu.smem<2x64x64xf16, #wgT>
  %full = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : !tilegpu.mbarrier<2>
  %empty = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : !tilegpu.mbarrier<2>
  %done = tilegpu.mbarrier_alloc : !tilegpu.mbarrier<1>
  tilegpu.mbarrier_init %full arrivals 128 : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_init %empty arrivals 128 : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_init %done arrivals 128 : !tilegpu.mbarrier<1>
  tilegpu.barrier
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    %c0 = arith.constant 0 : i32
    tilegpu.mbarrier_wait %empty[%c0] parity %c0 : !tilegpu.mbarrier<2>
    %stage = tilegpu.subview %kb[%c0] : !tilegpu.smem<2x64x64xf16, #wgT> -> !tilegpu.smem<64x64xf16, #wgT>
    tilegpu.async_copy %K[%c0, %c0] dims [1, 0] into %stage {tilegpu.threads = array<i32: 128, 128>} : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgT>
    tilegpu.mbarrier_arrive_copies %full[%c0] : !tilegpu.mbarrier<2>
    tilegpu.mbarrier_arrive %done[%c0] : !tilegpu.mbarrier<1>
  } consumers(warps = 4, regs = 240) {
    %c0 = arith.constant 0 : i32
    tilegpu.mbarrier_wait %full[%c0] parity %c0 : !tilegpu.mbarrier<2>
    tilegpu.mbarrier_wait %done[%c0] parity %c0 : !tilegpu.mbarrier<1>
  }
  return
}
