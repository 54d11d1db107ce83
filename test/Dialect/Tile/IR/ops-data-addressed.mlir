// The ops of memory that data decides round-trip through the custom syntax,
// the generic form and verify-roundtrip: loads and stores at element
// offsets, tile.read, tile.gather, tile.scatter, tile.atomic (tile and
// scalar, every clause) and the min/argmin/argmax reductions.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip | FileCheck %s

// CHECK-LABEL: func.func @element_offsets
// CHECK: tile.load %{{.*}} at [%{{.*}}, %{{.*}}] shape [16, ROWS] order [1, 0] latency 2 padding neg_inf
// CHECK: tile.store %{{.*}}, %{{.*}} at [%{{.*}}, %{{.*}}] :
// CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] shape [4, 4] :
func.func @element_offsets(%X: !tile.view<?x?xf16>, %i: i32, %j: i32)
    attributes {tile.params = {ROWS = 8 : i32}} {
  %t = tile.load %X at [%i, %j] shape [16, ROWS] order [1, 0] latency 2 padding neg_inf
      : !tile.view<?x?xf16> -> tensor<16x?xf16>
  tile.store %t, %X at [%j, %i] : tensor<16x?xf16>, !tile.view<?x?xf16>
  %u = tile.load %X[%i, %j] shape [4, 4] : !tile.view<?x?xf16> -> tensor<4x4xf16>
  return
}

// CHECK-LABEL: func.func @read
// CHECK: %{{.*}} = tile.read %{{.*}}[%{{.*}}, %{{.*}}] : <?x?xi32> -> i32
func.func @read(%T: !tile.view<?x?xi32>, %b: i32, %p: i32) -> i32 {
  %page = tile.read %T[%b, %p] : !tile.view<?x?xi32> -> i32
  return %page : i32
}

// CHECK-LABEL: func.func @gather_scatter
// CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] : <?x?xf16>, tensor<4x8xi32>, tensor<4x8xi64> -> tensor<4x8xf16>
// CHECK: tile.gather %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<4x8xi1> padding neg_inf :
// CHECK: tile.scatter %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<4x8xi1> : tensor<4x8xf16>, <?x?xf16>, tensor<4x8xi32>, tensor<4x8xi64>
func.func @gather_scatter(%X: !tile.view<?x?xf16>, %r: tensor<4x8xi32>,
                          %c: tensor<4x8xi64>, %m: tensor<4x8xi1>) {
  %g = tile.gather %X[%r, %c] : !tile.view<?x?xf16>, tensor<4x8xi32>, tensor<4x8xi64> -> tensor<4x8xf16>
  %h = tile.gather %X[%r, %c] mask %m : tensor<4x8xi1> padding neg_inf
      : !tile.view<?x?xf16>, tensor<4x8xi32>, tensor<4x8xi64> -> tensor<4x8xf16>
  tile.scatter %g, %X[%r, %c] mask %m : tensor<4x8xi1>
      : tensor<4x8xf16>, !tile.view<?x?xf16>, tensor<4x8xi32>, tensor<4x8xi64>
  return
}

// CHECK-LABEL: func.func @atomics
// CHECK: tile.atomic add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x8xf32>, <?x?xf32>
// CHECK: tile.atomic max %{{.*}}, %{{.*}} at [%{{.*}}, %{{.*}}] mask %{{.*}} : tensor<4x8xi1> sem acq_rel : tensor<4x8xf32>, <?x?xf32> -> tensor<4x8xf32>
// CHECK: tile.atomic cas %{{.*}}, %{{.*}}[%{{.*}}] compare %{{.*}} : i32 sem acquire : i32, <?xi32> -> i32
// CHECK: tile.atomic xchg %{{.*}}, %{{.*}}[%{{.*}}] sem release : i32, <?xi32>
// CHECK-NOT: sem relaxed
func.func @atomics(%A: !tile.view<?x?xf32>, %L: !tile.view<?xi32>,
                   %t: tensor<4x8xf32>, %m: tensor<4x8xi1>, %i: i32) {
  tile.atomic add %t, %A[%i, %i] sem relaxed : tensor<4x8xf32>, !tile.view<?x?xf32>
  %old = tile.atomic max %t, %A at [%i, %i] mask %m : tensor<4x8xi1> sem acq_rel
      : tensor<4x8xf32>, !tile.view<?x?xf32> -> tensor<4x8xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %was = tile.atomic cas %c1, %L[%i] compare %c0 : i32 sem acquire
      : i32, !tile.view<?xi32> -> i32
  tile.atomic xchg %c0, %L[%i] sem release : i32, !tile.view<?xi32>
  return
}

// CHECK-LABEL: func.func @reductions
// CHECK: tile.reduce %{{.*}} min axis 1 keepdims
// CHECK: tile.reduce %{{.*}} argmax axis 1 : tensor<4x8xf32> -> tensor<4xi32>
// CHECK: tile.reduce %{{.*}} argmin axis 0 keepdims : tensor<4x8xf32> -> tensor<1x8xi32>
func.func @reductions(%x: tensor<4x8xf32>) {
  %m = tile.reduce %x min axis 1 keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %a = tile.reduce %x argmax axis 1 : tensor<4x8xf32> -> tensor<4xi32>
  %b = tile.reduce %x argmin axis 0 keepdims : tensor<4x8xf32> -> tensor<1x8xi32>
  return
}
