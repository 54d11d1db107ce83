// tilegpu-allocate-shared: each tilegpu.alloc gets a 128-byte aligned offset
// in dynamic shared memory (a bump allocator in program order), the kernel
// gets the total as tilegpu.shared_bytes (a total above the target chip's
// shared memory per block is an error: tilegpu-allocate-shared-limit.mlir).
// Scratch areas for layout moves follow the buffers.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-allocate-shared | FileCheck %s

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#swz = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>

// Sizes: 16x64 f16 padded = 16 * 72 * 2 = 2304 bytes; a 3-stage ring of
// 16x16 f16 swizzled = 3 * 16 * 16 * 2 = 1536 bytes; 8x8 f16 = 128 bytes;
// 3x8 f16 padded = 3 * 16 * 2 = 96 bytes (not a multiple of 128, so the
// next buffer is realigned). Offsets: 0, 2304, 3840, 3968, 4096.
// CHECK-LABEL: func.func @offsets
// CHECK-SAME: tilegpu.shared_bytes = 4224 : i64
// CHECK: tilegpu.alloc {offset = 0 : i64} : <16x64xf16
// CHECK: tilegpu.alloc {offset = 2304 : i64} : <3x16x16xf16
// CHECK: tilegpu.alloc {offset = 3840 : i64} : <8x8xf16
// CHECK: tilegpu.alloc {offset = 3968 : i64} : <3x8xf16
// CHECK: tilegpu.alloc {offset = 4096 : i64} : <8x8xf16
func.func @offsets() attributes {tile.kernel = {}} {
  %a = tilegpu.alloc : !tilegpu.smem<16x64xf16, #pad>
  %b = tilegpu.alloc : !tilegpu.smem<3x16x16xf16, #swz>
  %c = tilegpu.alloc : !tilegpu.smem<8x8xf16, #swz>
  %d = tilegpu.alloc : !tilegpu.smem<3x8xf16, #pad>
  %e = tilegpu.alloc : !tilegpu.smem<8x8xf16, #swz>
  return
}

// -----

// Exactly at the limit is fine; allocations nested in regions count too:
// 2 * 16 * 56 * 2 = 3584 bytes, then 4 * 64 * 2 = 512.
// CHECK-LABEL: func.func @at_the_limit
// CHECK-SAME: tilegpu.shared_bytes = 4096 : i64
// CHECK: tilegpu.alloc {offset = 0 : i64} : <2x16x56xf16
// CHECK: tilegpu.alloc {offset = 3584 : i64} : <4x64xf16
#swz = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>
func.func @at_the_limit(%p: i1) attributes {tile.kernel = {}} {
  %a = tilegpu.alloc : !tilegpu.smem<2x16x56xf16, #swz>
  scf.if %p {
    %b = tilegpu.alloc : !tilegpu.smem<4x64xf16, #swz>
  }
  return
}

// -----

// Overwrites offsets assigned before; a function without allocations needs
// none.
// CHECK-LABEL: func.func @reassign
// CHECK-SAME: tilegpu.shared_bytes = 512 : i64
// CHECK: tilegpu.alloc {offset = 0 : i64}
// CHECK-LABEL: func.func @no_shared
// CHECK-SAME: tilegpu.shared_bytes = 0 : i64
#swz = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8>
func.func @reassign() {
  %a = tilegpu.alloc {offset = 1024 : i64} : !tilegpu.smem<16x16xf16, #swz>
  return
}
func.func @no_shared() {
  return
}

// -----

#row = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#acc = #tilegpu.mma<version = 2, warps = [4, 1]>
#slab = #tilegpu.blocked<sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// Scratch after the buffers: one area for the moves that synchronize the
// block (32x16 f32 transposed, padded rows: 2544 bytes, so the next area
// starts 2560 on), then one area for each warp-local move (each warp keeps
// its 16-row slabs: 5104 bytes; it synchronizes only its warp, so no other
// move may share its bytes).
// CHECK-LABEL: func.func @scratch_areas
// CHECK-SAME: tilegpu.shared_bytes = 15088 : i64
// CHECK: tilegpu.alloc {offset = 0 : i64}
// CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 2304 : i64} : tensor<32x16xf32, #{{.*}}> -> tensor<32x16xf32, #tilegpu.blocked<sizePerThread = [4, 1]
// CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 4864 : i64} : tensor<64x16xf32, #tilegpu.mma
// CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 9984 : i64} : tensor<64x16xf32, #tilegpu.mma
// CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 2304 : i64} : tensor<32x16xf32, #{{.*}}> -> tensor<32x16xf32, #tilegpu.blocked<sizePerThread = [1, 4]
func.func @scratch_areas(%x: tensor<32x16xf32, #row>, %m: tensor<64x16xf32, #acc>) attributes {tile.kernel = {}} {
  %buf = tilegpu.alloc : !tilegpu.smem<16x64xf16, #pad>
  %a = tilegpu.convert_layout %x : tensor<32x16xf32, #row> -> tensor<32x16xf32, #col>
  %b = tilegpu.convert_layout %m : tensor<64x16xf32, #acc> -> tensor<64x16xf32, #slab>
  %c = tilegpu.convert_layout %m : tensor<64x16xf32, #acc> -> tensor<64x16xf32, #slab>
  %d = tilegpu.convert_layout %a : tensor<32x16xf32, #col> -> tensor<32x16xf32, #row>
  return
}
