// Kernels the CPU reference executor refuses, with a located error and a
// non-zero exit, never a crash.

// RUN: not tile-exec %s --kernel=unsupported --arg='f32[4]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOSUCHOP
func.func @unsupported(%Out: !tile.view<?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %x = tile.full 1.0 shape [4] : tensor<4xf32>
  // NOSUCHOP: errors.mlir:[[@LINE+1]]:8: error: tile executor: unsupported operation 'math.sin'
  %y = math.sin %x : tensor<4xf32>
  tile.store %y, %Out[%c0] : tensor<4xf32>, !tile.view<?xf32>
  return
}

// An unspecialized kernel: the first parameter read is reported.
// RUN: not tile-exec %s --kernel=unbound --arg='f32[4]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNBOUND
func.func @unbound(%Out: !tile.view<?xf32> {tile.name = "Out"})
    attributes {tile.kernel = {grid = ["1", "1", "1"]}, tile.params = {N = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  // UNBOUND: errors.mlir:[[@LINE+1]]:8: error: tile executor: parameter 'N' is unbound; specialize the kernel (tile-specialize) before executing it
  %n = tile.param "N" : i32
  %x = tile.full 1.0 shape [N] : tensor<?xf32>
  tile.store %x, %Out[%c0] : tensor<?xf32>, !tile.view<?xf32>
  return
}

// Binding the parameter makes it run.
// RUN: tile-exec %s --kernel=unbound --bind=N=2 --arg='f32[4]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOUND
// BOUND: Out: 1 1 0 0

// A dynamic shape without any parameter read.
// RUN: not tile-exec %s --kernel=dynamic --arg='f32[4]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DYNAMIC
func.func @dynamic(%Out: !tile.view<?xf32> {tile.name = "Out"})
    attributes {tile.kernel = {grid = ["1", "1", "1"]}, tile.params = {N = 4 : i32}} {
  %c0 = arith.constant 0 : i32
  // DYNAMIC: errors.mlir:[[@LINE+1]]:8: error: tile executor: dynamic tile shape 'tensor<?xf32>'; specialize the kernel (tile-specialize) first
  %x = tile.full 1.0 shape [N] : tensor<?xf32>
  tile.store %x, %Out[%c0] : tensor<?xf32>, !tile.view<?xf32>
  return
}

// Integer division by zero at run time names the op and the block.
// RUN: not tile-exec %s --kernel=divzero --grid=3 --arg='i32[3]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIVZERO
func.func @divzero(%Out: !tile.view<?xi32> {tile.name = "Out"}) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %bx = tile.block_id x
  %d = arith.subi %c2, %bx : i32
  // DIVZERO: errors.mlir:[[@LINE+1]]:8: error: tile executor: integer division by zero (block 2, 0, 0)
  %q = arith.divsi %c1, %d : i32
  %t = tile.splat %q shape [1] : i32 -> tensor<1xi32>
  tile.store %t, %Out[%bx] : tensor<1xi32>, !tile.view<?xi32>
  return
}

// Arguments that do not match the kernel's views.
// RUN: not tile-exec %s --kernel=divzero --arg='i32[3x1]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RANK
// RANK: error: tile executor: argument 0 ('!tile.view<?xi32>'): expected rank 1, got 2 sizes and 2 strides
// RUN: not tile-exec %s --kernel=divzero --arg='f32[3]=zeros' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ELEM
// ELEM: error: tile executor: argument 0 ('!tile.view<?xi32>'): the view's memory has another element type
// RUN: not tile-exec %s --kernel=divzero --arg='i32=3' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTVIEW
// NOTVIEW: error: tile executor: argument 0 ('!tile.view<?xi32>'): expected a view

// A scf.for whose step is not positive.
// RUN: not tile-exec %s --kernel=step --arg='i32=0' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STEP
func.func @step(%s: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  // STEP: errors.mlir:[[@LINE+1]]:3: error: tile executor: scf.for step must be positive, got 0
  scf.for %i = %c0 to %c4 step %s : i32 {
  }
  return
}

// Element types the executor does not model.
// RUN: not tile-exec %s --kernel=f64 --arg='f32=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=F64
func.func @f64(%x: f32) {
  // F64: errors.mlir:[[@LINE+1]]:8: error: tile executor: unsupported type 'f64'
  %y = arith.extf %x : f32 to f64
  return
}

// Tiles too large for the host are refused before anything runs, with
// element counts that do not overflow (issue 11: "has
// -9223372036854775808 elements"). Ops with a shape spec refuse them in
// their verifier (test/Dialect/Tile/IR/invalid-sizes.mlir).
// RUN: not tile-exec %s --kernel=huge 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tile-exec %s --kernel=overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
func.func @huge() {
  // HUGE: errors.mlir:[[@LINE+1]]:8: error: tile executor: tile 'tensor<65536x65536xf32>' has 4294967296 elements, more than the 67108864 the executor holds
  %x = arith.constant dense<1.0> : tensor<65536x65536xf32>
  return
}
func.func @overflow() {
  // OVERFLOW: errors.mlir:[[@LINE+1]]:8: error: tile executor: tile 'tensor<4294967296x4294967296xf32>' has more than 2^63 elements, more than the 67108864 the executor holds
  %x = arith.constant dense<1.0> : tensor<4294967296x4294967296xf32>
  return
}

