// A specialized kernel that did not go through the tile-to-tilegpu steps has
// no layouts: --convert-tile-to-nvvm exited 0 with the module unchanged
// (issue 11). It is an error that names the missing step.
//
// RUN: not tile-opt %s -convert-tile-to-nvvm 2>&1 | FileCheck %s
// RUN: not tile-opt %kernels/fmha.mlir -tile-specialize -convert-tile-to-nvvm 2>&1 | FileCheck %s --check-prefix=FMHA

// CHECK: convert-tile-to-nvvm-no-layouts.mlir:[[# @LINE + 3]]:1: error: kernel 'copy' has no layouts (no 'tilegpu.num_warps'): run tilegpu-assign-layouts and the other tile-to-tilegpu steps first (the tile-to-ptx pipeline runs them all)
// FMHA: fmha.mlir:{{[0-9]+}}:1: error: kernel 'fmha' has no layouts (no 'tilegpu.num_warps')
// CHECK-NOT: gpu.module
func.func @copy(%In: !tile.view<?xf32> {tile.name = "In"},
                %Out: !tile.view<?xf32> {tile.name = "Out"})
    attributes {tile.kernel = {grid = ["1"]}} {
  %c0 = arith.constant 0 : i32
  %t = tile.load %In[%c0] shape [64] : !tile.view<?xf32> -> tensor<64xf32>
  tile.store %t, %Out[%c0] : tensor<64xf32>, !tile.view<?xf32>
  return
}
