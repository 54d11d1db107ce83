// Bad options of tile-remap-blocks are located errors at the kernel.
//
// RUN: not tile-opt %s -tile-remap-blocks=mode=backwards 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not tile-opt %s -tile-remap-blocks=dim=w 2>&1 | FileCheck %s --check-prefix=DIM
// RUN: not tile-opt %s -tile-remap-blocks=group-size=0 2>&1 | FileCheck %s --check-prefix=GROUP

// MODE: tile-remap-blocks-invalid.mlir:[[# @LINE + 3]]:1: error: tile-remap-blocks: mode must be auto, reverse or none, got 'backwards'
// DIM: tile-remap-blocks-invalid.mlir:[[# @LINE + 2]]:1: error: tile-remap-blocks: dim must be x, y or z, got 'w'
// GROUP: tile-remap-blocks-invalid.mlir:[[# @LINE + 1]]:1: error: tile-remap-blocks: group-size must be at least 1, got 0
func.func @kernel() attributes {tile.kernel = {}} {
  %bx = tile.block_id x
  return
}
