// Scalar atomics: thread 0 performs the atomic between two barriers and
// hands the old value to every thread through the scratch slot. In a
// warp-specialized kernel's consumers the barriers are the consumers' (id
// 1, their thread count) and thread 0 is the first consumer thread.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-allocate-shared -convert-tile-to-nvvm | FileCheck %s

// CHECK-LABEL: gpu.func @scalar_atomic_block
// CHECK: nvvm.barrier0
// CHECK: scf.if
// CHECK: llvm.fence syncscope("device") release
// CHECK-NEXT: llvm.atomicrmw add {{.*}} syncscope("device") monotonic
// CHECK-NEXT: llvm.fence syncscope("device") acquire
// CHECK: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} !llvm.ptr<3> -> i32
func.func @scalar_atomic_block(%L: !tile.view<?xi32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %old = tile.atomic add %c1, %L[%c0] sem acq_rel : i32, !tile.view<?xi32> -> i32
  tile.atomic xchg %old, %L[%c1] : i32, !tile.view<?xi32>
  return
}

// -----

// CHECK-LABEL: gpu.func @scalar_atomic_in_consumers
// The producer branch (tid >= 256) keeps its own barrier.
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: nvvm.barrier id = %[[ID:.*]] number_of_threads = %[[N:.*]]
// CHECK: scf.if
// CHECK: llvm.atomicrmw add
// CHECK: scf.if %[[FIRST]]
// CHECK-NEXT: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NEXT: llvm.load {{.*}} !llvm.ptr<3> -> i32
// CHECK-NOT: nvvm.barrier0
// CHECK: gpu.return
func.func @scalar_atomic_in_consumers(%L: !tile.view<?xi32>) attributes {tilegpu.num_warps = 12 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  tilegpu.warp_specialize producer(warps = 4, regs = 40) {
    tilegpu.named_barrier 2, 128 arrive
  } consumers(warps = 8, regs = 232) {
    %old = tile.atomic add %c1, %L[%c0] sem acq_rel : i32, !tile.view<?xi32> -> i32
    tile.atomic xchg %old, %L[%c1] : i32, !tile.view<?xi32>
  }
  return
}

// -----

// A `vector` tile add: each thread's four consecutive f32 columns (16-byte
// aligned: the view's align and a zero offset) in one red.global.add.v4.f32
// when the run is inside the view; else element by element.
#b4 = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK-LABEL: gpu.func @vector_red
// CHECK: scf.if
// CHECK: llvm.inline_asm has_side_effects {{.*}}"red.global.add.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f"
// CHECK: } else {
// CHECK-COUNT-4: llvm.atomicrmw fadd
// CHECK-NOT: llvm.atomicrmw
// CHECK: gpu.return
func.func @vector_red(%A: !tile.view<?xf32> {tile.align = 16 : i64}) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %t = tile.full 1.0 shape [128] : tensor<128xf32, #b4>
  tilegpu.atomic add %t, %A[%c0] dims [0] vector : tensor<128xf32, #b4>, !tile.view<?xf32>
  return
}
