// tilegpu-assign-layouts errors, each located at the op (or kernel) at fault.
//
// RUN: tile-opt %s -split-input-file -allow-unregistered-dialect -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts -verify-diagnostics
// Bad options are reported at the kernel (hints in the IR are checked by the
// tile dialect's verifier).
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts=shared-layout=banked 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts=num-warps=3 2>&1 | FileCheck %s --check-prefix=WARPS
// 12 and 20 count the producer warpgroup that warp specialization adds.
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts=num-warps=12 2>&1 | FileCheck %s --check-prefix=WARPS12
// RUN: not tile-opt %s -split-input-file -tilegpu-set-target=target=sm_80 -tilegpu-assign-layouts=num-warps=20 2>&1 | FileCheck %s --check-prefix=WARPS20

// SHARED: tilegpu-assign-layouts-invalid.mlir:[[# @LINE + 4]]:1: error: shared-layout must be padded or swizzled, got 'banked'
// WARPS: tilegpu-assign-layouts-invalid.mlir:[[# @LINE + 3]]:1: error: num_warps must be a power of two in [1, 32], got 3{{$}}
// WARPS12: tilegpu-assign-layouts-invalid.mlir:[[# @LINE + 2]]:1: error: num_warps must be a power of two in [1, 32], got 12; a warp-specialized kernel's producer warpgroup (4 warps) is added by the compiler: give the consumer warps, 8 for 12 in all
// WARPS20: tilegpu-assign-layouts-invalid.mlir:[[# @LINE + 1]]:1: error: num_warps must be a power of two in [1, 32], got 20; a warp-specialized kernel's producer warpgroup (4 warps) is added by the compiler: give the consumer warps, 16 for 20 in all
func.func @bad_options(%A: !tile.view<?x?xf32>) attributes {tile.kernel = {num_warps = 4 : i32}} {
  return
}

// -----

// The mma.sync shape: with 4 warps, M must be a multiple of 64 (48 is not
// even a power of two).
func.func @mma_m(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<48x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [48, 16] : tensor<48x16xf32>
  // expected-error @+1 {{'tile.mma' op a 48x16x16 (MxNxK) mma does not fit mma.sync.m16n8k16 with 4 warps: M must be a multiple of 64, N of 8 and K of 16}}
  %d = tile.mma %a, %b, %z : tensor<48x16xf16>, tensor<16x16xf16>, tensor<48x16xf32>
  return
}

// -----

func.func @mma_n(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x12xf16>
  %z = tile.full 0.0 shape [16, 12] : tensor<16x12xf32>
  // expected-error @+1 {{'tile.mma' op a 16x12x16 (MxNxK) mma does not fit mma.sync.m16n8k16 with 1 warps: M must be a multiple of 16, N of 8 and K of 16}}
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x12xf16>, tensor<16x12xf32>
  return
}

// -----

// K = 8: P V with 8-key tiles.
func.func @mma_k(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x8xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<8x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  // expected-error @+1 {{'tile.mma' op a 16x16x8 (MxNxK) mma does not fit mma.sync.m16n8k16 with 1 warps: M must be a multiple of 16, N of 8 and K of 16}}
  %d = tile.mma %a, %b, %z : tensor<16x8xf16>, tensor<8x16xf16>, tensor<16x16xf32>
  return
}

// -----

func.func @mma_dynamic(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{'tilegpu.load' op needs static shapes: run tile-specialize}}
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<?x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [TILE_M, 16] : tensor<?x16xf32>
  %d = tile.mma %a, %b, %z : tensor<?x16xf16>, tensor<16x16xf16>, tensor<?x16xf32>
  return
}

// -----

// Tiles come from views; a tile argument has no layout to give.
// expected-error @+1 {{tilegpu-assign-layouts: kernel argument 1 is a tile; pass a view and load it}}
func.func @tile_argument(%A: !tile.view<?x?xf16>, %b: tensor<16x16xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  return
}

// -----

// cp.async copies 16-byte vectors along the view's contiguous dimension.
func.func @no_contiguous_dim(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?x?xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  // expected-error @+1 {{'tilegpu.load' op cannot stage this mma operand in shared memory: no tile dimension walks the view's last (contiguous) dimension}}
  %b = tilegpu.load %B[%c0, %c0, %c0] dims [0, 1] : !tile.view<?x?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  return
}

// -----

func.func @operand_padding(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  // expected-error @+1 {{'tilegpu.load' op loads feeding mma pad with zero only (mask the scores instead)}}
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] padding neg_inf : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  return
}

// -----

// An op of another dialect on tiles: no rule relates its layouts.
func.func @unknown_op(%A: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<16x16xf32>
  // expected-error @+1 {{'test.consume' op tilegpu-assign-layouts has no layout rule for this op}}
  "test.consume"(%a) : (tensor<16x16xf32>) -> ()
  return
}
