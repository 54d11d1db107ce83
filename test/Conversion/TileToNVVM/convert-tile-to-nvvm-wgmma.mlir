// tilegpu.mma with a version 3 (#mma) accumulator lowers to Hopper wgmma:
// a fence that the accumulator (and register A) pass through, one
// wgmma.mma_async per 16-wide k step with shared operands read through
// matrix descriptors, then commit and wait, which the results pass through.
//
// RUN: tile-opt %s -split-input-file -convert-tile-to-nvvm | FileCheck %s

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#kmajor = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#kmajorT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// A (64x128, K contiguous) and B (128x32 with K contiguous: order [0, 1])
// are both K-major. Descriptor: low word start >> 4 | LBO 1 << 16, computed
// once per operand (the start of the tile + 65536); high word SBO (1024 >>
// 4) | 128B swizzle (1 << 30) = 1073741888. Each k step adds its byte
// offset >> 4 to the low word: 32 bytes (2) inside a 128-byte piece, then
// the next piece: A's pieces are 64 rows * 128 bytes = 8192 bytes (512)
// apart, B's 32 * 128 = 4096 (256). The one warpgroup's rows start at
// warpgroup * 64 * 128 bytes of A; the warpgroup (tid / 128) is broadcast
// from lane 0, so that ptxas keeps what derives from it uniform. The zero
// accumulator is not materialized (poison through the fence): the first k
// step has scale-d = 0, the others 1.
// CHECK-LABEL: gpu.func @wgmma_k_major
// CHECK: %[[BPTR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK: %[[BSTART:.*]] = arith.shrui %[[BPTR]], %{{.*}} : i32
// CHECK-NEXT: %[[BLOW:.*]] = arith.addi %[[BSTART]], %{{.*}} : i32
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[WG:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK: %[[UWG:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WG]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NEXT: %[[AGROUP:.*]] = arith.muli %[[UWG]], %{{.*}} : i32
// CHECK-NEXT: %[[APTR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// CHECK-NEXT: %[[ABASE:.*]] = arith.addi %[[APTR]], %[[AGROUP]] : i32
// CHECK-NEXT: arith.constant 65536 : i32
// CHECK-NEXT: arith.constant 4 : i32
// CHECK-NEXT: %[[ASTART:.*]] = arith.shrui %[[ABASE]], %{{.*}} : i32
// CHECK-NEXT: %[[ALOW:.*]] = arith.addi %[[ASTART]], %{{.*}} : i32
// CHECK: %[[POISON:.*]] = llvm.mlir.poison : f32
// CHECK-NEXT: llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15" %[[POISON]], %[[POISON]],
// CHECK: %[[HIGH:.*]] = arith.constant 1073741888 : i32
// CHECK-NEXT: %[[AW:.*]] = vector.from_elements %[[ALOW]], %[[HIGH]] : vector<2xi32>
// CHECK-NEXT: %[[ADESC:.*]] = llvm.bitcast %[[AW]] : vector<2xi32> to i64
// CHECK: vector.from_elements %[[BLOW]], %{{.*}} : vector<2xi32>
// CHECK-NEXT: %[[BDESC:.*]] = llvm.bitcast %{{.*}} : vector<2xi32> to i64
// CHECK: %[[NOSCALE:.*]] = arith.constant 0 : i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $18, 0;\0Awgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, $16, $17, p, 1, 1, 0, 0;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,l,l,r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// CHECK-SAME: %[[ADESC]], %[[BDESC]], %[[NOSCALE]], %{{.*}}
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: arith.addi %[[ALOW]], %[[C2]] : i32
// CHECK: arith.constant 2 : i32
// CHECK-NEXT: arith.addi %[[BLOW]], %{{.*}} : i32
// CHECK: %[[SCALE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.inline_asm {{.*}}wgmma.mma_async{{.*}} %{{.*}}, %{{.*}}, %[[SCALE]], %{{.*}}
// CHECK: arith.constant 4 : i32
// CHECK: arith.constant 4 : i32
// CHECK: wgmma.mma_async
// CHECK: arith.constant 6 : i32
// CHECK: arith.constant 6 : i32
// CHECK: wgmma.mma_async
// CHECK: arith.constant 512 : i32
// CHECK: arith.constant 256 : i32
// CHECK: wgmma.mma_async
// CHECK: arith.constant 518 : i32
// CHECK: arith.constant 262 : i32
// CHECK: wgmma.mma_async
// CHECK-NOT: wgmma.mma_async
// CHECK: llvm.inline_asm has_side_effects "wgmma.commit_group.sync.aligned;\0Awgmma.wait_group.sync.aligned 0;", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: nvvm.ldmatrix
// CHECK: gpu.return
func.func @wgmma_k_major(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x128xf16, #kmajor>
  %b = tilegpu.alloc {offset = 16384 : i64} : !tilegpu.smem<128x32xf16, #kmajorT>
  %acc = tile.full 0.0 shape [64, 32] : tensor<64x32xf32, #mma>
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<64x128xf16, #kmajor>,
      !tilegpu.smem<128x32xf16, #kmajorT>, tensor<64x32xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<64x32xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#nmajor = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// Attention's P V: A is the bf16 P in registers (the mma.sync A fragment of
// each warp: four packed pairs per k step, 16 for K = 64, all passing
// through the fence with the 64 accumulators), B is V (64 keys x 128, N
// contiguous): MN-major, so transposed (last flag 1), with LBO = the next 64
// columns = 64 * 128 bytes (512 << 16 = 33554432 in the low word) and k
// steps of 16 rows = 2048 bytes (128 added to the low word).
// CHECK-LABEL: gpu.func @wgmma_register_a
// CHECK: arith.constant 33554432 : i32
// CHECK: llvm.inline_asm has_side_effects "wgmma.fence.sync.aligned;"
// CHECK-SAME: 79"
// CHECK-SAME: -> !llvm.struct<(f32, {{.*}}, f32, i32, {{.*}}, i32)>
// CHECK: arith.constant 1073741888 : i32
// CHECK: "{\0A.reg .pred p;\0Asetp.ne.b32 p, $69, 0;\0Awgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.*}}, $63}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}"
// CHECK: arith.constant 128 : i32
// CHECK: wgmma.mma_async
// CHECK: arith.constant 256 : i32
// CHECK: wgmma.mma_async
// CHECK: arith.constant 384 : i32
// CHECK: wgmma.mma_async
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned
func.func @wgmma_register_a(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %v = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x128xbf16, #nmajor>
  %s = tile.full 1.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %p = tile.astype %s : tensor<64x64xf32, #mma> -> tensor<64x64xbf16, #mma>
  %acc = tile.full 0.0 shape [64, 128] : tensor<64x128xf32, #mma>
  %d = tilegpu.mma %p, %v, %acc : tensor<64x64xbf16, #mma>,
      !tilegpu.smem<64x128xbf16, #nmajor>, tensor<64x128xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [8, 1]>
#kmajor = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// In a kernel with wgmma every cp.async wait is followed by a proxy fence,
// so that the copies are visible to the wgmma (async proxy) after the
// barrier. Two repetitions of 128 rows on two warpgroups: warpgroup g takes
// rows 64 g and 128 + 64 g, so the second set of four instructions (K = 64)
// starts 128 rows (16384 bytes, 1024 in the descriptor's low word) further
// into A.
// CHECK-LABEL: gpu.func @wgmma_fences
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.barrier0
// CHECK: wgmma.fence.sync.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16
// CHECK: arith.constant 1024 : i32
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16
// CHECK-NOT: wgmma.mma_async
func.func @wgmma_fences(%A: !tile.view<?x?xf16>, %O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<256x64xf16, #kmajor>
  %b = tilegpu.alloc {offset = 32768 : i64} : !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>
  tilegpu.async_copy %A[%c0, %c0] dims [0, 1] into %a : !tile.view<?x?xf16>, !tilegpu.smem<256x64xf16, #kmajor>
  tilegpu.async_commit
  tilegpu.async_wait 0
  tilegpu.barrier
  %acc = tile.full 0.0 shape [256, 64] : tensor<256x64xf32, #mma>
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<256x64xf16, #kmajor>,
      !tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>>, tensor<256x64xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<256x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// An asynchronous mma commits without waiting; tilegpu.mma_wait is
// wgmma.wait_group with the accumulator tied through it (and the register
// operand P, packed as the mma packs it, tied too, so it stays intact).
// CHECK-LABEL: gpu.func @wgmma_async
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16
// CHECK: llvm.inline_asm has_side_effects "wgmma.commit_group.sync.aligned;", "=f,{{.*}}"
// CHECK-NOT: wgmma.wait_group
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 1;", "=f,{{.*}},=f,=r,{{.*}},=r,0,1,{{.*}},46,47" {{.*}} : (f32, {{.*}}, f32, i32, {{.*}}, i32) -> !llvm.struct
// CHECK-NOT: wgmma.wait_group
// CHECK: gpu.return
func.func @wgmma_async(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %v = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x64xf16, #wg>
  %s = tile.full 1.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %p = tile.astype %s : tensor<64x64xf32, #mma> -> tensor<64x64xf16, #mma>
  %acc = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %d = tilegpu.mma %p, %v, %acc {async} : tensor<64x64xf16, #mma>,
      !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
  %w:2 = tilegpu.mma_wait %d, %p {pending = 1 : i32} : tensor<64x64xf32, #mma>, tensor<64x64xf16, #mma>
  tilegpu.store %w#0, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>

// A pinned wait puts membar.cta right before wgmma.wait_group, in the same
// asm statement: ptxas schedules nothing across the membar, so the work
// before the wait stays before it (a bare wait is hoisted into that work).
// CHECK-LABEL: gpu.func @wgmma_pinned_wait
// CHECK: llvm.inline_asm has_side_effects "membar.cta;\0Awgmma.wait_group.sync.aligned 0;", "=f,{{.*}}"
// CHECK-NOT: membar
// CHECK: gpu.return
func.func @wgmma_pinned_wait(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %v = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x64xf16, #wg>
  %acc = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  %d = tilegpu.mma %v, %v, %acc {async} : !tilegpu.smem<64x64xf16, #wg>,
      !tilegpu.smem<64x64xf16, #wg>, tensor<64x64xf32, #mma>
  %w = tilegpu.mma_wait %d {pending = 0 : i32, pin} : tensor<64x64xf32, #mma>
  tilegpu.store %w, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}
