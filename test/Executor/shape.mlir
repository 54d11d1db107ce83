// Tile construction and shape ops on the CPU reference executor: reduce
// (sum/max, every axis, keepdims or not), broadcast, reshape, permute, iota,
// full, splat.

// RUN: tile-exec %s --kernel=reduce --arg='f32[2x3]=iota' \
// RUN:   --arg='f32[2x3x2]=iota' --arg='f32[2x1]=fill:-1' \
// RUN:   --arg='f32[3]=fill:-1' --arg='f32[2x2]=fill:-1' \
// RUN:   --print=RowSum,ColMax,Mid | FileCheck %s --check-prefix=RED
// RED:      RowSum[0]: 3
// RED-NEXT: RowSum[1]: 12
// RED-NEXT: ColMax: 3 4 5
// RED-NEXT: Mid[0]: 6 9
// RED-NEXT: Mid[1]: 24 27
func.func @reduce(%A: !tile.view<?x?xf32> {tile.name = "A"},
                  %B: !tile.view<?x?x?xf32> {tile.name = "B"},
                  %RowSum: !tile.view<?x?xf32> {tile.name = "RowSum"},
                  %ColMax: !tile.view<?xf32> {tile.name = "ColMax"},
                  %Mid: !tile.view<?x?xf32> {tile.name = "Mid"}) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %A[%c0, %c0] shape [2, 3] : !tile.view<?x?xf32> -> tensor<2x3xf32>
  %rs = tile.reduce %a sum axis 1 keepdims : tensor<2x3xf32> -> tensor<2x1xf32>
  tile.store %rs, %RowSum[%c0, %c0] : tensor<2x1xf32>, !tile.view<?x?xf32>
  %cm = tile.reduce %a max axis 0 : tensor<2x3xf32> -> tensor<3xf32>
  tile.store %cm, %ColMax[%c0] : tensor<3xf32>, !tile.view<?xf32>
  %b = tile.load %B[%c0, %c0, %c0] shape [2, 3, 2] : !tile.view<?x?x?xf32> -> tensor<2x3x2xf32>
  %mid = tile.reduce %b sum axis 1 : tensor<2x3x2xf32> -> tensor<2x2xf32>
  tile.store %mid, %Mid[%c0, %c0] : tensor<2x2xf32>, !tile.view<?x?xf32>
  return
}

