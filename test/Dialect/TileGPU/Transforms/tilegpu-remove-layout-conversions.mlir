// tilegpu-remove-layout-conversions: the conversions it removes, and the
// ones kernels keep (counted).
//
// RUN: tile-opt %s -split-input-file -tilegpu-remove-layout-conversions | FileCheck %s
// The stand-in kernels keep theirs: test/Pipelines/kernels-layouts.test.

#a = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#b = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>

// Tiles free to build are built in the target layout; a broadcast is
// converted at its (smaller) source, which is then rebuilt too.
// CHECK-LABEL: func.func @rebuild
// CHECK-DAG: tile.full 1.000000e+00 shape [16, 16] : tensor<16x16xf32, [[B:#tilegpu.blocked<sizePerThread = \[4, 1\], [^>]*>]]>
// CHECK-DAG: tile.splat %{{.*}} shape [16, 16] : f32 -> tensor<16x16xf32, [[B]]>
// CHECK-DAG: tile.iota shape [16, 1] dim 0 : tensor<16x1xi32, [[B]]>
// CHECK-DAG: arith.constant dense<2.000000e+00> : tensor<16x16xf32, [[B]]>
// CHECK: tile.broadcast %{{.*}} : tensor<16x1xi32, [[B]]> -> tensor<16x16xi32, [[B]]>
// CHECK-NOT: convert_layout
func.func @rebuild(%s: f32) -> (tensor<16x16xf32, #b>, tensor<16x16xf32, #b>, tensor<16x16xi32, #b>, tensor<16x16xf32, #b>) {
  %f = tile.full 1.0 shape [16, 16] : tensor<16x16xf32, #a>
  %fc = tilegpu.convert_layout %f : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  %p = tile.splat %s shape [16, 16] : f32 -> tensor<16x16xf32, #a>
  %pc = tilegpu.convert_layout %p : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  %i = tile.iota shape [16, 1] dim 0 : tensor<16x1xi32, #a>
  %ib = tile.broadcast %i shape [16, 16] : tensor<16x1xi32, #a> -> tensor<16x16xi32, #a>
  %ic = tilegpu.convert_layout %ib : tensor<16x16xi32, #a> -> tensor<16x16xi32, #b>
  %k = arith.constant dense<2.0> : tensor<16x16xf32, #a>
  %kc = tilegpu.convert_layout %k : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  return %fc, %pc, %ic, %kc : tensor<16x16xf32, #b>, tensor<16x16xf32, #b>, tensor<16x16xi32, #b>, tensor<16x16xf32, #b>
}

// -----

#a = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#b = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>

// A conversion back of a conversion folds; an elementwise op of a value
// converted from the target layout and a constant is computed in the
// target layout: both conversions go.
// CHECK-LABEL: func.func @compute_in_target
// CHECK-SAME: (%[[X:.*]]: tensor<16x16xf32, [[B:#tilegpu.blocked<sizePerThread = \[4, 1\], [^>]*>]]>)
// CHECK: %[[ONE:.*]] = tile.full 1.000000e+00 shape [16, 16] : tensor<16x16xf32, [[B]]>
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[ONE]] : tensor<16x16xf32, [[B]]>
// CHECK: return %[[X]], %[[S]]
// CHECK-NOT: convert_layout
func.func @compute_in_target(%x: tensor<16x16xf32, #b>) -> (tensor<16x16xf32, #b>, tensor<16x16xf32, #b>) {
  %xa = tilegpu.convert_layout %x : tensor<16x16xf32, #b> -> tensor<16x16xf32, #a>
  %back = tilegpu.convert_layout %xa : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  %one = tile.full 1.0 shape [16, 16] : tensor<16x16xf32, #a>
  %s = arith.addf %xa, %one : tensor<16x16xf32, #a>
  %sb = tilegpu.convert_layout %s : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  return %back, %sb : tensor<16x16xf32, #b>, tensor<16x16xf32, #b>
}

// -----

#a = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#b = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>

// negative: an elementwise op of two values that really are in the source
// layout keeps its conversion (it would need two).
// CHECK-LABEL: func.func @negative_costly_operands
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<16x16xf32, #tilegpu.blocked<sizePerThread = [1, 4]
// CHECK-COUNT-1: tilegpu.convert_layout
func.func @negative_costly_operands(%x: tensor<16x16xf32, #a>, %y: tensor<16x16xf32, #a>) -> tensor<16x16xf32, #b> {
  %m = arith.mulf %x, %y : tensor<16x16xf32, #a>
  %c = tilegpu.convert_layout %m : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
  return %c : tensor<16x16xf32, #b>
}

// -----

#a = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]>
#b = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>

// A conversion of a loop-invariant value leaves the loop; a loop-carried
// value that each iteration converts to #b and back is carried in #b:
// one conversion before the loop and one after instead of two per
// iteration.
// CHECK-LABEL: func.func @loops
// CHECK: %[[INV:.*]] = tilegpu.convert_layout %{{.*}} : tensor<16x16xf32, [[A:#tilegpu.blocked<sizePerThread = \[1, 4\], [^>]*>]]> -> tensor<16x16xf32, [[B:#tilegpu.blocked<sizePerThread = \[4, 1\], [^>]*>]]>
// CHECK: %[[INIT:.*]] = tilegpu.convert_layout %{{.*}} : tensor<16x16xf32, [[A]]> -> tensor<16x16xf32, [[B]]>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<16x16xf32, [[B]]>)
// CHECK-NOT: convert_layout
// CHECK: %[[T:.*]] = arith.mulf %[[INV]], %{{.*}} : tensor<16x16xf32, [[B]]>
// CHECK: arith.addf %[[ACC]], %[[T]] : tensor<16x16xf32, [[B]]>
// CHECK: scf.yield
// CHECK: tilegpu.convert_layout %[[R]] : tensor<16x16xf32, [[B]]> -> tensor<16x16xf32, [[A]]>
func.func @loops(%init: tensor<16x16xf32, #a>, %inv: tensor<16x16xf32, #a>, %w: tensor<16x16xf32, #b>, %n: i32) -> tensor<16x16xf32, #a> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16x16xf32, #a>) : i32 {
    %accb = tilegpu.convert_layout %acc : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
    %invb = tilegpu.convert_layout %inv : tensor<16x16xf32, #a> -> tensor<16x16xf32, #b>
    %t = arith.mulf %invb, %w : tensor<16x16xf32, #b>
    %s = arith.addf %accb, %t : tensor<16x16xf32, #b>
    %sa = tilegpu.convert_layout %s : tensor<16x16xf32, #b> -> tensor<16x16xf32, #a>
    scf.yield %sa : tensor<16x16xf32, #a>
  }
  return %r : tensor<16x16xf32, #a>
}
