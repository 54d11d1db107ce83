// tilegpu-pipeline with mbarriers: two staged copies one after another in the
// kernel's top block (the attention backward's K and V tiles), read in a loop
// nested in another loop (its walk over the query heads of a GQA group).
// Each gets a one-stage ring of its own, issued and waited for where it was,
// released after the loops. The barrier between the two patterns is the
// first one's (it was erased twice: a crash).
//
// RUN: tile-opt %s -tilegpu-set-target=target=sm_90a -tilegpu-pipeline -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @nested
// CHECK: %[[CR:.*]] = tilegpu.alloc : <1x64x64xf16
// CHECK: %[[CF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <1>
// CHECK: %[[CE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <1>
// CHECK: %[[BR:.*]] = tilegpu.alloc : <1x64x64xf16
// CHECK: %[[BF:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : <1>
// CHECK: %[[BE:.*]] = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : <1>
// CHECK: %[[AR:.*]] = tilegpu.alloc : <2x64x64xf16
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BE]]
// CHECK-NEXT: %[[BS:.*]] = tilegpu.subview %[[BR]]
// CHECK-NEXT: tilegpu.async_copy %arg1{{.*}} into %[[BS]]
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[BF]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[BF]]
// CHECK-NEXT: tilegpu.fence_async_shared
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.mbarrier_wait %[[CE]]
// CHECK-NEXT: %[[CS:.*]] = tilegpu.subview %[[CR]]
// CHECK-NEXT: tilegpu.async_copy %arg2{{.*}} into %[[CS]]
// CHECK-NEXT: tilegpu.mbarrier_arrive_copies %[[CF]]
// CHECK-NEXT: tilegpu.mbarrier_wait %[[CF]]
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} {async}
// CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} {async}
// CHECK: tilegpu.mbarrier_arrive %[[CE]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[BE]]
// CHECK-NEXT: tilegpu.store
func.func @nested(%arg0: !tile.view<?x?xf16> {tile.align = 16 : i64},
                  %arg1: !tile.view<?x?xf16> {tile.align = 16 : i64},
                  %arg2: !tile.view<?x?xf16> {tile.align = 16 : i64},
                  %arg3: !tile.view<?x?xf32> {tile.align = 16 : i64},
                  %arg4: i32, %arg5: i32)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c64_i32 = arith.constant 64 : i32
  %c1_i32 = arith.constant 1 : i32
  %c0_i32 = arith.constant 0 : i32
  %0 = tilegpu.alloc : <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
  %1 = tilegpu.alloc : <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
  %2 = tilegpu.alloc : <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
  tilegpu.async_copy %arg1[%c0_i32, %c0_i32] dims [0, 1] into %1 : <?x?xf16>, <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
  tilegpu.async_commit
  tilegpu.async_wait 0
  tilegpu.barrier
  tilegpu.async_copy %arg2[%c0_i32, %c0_i32] dims [0, 1] into %0 : <?x?xf16>, <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
  tilegpu.async_commit
  tilegpu.async_wait 0
  tilegpu.barrier
  %3 = tile.full 0.000000e+00 shape [64, 64] : tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
  %4 = scf.for %arg6 = %c0_i32 to %arg5 step %c1_i32 iter_args(%arg7 = %3) -> (tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>) : i32 {
    %5 = scf.for %arg8 = %c0_i32 to %arg4 step %c1_i32 iter_args(%arg9 = %arg7) -> (tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>) : i32 {
      %6 = arith.muli %arg8, %c64_i32 : i32
      %7 = arith.muli %arg6, %c64_i32 : i32
      tilegpu.barrier
      tilegpu.async_copy %arg0[%6, %7] dims [0, 1] into %2 {tilegpu.latency = 2 : i32} : <?x?xf16>, <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
      tilegpu.async_commit
      tilegpu.async_wait 0
      tilegpu.barrier
      %8 = tilegpu.mma %2, %1, %arg9 {async} : !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>, <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>, tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
      %9 = tilegpu.mma_wait %8 {pending = 0 : i32} : tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
      %10 = tilegpu.mma %2, %0, %9 {async} : !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>, <64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>, tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
      %11 = tilegpu.mma_wait %10 {pending = 0 : i32} : tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
      scf.yield %11 : tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
    }
    scf.yield %5 : tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>
  }
  tilegpu.store %4, %arg3[%c0_i32, %c0_i32] dims [0, 1] : tensor<64x64xf32, #tilegpu.mma<version = 3, warps = [4, 1]>>, <?x?xf32>
  return
}
