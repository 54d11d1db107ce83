// Where tile ops may be and what they count in (issue 26): tile ops at
// module level verified and were silently dropped by the lowering; an iota
// of i1, i8 or i16 verified and failed inside the GPU lowering.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.iota' op must be inside a function (a kernel's func.func), not at module level}}
%0 = tile.iota shape [4] dim 0 : tensor<4xi32>

// -----

"builtin.module"() ({
  // expected-error @+1 {{'tile.full' op must be inside a function (a kernel's func.func), not at module level}}
  %0 = tile.full 0.0 shape [4] : tensor<4xf32>
}) : () -> ()

// -----

func.func @iota_i8() {
  // expected-error @+1 {{'tile.iota' op counts in i32 or i64, not 'i8' (convert the result with arith.trunci)}}
  %0 = tile.iota shape [4] dim 0 : tensor<4xi8>
  return
}

// -----

func.func @iota_i16() {
  // expected-error @+1 {{'tile.iota' op counts in i32 or i64, not 'i16'}}
  %0 = tile.iota shape [4] dim 0 : tensor<4xi16>
  return
}

// -----

func.func @iota_i1() {
  // expected-error @+1 {{'tile.iota' op counts in i32 or i64, not 'i1'}}
  %0 = tile.iota shape [2] dim 0 : tensor<2xi1>
  return
}

// -----

// In a function, nested in scf, of i32 and i64: fine.
func.func @fine(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = tile.iota shape [4] dim 0 : tensor<4xi64>
    %1 = tile.iota shape [4] dim 0 : tensor<4xi32>
  }
  return
}
