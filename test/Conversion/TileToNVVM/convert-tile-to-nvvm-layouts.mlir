// convert-tile-to-nvvm on the lowerings of layouts no mma owns: layout
// conversions (through shared memory, register shuffles, free), reductions
// across lanes and warps with and without keepdims, tilegpu.local_store,
// vectorized global loads and stores under the views' alignment, cp.async
// widths, math functions without libdevice.
//
// RUN: tile-opt %s -split-input-file -convert-tile-to-nvvm | FileCheck %s

#row = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#col = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>
// Through the scratch area: barrier, 16-byte stores of the rows (padded
// rows of 20 f32: row 8 is 640 bytes on), barrier, scalar loads down the
// columns (the next row 80 bytes on).
// CHECK-LABEL: gpu.func @convert_shared
// CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @__tile_shared_memory : !llvm.ptr<3>
// CHECK: %[[SCRATCH:.*]] = llvm.getelementptr %[[SMEM]][256] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: nvvm.barrier0
// CHECK: %[[W:.*]] = llvm.getelementptr %[[SCRATCH]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %[[W]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: %[[W8:.*]] = llvm.getelementptr %[[W]][640] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %[[W8]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[R:.*]] = llvm.getelementptr %[[SCRATCH]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: llvm.load %[[R]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: %[[R1:.*]] = llvm.getelementptr %[[R]][80] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.load %[[R1]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
func.func @convert_shared(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<16x16xf32, #row>
  %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = 256 : i64} : tensor<16x16xf32, #row> -> tensor<16x16xf32, #col>
  tilegpu.store %y, %A[%c0, %c0] dims [1, 0] : tensor<16x16xf32, #col>, !tile.view<?x?xf32>
  return
}

// -----

#r = #tilegpu.blocked<sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]>
#c = #tilegpu.blocked<sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]>
#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
// The same elements in another register order: a shuffle, no memory. A
// reshape between the keepdims tile and its slice moves nothing.
// CHECK-LABEL: gpu.func @convert_registers
// CHECK-NOT: nvvm.barrier0
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 1, 3] : vector<4xf32>, vector<4xf32>
// CHECK-NOT: nvvm.barrier0
func.func @convert_registers(%A: !tile.view<?x?xf32>, %M: !tile.view<?xf32>)
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tile.full 1.0 shape [2, 64] : tensor<2x64xf32, #r>
  %y = tilegpu.convert_layout %x : tensor<2x64xf32, #r> -> tensor<2x64xf32, #c>
  tilegpu.store %y, %A[%c0, %c0] dims [0, 1] : tensor<2x64xf32, #c>, !tile.view<?x?xf32>
  %m = tile.full 1.0 shape [16, 1] : tensor<16x1xf32, #mma>
  %s = tile.reshape %m shape [16] : tensor<16x1xf32, #mma> -> tensor<16xf32, #tilegpu.slice<dim = 1, parent = #mma>>
  tilegpu.store %s, %M[%c0] dims [0] : tensor<16xf32, #tilegpu.slice<dim = 1, parent = #mma>>, !tile.view<?xf32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// A column sum over 32 rows split over 4 warps and 2 lanes: in-thread
// (nothing along dim 0), xor-16 shuffle, then one partial per warp in the
// scratch area, barrier, each thread adds the 4 partials of its columns.
// CHECK-LABEL: gpu.func @reduce_across_warps
// CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16:.*]], %{{.*}} : f32 -> f32
// CHECK: nvvm.barrier0
// CHECK-COUNT-4: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
func.func @reduce_across_warps(%x: !tile.view<?x?xf32>, %s: !tile.view<?xf32>)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %t = tile.full 1.0 shape [32, 64] : tensor<32x64xf32, #b>
  %r = tile.reduce %t sum axis 0 {tilegpu.scratch_offset = 0 : i64} : tensor<32x64xf32, #b> -> tensor<64xf32, #tilegpu.slice<dim = 0, parent = #b>>
  tilegpu.store %r, %s[%c0] dims [0] : tensor<64xf32, #tilegpu.slice<dim = 0, parent = #b>>, !tile.view<?xf32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// A row maximum with keepdims: 8 elements in the thread, then xor 1..16
// over the lanes; each warp owns its rows, so no shared memory.
// CHECK-LABEL: gpu.func @reduce_rows
// CHECK-COUNT-7: arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: nvvm.shfl.sync bfly
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.barrier0
func.func @reduce_rows(%X: !tile.view<?x?xf32>, %M: !tile.view<?x?xf32>)
    attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<4x256xf32, #b>
  %m = tile.reduce %x max axis 1 keepdims : tensor<4x256xf32, #b> -> tensor<4x1xf32, #b>
  tilegpu.store %m, %M[%c0, %c0] dims [0] : tensor<4x1xf32, #b>, !tile.view<?x?xf32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
