// RUN: tile-opt %s -split-input-file -tile-persistent=max-blocks=3 | FileCheck %s --check-prefixes=CHECK,GRID
// RUN: tile-opt %s -split-input-file -tile-persistent='max-blocks=3 order=paired' | FileCheck %s --check-prefixes=CHECK,PAIRED
// max-blocks=0 (the default) leaves the kernel alone.
// RUN: tile-opt %s -split-input-file -tile-persistent | FileCheck %s --check-prefix=OFF

// A 2-D grid: the sizes evaluated from the views at the top, one loop over
// the tiles, the block ids and grid sizes of the body replaced, the grid
// rule and the precondition rewritten.
// CHECK-LABEL: func.func @two_d
// CHECK-SAME: grid = ["min((cdiv(X.0, 4)) * (X.1 / 8 + (0 - 1) + 1) * (1), 3)", "1", "1"]
// CHECK-SAME: requires = ["Y.0 == X.0", "(cdiv(X.0, 4)) * (X.1 / 8 + (0 - 1) + 1) * (1) <= 2147483647"]
// The rule's arithmetic is in i64 (as launchers evaluate it), each size
// truncated to i32 (the new precondition bounds their product).
// CHECK: %[[D0:.*]] = tile.dim %arg0[0]
// CHECK: %[[E0:.*]] = arith.extsi %[[D0]] : i32 to i64
// CHECK: %[[X0:.*]] = arith.ceildivsi %[[E0]], %{{.*}} : i64
// CHECK: %[[GX:.*]] = arith.trunci %[[X0]] : i64 to i32
// CHECK: %[[D1:.*]] = tile.dim %arg0[1]
// CHECK: %[[E1:.*]] = arith.extsi %[[D1]] : i32 to i64
// CHECK: arith.divsi %[[E1]]
// CHECK: arith.subi %{{.*}}, %{{.*}} : i64
// CHECK: arith.addi
// CHECK: %[[Y0:.*]] = arith.addi
// CHECK: %[[GY:.*]] = arith.trunci %[[Y0]] : i64 to i32
// CHECK: %[[B:.*]] = tile.block_id x
// CHECK: %[[NB:.*]] = tile.num_blocks x
// GRID: %[[PLANE:.*]] = arith.muli %[[GX]], %[[GY]] : i32
// GRID: %[[TILES:.*]] = arith.muli %[[PLANE]], %{{.*}} : i32
// GRID: scf.for %[[T:.*]] = %[[B]] to %[[TILES]] step %[[NB]] : i32 {
// GRID-NEXT: %[[X:.*]] = arith.remsi %[[T]], %[[GX]] : i32
// GRID-NEXT: %[[R:.*]] = arith.divsi %[[T]], %[[GX]] : i32
// GRID-NEXT: %[[Y:.*]] = arith.remsi %[[R]], %[[GY]] : i32
// Pairs along x: ceil(gx / 2) of them a (y, z); this block's rounds are
// twice its pairs.
// PAIRED: %[[PX:.*]] = arith.ceildivsi %[[GX]], %[[TWO:.*]] : i32
// PAIRED: %[[PP:.*]] = arith.muli %[[PX]], %[[GY]] : i32
// PAIRED: %[[PAIRS:.*]] = arith.muli %[[PP]], %{{.*}} : i32
// PAIRED: %[[LEFT:.*]] = arith.subi %[[PAIRS]], %[[B]] : i32
// PAIRED: %[[MINE0:.*]] = arith.ceildivsi %[[LEFT]], %[[NB]] : i32
// PAIRED: %[[MINE:.*]] = arith.maxsi %[[MINE0]], %{{.*}} : i32
// PAIRED: %[[ROUNDS:.*]] = arith.muli %[[MINE]], %[[TWO]] : i32
// PAIRED: scf.for %[[T:.*]] = %{{.*}} to %[[ROUNDS]] step %{{.*}} : i32 {
// PAIRED-NEXT: %[[M:.*]] = arith.remsi %[[T]], %[[TWO]] : i32
// PAIRED-NEXT: %[[H:.*]] = arith.divsi %[[T]], %[[TWO]] : i32
// PAIRED-NEXT: %[[HB:.*]] = arith.muli %[[H]], %[[NB]] : i32
// PAIRED-NEXT: %[[PAIR:.*]] = arith.addi %[[HB]], %[[B]] : i32
// PAIRED-NEXT: %[[I:.*]] = arith.remsi %[[PAIR]], %[[PX]] : i32
// PAIRED-NEXT: %[[R:.*]] = arith.divsi %[[PAIR]], %[[PX]] : i32
// PAIRED-NEXT: %[[LAST:.*]] = arith.subi %[[GX]], %{{.*}} : i32
// PAIRED-NEXT: %[[MIRROR:.*]] = arith.subi %[[LAST]], %[[I]] : i32
// PAIRED-NEXT: %[[SECOND:.*]] = arith.cmpi eq, %[[M]], %{{.*}} : i32
// PAIRED-NEXT: %[[X:.*]] = arith.select %[[SECOND]], %[[I]], %[[MIRROR]] : i32
// PAIRED-NEXT: %[[Y:.*]] = arith.remsi %[[R]], %[[GY]] : i32
// CHECK: tile.load %arg0[%[[X]], %[[Y]]]
// CHECK: tile.splat %[[GX]]
// CHECK: tile.store %{{.*}}, %arg1[%[[X]], %[[Y]]]
// CHECK-NOT: tile.block_id
// CHECK-NOT: tile.num_blocks
// CHECK: return
// OFF-LABEL: func.func @two_d
// OFF: tile.block_id x
// OFF-NOT: scf.for
func.func @two_d(%X: !tile.view<?x?xf32> {tile.name = "X"},
                 %Y: !tile.view<?x?xf32> {tile.name = "Y"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["cdiv(X.0, 4)", "X.1 / 8 + (0 - 1) + 1", "1"],
                               requires = ["Y.0 == X.0"]}} {
  %bx = tile.block_id x
  %by = tile.block_id y
  %nx = tile.num_blocks x
  %x = tile.load %X[%bx, %by] shape [4, 8] : !tile.view<?x?xf32> -> tensor<4x8xf32>
  %s = tile.splat %nx shape [4, 8] : i32 -> tensor<4x8xi32>
  %f = arith.sitofp %s : tensor<4x8xi32> to tensor<4x8xf32>
  %y = arith.addf %x, %f : tensor<4x8xf32>
  tile.store %y, %Y[%bx, %by] : tensor<4x8xf32>, !tile.view<?x?xf32>
  return
}

