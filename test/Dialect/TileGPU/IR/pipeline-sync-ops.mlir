// The synchronization ops of the Hopper pipeline (mbarrier groups, the
// async proxy fence, named barriers, warp specialization) round-trip
// through the custom syntax, the generic form and --verify-roundtrip.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func.func @sync
// CHECK: %[[FULL:.*]] = tilegpu.mbarrier_alloc : <2>
// CHECK: %[[EMPTY:.*]] = tilegpu.mbarrier_alloc {offset = 64 : i64} : <2>
// CHECK: tilegpu.mbarrier_init %[[FULL]] arrivals 128 : <2>
// CHECK: tilegpu.mbarrier_wait %[[FULL]][%{{.*}}] parity %{{.*}} : <2>
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]][%{{.*}}] : <2>
// CHECK: tilegpu.mbarrier_arrive_copies %[[FULL]][%{{.*}}] : <2>
// CHECK: tilegpu.fence_async_shared
// CHECK: tilegpu.named_barrier 1, 256
// CHECK: tilegpu.named_barrier 2, 256 arrive
// CHECK: tilegpu.warp_specialize producer(warps = 4, regs = 40) {
// CHECK:   tilegpu.mbarrier_arrive_copies
// CHECK: } consumers(warps = 8, regs = 232) {
// CHECK:   tilegpu.mbarrier_arrive
// CHECK: }
func.func @sync(%i: i32, %p: i32) {
  %full = tilegpu.mbarrier_alloc : <2>
  %empty = tilegpu.mbarrier_alloc {offset = 64 : i64} : <2>
  tilegpu.mbarrier_init %full arrivals 128 : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_wait %full[%i] parity %p : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_arrive %empty[%i] : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_arrive_copies %full[%i] : !tilegpu.mbarrier<2>
  tilegpu.fence_async_shared
  tilegpu.named_barrier 1, 256
  tilegpu.named_barrier 2, 256 arrive
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.mbarrier_arrive_copies %full[%i] : !tilegpu.mbarrier<2>
  } consumers(warps = 8, regs = 232) {
    tilegpu.mbarrier_arrive %empty[%i] : !tilegpu.mbarrier<2>
  }
  return
}
