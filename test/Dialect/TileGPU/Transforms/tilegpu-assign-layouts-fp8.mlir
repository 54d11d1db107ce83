// tilegpu-assign-layouts with fp8 (f8E4M3FN, f8E5M2) mma operands: wgmma
// only (no mma.sync fallback), both operands K-major loads staged in the
// 128B-swizzle layout of 1-byte elements (128-element pieces); located
// errors where wgmma cannot be used, and for fp8 conversions before sm_89.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts -verify-diagnostics | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts='mma-version=2' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNC

// A [128, 128] row-major and B read K x N from an N x K view (dims [1, 0]):
// both K-major, 128-element pieces, wgmma (version 3).
// CHECK-LABEL: func.func @kmajor
// CHECK-SAME: tilegpu.mma_version = 3 : i32
// CHECK-DAG: tilegpu.alloc : <128x128xf8E4M3FN, #tilegpu.shared<order = [1, 0], vec = 16, perPhase = 1, maxPhase = 8, chunk = 128>>
// CHECK-DAG: tilegpu.alloc : <128x64xf8E4M3FN, #tilegpu.shared<order = [0, 1], vec = 16, perPhase = 1, maxPhase = 8, chunk = 128>>
// CHECK: tilegpu.mma {{.*}} : !tilegpu.smem<128x128xf8E4M3FN, {{.*}}>, <128x64xf8E4M3FN, {{.*}}>, tensor<128x64xf32, #tilegpu.mma<version = 3, warps = [8, 1]>>
// SM80: tilegpu-assign-layouts-fp8.mlir:[[# @LINE + 9]]:8: error: 'tile.mma' op fp8 operands need Hopper's wgmma (chip sm_90a, mma-version 0 or 3); chip 'sm_80' with mma-version 0 lowers mma.sync, which is lowered for f16 and bf16 only
// SYNC: tilegpu-assign-layouts-fp8.mlir:[[# @LINE + 8]]:8: error: 'tile.mma' op fp8 operands need Hopper's wgmma (chip sm_90a, mma-version 0 or 3); chip 'sm_90a' with mma-version 2 lowers mma.sync, which is lowered for f16 and bf16 only
func.func @kmajor(%A: !tile.view<?x?xf8E4M3FN>, %B: !tile.view<?x?xf8E4M3FN>,
                  %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 8 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
  %b = tilegpu.load %B[%c0, %c0] dims [1, 0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x64xf8E4M3FN>
  %z = tile.full 0.0 shape [128, 64] : tensor<128x64xf32>
  %d = tile.mma %a, %b, %z : tensor<128x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<128x64xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<128x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// B stored K x N (N contiguous): fp8 wgmma has no transposed B.
// SM80: error: 'tile.mma' op fp8 operands need Hopper's wgmma
func.func @nmajor_b(%A: !tile.view<?x?xf8E5M2>, %B: !tile.view<?x?xf8E5M2>,
                    %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf8E5M2> -> tensor<64x128xf8E5M2>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf8E5M2> -> tensor<128x128xf8E5M2>
  %z = tile.full 0.0 shape [64, 128] : tensor<64x128xf32>
  // expected-error @+1 {{'tile.mma' op cannot use wgmma: fp8 wgmma needs B K-major (an N x K view loaded with order [1, 0])}}
  %d = tile.mma %a, %b, %z : tensor<64x128xf8E5M2>, tensor<128x128xf8E5M2>, tensor<64x128xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x128xf32>, !tile.view<?x?xf32>
  return
}

// -----

// K = 16 is half an fp8 wgmma.
func.func @short_k(%A: !tile.view<?x?xf8E4M3FN>, %B: !tile.view<?x?xf8E4M3FN>,
                   %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf8E4M3FN> -> tensor<64x16xf8E4M3FN>
  %b = tilegpu.load %B[%c0, %c0] dims [1, 0] : !tile.view<?x?xf8E4M3FN> -> tensor<16x64xf8E4M3FN>
  %z = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op cannot use wgmma: fp8 wgmma needs K a multiple of 32}}
  %d = tile.mma %a, %b, %z : tensor<64x16xf8E4M3FN>, tensor<16x64xf8E4M3FN>, tensor<64x64xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A computed fp8 operand is not staged.
func.func @computed_a(%A: !tile.view<?x?xf32>, %B: !tile.view<?x?xf8E4M3FN>,
                      %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<64x128xf32>
  %a = tile.astype %x : tensor<64x128xf32> -> tensor<64x128xf8E4M3FN>
  %b = tilegpu.load %B[%c0, %c0] dims [1, 0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x64xf8E4M3FN>
  %z = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  // expected-error @+1 {{'tile.mma' op cannot use wgmma: fp8 operands must be loaded from memory (a computed fp8 operand is not staged)}}
  %d = tile.mma %a, %b, %z : tensor<64x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<64x64xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}

// -----

// fp8 conversions: cvt e4m3x2 / e5m2x2 exist from sm_89 on. Fine on sm_90a.
// CHECK-LABEL: func.func @convert
// SM80: tilegpu-assign-layouts-fp8.mlir:[[# @LINE + 6]]:8: error: 'tile.astype' op converts fp8 ('f32' -> 'f8E4M3FN'), which needs chip sm_89 or newer (cvt e4m3x2/e5m2x2), got 'sm_80'
func.func @convert(%X: !tile.view<?x?xf32>, %Y: !tile.view<?x?xf8E4M3FN>,
                   %Z: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %X[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  %y = tile.astype %x : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>
  tilegpu.store %y, %Y[%c0, %c0] dims [0, 1] : tensor<64x64xf8E4M3FN>, !tile.view<?x?xf8E4M3FN>
  %w = tile.astype %y : tensor<64x64xf8E4M3FN> -> tensor<64x64xf16>
  tilegpu.store %w, %Z[%c0, %c0] dims [0, 1] : tensor<64x64xf16>, !tile.view<?x?xf16>
  return
}

// -----

// An fp8 operand from a view aligned to 2 bytes cannot be copied by
// cp.async or TMA (fp8 is not staged through registers).
func.func @narrow_view(%A: !tile.view<?x?xf8E4M3FN> {tile.align = 2 : i64},
                       %B: !tile.view<?x?xf8E4M3FN>, %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{'tilegpu.load' op an fp8 mma operand is copied to shared memory by cp.async or TMA: its view needs an alignment of at least 4 bytes (rows of a multiple of 4 elements; 16 for TMA)}}
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf8E4M3FN> -> tensor<64x128xf8E4M3FN>
  %b = tilegpu.load %B[%c0, %c0] dims [1, 0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x64xf8E4M3FN>
  %z = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  %d = tile.mma %a, %b, %z : tensor<64x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<64x64xf32>
  tilegpu.store %d, %C[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
  return
}
