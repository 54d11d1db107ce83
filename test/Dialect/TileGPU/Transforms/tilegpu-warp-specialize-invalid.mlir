// tilegpu-warp-specialize option errors, reported at the kernel.
//
// RUN: not tile-opt %s -tilegpu-set-target=target=sm_90a -tilegpu-warp-specialize="mode=maybe" 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: tilegpu-warp-specialize-invalid.mlir:[[# @LINE + 1]]:1: error: mode must be auto, on or off, got 'maybe'
func.func @kernel() attributes {tilegpu.num_warps = 4 : i32} {
  return
}
