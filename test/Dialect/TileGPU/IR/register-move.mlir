// Register moves (RegisterMove in Layouts.cpp: what tilegpu.convert_layout,
// tile.reshape and tile.permute lower to) run on the host for every thread
// by -test-tilegpu-register-move: each thread writes its source elements
// at the scratch offsets the lowering uses and reads its destination
// elements back; the pass fails on any wrong element, collision, offset out
// of the scratch area, broken vector or wrong base + immediate address.
// The kind and the plan are checked here: free moves, register shuffles,
// and through shared memory with row padding by the wider access; a move
// marked warp-local fails the pass if a warp touches another's scratch.
//
// RUN: tile-opt %s -split-input-file -test-tilegpu-register-move -o /dev/null | FileCheck %s

#row = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#col = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>
// Rows of 16 f32 padded by 4 (the writer's 16-byte vectors): (15 * 20 +
// 16) * 4 bytes.
// CHECK-LABEL: @rows_to_columns: move shared, rows of 16 + pad 4, write 4, read 1, 1264 bytes
// CHECK-NEXT: verified 32 threads
func.func @rows_to_columns(%a: tensor<16x16xf32, #row>, %b: tensor<16x16xf32, #col>) { return }

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#blocked = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// A GEMM epilogue: accumulator fragments (pairs) to 16-byte rows.
// CHECK-LABEL: @mma_to_blocked: move shared, rows of 64 + pad 4, write 2, read 4, 17392 bytes{{$}}
// CHECK-NEXT: verified 128 threads
func.func @mma_to_blocked(%a: tensor<64x64xf32, #mma>, %b: tensor<64x64xf32, #blocked>) { return }

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
#blocked = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: @blocked_to_mma_f16: move shared, rows of 64 + pad 8, write 8, read 2, 9200 bytes
// CHECK-NEXT: verified 128 threads
func.func @blocked_to_mma_f16(%a: tensor<64x64xf16, #blocked>, %b: tensor<64x64xf16, #mma>) { return }

// -----

#mma = #tilegpu.mma<version = 2, warps = [4, 1]>
// The keepdims tile and the 1-d slice hold the same registers.
// CHECK-LABEL: @keepdims_to_slice: move none
// CHECK-NEXT: verified 128 threads
func.func @keepdims_to_slice(%a: tensor<64x1xf32, #mma>, %b: tensor<64xf32, #tilegpu.slice<dim = 1, parent = #mma>>) { return }

// -----

#row = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#permuted = #tilegpu.blocked<sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
// tile.permute [1, 0] into the permuted layout moves nothing.
// CHECK-LABEL: @permute_free: move none
// CHECK-NEXT: verified 128 threads
func.func @permute_free(%a: tensor<64x32xf16, #row>, %b: tensor<32x64xf16, #permuted>)
    attributes {test.permutation = array<i64: 1, 0>} { return }

// -----

#row = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#out = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// tile.permute [1, 0] into a row-major layout: a transpose through shared
// memory (elements at their destination positions).
// CHECK-LABEL: @permute_transpose: move shared, rows of 64 + pad 8, write 1, read 8, 4592 bytes
// CHECK-NEXT: verified 128 threads
func.func @permute_transpose(%a: tensor<64x32xf16, #row>, %b: tensor<32x64xf16, #out>)
    attributes {test.permutation = array<i64: 1, 0>} { return }

// -----

#b2 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
#b1 = #tilegpu.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// Merging rows into one dimension: the same registers when the rows are
// whole multiples of the warps' span...
// CHECK-LABEL: @reshape_merge_free: move none
// CHECK-NEXT: verified 128 threads
func.func @reshape_merge_free(%a: tensor<4x1024xf16, #b2>, %b: tensor<4096xf16, #b1>) { return }

// -----

#b2 = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#b1 = #tilegpu.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// ...and through shared memory otherwise.
// CHECK-LABEL: @reshape_merge_moved: move shared, rows of 4096 + pad 8, write 8, read 8, 8192 bytes
// CHECK-NEXT: verified 128 threads
func.func @reshape_merge_moved(%a: tensor<128x32xf16, #b2>, %b: tensor<4096xf16, #b1>) { return }

// -----

#r = #tilegpu.blocked<sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]>
#c = #tilegpu.blocked<sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]>
// The same elements per thread in another register order: a shuffle.
// CHECK-LABEL: @register_order: move permutation
// CHECK-NEXT: verified 32 threads
func.func @register_order(%a: tensor<2x64xf32, #r>, %b: tensor<2x64xf32, #c>) { return }

// -----

#p = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#b1 = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// Replicated on both sides (a bias row of a 2-d layout to a 1-d one with
// one element per thread): every replica writes the same value.
// CHECK-LABEL: @replicated: move shared, rows of 64 + pad 4, write 4, read 1, 256 bytes{{$}}
// CHECK-NEXT: verified 128 threads
func.func @replicated(%a: tensor<64xf32, #tilegpu.slice<dim = 0, parent = #p>>, %b: tensor<64xf32, #b1>) { return }

// -----

#row = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]>
#col = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]>
// Masks (i1) go through memory as bytes; 12 rows is not a power of two,
// so addresses take the full index.
// CHECK-LABEL: @bools_ragged: move shared, rows of 16 + pad 4, write 4, read 1, 236 bytes
// CHECK-NEXT: verified 64 threads
func.func @bools_ragged(%a: tensor<12x16xi1, #row>, %b: tensor<12x16xi1, #col>) { return }

// -----

#acc = #tilegpu.mma<version = 3, warps = [8, 1]>
#slab = #tilegpu.blocked<sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
#interleaved = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
// The fmha epilogue (tilegpu-assign-layouts' store layout): warp w holds
// rows 16w..16w+15 of the wgmma accumulator and of the 16-byte rows of 8
// rows a thread, so the move is warp-local; with one row a thread, warp w
// reads rows 2w, 2w+1, 2w+16, ... that other warps computed.
// CHECK-LABEL: @wgmma_epilogue_slabs: move shared, rows of 128 + pad 8, write 2, read 8, 34800 bytes, warp-local
// CHECK-NEXT: verified 256 threads
func.func @wgmma_epilogue_slabs(%a: tensor<128x128xf16, #acc>, %b: tensor<128x128xf16, #slab>) { return }
// CHECK-LABEL: @wgmma_epilogue_interleaved: move shared, rows of 128 + pad 8, write 2, read 8, 34800 bytes{{$}}
// CHECK-NEXT: verified 256 threads
func.func @wgmma_epilogue_interleaved(%a: tensor<128x128xf16, #acc>, %b: tensor<128x128xf16, #interleaved>) { return }

// -----

#acc = #tilegpu.mma<version = 2, warps = [4, 1]>
#slab = #tilegpu.blocked<sizePerThread = [8, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// mma.sync repeats its 64-row block tile: warp w holds rows 16w.. and
// 64+16w..; so does the blocked layout that repeats 64 rows.
// CHECK-LABEL: @mma_sync_repeated_slabs: move shared, rows of 64 + pad 4, write 2, read 4, 34800 bytes, warp-local
// CHECK-NEXT: verified 128 threads
func.func @mma_sync_repeated_slabs(%a: tensor<128x64xf32, #acc>, %b: tensor<128x64xf32, #slab>) { return }
