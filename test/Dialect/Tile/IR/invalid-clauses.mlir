// Errors of the optional clauses (any order, each once): a keyword that is no
// clause names the clauses the op takes; a clause given twice says so.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @load_unknown_clause(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{unknown clause 'latncy': expected 'order', 'latency', 'padding', or ':' and the types}}
  %0 = tile.load %v[%i, %i] shape [8, 16] latncy 2 : !tile.view<?x?xf16> -> tensor<8x16xf16>
  return
}

// -----

func.func @load_clause_twice(%v: !tile.view<?x?xf16>, %i: i32) {
  // expected-error @+1 {{clause 'latency' given twice}}
  %0 = tile.load %v[%i, %i] shape [8, 16] latency 2 padding neg_inf latency 3 : !tile.view<?x?xf16> -> tensor<8x16xf16>
  return
}

// -----

func.func @gather_unknown_clause(%X: !tile.view<?x?xf16>, %r: tensor<4x8xi32>) {
  // expected-error @+1 {{unknown clause 'order': expected 'mask', 'padding', or ':' and the types}}
  %g = tile.gather %X[%r, %r] order [1, 0] : !tile.view<?x?xf16>, tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xf16>
  return
}

// -----

func.func @gather_clause_twice(%X: !tile.view<?x?xf16>, %r: tensor<4x8xi32>, %m: tensor<4x8xi1>) {
  // expected-error @+1 {{clause 'mask' given twice}}
  %g = tile.gather %X[%r, %r] mask %m : tensor<4x8xi1> mask %m : tensor<4x8xi1> : !tile.view<?x?xf16>, tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xf16>
  return
}

// -----

func.func @atomic_unknown_clause(%L: !tile.view<?xi32>, %i: i32) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{unknown clause 'order': expected 'compare', 'mask', 'sem', or ':' and the types}}
  tile.atomic add %c0, %L[%i] order relaxed : i32, !tile.view<?xi32>
  return
}

// -----

func.func @atomic_clause_twice(%L: !tile.view<?xi32>, %i: i32) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{clause 'sem' given twice}}
  tile.atomic add %c0, %L[%i] sem acquire sem release : i32, !tile.view<?xi32>
  return
}

// -----

func.func @atomic_sem_syntax(%L: !tile.view<?xi32>, %i: i32) {
  %c0 = arith.constant 0 : i32
  // expected-error @+2 {{expected ::mlir::tile::MemoryOrder to be one of: relaxed, acquire, release, acq_rel}}
  // expected-error @+1 {{failed to parse Tile_MemoryOrderAttr parameter 'value'}}
  tile.atomic add %c0, %L[%i] sem seq_cst : i32, !tile.view<?xi32>
  return
}
