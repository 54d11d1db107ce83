// The synchronization of the Hopper pipeline lowers to NVVM ops: thread 0
// initializes each barrier of a group; waits are try_wait loops on the
// phase parity; cp.async arrivals are .noinc; named barriers keep their id
// and thread count; tilegpu.warp_specialize is one if/else on the thread id
// with setmaxnreg at the top of each branch; a copy of the producer spreads
// over its role's threads (tid - first).
//
// RUN: tile-opt %s -convert-tile-to-nvvm | FileCheck %s

#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// CHECK-LABEL: gpu.func @sync
// CHECK: %[[FULL:.*]] = llvm.getelementptr %{{.*}}[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK:   %[[B0:.*]] = llvm.getelementptr %[[FULL]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK:   nvvm.mbarrier.init %[[B0]], %{{.*}} : !llvm.ptr<3>, i32
// CHECK:   nvvm.mbarrier.init
// CHECK: }
// CHECK: nvvm.barrier0
// CHECK: %[[C256:.*]] = arith.constant 256 : i32
// CHECK: %[[TID2:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[PROD:.*]] = arith.cmpi uge, %[[TID2]], %[[C256]] : i32
// CHECK: scf.if %[[PROD]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK:   %[[TID3:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:   arith.subi %[[TID3]], %{{.*}} : i32
// CHECK:   nvvm.cp.async.shared.global
// CHECK:   nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true} : !llvm.ptr<3>
// CHECK:   nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK:   scf.while : () -> () {
// CHECK:     %[[DONE:.*]] = nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
// CHECK:     %[[NOT:.*]] = arith.xori %[[DONE]], %{{.*}} : i1
// CHECK:     scf.condition(%[[NOT]])
// CHECK:   nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:   nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:   nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// The warpgroup id is tid / 128, broadcast from lane 0 (warp-uniform for
// ptxas); an offset adds to the barrier id.
// CHECK:   %[[TID4:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:   %[[WG:.*]] = arith.shrui %[[TID4]], %{{.*}} : i32
// CHECK:   %[[UWG:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WG]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK:   %[[ID:.*]] = arith.addi %{{.*}}, %[[UWG]] : i32
// CHECK:   nvvm.barrier id = %[[ID]] number_of_threads = %{{.*}}
// CHECK: }
// CHECK: gpu.return
func.func @sync(%K: !tile.view<?x?xf16>, %i: i32, %p: i32) attributes {tilegpu.num_warps = 12 : i32} {
  %c0 = arith.constant 0 : i32
  %buf = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x64xf16, #wg>
  %full = tilegpu.mbarrier_alloc {offset = 1024 : i64} : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_init %full arrivals 128 : !tilegpu.mbarrier<2>
  tilegpu.barrier
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.async_copy %K[%c0, %c0] dims [0, 1] into %buf {tilegpu.threads = array<i32: 256, 128>}
        : !tile.view<?x?xf16>, !tilegpu.smem<64x64xf16, #wg>
    tilegpu.mbarrier_arrive_copies %full[%i] : !tilegpu.mbarrier<2>
    tilegpu.named_barrier 2, 128 arrive
  } consumers(warps = 8, regs = 232) {
    tilegpu.mbarrier_wait %full[%i] parity %p : !tilegpu.mbarrier<2>
    tilegpu.fence_async_shared
    tilegpu.mbarrier_arrive %full[%i] : !tilegpu.mbarrier<2>
    tilegpu.named_barrier 1, 256
    %wg = tilegpu.warpgroup_id
    tilegpu.named_barrier 2 + %wg, 256
  }
  return
}
