// A copy whose address depends on scalars read from memory (tile.read) in
// a loop of scalar code (scf.while: a binary search over offsets; the
// walks of kernels/grouped_gemm.mlir to a tile's expert are alike): the
// producer warpgroup runs the same search and reads, so the kernel is
// warp-specialized with TMA rather than refused. A region with a side
// effect (an atomic in the search) still refuses it, with a located error.
//
// REQUIRES: ptxas, tile-compile
//
// RUN: tile-compile %s --chip=sm_90a --emit=tilegpu | FileCheck %s
// RUN: rm -rf %t && tile-compile %s --chip=sm_90a --ptxas=%ptxas --quiet -o %t
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/kernel.ptx
// RUN: not tile-compile %S/Inputs/warp-specialize-while-atomic.mlir --chip=sm_90a --emit=tilegpu 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR

// CHECK: tilegpu.warp_specialize producer(
// CHECK: scf.while
// CHECK: } do {
// CHECK: tile.read
// CHECK: %[[ROW:.*]] = tile.read
// CHECK: tilegpu.tma_copy %{{.*}}[%[[ROW]], %{{.*}}]
// CHECK: } consumers(
// CHECK-NOT: scf.while
// CHECK: tilegpu.mma

// PTX: setmaxnreg
// PTX: cp.async.bulk.tensor
// PTX: wgmma.mma_async

// ERR: warp-specialize-while-atomic.mlir:{{[0-9]+}}:{{[0-9]+}}: error: cannot warp-specialize: a copy depends on 'scf.while', whose region has side effects

func.func @rows_at_offsets(%A: !tile.view<?x?xf16> {tile.name = "A"},
                           %B: !tile.view<?x?xf16> {tile.name = "B"},
                           %C: !tile.view<?x?xf32> {tile.name = "C"},
                           %Off: !tile.view<?xi32> {tile.name = "Off"})
    attributes {tile.kernel = {num_warps = 4 : i32, grid = ["4", "1", "1"],
                               hints = {sm_90 = {warp_specialize = 1 : i32, tma = 1 : i32}}}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c64 = arith.constant 64 : i32
  %bx = tile.block_id x
  %n = tile.dim %Off[0] : !tile.view<?xi32>
  // The last i with Off[i] <= 64 bx.
  %want = arith.muli %bx, %c64 : i32
  %lo, %hi = scf.while (%l = %c0, %h = %n) : (i32, i32) -> (i32, i32) {
    %span = arith.subi %h, %l : i32
    %more = arith.cmpi sgt, %span, %c1 : i32
    scf.condition(%more) %l, %h : i32, i32
  } do {
  ^bb0(%l: i32, %h: i32):
    %s = arith.addi %l, %h : i32
    %mid = arith.divsi %s, %c2 : i32
    %o = tile.read %Off[%mid] : !tile.view<?xi32> -> i32
    %left = arith.cmpi sle, %o, %want : i32
    %l2 = arith.select %left, %mid, %l : i32
    %h2 = arith.select %left, %h, %mid : i32
    scf.yield %l2, %h2 : i32, i32
  }
  %row = tile.read %Off[%lo] : !tile.view<?xi32> -> i32
  %k_size = tile.dim %A[1] : !tile.view<?x?xf16>
  %num_k = arith.ceildivsi %k_size, %c64 : i32
  %acc0 = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %acc = scf.for %k = %c0 to %num_k step %c1 iter_args(%acc_i = %acc0) -> (tensor<64x64xf32>) : i32 {
    %k0 = arith.muli %k, %c64 : i32
    %a = tile.load %A at [%row, %k0] shape [64, 64] latency 4
        : !tile.view<?x?xf16> -> tensor<64x64xf16>
    %b = tile.load %B[%k, %c0] shape [64, 64] latency 4
        : !tile.view<?x?xf16> -> tensor<64x64xf16>
    %next = tile.mma %a, %b, %acc_i : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>
    scf.yield %next : tensor<64x64xf32>
  }
  tile.store %acc, %C[%bx, %c0] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}
