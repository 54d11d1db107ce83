// Malformed input gives a located error and a non-zero exit status, never a
// crash: `not` fails the test if tile-opt crashes or exits with 0.
//
// RUN: not tile-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not tile-opt %s -split-input-file -tile-specialize -canonicalize 2>&1 | FileCheck %s
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump

func.func @wrong_accumulator(%a: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  // CHECK: malformed.mlir:[[# @LINE + 1]]:8: error: 'tile.mma' op the accumulator must be f32
  %0 = tile.mma %a, %a, %c : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>
  return
}

// -----

func.func @wrong_rank(%v: !tile.view<?x?xf16>, %i: i32) {
  // CHECK: malformed.mlir:[[# @LINE + 1]]:8: error: 'tile.load' op takes 2 tile indices for a rank-2 view, got 1
  %0 = tile.load %v[%i] shape [16, 16] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @bad_shape() {
  // CHECK: malformed.mlir:[[# @LINE + 1]]:33: error: custom op 'tile.full' expected a size, a parameter name or an expression of them
  %0 = tile.full 0.0 shape [16, 1.5] : tensor<16x?xf32>
  return
}

// -----

// CHECK: malformed.mlir:[[# @LINE + 1]]:38: error: view dimensions are known only at run time
func.func @static_view(%v: !tile.view<16x16xf16>) {
  return
}

// -----

func.func @unknown_op() {
  // CHECK: malformed.mlir:[[# @LINE + 1]]:8: error: custom op 'tile.mystery' is unknown
  %0 = tile.mystery : i32
  return
}

// -----

func.func @undeclared_param() attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  // CHECK: malformed.mlir:[[# @LINE + 1]]:8: error: 'tile.param' op parameter 'TILE_K' is not declared
  %0 = tile.param "TILE_K" : i32
  return
}

// -----

func.func @type_mismatch(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = tile.exp2 %x : tensor<4xf32>
  // CHECK: malformed.mlir:[[# @LINE + 1]]:10: error: use of value '%x' expects different type than prior uses
  return %x : tensor<4xf16>
}

// -----

// An unterminated region at the end of the input.
// CHECK: malformed.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected operation name in quotes
func.func @unterminated() {
  %0 = tile.block_id x