// 16-byte loads and stores of 8 f16 where the view is 16-byte aligned
// (the default), element by element where the vector crosses the view's
// end; 8-byte accesses at tile.align = 8; scalar ones at 2.
// CHECK-LABEL: gpu.func @global_vectors
// CHECK: scf.if %{{.*}} -> (vector<8xf16>)
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK: } else {
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xf16>
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<1>
// CHECK-NOT: vector<{{[0-9]+}}xf16>, !llvm.ptr<1>
// CHECK-NOT: -> vector<{{[0-9]+}}xf16>
func.func @global_vectors(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16> {tile.align = 8 : i64},
                          %C: !tile.view<?x?xf16> {tile.align = 2 : i64}, %i: i32)
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %col = arith.muli %i, %c8 : i32
  %a = tilegpu.load %A[%c0, %col] dims [0, 1] : !tile.view<?x?xf16> -> tensor<4x64xf16, #b>
  tilegpu.store %a, %A[%c0, %col] dims [0, 1] : tensor<4x64xf16, #b>, !tile.view<?x?xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<4x64xf16, #b>
  tilegpu.store %b, %B[%c0, %c0] dims [0, 1] : tensor<4x64xf16, #b>, !tile.view<?x?xf16>
  %c = tilegpu.load %C[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<4x64xf16, #b>
  tilegpu.store %c, %C[%c0, %c0] dims [0, 1] : tensor<4x64xf16, #b>, !tile.view<?x?xf16>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
// negative: a column offset not known to be a multiple of the vector
// keeps scalar accesses.
// CHECK-LABEL: gpu.func @negative_unaligned_offset
// CHECK-NOT: vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT: -> vector<8xf16>
func.func @negative_unaligned_offset(%A: !tile.view<?x?xf16>, %col: i32)
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %col] dims [0, 1] : !tile.view<?x?xf16> -> tensor<4x64xf16, #b>
  tilegpu.store %a, %A[%c0, %col] dims [0, 1] : tensor<4x64xf16, #b>, !tile.view<?x?xf16>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// A register tile stored into a padded shared tile: 16-byte stores at the
// thread's row (72 f16 per padded row) plus immediates.
// CHECK-LABEL: gpu.func @local_store
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
func.func @local_store(%X: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %x = tile.full 1.0 shape [8, 64] : tensor<8x64xf16, #b>
  %buf = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<8x64xf16, #pad>
  tilegpu.local_store %x, %buf : tensor<8x64xf16, #b>, !tilegpu.smem<8x64xf16, #pad>
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// cp.async width from tile.align: 8 bytes with .ca.
// CHECK-LABEL: gpu.func @copy_8_bytes
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca, %{{.*}}
func.func @copy_8_bytes(%A: !tile.view<?x?xf16> {tile.align = 8 : i64}) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %buf = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x16xf16, #pad>
  tilegpu.async_copy %A[%c0, %c0] dims [0, 1] into %buf : !tile.view<?x?xf16>, !tilegpu.smem<16x16xf16, #pad>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
// Math functions without libdevice.
// CHECK-LABEL: gpu.func @math
// CHECK: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK: arith.mulf %{{.*}}, %[[LOG2E]] : f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// tanh where approximate functions are allowed (tile-fast-math's afn).
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
// absf clears the sign bit (LLVM's fabs, sqrt, floor, ceil and copysign
// intrinsics are illegal in convert-gpu-to-nvvm).
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[MAG:.*]] = arith.constant 2147483647 : i32
// CHECK: arith.andi %[[BITS]], %[[MAG]] : i32
// CHECK: llvm.bitcast %{{.*}} : i32 to f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.floor.f"
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// CHECK: arith.truncf %{{.*}} : f32 to f16
// A scalar math op in a kernel too.
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%{{.*}}) : (f32) -> f32
// CHECK-NOT: math.
// CHECK-NOT: llvm.intr.fabs
// CHECK-NOT: llvm.intr.floor
func.func @math(%X: !tile.view<?x?xf32>, %H: !tile.view<?x?xf16>, %S: !tile.view<?xf32>, %s: f32)
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<8x16xf32, #b>
  %h = tilegpu.load %H[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<8x16xf16, #b>
  %e = math.exp %x : tensor<8x16xf32, #b>
  %l = math.log %e : tensor<8x16xf32, #b>
  %t = math.tanh %l fastmath<afn> : tensor<8x16xf32, #b>
  %q = math.sqrt %t : tensor<8x16xf32, #b>
  %r = math.rsqrt %q : tensor<8x16xf32, #b>
  %a = math.absf %r : tensor<8x16xf32, #b>
  %f = math.floor %a : tensor<8x16xf32, #b>
  %he = math.exp2 %h : tensor<8x16xf16, #b>
  %ss = math.sqrt %s : f32
  tilegpu.store %f, %X[%c0, %c0] dims [0, 1] : tensor<8x16xf32, #b>, !tile.view<?x?xf32>
  tilegpu.store %he, %H[%c0, %c0] dims [0, 1] : tensor<8x16xf16, #b>, !tile.view<?x?xf16>
  %st = tile.splat %ss shape [8, 16] : f32 -> tensor<8x16xf32, #b>
  tilegpu.store %st, %X[%c0, %c0] dims [0, 1] : tensor<8x16xf32, #b>, !tile.view<?x?xf32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
// tanh without fastmath<afn> is precise (within 3 ulp), not tanh.approx.f32:
// below |x| = 0.55 an odd polynomial (Horner in x^2 by fma), above it
// 1 - 2 / (2^(2|x| log2(e)) + 1) with a correctly rounded division and the
// sign of x put back, one select between the two.
// CHECK-LABEL: gpu.func @tanh_precise
// CHECK-NOT: tanh.approx
// CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK: %[[AX:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK: %[[X2:.*]] = arith.mulf %[[X:.*]], %[[X]] : f32
// CHECK-COUNT-4: llvm.intr.fma
// CHECK: %[[SMALL:.*]] = llvm.intr.fma(%{{.*}}, %[[X]], %[[X]])
// CHECK: %[[TWOLOG2E:.*]] = arith.constant 2.885390e+00 : f32
// CHECK: %[[ARG:.*]] = arith.mulf %[[AX]], %[[TWOLOG2E]] : f32
// CHECK: %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[ARG]])
// CHECK: arith.addf %[[E]]
// CHECK: arith.divf
// CHECK: %[[SIGN:.*]] = arith.andi %[[BITS]], %{{.*}} : i32
// CHECK: %[[LARGE:.*]] = llvm.bitcast %{{.*}} : i32 to f32
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[AX]], %{{.*}} : f32
// CHECK: arith.select %[[LT]], %[[SMALL]], %[[LARGE]] : f32
// CHECK-NOT: tanh.approx
func.func @tanh_precise(%X: !tile.view<?x?xf32>)
    attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<8x4xf32, #b>
  %t = math.tanh %x : tensor<8x4xf32, #b>
  tilegpu.store %t, %X[%c0, %c0] dims [0, 1] : tensor<8x4xf32, #b>, !tile.view<?x?xf32>
  return
}

