// tilegpu-warp-specialize on a kernel that already has its roles leaves it
// alone: quietly in auto mode (no diagnostic, the IR as it was), with a
// located error when forced. It used to nest a second warp_specialize in
// the first and print an error while exiting 0.
//
// RUN: tile-opt %s -tilegpu-set-target=target=sm_90a -tilegpu-warp-specialize 2>&1 | FileCheck %s
// RUN: not tile-opt %s -tilegpu-set-target=target=sm_90a -tilegpu-warp-specialize="mode=on" 2>&1 | FileCheck %s --check-prefix=ON

// CHECK-NOT: error
// CHECK-LABEL: func.func @twice
// CHECK: tilegpu.warp_specialize producer(warps = 4, regs = 40) {
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: tilegpu.mbarrier_arrive_copies
// CHECK: } consumers(warps = 4, regs = 240) {
// CHECK-NOT: tilegpu.warp_specialize
// CHECK: return
// ON: tilegpu-warp-specialize-twice.mlir:[[# @LINE + 2]]:1: error: cannot warp-specialize: the kernel is already warp-specialized
#wgT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
func.func @twice(%K: !tile.view<?x?xf16> {tile.name = "K"})
    attributes {tilegpu.num_warps = 8 : i32, tilegpu.mma_version = 3 : i32} {
  %kb = tilegpu.alloc : !tilegpu.smem<2x64x64xf16, #wgT>
  %full = tilegpu.mbarrier_alloc {tilegpu.role = "full"} : !tilegpu.mbarrier<2>
  %empty = tilegpu.mbarrier_alloc {tilegpu.role = "empty"} : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_init %full arrivals 128 : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_init %empty arrivals 128 : !tilegpu.mbarrier<2>
  tilegpu.barrier
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    %c0 = arith.constant 0 : i32
    tilegpu.mbarrier_wait %empty[%c0] parity %c0 : !tilegpu.mbarrier<2>
    %stage = tilegpu.subview %kb[%c0] : !tilegpu.smem<2x64x64xf16, #wgT> -> !tilegpu.smem<64x64xf16, #wgT>
    tilegpu.async_copy %K[%c0, %c0] dims [1, 0] into %stage {tilegpu.threads = array<i32: 128, 128>} : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wgT>
    tilegpu.mbarrier_arrive_copies %full[%c0] : !tilegpu.mbarrier<2>
  } consumers(warps = 4, regs = 240) {
    %c0 = arith.constant 0 : i32
    tilegpu.mbarrier_wait %full[%c0] parity %c0 : !tilegpu.mbarrier<2>
  }
  return
}
