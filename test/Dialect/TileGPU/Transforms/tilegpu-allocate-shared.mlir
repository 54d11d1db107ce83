// tilegpu-allocate-shared: each tilegpu.alloc gets a 128-byte aligned offset
// in dynamic shared memory (a bump allocator in program order), the kernel
// gets the total as tilegpu.shared_bytes, and a total above
// max-shared-bytes is an error.
//
// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared=max-shared-bytes=4096 -verify-diagnostics | FileCheck %s --check-prefix=SMALL

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
// 4224 bytes are more than 4096.
// SMALL-NOT: func.func @offsets
// expected-error @+1 {{the kernel needs 4224 bytes of shared memory; 4096 are available per block (smaller tiles or fewer pipeline stages)}}
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
// SMALL-LABEL: func.func @at_the_limit
// SMALL-SAME: tilegpu.shared_bytes = 4096 : i64
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
