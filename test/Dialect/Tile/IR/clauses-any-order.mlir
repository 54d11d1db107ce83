// The optional clauses of tile.load (order, latency, padding), tile.gather
// (mask, padding) and tile.atomic (compare, mask, sem) come in any order and
// print in one order; a clause given twice or a keyword that is no clause is
// an error that names the clauses.
//
// RUN: tile-opt %s -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file --mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @load_clauses
// CHECK-COUNT-4: tile.load %{{.*}}[%{{.*}}, %{{.*}}] shape [8, 16] order [1, 0] latency 3 padding neg_inf : <?x?xf16> -> tensor<8x16xf16>
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] shape [8, 16] latency 2 : <?x?xf16> -> tensor<8x16xf16>
func.func @load_clauses(%v: !tile.view<?x?xf16>, %i: i32) {
  %a = tile.load %v[%i, %i] shape [8, 16] order [1, 0] latency 3 padding neg_inf
      : !tile.view<?x?xf16> -> tensor<8x16xf16>
  %b = tile.load %v[%i, %i] shape [8, 16] padding neg_inf latency 3 order [1, 0]
      : !tile.view<?x?xf16> -> tensor<8x16xf16>
  %c = tile.load %v[%i, %i] shape [8, 16] latency 3 order [1, 0] padding neg_inf
      : !tile.view<?x?xf16> -> tensor<8x16xf16>
  %d = tile.load %v[%i, %i] shape [8, 16] padding neg_inf order [1, 0] latency 3
      : !tile.view<?x?xf16> -> tensor<8x16xf16>
  // The default padding (zero) is not printed.
  %e = tile.load %v[%i, %i] shape [8, 16] padding zero latency 2
      : !tile.view<?x?xf16> -> tensor<8x16xf16>
  return
}

// -----

// CHECK-LABEL: func.func @gather_clauses
// CHECK-COUNT-2: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<4x8xi1> padding neg_inf : <?x?xf16>, tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xf16>
func.func @gather_clauses(%X: !tile.view<?x?xf16>, %r: tensor<4x8xi32>, %m: tensor<4x8xi1>) {
  %g = tile.gather %X[%r, %r] mask %m : tensor<4x8xi1> padding neg_inf
      : !tile.view<?x?xf16>, tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xf16>
  %h = tile.gather %X[%r, %r] padding neg_inf mask %m : tensor<4x8xi1>
      : !tile.view<?x?xf16>, tensor<4x8xi32>, tensor<4x8xi32> -> tensor<4x8xf16>
  return
}

// -----

// CHECK-LABEL: func.func @atomic_clauses
// CHECK-COUNT-2: tile.atomic cas %{{.*}}, %{{.*}}[%{{.*}}] compare %{{.*}} : i32 sem acquire : i32, <?xi32> -> i32
// CHECK-COUNT-2: tile.atomic max %{{.*}}, %{{.*}} at [%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<4x8xi1> sem acq_rel : tensor<4x8xf32>, <?x?xf32> -> tensor<4x8xf32>
func.func @atomic_clauses(%A: !tile.view<?x?xf32>, %L: !tile.view<?xi32>, %t: tensor<4x8xf32>,
                          %m: tensor<4x8xi1>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tile.atomic cas %c1, %L[%i] compare %c0 : i32 sem acquire : i32, !tile.view<?xi32> -> i32
  %b = tile.atomic cas %c1, %L[%i] sem acquire compare %c0 : i32 : i32, !tile.view<?xi32> -> i32
  %c = tile.atomic max %t, %A at [%i, %i] mask %m : tensor<4x8xi1> sem acq_rel
      : tensor<4x8xf32>, !tile.view<?x?xf32> -> tensor<4x8xf32>
  %d = tile.atomic max %t, %A at [%i, %i] sem acq_rel mask %m : tensor<4x8xi1>
      : tensor<4x8xf32>, !tile.view<?x?xf32> -> tensor<4x8xf32>
  return
}
