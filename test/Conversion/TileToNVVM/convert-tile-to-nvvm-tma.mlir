// TMA lowering: a tensor-map argument becomes a pointer parameter listed
// in `tilegpu.grid_constants` (tile-grid-constants makes it a grid-constant
// byval parameter of 128 bytes after convert-gpu-to-nvvm), whose address
// the copies name (the shared destination cast to shared::cluster); a tma_copy is one cp.async.bulk.tensor per 64-element
// piece of the stage (the second piece 128 rows * 128 bytes = 16384 bytes
// further, its inner coordinate 64 more), coordinates innermost first (view
// dimension 3, then 2, 1, 0), completing on the barrier; expect_tx is
// mbarrier.arrive.expect_tx with the bytes; thread_id is tid.x.
//
// RUN: tile-opt %s -convert-tile-to-nvvm | FileCheck %s

#wgT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// CHECK-LABEL: gpu.func @tma
// CHECK-SAME: %[[MAP:[^:]*]]: !llvm.ptr)
// CHECK-SAME: tilegpu.grid_constants = array<i64: 13>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[BAR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %{{.*}} : !llvm.ptr<3>, i32
// CHECK: %[[MBAR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK: %[[SH0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[DST0:.*]] = llvm.addrspacecast %[[SH0]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST0]], %[[MAP]], %[[MBAR]], box[%[[D:[^,]*]], %[[N:[^,]*]], %[[H:[^,]*]], %[[B:[a-z0-9_]+]]]
// CHECK: %[[D64:.*]] = arith.addi %[[D]], %{{.*}} : i32
// CHECK: %[[SH1:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[DST1:.*]] = llvm.addrspacecast %[[SH1]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST1]], %[[MAP]], %[[MBAR]], box[%[[D64]], %[[N]], %[[H]], %[[B]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: gpu.return
func.func @tma(%K: !tile.view<?x?x?x?xf16>, %b: i32, %h: i32, %n: i32, %d: i32,
               %map: !tilegpu.tensor_map {tile.name = "K@tma0"})
    attributes {tilegpu.num_warps = 12 : i32} {
  %c0 = arith.constant 0 : i32
  %buf = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<128x128xf16, #wgT>
  %full = tilegpu.mbarrier_alloc {offset = 32768 : i64} : !tilegpu.mbarrier<2>
  %tid = tilegpu.thread_id
  tilegpu.mbarrier_expect_tx %full[%tid], 32768 : !tilegpu.mbarrier<2>
  tilegpu.tma_copy %map[%b, %h, %n, %d] dims [3, 2] into %buf, %full[%c0]
      : !tilegpu.smem<128x128xf16, #wgT>, !tilegpu.mbarrier<2>
  return
}