// Max propagates NaN and orders -0 below +0 (as arith.maximumf); integer
// reductions are signed and wrap.
// RUN: tile-exec %s --kernel=reduce_special \
// RUN:   --arg='f32[2x3]=values:1,nan,3,-0,0,-0' --arg='i8[4]=values:100,100,-3,0' \
// RUN:   --arg='f32[2]=fill:7' --arg='i8[2]=fill:7' --hex --print=FMax \
// RUN:   | FileCheck %s --check-prefix=SPECIAL
// SPECIAL: FMax: 0x7fc00000 0x00000000
// RUN: tile-exec %s --kernel=reduce_special \
// RUN:   --arg='f32[2x3]=values:1,nan,3,-0,0,-0' --arg='i8[4]=values:100,100,-3,0' \
// RUN:   --arg='f32[2]=fill:7' --arg='i8[2]=fill:7' --print=IRed \
// RUN:   | FileCheck %s --check-prefix=IRED
// IRED: IRed: -59 100
func.func @reduce_special(%A: !tile.view<?x?xf32> {tile.name = "A"},
                          %I: !tile.view<?xi8> {tile.name = "I"},
                          %FMax: !tile.view<?xf32> {tile.name = "FMax"},
                          %IRed: !tile.view<?xi8> {tile.name = "IRed"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tile.load %A[%c0, %c0] shape [2, 3] : !tile.view<?x?xf32> -> tensor<2x3xf32>
  %m = tile.reduce %a max axis 1 : tensor<2x3xf32> -> tensor<2xf32>
  tile.store %m, %FMax[%c0] : tensor<2xf32>, !tile.view<?xf32>
  %i = tile.load %I[%c0] shape [4] : !tile.view<?xi8> -> tensor<4xi8>
  %s = tile.reduce %i sum axis 0 keepdims : tensor<4xi8> -> tensor<1xi8>
  %x = tile.reduce %i max axis 0 keepdims : tensor<4xi8> -> tensor<1xi8>
  tile.store %s, %IRed[%c0] : tensor<1xi8>, !tile.view<?xi8>
  tile.store %x, %IRed[%c1] : tensor<1xi8>, !tile.view<?xi8>
  return
}

// Broadcast, permute (rank 2 and 3), reshape.
// RUN: tile-exec %s --kernel=shapes --arg='f32[2x3]=iota' \
// RUN:   --arg='f32[2x3]=fill:-1' --arg='f32[3x2]=fill:-1' \
// RUN:   --arg='f32[3x2]=fill:-1' --arg='f32[2x3]=fill:-1' \
// RUN:   --print=Bcast,Perm,Perm3,Resh | FileCheck %s --check-prefix=SHAPES
// SHAPES:      Bcast[0]: 0 0 0
// SHAPES-NEXT: Bcast[1]: 3 3 3
// SHAPES-NEXT: Perm[0]: 0 3
// SHAPES-NEXT: Perm[1]: 1 4
// SHAPES-NEXT: Perm[2]: 2 5
// SHAPES-NEXT: Perm3[0]: 0 3
// SHAPES-NEXT: Perm3[1]: 1 4
// SHAPES-NEXT: Perm3[2]: 2 5
// SHAPES-NEXT: Resh[0]: 0 1 2
// SHAPES-NEXT: Resh[1]: 3 4 5
func.func @shapes(%A: !tile.view<?x?xf32> {tile.name = "A"},
                  %Bcast: !tile.view<?x?xf32> {tile.name = "Bcast"},
                  %Perm: !tile.view<?x?xf32> {tile.name = "Perm"},
                  %Perm3: !tile.view<?x?xf32> {tile.name = "Perm3"},
                  %Resh: !tile.view<?x?xf32> {tile.name = "Resh"}) {
  %c0 = arith.constant 0 : i32
  %a = tile.load %A[%c0, %c0] shape [2, 3] : !tile.view<?x?xf32> -> tensor<2x3xf32>
  // Column 0 of a, broadcast along the row.
  %col = tile.load %A[%c0, %c0] shape [2, 1] : !tile.view<?x?xf32> -> tensor<2x1xf32>
  %b = tile.broadcast %col shape [2, 3] : tensor<2x1xf32> -> tensor<2x3xf32>
  tile.store %b, %Bcast[%c0, %c0] : tensor<2x3xf32>, !tile.view<?x?xf32>
  %p = tile.permute %a [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  tile.store %p, %Perm[%c0, %c0] : tensor<3x2xf32>, !tile.view<?x?xf32>
  // [1, 2, 3] -> [3, 1, 2]: result (i, 0, j) = source (0, j, i).
  %a3 = tile.reshape %a shape [1, 2, 3] : tensor<2x3xf32> -> tensor<1x2x3xf32>
  %p3 = tile.permute %a3 [2, 0, 1] : tensor<1x2x3xf32> -> tensor<3x1x2xf32>
  %p3r = tile.reshape %p3 shape [3, 2] : tensor<3x1x2xf32> -> tensor<3x2xf32>
  tile.store %p3r, %Perm3[%c0, %c0] : tensor<3x2xf32>, !tile.view<?x?xf32>
  // Row-major order is kept through reshapes.
  %flat = tile.reshape %a shape [6] : tensor<2x3xf32> -> tensor<6xf32>
  %back = tile.reshape %flat shape [2, 3] : tensor<6xf32> -> tensor<2x3xf32>
  tile.store %back, %Resh[%c0, %c0] : tensor<2x3xf32>, !tile.view<?x?xf32>
  return
}

// iota along each dimension, full (float, int, bool, inf), splat.
// RUN: tile-exec %s --kernel=construct --arg='i32[2x3]=zeros' \
// RUN:   --arg='i32[2x3]=zeros' --arg='f32[2x3]=zeros' --arg='i8[2x2]=zeros' \
// RUN:   --arg='f32=2.5' | FileCheck %s --check-prefix=CONS
// CONS:      Rows[0]: 0 0 0
// CONS-NEXT: Rows[1]: 1 1 1
// CONS-NEXT: Cols[0]: 0 1 2
// CONS-NEXT: Cols[1]: 0 1 2
// CONS-NEXT: F[0]: 2.5 2.5 -inf
// CONS-NEXT: F[1]: 0.100000001 -3 nan
// CONS-NEXT: I[0]: 1 -2
// CONS-NEXT: I[1]: 1 -2
func.func @construct(%Rows: !tile.view<?x?xi32> {tile.name = "Rows"},
                     %Cols: !tile.view<?x?xi32> {tile.name = "Cols"},
                     %F: !tile.view<?x?xf32> {tile.name = "F"},
                     %I: !tile.view<?x?xi8> {tile.name = "I"},
                     %s: f32 {tile.name = "s"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %rows = tile.iota shape [2, 3] dim 0 : tensor<2x3xi32>
  %cols = tile.iota shape [2, 3] dim 1 : tensor<2x3xi32>
  tile.store %rows, %Rows[%c0, %c0] : tensor<2x3xi32>, !tile.view<?x?xi32>
  tile.store %cols, %Cols[%c0, %c0] : tensor<2x3xi32>, !tile.view<?x?xi32>
  %splat = tile.splat %s shape [1, 2] : f32 -> tensor<1x2xf32>
  tile.store %splat, %F[%c0, %c0] : tensor<1x2xf32>, !tile.view<?x?xf32>
  %ninf = tile.full -inf shape [1, 1] : tensor<1x1xf32>
  tile.store %ninf, %F[%c0, %c2] : tensor<1x1xf32>, !tile.view<?x?xf32>
  %tenth = tile.full 0.1 shape [1, 1] : tensor<1x1xf32>
  tile.store %tenth, %F[%c1, %c0] : tensor<1x1xf32>, !tile.view<?x?xf32>
  %m3 = tile.full -3 shape [1, 1] : tensor<1x1xf32>
  tile.store %m3, %F[%c1, %c1] : tensor<1x1xf32>, !tile.view<?x?xf32>
  %nan = tile.full nan shape [1, 1] : tensor<1x1xf32>
  tile.store %nan, %F[%c1, %c2] : tensor<1x1xf32>, !tile.view<?x?xf32>
  // true converts to 1; -2 fills an integer tile.
  %t = tile.full true shape [2, 1] : tensor<2x1xi1>
  %t8 = tile.astype %t : tensor<2x1xi1> -> tensor<2x1xi8>
  tile.store %t8, %I[%c0, %c0] : tensor<2x1xi8>, !tile.view<?x?xi8>
  %m2 = tile.full -2 shape [2, 1] : tensor<2x1xi8>
  tile.store %m2, %I[%c0, %c1] : tensor<2x1xi8>, !tile.view<?x?xi8>
  return
}
