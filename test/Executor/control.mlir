// Control flow and the grid on the CPU reference executor: scf.for with
// iteration arguments (and zero trips), scf.if with and without results,
// scf.while, tile.block_id / tile.num_blocks over a 3-d grid.

// Block (x, y, z) of a 2x3x2 grid writes x + 10 y + 100 z + 1000 * (number
// of blocks), at its linear index; the grid runs on 1 and on 2 threads.
// RUN: tile-exec %s --kernel=grid --grid=2,3,2 --arg='i32[12]=fill:-1' \
// RUN:   | FileCheck %s --check-prefix=GRID
// RUN: tile-exec %s --kernel=grid --grid=2,3,2 --num-threads=2 \
// RUN:   --arg='i32[12]=fill:-1' | FileCheck %s --check-prefix=GRID
// GRID: Out: 12000 12001 12010 12011 12020 12021 12100 12101 12110 12111 12120 12121
func.func @grid(%Out: !tile.view<?xi32> {tile.name = "Out"}) {
  %x = tile.block_id x
  %y = tile.block_id y
  %z = tile.block_id z
  %nx = tile.num_blocks x
  %ny = tile.num_blocks y
  %nz = tile.num_blocks z
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %c1000 = arith.constant 1000 : i32
  %y10 = arith.muli %y, %c10 : i32
  %z100 = arith.muli %z, %c100 : i32
  %nxy = arith.muli %nx, %ny : i32
  %n = arith.muli %nxy, %nz : i32
  %n1000 = arith.muli %n, %c1000 : i32
  %v0 = arith.addi %x, %y10 : i32
  %v1 = arith.addi %v0, %z100 : i32
  %v = arith.addi %v1, %n1000 : i32
  %zy = arith.muli %z, %ny : i32
  %zyy = arith.addi %zy, %y : i32
  %row = arith.muli %zyy, %nx : i32
  %linear = arith.addi %row, %x : i32
  %t = tile.splat %v shape [1] : i32 -> tensor<1xi32>
  tile.store %t, %Out[%linear] : tensor<1xi32>, !tile.view<?xi32>
  return
}

// scf.for from lo to hi step 2 accumulating a tile and a scalar; then
// scf.if with results (taken and not taken) and scf.if without results.
// RUN: tile-exec %s --kernel=loops --arg='i32=1' --arg='i32=8' \
// RUN:   --arg='f32[4]=fill:-1' | FileCheck %s --check-prefix=LOOP8
// LOOP8: Out: 16 16 4 1
// RUN: tile-exec %s --kernel=loops --arg='i32=5' --arg='i32=-3' \
// RUN:   --arg='f32[4]=fill:-1' | FileCheck %s --check-prefix=LOOP0
// LOOP0: Out: 0 0 0 -1
func.func @loops(%lo: i32, %hi: i32, %Out: !tile.view<?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %fzero = arith.constant 0.0 : f32
  %zero = tile.full 0.0 shape [2] : tensor<2xf32>
  // i = 1, 3, 5, 7: the tile sums i, the scalar counts trips.
  %acc, %trips = scf.for %i = %lo to %hi step %c2
      iter_args(%a = %zero, %n = %fzero) -> (tensor<2xf32>, f32) : i32 {
    %fi = arith.sitofp %i : i32 to f32
    %t = tile.splat %fi shape [2] : f32 -> tensor<2xf32>
    %a2 = arith.addf %a, %t : tensor<2xf32>
    %one = arith.constant 1.0 : f32
    %n2 = arith.addf %n, %one : f32
    scf.yield %a2, %n2 : tensor<2xf32>, f32
  }
  tile.store %acc, %Out[%c0] : tensor<2xf32>, !tile.view<?xf32>
  %more = arith.cmpf ogt, %trips, %fzero : f32
  %r = scf.if %more -> tensor<1xf32> {
    %t = tile.splat %trips shape [1] : f32 -> tensor<1xf32>
    scf.yield %t : tensor<1xf32>
  } else {
    %z = tile.full 0.0 shape [1] : tensor<1xf32>
    scf.yield %z : tensor<1xf32>
  }
  tile.store %r, %Out[%c2] : tensor<1xf32>, !tile.view<?xf32>
  scf.if %more {
    %one = tile.full 1.0 shape [1] : tensor<1xf32>
    tile.store %one, %Out[%c3] : tensor<1xf32>, !tile.view<?xf32>
  }
  return
}

// scf.while: Collatz steps of 27 (111), and nested loops with swapped
// iteration arguments (Fibonacci: after 10 steps (a, b) = (55, 89)).
// RUN: tile-exec %s --kernel=while --arg='i32=27' --arg='i32[3]=fill:-1' \
// RUN:   | FileCheck %s --check-prefix=WHILE
// WHILE: Out: 111 55 89
func.func @while(%start: i32, %Out: !tile.view<?xi32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c10 = arith.constant 10 : i32
  %res:2 = scf.while (%n = %start, %steps = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi ne, %n, %c1 : i32
    scf.condition(%go) %n, %steps : i32, i32
  } do {
  ^bb0(%m: i32, %s: i32):
    %rem = arith.remsi %m, %c2 : i32
    %odd = arith.cmpi eq, %rem, %c1 : i32
    %next = scf.if %odd -> i32 {
      %t = arith.muli %m, %c3 : i32
      %t1 = arith.addi %t, %c1 : i32
      scf.yield %t1 : i32
    } else {
      %h = arith.divsi %m, %c2 : i32
      scf.yield %h : i32
    }
    %s1 = arith.addi %s, %c1 : i32
    scf.yield %next, %s1 : i32, i32
  }
  %t0 = tile.splat %res#1 shape [1] : i32 -> tensor<1xi32>
  tile.store %t0, %Out[%c0] : tensor<1xi32>, !tile.view<?xi32>
  %fib:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %c0, %b = %c1) -> (i32, i32) : i32 {
    %ab = arith.addi %a, %b : i32
    scf.yield %b, %ab : i32, i32
  }
  %t1 = tile.splat %fib#0 shape [1] : i32 -> tensor<1xi32>
  tile.store %t1, %Out[%c1] : tensor<1xi32>, !tile.view<?xi32>
  %t2 = tile.splat %fib#1 shape [1] : i32 -> tensor<1xi32>
  tile.store %t2, %Out[%c2] : tensor<1xi32>, !tile.view<?xi32>
  return
}
