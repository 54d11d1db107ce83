// tilegpu-assign-layouts errors, each located at the op (or kernel) at fault.
//
// RUN: tile-opt %s -split-input-file -tilegpu-assign-layouts -verify-diagnostics
// Bad options are reported at the kernel (hints in the IR are checked by the
// tile dialect's verifier).
// RUN: not tile-opt %s -split-input-file -tilegpu-assign-layouts=shared-layout=banked 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not tile-opt %s -split-input-file -tilegpu-assign-layouts=num-warps=3 2>&1 | FileCheck %s --check-prefix=WARPS

// SHARED: tilegpu-assign-layouts-invalid.mlir:[[# @LINE + 3]]:1: error: shared-layout must be padded or swizzled, got 'banked'
// WARPS: tilegpu-assign-layouts-invalid.mlir:[[# @LINE + 2]]:1: error: num_warps must be a power of two in [1, 32], got 3
// expected-error @+1 {{tilegpu-assign-layouts: the kernel has no tile.mma to anchor layouts on}}
func.func @no_mma(%A: !tile.view<?x?xf32>) attributes {tile.kernel = {num_warps = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %x = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<64x64xf32>
  tilegpu.store %x, %A[%c0, %c0] dims [0, 1] : tensor<64x64xf32>, !tile.view<?x?xf32>
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

func.func @mma_dynamic(%a: tensor<?x16xf16>, %b: tensor<16x16xf16>, %z: tensor<?x16xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  // expected-error @+1 {{'tile.mma' op needs static shapes: run tile-specialize}}
  %d = tile.mma %a, %b, %z : tensor<?x16xf16>, tensor<16x16xf16>, tensor<?x16xf32>
  return
}

// -----

// Operand b computed in registers would have to be staged from registers.
func.func @b_not_loaded(%A: !tile.view<?x?xf16>, %b: tensor<16x16xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  // expected-error @+1 {{'tile.mma' op operand b must come from a load (staging a computed tile in shared memory is not implemented)}}
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

func.func @reduce_without_keepdims(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  // expected-error @+1 {{'tile.reduce' op reductions are lowered from an #mma tile with keepdims}}
  %r = tile.reduce %d max axis 1 : tensor<16x16xf32> -> tensor<16xf32>
  return
}

// -----

// A row maximum (a slice tile) reduced again.
func.func @reduce_of_slice(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  %r = tile.reduce %d max axis 1 keepdims : tensor<16x16xf32> -> tensor<16x1xf32>
  // expected-error @+1 {{'tile.reduce' op reductions are lowered from an #mma tile with keepdims}}
  %s = tile.reduce %r max axis 0 keepdims : tensor<16x1xf32> -> tensor<1x1xf32>
  return
}

// -----

// A [1, 1] tile broadcast to both dimensions has no slice layout.
func.func @broadcast_both_dims(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>, %x: f32)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  %s = tile.splat %x shape [1, 1] : f32 -> tensor<1x1xf32>
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast into layout #tilegpu.mma<version = 2, warps = [1, 1]>}}
  %sb = tile.broadcast %s shape [16, 16] : tensor<1x1xf32> -> tensor<16x16xf32>
  %e = arith.addf %d, %sb : tensor<16x16xf32>
  return
}

// -----

// A tile that neither feeds nor comes from an mma has no layout.
func.func @unconnected_tile(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>, %C: !tile.view<?x?xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  // expected-error @+1 {{'tilegpu.load' op no thread layout could be derived for this tile (it does not feed or come from a tensor-core mma)}}
  %c = tilegpu.load %C[%c0, %c0] dims [0, 1] : !tile.view<?x?xf32> -> tensor<32x32xf32>
  tilegpu.store %c, %C[%c0, %c0] dims [0, 1] : tensor<32x32xf32>, !tile.view<?x?xf32>
  return
}

// -----

// A loop-carried tile that only goes round the loop.
func.func @unconnected_iter_arg(%A: !tile.view<?x?xf16>, %B: !tile.view<?x?xf16>, %n: i32, %t: tensor<16x16xf32>)
    attributes {tile.kernel = {num_warps = 1 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.load %A[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tilegpu.load %B[%c0, %c0] dims [0, 1] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %z = tile.full 0.0 shape [16, 16] : tensor<16x16xf32>
  %d = tile.mma %a, %b, %z : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  // expected-error @+1 {{'scf.for' op no layout could be derived for a loop-carried tile}}
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%x = %t) -> (tensor<16x16xf32>) : i32 {
    scf.yield %x : tensor<16x16xf32>
  }
  return
}