// -----

#b8 = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
// Inside the consumers of a warp-specialized kernel the barriers around the
// scratch area synchronize the 256 consumer threads only (named barrier 1,
// the id tilegpu-warp-specialize gives the consumers): the producer warps
// never reach them, so a bar.sync 0 of the whole block would hang.
// CHECK-LABEL: gpu.func @reduce_in_consumers
// CHECK: nvvm.setmaxregister increase 232
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[N:.*]] = arith.constant 256 : i32
// CHECK-NEXT: %[[ID:.*]] = arith.constant 1 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: %[[N2:.*]] = arith.constant 256 : i32
// CHECK-NEXT: %[[ID2:.*]] = arith.constant 1 : i32
// CHECK-NEXT: nvvm.barrier id = %[[ID2]] number_of_threads = %[[N2]]
// CHECK-NOT: nvvm.barrier0
// CHECK: gpu.return
func.func @reduce_in_consumers(%s: !tile.view<?xf32>) attributes {tilegpu.num_warps = 12 : i32} {
  %c0 = arith.constant 0 : i32
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.named_barrier 2, 128 arrive
  } consumers(warps = 8, regs = 232) {
    %t = tile.full 1.0 shape [32, 64] : tensor<32x64xf32, #b8>
    %r = tile.reduce %t sum axis 0 {tilegpu.scratch_offset = 0 : i64} : tensor<32x64xf32, #b8> -> tensor<64xf32, #tilegpu.slice<dim = 0, parent = #b8>>
    tilegpu.store %r, %s[%c0] dims [0] : tensor<64xf32, #tilegpu.slice<dim = 0, parent = #b8>>, !tile.view<?xf32>
  }
  return
}

// -----

#acc = #tilegpu.mma<version = 2, warps = [4, 1]>
#slab = #tilegpu.blocked<sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// A warp-local move (each warp keeps the 16 rows it holds; RegisterMove's
// warpLocal): warp barriers around the scratch writes, no block barrier, in
// a kernel as in the consumers of a warp-specialized one.
// CHECK-LABEL: gpu.func @convert_warp_local
// CHECK-NOT: nvvm.barrier
// CHECK: %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[ALL]] : i32
// CHECK: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
// CHECK: %[[ALL2:.*]] = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync %[[ALL2]] : i32
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @convert_warp_local_consumers
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads
// CHECK: nvvm.setmaxregister increase 232
// CHECK-NOT: nvvm.barrier
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.bar.warp.sync
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
func.func @convert_warp_local(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tile.full 1.0 shape [64, 16] : tensor<64x16xf32, #acc>
  %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = 0 : i64} : tensor<64x16xf32, #acc> -> tensor<64x16xf32, #slab>
  tilegpu.store %y, %A[%c0, %c0] dims [0, 1] : tensor<64x16xf32, #slab>, !tile.view<?x?xf32>
  return
}
func.func @convert_warp_local_consumers(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.named_barrier 2, 128 arrive
  } consumers(warps = 4, regs = 232) {
    %x = tile.full 1.0 shape [64, 16] : tensor<64x16xf32, #acc>
    %y = tilegpu.convert_layout %x {tilegpu.scratch_offset = 0 : i64} : tensor<64x16xf32, #acc> -> tensor<64x16xf32, #slab>
    tilegpu.store %y, %A[%c0, %c0] dims [0, 1] : tensor<64x16xf32, #slab>, !tile.view<?x?xf32>
  }
  return
}
