// -test-tilegpu-layout-map prints tables for reading: a tile of more than
// 16384 elements is refused with a located error instead of printed (issue
// 11: a 2x16x4294967296 shared type printed 4e9 entries; the verifier
// refuses that one now, see invalid-sizes.mlir).
//
// RUN: not tile-opt %s -split-input-file -test-tilegpu-layout-map 2>&1 | FileCheck %s

// CHECK: layout-map-too-large.mlir:[[#@LINE+1]]:{{[0-9]+}}: error: the tile has more than 16384 elements to print
func.func @registers(%t: tensor<256x256xf32, #tilegpu.mma<version = 2, warps = [4, 1]>>) {
  return
}

// -----

// CHECK: layout-map-too-large.mlir:[[#@LINE+1]]:{{[0-9]+}}: error: the tile has more than 16384 elements to print
func.func @shared(%s: !tilegpu.smem<2x256x128xf16, #tilegpu.shared<order = [1, 0], vec = 8, perPhase = 1, maxPhase = 1, pad = 8>>) {
  return
}
