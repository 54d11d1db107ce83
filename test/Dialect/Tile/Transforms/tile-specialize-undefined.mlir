// What the GPU lowering must never see, refused by tile-specialize (the
// first pass of every pipeline and of the CPU executor paths) once the
// parameters are bound (issue 26). Integer division or remainder by a
// constant zero, and the minimum signed integer divided by -1, compiled to
// a kernel whose body is `ret;`; a cf loop failed deep in the lowering with
// "reference to block defined in another region".
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-specialize
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-O1

func.func @div_tile_by_zero(%X: !tile.view<?xi32> {tile.name = "X"})
    attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %a = tile.load %X[%c0] shape [16] : !tile.view<?xi32> -> tensor<16xi32>
  %z = tile.full 0 shape [16] : tensor<16xi32>
  // expected-error @+1 {{'arith.divsi' op divides by the constant zero: undefined behaviour, which the GPU lowering turns into a kernel that does nothing}}
  %q = arith.divsi %a, %z : tensor<16xi32>
  tile.store %q, %X[%c0] : tensor<16xi32>, !tile.view<?xi32>
  return
}

// -----

// A zero that is a bound parameter, splat.
func.func @rem_by_param(%X: !tile.view<?xi32> {tile.name = "X"})
    attributes {tile.kernel = {}, tile.params = {D = 0 : i32}} {
  %c0 = arith.constant 0 : i32
  %a = tile.load %X[%c0] shape [16] : !tile.view<?xi32> -> tensor<16xi32>
  %d = tile.param "D" : i32
  %s = tile.splat %d shape [16] : i32 -> tensor<16xi32>
  // expected-error @+1 {{'arith.remui' op divides by the constant zero}}
  %q = arith.remui %a, %s : tensor<16xi32>
  tile.store %q, %X[%c0] : tensor<16xi32>, !tile.view<?xi32>
  return
}

// -----

// A zero computed from constants (N - N), and an element of a dense divisor.
func.func @computed_zero(%X: !tile.view<?xi32> {tile.name = "X"})
    attributes {tile.kernel = {}, tile.params = {N = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  %n = tile.param "N" : i32
  %z = arith.subi %n, %n : i32
  %b = tile.block_id x
  // expected-error @+1 {{'arith.ceildivsi' op divides by the constant zero}}
  %q = arith.ceildivsi %b, %z : i32
  %d = arith.constant dense<[1, 2, 0, 4]> : tensor<4xi32>
  %a = tile.load %X[%c0] shape [4] : !tile.view<?xi32> -> tensor<4xi32>
  %r = arith.floordivsi %a, %d : tensor<4xi32>
  return
}

// -----

func.func @dense_zero(%X: !tile.view<?xi32> {tile.name = "X"})
    attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %d = arith.constant dense<[1, 2, 0, 4]> : tensor<4xi32>
  %a = tile.load %X[%c0] shape [4] : !tile.view<?xi32> -> tensor<4xi32>
  // expected-error @+1 {{'arith.floordivsi' op divides by the constant zero (element 2)}}
  %r = arith.floordivsi %a, %d : tensor<4xi32>
  return
}

// -----

func.func @min_by_minus_one(%X: !tile.view<?xi32> {tile.name = "X"})
    attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %min = tile.full -2147483648 shape [16] : tensor<16xi32>
  %m1 = arith.constant dense<-1> : tensor<16xi32>
  // expected-error @+1 {{'arith.divsi' op divides the constant -2147483648 (the minimum i32) by -1, which overflows: undefined behaviour, which the GPU lowering turns into a kernel that does nothing}}
  %q = arith.divsi %min, %m1 : tensor<16xi32>
  tile.store %q, %X[%c0] : tensor<16xi32>, !tile.view<?xi32>
  return
}

// -----

// Unsigned, the same bits are a plain division; a divisor known only at
// run time is not refused (docs/design.md: division by zero on the GPU).
func.func @fine(%X: !tile.view<?xi32> {tile.name = "X"}, %n: i32 {tile.name = "n"})
    attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %min = tile.full -2147483648 shape [16] : tensor<16xi32>
  %m1 = arith.constant dense<-1> : tensor<16xi32>
  %q = arith.divui %min, %m1 : tensor<16xi32>
  %s = tile.splat %n shape [16] : i32 -> tensor<16xi32>
  %r = arith.divsi %q, %s : tensor<16xi32>
  tile.store %r, %X[%c0] : tensor<16xi32>, !tile.view<?xi32>
  return
}

// -----

func.func @cf_loop(%X: !tile.view<?xf32> {tile.name = "X"})
    attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'cf.br' op branches to a block: a tile kernel has structured control flow only (scf.for, scf.while, scf.if)}}
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %next = arith.addi %i, %c1 : i32
  %done = arith.cmpi eq, %next, %c1 : i32
  cf.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  return
}

// -----

// Blocks without branches (unreachable ones) are unstructured too.
// expected-error @+1 {{'func.func' op has a region of several blocks: a tile kernel has structured control flow only (scf.for, scf.while, scf.if)}}
func.func @unreachable_block(%X: !tile.view<?xf32> {tile.name = "X"})
    attributes {tile.kernel = {}} {
  return
^dead:
  return
}