// -----

// z: the tile index's last part; min and max in the rule.
// CHECK-LABEL: func.func @three_d
// CHECK-SAME: grid = ["min((min(X.0, 7)) * (2) * (max(X.1, 1)), 3)", "1", "1"]
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: scf.for
// GRID-NEXT: arith.remsi
// GRID-NEXT: arith.divsi
// GRID-NEXT: arith.remsi
// GRID-NEXT: %[[Z:.*]] = arith.divsi %{{.*}}, %{{.*}} : i32
// GRID: tile.store %{{.*}}, %arg1[%{{.*}}, %[[Z]]]
// PAIRED: tile.store
func.func @three_d(%X: !tile.view<?x?xf32> {tile.name = "X"},
                   %Y: !tile.view<?x?xf32> {tile.name = "Y"})
    attributes {tile.kernel = {num_warps = 4 : i32,
                               grid = ["min(X.0, 7)", "2", "max(X.1, 1)"]}} {
  %bx = tile.block_id x
  %bz = tile.block_id z
  %x = tile.load %X[%bx, %bz] shape [1, 1] : !tile.view<?x?xf32> -> tensor<1x1xf32>
  tile.store %x, %Y[%bx, %bz] : tensor<1x1xf32>, !tile.view<?x?xf32>
  return
}

// -----

// Functions that are not kernels stay as they are.
// CHECK-LABEL: func.func @helper
// CHECK-NOT: scf.for
func.func @helper(%a: i32) -> i32 {
  return %a : i32
}