// Kernel arguments are views and scalars, not tiles.
// RUN: not tile-exec %s --kernel=tile_arg --arg='f32=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILEARG
// TILEARG: errors.mlir:[[@LINE+1]]:1: error: tile executor: kernel arguments are views and scalars, got 'tensor<4xf32>'
func.func @tile_arg(%t: tensor<4xf32>) {
  return
}

// Element types the executor does not hold: views of f64, f64 values.
// RUN: not tile-exec %s --compile-only --kernel=f64_view 2>&1 | FileCheck %s --check-prefix=F64-VIEW
// F64-VIEW: errors.mlir:[[# @LINE + 1]]:1: error: tile executor: views of 'f64' are not supported (i1, i8, i16, i32, i64, f16, bf16, f32, f8E4M3FN and f8E5M2 are)
func.func @f64_view(%In: !tile.view<?xf64>) {
  return
}
// RUN: not tile-exec %s --compile-only --kernel=f64_value 2>&1 | FileCheck %s --check-prefix=F64-VALUE
func.func @f64_value() {
  %x = tile.full 1.0 shape [4] : tensor<4xf32>
  // F64-VALUE: errors.mlir:[[@LINE+1]]:8: error: tile executor: unsupported element type 'f64' in 'tensor<4xf64>'
  %y = arith.extf %x : tensor<4xf32> to tensor<4xf64>
  return
}

// Kernels are functions with a body and no results, in one block.
// RUN: not tile-exec %s --compile-only --kernel=declaration 2>&1 | FileCheck %s --check-prefix=NO-BODY
// NO-BODY: errors.mlir:[[# @LINE + 1]]:1: error: tile executor: kernel has no body
func.func private @declaration(%x: i32)
// RUN: not tile-exec %s --compile-only --kernel=returns 2>&1 | FileCheck %s --check-prefix=RETURNS
// RETURNS: errors.mlir:[[# @LINE + 1]]:1: error: tile executor: a kernel returns nothing
func.func @returns(%x: i32) -> i32 {
  return %x : i32
}
// RUN: not tile-exec %s --compile-only --kernel=blocks 2>&1 | FileCheck %s --check-prefix=BLOCKS
// BLOCKS: errors.mlir:[[# @LINE + 1]]:1: error: tile executor: regions with several blocks are not supported
func.func @blocks(%x: i32) {
  cf.br ^next
^next:
  return
}

// Constants the executor cannot build, and rounding modes it does not have.
// RUN: not tile-exec %s --compile-only --kernel=resource_constant 2>&1 | FileCheck %s --check-prefix=CONSTANT
func.func @resource_constant() {
  // CONSTANT: errors.mlir:[[@LINE+1]]:8: error: tile executor: unsupported constant dense_resource<__elided__>
  %c = arith.constant dense_resource<__elided__> : tensor<4xf32>
  return
}
// RUN: not tile-exec %s --compile-only --kernel=resource_int_constant 2>&1 | FileCheck %s --check-prefix=INT-CONSTANT
func.func @resource_int_constant() {
  // INT-CONSTANT: errors.mlir:[[@LINE+1]]:8: error: tile executor: unsupported constant dense_resource<__elided__>
  %c = arith.constant dense_resource<__elided__> : tensor<4xi32>
  return
}
// RUN: not tile-exec %s --compile-only --kernel=truncf_rounding 2>&1 | FileCheck %s --check-prefix=TRUNCF
func.func @truncf_rounding(%x: f32) {
  // TRUNCF: errors.mlir:[[@LINE+1]]:8: error: tile executor: only the to_nearest_even rounding mode of arith.truncf is supported
  %y = arith.truncf %x to_nearest_away : f32 to f16
  return
}

// Grids refused: a size of 2^31 or more (tile-exec's parsing), more than
// 2^20 blocks (the executor).
// RUN: not tile-exec %s --kernel=grid_kernel --grid=2147483648 --arg='i32=0' 2>&1 | FileCheck %s --check-prefix=GRID-SIZE
// RUN: not tile-exec %s --kernel=grid_kernel --grid=2000000,2000000 --arg='i32=0' 2>&1 | FileCheck %s --check-prefix=GRID-BLOCKS
// GRID-SIZE: error: bad grid size in --grid=2147483648: '2147483648' is out of range (expected an integer in [0, 2147483647])
// GRID-BLOCKS: errors.mlir:[[# @LINE + 1]]:1: error: tile executor: the grid has more than 2^20 blocks, the most the CPU executor runs
func.func @grid_kernel(%x: i32) {
  return
}

// Choosing a view with arith.select is refused (it crashed the executor).
// RUN: not tile-exec %s --kernel=select_view --arg='f32[4]=zeros' \
// RUN:   --arg='f32[4]=zeros' --arg='i1=1' 2>&1 | FileCheck %s --check-prefix=SELVIEW
func.func @select_view(%A: !tile.view<?xf32> {tile.name = "A"},
                       %B: !tile.view<?xf32> {tile.name = "B"},
                       %c: i1 {tile.name = "c"}) {
  %c0 = arith.constant 0 : i32
  // SELVIEW: errors.mlir:[[@LINE+1]]:8: error: tile executor: arith.select between views is not supported; branch with scf.if around the accesses
  %v = arith.select %c, %A, %B : !tile.view<?xf32>
  %x = tile.full 1.0 shape [4] : tensor<4xf32>
  tile.store %x, %v[%c0] : tensor<4xf32>, !tile.view<?xf32>
  return
}
