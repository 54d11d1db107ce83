// tile-specialize errors. Bad bindings are option errors: each RUN line binds
// one and checks the located error and the non-zero exit. Errors that come
// from the kernel itself use -verify-diagnostics below.
//
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=TILE_K=64' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=CAUSAL=64' 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=TILE_M=big' 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=DTYPE=half' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=DTYPE=tensor<4xf16>' 2>&1 | FileCheck %s --check-prefix=TYPE2
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=TILE_M=0' 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=TILE_M=-64' 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind=TILE_M' 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not tile-opt %s -split-input-file -tile-specialize='bind==64' 2>&1 | FileCheck %s --check-prefix=MALFORMED2
// RUN: not tile-opt %s -split-input-file -tile-specialize='num-warps=3' 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not tile-opt %s -split-input-file -tile-specialize='num-warps=12' 2>&1 | FileCheck %s --check-prefix=WARPS12
// Bindings for a file without a kernel.
// RUN: not tile-opt %S/../../../Tools/Inputs/no-kernel.mlir -tile-specialize='bind=N=1' 2>&1 | FileCheck %s --check-prefix=NO-KERNEL
// NO-KERNEL: no-kernel.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tile-specialize: no kernel (func.func with 'tile.kernel') to bind parameters of

// UNKNOWN: tile-specialize-invalid.mlir:[[# @LINE + 19]]:1: error: kernel 'kernel' has no parameter 'TILE_K' (parameters: {{.*}})
// BOOL: tile-specialize-invalid.mlir:[[# @LINE + 18]]:1: error: parameter 'CAUSAL' is a boolean, got '64'
// INT: tile-specialize-invalid.mlir:[[# @LINE + 17]]:1: error: parameter 'TILE_M' is an integer, got 'big'
// TYPE: tile-specialize-invalid.mlir:[[# @LINE + 16]]:1: error: parameter 'DTYPE' takes a type such as f16 or bf16, got 'half'
// TYPE2: tile-specialize-invalid.mlir:[[# @LINE + 15]]:1: error: parameter 'DTYPE' takes a type such as f16 or bf16, got 'tensor<4xf16>'
// ZERO: tile-specialize-invalid.mlir:[[# @LINE + 19]]:8: error: 'tile.full' op shape parameter 'TILE_M' must be positive, got 0
// NEG: tile-specialize-invalid.mlir:[[# @LINE + 18]]:8: error: 'tile.full' op shape parameter 'TILE_M' must be positive, got -64
// MALFORMED: tile-specialize-invalid.mlir:[[# @LINE + 12]]:1: error: binding 'TILE_M' is not of the form NAME=VALUE
// MALFORMED2: tile-specialize-invalid.mlir:[[# @LINE + 11]]:1: error: binding '=64' is not of the form NAME=VALUE
// WARPS: tile-specialize-invalid.mlir:[[# @LINE + 10]]:1: error: num-warps must be a power of two in [1, 32], got 3{{$}}
// WARPS12: tile-specialize-invalid.mlir:[[# @LINE + 9]]:1: error: num-warps must be a power of two in [1, 32], got 12; a warp-specialized kernel's producer warpgroup (4 warps) is added by the compiler: give the consumer warps, 8 for 12 in all
// UNKNOWN-NOT: PLEASE submit
// BOOL-NOT: PLEASE submit
// INT-NOT: PLEASE submit
// TYPE-NOT: PLEASE submit
// ZERO-NOT: PLEASE submit
// MALFORMED-NOT: PLEASE submit
// WARPS-NOT: PLEASE submit
// NEG-NOT: PLEASE submit
func.func @kernel(%X: !tile.view<?x!tile.dtype<"DTYPE">>)
    attributes {tile.kernel = {},
                tile.params = {TILE_M = 64 : i32, CAUSAL = true, DTYPE = f16}} {
  %c = tile.param "CAUSAL" : i1
  %m = tile.param "TILE_M" : i32
  %z = tile.full 0.0 shape [TILE_M] : tensor<?xf32>
  return
}
