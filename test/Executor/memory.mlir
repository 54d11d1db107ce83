// tile.load / tile.store on the CPU reference executor: tile-space indices,
// padding of out-of-bounds elements, `order` (transposed loads), stores that
// skip out-of-bounds elements, a grid of blocks.

// A [3x5] iota view in 2x2 tiles over a 2x3 grid: every block copies its
// tile; the padding of the ragged edge (zero) is never stored.
// RUN: tile-exec %s --kernel=copy --grid=3,2 --arg='f32[3x5]=iota' \
// RUN:   --arg='f32[3x5]=fill:-1' --print=Out | FileCheck %s --check-prefix=COPY
// COPY:      Out[0]: 0 1 2 3 4
// COPY-NEXT: Out[1]: 5 6 7 8 9
// COPY-NEXT: Out[2]: 10 11 12 13 14
func.func @copy(%In: !tile.view<?x?xf32> {tile.name = "In"},
                %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %bx = tile.block_id x
  %by = tile.block_id y
  %t = tile.load %In[%by, %bx] shape [2, 2] : !tile.view<?x?xf32> -> tensor<2x2xf32>
  tile.store %t, %Out[%by, %bx] : tensor<2x2xf32>, !tile.view<?x?xf32>
  return
}

// Padding: the tile [2x4] at tile indices (1, 1) of a [3x5] view covers
// rows 2..3 and columns 4..7; only (2, 4) is inside. The whole tile is
// stored into a [2x4] view at (0, 0), so the padding shows.
// RUN: tile-exec %s --kernel=pad_zero --arg='f32[3x5]=iota' \
// RUN:   --arg='f32[2x4]=fill:-1' --print=Out | FileCheck %s --check-prefix=PADZ
// PADZ:      Out[0]: 14 0 0 0
// PADZ-NEXT: Out[1]: 0 0 0 0
func.func @pad_zero(%In: !tile.view<?x?xf32> {tile.name = "In"},
                    %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = tile.load %In[%c1, %c1] shape [2, 4] : !tile.view<?x?xf32> -> tensor<2x4xf32>
  tile.store %t, %Out[%c0, %c0] : tensor<2x4xf32>, !tile.view<?x?xf32>
  return
}

// RUN: tile-exec %s --kernel=pad_modes --arg='f16[3]=values:1,2,3' \
// RUN:   --arg='f16[4x4]=zeros' --print=Out | FileCheck %s --check-prefix=PADM
// PADM:      Out[0]: 1 2 3 0
// PADM-NEXT: Out[1]: 1 2 3 -inf
// PADM-NEXT: Out[2]: 1 2 3 inf
// PADM-NEXT: Out[3]: 1 2 3 nan
func.func @pad_modes(%In: !tile.view<?xf16> {tile.name = "In"},
                     %Out: !tile.view<?x?xf16> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %z = tile.load %In[%c0] shape [4] : !tile.view<?xf16> -> tensor<4xf16>
  %n = tile.load %In[%c0] shape [4] padding neg_inf : !tile.view<?xf16> -> tensor<4xf16>
  %p = tile.load %In[%c0] shape [4] padding pos_inf : !tile.view<?xf16> -> tensor<4xf16>
  %q = tile.load %In[%c0] shape [4] padding nan : !tile.view<?xf16> -> tensor<4xf16>
  %z2 = tile.reshape %z shape [1, 4] : tensor<4xf16> -> tensor<1x4xf16>
  %n2 = tile.reshape %n shape [1, 4] : tensor<4xf16> -> tensor<1x4xf16>
  %p2 = tile.reshape %p shape [1, 4] : tensor<4xf16> -> tensor<1x4xf16>
  %q2 = tile.reshape %q shape [1, 4] : tensor<4xf16> -> tensor<1x4xf16>
  tile.store %z2, %Out[%c0, %c0] : tensor<1x4xf16>, !tile.view<?x?xf16>
  tile.store %n2, %Out[%c1, %c0] : tensor<1x4xf16>, !tile.view<?x?xf16>
  tile.store %p2, %Out[%c2, %c0] : tensor<1x4xf16>, !tile.view<?x?xf16>
  tile.store %q2, %Out[%c3, %c0] : tensor<1x4xf16>, !tile.view<?x?xf16>
  return
}

// Transposed load: tile dimension 0 walks view dimension 1 and tile
// dimension 1 walks view dimension 0; the tile indices are in tile space.
// The [4x2] tile at (0, 1) of a [3x4] view covers view rows 2..3 (row 3 is
// outside: padding -inf) and columns 0..3.
// RUN: tile-exec %s --kernel=transposed --arg='f32[3x4]=iota' \
// RUN:   --arg='f32[4x2]=fill:7' --print=Out | FileCheck %s --check-prefix=TRANS
// TRANS:      Out[0]: 8 -inf
// TRANS-NEXT: Out[1]: 9 -inf
// TRANS-NEXT: Out[2]: 10 -inf
// TRANS-NEXT: Out[3]: 11 -inf
func.func @transposed(%In: !tile.view<?x?xf32> {tile.name = "In"},
                      %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %t = tile.load %In[%c0, %c1] shape [4, 2] order [1, 0] padding neg_inf
      : !tile.view<?x?xf32> -> tensor<4x2xf32>
  tile.store %t, %Out[%c0, %c0] : tensor<4x2xf32>, !tile.view<?x?xf32>
  return
}

