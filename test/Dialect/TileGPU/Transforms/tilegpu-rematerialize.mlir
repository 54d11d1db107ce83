// tilegpu-rematerialize: tiles that are free to recompute (broadcast, splat,
// iota, full, splat constants) and used in a loop are cloned into the loop
// body before their first use there; uses outside loops keep the original,
// everything else stays where it is.
//
// RUN: tile-opt %s -split-input-file -tilegpu-rematerialize | FileCheck %s

// CHECK-LABEL: func.func @cheap_tiles
// CHECK-SAME: (%[[X:.*]]: i32, %[[N:.*]]: i32, %[[V:.*]]: tensor<64x1xi32>)
// The broadcast stays for its use after the loop; the others only served the
// loop and are gone from outside it, except the full that initializes the
// iter_arg (a use by the loop op itself) and the computed %sum.
// CHECK: %[[ROWS:.*]] = tile.broadcast %[[V]] shape [64, 64]
// CHECK: %[[S:.*]] = tile.splat %[[X]]
// CHECK: %[[IO:.*]] = tile.iota
// CHECK: %[[F:.*]] = tile.full 0
// CHECK: %[[SUM:.*]] = arith.addi %[[S]], %[[IO]]
// CHECK-NOT: arith.constant dense
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[F]])
// One clone per loop, before its first user, shared by later users.
// CHECK-NEXT: %[[ROWS2:.*]] = tile.broadcast %[[V]] shape [64, 64]
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[ACC]], %[[ROWS2]]
// CHECK-NEXT: %[[S2:.*]] = tile.splat %[[X]]
// CHECK-NEXT: %[[B:.*]] = arith.addi %[[A]], %[[S2]]
// CHECK-NEXT: %[[IO2:.*]] = tile.iota shape [64, 64] dim 1
// CHECK-NEXT: %[[C:.*]] = arith.addi %[[B]], %[[IO2]]
// CHECK-NEXT: %[[CST:.*]] = arith.constant dense<1> : tensor<64x64xi32>
// CHECK-NEXT: %[[D:.*]] = arith.addi %[[C]], %[[CST]]
// Not cheap: the hoisted sum stays hoisted.
// CHECK-NEXT: %[[E:.*]] = arith.addi %[[D]], %[[SUM]]
// CHECK-NEXT: %[[G:.*]] = arith.addi %[[E]], %[[ROWS2]]
// CHECK-NEXT: scf.yield %[[G]]
// CHECK: arith.addi %{{.*}}, %[[ROWS]]
func.func @cheap_tiles(%x: i32, %n: i32, %v: tensor<64x1xi32>) -> tensor<64x64xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %rows = tile.broadcast %v shape [64, 64] : tensor<64x1xi32> -> tensor<64x64xi32>
  %s = tile.splat %x shape [64, 64] : i32 -> tensor<64x64xi32>
  %io = tile.iota shape [64, 64] dim 1 : tensor<64x64xi32>
  %f = tile.full 0 shape [64, 64] : tensor<64x64xi32>
  %cst = arith.constant dense<1> : tensor<64x64xi32>
  %sum = arith.addi %s, %io : tensor<64x64xi32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %f) -> (tensor<64x64xi32>) : i32 {
    %a = arith.addi %acc, %rows : tensor<64x64xi32>
    %b = arith.addi %a, %s : tensor<64x64xi32>
    %c = arith.addi %b, %io : tensor<64x64xi32>
    %d = arith.addi %c, %cst : tensor<64x64xi32>
    %e = arith.addi %d, %sum : tensor<64x64xi32>
    %g = arith.addi %e, %rows : tensor<64x64xi32>
    scf.yield %g : tensor<64x64xi32>
  }
  %out = arith.addi %r, %rows : tensor<64x64xi32>
  return %out : tensor<64x64xi32>
}

// -----

// Two loops in sequence get one clone each; a use nested in an scf.if
// inside the loop gets its clone in the loop body, before the scf.if; a use
// in a nested loop gets its clone in the innermost loop.
// CHECK-LABEL: func.func @loops
// CHECK-NOT: tile.splat
// CHECK: scf.for
// CHECK-NEXT: %[[S1:.*]] = tile.splat
// CHECK-NEXT: scf.if
// CHECK-NEXT: arith.addf %{{.*}}, %[[S1]]
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: %[[S2:.*]] = tile.splat
// CHECK-NEXT: arith.addf %{{.*}}, %[[S2]]
func.func @loops(%x: f32, %n: i32, %p: i1, %init: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = tile.splat %x shape [16, 16] : f32 -> tensor<16x16xf32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<16x16xf32>) : i32 {
    %t = scf.if %p -> tensor<16x16xf32> {
      %a = arith.addf %acc, %s : tensor<16x16xf32>
      scf.yield %a : tensor<16x16xf32>
    } else {
      scf.yield %acc : tensor<16x16xf32>
    }
    scf.yield %t : tensor<16x16xf32>
  }
  %r2 = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<16x16xf32>) : i32 {
    %in = scf.for %k = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> (tensor<16x16xf32>) : i32 {
      %a = arith.addf %acc2, %s : tensor<16x16xf32>
      scf.yield %a : tensor<16x16xf32>
    }
    scf.yield %in : tensor<16x16xf32>
  }
  return %r2 : tensor<16x16xf32>
}

// -----

// Not rematerialized: computed tiles (a load, arithmetic), cheap tiles used
// only outside loops, tiles already defined in the loop, and scalars.
// CHECK-LABEL: func.func @negative_not_cheap
// CHECK: %[[L:.*]] = tile.load
// CHECK: %[[E:.*]] = math.exp %{{.*}} : tensor<16x16xf32>
// CHECK: %[[SC:.*]] = arith.addf
// CHECK: %[[OUT:.*]] = tile.full 1.0{{.*}} shape [16, 16]
// CHECK: scf.for
// CHECK-NOT: tile.load
// CHECK-NOT: math.exp
// CHECK: tile.splat %[[SC]]
// CHECK-NOT: tile.splat
// CHECK: scf.yield
// CHECK: arith.addf %{{.*}}, %[[OUT]]
func.func @negative_not_cheap(%A: !tile.view<?x?xf32>, %n: i32, %x: f32)
    -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %l = tile.load %A[%c0, %c0] shape [16, 16] : !tile.view<?x?xf32> -> tensor<16x16xf32>
  %e = math.exp %l : tensor<16x16xf32>
  %sc = arith.addf %x, %x : f32
  %out = tile.full 1.0 shape [16, 16] : tensor<16x16xf32>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %e) -> (tensor<16x16xf32>) : i32 {
    %in = tile.splat %sc shape [16, 16] : f32 -> tensor<16x16xf32>
    %a = arith.addf %acc, %in : tensor<16x16xf32>
    %b = arith.addf %a, %e : tensor<16x16xf32>
    scf.yield %b : tensor<16x16xf32>
  }
  %o = arith.addf %r, %out : tensor<16x16xf32>
  return %o : tensor<16x16xf32>
}
