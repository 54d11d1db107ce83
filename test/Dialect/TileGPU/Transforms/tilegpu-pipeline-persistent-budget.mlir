// tilegpu-pipeline on a persistent kernel short of shared memory: the stages
// stay within the target chip's shared memory per block next to the buffers
// that stay (here all but 24576 bytes of sm_90a's).
//
// RUN: tile-opt %s -allow-unregistered-dialect -tilegpu-pipeline | FileCheck %s

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

#flat = #tilegpu.shared<order = [1, 0], vec = 1, perPhase = 1, maxPhase = 1>

// Short of shared memory for a second Q stage: a one-stage ring, the copy
// of tile t issued at the top of tile t, after tile t - 1's release.
// CHECK-LABEL: func.func @split
// CHECK: %[[AR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: %[[QR:.*]] = tilegpu.alloc : <1x64x64xf16
// CHECK: %[[QF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <1>
// CHECK: %[[QE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <1>
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BASE:.*]] = %c0{{.*}}) -> (i32)
// CHECK: tilegpu.mbarrier_wait %[[QE]]
// CHECK: %[[QS:.*]] = tilegpu.subview %[[QR]]
// CHECK: tilegpu.async_copy %{{.*}} dims [0, 1] into %[[QS]]
// CHECK: tilegpu.mbarrier_arrive_copies %[[QF]]
// CHECK: tilegpu.mbarrier_wait %[[QF]]
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: tilegpu.async_copy %arg1
// CHECK: tilegpu.mma_wait %{{.*}} {pending = 0 : i32}
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[QE]]
module attributes {tilegpu.target = "sm_90a"} {
  func.func @split(%A: !tile.view<?x?xf16>, %Q: !tile.view<?x?xf16>,
                   %O: !tile.view<?x?xf32>, %tiles: i32, %nk: i32)
      attributes {tilegpu.num_warps = 4 : i32, tilegpu.mma_version = 3 : i32} {
    // All but 24576 bytes of sm_90a's 232448 (a buffer that stays).
    %fill = tilegpu.alloc : !tilegpu.smem<1x103936xf16, #flat>
    "test.use"(%fill) : (!tilegpu.smem<1x103936xf16, #flat>) -> ()
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
}