// The fmha kernel's K load: rank 4, order [0, 1, 3, 2].
// View [1x2x3x2] (b, h, n, d) = iota; tile [1x1x2x4] at (0, 1, 0, 0): tile
// dim 2 walks d (2 entries), tile dim 3 walks n (3 of 4 inside).
// RUN: tile-exec %s --kernel=transposed4 --arg='f32[1x2x3x2]=iota' \
// RUN:   --arg='f32[2x4]=fill:-1' --print=Out | FileCheck %s --check-prefix=T4
// T4:      Out[0]: 6 8 10 0
// T4-NEXT: Out[1]: 7 9 11 0
func.func @transposed4(%K: !tile.view<?x?x?x?xf32> {tile.name = "K"},
                       %Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %k4 = tile.load %K[%c0, %c1, %c0, %c0] shape [1, 1, 2, 4] order [0, 1, 3, 2]
      : !tile.view<?x?x?x?xf32> -> tensor<1x1x2x4xf32>
  %k = tile.reshape %k4 shape [2, 4] : tensor<1x1x2x4xf32> -> tensor<2x4xf32>
  tile.store %k, %Out[%c0, %c0] : tensor<2x4xf32>, !tile.view<?x?xf32>
  return
}

// Stores skip out-of-bounds elements, at every edge: a [2x3] tile at tile
// indices (1, 1) of a [3x4] view writes only rows 2..3 x columns 3..5 that
// exist: (2, 3). Negative tile indices write nothing.
// RUN: tile-exec %s --kernel=store_bounds --arg='f32[3x4]=fill:0' \
// RUN:   --print=Out | FileCheck %s --check-prefix=STORE
// STORE:      Out[0]: 0 0 0 0
// STORE-NEXT: Out[1]: 0 0 0 0
// STORE-NEXT: Out[2]: 0 0 0 5
func.func @store_bounds(%Out: !tile.view<?x?xf32> {tile.name = "Out"}) {
  %c1 = arith.constant 1 : i32
  %cm1 = arith.constant -1 : i32
  %v = tile.full 5.0 shape [2, 3] : tensor<2x3xf32>
  %w = tile.full 9.0 shape [2, 3] : tensor<2x3xf32>
  tile.store %v, %Out[%c1, %c1] : tensor<2x3xf32>, !tile.view<?x?xf32>
  tile.store %w, %Out[%cm1, %c1] : tensor<2x3xf32>, !tile.view<?x?xf32>
  tile.store %w, %Out[%c1, %cm1] : tensor<2x3xf32>, !tile.view<?x?xf32>
  return
}

// Integer and i1 views; tile.dim.
// RUN: tile-exec %s --kernel=ints --arg='i8[4]=values:-128,-1,0,127' \
// RUN:   --arg='i1[4]=values:1,0,1,1' --arg='i32[5]=fill:-7' \
// RUN:   --print=Out | FileCheck %s --check-prefix=INTS
// INTS: Out: -128 -1 0 127 34
func.func @ints(%A: !tile.view<?xi8> {tile.name = "A"},
                %M: !tile.view<?xi1> {tile.name = "M"},
                %Out: !tile.view<?xi32> {tile.name = "Out"}) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %a = tile.load %A[%c0] shape [4] : !tile.view<?xi8> -> tensor<4xi8>
  %a32 = tile.astype %a : tensor<4xi8> -> tensor<4xi32>
  tile.store %a32, %Out[%c0] : tensor<4xi32>, !tile.view<?xi32>
  // Out[4] = 10 * (number of true in M) + dim(M, 0) = 10 * 3 + 4.
  %n = tile.dim %M[0] : !tile.view<?xi1>
  %m = tile.load %M[%c0] shape [4] : !tile.view<?xi1> -> tensor<4xi1>
  %ones = tile.astype %m : tensor<4xi1> -> tensor<4xi32>
  %count = tile.reduce %ones sum axis 0 keepdims : tensor<4xi32> -> tensor<1xi32>
  %c10 = tile.full 10 shape [1] : tensor<1xi32>
  %tens = arith.muli %count, %c10 : tensor<1xi32>
  %dim = tile.splat %n shape [1] : i32 -> tensor<1xi32>
  %r4 = arith.addi %tens, %dim : tensor<1xi32>
  tile.store %r4, %Out[%c4] : tensor<1xi32>, !tile.view<?xi32>
  return
}
