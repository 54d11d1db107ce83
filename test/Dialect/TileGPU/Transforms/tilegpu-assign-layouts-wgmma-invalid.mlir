// tilegpu-assign-layouts on sm_90a: operands wgmma cannot read.
//
// RUN: tile-opt %s -split-input-file -tilegpu-set-target=target=sm_90a -tilegpu-assign-layouts -verify-diagnostics

// wgmma reads a computed A that is not in the accumulator
// layout from shared memory, in whole 128B-swizzle atoms: K = 32 is not.
// (The permute of a computed tile: that of a load would read the load's
// buffer transposed, tilegpu-assign-layouts-transposed.mlir.)
func.func @wgmma_computed_a(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %al = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<32x64xf16>
  %at = arith.addf %al, %al : tensor<32x64xf16>
  %a = tile.permute %at [1, 0] : tensor<32x64xf16> -> tensor<64x32xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<32x64xf16>
  %z = tile.full 0.0 shape [64, 64] : tensor<64x64xf32>
  // expected-error @+1 {{'tilegpu.mma' op a computed operand staged for wgmma must fill whole 128B-swizzle atoms (columns a multiple of 64, rows of 8); compile with mma-version=2}}
  %d = tile.mma %a, %b, %z : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32>
  return
}
