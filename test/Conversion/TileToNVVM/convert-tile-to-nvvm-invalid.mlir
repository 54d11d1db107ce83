// convert-tile-to-nvvm errors: what the conversion cannot lower is reported
// at the op (or kernel), never a crash.
//
// RUN: tile-opt %s -split-input-file -convert-tile-to-nvvm -verify-diagnostics

// A kernel's results have no launch ABI.
// expected-error @+1 {{a kernel returns nothing}}
func.func @returns(%x: i32) -> i32 attributes {tilegpu.num_warps = 1 : i32} {
  return %x : i32
}

// -----

// Arguments are views and scalars only.
// expected-error @+1 {{kernel argument type 'tensor<16x8xf32>' has no launch ABI}}
func.func @tensor_arg(%x: tensor<16x8xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// Shared buffers need their offsets first.
func.func @no_offset(%A: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  // expected-error @+2 {{'tilegpu.alloc' op has no offset: run tilegpu-allocate-shared}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.alloc' that was explicitly marked illegal}}
  %b = tilegpu.alloc : !tilegpu.smem<16x16xf16, #pad>
  tilegpu.async_copy %A[%c0, %c0] dims [0, 1] into %b : !tile.view<?x?xf16>, !tilegpu.smem<16x16xf16, #pad>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [2, 1]>
// A reduction across warps needs the scratch area tilegpu-allocate-shared
// gives it.
func.func @reduce_without_scratch(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<32x8xf32, #mma>
  // expected-error @+2 {{'tile.reduce' op needs shared-memory scratch but has no tilegpu.scratch_offset: run tilegpu-allocate-shared}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
  %s = tile.reduce %x sum axis 0 keepdims : tensor<32x8xf32, #mma> -> tensor<1x8xf32, #mma>
  tilegpu.store %s, %A[%c0, %c0] dims [1] : tensor<1x8xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#rows = #tilegpu.slice<dim = 1, parent = #mma>
func.func @reduce_f16(%A: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x8xf16, #mma>
  // expected-error @+2 {{'tile.reduce' op reductions of 'f16' are not lowered (f32 and i32 are)}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
  %s = tile.reduce %x max axis 1 keepdims : tensor<16x8xf16, #mma> -> tensor<16x1xf16, #rows>
  tilegpu.store %s, %A[%c0, %c0] dims [0] : tensor<16x1xf16, #rows>, !tile.view<?x?xf16>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
func.func @exp2_f16(%A: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x8xf16, #mma>
  // expected-error @+2 {{'tile.exp2' op exp2 is lowered for f32 tiles}}
  // expected-error @+1 {{failed to legalize operation 'tile.exp2' that was explicitly marked illegal}}
  %e = tile.exp2 %x : tensor<16x8xf16, #mma>
  tilegpu.store %e, %A[%c0, %c0] dims [0, 1] : tensor<16x8xf16, #mma>, !tile.view<?x?xf16>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#pad4 = #tilegpu.shared<order = [1, 0], vec = 4, perPhase = 1, maxPhase = 1, pad = 4>
func.func @mma_f32(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x16xf32, #pad4>
  %b = tilegpu.alloc {offset = 2048 : i64} : !tilegpu.smem<16x8xf32, #pad4>
  %acc = tile.full 0.0 shape [16, 8] : tensor<16x8xf32, #mma>
  // expected-error @+2 {{'tilegpu.mma' op mma.sync is lowered for f16 and bf16}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma' that was explicitly marked illegal}}
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<16x16xf32, #pad4>, !tilegpu.smem<16x8xf32, #pad4>, tensor<16x8xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<16x8xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// tilegpu-assign-layouts rejects this shape earlier; hand-written tilegpu
// IR gets the lowering's own error.
func.func @mma_k8(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x8xf16, #pad>
  %b = tilegpu.alloc {offset = 1024 : i64} : !tilegpu.smem<8x8xf16, #pad>
  %acc = tile.full 0.0 shape [16, 8] : tensor<16x8xf32, #mma>
  // expected-error @+2 {{'tilegpu.mma' op K = 8 must be a multiple of 16}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma' that was explicitly marked illegal}}
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<16x8xf16, #pad>, !tilegpu.smem<8x8xf16, #pad>, tensor<16x8xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<16x8xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// cp.async moves whole 16-byte vectors.
func.func @copy_ragged_row(%A: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %b = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<8x12xf16, #pad>
  // expected-error @+2 {{'tilegpu.async_copy' op the contiguous tile dimension (12) must be a multiple of 8}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.async_copy' that was explicitly marked illegal}}
  tilegpu.async_copy %A[%c0, %c0] dims [0, 1] into %b : !tile.view<?x?xf16>, !tilegpu.smem<8x12xf16, #pad>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
// Layouts over different numbers of warps have no register move.
func.func @convert_layout(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<32x8xf32, #mma>
  // expected-error @+2 {{'tilegpu.convert_layout' op has no register move from 'tensor<32x8xf32, #tilegpu.mma<version = 2, warps = [1, 1]>>' to 'tensor<32x8xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>'}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.convert_layout' that was explicitly marked illegal}}
  %y = tilegpu.convert_layout %x : tensor<32x8xf32, #mma> -> tensor<32x8xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>
  tilegpu.store %y, %A[%c0, %c0] dims [0, 1] : tensor<32x8xf32, #tilegpu.mma<version = 2, warps = [2, 1]>>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
#wg = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
// wgmma descriptors read only the 128B-swizzle layout with 128-byte pieces.
func.func @wgmma_padded(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x64xf16, #wg>
  %b = tilegpu.alloc {offset = 8192 : i64} : !tilegpu.smem<64x64xf16, #pad>
  %acc = tile.full 0.0 shape [64, 64] : tensor<64x64xf32, #mma>
  // expected-error @+2 {{'tilegpu.mma' op a wgmma operand needs the 128B-swizzle layout with 128-byte pieces and whole 8-row atoms, got '!tilegpu.smem<64x64xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>'}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma'}}
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<64x64xf16, #wg>,
      !tilegpu.smem<64x64xf16, #pad>, tensor<64x64xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<64x64xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
// Math functions outside the set lowered without libdevice are named.
func.func @math_sin(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<8x16xf32, #b>
  // expected-error @+2 {{'math.sin' op is not lowered for the GPU (no libdevice is linked): math functions are exp, exp2, log, log2, tanh, sqrt, rsqrt, floor and ceil on f32/f16/bf16, and fma, absf, copysign, absi}}
  // expected-error @+1 {{failed to legalize operation 'math.sin' that was explicitly marked illegal}}
  %y = math.sin %x : tensor<8x16xf32, #b>
  tilegpu.store %y, %A[%c0, %c0] dims [0, 1] : tensor<8x16xf32, #b>, !tile.view<?x?xf32>
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// cp.async cannot copy from a view aligned below 4 bytes
// (tilegpu-assign-layouts stages such operands through registers).
func.func @copy_narrow(%A: !tile.view<?x?xf16> {tile.align = 2 : i64}) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %buf = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x16xf16, #pad>
  // expected-error @+2 {{'tilegpu.async_copy' op cp.async needs views aligned to 4 bytes at least (this one: 2)}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.async_copy' that was explicitly marked illegal}}
  tilegpu.async_copy %A[%c0, %c0] dims [0, 1] into %buf : !tile.view<?x?xf16>, !tilegpu.smem<16x16xf16, #pad>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
// Rounded or flushed division is lowered for f32 only.
func.func @div_f16(%A: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x8xf16, #mma>
  // expected-error @+2 {{'tile.div' op rounded division is lowered for f32 tiles}}
  // expected-error @+1 {{failed to legalize operation 'tile.div' that was explicitly marked illegal}}
  %d = tile.div %x, %x flush_to_zero : tensor<16x8xf16, #mma>
  tilegpu.store %d, %A[%c0, %c0] dims [0, 1] : tensor<16x8xf16, #mma>, !tile.view<?x?xf16>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#kmajor = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#kmajor4 = #tilegpu.shared<order = [1, 0], vec = 4, perPhase = 1, maxPhase = 8, chunk = 32>
// wgmma multiplies 16-bit and fp8 operands.
func.func @wgmma_f32(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x32xf32, #kmajor4>
  %b = tilegpu.alloc {offset = 16384 : i64} : !tilegpu.smem<32x32xf32, #kmajor4>
  %acc = tile.full 0.0 shape [64, 32] : tensor<64x32xf32, #mma>
  // expected-error @+2 {{'tilegpu.mma' op wgmma is lowered for f16, bf16, f8E4M3FN and f8E5M2}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma' that was explicitly marked illegal}}
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<64x32xf32, #kmajor4>, !tilegpu.smem<32x32xf32, #kmajor4>, tensor<64x32xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<64x32xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#kmajor = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
#kmajorT = #tilegpu.shared<order = [0, 1], vec = 8, perPhase = 1, maxPhase = 8, chunk = 64>
// N = 264: wgmma goes up to N = 256.
func.func @wgmma_n(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x128xf16, #kmajor>
  %b = tilegpu.alloc {offset = 16384 : i64} : !tilegpu.smem<128x264xf16, #kmajorT>
  %acc = tile.full 0.0 shape [64, 264] : tensor<64x264xf32, #mma>
  // expected-error @+2 {{'tilegpu.mma' op a 64x264x128 mma with 4 warps does not fit wgmma m64nNk16 (K a multiple of 16, N of 8 up to 256, whole warpgroups)}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma' that was explicitly marked illegal}}
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<64x128xf16, #kmajor>, !tilegpu.smem<128x264xf16, #kmajorT>, tensor<64x264xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<64x264xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
// The wait ties registers of f32 or 16-bit tiles to the wgmma.
func.func @wait_i8(%A: !tile.view<?x?xi8>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xi8> -> tensor<64x8xi8, #mma>
  // expected-error @+2 {{'tilegpu.mma_wait' op waits for f32 or 16-bit tiles only}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma_wait' that was explicitly marked illegal}}
  %w = tilegpu.mma_wait %x {pending = 0 : i32} : tensor<64x8xi8, #mma>
  tilegpu.store %w, %A[%c0, %c0] dims [0, 1] : tensor<64x8xi8, #mma>, !tile.view<?x?xi8>
  return
}

// -----

#mma1 = #tilegpu.mma<version = 2, warps = [1, 1]>
#mma2 = #tilegpu.mma<version = 2, warps = [2, 1]>
#rows2b = #tilegpu.slice<dim = 1, parent = #mma2>
// A broadcast keeps each value in its thread: a 2-warp slice cannot feed a
// 1-warp #mma tile, whose threads hold rows the slice gives other warps.
func.func @broadcast_threads(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<32x1xf32, #rows2b>
  // expected-error @+2 {{'tile.broadcast' op broadcast between layouts that do not share threads}}
  // expected-error @+1 {{failed to legalize operation 'tile.broadcast' that was explicitly marked illegal}}
  %b = tile.broadcast %x shape [32, 8] : tensor<32x1xf32, #rows2b> -> tensor<32x8xf32, #mma1>
  tilegpu.store %b, %A[%c0, %c0] dims [0, 1] : tensor<32x8xf32, #mma1>, !tile.view<?x?xf32>
  return
}

// -----

#mma1 = #tilegpu.mma<version = 2, warps = [1, 1]>
#mma2 = #tilegpu.mma<version = 2, warps = [2, 1]>
#rows2 = #tilegpu.slice<dim = 1, parent = #mma2>
// The same for a reduction: the result must be held by the threads that
// hold the source rows it reduces.
func.func @reduce_layouts(%A: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<32x8xf32, #mma1>
  // expected-error @+2 {{'tile.reduce' op the result layout does not keep the source's threads}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
  %s = tile.reduce %x sum axis 1 keepdims : tensor<32x8xf32, #mma1> -> tensor<32x1xf32, #rows2>
  tilegpu.store %s, %A[%c0, %c0] dims [0, 1] : tensor<32x1xf32, #rows2>, !tile.view<?x?xf32>
  return
}

// -----

#pad = #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>
// The thread range of a warp-specialized copy is [first, count].
func.func @copy_threads(%A: !tile.view<?x?xf16>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %b = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x16xf16, #pad>
  // expected-error @+2 {{'tilegpu.async_copy' op tilegpu.threads must be [first, count]}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.async_copy' that was explicitly marked illegal}}
  tilegpu.async_copy %A[%c0, %c0] dims [0, 1] into %b {tilegpu.threads = array<i32: 0>} : !tile.view<?x?xf16>, !tilegpu.smem<16x16xf16, #pad>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
// Integer tiles have no infinity or NaN to pad with (tile.load refuses it;
// a tilegpu.load written directly is refused here).
func.func @pad_int_inf(%A: !tile.view<?x?xi32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  // expected-error @+2 {{'tilegpu.load' op pads an integer tile with infinity}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.load' that was explicitly marked illegal}}
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] padding neg_inf : !tile.view<?x?xi32> -> tensor<8x16xi32, #b>
  tilegpu.store %x, %A[%c0, %c0] dims [0, 1] : tensor<8x16xi32, #b>, !tile.view<?x?xi32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
func.func @pad_int_nan(%A: !tile.view<?x?xi32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  // expected-error @+2 {{'tilegpu.load' op pads an integer tile with NaN}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.load' that was explicitly marked illegal}}
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] padding nan : !tile.view<?x?xi32> -> tensor<8x16xi32, #b>
  tilegpu.store %x, %A[%c0, %c0] dims [0, 1] : tensor<8x16xi32, #b>, !tile.view<?x?xi32>
  return
}

// -----

#mma = #tilegpu.mma<version = 2, warps = [1, 1]>
#rows = #tilegpu.slice<dim = 1, parent = #mma>
// argmax reaches the conversion only when tilegpu-expand-reductions did not
// run.
func.func @argmax_unexpanded(%A: !tile.view<?x?xf32>, %I: !tile.view<?x?xi32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<16x8xf32, #mma>
  // expected-error @+2 {{'tile.reduce' op argmax and argmin are lowered by tilegpu-expand-reductions first}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
  %s = tile.reduce %x argmax axis 1 keepdims : tensor<16x8xf32, #mma> -> tensor<16x1xi32, #rows>
  tilegpu.store %s, %I[%c0, %c0] dims [0] : tensor<16x1xi32, #rows>, !tile.view<?x?xi32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// A tile atomic is lowered through tilegpu.atomic (tilegpu-lower-memory-ops).
func.func @tile_atomic_unlowered(%A: !tile.view<?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %t = tile.full 1.0 shape [32] : tensor<32xf32, #b>
  // expected-error @+2 {{'tile.atomic' op a tile atomic reaches the lowering: run tilegpu-lower-memory-ops}}
  // expected-error @+1 {{failed to legalize operation 'tile.atomic' that was explicitly marked illegal}}
  tile.atomic add %t, %A[%c0] : tensor<32xf32, #b>, !tile.view<?xf32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// Old values of a tile that two lanes hold each (16 elements over 32 lanes)
// would need a broadcast from the owner: not lowered.
func.func @atomic_replicated_result(%A: !tile.view<?xf32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %t = tile.full 1.0 shape [16] : tensor<16xf32, #b>
  // expected-error @+2 {{'tilegpu.atomic' op returns old values from a tile held by several threads each (a layout that replicates it): not lowered}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.atomic' that was explicitly marked illegal}}
  %o = tilegpu.atomic add %t, %A[%c0] dims [0] : tensor<16xf32, #b>, !tile.view<?xf32> -> tensor<16xf32, #b>
  tilegpu.store %o, %A[%c0] dims [0] : tensor<16xf32, #b>, !tile.view<?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg8 = #tilegpu.shared<order = [1, 0], vec = 16, perPhase = 1, maxPhase = 8, chunk = 128>
#wg8t = #tilegpu.shared<order = [0, 1], vec = 16, perPhase = 1, maxPhase = 8, chunk = 128>
// fp8 wgmma has no transposed operands: B (K x N) must be K-major (order
// [0, 1]), not N-major.
func.func @wgmma_fp8_n_major(%O: !tile.view<?x?xf32>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x128xf8E4M3FN, #wg8>
  %b = tilegpu.alloc {offset = 8192 : i64} : !tilegpu.smem<128x128xf8E4M3FN, #wg8>
  %acc = tile.full 0.0 shape [64, 128] : tensor<64x128xf32, #mma>
  // expected-error @+2 {{'tilegpu.mma' op fp8 wgmma has no transposed operands: A and B must be K-major in shared memory}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma'}}
  %d = tilegpu.mma %a, %b, %acc : !tilegpu.smem<64x128xf8E4M3FN, #wg8>,
      !tilegpu.smem<128x128xf8E4M3FN, #wg8>, tensor<64x128xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#mma = #tilegpu.mma<version = 3, warps = [4, 1]>
#wg8t = #tilegpu.shared<order = [0, 1], vec = 16, perPhase = 1, maxPhase = 8, chunk = 128>
// fp8 wgmma reads A from shared memory (no register-A form here).
func.func @wgmma_fp8_register_a(%O: !tile.view<?x?xf32>, %A: !tile.view<?x?xf8E4M3FN>) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf8E4M3FN> -> tensor<64x128xf8E4M3FN, #mma>
  %b = tilegpu.alloc {offset = 8192 : i64} : !tilegpu.smem<128x128xf8E4M3FN, #wg8t>
  %acc = tile.full 0.0 shape [64, 128] : tensor<64x128xf32, #mma>
  // expected-error @+2 {{'tilegpu.mma' op fp8 wgmma reads A from shared memory only}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.mma'}}
  %d = tilegpu.mma %a, %b, %acc : tensor<64x128xf8E4M3FN, #mma>,
      !tilegpu.smem<128x128xf8E4M3FN, #wg8t>, tensor<64x128xf32, #mma>
  tilegpu.store %d, %O[%c0, %c0] dims [0, 1] : tensor<64x128xf32, #mma>, !tile.view<?x?xf32>
  return
}

// -----

#b = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
// fp8 converts to and from floats only.
func.func @fp8_to_int(%A: !tile.view<?x?xf8E4M3FN>, %B: !tile.view<?x?xi32>) attributes {tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf8E4M3FN> -> tensor<8x16xf8E4M3FN, #b>
  // expected-error @+2 {{'tile.astype' op fp8 converts to and from f16, bf16 and f32 only, got 'f8E4M3FN' -> 'i32'}}
  // expected-error @+1 {{failed to legalize operation 'tile.astype'}}
  %y = tile.astype %x : tensor<8x16xf8E4M3FN, #b> -> tensor<8x16xi32, #b>
  tilegpu.store %y, %B[%c0, %c0] dims [0, 1] : tensor<8x16xi32, #b>, !tile.view<?x?xi32>
  return
}
