// The most common type error of a new kernel: a tile type written with a
// number where the value's definition gives '?' (a size that names a
// parameter), or the other way, on a loop-carried value or a yield. MLIR's
// parser reports "expects different type than prior uses"; the tools add a
// note that names the dimension and says what to write.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// The loop's iter_args declared with a static size, the initial value '?'.
func.func @iter_arg_static(%X: !tile.view<?x?xf32> {tile.name = "X"})
    attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  // expected-note @+1 {{prior use here}}
  %m0 = tile.full -inf shape [TILE_M, 1] : tensor<?x1xf32>
  // expected-error @+2 {{use of value '%m0' expects different type than prior uses: 'tensor<64x1xf32>' vs 'tensor<?x1xf32>'}}
  // expected-note @+1 {{tile types must agree exactly on every use of a value: dimension 0 is 64 here but ? where the value was first typed; a shape size that names a parameter (shape [TILE_M, 1]) is '?' until tile-specialize binds it, a number stays that number: write 'tensor<?x1xf32>' here, and the same in scf.for's iter_args and result types and in scf.yield (or change the value's definition)}}
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%m = %m0) -> (tensor<64x1xf32>) : i32 {
    scf.yield %m : tensor<64x1xf32>
  }
  return
}

// -----

// The yield typed with a static size, the yielded value '?'.
func.func @yield_static(%X: !tile.view<?x?xf32> {tile.name = "X"})
    attributes {tile.kernel = {}, tile.params = {TILE_M = 64 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %m0 = tile.full -inf shape [TILE_M, 1] : tensor<?x1xf32>
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%m = %m0) -> (tensor<?x1xf32>) : i32 {
    %t = tile.load %X[%j, %c0] shape [TILE_M, 64] : !tile.view<?x?xf32> -> tensor<?x64xf32>
    // expected-note @+1 {{prior use here}}
    %mx = tile.reduce %t max axis 1 keepdims : tensor<?x64xf32> -> tensor<?x1xf32>
    // expected-error @+2 {{use of value '%mx' expects different type than prior uses: 'tensor<64x1xf32>' vs 'tensor<?x1xf32>'}}
    // expected-note @+1 {{dimension 0 is 64 here but ? where the value was first typed}}
    scf.yield %mx : tensor<64x1xf32>
  }
  return
}

// -----

// The other way: a static tile (shape [64, 1]) used as '?'.
func.func @dynamic_for_static() attributes {tile.kernel = {}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  // expected-note @+1 {{prior use here}}
  %acc0 = tile.full 0.0 shape [64, 1] : tensor<64x1xf32>
  // expected-error @+2 {{use of value '%acc0' expects different type than prior uses: 'tensor<?x1xf32>' vs 'tensor<64x1xf32>'}}
  // expected-note @+1 {{dimension 0 is ? here but 64 where the value was first typed; a shape size that names a parameter (shape [TILE_M, 1]) is '?' until tile-specialize binds it, a number stays that number: write 'tensor<64x1xf32>' here}}
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%a = %acc0) -> (tensor<?x1xf32>) : i32 {
    scf.yield %a : tensor<?x1xf32>
  }
  return
}

// -----

// Two numbers that differ: the note without the '?' explanation.
func.func @two_sizes() {
  // expected-note @+1 {{prior use here}}
  %a = tile.full 0.0 shape [64, 1] : tensor<64x1xf32>
  // expected-error @+2 {{use of value '%a' expects different type than prior uses: 'tensor<32x1xf32>' vs 'tensor<64x1xf32>'}}
  // expected-note @+1 {{tile types must agree exactly on every use of a value: dimension 0 is 32 here but 64 where the value was first typed: write 'tensor<64x1xf32>' here}}
  %b = arith.addf %a, %a : tensor<32x1xf32>
  return
}

// -----

// Other mismatches (element types) keep MLIR's message alone.
func.func @element_type() {
  // expected-note @+1 {{prior use here}}
  %a = tile.full 0.0 shape [64, 1] : tensor<64x1xf32>
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'tensor<64x1xf16>' vs 'tensor<64x1xf32>'}}
  %b = arith.addf %a, %a : tensor<64x1xf16>
  return
}
